package paper

import (
	"reflect"
	"strings"
	"testing"
)

// numbers is what a paper's orphan numbers say, in order.
func numbers(markdown string) []string {
	found := []string{}
	for _, o := range OrphanNumbers(markdown) {
		found = append(found, o.Number)
	}
	return found
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }

// The reference library's own cases (src/integrity.test.ts), with the
// positions and excerpts its implementation gives.
func TestOrphanNumbersReferenceCases(t *testing.T) {
	paper := lines(
		"# Summary",
		"",
		"Method X lowers loss by {{R1.loss_delta}} across {{R1.seeds}} seeds, a 12.5% gain.",
		"",
		"# Methods",
		"",
		"We train for 30 epochs at a learning rate of 0.001.",
		"",
		"# Results",
		"",
		"| Model | Loss |",
		"| --- | --- |",
		"| X | 0.412 |",
		"",
		"Accuracy rose to −3e-2 below baseline, and 1,204 runs finished.",
	)
	want := []OrphanNumber{
		{Section: "Summary", Line: 3, Column: 72, Number: "12.5", Excerpt: "…by {{R1.loss_delta}} across {{R1.seeds}} seeds, a 12.5% gain."},
		{Section: "Results", Line: 13, Column: 7, Number: "0.412", Excerpt: "| X | 0.412 |"},
		{Section: "Results", Line: 15, Column: 18, Number: "−3e-2", Excerpt: "Accuracy rose to −3e-2 below baseline, and 1,204 runs finished."},
		{Section: "Results", Line: 15, Column: 44, Number: "1,204", Excerpt: "Accuracy rose to −3e-2 below baseline, and 1,204 runs finished."},
	}
	if got := OrphanNumbers(paper); !reflect.DeepEqual(got, want) {
		t.Errorf("OrphanNumbers =\n%+v\nwant\n%+v", got, want)
	}

	tests := []struct {
		name  string
		paper string
		want  []string
	}{
		{"code, math, links, headings, names and years", lines(
			"# Claims",
			"",
			"## Claim 2 holds",
			"",
			"C1 and R3 extend GPT-4 and ResNet-50, as in 2024; see `seed=42`, $x^2 = 4$, and [the code](code/run2.py).",
			"",
			"```",
			"loss = 0.5",
			"```",
			"",
			"$$",
			"y = 3x",
			"$$",
			"",
			"Data at https://example.org/v2/run7 and www.example.org/9.",
		), []string{}},
		{"sections at the top heading level, nothing before the first",
			"Preamble with 7 numbers.\n\n## Summary\n\nIt rose 4 points.\n\n### Detail\n\nBy 9.\n\n## Methods\n\nBatch 64.",
			[]string{"4", "9"}},
		{"no headings at all", "No headings at all: 5.", []string{}},
		{"sections below a title",
			"# Method X lowers loss\n\nBy 3 points.\n\n## Summary\n\nIt rose 4 points.\n\n## Methods\n\nBatch 64.\n\n## Results\n\nUp 5.",
			[]string{"4", "5"}},
		{"a shallower heading ends a section", "## Results\n\nUp 5.\n\n# Appendix\n\nTable 6.", []string{"5"}},
		{"numbers spelled out in words", lines(
			"# Summary",
			"",
			"Two methods give {{R1.n_records}} records, covering the first ten million integers.",
			"",
			"# Methods",
			"",
			"We search the first ten million integers with one hundred threads.",
			"",
			"# Results",
			"",
			"Anchors: n equals twenty-seven with delay one hundred eleven; n equals eight hundred thirty-seven thousand seven hundred ninety-nine with delay five hundred twenty-four.",
			"",
			"It rose 4 points, then forty, in three of the runs, or two thirds of them.",
		), []string{
			"ten million", "twenty-seven", "one hundred eleven",
			"eight hundred thirty-seven thousand seven hundred ninety-nine", "five hundred twenty-four",
			"4", "forty", "two thirds",
		}},
		{"spelled-out numbers in placeholders, code, math and headings",
			"# Results\n\n## Twenty-one runs\n\n{{R1.twenty_one}} and `ninety` and $\\text{forty}$.", []string{}},
		{"a table's number in its caption, with a blank line",
			lines("# Results", "", "**Table 1.** Rejection probabilities.", "", "| Test | Rejected |", "| --- | --- |", "| Wald | {{R1.wald}} |"),
			[]string{}},
		{"a table's number in its caption, right above it",
			lines("# Results", "", "**Table 1:** Rejection probabilities.", "| Test | Rejected |", "| --- | --- |", "| Wald | {{R1.wald}} |"),
			[]string{}},
		{"values in a caption and in cells",
			lines("# Results", "", "**Table 2.** Rejection at level 0.05.", "", "| Test | Rejected |", "| --- | --- |", "| Wald | {{R1.wald}} |", "| Score | 0.93 |"),
			[]string{"0.05", "0.93"}},
		{"a caption that doesn't open with a label",
			lines("# Results", "", "**Loss over 3 runs.**", "", "| Test | Rejected |", "| --- | --- |", "| Wald | {{R1.wald}} |", "", "Loss over 3 runs."),
			[]string{"3", "3"}},
		{"a label of more than three words",
			lines("# Results", "", "**The best of four tables 7.**", "", "| Test | Rejected |", "| --- | --- |", "| Wald | {{R1.wald}} |"),
			[]string{"7"}},
		{"an image whose alt text opens with no label",
			lines("# Results", "", "![Loss after 3 epochs.](results/loss.png)", "", "Loss after 3 epochs."),
			[]string{"3"}},
		{"an equation displayed on one line is tagged too",
			"# Methods\n\nWe use $$p = \\Pr(T > t) \\tag{4}$$ below.\n\n# Results\n\nEq. (4) holds.", []string{}},
	}
	labelled := lines(
		"# Methods",
		"",
		"$$",
		"p = \\Pr(T > t) \\tag{3}",
		"$$",
		"",
		"**Table 1.** Rejection probabilities.",
		"",
		"| Test | Rejected |",
		"| --- | --- |",
		"| Wald | {{R1.wald}} |",
		"",
		"# Results",
		"",
		"Table 1 and Figure 2a show it (see Extended Data Fig. 4), as Eq. (3) predicts and Table",
		"1 confirms.",
		"",
		"![Figure 2. Rejection by sample size.](results/fig2.png)",
		"",
		"![Extended Data Fig. 4: Power.](results/fig4.png)",
	)
	tests = append(tests,
		struct {
			name  string
			paper string
			want  []string
		}{"labels wherever the text names the part", labelled, []string{}},
		struct {
			name  string
			paper string
			want  []string
		}{"only the labels the paper gives",
			labelled + "\n\nTable 5, Table 12, DataTable 1, Figure 2.5, and (3 runs) stand out.",
			[]string{"5", "12", "1", "2.5", "3"}},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := numbers(tt.paper); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("numbers = %q, want %q", got, tt.want)
			}
		})
	}

	t.Run("positions in code points, hidden characters in excerpts", func(t *testing.T) {
		got := OrphanNumbers("# Results\n\n🐝 rose by 3\u200b points.")
		want := []OrphanNumber{{Section: "Results", Line: 3, Column: 11, Number: "3", Excerpt: "🐝 rose by 3<U+200B> points."}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})
}

