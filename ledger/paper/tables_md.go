package paper

import (
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GFM tables in paper.md, as micromark-extension-gfm-table reads them. A
// table is a header row, a delimiter row with as many cells, then body rows;
// it may interrupt a paragraph, whose lines above it stay a paragraph (a
// table's caption). goldmark's table extension differs where it matters
// here: it drops the cells of a row beyond the header's, whose text is still
// prose in mdast, and it lets a setext underline under a table turn the
// whole paragraph into a heading, where micromark ends the table and reads a
// thematic break. Cells split at every '|' not escaped by a backslash, code
// spans or not.

// tableTransformer turns a paragraph holding a table into the paragraph
// above it, if any, and the table.
type tableTransformer struct{}

func (tableTransformer) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	src := reader.Source()
	head, ok := findTableHead(lines, src)
	if !ok {
		return
	}
	delimiter := lines.At(head + 1)
	alignments, _ := delimiterRow(delimiter.Value(src))
	table := east.NewTable()
	table.Alignments = alignments
	table.SetPos(lines.At(head).Start)
	table.AppendChild(table, east.NewTableHeader(tableRow(lines.At(head), alignments, src)))
	// A line indented as code ends the table and starts indented code,
	// which a paragraph's line can't; the lines after the code are a new
	// paragraph.
	indents := lineIndents(pc, node)
	end := lines.Len()
	for i := head + 2; i < lines.Len(); i++ {
		if indents(i) >= 4 {
			end = i
			break
		}
		table.AppendChild(table, tableRow(lines.At(i), alignments, src))
	}
	parent := node.Parent()
	parent.InsertAfter(parent, node, table)
	if end < lines.Len() {
		code := ast.NewCodeBlock()
		i := end
		for ; i < lines.Len() && indents(i) >= 4; i++ {
			code.Lines().Append(lines.At(i))
		}
		parent.InsertAfter(parent, table, code)
		if i < lines.Len() {
			// The paragraph after the code is a paragraph like any other:
			// it may open with link reference definitions, or hold a table.
			rest := ast.NewParagraph()
			for ; i < lines.Len(); i++ {
				rest.Lines().Append(lines.At(i))
			}
			parent.InsertAfter(parent, code, rest)
			parser.LinkReferenceParagraphTransformer.Transform(rest, reader, pc)
			if rest.Parent() != nil {
				tableTransformer{}.Transform(rest, reader, pc)
			}
		}
	}
	if head == 0 {
		parent.RemoveChild(parent, node)
		return
	}
	lines.SetSliced(0, head)
	last := lines.At(head - 1)
	lines.Set(head-1, last.TrimRightSpace(src))
}

// findTableHead is the index of the paragraph line that heads a table: the
// first line followed by a delimiter row with as many cells.
func findTableHead(lines *text.Segments, src []byte) (int, bool) {
	for i := 1; i < lines.Len(); i++ {
		line := lines.At(i)
		alignments, ok := delimiterRow(line.Value(src))
		if !ok {
			continue
		}
		header := lines.At(i - 1)
		if len(splitRow(header.Value(src))) == len(alignments) {
			return i - 1, true
		}
	}
	return 0, false
}

// delimiterRow reads a delimiter row: cells of dashes with an optional colon
// at either end, between pipes, with a pipe or a colon somewhere.
func delimiterRow(line []byte) ([]east.Alignment, bool) {
	line = util.TrimRightSpace(util.TrimLeftSpace(line))
	if len(line) == 0 {
		return nil, false
	}
	seen := false
	var alignments []east.Alignment
	i := 0
	if line[0] == '|' {
		seen = true
		i++
	}
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		left := line[i] == ':'
		if left {
			seen = true
			i++
		}
		dashes := i
		for i < len(line) && line[i] == '-' {
			i++
		}
		if i == dashes {
			return nil, false
		}
		right := i < len(line) && line[i] == ':'
		if right {
			seen = true
			i++
		}
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		switch {
		case left && right:
			alignments = append(alignments, east.AlignCenter)
		case left:
			alignments = append(alignments, east.AlignLeft)
		case right:
			alignments = append(alignments, east.AlignRight)
		default:
			alignments = append(alignments, east.AlignNone)
		}
		if i == len(line) {
			break
		}
		if line[i] != '|' {
			return nil, false
		}
		seen = true
		i++
	}
	return alignments, seen && len(alignments) > 0
}

