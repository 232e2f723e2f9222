package paper

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// No orphan numbers. The sections of paper.md that state results (Summary,
// Claims and Results) give each result as a placeholder, {{R3.loss_delta}},
// so the prose can't disagree with the declared results. A number typed into
// one of them is flagged, in digits or spelled out in words, though prose may
// spell out the counts zero to nine, as in "two methods". Methods and the
// other sections are where parameters live, so their numbers aren't flagged.
//
// Not read: code, math, raw HTML, images, link targets, headings, link and
// footnote definitions, a bare web or mail address. Not counted: numbers
// inside a placeholder (its result's name), numbers that are part of a name
// (C1, R3, GPT-4, ResNet-50), years from 1900 to 2099, which date things
// rather than measure them, the single words zero to nine and first to ninth,
// and the number in a label the paper gives one of its tables, figures or
// equations ("Table 1", "Eq. (1)"), in its caption or tag and wherever the
// text names the part by it: it names the part, not a value.

// OrphanNumber is a number typed into a section that states results instead
// of a placeholder that binds it.
type OrphanNumber struct {
	// Section is the section it is in, as the paper names it.
	Section string `json:"section"`
	// Line and Column are where it starts: the line from 1, the column from 1
	// counted in code points.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Number is the number as written, in digits or in words.
	Number string `json:"number"`
	// Excerpt is the text around it on its line, with hidden characters made
	// visible.
	Excerpt string `json:"excerpt"`
}

// ClaimBearingSections are the sections of paper.md that state results.
var ClaimBearingSections = []string{"Summary", "Claims", "Results"}

// MaxOrphanNumbers is how many orphan numbers a paper's flags list.
const MaxOrphanNumbers = 100

var (
	// numberPattern is a number as written: digits with an optional sign,
	// thousands separators, decimals and exponent. It lexes; whether a
	// number states a result is decided by where it is, not by the words
	// around it.
	numberPattern = regexp.MustCompile(`[-+−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?`)
	// resultPlaceholder is where paper.md puts a declared result,
	// {{R3.loss_delta}} (the reference's RESULT_PLACEHOLDER).
	resultPlaceholder = regexp.MustCompile(`\{\{[` + jsSpaceClass + `]*([^{}` + jsSpaceClass + `]+)[` + jsSpaceClass + `]*\}\}`)
	// equationTag is a displayed equation's number, \tag{1}.
	equationTag = regexp.MustCompile(`\\tag\{[` + jsSpaceClass + `]*(\d+)[` + jsSpaceClass + `]*\}`)
)

// OrphanNumbers returns the orphan numbers of a paper, all of them (Flags
// lists at most MaxOrphanNumbers).
func OrphanNumbers(markdown string) []OrphanNumber {
	return orphanNumbers(parseMarkdown(markdown), -1)
}

// orphanNumbers finds a paper's orphan numbers in order, the first limit of
// them unless limit is negative. Where each is and its excerpt take a scan of
// its line, so a paper of one long line full of numbers would take time in
// the square of its length to list them all.
func orphanNumbers(doc *document, limit int) []OrphanNumber {
	src := doc.src
	depth := sectionDepth(doc, src)
	o := orphanFinder{doc: doc, src: src, starts: lineStarts(doc.text), labels: findPartLabels(doc.root, src), limit: limit}
	section, inSection := "", false
	for n := doc.root.FirstChild(); n != nil && !o.full(); n = n.NextSibling() {
		// A heading at the sections' depth starts one; a shallower one, such
		// as a title, ends the one before it.
		if h, ok := n.(*ast.Heading); ok && depth > 0 && h.Level <= depth {
			section, inSection = jsTrim(plainText(h, src)), h.Level == depth
			continue
		}
		if inSection && isClaimBearing(section) {
			o.section = section
			o.visit(n)
		}
	}
	return o.found
}

func isClaimBearing(section string) bool {
	name := asciiLower(section)
	return slices.ContainsFunc(ClaimBearingSections, func(s string) bool { return asciiLower(s) == name })
}

type orphanFinder struct {
	doc     *document
	src     []byte
	starts  []int
	labels  partLabels
	section string
	// inLink is whether the node visited is inside a link's text, where
	// no address is a link of its own.
	inLink bool
	limit  int
	found  []OrphanNumber
}

func (o *orphanFinder) full() bool { return o.limit >= 0 && len(o.found) >= o.limit }

