package paper

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
)

// Hidden content. A model reads every character a file holds, while a person
// reading the same file, or the page rendered from it, sees only what
// displays. Text that renders as nothing, reorders what is around it, or
// never renders at all can carry instructions aimed at the agents that
// verify a bundle. So the scan goes by what Unicode and Markdown say about
// the text, never by what the text says: characters by their Unicode
// properties, and Markdown a page wouldn't show by a Markdown parser with the
// extensions pages render with (GFM and math), so the scan and a rendered
// page agree about what is HTML.
//
// The scan reports; it refuses nothing. The harness shows its findings to a
// verifier before any model reads the work, and a bundle check returns them
// beside everything else. Only words a node keeps for people, such as forum
// posts, are refused for holding what it finds, and that is their caller's
// decision.

// HiddenKinds says what each kind of finding is.
var HiddenKinds = map[string]string{
	"bidi":            "bidirectional controls, which reorder how the text around them displays",
	"tag":             "tag characters, invisible copies of ASCII",
	"format":          "invisible format characters, such as zero-width spaces and joiners",
	"ignorable":       "other characters that render as nothing, such as variation selectors outside emoji",
	"private_use":     "private-use characters, which have no agreed meaning",
	"noncharacter":    "Unicode noncharacters",
	"control":         "control characters other than tab and line breaks",
	"html":            "raw HTML in Markdown, which a rendered page hides or reshapes",
	"link_definition": "Markdown link definitions, which never render",
}

// HiddenFinding is hidden content in one file.
type HiddenFinding struct {
	Path string `json:"path"`
	// Kind is one of HiddenKinds.
	Kind string `json:"kind"`
	// Line and Column are where it starts: the line from 1, the column from 1
	// counted in code points.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Count is how many characters the run holds; 1 for Markdown.
	Count int `json:"count"`
	// CodePoints are the run's distinct code points, such as "U+200B", for
	// hidden characters; absent for Markdown.
	CodePoints []string `json:"code_points,omitempty"`
	// Decoded is what a run of tag characters spells, each mirroring an ASCII
	// character; absent when it spells nothing.
	Decoded string `json:"decoded,omitempty"`
	// Excerpt is the text around it on its line, with hidden characters
	// written as <U+200B>.
	Excerpt string `json:"excerpt"`
}

// ScanResult is what scanning a set of files found.
type ScanResult struct {
	// Scanned are the files read as UTF-8 text and scanned.
	Scanned []string `json:"scanned"`
	// Binary are the files that aren't UTF-8 text.
	Binary []string `json:"binary"`
	// Findings are at most limitPerFile findings for each file.
	Findings []HiddenFinding `json:"findings"`
	// Omitted counts the findings past the limit, by file.
	Omitted map[string]int `json:"omitted"`
}

// HiddenPerFile is how many findings ScanHidden returns for a file, and the
// reference's default limit for ScanFiles.
const HiddenPerFile = 100

// IsMarkdown reports whether a file renders as Markdown: paper.md, and any
// file named .md or .markdown, in any case.
func IsMarkdown(path string) bool {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return false
	}
	switch asciiLower(path[i+1:]) {
	case "md", "markdown":
		return true
	}
	return false
}

// ScanFiles scans each UTF-8 text file, in the order of their paths, and lists
// the others as binary. Each file's findings past limitPerFile are counted in
// Omitted rather than listed. A byte order mark is kept, so the scan sees
// exactly what a reader of the bytes sees.
func ScanFiles(files map[string][]byte, limitPerFile int) ScanResult {
	result := ScanResult{Scanned: []string{}, Binary: []string{}, Findings: []HiddenFinding{}, Omitted: map[string]int{}}
	for _, path := range sortedKeys(files) {
		data := files[path]
		if !utf8.Valid(data) {
			result.Binary = append(result.Binary, path)
			continue
		}
		result.Scanned = append(result.Scanned, path)
		found, total := scan(path, string(data), limitPerFile)
		result.Findings = append(result.Findings, found...)
		if total > len(found) {
			result.Omitted[path] = total - len(found)
		}
	}
	return result
}

