package paper

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"   \n\t", 2},                // no words; 5 bytes round up to 2
		{"hello world", 3},            // 2 words, 11 bytes: 3
		{"a+b = c;", 6},               // a + b = c ;
		{"abc123 déjà-vu", 4},         // abc123, déjà, -, vu
		{"e\u0301te\u0301", 2},        // one word with marks; 7 bytes: 2
		{"東京大学で研究する", 7},              // one run of letters; 27 bytes: 7
		{"😀😀😀", 3},                    // three symbols; 12 bytes: 3
		{"x\u00a0y\u2003z\ufeffw", 4}, // JavaScript's white space separates words
		{"{{R1.loss_delta}}", 9},      // { { R1 . loss _ delta } }
		{"\xff\xfe", 2},               // bytes that aren't UTF-8 are symbols
	}
	for _, tt := range tests {
		if got := Tokens(tt.text); got != tt.want {
			t.Errorf("Tokens(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// summaryOf is a paper whose Summary body holds words one-word tokens.
func summaryOf(words int) string {
	return "# Title\n\n## Summary\n\n" + strings.TrimSpace(strings.Repeat("w ", words)) + "\n\n## Methods\n\nMore.\n"
}

func TestCheckLength(t *testing.T) {
	// The Summary's body runs from the end of its heading to the next one:
	// "\n\n", the words, "\n\n".
	if got := CheckLength([]byte(summaryOf(300))); got != nil {
		t.Errorf("a Summary of 300 tokens: %v", got)
	}
	got := CheckLength([]byte(summaryOf(301)))
	want := []OverLimit{{Part: "Summary", Tokens: 301, Limit: 300}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckLength = %+v, want %+v", got, want)
	}
	if msg := got[0].String(); msg != "The Summary is 301 tokens; at most 300. Say what the work found, and leave the rest to the other sections" {
		t.Errorf("message %q", msg)
	}

	// The heading isn't counted (## and Summary would make 302 here), and
	// a subsection is part of the Summary: ### (3), Detail and 17 words.
	if got := CheckLength([]byte("## Summary\n\n" + strings.Repeat("w ", 300))); got != nil {
		t.Errorf("a Summary of 300 tokens under its heading: %v", got)
	}
	nested := "## Summary\n\n" + strings.Repeat("w ", 280) + "\n### Detail\n\n" + strings.Repeat("d ", 17) + "\n## Methods\n\n" + strings.Repeat("m ", 500)
	if got := CheckLength([]byte(nested)); !reflect.DeepEqual(got, []OverLimit{{Part: "Summary", Tokens: 301, Limit: 300}}) {
		t.Errorf("CheckLength = %+v, want the Summary's 301 tokens with its subsection", got)
	}

	paper := "# Results\n\n" + strings.Repeat("w ", 20_000)
	got = CheckLength([]byte(paper))
	want = []OverLimit{{Part: "paper.md", Tokens: 20_002, Limit: 20_000}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckLength = %+v, want %+v", got, want)
	}
	if msg := got[0].String(); msg != "paper.md is 20,002 tokens; at most 20,000. Split larger work into linked bundles" {
		t.Errorf("message %q", msg)
	}

	// Both at once, the Summary first; a byte order mark isn't counted.
	both := "\uFEFF## Summary\n\n" + strings.Repeat("w ", 20_000)
	got = CheckLength([]byte(both))
	if len(got) != 2 || got[0].Part != "Summary" || got[1].Part != "paper.md" || got[1].Tokens != 20_003 {
		t.Errorf("CheckLength = %+v", got)
	}
}

func TestGroupThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 20000: "20,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := groupThousands(n); got != want {
			t.Errorf("groupThousands(%d) = %q, want %q", n, got, want)
		}
	}
}