func (o *orphanFinder) visit(n ast.Node) {
	if isNotProse(n) || n.Kind() == ast.KindHeading {
		return
	}
	// A bare web or mail address shows as itself; its digits are part of the
	// address.
	url, isLink := linkURL(n, o.src)
	if isLink && bareAddress(url) == bareAddress(plainText(n, o.src)) {
		return
	}
	inLink := o.inLink
	o.inLink = inLink || n.Kind() == ast.KindLink
	walkChildren(n, func(s span) {
		if o.inLink {
			o.numbersIn(s)
			return
		}
		for _, part := range outsideLiteralAddresses(o.doc.text, s) {
			o.numbersIn(part)
		}
	}, o.visit)
	o.inLink = inLink
}

// numbersIn flags the numbers in one text node's source.
func (o *orphanFinder) numbersIn(s span) {
	text := o.doc.text
	source := text[s.start:s.end]
	// Numbers inside a placeholder are its result's name, not a value.
	bound := resultPlaceholder.FindAllStringIndex(source, -1)
	unbound := func(at int) bool {
		// Placeholders don't overlap: only the last to start at or before
		// at can hold it.
		i := sort.Search(len(bound), func(i int) bool { return bound[i][0] > at }) - 1
		return i < 0 || at >= bound[i][1]
	}
	type found struct {
		at     int
		number string
	}
	var numbers []found
	for _, m := range numberPattern.FindAllStringIndex(source, -1) {
		at, number := m[0], source[m[0]:m[1]]
		if unbound(at) && !partOfName(text, s.start+at) && !isYear(number) && !o.labels.contain(text, s.start+at, number) {
			numbers = append(numbers, found{at, number})
		}
	}
	for _, spelled := range spelledNumbers(source) {
		if !spelled.small && unbound(spelled.start) {
			numbers = append(numbers, found{spelled.start, spelled.text})
		}
	}
	slices.SortStableFunc(numbers, func(a, b found) int { return a.at - b.at })
	for _, n := range numbers {
		if o.full() {
			return
		}
		offset := s.start + n.at
		line, column := position(text, o.starts, offset)
		o.found = append(o.found, OrphanNumber{
			Section: o.section,
			Line:    line,
			Column:  column,
			Number:  n.number,
			Excerpt: lineExcerpt(text, o.starts, line-1, offset),
		})
	}
}

// partOfName reports whether the number at offset continues a word, as in C1
// or R3, or follows one with a hyphen, as in GPT-4. It looks at UTF-16 code
// units, as the reference does, so an astral letter before a number doesn't
// make it a name.
func partOfName(text string, at int) bool {
	previous := unitBefore(text, at)
	if isWordChar(previous) || previous == '.' {
		return true
	}
	// A sign the pattern took may really be a hyphen joining a name to the
	// number; the check above has already answered that.
	switch unitAt(text, at) {
	case '-', '+', '−':
		return false
	}
	if previous != '-' && previous != '_' {
		return false
	}
	return isWordChar(unitBefore(text, at-1))
}

// bareAddress is an address without the scheme a link adds to it, so that
// www.example.org and its link compare equal.
func bareAddress(address string) string {
	lower := strings.ToLower(address)
	for _, scheme := range []string{"mailto:", "http://", "https://"} {
		if strings.HasPrefix(lower, scheme) {
			return address[len(scheme):]
		}
	}
	return address
}

