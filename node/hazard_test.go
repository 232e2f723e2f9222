package node

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// testClock is a node clock that tests move forward: real time plus an
// offset that only grows, so leaf times never go backwards.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// requestAt asks for a job signed at the node's time at.
//
// It asks for no importance ratings (a published bundle's checks are
// TestPublishedChecks's), unless can says otherwise.
func (v verifier) requestAt(t *testing.T, base string, can map[string]any, at time.Time) map[string]any {
	t.Helper()
	if _, ok := can["importance"]; !ok {
		can = maps.Clone(can)
		can["importance"] = false
	}
	e := v.sign(t, map[string]any{"type": "job_request", "operator": v.id, "time": tlog.FormatTimestamp(at),
		"can": can, "model_family": v.family, "model": v.model})
	status, body := call(t, "POST", base+"/api/v1/jobs", mustJSON(t, e))
	if status != http.StatusOK {
		t.Fatalf("%s: job request: %d %v", v.name, status, body)
	}
	m := body.(map[string]any)
	if m["job"] == nil {
		return nil
	}
	return m
}

// respond answers job: a reproduction or review with verdict on every
// claim that needs one (and hazard, for a reproduction), a screen or
// hazard review with hazard as its verdict.
func (v verifier) respond(t *testing.T, base string, job map[string]any, verdict, hazardVerdict string, overBudget bool) (int, map[string]any) {
	t.Helper()
	kind := job["kind"].(string)
	if kind == jobs.Screen || kind == jobs.HazardReview {
		e := v.sign(t, map[string]any{"type": "hazard_review", "reviewer": v.id, "bundle": job["bundle"], "verdict": hazardVerdict,
			"model_family": v.family, "model": v.model})
		status, body := call(t, "POST", base+"/api/v1/hazard-reviews", mustJSON(t, e))
		m, _ := body.(map[string]any)
		return status, m
	}
	verdicts, significance := map[string]any{}, map[string]any{}
	for _, c := range job["claims"].([]any) {
		c := c.(map[string]any)
		if c["needs_verdict"] == true {
			verdicts[c["claim_id"].(string)] = verdict
			significance[c["claim_id"].(string)] = "minor"
		}
	}
	report := []byte("# Report\n\nWhat I found: " + verdict + ".\n")
	_, digest, err := bundle.DigestEvidence(map[string][]byte{"report.md": report})
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]any{"type": "attestation", "job": kind, "verifier": v.id, "bundle": job["bundle"], "claims": verdicts,
		"evidence": digest, "model_family": v.family, "model": v.model, "harness": "agora-test 1.0"}
	if kind == jobs.Reproduction {
		e["hazard"] = hazardVerdict
	} else {
		e["significance"] = significance
	}
	if overBudget {
		e["over_budget"] = true
	}
	finding := map[string]any{"paths": []any{"data/chapter.txt"}, "source": "A. Writer's novel", "nonce": "00112233445566778899aabbccddeeff"}
	if hazardVerdict == "copyright" {
		e["copyright"] = canonical.Digest(mustJSON(t, finding))
	}
	v.sign(t, e)
	body := map[string]any{"entry": e, "evidence": map[string]any{"files": map[string]any{"report.md": base64.StdEncoding.EncodeToString(report)}}}
	if hazardVerdict == "copyright" {
		body["copyright"] = finding
	}
	status, resp := call(t, "POST", base+"/api/v1/attestations", mustJSON(t, body))
	m, _ := resp.(map[string]any)
	return status, m
}

// mustRespond is respond, failing unless the answer was taken.
func (v verifier) mustRespond(t *testing.T, base string, job map[string]any, verdict, hazardVerdict string) {
	t.Helper()
	if status, body := v.respond(t, base, job, verdict, hazardVerdict, false); status != http.StatusCreated {
		t.Fatalf("%s answering a %v: %d %v", v.name, job["kind"], status, body)
	}
}

// eventually polls cond until it holds, failing after a generous wait: the
// round sweep runs every 2 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not within 30 s", what)
}

func fileDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// privateBundle is sumBundle with a table of people's birth dates beside
// its data: what an honest screen answers private_data for.
func privateBundle(t *testing.T, key, family, title string) map[string][]byte {
	files := sumBundle(t, key, family, title, true)
	files["data/people.csv"] = []byte("name,date_of_birth\nA. Person,1990-01-01\n")
	return files
}

func hazardConcerns(t *testing.T, base string, v verifier) map[string]any {
	t.Helper()
	return v.record(t, base)["hazard_concerns"].(map[string]any)
}

// TestHazardPanelWithdraws: both reproductions of a sealed bundle find
// private data; a panel of three organizations not yet involved is made,
// two of whose members uphold the concern; the log records the log's
// signed withdrawal with the reason private_data; the bundle's files are
// refused (410) and deleted, its claims never published, its round's answers
// revealed and not counted, the panel's third job retired, and the
// concerns upheld on the raisers' records.
func TestHazardPanelWithdraws(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	r1, r2 := invitedVerifier(t, n, base, "R1", "gpt"), invitedVerifier(t, n, base, "R2", "gemini")
	p1, p2, p3 := invitedVerifier(t, n, base, "P1", "gpt"), invitedVerifier(t, n, base, "P2", "gemini"), invitedVerifier(t, n, base, "P3", "mistral")
	files := privateBundle(t, author.keyDigest(), "claude", "the private sample")
	hash, _ := author.submit(t, base, files)
	can := map[string]any{"minutes": 30}

	var claimID string
	for _, r := range []verifier{r1, r2} {
		job := r.requestAt(t, base, can, time.Now())
		if job == nil || job["kind"] != jobs.Reproduction || job["bundle"] != hash {
			t.Fatalf("%s: %v", r.name, job)
		}
		claimID = job["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
		_, hz := judge(t, jobFiles(t, job))
		if hz != "private_data" {
			t.Fatalf("the screen of the private bundle reads %q", hz)
		}
		r.mustRespond(t, base, job, "reproduced", hz)
	}
	// The concern holds the bundle sealed for the panel: no reviews, and
	// nothing for the organizations already involved.
	if job := r1.requestAt(t, base, can, time.Now()); job != nil {
		t.Fatalf("a verifier already on the round got %v %v", job["kind"], job["bundle"])
	}
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusNotFound {
		t.Fatalf("the bundle under a panel: %d %v", status, v)
	}
	// Answering a panel job with an attestation, or a hazard review with
	// no job, is refused.
	pj := p1.requestAt(t, base, can, time.Now())
	if pj == nil || pj["kind"] != jobs.HazardReview || pj["bundle"] != hash {
		t.Fatalf("p1's job: %v", pj)
	}
	if _, seen := jobFiles(t, pj)["manifest.json"]; seen {
		t.Fatal("a hazard review carries the manifest")
	}
	asReproduction := map[string]any{}
	for k, v := range pj {
		asReproduction[k] = v
	}
	asReproduction["kind"] = jobs.Reproduction
	asReproduction["claims"] = []any{map[string]any{"claim_id": claimID, "needs_verdict": true}}
	if status, body := p1.respond(t, base, asReproduction, "reproduced", "none", false); status != http.StatusUnprocessableEntity || body["code"] != "wrong_job" {
		t.Errorf("a hazard review answered as an attestation: %d %v", status, body)
	}
	if status, body := p3.respond(t, base, pj, "", "private_data", false); status != http.StatusForbidden || body["code"] != "no_job" {
		t.Errorf("a hazard review with no job: %d %v", status, body)
	}
	p1.mustRespond(t, base, pj, "", "private_data")
	if status, _ := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusNotFound {
		t.Fatalf("the bundle after one panelist: %d", status)
	}
	// p3 holds the panel's third job when the second answer decides it.
	pj3 := p3.requestAt(t, base, can, time.Now())
	if pj3 == nil || pj3["kind"] != jobs.HazardReview {
		t.Fatalf("p3's job: %v", pj3)
	}
	pj = p2.requestAt(t, base, can, time.Now())
	if pj == nil || pj["kind"] != jobs.HazardReview {
		t.Fatalf("p2's job: %v", pj)
	}
	p2.mustRespond(t, base, pj, "", "private_data")
	// Its late answer is refused as closed, not as one it finished.
	if status, body := p3.respond(t, base, pj3, "", "private_data", false); status != http.StatusConflict || body["code"] != "closed" {
		t.Errorf("the third panelist's answer after the panel decided: %d %v, want 409 closed", status, body)
	}

	// Withdrawn: a tombstone, the sealed entry closed, the panel's third
	// job gone.
	status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	b, _ := v.(map[string]any)
	if status != http.StatusOK || b["state"] != "withdrawn" || b["withdrawn_entry"] == nil || b["files"] != nil || b["claims"] != nil ||
		b["tombstone"].(map[string]any)["reason"] != "private_data" {
		t.Fatalf("the withdrawn bundle: %d %v", status, v)
	}
	withdrawnAt := uint64(b["withdrawn_entry"].(float64))
	sealedAt := b["sealed"].(float64)
	if status, v := call(t, "GET", base+"/api/v1/sealed/"+itoa(uint64(sealedAt)), nil); status != http.StatusOK || v.(map[string]any)["state"] != "withdrawn" {
		t.Errorf("its sealed entry: %d %v", status, v)
	}
	if job := p3.requestAt(t, base, can, time.Now()); job != nil {
		t.Errorf("the panel's third job was still handed out: %v", job["kind"])
	}
	// Its files are refused as withdrawn, and a private_data withdrawal
	// deleted them.
	people := fileDigest(files["data/people.csv"])
	if status, v := call(t, "GET", base+"/api/v1/files/"+people, nil); status != http.StatusGone || v.(map[string]any)["code"] != "withdrawn" {
		t.Errorf("a withdrawn bundle's file: %d %v", status, v)
	}
	if n.files.Has(people) || n.files.Has(fileDigest(files["paper.md"])) {
		t.Error("a private_data withdrawal kept the bundle's files")
	}
	// Withdrawn while sealed, its work was never published: its claims
	// are not found.
	if status, v := call(t, "GET", base+"/api/v1/claims/"+claimID, nil); status != http.StatusNotFound {
		t.Errorf("a claim of the bundle withdrawn while sealed: %d %v", status, v)
	}
	// The log's withdrawal entry verifies with the log's key and closes
	// the commitment; the round's answers were revealed, not counted.
	c := newClient(base, nil, "")
	leaves, _ := auditLog(t, c, n.keys.log.Public().String())
	_, sv, err := c.do("GET", "/api/v1/log/entries/"+itoa(withdrawnAt)+"/signed", nil)
	if err != nil {
		t.Fatal(err)
	}
	w := sv.(map[string]any)["entry"].(map[string]any)
	if w["type"] != "withdrawal" || w["bundle"] != hash || w["reason"] != "private_data" || w["sealed"] != sealedAt || !protocol.Verify(w, n.keys.log.Public().String()) {
		t.Errorf("the withdrawal entry: %v", w)
	}
	revealed := map[string]int{}
	for i, leaf := range leaves {
		if _, ok := leaf["sealed"]; !ok {
			continue
		}
		typ := leaf["entry"].(map[string]any)["type"].(string)
		revealed[typ]++
		if typ == "attestation" {
			status, v := call(t, "GET", base+"/api/v1/attestations/"+itoa(uint64(i)), nil)
			if a, _ := v.(map[string]any); status != http.StatusOK || a["counted"] != false || a["not_counted_because"] != "withdrawn" {
				t.Errorf("a revealed attestation of the withdrawn bundle: %d %v", status, v)
			}
		}
	}
	if revealed["attestation"] != 2 || revealed["hazard_review"] != 2 || revealed["bundle"] != 0 {
		t.Errorf("revealed: %v, want the 2 reproductions and the 2 panel reviews, and no bundle entry", revealed)
	}
	// The concern was upheld on everyone who named it; the panel's reviews
	// were paid.
	for _, v := range []verifier{r1, r2, p1, p2} {
		if hc := hazardConcerns(t, base, v); hc["upheld"] != 1.0 || hc["overturned"] != 0.0 {
			t.Errorf("%s: hazard_concerns %v", v.name, hc)
		}
	}
	if e := p1.record(t, base)["verification"].(map[string]any)["earned"]; e != float64(jobs.PanelCredits) {
		t.Errorf("a panelist earned %v", e)
	}
	wantReport(t, base, map[string]any{"hazard_reviews": map[string]any{"total": 2.0, "by_verdict": map[string]any{"private_data": 2.0},
		"panels": map[string]any{"upheld": 1.0, "overturned": 0.0, "pending": 0.0}},
		"withdrawals":       map[string]any{"total": 1.0, "by_reason": map[string]any{"private_data": 1.0}},
		"integrity_actions": map[string]any{"missed_canary_penalties": 0.0, "overturned_concerns": 0.0, "panel_withdrawals": 1.0}})
}

// TestHazardPanelOverturned: one reproduction names a hazard the work
// doesn't hold; the panel finds none, so the round goes on to its reviews
// and the bundle opens; the overturned concern costs its raiser 1 credit.
func TestHazardPanelOverturned(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	raiser, r2 := invitedVerifier(t, n, base, "Raiser", "gpt"), invitedVerifier(t, n, base, "R2", "gemini")
	p1, p2, p3 := invitedVerifier(t, n, base, "P1", "gpt"), invitedVerifier(t, n, base, "P2", "gemini"), invitedVerifier(t, n, base, "P3", "mistral")
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "the harmless sample", true))
	can := map[string]any{"minutes": 30}
	raiser.mustRespond(t, base, raiser.requestAt(t, base, can, time.Now()), "reproduced", "biological")
	r2.mustRespond(t, base, r2.requestAt(t, base, can, time.Now()), "reproduced", "none")
	for _, p := range []verifier{p1, p2} {
		job := p.requestAt(t, base, can, time.Now())
		if job == nil || job["kind"] != jobs.HazardReview {
			t.Fatalf("%s: %v", p.name, job)
		}
		p.mustRespond(t, base, job, "", "none")
	}
	// The round goes on: three reviews, for the panel's third member too,
	// whose panel job is gone.
	reviews := 0
	for _, v := range []verifier{p3, p1, p2, raiser, r2} {
		for {
			job := v.requestAt(t, base, can, time.Now())
			if job == nil {
				break
			}
			if !jobs.IsReview(job["kind"].(string)) {
				t.Fatalf("%s got a %v after the panel decided", v.name, job["kind"])
			}
			v.mustRespond(t, base, job, "sound", "")
			reviews++
		}
	}
	if reviews != 3 {
		t.Errorf("%d reviews after the panel overturned the concern, want 3", reviews)
	}
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" {
		t.Fatalf("the bundle: %d %v", status, v)
	}
	rec := raiser.record(t, base)
	if hc := rec["hazard_concerns"].(map[string]any); hc["overturned"] != 1.0 || hc["upheld"] != 0.0 {
		t.Errorf("the raiser's hazard_concerns: %v", hc)
	}
	if lost := rec["verification"].(map[string]any)["lost"]; lost != float64(jobs.ConcernCost) {
		t.Errorf("the raiser lost %v, want %d", lost, jobs.ConcernCost)
	}
	if hc := hazardConcerns(t, base, r2); hc["overturned"] != 0.0 || hc["upheld"] != 0.0 {
		t.Errorf("a verifier that found nothing: %v", hc)
	}
	wantReport(t, base, map[string]any{"hazard_reviews": map[string]any{"total": 2.0, "by_verdict": map[string]any{"none": 2.0},
		"panels": map[string]any{"upheld": 0.0, "overturned": 1.0, "pending": 0.0}},
		"integrity_actions": map[string]any{"missed_canary_penalties": 0.0, "overturned_concerns": 1.0, "panel_withdrawals": 0.0}})
}

