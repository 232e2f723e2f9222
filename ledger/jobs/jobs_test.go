package jobs_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

const (
	op     = "op:aa00000000000000000000000000000000000000000000000000000000000000"
	claimA = "claim:1111111111111111111111111111111111111111111111111111111111111111"
	digest = "sha256:2222222222222222222222222222222222222222222222222222222222222222"
)

func request() map[string]any {
	return map[string]any{"type": "job_request", "operator": op, "time": now.Format(time.RFC3339),
		"can":          map[string]any{"minutes": 30.0, "gpu": false, "download_mb": 500.0, "software": []any{"lean4"}},
		"model_family": "claude", "model": "claude-test-1", "sig": "x"}
}

func paths(is []jobs.Issue) []string {
	var out []string
	for _, i := range is {
		out = append(out, i.Path)
	}
	return out
}

func TestCheckRequest(t *testing.T) {
	r, is := jobs.CheckRequest(request(), now)
	if len(is) > 0 {
		t.Fatalf("issues: %v", is)
	}
	if r.Can.Minutes != 30 || r.Can.DownloadMB != 500 || !slices.Equal(r.Can.Software, []string{"lean4"}) || !r.Importance {
		t.Errorf("request read as %+v", r)
	}
	bare := request()
	delete(bare, "can")
	if r, _ := jobs.CheckRequest(bare, now); r.Can.Minutes != jobs.DefaultMinutes || r.Can.DownloadMB != jobs.DefaultDownloadMB {
		t.Errorf("no can: %+v, want the spec's defaults", r.Can)
	}
	for name, c := range map[string]struct {
		change func(map[string]any)
		want   string
	}{
		"stale":        {func(e map[string]any) { e["time"] = now.Add(-6 * time.Minute).Format(time.RFC3339) }, "/time"},
		"bad time":     {func(e map[string]any) { e["time"] = "yesterday" }, "/time"},
		"negative":     {func(e map[string]any) { e["can"].(map[string]any)["minutes"] = -1.0 }, "/can/minutes"},
		"extra":        {func(e map[string]any) { e["colour"] = "red" }, "/colour"},
		"family":       {func(e map[string]any) { e["model_family"] = "martian" }, "/model_family"},
		"model":        {func(e map[string]any) { e["model"] = "Claude Opus" }, "/model"},
		"type":         {func(e map[string]any) { e["type"] = "job" }, "/type"},
		"operator":     {func(e map[string]any) { e["operator"] = "me" }, "/operator"},
		"unfiltered":   {func(e map[string]any) { e["unfiltered"] = []any{"poetry"} }, "/unfiltered/0"},
		"importance":   {func(e map[string]any) { e["importance"] = "no" }, "/importance"},
		"can not obj":  {func(e map[string]any) { e["can"] = 3.0 }, "/can"},
		"software int": {func(e map[string]any) { e["can"].(map[string]any)["software"] = []any{1.0} }, "/can/software/0"},
	} {
		e := request()
		c.change(e)
		_, is := jobs.CheckRequest(e, now)
		if !slices.Contains(paths(is), c.want) {
			t.Errorf("%s: issues %v, want one at %s", name, is, c.want)
		}
	}
	stale := request()
	stale["time"] = now.Add(10 * time.Minute).Format(time.RFC3339)
	if _, is := jobs.CheckRequest(stale, now); !jobs.Stale(is) {
		t.Errorf("a time 10 minutes ahead is not reported stale: %v", is)
	}
	off := request()
	off["importance"] = false
	off["unfiltered"] = []any{"biological"}
	if r, is := jobs.CheckRequest(off, now); len(is) > 0 || r.Importance || !slices.Equal(r.Unfiltered, []string{"biological"}) {
		t.Errorf("importance false, unfiltered biological: %+v %v", r, is)
	}
}

func attestation(job string) map[string]any {
	e := map[string]any{"type": "attestation", "job": job, "verifier": op, "bundle": digest,
		"claims": map[string]any{claimA: "reproduced"}, "evidence": digest, "model_family": "gpt", "model": "gpt-6-1",
		"harness": "sj-harness 0.8.1", "hazard": "none", "sig": "x"}
	if jobs.IsReview(job) {
		e["claims"] = map[string]any{claimA: "sound"}
		e["significance"] = map[string]any{claimA: "minor"}
		delete(e, "hazard")
	}
	return e
}