// cellSpan is a cell's content within its row, as offsets into the row.
type cellSpan struct{ start, end int }

// splitRow splits a row into its cells' contents, trimmed: at each '|' that
// no backslash escapes, a leading and a trailing pipe opening and closing
// the row rather than cells of their own.
func splitRow(line []byte) []cellSpan {
	end := len(line)
	for end > 0 && util.IsSpace(line[end-1]) {
		end--
	}
	i := 0
	for i < end && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i < end && line[i] == '|' {
		i++
	}
	var cells []cellSpan
	start := i
	for i < end {
		switch line[i] {
		case '\\':
			if i+1 < end && (line[i+1] == '\\' || line[i+1] == '|') {
				i++
			}
		case '|':
			cells = append(cells, trimCell(line, start, i))
			start = i + 1
		}
		i++
	}
	if start < end {
		cells = append(cells, trimCell(line, start, end))
	}
	return cells
}

func trimCell(line []byte, start, end int) cellSpan {
	for start < end && (line[start] == ' ' || line[start] == '\t') {
		start++
	}
	for end > start && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	return cellSpan{start, end}
}

// tableRow makes a row of every cell in the line, past the header's too.
func tableRow(line text.Segment, alignments []east.Alignment, src []byte) *east.TableRow {
	row := east.NewTableRow(alignments)
	row.SetPos(line.Start)
	for i, c := range splitRow(line.Value(src)) {
		cell := east.NewTableCell()
		if i < len(alignments) {
			cell.Alignment = alignments[i]
		}
		cell.SetPos(line.Start + c.start)
		if c.end > c.start {
			cell.Lines().Append(text.NewSegment(line.Start+c.start, line.Start+c.end))
		}
		row.AppendChild(row, cell)
	}
	return row
}

// indentedParagraph is goldmark's paragraph parser, noting how far each line
// of a paragraph is indented before goldmark trims it: a table in the
// paragraph ends at a line indented as code.
type indentedParagraph struct{ parser.BlockParser }

var paragraphIndentsKey = parser.NewContextKey()

func (p indentedParagraph) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	width := 0
	if line, _ := reader.PeekLine(); line != nil {
		width, _ = util.IndentWidth(line, reader.LineOffset())
	}
	node, state := p.BlockParser.Open(parent, reader, pc)
	if node != nil {
		indents, _ := pc.Get(paragraphIndentsKey).(map[ast.Node][]int)
		if indents == nil {
			indents = map[ast.Node][]int{}
			pc.Set(paragraphIndentsKey, indents)
		}
		indents[node] = []int{width}
	}
	return node, state
}

func (p indentedParagraph) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.PeekLine()
	width, _ := util.IndentWidth(line, reader.LineOffset())
	state := p.BlockParser.Continue(node, reader, pc)
	if state&parser.Continue != 0 {
		if indents, _ := pc.Get(paragraphIndentsKey).(map[ast.Node][]int); indents != nil {
			indents[node] = append(indents[node], width)
		}
	}
	return state
}

// lineIndents returns the indentation of a paragraph's line by its index
// now, after link reference definitions may have taken lines from its start.
func lineIndents(pc parser.Context, node *ast.Paragraph) func(int) int {
	indents, _ := pc.Get(paragraphIndentsKey).(map[ast.Node][]int)
	noted := indents[node]
	skipped := len(noted) - node.Lines().Len()
	return func(i int) int {
		if skipped < 0 || i+skipped >= len(noted) {
			return 0
		}
		return noted[i+skipped]
	}
}

// setextUnlessTable is goldmark's setext heading parser, except under a
// paragraph that holds a table: micromark has ended the paragraph at the
// table by then, so "---" there is a thematic break and "===" another row.
type setextUnlessTable struct{ parser.BlockParser }

func (p setextUnlessTable) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if last, ok := pc.LastOpenedBlock().Node.(*ast.Paragraph); ok {
		if _, table := findTableHead(last.Lines(), reader.Source()); table {
			return nil, parser.NoChildren
		}
	}
	return p.BlockParser.Open(parent, reader, pc)
}