// isYear reports whether a number is a year from 1900 to 2099.
func isYear(number string) bool {
	if len(number) != 4 || !all([]byte(number), isDigit) {
		return false
	}
	year, _ := strconv.Atoi(number)
	return year >= 1900 && year <= 2099
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// lineExcerpt is up to 50 code points either side of offset on its line,
// trimmed, with anything hidden made visible.
func lineExcerpt(text string, starts []int, line, offset int) string {
	lineEnd := len(text)
	if line+1 < len(starts) {
		lineEnd = starts[line+1] - 1
	}
	before := []rune(text[starts[line]:offset])
	after := []rune(text[offset:max(offset, lineEnd)])
	var b strings.Builder
	if len(before) > 50 {
		b.WriteString("…")
		before = before[len(before)-50:]
	}
	b.WriteString(string(before))
	if len(after) > 50 {
		b.WriteString(string(after[:50]))
		b.WriteString("…")
	} else {
		b.WriteString(string(after))
	}
	return RevealHidden(jsTrim(strings.TrimRight(b.String(), "\r\n")))
}

// A partLabel is a label the paper gives one of its parts, such as "Table 1"
// or "(1)": its whole number and the text either side of it.
type partLabel struct{ before, number, after string }

// partLabels are the paper's labels by their numbers.
type partLabels map[string][]partLabel

// findPartLabels finds the labels the paper gives its tables, figures and
// displayed equations, wherever they are. A table's opens the bold words
// that start the paragraph right above it, as in **Table 1.**; a figure's
// opens its image's alt text, as in ![Figure 1. Loss by epoch.](…): one to
// three words, then a whole number, then nothing, a period or a colon. An
// equation's is its \tag{1}, which the text names as (1), in math displayed
// between $$ lines or on one line, as in $$x = 1 \tag{1}$$.
func findPartLabels(root ast.Node, src []byte) partLabels {
	labels := partLabels{}
	add := func(l partLabel, ok bool) {
		if ok {
			labels[l.number] = append(labels[l.number], l)
		}
	}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Kind() == east.KindTable {
				if caption, ok := c.PreviousSibling().(*ast.Paragraph); ok {
					if strong, ok := caption.FirstChild().(*ast.Emphasis); ok && strong.Level == 2 {
						add(captionLabel(plainText(strong, src)))
					}
				}
			}
			visit(c)
		}
		if img, ok := n.(*ast.Image); ok {
			if alt := altText(img, src); alt != "" {
				add(captionLabel(alt))
			}
		}
		if math, ok := mathValue(n, src); ok {
			for _, tag := range equationTag.FindAllStringSubmatch(math, -1) {
				add(partLabel{before: "(", number: tag[1], after: ")"}, true)
			}
		}
	}
	visit(root)
	return labels
}

// captionLabel is the label a caption opens with, its white space collapsed.
func captionLabel(caption string) (partLabel, bool) {
	text := jsTrim(collapseSpace(caption))
	first := numberPattern.FindStringIndex(text)
	if first == nil {
		return partLabel{}, false
	}
	number := text[first[0]:first[1]]
	if !all([]byte(number), isDigit) {
		return partLabel{}, false
	}
	before, rest := text[:first[0]], text[first[1]:]
	if !strings.HasSuffix(before, " ") {
		return partLabel{}, false
	}
	words := strings.Split(before[:len(before)-1], " ")
	if len(words) > 3 || !all(words, isLabelWord) {
		return partLabel{}, false
	}
	if rest != "" && rest[0] != '.' && rest[0] != ':' {
		return partLabel{}, false
	}
	return partLabel{before: before, number: number}, true
}

// isLabelWord reports whether a word can be part of a label, such as Table or
// Fig.: a run of letters and marks, maybe ending in a period.
func isLabelWord(word string) bool {
	word = strings.TrimSuffix(word, ".")
	if word == "" {
		return false
	}
	for _, r := range word {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

func all[T any](items []T, ok func(T) bool) bool {
	for _, item := range items {
		if !ok(item) {
			return false
		}
	}
	return true
}

// collapseSpace replaces every run of white space with one space.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if isJSSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// contain reports whether the number at offset is a part's number where the
// text reads as that part's label, as in "Table 1 shows" or "Eq. (1)", with
// any run of white space where the label has a space.
func (labels partLabels) contain(text string, at int, number string) bool {
	for _, l := range labels[number] {
		if !strings.HasPrefix(text[at+len(number):], l.after) {
			continue
		}
		if from, ok := startOf(text, at, l.before); ok && !isWordChar(unitBefore(text, from)) {
			return true
		}
	}
	return false
}

// startOf is where part starts if it ends at end in text, a space in it
// matching any run of white space.
func startOf(text string, end int, part string) (int, bool) {
	i := end
	for j := len(part); j > 0; {
		r, size := utf8.DecodeLastRuneInString(part[:j])
		j -= size
		if r == ' ' {
			if before, size := utf8.DecodeLastRuneInString(text[:i]); size == 0 || !isJSSpace(before) {
				return 0, false
			}
			for {
				before, size := utf8.DecodeLastRuneInString(text[:i])
				if size == 0 || !isJSSpace(before) {
					break
				}
				i -= size
			}
			continue
		}
		if !strings.HasSuffix(text[:i], string(r)) {
			return 0, false
		}
		i -= size
	}
	return i, true
}
