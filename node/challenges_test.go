package node

import (
	"encoding/base64"
	"net/http"
	"slices"
	"testing"

	"github.com/agora-node/agora/ledger/bundle"
)

// evidenceBody is {"entry", "evidence": {"files"}} with a report saying
// what, and the evidence's digest set in entry before it is signed.
func (v verifier) evidenceBody(t *testing.T, entry map[string]any, report string) []byte {
	t.Helper()
	files := map[string][]byte{"report.md": []byte("# Report\n\n" + report + "\n")}
	_, digest, err := bundle.DigestEvidence(files)
	if err != nil {
		t.Fatal(err)
	}
	entry["evidence"] = digest
	v.sign(t, entry)
	return mustJSON(t, map[string]any{"entry": entry, "evidence": map[string]any{"files": map[string]any{
		"report.md": base64.StdEncoding.EncodeToString(files["report.md"])}}})
}

func (v verifier) challenge(t *testing.T, base, claim, ground, report string) (int, map[string]any) {
	t.Helper()
	body := v.evidenceBody(t, map[string]any{"type": "challenge", "challenger": v.id, "claim": claim, "ground": ground,
		"model_family": v.family, "model": v.model}, report)
	status, ans := call(t, "POST", base+"/api/v1/challenges", body)
	m, _ := ans.(map[string]any)
	return status, m
}