func TestCheckAttestation(t *testing.T) {
	for _, job := range []string{"reproduction", "methods_review"} {
		if a, is := jobs.CheckAttestation(attestation(job)); len(is) > 0 || a.Job != job || len(a.Claims) != 1 {
			t.Fatalf("%s: %+v %v", job, a, is)
		}
	}
	for name, c := range map[string]struct {
		job    string
		change func(map[string]any)
		want   string
	}{
		"harness space":    {"reproduction", func(e map[string]any) { e["harness"] = "my harness" }, jobs.HarnessInvalid},
		"harness version":  {"reproduction", func(e map[string]any) { e["harness"] = "sj-harness v1" }, jobs.HarnessInvalid},
		"no hazard":        {"reproduction", func(e map[string]any) { delete(e, "hazard") }, "/hazard"},
		"review hazard":    {"domain_review", func(e map[string]any) { e["hazard"] = "none" }, "/hazard"},
		"wrong vocabulary": {"reproduction", func(e map[string]any) { e["claims"] = map[string]any{claimA: "sound"} }, "/claims/" + claimA},
		"local id":         {"reproduction", func(e map[string]any) { e["claims"] = map[string]any{"C1": "reproduced"} }, "/claims/C1"},
		"no claims":        {"reproduction", func(e map[string]any) { e["claims"] = map[string]any{} }, "/claims"},
		"no significance":  {"adversarial_review", func(e map[string]any) { e["significance"] = map[string]any{} }, "/significance"},
		"repro signif":     {"reproduction", func(e map[string]any) { e["significance"] = map[string]any{claimA: "minor"} }, "/significance"},
		"knew author":      {"reproduction", func(e map[string]any) { e["knew_author"] = true }, "/knew_author"},
		"over budget":      {"reproduction", func(e map[string]any) { e["over_budget"] = false }, "/over_budget"},
		"copyright":        {"reproduction", func(e map[string]any) { e["hazard"] = "copyright" }, "/copyright"},
		"evidence":         {"reproduction", func(e map[string]any) { e["evidence"] = "abc" }, "/evidence"},
		"job":              {"reproduction", func(e map[string]any) { e["job"] = "screen" }, "/job"},
	} {
		e := attestation(c.job)
		c.change(e)
		if _, is := jobs.CheckAttestation(e); !slices.Contains(paths(is), c.want) {
			t.Errorf("%s: issues %v, want one at %s", name, is, c.want)
		}
	}
	if is := jobs.CheckVerdictsFor(map[string]string{claimA: "reproduced"}, []string{claimA}); len(is) > 0 {
		t.Errorf("exact verdicts: %v", is)
	}
	if is := jobs.CheckVerdictsFor(map[string]string{claimA: "reproduced"}, nil); len(is) != 1 {
		t.Errorf("a verdict on a claim the job does not ask: %v", is)
	}
}