func TestOrphanNumbersExceptions(t *testing.T) {
	paper := lines(
		"# Results",
		"",
		"Zero, one, two, three, four, five, six, seven, eight and nine runs; first to ninth place; ten runs; the tenth run; twenty-one trials.",
		"",
		"In 1899, 1900, 2099 and 2100 we ran {{R1.n}} and {{ R2.delta_3 }}.",
		"",
		"Code `x = 5` and $y = 6$ and <span>7</span> and ![Figure 9. A plot of 8 runs.](results/f.png) and [the 10 scripts](code/run11.py) and <https://x.org/12> and www.example.org/13.",
		"",
		"```",
		"14",
		"```",
		"",
		"$$",
		"z = 15",
		"$$",
		"",
		"# Discussion",
		"",
		"Earlier work found 16.",
	)
	want := []OrphanNumber{
		{Section: "Results", Line: 3, Column: 91, Number: "ten", Excerpt: "…seven, eight and nine runs; first to ninth place; ten runs; the tenth run; twenty-one trials."},
		{Section: "Results", Line: 3, Column: 105, Number: "tenth", Excerpt: "…nd nine runs; first to ninth place; ten runs; the tenth run; twenty-one trials."},
		{Section: "Results", Line: 3, Column: 116, Number: "twenty-one", Excerpt: "…s; first to ninth place; ten runs; the tenth run; twenty-one trials."},
		{Section: "Results", Line: 5, Column: 4, Number: "1899", Excerpt: "In 1899, 1900, 2099 and 2100 we ran {{R1.n}} and {{ R…"},
		{Section: "Results", Line: 5, Column: 25, Number: "2100", Excerpt: "In 1899, 1900, 2099 and 2100 we ran {{R1.n}} and {{ R2.delta_3 }}."},
		// Raw HTML tags are skipped; the text between them is prose.
		{Section: "Results", Line: 7, Column: 36, Number: "7", Excerpt: "Code `x = 5` and $y = 6$ and <span>7</span> and ![Figure 9. A plot of 8 runs.](result…"},
		// A link's text is prose; its target is not.
		{Section: "Results", Line: 7, Column: 104, Number: "10", Excerpt: "…ure 9. A plot of 8 runs.](results/f.png) and [the 10 scripts](code/run11.py) and <https://x.org/12> …"},
	}
	if got := OrphanNumbers(paper); !reflect.DeepEqual(got, want) {
		t.Errorf("OrphanNumbers =\n%+v\nwant\n%+v", got, want)
	}
}

