package paper

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The reference reads Markdown into an mdast tree with micromark (GFM and
// math) and works on its nodes and their source offsets. goldmark builds a
// different tree from the same CommonMark and GFM rules; this file gives the
// checks what they need of it in mdast's terms: which node is which mdast
// type, a node's source span, and the plain text mdast would give it.

// markdown is the parser every check shares: CommonMark, GFM (tables,
// autolink literals, strikethrough, task lists, footnotes) and math, each as
// micromark reads it where goldmark reads it differently. A goldmark parser
// keeps no state between parses, so one serves every caller.
var markdown = sync.OnceValue(func() parser.Parser {
	// goldmark's own block parsers, at their own priorities, two of them
	// wrapped for tables (see tables_md.go).
	p := parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(setextUnlessTable{parser.NewSetextHeadingParser()}, 100),
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(parser.NewListParser(), 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewATXHeadingParser(), 600),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(parser.NewBlockquoteParser(), 800),
			util.Prioritized(parser.NewHTMLBlockParser(), 900),
			util.Prioritized(indentedParagraph{parser.NewParagraphParser()}, 1000),
			// Footnote definitions, without goldmark's footnote
			// transformer, which drops the definitions nothing refers to:
			// mdast keeps every one, and what one holds is still cited and
			// still scanned.
			util.Prioritized(extension.NewFootnoteBlockParser(), 999),
		),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(),
			util.Prioritized(extension.NewFootnoteParser(), 101),
			util.Prioritized(autolinkLiteral{}, 999),
		)...),
		parser.WithParagraphTransformers(
			util.Prioritized(parser.LinkReferenceParagraphTransformer, 100),
			util.Prioritized(tableTransformer{}, 200),
		),
	)
	md := goldmark.New(goldmark.WithParser(p), goldmark.WithExtensions(extension.Strikethrough, extension.TaskList, MathExtension))
	return md.Parser()
})

// document is a Markdown text and its tree. Offsets in the tree are byte
// offsets into text, and into src, the bytes goldmark parsed.
type document struct {
	text string
	src  []byte
	root ast.Node
}

// parseMarkdown parses text. micromark takes a lone CR as a line break, which
// goldmark does not; making each lone CR an LF keeps every offset the same.
func parseMarkdown(source string) *document {
	src := []byte(source)
	for i, c := range src {
		if c == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			src[i] = '\n'
		}
	}
	return &document{text: source, src: src, root: markdown().Parse(text.NewReader(src))}
}

// isNotProse reports whether a node's text is never read as prose a reader
// takes as a stated result: code, math, raw HTML, images, link definitions and
// footnote definitions (the reference's NOT_PROSE).
func isNotProse(n ast.Node) bool {
	switch n.Kind() {
	case ast.KindCodeSpan, ast.KindCodeBlock, ast.KindFencedCodeBlock,
		KindInlineMath, KindMathBlock,
		ast.KindRawHTML, ast.KindHTMLBlock,
		ast.KindImage,
		ast.KindLinkReferenceDefinition,
		east.KindFootnote, east.KindFootnoteList:
		return true
	}
	return false
}

// linkURL is the target of what mdast calls a "link" (an inline link or an
// autolink), decoded as mdast decodes it. ok is false for any other node,
// links by reference included: mdast calls those linkReference and gives
// them no URL.
func linkURL(n ast.Node, src []byte) (url string, ok bool) {
	switch n := n.(type) {
	case *ast.Link:
		if n.Reference != nil {
			return "", false
		}
		return decodeMarkdown(n.Destination), true
	case *ast.AutoLink:
		url := string(n.URL(src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
			url = "mailto:" + url
		}
		return url, true
	}
	return "", false
}

// definitionURL is the target of a link reference definition, decoded.
func definitionURL(n ast.Node) (string, bool) {
	if d, ok := n.(*ast.LinkReferenceDefinition); ok {
		return decodeMarkdown(d.Destination), true
	}
	return "", false
}

// plainText is the reference's plainText: the text and inline code of a node
// and everything under it, as mdast holds their values (escapes and
// character references decoded, a soft line break as "\n"), and nothing of
// math, HTML or images.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	writePlainText(&b, n, src)
	return b.String()
}

func writePlainText(b *strings.Builder, n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.Text:
		b.WriteString(decodeMarkdown(n.Segment.Value(src)))
		if n.SoftLineBreak() {
			b.WriteByte('\n')
		}
		return
	case *ast.String:
		b.Write(n.Value)
		return
	case *ast.CodeSpan:
		writeRawChildren(b, n, src)
		return
	case *ast.AutoLink:
		b.Write(n.Label(src))
		return
	case *InlineMath, *ast.RawHTML, *ast.Image:
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		writePlainText(b, c, src)
	}
}

