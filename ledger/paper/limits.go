package paper

import (
	"errors"
	"fmt"

	"github.com/agora-node/agora/vocabulary"
)

// Limits on the Markdown the bundle check parses, checked by CheckMarkdown
// in one linear pass before goldmark sees the text. goldmark's block parser
// takes time in the square of the containers opened on one line (a run of
// 50 KB of '>' took 6.5 s of CPU, '- ' repeated 8 s), and its inline parser
// keeps a few hundred bytes per delimiter it holds open, so unbounded input
// was a way to spend the node's CPU and memory with one unauthenticated
// request (issue 12). Each limit is far above what a paper the length rule
// accepts can hold: the rule (spec/ledger-protocol.md, "Writing the paper":
// at most MaxPaperTokens tokens, counted by Tokens) counts every byte as at
// least a quarter of a token and every '>', '[', '*', '_', '~', '`', '$' and
// list marker as a token of its own, so a paper within it has at most
// 4×MaxPaperTokens bytes and at most MaxPaperTokens of any one delimiter.
const (
	// MaxPaperBytes bounds paper.md: twice the 80,000 bytes a paper within
	// the length rule can have, so that a paper somewhat over the rule still
	// hears every issue, while a larger one is refused (413) unread.
	MaxPaperBytes = 2 * 4 * vocabulary.MaxPaperTokens

	// MaxMarkdownBytes bounds every other Markdown file of a bundle, which
	// the hidden-content scan parses: a README of code or data. Larger
	// notes belong in a .txt file, which is scanned without a parser.
	MaxMarkdownBytes = 256 << 10

	// MaxMarkdownTotalBytes bounds the Markdown one bundle check parses,
	// paper.md included, so that many files just under MaxMarkdownBytes
	// don't add up to what one file may not be.
	MaxMarkdownTotalBytes = 1 << 20

	// MaxNestingDepth bounds the blockquote and list markers that open
	// containers at the start of one line. CommonMark sets no limit; papers
	// nest a quote or a list a few levels deep, and goldmark's cost grows
	// with the square of this depth.
	MaxNestingDepth = 32

	// MaxDelimiters bounds each kind of inline delimiter in one Markdown
	// file: link and image brackets ('['), emphasis and strikethrough runs
	// ('*', '_', '~'), code span runs ('`') and math runs ('$'). Each
	// character is a token, so a paper with more of one kind than
	// MaxPaperTokens is over the length limit anyway.
	MaxDelimiters = vocabulary.MaxPaperTokens
)

// ErrTooLarge is a Markdown file over a size limit; ErrTooComplex is one
// over a structure limit. A LimitError wraps one of them.
var (
	ErrTooLarge   = errors.New("over a size limit")
	ErrTooComplex = errors.New("over a structure limit")
)

// LimitError says which limit a Markdown file broke, and where.
type LimitError struct {
	Path  string // the file
	Limit string // the limit's name, as this package exports it
	Max   int    // its value
	Got   int    // what the file has (at least)
	Line  int    // where, from 1; 0 for the file as a whole
	What  string // what was counted, in words
	Err   error  // ErrTooLarge or ErrTooComplex
}

func (e *LimitError) Error() string {
	where := ""
	if e.Line > 0 {
		where = fmt.Sprintf(" (line %d)", e.Line)
	}
	return fmt.Sprintf("%s has %d %s%s; at most %d are read (paper.%s)", e.Path, e.Got, e.What, where, e.Max, e.Limit)
}

func (e *LimitError) Unwrap() error { return e.Err }

// CheckMarkdown checks a Markdown file against the limits above in one
// pass, before anything parses it, and returns a *LimitError for the first
// it breaks. isPaper picks MaxPaperBytes over MaxMarkdownBytes.
func CheckMarkdown(path string, text []byte, isPaper bool) error {
	limit, name := MaxMarkdownBytes, "MaxMarkdownBytes"
	if isPaper {
		limit, name = MaxPaperBytes, "MaxPaperBytes"
	}
	if len(text) > limit {
		return &LimitError{Path: path, Limit: name, Max: limit, Got: len(text), What: "bytes", Err: ErrTooLarge}
	}
	return scanStructure(path, text)
}

// delimiter kinds counted per file.
const (
	delimBracket = iota
	delimEmphasis
	delimCode
	delimMath
	delimKinds
)

var delimNames = [delimKinds]string{"link brackets '['", "emphasis delimiter runs ('*', '_', '~')", "code span delimiter runs ('`')", "math delimiter runs ('$')"}

