package paper

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// LaTeX math in Markdown, as micromark-extension-math reads it, which is what
// the protocol's pages and reference library render with. A paper writes
// math inline between `$` signs or displayed between `$$` fences, and what
// lies inside is math, not prose: its digits are no orphan numbers, its `<`
// is no HTML, and its braces are no result placeholders. goldmark has no math
// of its own, so this is a parser extension for it.
//
// Inline math works like a code span: an opening run of one or more dollar
// signs, then anything up to a closing run of exactly as many, across line
// breaks within the paragraph. An opening run that never closes is literal
// text, and so is a dollar sign escaped as \$. Backslashes inside math are
// literal, as in a code span.
//
// Displayed math works like a fenced code block: a line that opens with two
// or more dollar signs (after at most three spaces) and nothing after them
// but white space and a "meta" string without a dollar sign; then lines of
// math up to a line of at least as many dollar signs and white space, or the
// end of the enclosing container. A display written on one line, as in
// `$$x = 1 \tag{1}$$`, is inline math with a two-dollar fence, as micromark
// reads it.

// KindInlineMath and KindMathBlock are the node kinds the extension adds.
var (
	KindInlineMath = ast.NewNodeKind("InlineMath")
	KindMathBlock  = ast.NewNodeKind("MathBlock")
)

// InlineMath is math between `$` runs inside a paragraph. Its children are
// raw text segments holding the math as written, one per line.
type InlineMath struct {
	ast.BaseInline
}

// Kind implements ast.Node.
func (n *InlineMath) Kind() ast.NodeKind { return KindInlineMath }

// Dump implements ast.Node.
func (n *InlineMath) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// Value is the math as written: the text between the fences.
func (n *InlineMath) Value(source []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(source))
		}
	}
	return b.String()
}

// MathBlock is displayed math between `$$` fence lines. Its lines hold the
// math, without the fences.
type MathBlock struct {
	ast.BaseBlock
	// fence is how many dollar signs opened the block; a closing fence needs
	// at least as many. indent is the opening fence's indentation, which is
	// taken off each line of the math.
	fence, indent int
}

// Kind implements ast.Node.
func (n *MathBlock) Kind() ast.NodeKind { return KindMathBlock }

// IsRaw implements ast.Node: nothing inside is parsed as Markdown.
func (n *MathBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *MathBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Fence": fmt.Sprint(n.fence)}, nil)
}

// Value is the math as written: its lines without their line breaks, joined
// by "\n".
func (n *MathBlock) Value(source []byte) string {
	lines := n.Lines()
	parts := make([]string, lines.Len())
	for i := range lines.Len() {
		line := lines.At(i)
		parts[i] = strings.TrimRight(string(line.Value(source)), "\r\n")
	}
	return strings.Join(parts, "\n")
}

// MathExtension adds inline and displayed LaTeX math to a goldmark parser.
// It parses only; rendering math is left to whoever renders.
var MathExtension goldmark.Extender = mathExtension{}

type mathExtension struct{}

func (mathExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		// Before fenced code (700) and paragraphs (1000); no other block
		// starts with '$'.
		parser.WithBlockParsers(util.Prioritized(mathBlockParser{}, 650)),
		// Code spans are at 100 and trigger on '`' only.
		parser.WithInlineParsers(util.Prioritized(inlineMathParser{}, 150)),
	)
}

type inlineMathParser struct{}

func (inlineMathParser) Trigger() []byte { return []byte{'$'} }

// Parse reads math from an opening run of dollar signs. goldmark calls it at
// each dollar sign that isn't escaped; one right after another unescaped
// dollar sign can't open math, so no run is tried from its middle. A run
// that never closes is left for goldmark to read as text, and for other
// parsers, so that an address after it is still a link.
func (inlineMathParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	_, here := block.Position()
	if block.PrecendingCharacter() == '$' && !escaped(block.Source(), here.Start-1) {
		return nil
	}
	line, _ := block.PeekLine()
	opener := 0
	for opener < len(line) && line[opener] == '$' {
		opener++
	}
	block.Advance(opener)
	node := &InlineMath{}
	for {
		line, segment := block.PeekLine()
		if line == nil {
			return nil
		}
		for i := 0; i < len(line); i++ {
			if line[i] != '$' {
				continue
			}
			run := i
			for i < len(line) && line[i] == '$' {
				i++
			}
			if i-run == opener {
				if value := segment.WithStop(segment.Start + run); !value.IsEmpty() {
					node.AppendChild(node, ast.NewRawTextSegment(value))
				}
				block.Advance(i)
				return node
			}
			i--
		}
		node.AppendChild(node, ast.NewRawTextSegment(segment))
		block.AdvanceLine()
	}
}

type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (mathBlockParser) Open(_ ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || line[pos] != '$' {
		return nil, parser.NoChildren
	}
	i := pos
	for i < len(line) && line[i] == '$' {
		i++
	}
	// Two dollar signs at least, and a meta string without one: "$$x$$" on
	// a line is inline math.
	if i-pos < 2 || bytes.IndexByte(line[i:], '$') >= 0 {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &MathBlock{fence: i - pos, indent: pos}, parser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	math := node.(*MathBlock)
	line, segment := reader.PeekLine()
	if width, pos := util.IndentWidth(line, reader.LineOffset()); width < 4 {
		i := pos
		for i < len(line) && line[i] == '$' {
			i++
		}
		if i-pos >= math.fence && util.IsBlank(line[i:]) {
			reader.AdvanceToEOL()
			return parser.Close
		}
	}
	pos, padding := util.IndentPositionPadding(line, reader.LineOffset(), segment.Padding, math.indent)
	if pos < 0 {
		pos = max(0, util.FirstNonSpacePosition(line)) - segment.Padding
		padding = 0
	}
	seg := text.NewSegmentPadding(segment.Start+pos, segment.Stop, padding)
	seg.ForceNewline = true
	math.Lines().Append(seg)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (mathBlockParser) Close(ast.Node, text.Reader, parser.Context) {}

// CanInterruptParagraph: a fence line ends a paragraph, as a code fence does.
func (mathBlockParser) CanInterruptParagraph() bool { return true }

func (mathBlockParser) CanAcceptIndentedLine() bool { return false }