// altText is an image's alt text as mdast gives it (mdast-util-to-string of
// its label): text, inline code, math and raw HTML as written, and the alt
// text of images inside it.
func altText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		writeAltText(&b, c, src)
	}
	return b.String()
}

func writeAltText(b *strings.Builder, n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.Text:
		b.WriteString(decodeMarkdown(n.Segment.Value(src)))
		if n.SoftLineBreak() {
			b.WriteByte('\n')
		}
		return
	case *ast.String:
		b.Write(n.Value)
		return
	case *ast.CodeSpan, *InlineMath:
		writeRawChildren(b, n, src)
		return
	case *ast.AutoLink:
		b.Write(n.Label(src))
		return
	case *ast.RawHTML:
		for i := range n.Segments.Len() {
			segment := n.Segments.At(i)
			b.Write(segment.Value(src))
		}
		return
	case *ast.Image:
		b.WriteString(altText(n, src))
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		writeAltText(b, c, src)
	}
}

func writeRawChildren(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		}
	}
}

// mathValue is the math a math node holds, or false for any other node.
func mathValue(n ast.Node, src []byte) (string, bool) {
	switch n := n.(type) {
	case *InlineMath:
		return n.Value(src), true
	case *MathBlock:
		return n.Value(src), true
	}
	return "", false
}

// span is a half-open range of byte offsets into a document's text.
type span struct{ start, end int }

// walkChildren goes through n's children in order, calling text with the
// source span of each text node mdast would make among them and other with
// every other child. mdast's text node is a run of goldmark text nodes in a
// row, which goldmark splits at line breaks and at delimiters that matched
// nothing, up to a hard line break, where mdast puts a break node.
func walkChildren(n ast.Node, text func(span), other func(ast.Node)) {
	open := false
	var run span
	flush := func() {
		if open {
			text(run)
			open = false
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			flush()
			other(c)
			continue
		}
		if !open {
			run, open = span{t.Segment.Start, t.Segment.Stop}, true
		} else {
			run.end = t.Segment.Stop
		}
		if t.HardLineBreak() {
			flush()
		}
	}
	flush()
}

// lineEnd is the offset of the line break that ends the line holding offset,
// or the end of the text: where mdast ends a block that ends with its line.
func lineEnd(text string, offset int) int {
	for i := offset; i < len(text); i++ {
		if text[i] == '\n' || text[i] == '\r' {
			return i
		}
	}
	return len(text)
}

// headingSpan is where a top-level heading starts and ends, as mdast places
// it: from its first character after any indentation to the end of its last
// line, the underline of a setext heading included.
func headingSpan(h *ast.Heading, text string) span {
	start := max(h.Pos(), 0)
	if isATXHeadingLine(text[start:]) || h.Lines().Len() == 0 {
		return span{start, lineEnd(text, start)}
	}
	last := h.Lines().At(h.Lines().Len() - 1)
	end := lineEnd(text, last.Start)
	// The underline is the line after the last line of text.
	if end < len(text) {
		next := end + 1
		if text[end] == '\r' && next < len(text) && text[next] == '\n' {
			next++
		}
		end = lineEnd(text, next)
	}
	return span{start, end}
}

// isATXHeadingLine reports whether a line opens as an ATX heading does: one
// to six '#' and then white space or the end of the line.
func isATXHeadingLine(line string) bool {
	i := 0
	for i < len(line) && i < 7 && line[i] == '#' {
		i++
	}
	if i == 0 || i > 6 {
		return false
	}
	return i == len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r'
}

// decodeMarkdown resolves backslash escapes and character references, as
// mdast does for the values of text nodes and link targets.
func decodeMarkdown(raw []byte) string {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && util.IsPunct(raw[i+1]):
			b.WriteByte(raw[i+1])
			i += 2
			continue
		case c == '&':
			if value, n := characterReference(raw[i:]); n > 0 {
				b.WriteString(value)
				i += n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// characterReference reads an HTML character reference at the start of s:
// &name;, &#digits; (at most seven) or &#xhex; (at most six), returning what
// it stands for and its length, or 0 when s doesn't start with one.
func characterReference(s []byte) (string, int) {
	end := 1
	for end < len(s) && end < 40 && s[end] != ';' {
		end++
	}
	if end >= len(s) || s[end] != ';' || end == 1 {
		return "", 0
	}
	body := string(s[1:end])
	if body[0] != '#' {
		for _, c := range []byte(body) {
			if !util.IsAlphaNumeric(c) {
				return "", 0
			}
		}
		entity, ok := util.LookUpHTML5EntityByName(body)
		if !ok {
			return "", 0
		}
		return string(entity.Characters), end + 1
	}
	digits, base, limit := body[1:], 10, 7
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, limit = digits[1:], 16, 6
	}
	if len(digits) == 0 || len(digits) > limit {
		return "", 0
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	r := rune(v)
	if r == 0 || !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return string(r), end + 1
}