// scanStructure counts, line by line, the containers each line's start
// opens and the file's inline delimiters. It
// over-counts rather than under-counts (a marker inside a fenced code block
// at a line's start is still counted, a '*' in code is still a delimiter)
// since it stands in for a parser and must never let through what that
// parser would choke on.
func scanStructure(path string, text []byte) error {
	var total [delimKinds]int
	line := 1
	for start := 0; start < len(text); line++ {
		end := start
		for end < len(text) && text[end] != '\n' && text[end] != '\r' {
			end++
		}
		l := text[start:end]
		if depth := containerDepth(l); depth > MaxNestingDepth {
			return &LimitError{Path: path, Limit: "MaxNestingDepth", Max: MaxNestingDepth, Got: depth, Line: line,
				What: "blockquote and list markers opening containers on one line", Err: ErrTooComplex}
		}
		for i := 0; i < len(l); i++ {
			kind := -1
			switch l[i] {
			case '[':
				kind = delimBracket
			case '*', '_', '~':
				kind = delimEmphasis
			case '`':
				kind = delimCode
			case '$':
				kind = delimMath
			}
			if kind < 0 {
				continue
			}
			if kind != delimBracket {
				// A run of the same character is one delimiter.
				for i+1 < len(l) && l[i+1] == l[i] {
					i++
				}
			}
			total[kind]++
			if total[kind] > MaxDelimiters {
				return &LimitError{Path: path, Limit: "MaxDelimiters", Max: MaxDelimiters, Got: total[kind], Line: line,
					What: delimNames[kind], Err: ErrTooComplex}
			}
		}
		start = end
		if start < len(text) {
			if text[start] == '\r' && start+1 < len(text) && text[start+1] == '\n' {
				start++
			}
			start++
		}
	}
	return nil
}

// containerDepth counts the blockquote markers ('>') and list markers ('-',
// '+', '*' or up to nine digits and '.' or ')', each followed by white space
// or the line's end) that open one container after another at a line's
// start, with up to three spaces before each. A thematic break ("* * *")
// opens none. Indentation nests lists too, each level at least two columns
// in: a marker after n columns of indentation counts as n/2 levels more.
func containerDepth(l []byte) int {
	depth := 0
	i := 0
	columns := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		if l[i] == '\t' {
			columns += 4 - columns%4
		} else {
			columns++
		}
		i++
	}
	if columns >= 4 && i < len(l) && startsContainer(l[i:]) {
		depth = columns / 2
	}
	i = 0
	for {
		spaces := 0
		for i < len(l) && (l[i] == ' ' || l[i] == '\t') && spaces < 4 {
			i++
			spaces++
		}
		if i >= len(l) || spaces == 4 {
			return depth
		}
		switch c := l[i]; {
		case c == '>':
			i++
		case c == '-' || c == '+' || c == '*':
			if i+1 < len(l) && l[i+1] != ' ' && l[i+1] != '\t' {
				return depth
			}
			if depth > MaxNestingDepth || isThematicBreak(l[i:]) {
				return depth
			}
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(l) && j-i < 9 && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j >= len(l) || (l[j] != '.' && l[j] != ')') || (j+1 < len(l) && l[j+1] != ' ' && l[j+1] != '\t') {
				return depth
			}
			i = j + 1
		default:
			return depth
		}
		depth++
	}
}

// startsContainer reports whether l starts with a blockquote or list
// marker.
func startsContainer(l []byte) bool {
	switch c := l[0]; {
	case c == '>':
		return true
	case c == '-' || c == '+' || c == '*':
		return len(l) == 1 || l[1] == ' ' || l[1] == '\t'
	case c >= '0' && c <= '9':
		j := 0
		for j < len(l) && j < 9 && l[j] >= '0' && l[j] <= '9' {
			j++
		}
		return j < len(l) && (l[j] == '.' || l[j] == ')') && (j+1 == len(l) || l[j+1] == ' ' || l[j+1] == '\t')
	}
	return false
}

// isThematicBreak reports whether l is three or more of one of '-', '*'
// and '_', with only spaces and tabs between.
func isThematicBreak(l []byte) bool {
	var mark byte
	n := 0
	for _, c := range l {
		switch {
		case c == ' ' || c == '\t':
		case mark == 0 && (c == '-' || c == '*' || c == '_'):
			mark = c
			n++
		case c == mark:
			n++
		default:
			return false
		}
	}
	return n >= 3
}
