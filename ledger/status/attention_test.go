package status_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

// checkAttention checks that Attention, which reads the status index,
// answers for every author what deriving each of its current claims
// gives: Claim for the claim, and Claim for every claim it rests on,
// followed through DependsOn. It counts in listed the claims each list
// holds.
func checkAttention(t *testing.T, d *status.Deriver, now time.Time, at int, listed map[string]int) {
	t.Helper()
	authors := map[string]bool{}
	for _, b := range d.Bundles() {
		authors[b.Author] = true
	}
	for author := range authors {
		want := attentionOracle(d, author, now)
		got := d.Attention(author, now)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("entry %d: Attention(%s) = %+v, deriving each claim %+v", at, author, got, want)
		}
		// Asked again, it answers the same, whatever the first caller did
		// with its lists.
		if len(got.Open) > 0 {
			got.Open[0] = "changed"
		}
		if again := d.Attention(author, now); !reflect.DeepEqual(again, want) {
			t.Fatalf("entry %d: Attention(%s) asked again = %+v, want %+v", at, author, again, want)
		}
		listed["open"] += len(got.Open)
		listed["refuted"] += len(got.Refuted)
		listed["on_refuted"] += len(got.OnRefuted)
		listed["on_retracted"] += len(got.OnRetracted)
		listed["improve"] += len(got.Improve)
	}
}

// attentionOracle is Attention claim by claim, by Claim alone.
func attentionOracle(d *status.Deriver, author string, now time.Time) status.Attention {
	var out status.Attention
	restsOn := func(id, st string) bool {
		seen := map[string]bool{id: true}
		queue := d.DependsOn(id)
		for len(queue) > 0 {
			dep := queue[0]
			queue = queue[1:]
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if c, ok := d.Claim(dep, now); ok && c.Has(st) {
				return true
			}
			queue = append(queue, d.DependsOn(dep)...)
		}
		return false
	}
	for _, id := range d.CurrentClaims(author) {
		c, ok := d.Claim(id, now)
		if !ok || c.Has("retracted") {
			continue
		}
		if c.Has("contested") {
			out.Open = append(out.Open, id)
		}
		if c.Has("refuted") {
			out.Refuted = append(out.Refuted, id)
		}
		if restsOn(id, "refuted") {
			out.OnRefuted = append(out.OnRefuted, id)
		}
		if restsOn(id, "retracted") {
			out.OnRetracted = append(out.OnRetracted, id)
		}
		var findings []string
		req := func(name, key string) any {
			r, _ := c.Requirements[name].(map[string]any)
			return r[key]
		}
		if req("reproduced", "failed") == true {
			findings = append(findings, "reproduction")
		}
		if m := req("reviewed", "median"); m == "major_issues" || m == "unsound" {
			findings = append(findings, "review")
		}
		if req("formally_verified", "rejected") == true {
			findings = append(findings, "proof")
		}
		if len(findings) > 0 && !c.Has("refuted") {
			out.Improve = append(out.Improve, status.Improvable{Claim: id, Bundle: d.CurrentBundle(id), Findings: findings, CorrectBy: c.CorrectBy})
		}
	}
	return out
}

// TestAttentionLists checks Attention against deriving each claim on
// randomized histories, as they grow and at their end, asked twice and
// as time passes with no leaf added, and that the
// histories give each of its lists something.
func TestAttentionLists(t *testing.T) {
	listed := map[string]int{}
	for seed := range uint64(4) {
		h := randomHistory(t, seed+100, 2000)
		d := status.New(h.readFile)
		for i, leaf := range h.leaves {
			if err := d.Add(uint64(i), leaf); err != nil {
				t.Fatal(err)
			}
			if i%200 == 0 {
				checkAttention(t, d, leafTime(t, leaf), i, listed)
			}
		}
		// Time alone changes what it lists (challenges lapse, failed
		// reproductions refute), and a read may ask for an earlier moment.
		for _, later := range []time.Duration{0, 15 * 24 * time.Hour, 40 * 24 * time.Hour, 0} {
			checkAttention(t, d, h.at.Add(later), len(h.leaves), listed)
		}
	}
	t.Logf("listed: %v", listed)
	for _, l := range []string{"open", "refuted", "on_refuted", "on_retracted", "improve"} {
		if listed[l] == 0 {
			t.Errorf("no author's attention listed a claim in %s: the histories test too little (%v)", l, listed)
		}
	}
}
