package node

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// The shapes the reference harness (sj-harness) reads off a job and its
// answers, checked on a real node over loopback: every job, qualification
// items included, carries `integrity` with each of its lists; and an answer
// to a job its verifier already finished is 409 finished, even while the
// verifier holds another job on the same bundle (an importance rating after
// a review), not 422 wrong_job, which would tell the harness to answer
// with another command; and the index an attestation was answered with
// reads as the attestation once its round revealed it.

// integrityLists are the members of a job's `integrity`, each a list.
var integrityLists = []string{"orphan_numbers", "missing_sections", "missing_files", "uncited_references", "unlisted_citations", "data", "skipped"}

func checkIntegrity(t *testing.T, who string, job map[string]any) {
	t.Helper()
	flags, ok := job["integrity"].(map[string]any)
	if !ok {
		t.Errorf("%s: a %v job without integrity: %v", who, job["kind"], job["integrity"])
		return
	}
	for _, k := range integrityLists {
		if _, ok := flags[k].([]any); !ok {
			t.Errorf("%s: a %v job's integrity.%s is %v, want a list", who, job["kind"], k, flags[k])
		}
	}
}

func TestJobShapesTheHarnessReads(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, CanaryRate: -1})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	vs := []verifier{
		invitedVerifier(t, n, base, "Verifier gpt", "gpt"),
		invitedVerifier(t, n, base, "Verifier gemini", "gemini"),
		invitedVerifier(t, n, base, "Verifier mistral", "mistral"),
	}
	// The first answer is the test's first item, which carries the
	// checks of the bundle made for it too.
	status, item := vs[0].request(t, base, map[string]any{"minutes": 30})
	if status != http.StatusOK || item["qualification"] == nil {
		t.Fatalf("the first job request: %d %v", status, item)
	}
	checkIntegrity(t, "an item", item)
	// The first item is setup's reproduction, which the harness runs only
	// in an image env/ declares: without one it refuses to run it.
	if files := jobFiles(t, item); item["kind"] != "reproduction" || !declaresImage(files) {
		t.Errorf("the setup item: a %v with files %v, want a reproduction whose env/ the harness builds an image from", item["kind"], slices.Sorted(maps.Keys(files)))
	}
	if status, ans := vs[0].answer(t, base, item); status != http.StatusOK {
		t.Fatalf("answering the first item: %d %v", status, ans)
	}
	for _, v := range append([]verifier{author}, vs...) {
		v.qualify(t, base)
	}

	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "gauge readings", true))
	reviewed := map[string]map[string]any{}
	var commitments []float64 // the indexes reproductions were answered with
	finishedChecked := 0
	for round := 0; round < 20; round++ {
		got := false
		for _, v := range vs {
			status, job := v.request(t, base, map[string]any{"minutes": 30})
			if status != http.StatusOK {
				t.Fatalf("%s: job request: %d %v", v.name, status, job)
			}
			if job["job"] == nil || job["bundle"] != hash {
				continue
			}
			got = true
			kind := job["kind"].(string)
			if kind != "importance_rating" {
				checkIntegrity(t, v.name, job)
			}
			if review := reviewed[v.id]; review != nil && kind == "importance_rating" {
				// The review again, while the rating of the same bundle is held.
				status, ans := v.answer(t, base, review)
				if status != http.StatusConflict || ans["code"] != "finished" {
					t.Errorf("%s: a finished review sent again while holding the rating: %d %v, want 409 finished", v.name, status, ans)
				}
				finishedChecked++
			}
			status, ans := v.answer(t, base, job)
			if status != http.StatusCreated && !(kind == "importance_rating" && status == http.StatusOK) {
				t.Fatalf("%s: answering %s: %d %v", v.name, kind, status, ans)
			}
			if strings.HasSuffix(kind, "_review") {
				reviewed[v.id] = job
			}
			if kind == "reproduction" {
				commitments = append(commitments, ans["attestation"].(float64))
			}
		}
		if !got {
			break
		}
	}
	if len(reviewed) != 3 || finishedChecked == 0 || len(commitments) != 2 {
		t.Fatalf("the round: %d reviews, %d finished reviews sent again, %d reproductions; want 3, at least 1, 2", len(reviewed), finishedChecked, len(commitments))
	}
	// The index a reproduction was answered with, a commitment while the
	// work was sealed, reads as the attestation once the round revealed it.
	for _, index := range commitments {
		var got map[string]any
		eventually(t, "the reveal of attestation "+itoa(uint64(index)), func() bool {
			status, v := call(t, "GET", base+"/api/v1/attestations/"+itoa(uint64(index)), nil)
			got, _ = v.(map[string]any)
			return status == http.StatusOK && got["sealed"] == false
		})
		if revealed, _ := got["revealed_in"].(float64); got["entry"] == nil || got["bundle"] != hash || revealed <= index {
			t.Errorf("attestation %v after the round opened: %v, want its entry and the later index of its reveal", index, got)
		}
	}
}