func TestEligibleAndChoose(t *testing.T) {
	v := jobs.Verifier{Operator: op, Organization: "org:b", Family: "gpt", Can: jobs.DefaultCan}
	base := jobs.Open{ID: "job:1", Kind: jobs.Reproduction, Urgency: jobs.UrgencySealed, AuthorOrgs: []string{"org:a"}, AuthorFamilies: []string{"claude"}, Minutes: 30}
	for name, c := range map[string]struct {
		change func(*jobs.Open, *jobs.Verifier)
		want   bool
	}{
		"fits":         {func(*jobs.Open, *jobs.Verifier) {}, true},
		"own org":      {func(j *jobs.Open, _ *jobs.Verifier) { j.AuthorOrgs = []string{"org:b"} }, false},
		"own family":   {func(j *jobs.Open, _ *jobs.Verifier) { j.AuthorFamilies = []string{"gpt"} }, false},
		"round org":    {func(j *jobs.Open, _ *jobs.Verifier) { j.RoundOrgs = []string{"org:b"} }, false},
		"declined":     {func(j *jobs.Open, _ *jobs.Verifier) { j.Declined = []string{"org:b"} }, false},
		"too long":     {func(j *jobs.Open, _ *jobs.Verifier) { j.Minutes = 90 }, false},
		"reads only":   {func(_ *jobs.Open, v *jobs.Verifier) { v.Can.Minutes = 0 }, false},
		"screen reads": {func(j *jobs.Open, v *jobs.Verifier) { j.Kind = jobs.Screen; v.Can.Minutes = 0 }, true},
		"gpu":          {func(j *jobs.Open, _ *jobs.Verifier) { j.GPU = true }, false},
		"software":     {func(j *jobs.Open, _ *jobs.Verifier) { j.Kind = jobs.ProofCheck; j.Software = []string{"lean4"} }, false},
		"not opened":   {func(_ *jobs.Open, v *jobs.Verifier) { v.Opens = func(string) bool { return false } }, false},
		"filtered":     {func(j *jobs.Open, _ *jobs.Verifier) { j.FilteredFor = map[string][]string{"gpt": {"biological"}} }, false},
		"unfiltered": {func(j *jobs.Open, v *jobs.Verifier) {
			j.FilteredFor = map[string][]string{"gpt": {"biological"}}
			v.Unfiltered = []string{"biological"}
		}, true},
		"one family reviews": {func(j *jobs.Open, _ *jobs.Verifier) {
			j.Kind = jobs.DomainReview
			j.ReviewFamilies = []string{"gpt", "gpt"}
		}, false},
		"two family reviews": {func(j *jobs.Open, _ *jobs.Verifier) {
			j.Kind = jobs.DomainReview
			j.ReviewFamilies = []string{"gpt", "gemini"}
		}, true},
	} {
		j, w := base, v
		c.change(&j, &w)
		if got := jobs.Eligible(j, w); got != c.want {
			t.Errorf("%s: Eligible = %v, want %v", name, got, c.want)
		}
	}
	// Choose takes the most urgent class, at random within it.
	open := []jobs.Open{
		{ID: "job:late", Kind: jobs.MethodsReview, Urgency: jobs.UrgencyOther, AuthorOrgs: []string{"org:a"}},
		{ID: "job:s1", Kind: jobs.Screen, Urgency: jobs.UrgencySealed, AuthorOrgs: []string{"org:a"}},
		{ID: "job:s2", Kind: jobs.Screen, Urgency: jobs.UrgencySealed, AuthorOrgs: []string{"org:a"}},
		{ID: "job:own", Kind: jobs.HazardReview, Urgency: jobs.UrgencyHazard, AuthorOrgs: []string{"org:b"}},
	}
	seen := map[string]int{}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		j, ok := jobs.Choose(open, v, rnd)
		if !ok {
			t.Fatal("nothing chosen")
		}
		seen[j.ID]++
	}
	if len(seen) != 2 || seen["job:s1"] < 50 || seen["job:s2"] < 50 {
		t.Errorf("chosen %v: want job:s1 and job:s2 about equally, never the less urgent or own work", seen)
	}
	if _, ok := jobs.Choose(open[3:], v, rnd); ok {
		t.Error("own organization's work chosen")
	}
}

func newJobIDs() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("job:%x", n) }
}

// answerAll answers every item served, right while right() says so.
func TestQualificationFlow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	ids := newJobIDs()
	m := &jobs.ModelState{Family: "gpt", Model: "gpt-6-1"}
	at := now
	// Setup comes first for a model that can run work; a wrong answer fails it.
	step := m.Next(jobs.DefaultCan, at, time.Time{}, rnd, ids)
	if step.Item == nil || step.Item.Kind != jobs.Reproduction || step.Item.Level != 0 {
		t.Fatalf("first item: %+v", step)
	}
	wrong := map[string]string{"reproduced": "mismatch", "mismatch": "reproduced"}[step.Item.Expect]
	if out, _ := m.Answer(step.Item.Job, jobs.Right(jobs.Reproduction, step.Item.Expect, map[string]string{claimA: wrong}, ""), at, rnd, ids); !out.Done || out.SetupPassed || m.Setup {
		t.Fatalf("a wrong setup answer: %+v, setup %v", out, m.Setup)
	}
	// Setup again, right this time.
	step = m.Next(jobs.DefaultCan, at, time.Time{}, rnd, ids)
	if step.Item == nil || step.Item.Level != 0 {
		t.Fatalf("setup again: %+v", step)
	}
	if out, _ := m.Answer(step.Item.Job, true, at, rnd, ids); !out.SetupPassed || !m.Setup {
		t.Fatalf("setup right: %+v", out)
	}
	if m.Opens(jobs.ModeEnforce, jobs.Screen) {
		t.Error("screens open before level 1")
	}
	// Level 1: four screens, three right passes; level 2 follows at once.
	for i := range 4 {
		step = m.Next(jobs.DefaultCan, at, time.Time{}, rnd, ids)
		if step.Item == nil || step.Item.Level != 1 || step.Item.Kind != jobs.Screen {
			t.Fatalf("level 1 item %d: %+v", i, step)
		}
		out, _ := m.Answer(step.Item.Job, i != 2, at, rnd, ids)
		if (i < 3) == out.Done {
			t.Fatalf("item %d: %+v", i, out)
		}
	}
	if m.Level != 1 || !m.Opens(jobs.ModeEnforce, jobs.Reproduction) || m.Opens(jobs.ModeEnforce, jobs.MethodsReview) {
		t.Fatalf("after level 1: level %d", m.Level)
	}
	kinds := map[string]int{}
	for i := range 4 {
		step = m.Next(jobs.DefaultCan, at, time.Time{}, rnd, ids)
		if step.Item == nil || step.Item.Level != 2 {
			t.Fatalf("level 2 item %d: %+v", i, step)
		}
		kinds[step.Item.Kind]++
		m.Answer(step.Item.Job, i == 0, at, rnd, ids) // 1 of 4: fails
	}
	if kinds[jobs.Screen] != 1 || len(kinds) != 4 {
		t.Errorf("level 2 kinds %v: want 3 reviews and a screen", kinds)
	}
	if m.Level != 1 || m.NextAttemptAt != at.Add(jobs.NextLevelAfter) {
		t.Errorf("after failing level 2: level %d, next %v", m.Level, m.NextAttemptAt)
	}
	// A model with level 1 gets no item until then, but is not blocked.
	if step := m.Next(jobs.DefaultCan, at.Add(time.Hour), at, rnd, ids); step.Item != nil || !step.RetakeAt.IsZero() {
		t.Errorf("before the next level's time: %+v", step)
	}
	rec := m.Record()
	if rec["level"] != 1 || rec["setup"] != true || len(rec["domains_attempted"].([]any)) == 0 {
		t.Errorf("record %v", rec)
	}
}

