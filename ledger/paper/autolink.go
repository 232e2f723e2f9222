package paper

import (
	"regexp"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// GFM autolink literals as micromark reads them. An address typed as is
// (https://example.org/v2/run7, www.example.org/9) is a link, and its digits
// are part of the address, not numbers a paper states, so where an address
// ends decides which digits are read as prose. goldmark's Linkify stops an
// address at the first character outside a narrow ASCII set and starts one
// only after white space, '*', '_', '~' or '('; micromark runs a domain to
// punctuation and a path to white space, balancing parentheses and leaving
// trailing punctuation out, and lets http:// and https:// follow anything but
// an ASCII letter, www. also '[' and ']'. This parser follows micromark
// (micromark-extension-gfm-autolink-literal), and leaves e-mail addresses to
// goldmark's Linkify. goldmark tries inline parsers only at punctuation,
// white space and the start of a line, so an address right after a digit or
// a non-ASCII letter, which micromark links, stays text here.

type autolinkLiteral struct{}

// emailLinkify is goldmark's Linkify with its address patterns made never to
// match, so that it finds e-mail addresses only.
var emailLinkify = extension.NewLinkifyParser(
	extension.WithLinkifyAllowedProtocols([]string{}),
	extension.WithLinkifyWWWRegexp(regexp.MustCompile(`^\b\B`)),
)

func (autolinkLiteral) Trigger() []byte {
	return []byte(" *_~(!\"#$%&')+,-./:;<=>?@[\\]^`{|}")
}

func (autolinkLiteral) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	// goldmark calls with the character before the address, or at the start
	// of a line with the address itself.
	previous, at := rune(line[0]), 1
	if isASCIILetter(line[0]) {
		previous, at = '\n', 0
	}
	rest := line[at:]
	n := 0
	switch {
	case hasPrefixFold(rest, "http://") || hasPrefixFold(rest, "https://"):
		// The character before is never an ASCII letter here, which is all
		// micromark asks of it.
		n = protocolAutolink(rest)
	case hasPrefixFold(rest, "www."):
		if previousAllowsWWW(previous) {
			n = domainAndPath(rest)
		}
	}
	if n == 0 {
		return emailLinkify.Parse(parent, block, pc)
	}
	if at == 1 {
		ast.MergeOrAppendTextSegment(parent, segment.WithStop(segment.Start+1))
	}
	start := segment.Start + at
	block.Advance(at + n)
	link := ast.NewAutoLink(ast.AutoLinkURL, ast.NewTextSegment(text.NewSegment(start, start+n)))
	if hasPrefixFold(rest, "www.") {
		link.Protocol = []byte("http")
	}
	return link
}

func previousAllowsWWW(r rune) bool {
	switch r {
	case '\n', '(', '*', '_', '[', ']', '~', ' ', '\t', '\r':
		return true
	}
	return false
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func hasPrefixFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		if s[i]|0x20 != prefix[i]|0x20 {
			return false
		}
	}
	return true
}

// protocolAutolink is the length of an http:// or https:// address at the
// start of s, or 0: the scheme, then a domain that doesn't start with
// punctuation, then a path.
func protocolAutolink(s []byte) int {
	scheme := len("http://")
	if s[4]|0x20 == 's' {
		scheme++
	}
	if scheme >= len(s) {
		return 0
	}
	if r, _ := utf8.DecodeRune(s[scheme:]); r < 0x20 || r == 0x7f || isMarkdownSpace(r) || isUnicodePunctuation(r) {
		return 0
	}
	n := domainAndPath(s[scheme:])
	if n == 0 {
		return 0
	}
	return scheme + n
}