// paidAuthor is an invited author of a node that makes no bundle free,
// credited with what jobs would have earned it.
func paidAuthor(t *testing.T, n *Node, base string, credits int) verifier {
	t.Helper()
	author := invitedVerifier(t, n, base, "Author", "claude")
	if _, err := n.store.AddMovements(t.Context(), []jobs.Movement{{Operator: author.id, Kind: jobs.Earned, Amount: credits, Key: "test:earned", At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	return author
}

// movementsFor is the amounts of a's credit movements keyed for, by key.
func movementsFor(t *testing.T, base string, a verifier, prefix string) map[string]float64 {
	t.Helper()
	status, v := call(t, "GET", base+"/api/v1/operators/"+a.id+"/credit", nil)
	if status != http.StatusOK {
		t.Fatalf("credit: %d %v", status, v)
	}
	out := map[string]float64{}
	for _, m := range v.(map[string]any)["movements"].([]any) {
		m := m.(map[string]any)
		if key := m["for"].(string); strings.HasPrefix(key, prefix) {
			if _, twice := out[key]; twice {
				t.Errorf("movement %s recorded twice", key)
			}
			out[key] = m["amount"].(float64)
		}
	}
	return out
}

// TestRoundTimers runs a paid quick bundle's round on a clock the test
// moves: with one reproduction back and another organization's screen
// handed back, reviews wait until 72 hours have passed, then run on the
// claims reproduced; 72 hours after they started the bundle opens with
// one review in, its deposit given back; a review still out runs in
// public; one nobody takes closes after 14 days and its price goes back;
// the reserve comes back once the second prepaid reproduction, done in
// public, agrees with the first.
// Each refund is paid once, however often the round is swept or an
// answer sent again.
func TestRoundTimers(t *testing.T) {
	clock := &testClock{}
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeNone, clock: clock.now})
	base := srv.URL
	author := paidAuthor(t, n, base, 40)
	r1, r2, r3 := invitedVerifier(t, n, base, "R1", "gpt"), invitedVerifier(t, n, base, "R2", "gemini"), invitedVerifier(t, n, base, "R3", "gpt")
	v4, v5, v6 := invitedVerifier(t, n, base, "V4", "gemini"), invitedVerifier(t, n, base, "V5", "gpt"), invitedVerifier(t, n, base, "V6", "mistral")
	hash, p := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "the timed sample", true))
	charged := p["charged"].(float64)
	if charged <= 0 || p["free"] != nil {
		t.Fatalf("the bundle's price: %v", p)
	}
	run, read := map[string]any{"minutes": 30}, map[string]any{"minutes": 0}

	r1.mustRespond(t, base, r1.requestAt(t, base, run, clock.now()), "reproduced", "none")
	handBack := r2.requestAt(t, base, run, clock.now())
	if status, body := r2.respond(t, base, handBack, "could_not_run", "none", false); status != http.StatusCreated {
		t.Fatalf("r2's answer without work: %d %v", status, body)
	}
	// Two organizations screened it, but a reproduction is still out and
	// 72 hours haven't passed: no reviews.
	if job := v4.requestAt(t, base, read, clock.now()); job != nil {
		t.Fatalf("a %v before the reproductions were back or 72 hours passed", job["kind"])
	}
	clock.advance(jobs.SealedWait + time.Minute)
	var review map[string]any
	eventually(t, "reviews 72 hours on", func() bool {
		review = v4.requestAt(t, base, read, clock.now())
		return review != nil
	})
	if !jobs.IsReview(review["kind"].(string)) || review["claims"].([]any)[0].(map[string]any)["needs_verdict"] != true {
		t.Fatalf("the first review: %v %v", review["kind"], review["claims"])
	}
	v4.mustRespond(t, base, review, "sound", "")
	if status, _ := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusNotFound {
		t.Fatalf("the bundle opened with two reviews out before 72 hours: %d", status)
	}

	// 72 hours after its reviews started it opens with what is in; its
	// screening deposit comes back, once.
	clock.advance(jobs.SealedWait + time.Minute)
	eventually(t, "opening 72 hours after the reviews started", func() bool {
		status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
		return status == http.StatusOK && v.(map[string]any)["state"] == "open"
	})
	// A review still out runs in public, logged as signed.
	public := v5.requestAt(t, base, read, clock.now())
	if public == nil || !jobs.IsReview(public["kind"].(string)) {
		t.Fatalf("v5's job after opening: %v", public)
	}
	status, ans := v5.respond(t, base, public, "sound", "", false)
	if status != http.StatusCreated {
		t.Fatalf("a public review: %d %v", status, ans)
	}
	c := newClient(base, nil, "")
	leaves, _ := auditLog(t, c, n.keys.log.Public().String())
	if leaf := leaves[int(ans["attestation"].(float64))]; leaf["sealed"] != nil || leaf["entry"].(map[string]any)["type"] != "attestation" {
		t.Errorf("the public review's leaf: %v", leaf)
	}

	// The last review finds no reviewer in 14 days: it closes and its
	// price comes back.
	clock.advance(jobs.ReviewerWait)
	refundPrefix := "refund:" + hash + ":"
	eventually(t, "the lapsed review's refund", func() bool { return len(movementsFor(t, base, author, refundPrefix)) == 2 })
	if job := v6.requestAt(t, base, read, clock.now()); job != nil {
		t.Errorf("a review lapsed 14 days was still handed out: %v", job["kind"])
	}
	// The reproduction handed back is done after opening, agreeing with
	// the first: the reserve comes back. Sent again, nothing more moves.
	repro := r3.requestAt(t, base, run, clock.now())
	if repro == nil || repro["kind"] != jobs.Reproduction {
		t.Fatalf("r3's job: %v", repro)
	}
	r3.mustRespond(t, base, repro, "reproduced", "none")
	if status, body := r3.respond(t, base, repro, "reproduced", "none", false); status != http.StatusConflict {
		t.Errorf("the same answer again: %d %v", status, body)
	}

	refunds := movementsFor(t, base, author, refundPrefix)
	var lapsed float64
	for key, amount := range refunds {
		if strings.HasPrefix(key, refundPrefix+"job:") {
			lapsed = amount
		}
	}
	reserve := repro["credits"].(float64)
	if refunds[refundPrefix+"screening_deposit"] != 2 || refunds[refundPrefix+"reserve"] != reserve || lapsed != 1 {
		t.Errorf("refunds %v, want the deposit (2), the reserve (%v) and one review (1)", refunds, reserve)
	}
	// What the published bundle's checks gave back (duplicate checks with
	// no close claim) is TestPublishedChecks's; here it only adds up.
	var checks float64
	for _, amount := range movementsFor(t, base, author, "refund:duplicate_checks:") {
		checks += amount
	}
	ver := author.record(t, base)["verification"].(map[string]any)
	if want := 40 - charged + 2 + reserve + 1 + checks; ver["balance"] != want || ver["spent"] != charged-2-reserve-1-checks {
		t.Errorf("the author's account after the round: %v, want balance %v", ver, want)
	}
}

