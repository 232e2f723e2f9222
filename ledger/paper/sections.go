package paper

import (
	"github.com/yuin/goldmark/ast"
)

// Sections lists paper.md's fixed sections, by their fixed names, in order.
//
// The instructions ("Writing the paper") name seven: Summary, Claims,
// Methods, Results, Discussion, Limitations and Provenance. The reference
// library's PAPER_SECTIONS lacks Discussion; the instructions win, so a
// paper without a Discussion is flagged, and a Discussion heading counts
// when finding the depth the sections are at.
var Sections = []string{"Summary", "Claims", "Methods", "Results", "Discussion", "Limitations", "Provenance"}

func isSectionName(name string) bool {
	switch asciiLower(name) {
	case "summary", "claims", "methods", "results", "discussion", "limitations", "provenance":
		return true
	}
	return false
}

// sectionDepth is the heading level the paper's sections are at: the
// shallowest top-level heading that names one of the fixed sections, so a
// title above them is fine whatever level the paper starts at. 0 when no
// heading names one.
func sectionDepth(doc *document, src []byte) int {
	depth := 0
	for n := doc.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && isSectionName(jsTrim(plainText(h, src))) && (depth == 0 || h.Level < depth) {
			depth = h.Level
		}
	}
	return depth
}

// section is one of a paper's sections: its name as written and its body,
// the text from the end of its heading to the next heading at its level or
// shallower, or to the end.
type section struct {
	name string
	body string
}

// paperSections returns the paper's sections in order.
func paperSections(doc *document) []section {
	src := doc.src
	depth := sectionDepth(doc, src)
	if depth == 0 {
		return nil
	}
	var bounds []*ast.Heading
	for n := doc.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= depth {
			bounds = append(bounds, h)
		}
	}
	var sections []section
	for i, h := range bounds {
		if h.Level != depth {
			continue
		}
		end := len(doc.text)
		if i+1 < len(bounds) {
			end = headingSpan(bounds[i+1], doc.text).start
		}
		start := headingSpan(h, doc.text).end
		sections = append(sections, section{name: jsTrim(plainText(h, src)), body: doc.text[start:max(start, end)]})
	}
	return sections
}

// MissingSections returns the fixed sections a paper lacks, in order.
func MissingSections(markdown string) []string {
	return missingSections(parseMarkdown(markdown))
}

func missingSections(doc *document) []string {
	present := map[string]bool{}
	for _, s := range paperSections(doc) {
		present[asciiLower(s.name)] = true
	}
	missing := []string{}
	for _, name := range Sections {
		if !present[asciiLower(name)] {
			missing = append(missing, name)
		}
	}
	return missing
}
