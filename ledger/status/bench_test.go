package status_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

// BenchmarkDerive1M derives every claim's statuses from a log of about
// 1,000,000 entries the way a busy node writes them: 200 organizations'
// identities, then bundles of three claims (one computed, one measured,
// one proved), each followed by reproductions, reviews and proof checks
// from other organizations of two families, with some mismatches.
//
//	go test -run '^$' -bench BenchmarkDerive1M -benchtime 1x ./ledger/status/
func BenchmarkDerive1M(b *testing.B) {
	h := newHistory(&testing.T{})
	const orgs = 200
	for i := range orgs {
		h.identity(fmt.Sprintf("op:%d", i), fmt.Sprintf("org%d.example", i))
	}
	families := []string{"gpt", "gemini", "llama"}
	for n := 0; len(h.leaves) < 1_000_000; n++ {
		author := n % orgs
		c1 := claim{id: claimID(fmt.Sprintf("c %d", n)), local: "c1", computes: true}
		c2 := claim{id: claimID(fmt.Sprintf("m %d", n)), local: "m1"}
		c3 := claim{id: claimID(fmt.Sprintf("p %d", n)), local: "p1", proves: true}
		bundle := h.open(fmt.Sprintf("op:%d", author), []string{"claude"}, "", c1, c2, c3)
		op := func(k int) string { return fmt.Sprintf("op:%d", (author+1+k)%orgs) }
		verdict := "reproduced"
		if n%7 == 0 {
			verdict = "mismatch"
		}
		h.attest("reproduction", op(0), "gpt", bundle, c1.id, verdict)
		h.attest("reproduction", op(1), "gemini", bundle, c1.id, "reproduced")
		for k, kind := range []string{"methods_review", "domain_review", "adversarial_review"} {
			for _, c := range []string{c1.id, c2.id, c3.id} {
				h.attest(kind, op(2+k), families[k], bundle, c, "sound")
			}
		}
		h.attest("proof_check", op(5), "gpt", bundle, c3.id, "passed")
		h.attest("proof_check", op(6), "llama", bundle, c3.id, "passed")
	}
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		got, err := status.Derive(h.leaves, h.readFile, h.at)
		if err != nil {
			b.Fatal(err)
		}
		held := map[string]int{}
		for _, c := range got {
			for _, st := range c.Statuses {
				held[st]++
			}
		}
		// Six in seven computed claims reproduce; every claim is reviewed
		// but a computed one that did not reproduce; every proof checks.
		if held["reproduced"] == 0 || held["formally_verified"] == 0 || held["reviewed"] <= held["reproduced"] {
			b.Fatalf("statuses held: %v", held)
		}
		b.ReportMetric(float64(len(h.leaves)), "entries")
		b.ReportMetric(float64(len(got)), "claims")
		b.ReportMetric(time.Since(start).Seconds(), "s/derive")
	}
}