// domainAndPath is the length of a domain and the path after it at the start
// of s, or 0 when there is no domain: a run up to white space or punctuation
// other than '-', where '.' and '_' continue it unless they trail, with no
// '_' in its last two segments.
func domainAndPath(s []byte) int {
	i := 0
	seen := false
	underscoreLast, underscoreLastLast := false, false
domain:
	for i < len(s) {
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == '.' || r == '_':
			if trails(s[i:]) {
				break domain
			}
			if r == '_' {
				underscoreLast = true
			} else {
				underscoreLastLast, underscoreLast = underscoreLast, false
			}
		case isMarkdownSpace(r) || (r != '-' && isUnicodePunctuation(r)):
			break domain
		default:
			seen = true
		}
		i += size
	}
	if !seen || underscoreLast || underscoreLastLast {
		return 0
	}
	return i + pathLength(s[i:])
}

// pathLength is the length of the path at the start of s: up to white space,
// with a ')' only when it closes a '(' in the path, and punctuation left out
// when only trailing punctuation follows it.
func pathLength(s []byte) int {
	opened, closed := 0, 0
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == '(':
			opened++
		case r == ')' && closed < opened:
			closed++
		case isTrailCandidate(r):
			if trails(s[i:]) {
				return i
			}
			if r == ')' {
				closed++
			}
		case isMarkdownSpace(r):
			return i
		}
		i += size
	}
	return i
}

func isTrailCandidate(r rune) bool {
	switch r {
	case '!', '"', '&', '\'', ')', '*', ',', '.', ':', ';', '<', '?', ']', '_', '~':
		return true
	}
	return false
}

// trails reports whether s opens with punctuation that only trails an
// address: a run of !"')*,.:;?_~, character references and ']' (unless
// something but '(' or '[' follows it), then white space, '<' or the end.
func trails(s []byte) bool {
	i := 0
	for {
		if i >= len(s) {
			return true
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == '!' || r == '"' || r == '\'' || r == ')' || r == '*' || r == ',' || r == '.' ||
			r == ':' || r == ';' || r == '?' || r == '_' || r == '~':
			i += size
		case r == '&':
			j := i + 1
			for j < len(s) && isASCIILetter(s[j]) {
				j++
			}
			if j == i+1 || j >= len(s) || s[j] != ';' {
				return false
			}
			i = j + 1
		case r == ']':
			i += size
			if i >= len(s) {
				return true
			}
			next, _ := utf8.DecodeRune(s[i:])
			if next == '(' || next == '[' || isMarkdownSpace(next) {
				return true
			}
		case r == '<' || isMarkdownSpace(r):
			return true
		default:
			return false
		}
	}
}

// isMarkdownSpace is micromark's markdownLineEndingOrSpace or
// unicodeWhitespace.
func isMarkdownSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || isJSSpace(r)
}

// isUnicodePunctuation is micromark's unicodePunctuation: general categories
// P and S.
func isUnicodePunctuation(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// outsideLiteralAddresses splits a text node's span around the http:// and
// https:// addresses in it that micromark links and goldmark can't: those
// right after a digit, a non-ASCII character or an escaped punctuation mark,
// where goldmark never tries an inline parser. Any other address goldmark has
// tried already.
func outsideLiteralAddresses(text string, s span) []span {
	var parts []span
	start := s.start
	for i := s.start; i < s.end; i++ {
		if text[i]|0x20 != 'h' || i == 0 {
			continue
		}
		rest := []byte(text[i:s.end])
		if !hasPrefixFold(rest, "http://") && !hasPrefixFold(rest, "https://") {
			continue
		}
		if previous, _ := utf8.DecodeLastRuneInString(text[:i]); previous < utf8.RuneSelf && !isDigit(byte(previous)) && !escaped(text, i-1) {
			continue
		}
		if n := protocolAutolink(rest); n > 0 {
			parts = append(parts, span{start, i})
			start = i + n
			i = start - 1
		}
	}
	return append(parts, span{start, s.end})
}

// escaped reports whether the byte at i is escaped: an odd number of
// backslashes before it.
func escaped[T string | []byte](text T, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && text[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}