// TestChallengeLoop challenges a reproduced claim on a real node: the
// claim is Contested at once, a second challenge waits, a panel of
// organizations uninvolved with the claim takes the challenge_review jobs,
// two upholding it refute the claim, the third panelist's job closes, and
// the credit settles: the challenger gets back the review not done and,
// the challenge upheld, the two done, which the author pays.
func TestChallengeLoop(t *testing.T) {
	t.Parallel()
	n, base, author, round := roundWorld(t)
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "a sum to challenge", true))
	// More studies, so the round's verifiers earn what a panel costs.
	for _, title := range []string{"another sum", "a third sum"} {
		author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, true))
	}
	work(t, base, round)
	_, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	claim := v.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	statuses := func() []any {
		t.Helper()
		_, v := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
		return v.(map[string]any)["statuses"].([]any)
	}
	if got := statuses(); !slices.Contains(got, any("reproduced")) {
		t.Fatalf("the claim after its round: %v", got)
	}

	var challenger, other verifier
	for _, v := range round {
		if v.record(t, base)["verification"].(map[string]any)["spendable"].(float64) >= 3 && challenger.id == "" {
			challenger = v
		} else {
			other = v
		}
	}
	if challenger.id == "" {
		t.Fatal("no verifier of the round earned the 3 credits a panel costs")
	}
	before := challenger.record(t, base)["verification"].(map[string]any)["balance"].(float64)
	authorBefore := author.record(t, base)["verification"].(map[string]any)["balance"].(float64)
	for name, tc := range map[string]struct {
		by            verifier
		claim, ground string
		status        int
		code          string
	}{
		"the author's own organization": {author, claim, "counterexample", http.StatusConflict, "own_claim"},
		"an unknown claim":              {challenger, "claim:" + hash[len("sha256:"):], "counterexample", http.StatusNotFound, "not_found"},
		"a ground that is none":         {challenger, claim, "taste", http.StatusUnprocessableEntity, "invalid_challenge"},
	} {
		if status, ans := tc.by.challenge(t, base, tc.claim, tc.ground, "It fails."); status != tc.status || ans["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", name, status, ans, tc.status, tc.code)
		}
	}
	status, ans := challenger.challenge(t, base, claim, "counterexample", "The four values sum to 89, not 90: 12+30+7+40.")
	if status != http.StatusCreated || ans["state"] != "open" || ans["price"] != float64(3) {
		t.Fatalf("the challenge: %d %v", status, ans)
	}
	index := uint64(ans["challenge"].(float64))
	if got := statuses(); !slices.Equal(got, []any{"published", "contested"}) {
		t.Errorf("the challenged claim: %v, want published and contested, its hallmarks overridden", got)
	}
	if status, ans := other.challenge(t, base, claim, "data", "Another concern."); status != http.StatusConflict || ans["code"] != "challenge_open" {
		t.Errorf("a second challenge while one is open: %d %v", status, ans)
	}

	// The panel: organizations that never gave a verdict on the claim,
	// of families that wrote neither the work nor the challenge.
	var panel []verifier
	for i, family := range []string{"llama", "mistral", "qwen"} {
		panel = append(panel, invitedVerifier(t, n, base, "Panelist "+itoa(uint64(i)), family))
	}
	_, cv := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
	gave := map[string]bool{}
	for _, a := range cv.(map[string]any)["attestations"].([]any) {
		gave[a.(map[string]any)["verifier"].(string)] = true
	}
	for _, v := range round {
		if !gave[v.id] {
			continue
		}
		if status, job := v.request(t, base, map[string]any{"minutes": 30}); status == http.StatusOK && job["kind"] == "challenge_review" {
			t.Errorf("%s gave a verdict on the claim and got its challenge review", v.name)
		}
	}
	if len(gave) < 2 {
		t.Errorf("%d verifiers gave verdicts on the claim, want its round's", len(gave))
	}
	answer := func(p verifier, verdict string) {
		t.Helper()
		status, job := p.request(t, base, map[string]any{"minutes": 30})
		if status != http.StatusOK || job["kind"] != "challenge_review" {
			t.Fatalf("%s: %d %v, want a challenge_review", p.name, status, job)
		}
		ch := job["challenge"].(map[string]any)
		if uint64(ch["index"].(float64)) != index || ch["claim"] != claim || ch["ground"] != "counterexample" || len(ch["evidence"].(map[string]any)) != 1 {
			t.Fatalf("the job's challenge: %v", ch)
		}
		body := p.evidenceBody(t, map[string]any{"type": "challenge_review", "reviewer": p.id, "challenge": index,
			"bundle": job["bundle"], "verdict": verdict, "model_family": p.family, "model": p.model}, "I added the values again.")
		if status, ans := call(t, "POST", base+"/api/v1/challenge-reviews", body); status != http.StatusCreated {
			t.Fatalf("%s's challenge review: %d %v", p.name, status, ans)
		}
	}
	answer(panel[0], "upheld")
	// The review is on the log as a commitment only, until two agree.
	lastEntry := func() map[string]any {
		t.Helper()
		i, err := n.store.LatestIndex(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		signed, err := n.store.Signed(t.Context(), i)
		if err != nil {
			t.Fatal(err)
		}
		var e map[string]any
		if err := canonicalUnmarshal(signed.Entry, &e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	if e := lastEntry(); e["type"] != "sealed" {
		t.Errorf("the first panel review was logged as %v, want a sealed commitment", e["type"])
	}
	if status, v := call(t, "GET", base+"/api/v1/challenges/"+itoa(index), nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" || len(v.(map[string]any)["reviews"].([]any)) != 0 {
		t.Errorf("the challenge with one review: %d %v, want open with no review shown", status, v)
	}
	answer(panel[1], "upheld")
	if e := lastEntry(); e["type"] != "challenge_review" {
		t.Errorf("after two agree, the last entry is %v, want the reviews opened", e["type"])
	}
	if got := statuses(); !slices.Equal(got, []any{"published", "refuted"}) {
		t.Errorf("the claim after two panelists upheld the challenge: %v", got)
	}
	status, v = call(t, "GET", base+"/api/v1/challenges/"+itoa(index), nil)
	if m := v.(map[string]any); status != http.StatusOK || m["state"] != "upheld" || len(m["reviews"].([]any)) != 2 {
		t.Errorf("the upheld challenge: %d %v", status, v)
	}
	if status, job := panel[2].request(t, base, map[string]any{"minutes": 30}); status == http.StatusOK && job["kind"] == "challenge_review" {
		t.Errorf("the third panelist still got the settled challenge's review: %v", job)
	}
	after := challenger.record(t, base)["verification"].(map[string]any)["balance"].(float64)
	authorAfter := author.record(t, base)["verification"].(map[string]any)["balance"].(float64)
	if after != before || authorAfter != authorBefore-2 {
		t.Errorf("credit after an upheld challenge: challenger %v → %v (want no loss), author %v → %v (want 2 paid)", before, after, authorBefore, authorAfter)
	}
	if status, ans := other.challenge(t, base, claim, "data", "Another concern."); status != http.StatusConflict || ans["code"] != "refuted" {
		t.Errorf("a challenge to a refuted claim: %d %v", status, ans)
	}
	_, cv = call(t, "GET", base+"/api/v1/claims/"+claim, nil)
	if ch := cv.(map[string]any)["challenges"].([]any); len(ch) != 1 || ch[0].(map[string]any)["state"] != "upheld" {
		t.Errorf("the refuted claim's challenges: %v", ch)
	}
	if refuted := cv.(map[string]any)["depends_on_refuted"].([]any); len(refuted) != 0 {
		t.Errorf("the refuted claim rests on refuted claims %v, want none", refuted)
	}
	// Its claims are computed, none measured: none waits for a replication.
	if status, v := call(t, "GET", base+"/api/v1/replications", nil); status != http.StatusOK || v.(map[string]any)["waiting"] != float64(0) {
		t.Errorf("GET /api/v1/replications: %d %v", status, v)
	}
	if status, v := call(t, "GET", base+"/api/v1/challenges/not-a-number", nil); status != http.StatusBadRequest || v.(map[string]any)["code"] != "bad_request" {
		t.Errorf("GET a challenge by a bad index: %d %v", status, v)
	}
	if status, v := call(t, "GET", base+"/api/v1/challenges/1", nil); status != http.StatusNotFound {
		t.Errorf("GET a challenge where none is logged: %d %v", status, v)
	}
}
