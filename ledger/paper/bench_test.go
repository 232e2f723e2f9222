package paper

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agora-node/agora/internal/hostile"
)

// realisticPaper writes a paper of about 20,000 tokens, the most a paper may
// have, in the shape the style guide asks for: placeholders, citations,
// tables with captions, figures, math, code, and numbers where Methods and
// the Discussion keep them.
func realisticPaper() string {
	var b strings.Builder
	claim := "claim:" + strings.Repeat("ab", 32)
	b.WriteString("# Method X lowers held-out loss on benchmark Y\n\n## Summary\n\n")
	b.WriteString("We ask whether method X lowers held-out loss. Across {{R1.seeds}} seeds it lowers loss by {{R1.loss_delta}} ")
	b.WriteString("(standard error {{R1.loss_se}}), which two baselines don't match.\n\n## Claims\n\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "- **C%d:** Method X lowers loss on the held-out split by {{R%d.delta}} relative to the baseline.\n", i, i)
	}
	b.WriteString("\n## Methods\n\n")
	for i := range 44 {
		fmt.Fprintf(&b, "We trained each model for %d epochs at a learning rate of 0.00%d with batch size %d, following "+
			"[Klebanoff (2001)](doi:10.1142/S0218348X01000828) and <%s>. The code is in `code/train_%d.py`; "+
			"the loss is $L = -\\sum_i y_i \\log \\hat{y}_i$ over $n = %d$ examples.\n\n", 10+i, 1+i%9, 32<<(i%4), claim, i, 1000+i)
		if i%10 == 0 {
			b.WriteString("```python\nfor epoch in range(30):\n    loss = step(model, batch, lr=0.001)\n```\n\n")
		}
	}
	b.WriteString("## Results\n\n")
	for i := range 70 {
		fmt.Fprintf(&b, "**Table %d.** Held-out loss by seed.\n\n| Seed | Loss (nats) | Accuracy (%%) |\n| --- | --- | --- |\n", i+1)
		for r := range 4 {
			fmt.Fprintf(&b, "| s%d | {{R%d.loss_%d}} | {{R%d.acc_%d}} |\n", r, i+1, r, i+1, r)
		}
		fmt.Fprintf(&b, "\nTable %d shows the loss falls by {{R%d.delta}}, as Eq. (1) predicts and Figure %d shows; "+
			"three of the four seeds agree, though one run in 2024 logged 12 restarts.\n\n", i+1, i+1, i+1)
		fmt.Fprintf(&b, "![Figure %d. Held-out loss by epoch for X and the baseline.](results/fig%d.png)\n\n", i+1, i+1)
	}
	b.WriteString("$$\n\\Delta L = L_{\\mathrm{base}} - L_X \\tag{1}\n$$\n\n## Discussion\n\n")
	for range 30 {
		b.WriteString("Earlier work reported gains of 0.3 to 0.5 nats on similar benchmarks [Shumailov et al. (2024)](arxiv:2401.12345); " +
			"our smaller gain may reflect the shorter schedule, which a run of twice the length would tell apart.\n\n")
	}
	b.WriteString("## Limitations\n\nWe checked one benchmark and one model family.\n\n## Provenance\n\nOne model family wrote the code and the paper.\n")
	return b.String()
}

// realisticTable is a data table of 5,000 rows: an ID, a count spread over
// orders of magnitude, a measurement, and a label.
func realisticTable() string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("id,count,temperature_c,site\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "%d,%d,%.2f,\"site %d, north\"\n", i, int(math.Pow(10, rng.Float64()*5)), 20+rng.NormFloat64()*3, i%17)
	}
	return b.String()
}

func BenchmarkFlags(b *testing.B) {
	paper, table := realisticPaper(), realisticTable()
	files := map[string][]byte{
		"paper.md":        []byte(paper),
		"data/counts.csv": []byte(table),
		"references.json": []byte(`[{"id":"doi:10.1142/S0218348X01000828","title":"T","authors":["A"],"year":2001},` +
			`{"id":"claim:` + strings.Repeat("ab", 32) + `"}]`),
	}
	b.SetBytes(int64(len(paper) + len(table)))
	for b.Loop() {
		Flags(files, nil)
	}
	b.ReportMetric(float64(Tokens(paper)), "paper-tokens")
}

func BenchmarkCheckLength(b *testing.B) {
	paper := []byte(realisticPaper())
	b.SetBytes(int64(len(paper)))
	for b.Loop() {
		CheckLength(paper)
	}
}

func BenchmarkScanText(b *testing.B) {
	paper := realisticPaper()
	b.SetBytes(int64(len(paper)))
	for b.Loop() {
		ScanText("paper.md", paper)
	}
}

func TestRealisticPaper(t *testing.T) {
	paper := realisticPaper()
	if tokens := Tokens(paper); tokens < 18_000 || tokens > 20_000 {
		t.Errorf("the benchmark's paper has %d tokens, want about 20,000", tokens)
	}
	flags := Flags(map[string][]byte{"paper.md": []byte(paper), "data/counts.csv": []byte(realisticTable())}, nil)
	// The one number in each of the Results' 70 paragraphs that no
	// placeholder binds: 12 (2024 is a year, "three" and "four" counts, the
	// tables and figures named by their labels).
	if len(flags.OrphanNumbers) != 70 {
		t.Errorf("%d orphan numbers, want 70", len(flags.OrphanNumbers))
	}
	for _, o := range flags.OrphanNumbers {
		if o.Number != "12" || o.Section != "Results" {
			t.Errorf("orphan number %+v", o)
		}
	}
	if len(flags.MissingSections) != 0 {
		t.Errorf("missing sections %q", flags.MissingSections)
	}
	// Sequential IDs are far from Benford's law; the counts, spread evenly
	// over five orders of magnitude by their logarithm, follow it.
	if len(flags.Data) != 1 || flags.Data[0].Kind != Benford || flags.Data[0].Column != "id" {
		t.Errorf("data flags %+v, want one, for the id column", flags.Data)
	}
}

// BenchmarkHostileMarkdown measures what the bundle check does with each
// Markdown family of the hostile corpus at 50 KB, 100 KB, 200 KB and 1 MB:
// CheckMarkdown, and on what it lets through CheckLength, Flags and
// ScanHidden. Each size of a family costs at most about twice the size
// before it, or is refused by a limit in microseconds ("refused" is 1 when
// it was).
//
//	go test -run '^$' -bench HostileMarkdown -benchtime 1x ./ledger/paper
func BenchmarkHostileMarkdown(b *testing.B) {
	cases, err := hostile.Load("testdata/hostile")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cases {
		if !IsMarkdown(c.File) {
			continue
		}
		for _, size := range []int{50_000, 100_000, 200_000, 1_000_000} {
			text := c.Sized(size).Input()
			b.Run(fmt.Sprintf("%s/%dKB", c.Name, size/1000), func(b *testing.B) {
				refused := 0.0
				for b.Loop() {
					if CheckMarkdown("paper.md", text, true) != nil {
						refused = 1
						continue
					}
					CheckLength(text)
					Flags(map[string][]byte{"paper.md": text}, nil)
					ScanHidden("paper.md", text)
				}
				b.ReportMetric(refused, "refused")
			})
		}
	}
}