// TestOverBudget: two organizations report a paid bundle's reproduction
// over budget, doing no work: both are paid the job's credits, and the
// author pays the price again, once.
func TestOverBudget(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeNone})
	base := srv.URL
	author := paidAuthor(t, n, base, 40)
	r1, r2 := invitedVerifier(t, n, base, "R1", "gpt"), invitedVerifier(t, n, base, "R2", "gemini")
	hash, p := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "the long sample", true))
	run := map[string]any{"minutes": 30}
	var credits float64
	for i, r := range []verifier{r1, r2} {
		job := r.requestAt(t, base, run, time.Now())
		credits = job["credits"].(float64)
		if status, body := r.respond(t, base, job, "could_not_run", "none", true); status != http.StatusCreated {
			t.Fatalf("%s's over-budget report: %d %v", r.name, status, body)
		}
		if e := r.record(t, base)["verification"].(map[string]any)["earned"]; i == 0 && e != 0.0 {
			t.Errorf("one organization's over-budget report was paid %v", e)
		}
	}
	for _, r := range []verifier{r1, r2} {
		if e := r.record(t, base)["verification"].(map[string]any)["earned"]; e != credits {
			t.Errorf("%s earned %v for an over-budget report two organizations made, want %v", r.name, e, credits)
		}
	}
	if again := movementsFor(t, base, author, "overbudget:"+hash); again["overbudget:"+hash] != -p["charged"].(float64) {
		t.Errorf("the author's repayment: %v, want %v", again, -p["charged"].(float64))
	}
}