// ScanHidden scans one file, returning its first HiddenPerFile findings, or
// none when it isn't UTF-8 text. ScanFiles says how many more there were.
func ScanHidden(path string, data []byte) []HiddenFinding {
	if !utf8.Valid(data) {
		return nil
	}
	found, _ := scan(path, string(data), HiddenPerFile)
	return found
}

// ScanText finds hidden characters in any text, and Markdown that doesn't
// render in a Markdown file, ordered by where they start.
func ScanText(path, text string) []HiddenFinding {
	found, _ := scan(path, text, -1)
	return found
}

// unplaced is a finding known by its kind and byte offsets, before the line,
// column and excerpt that take a scan of its line to work out.
type unplaced struct {
	kind       string
	start, end int
	chars      []rune // the run, for hidden characters
	markdown   bool
}

// scan finds everything and describes the first limit findings in full, or
// all of them when limit is negative, and says how many there were in all:
// a file of one long line of hidden characters would otherwise take time in
// the square of its length.
func scan(path, text string, limit int) ([]HiddenFinding, int) {
	found := hiddenCharacters(text)
	if IsMarkdown(path) {
		found = append(found, unrendered(text)...)
	}
	// Sorting by offset sorts by line and column.
	slices.SortStableFunc(found, func(a, b unplaced) int { return a.start - b.start })
	total := len(found)
	if limit >= 0 && len(found) > limit {
		found = found[:limit]
	}
	starts := lineStarts(text)
	described := make([]HiddenFinding, len(found))
	for i, u := range found {
		described[i] = describe(path, text, starts, u)
	}
	return described, total
}

func describe(path, text string, starts []int, u unplaced) HiddenFinding {
	line, column := position(text, starts, u.start)
	f := HiddenFinding{Path: path, Kind: u.kind, Line: line, Column: column, Count: 1}
	if u.markdown {
		f.Excerpt = visible(collapseSpace(jsTrim(text[u.start:max(u.start, u.end)])), 120)
		return f
	}
	f.Count = len(u.chars)
	for _, c := range u.chars {
		if name := codePointName(c); !slices.Contains(f.CodePoints, name) {
			f.CodePoints = append(f.CodePoints, name)
		}
	}
	if u.kind == "tag" {
		f.Decoded = decodeTags(u.chars)
	}
	f.Excerpt = runExcerpt(text, starts, u.start, u.end)
	return f
}

// isCandidate reports whether a character could hide something: control,
// format, private-use, noncharacter or default-ignorable. Default_Ignorable
// is Other_Default_Ignorable_Code_Point, format characters and variation
// selectors, less a few format characters this union holds anyway.
func isCandidate(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Noncharacter_Code_Point,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// hiddenKind is the kind of a character the scan reports, or "" for one it
// lets be. previous is the code point before it, or -1 at the start.
func hiddenKind(r, previous rune, offset int) string {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return ""
	case unicode.Is(unicode.Cc, r):
		return "control"
	case unicode.Is(unicode.Noncharacter_Code_Point, r):
		return "noncharacter"
	case unicode.Is(unicode.Co, r):
		return "private_use"
	case r >= 0xe0000 && r <= 0xe007f:
		// The Tags block mirrors ASCII invisibly, which is how text is
		// smuggled in them.
		return "tag"
	case unicode.Is(unicode.Bidi_Control, r):
		return "bidi"
	case unicode.Is(unicode.Cf, r):
		// Unicode treats U+FEFF at the very start of a text as a byte order
		// mark, not content.
		if offset == 0 && r == 0xfeff {
			return ""
		}
		return "format"
	case (r == 0xfe0e || r == 0xfe0f) && previous >= 0 && unicode.Is(emoji, previous):
		// What remains renders as nothing, except that a variation selector
		// after an emoji picks how the emoji displays.
		return ""
	}
	return "ignorable"
}

func hiddenCharacters(text string) []unplaced {
	var runs []unplaced
	previous := rune(-1)
	for offset, r := range text {
		before := previous
		previous = r
		if !isCandidate(r) {
			continue
		}
		kind := hiddenKind(r, before, offset)
		if kind == "" {
			continue
		}
		if last := len(runs) - 1; last >= 0 && runs[last].kind == kind && runs[last].end == offset {
			runs[last].end += utf8.RuneLen(r)
			runs[last].chars = append(runs[last].chars, r)
			continue
		}
		runs = append(runs, unplaced{kind: kind, start: offset, end: offset + utf8.RuneLen(r), chars: []rune{r}})
	}
	return runs
}