func TestOrphanNumbersLineBreaks(t *testing.T) {
	// CRLF, CR and LF each end a line; a number spelled across a line break
	// is one number, written as it is.
	got := OrphanNumbers("## Results\r\n\r\nUp 5 and\r6 then\n7, and ten\r\nmillion.\r\n")
	want := []OrphanNumber{
		{Section: "Results", Line: 3, Column: 4, Number: "5", Excerpt: "Up 5 and"},
		{Section: "Results", Line: 4, Column: 1, Number: "6", Excerpt: "6 then"},
		{Section: "Results", Line: 5, Column: 1, Number: "7", Excerpt: "7, and ten"},
		{Section: "Results", Line: 5, Column: 8, Number: "ten\r\nmillion", Excerpt: "7, and ten"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestOrphanNumbersWholePaper(t *testing.T) {
	paper := lines(
		"# A title with 3 words",
		"",
		"## Summary",
		"",
		"It rose by 4.",
		"",
		"## Claims",
		"",
		"- **C1:** It holds for 5 cases.",
		"",
		"## Methods",
		"",
		"We used 6 seeds.",
		"",
		"## Results",
		"",
		"**Table 1.** Loss by run.",
		"",
		"| Run | Loss |",
		"| --- | --- |",
		"| A | {{R1.a}} |",
		"| B | 7 |",
		"",
		"Table 1 shows it, as Eq. (1) and Figure 2 predict.",
		"",
		"$$",
		"L = \\sum_i x_i \\tag{1}",
		"$$",
		"",
		"![Figure 2. Loss by epoch.](results/fig2.png)",
		"",
		"## Discussion",
		"",
		"It agrees with 8.",
		"",
		"## Limitations",
		"",
		"None.",
		"",
		"## Provenance",
		"",
		"Done by 9 models.",
	)
	want := []OrphanNumber{
		{Section: "Summary", Line: 5, Column: 12, Number: "4", Excerpt: "It rose by 4."},
		{Section: "Claims", Line: 9, Column: 24, Number: "5", Excerpt: "- **C1:** It holds for 5 cases."},
		{Section: "Results", Line: 22, Column: 7, Number: "7", Excerpt: "| B | 7 |"},
	}
	if got := OrphanNumbers(paper); !reflect.DeepEqual(got, want) {
		t.Errorf("OrphanNumbers =\n%+v\nwant\n%+v", got, want)
	}
	if got := MissingSections(paper); len(got) != 0 {
		t.Errorf("MissingSections = %q, want none", got)
	}
}

func TestOrphanNumbersMarkdownEdges(t *testing.T) {
	tests := []struct {
		name  string
		paper string
		want  []string
	}{
		{"section names in any case", "## RESULTS\n\nUp 5.", []string{"5"}},
		{"a setext heading starts a section", "Results\n-------\n\nUp 5.", []string{"5"}},
		{"emphasis and strikethrough are prose", "# Results\n\n*5* and **6** and ~~7~~.", []string{"5", "6", "7"}},
		{"block quotes and lists are prose", "# Results\n\n> Up 5.\n\n- down 6\n  1. by 7", []string{"5", "6", "7"}},
		{"a hard line break splits a number", "# Results\n\ntwenty  \nseven", []string{"twenty"}},
		{"a soft line break doesn't", "# Results\n\ntwenty\nseven", []string{"twenty\nseven"}},
		{"escaped dollars are no math", "# Results\n\nIt cost \\$5 and \\$6.", []string{"5", "6"}},
		{"dollars pair up as math", "# Results\n\nIt cost $5 and $6.", []string{"6"}},
		{"inline math across a line break", "# Results\n\nSo $a = 1\nb = 2$ and 3.", []string{"3"}},
		{"math displayed in a list", "# Results\n\n- $$\n  x = 1\n  $$\n- and 2", []string{"2"}},
		{"an unclosed display runs to the end", "# Results\n\n$$\nx = 1\n\n# Methods\n\n5", []string{}},
		{"indented code", "# Results\n\n    x = 5\n\nand 6", []string{"6"}},
		{"footnote definitions aren't read", "# Results\n\nAs noted[^a].\n\n[^a]: In 2017 it was 5.", []string{}},
		{"link definitions aren't read", "# Results\n\nSee [the data][d].\n\n[d]: data/run5.csv", []string{}},
		{"a link by reference is prose", "# Results\n\nSee [the 5 runs][d].\n\n[d]: data/runs.csv", []string{"5"}},
		{"a bare address in a link", "# Results\n\n[www.example.org/5](http://www.example.org/5) and [6](https://x.org/6)", []string{"6"}},
		{"an address after a quote", "# Results\n\nSee \"https://x.org/a(5)b\" and 6.", []string{"6"}},
		{"an address's trailing punctuation", "# Results\n\nAt https://x.org/v5. Then 6.", []string{"6"}},
		{"a sign or hyphen after a name, and a sign after a space", "# Results\n\nrun_5, v-6, x -7 and x−8.", []string{"-7"}},
		{"an astral letter before a number", "# Results\n\n𝑥2 but x3.", []string{"2"}},
		{"a character reference is read as written", "# Results\n\nIt is &#53;.", []string{"53"}},
		{"placeholders with spaces and digits", "# Results\n\n{{ R12.loss_3 }} and {{R1.x}}5", []string{"5"}},
		{"a tag names an equation only as (n)", "# Results\n\n$$\nx \\tag{ 2 }\n$$\n\nSee (2), Eq. (2) and 2.", []string{"2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := numbers(tt.paper); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("numbers = %q, want %q", got, tt.want)
			}
		})
	}
}