func TestQualificationRetakes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	ids := newJobIDs()
	m := &jobs.ModelState{Family: "gemini", Model: "gemini-4"}
	reads := jobs.Can{Minutes: 0}
	at := now
	for _, wait := range []time.Duration{24, 48, 96, 168, 168} {
		for range 4 {
			step := m.Next(reads, at, m.LastAttemptAt, rnd, ids)
			if step.Item == nil {
				t.Fatalf("at %v: no item: %+v", at, step)
			}
			m.Answer(step.Item.Job, false, at, rnd, ids)
		}
		want := at.Add(wait * time.Hour)
		if step := m.Next(reads, at.Add(time.Minute), m.LastAttemptAt, rnd, ids); step.Item != nil || !step.RetakeAt.Equal(want) {
			t.Fatalf("after failure: %+v, want retake at %v", step, want)
		}
		at = want
	}
}

func TestItems(t *testing.T) {
	for _, kind := range []string{jobs.Reproduction, jobs.Screen, jobs.MethodsReview} {
		expects := map[string]bool{}
		for seed := range uint64(40) {
			a, b := jobs.MakeItem(kind, 2, "ecology", seed), jobs.MakeItem(kind, 2, "ecology", seed)
			if a.Bundle != b.Bundle || !maps.EqualFunc(a.Files, b.Files, func(x, y []byte) bool { return string(x) == string(y) }) {
				t.Fatalf("%s seed %d: not the same twice", kind, seed)
			}
			if len(a.Claims) != 1 || !strings.HasPrefix(a.Claims[0].ClaimID, "claim:") {
				t.Fatalf("%s: claims %v", kind, a.Claims)
			}
			if _, blind := a.Files["manifest.json"]; blind {
				t.Fatal("an item carries a manifest")
			}
			expects[a.Expect] = true
		}
		if len(expects) < 2 {
			t.Errorf("%s: every item expects %v", kind, expects)
		}
	}
	if !jobs.Right(jobs.Screen, "private_data", nil, "private_data") || jobs.Right(jobs.Screen, "none", nil, "private_data") {
		t.Error("screen scoring")
	}
	if !jobs.Right(jobs.DomainReview, jobs.ExpectFails, map[string]string{claimA: "unsound"}, "") ||
		jobs.Right(jobs.DomainReview, jobs.ExpectFails, map[string]string{claimA: "sound"}, "") {
		t.Error("review scoring")
	}
}