// publishedWithdrawal is what withdrawPublished did.
type publishedWithdrawal struct {
	hash, claim, people, today string
	public                     verifier // the reserve reproducer, who found the private data
}

// withdrawPublished opens a bundle with its reproductions split, takes
// today's snapshot of it, and has its reserve reproduction, run in
// public, find private data, which a panel upholds: the published bundle
// is withdrawn. snapshotTaken, if set, runs once the snapshot is.
func withdrawPublished(t *testing.T, n *Node, base string, snapshotTaken func(today string)) publishedWithdrawal {
	t.Helper()
	author := invitedVerifier(t, n, base, "Author", "claude")
	r1, r2, r3 := invitedVerifier(t, n, base, "R1", "gpt"), invitedVerifier(t, n, base, "R2", "gemini"), invitedVerifier(t, n, base, "R3", "gpt")
	p1, p2 := invitedVerifier(t, n, base, "P1", "gemini"), invitedVerifier(t, n, base, "P2", "mistral")
	p3, p4 := invitedVerifier(t, n, base, "P3", "gemini"), invitedVerifier(t, n, base, "P4", "gpt")
	files := privateBundle(t, author.keyDigest(), "claude", "the split sample")
	hash, _ := author.submit(t, base, files)
	run, read := map[string]any{"minutes": 30}, map[string]any{"minutes": 0}
	job := r1.requestAt(t, base, run, time.Now())
	claimID := job["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	r1.mustRespond(t, base, job, "reproduced", "none")
	r2.mustRespond(t, base, r2.requestAt(t, base, run, time.Now()), "mismatch", "none")
	reviews := 0
	for _, v := range []verifier{p1, p2, r1, r2} {
		for job := v.requestAt(t, base, read, time.Now()); job != nil; job = v.requestAt(t, base, read, time.Now()) {
			v.mustRespond(t, base, job, "sound", "")
			reviews++
		}
	}
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" || reviews != 3 {
		t.Fatalf("the bundle after %d reviews: %d %v", reviews, status, v)
	}
	people := fileDigest(files["data/people.csv"])
	if status, _ := call(t, "GET", base+"/api/v1/files/"+people, nil); status != http.StatusOK {
		t.Fatalf("a file of the open bundle: %d", status)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if status, v := call(t, "POST", base+"/api/v1/admin/snapshots/"+today, nil, "Authorization", adminToken(t, n)); status != http.StatusCreated || v.(map[string]any)["claims"] != 1.0 {
		t.Fatalf("today's snapshot of the open bundle: %d %v", status, v)
	}
	if snapshotTaken != nil {
		snapshotTaken(today)
	}
	reserve := r3.requestAt(t, base, run, time.Now())
	if reserve == nil || reserve["kind"] != jobs.Reproduction || reserve["bundle"] != hash {
		t.Fatalf("the reserve reproduction: %v", reserve)
	}
	_, hz := judge(t, jobFiles(t, reserve))
	r3.mustRespond(t, base, reserve, "reproduced", hz)
	// The panel goes to organizations that had no part in its round.
	if job := p1.requestAt(t, base, run, time.Now()); job != nil {
		t.Errorf("a reviewer of the bundle got a %v", job["kind"])
	}
	for _, p := range []verifier{p3, p4} {
		job := p.requestAt(t, base, run, time.Now())
		if job == nil || job["kind"] != jobs.HazardReview {
			t.Fatalf("%s: %v", p.name, job)
		}
		p.mustRespond(t, base, job, "", "private_data")
	}
	status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	if b, _ := v.(map[string]any); status != http.StatusOK || b["state"] != "withdrawn" || b["tombstone"].(map[string]any)["reason"] != "private_data" {
		t.Fatalf("the published bundle after the panel: %d %v", status, v)
	}
	return publishedWithdrawal{hash: hash, claim: claimID, people: people, today: today, public: r3}
}

// TestPublishedWithdrawal: a bundle opens with its reproductions split, so
// its reserve reproduction runs in public; that one finds private data, a
// panel upholds it, and the published bundle is withdrawn: its files
// refused, its claims Unavailable with their words no longer served.
func TestPublishedWithdrawal(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	w := withdrawPublished(t, n, base, nil)
	people, claimID, today, r3 := w.people, w.claim, w.today, w.public
	if status, v := call(t, "GET", base+"/api/v1/files/"+people, nil); status != http.StatusGone || v.(map[string]any)["code"] != "withdrawn" {
		t.Errorf("a file of the withdrawn bundle: %d %v", status, v)
	}
	status, v := call(t, "GET", base+"/api/v1/claims/"+claimID, nil)
	if c, _ := v.(map[string]any); status != http.StatusOK || c["claim"] != nil || c["statement"] != nil || len(c["statuses"].([]any)) != 1 || c["statuses"].([]any)[0] != "unavailable" {
		t.Errorf("a claim of the withdrawn bundle: %d %v", status, v)
	}
	if hc := hazardConcerns(t, base, r3); hc["upheld"] != 1.0 {
		t.Errorf("the public reproducer's hazard_concerns: %v", hc)
	}
	// The snapshot that held its claim is reissued without it (410
	// snapshot_reissuing until then), its card naming the withdrawal.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, v := call(t, "GET", base+"/api/v1/snapshots/"+today+"/card", nil)
		if status == http.StatusGone && v.(map[string]any)["code"] == "snapshot_reissuing" {
			continue
		}
		card, _ := v.(map[string]any)
		if status != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("the snapshot's card after the withdrawal: %d %v", status, v)
		}
		if reissues, _ := card["reissues"].([]any); len(reissues) == 1 && card["claims"] == 0.0 &&
			len(reissues[0].(map[string]any)["withdrawals"].([]any)) == 1 {
			break
		}
	}
	if status, v := call(t, "GET", base+"/api/v1/snapshots", nil); status != http.StatusOK ||
		v.(map[string]any)["snapshots"].([]any)[0].(map[string]any)["reissued_at"] == nil {
		t.Errorf("the list after the reissue: %d %v", status, v)
	}
}

