package paper

import (
	"reflect"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// mathIn lists the math a document holds, as "inline:" or "block:" and the
// math as written.
func mathIn(markdown string) []string {
	doc := parseMarkdown(markdown)
	src := doc.src
	found := []string{}
	_ = ast.Walk(doc.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *InlineMath:
			found = append(found, "inline:"+n.Value(src))
		case *MathBlock:
			found = append(found, "block:"+n.Value(src))
		}
		return ast.WalkContinue, nil
	})
	return found
}

func TestMathExtension(t *testing.T) {
	tests := []struct {
		name, markdown string
		want           []string
	}{
		{"inline", "So $x^2 = 4$ here.", []string{"inline:x^2 = 4"}},
		{"two-dollar inline", "So $$x = 1 \\tag{1}$$ here.", []string{"inline:x = 1 \\tag{1}"}},
		{"a closing run of another length is math", "$a$$b$", []string{"inline:a$$b"}},
		{"unclosed is text", "It costs $5.", []string{}},
		{"an unclosed run is text whole", "$$$ x $ y$", []string{"inline: y"}},
		{"escaped dollars are text", "\\$5 and \\$6", []string{}},
		{"an escaped backslash doesn't escape", "\\\\$5$", []string{"inline:5"}},
		{"backslashes inside math are literal", "$a\\$ b", []string{"inline:a\\"}},
		{"across a line break", "$a\nb$", []string{"inline:a\nb"}},
		{"not across paragraphs", "$a\n\nb$", []string{}},
		{"code spans first", "`$a` $b$", []string{"inline:b"}},
		{"math first", "$`a$ b`", []string{"inline:`a"}},
		{"a link's brackets inside math", "[x $a](y) b$", []string{"inline:a](y) b"}},
		{"displayed", "$$\nx = 1\ny = 2\n$$\n", []string{"block:x = 1\ny = 2"}},
		{"a longer fence closes only with as many", "$$$\nx\n$$\n$$$", []string{"block:x\n$$"}},
		{"a fence with meta", "$$ latex\nx\n$$", []string{"block:x"}},
		{"a fence line with a dollar in its meta is inline", "$$ x $$\ny", []string{"inline: x "}},
		{"unclosed runs to the end", "$$\nx\n\ny", []string{"block:x\n\ny"}},
		{"interrupts a paragraph", "text\n$$\nx\n$$", []string{"block:x"}},
		{"in a block quote", "> $$\n> x\n> $$\n\nafter", []string{"block:x"}},
		{"indented as the fence is", "  $$\n   x\n  $$", []string{"block: x"}},
		{"a fence indented four is code", "    $$\n    x\n    $$", []string{}},
		{"a table splits cells first", "| a |\n| - |\n| $x|y$ |", []string{}},
		{"in a table cell", "| a |\n| - |\n| $x$ |", []string{"inline:x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mathIn(tt.markdown); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("math in %q = %q, want %q", tt.markdown, got, tt.want)
			}
		})
	}
}