func TestAccount(t *testing.T) {
	moves := []jobs.Movement{
		{Kind: jobs.Granted, Amount: 2}, {Kind: jobs.Granted, Amount: 3}, {Kind: jobs.Earned, Amount: 1},
		{Kind: jobs.Earned, Amount: 2}, {Kind: jobs.Spent, Amount: -4}, {Kind: jobs.Refunded, Amount: 1}, {Kind: jobs.Lost, Amount: -1},
	}
	v := jobs.Account(moves, 1)
	if v.Balance != 4 || v.Granted != 5 || v.Earned != 3 || v.Spent != 3 || v.Lost != 1 || v.GivenWaitsForJobs != 1 || v.Spendable != 0 {
		t.Errorf("before 2 jobs: %+v", v)
	}
	if v := jobs.Account(moves, 2); v.Spendable != 4 || v.GivenWaitsForJobs != 0 {
		t.Errorf("after 2 jobs: %+v", v)
	}
	f := jobs.FreeBundleFor(2, time.Time{}, now, 0)
	if !f.Available || f.Jobs != 2 {
		t.Errorf("free bundle: %+v", f)
	}
	if f := jobs.FreeBundleFor(5, now.Add(-24*time.Hour), now, 0); f.Available || !f.AgainAt.Equal(now.Add(6*24*time.Hour)) {
		t.Errorf("free bundle a day after the last: %+v", f)
	}
	if f := jobs.FreeBundleFor(5, time.Time{}, now, -1); f.Available || f.ReputationOK {
		t.Errorf("negative reputation: %+v", f)
	}
}

func TestRate(t *testing.T) {
	for _, c := range []struct{ backlog, cleared, want int }{
		{0, 0, 1}, {10, 0, 1}, {11, 0, 2}, {35, 70, 2}, {20, 70, 1}, {1000, 7, 10}, {21, 35, 3},
	} {
		if got := jobs.Rate(c.backlog, c.cleared); got != c.want {
			t.Errorf("Rate(%d, %d) = %d, want %d", c.backlog, c.cleared, got, c.want)
		}
	}
}

func TestAppealReproductions(t *testing.T) {
	for _, tc := range []struct{ yes, no, want int }{
		{0, 2, 3}, // 3 reproductions outnumber 2 mismatches
		{1, 2, 2}, // 3 against 2
		{1, 3, 3}, // 4 against 3
		{0, 9, 5}, // never more than 5
		{2, 0, 0},
	} {
		if got := jobs.AppealReproductions(tc.yes, tc.no); got != tc.want {
			t.Errorf("%d reproduced, %d mismatched: %d more, want %d", tc.yes, tc.no, got, tc.want)
		}
	}
}

func TestHabits(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var samples []jobs.RatingSample
	// Six claims, each rated by a generous model (+10 over the others),
	// a harsh one (-10) and two that agree with each other.
	for i := range 6 {
		claim := "claim:" + strconv.Itoa(i)
		for _, r := range []struct {
			model, family string
			score         int
		}{{"gen-1", "gpt", 70}, {"harsh-1", "gemini", 50}, {"fair-1", "claude", 60}, {"fair-2", "claude", 60}} {
			samples = append(samples, jobs.RatingSample{Claim: claim, Model: r.model, Family: r.family, Score: r.score, At: at.Add(-time.Hour)})
		}
	}
	// Too old to count.
	samples = append(samples, jobs.RatingSample{Claim: "claim:0", Model: "gen-1", Family: "gpt", Score: 100, At: at.Add(-jobs.HabitWindow - time.Hour)})
	h := jobs.MeasureHabits(samples, at)
	for _, tc := range []struct {
		model, family string
		want          float64
	}{{"gen-1", "gpt", 13.33}, {"harsh-1", "gemini", -13.33}, {"fair-1", "claude", 0}, {"new-model", "gpt", 13.33}, {"new-model", "llama", 0}} {
		if got := h.Of(tc.model, tc.family); got != tc.want {
			t.Errorf("habit of %s (%s) = %v, want %v", tc.model, tc.family, got, tc.want)
		}
	}
	// With habits out, the four rate the claim alike.
	counted := []float64{jobs.CountedAs(70, h.Of("gen-1", "gpt")), jobs.CountedAs(50, h.Of("harsh-1", "gemini")),
		jobs.CountedAs(60, h.Of("fair-1", "claude")), jobs.CountedAs(60, h.Of("fair-2", "claude"))}
	if got := jobs.ImportanceScore(counted); got != 60 {
		t.Errorf("score %d from %v, want 60", got, counted)
	}
	if got := jobs.ImportanceScore([]float64{10, 20, 90, 95}); got != 55 {
		t.Errorf("the middle two of 10, 20, 90, 95: %d, want 55", got)
	}
}
