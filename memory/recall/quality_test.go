package recall_test

import (
	"testing"

	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/memory/recall/internal/gen"
)

// The goals of the recall engine. TestQualityGoals holds the engine to
// them on the held-out corpus.
const (
	goalRecallAt1      = 0.90
	goalRecallAt3      = 0.97
	goalFalseInjection = 0.05
)

// Regression floors: what the engine reaches on the held-out 5k corpus
// today (recall@1 0.980, recall@3 0.982, false injection 0.004), a little
// rounded. Raise them when the engine improves.
const (
	floorRecallAt1     = 0.975
	floorRecallAt3     = 0.975
	ceilFalseInjection = 0.02
	smallCorpusRecords = 5000
	benchCorpusRecords = 100_000
	// DefaultWeights were tuned on seeds 1, 4 and 5 together; the test
	// and the benchmark measure seed 2, which tuning never saw, so the
	// figures show how the engine generalizes rather than how well it
	// fits one corpus. Seed 3 is the second held-out check.
	corpusSeed = 2
)

func buildIndex(tb testing.TB, c gen.Corpus) *recall.Index {
	tb.Helper()
	ix := recall.NewIndex()
	for _, d := range c.Docs {
		if err := ix.Add(d); err != nil {
			tb.Fatalf("add %s: %v", d.ID, err)
		}
	}
	return ix
}

func evaluateSmall(t *testing.T) (gen.Corpus, recall.Report) {
	t.Helper()
	c := gen.Generate(gen.Config{Seed: corpusSeed, Records: smallCorpusRecords})
	if c.RootCauses < 150 {
		t.Fatalf("corpus has %d stored root causes, want at least 150", c.RootCauses)
	}
	r := recall.Evaluate(buildIndex(t, c), c.Cases, recall.DefaultWeights())
	t.Logf("records %d, stored root causes %d, held out %d, distractors %d, queries %d, never-stored queries %d",
		len(c.Docs), c.RootCauses, c.HeldOut, c.Distractors, r.Queries, r.NeverStored)
	t.Logf("recall@1 %.3f recall@3 %.3f MRR %.3f false-injection %.3f",
		r.RecallAt1, r.RecallAt3, r.MRR, r.FalseInjection)
	t.Logf("tool results: %d queries recall@1 %.3f recall@3 %.3f, %d never stored, false-injection %.3f",
		r.Tool.Queries, r.Tool.RecallAt1, r.Tool.RecallAt3, r.Tool.NeverStored, r.Tool.FalseInjection)
	t.Logf("prompts: %d queries recall@1 %.3f recall@3 %.3f, %d never stored, false-injection %.3f",
		r.Prompt.Queries, r.Prompt.RecallAt1, r.Prompt.RecallAt3, r.Prompt.NeverStored, r.Prompt.FalseInjection)
	return c, r
}

// TestQualityFloor fails when ranking or silence gets worse than it is
// today on a 5,000-record corpus whose queries never repeat a stored text.
func TestQualityFloor(t *testing.T) {
	_, r := evaluateSmall(t)
	if r.RecallAt1 < floorRecallAt1 {
		t.Errorf("recall@1 = %.3f, want >= %.2f", r.RecallAt1, floorRecallAt1)
	}
	if r.RecallAt3 < floorRecallAt3 {
		t.Errorf("recall@3 = %.3f, want >= %.2f", r.RecallAt3, floorRecallAt3)
	}
	if r.FalseInjection > ceilFalseInjection {
		t.Errorf("false injection = %.3f, want <= %.2f", r.FalseInjection, ceilFalseInjection)
	}
}

// TestQualityGoals checks the goals themselves on the held-out corpus.
func TestQualityGoals(t *testing.T) {
	_, r := evaluateSmall(t)
	if r.RecallAt1 < goalRecallAt1 {
		t.Errorf("recall@1 = %.3f, goal >= %.2f", r.RecallAt1, goalRecallAt1)
	}
	if r.RecallAt3 < goalRecallAt3 {
		t.Errorf("recall@3 = %.3f, goal >= %.2f", r.RecallAt3, goalRecallAt3)
	}
	if r.FalseInjection > goalFalseInjection {
		t.Errorf("false injection = %.3f, goal <= %.2f", r.FalseInjection, goalFalseInjection)
	}
}

// BenchmarkRecall measures quality and per-query latency at 100k records:
//
//	go test -run '^$' -bench BenchmarkRecall -benchtime=1x ./memory/recall/
func BenchmarkRecall(b *testing.B) {
	c := gen.Generate(gen.Config{Seed: corpusSeed, Records: benchCorpusRecords})
	ix := buildIndex(b, c)
	w := recall.DefaultWeights()
	b.ResetTimer()
	var r recall.Report
	for range b.N {
		r = recall.Evaluate(ix, c.Cases, w)
	}
	b.ReportMetric(float64(len(c.Docs)), "records")
	b.ReportMetric(r.RecallAt1, "recall@1")
	b.ReportMetric(r.RecallAt3, "recall@3")
	b.ReportMetric(r.MRR, "mrr")
	b.ReportMetric(r.FalseInjection, "false_injection")
	b.ReportMetric(r.Tool.RecallAt1, "tool_recall@1")
	b.ReportMetric(r.Tool.FalseInjection, "tool_false_injection")
	b.ReportMetric(r.Prompt.RecallAt1, "prompt_recall@1")
	b.ReportMetric(r.Prompt.FalseInjection, "prompt_false_injection")
	b.ReportMetric(float64(r.P50.Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(r.P95.Microseconds())/1000, "p95_ms")
}