// TestRightsLapse: a reproduction finds a copy of someone else's work; no
// panel is made, the bundle stays sealed, and with no confirmation of the
// rights within 7 days it is withdrawn with the reason rights and its
// files deleted.
func TestRightsLapse(t *testing.T) {
	clock := &testClock{}
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, clock: clock.now})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	r1, r2, p1 := invitedVerifier(t, n, base, "R1", "gpt"), invitedVerifier(t, n, base, "R2", "gemini"), invitedVerifier(t, n, base, "P1", "mistral")
	files := sumBundle(t, author.keyDigest(), "claude", "the copied sample", true)
	files["data/chapter.txt"] = []byte("Chapter One. Copyright 2020 A. Writer. All rights reserved.\n")
	hash, _ := author.submit(t, base, files)
	run := map[string]any{"minutes": 30}
	for _, r := range []verifier{r1, r2} {
		job := r.requestAt(t, base, run, clock.now())
		_, hz := judge(t, jobFiles(t, job))
		if hz != "copyright" {
			t.Fatalf("the screen reads %q", hz)
		}
		r.mustRespond(t, base, job, "reproduced", hz)
	}
	if job := p1.requestAt(t, base, run, clock.now()); job != nil {
		t.Fatalf("a copy found made a %v", job["kind"])
	}
	if status, _ := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status != http.StatusNotFound {
		t.Fatalf("the bundle while its rights are asked about: %d", status)
	}
	clock.advance(jobs.RightsWait + time.Minute)
	eventually(t, "the rights withdrawal", func() bool {
		status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
		return status == http.StatusOK && v.(map[string]any)["state"] == "withdrawn"
	})
	_, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	if reason := v.(map[string]any)["tombstone"].(map[string]any)["reason"]; reason != jobs.ReasonRights {
		t.Errorf("withdrawn for %v", reason)
	}
	// The sweep deletes the files just after it logs the withdrawal.
	eventually(t, "a rights withdrawal deleting the bundle's files", func() bool { return !n.files.Has(fileDigest(files["data/chapter.txt"])) })
	for _, r := range []verifier{r1, r2} {
		if hc := hazardConcerns(t, base, r); hc["upheld"] != 0.0 || hc["overturned"] != 0.0 {
			t.Errorf("%s: a copy found counted as a concern: %v", r.name, hc)
		}
	}
}