// unrendered finds raw HTML and link definitions in Markdown with a Markdown
// parser rather than patterns. A byte order mark at the start is no part of
// the Markdown; offsets still count it.
func unrendered(text string) []unplaced {
	bom := 0
	if strings.HasPrefix(text, "\uFEFF") {
		bom = len("\uFEFF")
	}
	doc := parseMarkdown(text[bom:])
	var found []unplaced
	add := func(kind string, s span) {
		found = append(found, unplaced{kind: kind, start: bom + s.start, end: bom + s.end, markdown: true})
	}
	_ = ast.Walk(doc.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			add("html", htmlBlockSpan(n, doc.text))
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				add("html", span{n.Segments.At(0).Start, n.Segments.At(n.Segments.Len() - 1).Stop})
			}
		case *ast.LinkReferenceDefinition:
			if lines := n.Lines(); lines.Len() > 0 {
				add("link_definition", span{lines.At(0).Start, lines.At(lines.Len() - 1).Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	return found
}

// htmlBlockSpan is where an HTML block starts, at the start of its first
// line with any indentation (as mdast places it, unlike other blocks), and
// where its last line ends.
func htmlBlockSpan(n *ast.HTMLBlock, text string) span {
	start := max(n.Pos(), 0)
	end := start
	if lines := n.Lines(); lines.Len() > 0 {
		start = min(start, lines.At(0).Start)
		end = lines.At(lines.Len() - 1).Stop
	}
	if n.HasClosure() {
		end = max(end, n.ClosureLine.Stop)
	}
	return span{start, min(max(end, start), len(text))}
}

const excerptContext = 24

// runExcerpt is a run of hidden characters with up to excerptContext code
// points of its line either side: the run's first four characters written as
// <U+XXXX>, and how many more there are.
func runExcerpt(text string, starts []int, start, end int) string {
	before := []rune(text[starts[lineIndex(starts, start)]:start])
	before = before[max(0, len(before)-excerptContext):]
	after := []rune(text[end:max(end, scanLineEnd(text, starts, end))])
	after = after[:min(len(after), excerptContext)]
	run := []rune(text[start:end])
	var b strings.Builder
	b.WriteString(visible(string(before), -1))
	for _, r := range run[:min(len(run), 4)] {
		b.WriteString("<" + codePointName(r) + ">")
	}
	if len(run) > 4 {
		fmt.Fprintf(&b, "<+%d more>", len(run)-4)
	}
	b.WriteString(visible(string(after), -1))
	return b.String()
}

// scanLineEnd is the end of the line holding offset, before its line break.
func scanLineEnd(text string, starts []int, offset int) int {
	l := lineIndex(starts, offset)
	if l+1 >= len(starts) {
		return len(text)
	}
	next := starts[l+1]
	if next >= 2 && text[next-2] == '\r' && text[next-1] == '\n' {
		return next - 2
	}
	return next - 1
}

// RevealHidden returns text with every character that could hide something
// written as <U+XXXX>, tabs aside, so text from a bundle can be shown without
// carrying anything invisible along.
func RevealHidden(text string) string { return visible(text, -1) }

// visible is text with every hidden character written as <U+XXXX>, cut to max
// code points (and marked "…" where cut) unless max is negative.
func visible(text string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range text {
		if max >= 0 && n == max {
			b.WriteString("…")
			break
		}
		n++
		if r != '\t' && isCandidate(r) {
			b.WriteString("<" + codePointName(r) + ">")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func codePointName(r rune) string { return fmt.Sprintf("U+%04X", r) }

// decodeTags is what tag characters spell: each mirrors the ASCII character
// 0xE0000 below it, of which the printable ones count.
func decodeTags(chars []rune) string {
	var b strings.Builder
	for _, r := range chars {
		if ascii := r - 0xe0000; ascii >= 0x20 && ascii <= 0x7e {
			b.WriteRune(ascii)
		}
	}
	return b.String()
}