// The reference harness prints a refused job request's qualification
// message and nothing else of it, so a model that failed the test's first
// level reads when it may try again in the message itself: the
// retake_at the answer carries, written into it.
func TestRetakeMessageSaysWhen(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, CanaryRate: -1})
	base := srv.URL
	v := invitedVerifier(t, n, base, "Careless", "gpt")
	can := map[string]any{"minutes": 0}
	for i := 0; ; i++ {
		if i == 10 {
			t.Fatal("ten wrong answers and the test still hands out items")
		}
		job := v.requestAt(t, base, can, time.Now())
		if job == nil {
			t.Fatal("a job request answered no job before the level was done")
		}
		if job["qualification"] == nil {
			t.Fatalf("a real job before the test was passed: %v", job["kind"])
		}
		// Wrong every time: no item holds a cyber hazard, and
		// could_not_judge is neither verdict a review item wants.
		status, ans := v.respond(t, base, job, "could_not_judge", "cyber", false)
		if status != http.StatusOK && status != http.StatusCreated {
			t.Fatalf("answering item %d: %d %v", i, status, ans)
		}
		if msg, _ := ans["qualification"].(map[string]any)["message"].(string); strings.Contains(msg, "did not pass") {
			break
		}
	}
	status, body := v.request(t, base, can)
	q, _ := body["qualification"].(map[string]any)
	retake, _ := q["retake_at"].(string)
	msg, _ := q["message"].(string)
	if status != http.StatusOK || body["job"] != nil || retake == "" {
		t.Fatalf("a request after failing level 1: %d %v, want job null with qualification.retake_at", status, body)
	}
	if when, err := time.Parse(time.RFC3339, retake); err != nil || !when.After(time.Now()) {
		t.Errorf("retake_at %q: want a time to come (%v)", retake, err)
	}
	if !strings.Contains(msg, retake) {
		t.Errorf("the message %q doesn't say when, %s, which is all the harness prints", msg, retake)
	}
	if s, _ := body["retry_after_seconds"].(float64); s < 1 {
		t.Errorf("retry_after_seconds %v, want at least 1", body["retry_after_seconds"])
	}
}

// A challenge review as the reference harness reads it: the job lists
// every claim of the challenged bundle, as every job does, the challenged
// one alone needing a verdict (the harness checks the claim IDs a job
// names against the claims its files give); and a panelist's review
// answers {"review": <index>, "challenge": <state>}, as the harness
// prints it, beside challenge_review.
func TestChallengeReviewShapesTheHarnessReads(t *testing.T) {
	t.Parallel()
	n, base, author, round := roundWorld(t)
	files := sumBundle(t, author.keyDigest(), "claude", "two claims to challenge", false)
	files["claims.json"] = []byte(`[{"local_id": "C1", "type": "methodological", "core": true, "statement": "Averaging four measurements is enough to compare two sites", "evidence": [], "depends_on": [], "confidence": 0.6},` +
		`{"local_id": "C2", "type": "methodological", "core": false, "statement": "Averaging three would not be", "evidence": [], "depends_on": ["C1"], "confidence": 0.5}]`)
	hash, _ := author.submit(t, base, files)
	for _, title := range []string{"a sum that pays", "another sum that pays"} {
		author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", title, true))
	}
	work(t, base, round)
	_, bv := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	listed := bv.(map[string]any)["claims"].([]any)
	if len(listed) != 2 {
		t.Fatalf("the bundle's claims: %v", listed)
	}
	claim := listed[1].(map[string]any)["claim_id"].(string)
	var challenger verifier
	for _, v := range round {
		if v.record(t, base)["verification"].(map[string]any)["spendable"].(float64) >= 3 {
			challenger = v
			break
		}
	}
	if challenger.id == "" {
		t.Fatal("no verifier of the round earned the 3 credits a panel costs")
	}
	status, ans := challenger.challenge(t, base, claim, "counterexample", "Three measurements compare the sites as well.")
	if status != http.StatusCreated {
		t.Fatalf("the challenge: %d %v", status, ans)
	}
	index := ans["challenge"].(float64)

	panelist := invitedVerifier(t, n, base, "Panelist", "llama")
	status, job := panelist.request(t, base, map[string]any{"minutes": 30})
	if status != http.StatusOK || job["kind"] != "challenge_review" {
		t.Fatalf("the panelist's job: %d %v", status, job)
	}
	got := job["claims"].([]any)
	if len(got) != len(listed) {
		t.Errorf("the challenge review lists %d claims, want the bundle's %d: %v", len(got), len(listed), got)
	}
	for _, c := range got {
		c := c.(map[string]any)
		if want := c["claim_id"] == claim; c["needs_verdict"] != want {
			t.Errorf("claim %v: needs_verdict %v, want %v (only the challenged claim needs one)", c["local_id"], c["needs_verdict"], want)
		}
	}
	body := panelist.evidenceBody(t, map[string]any{"type": "challenge_review", "reviewer": panelist.id, "challenge": index,
		"bundle": job["bundle"], "verdict": "rejected", "model_family": panelist.family, "model": panelist.model}, "Three don't separate the sites.")
	status, resp := call(t, "POST", base+"/api/v1/challenge-reviews", body)
	r, _ := resp.(map[string]any)
	if status != http.StatusCreated || r["review"] == nil || r["review"] != r["challenge_review"] || r["challenge"] != "open" {
		t.Errorf("the first review: %d %v, want 201 with review (its index, as challenge_review) and challenge open", status, resp)
	}
}

// declaresImage reports whether a bundle's files hold what the reference
// harness builds a run's image from: env/Dockerfile or env/Containerfile,
// env/requirements.txt, or env/environment.yml (or .yaml).
func declaresImage(files map[string][]byte) bool {
	for _, p := range []string{"env/Dockerfile", "env/Containerfile", "env/requirements.txt", "env/environment.yml", "env/environment.yaml"} {
		if files[p] != nil {
			return true
		}
	}
	return false
}
