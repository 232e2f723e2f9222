package paper

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckMarkdownLimits checks each limit at its value and one past it,
// and that what papers hold (a paper as long as the length rule allows,
// thematic breaks, deep code indentation without markers) is never refused.
func TestCheckMarkdownLimits(t *testing.T) {
	nested := func(depth int) string { return strings.Repeat("> ", depth) + "x\n" }
	indented := func(levels int) string {
		var b strings.Builder
		for k := range levels {
			b.WriteString(strings.Repeat("  ", k) + "- a\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name  string
		text  string
		paper bool
		limit string // "" when the text passes
		want  error
	}{
		{"the longest paper", realisticPaper(), true, "", nil},
		{"paper at MaxPaperBytes", strings.Repeat("a", MaxPaperBytes), true, "", nil},
		{"paper over MaxPaperBytes", strings.Repeat("a", MaxPaperBytes+1), true, "MaxPaperBytes", ErrTooLarge},
		{"other file at MaxMarkdownBytes", strings.Repeat("a", MaxMarkdownBytes), false, "", nil},
		{"other file over MaxMarkdownBytes", strings.Repeat("a", MaxMarkdownBytes+1), false, "MaxMarkdownBytes", ErrTooLarge},
		{"quotes at MaxNestingDepth", nested(MaxNestingDepth), true, "", nil},
		{"quotes over MaxNestingDepth", nested(MaxNestingDepth + 1), true, "MaxNestingDepth", ErrTooComplex},
		{"mixed markers over MaxNestingDepth", strings.Repeat("> - 1. ", 11) + "x\n", true, "MaxNestingDepth", ErrTooComplex},
		{"markers after CRLF", "a\r\n" + nested(MaxNestingDepth+1), true, "MaxNestingDepth", ErrTooComplex},
		{"indented lists at MaxNestingDepth", indented(MaxNestingDepth + 1), true, "", nil},
		{"indented lists over MaxNestingDepth", indented(MaxNestingDepth + 2), true, "MaxNestingDepth", ErrTooComplex},
		{"a long thematic break", strings.Repeat("* ", 200) + "\n", true, "", nil},
		{"deep code without markers", "```\n" + strings.Repeat(" ", 200) + "x = 1\n```\n", true, "", nil},
		{"not a marker", strings.Repeat("-a ", 100) + "\n", true, "", nil},
		{"brackets at MaxDelimiters", strings.Repeat("[", MaxDelimiters), true, "", nil},
		{"brackets over MaxDelimiters", strings.Repeat("[", MaxDelimiters+1), true, "MaxDelimiters", ErrTooComplex},
		{"one long emphasis run", strings.Repeat("*", 100000), true, "", nil},
		{"emphasis runs over MaxDelimiters", strings.Repeat("*a", MaxDelimiters+1), true, "MaxDelimiters", ErrTooComplex},
		{"code runs over MaxDelimiters", strings.Repeat("`a", MaxDelimiters+1), true, "MaxDelimiters", ErrTooComplex},
		{"math runs over MaxDelimiters", strings.Repeat("$a", MaxDelimiters+1), true, "MaxDelimiters", ErrTooComplex},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMarkdown("paper.md", []byte(tc.text), tc.paper)
			if tc.limit == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tc.limit || !errors.Is(err, tc.want) {
				t.Fatalf("got %v; want the limit %s (%v)", err, tc.limit, tc.want)
			}
			if !strings.Contains(err.Error(), "paper."+tc.limit) {
				t.Errorf("the error %q does not name paper.%s", err, tc.limit)
			}
		})
	}
}
