package node

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/tlog"
)

// TestJobsBadInput sends bad input to every route of the verification
// loop and checks each gets the spec's status and code, never a 500.
func TestJobsBadInput(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	invite := func(name, family string) verifier { return invitedVerifier(t, n, base, name, family) }
	author, checker := invite("Author", "claude"), invite("Checker", "gpt")
	nobody := verifier{testOperator: registerOperator(t, base, "Nobody"), family: "gpt", model: "gpt-test-1"}
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "bad input", true))
	now := tlog.FormatTimestamp(time.Now())
	request := func(v verifier, change func(map[string]any), sign bool) []byte {
		e := map[string]any{"type": "job_request", "operator": v.id, "time": now, "model_family": v.family, "model": v.model}
		if sign {
			v.sign(t, e)
		}
		change(e)
		return mustJSON(t, e)
	}
	same := func(map[string]any) {}

	// A job to answer, for the attestation cases.
	status, job := checker.request(t, base, map[string]any{"minutes": 30})
	if status != http.StatusOK || job["kind"] != "reproduction" || job["bundle"] != hash {
		t.Fatalf("the checker's job: %d %v", status, job)
	}
	claimID := job["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	report := map[string][]byte{"report.md": []byte("# Report\n\nRe-ran it.\n")}
	_, evidence, _ := bundle.DigestEvidence(report)
	attestation := func(v verifier, change func(map[string]any), sign bool) map[string]any {
		e := map[string]any{"type": "attestation", "job": "reproduction", "verifier": v.id, "bundle": hash,
			"claims": map[string]any{claimID: "reproduced"}, "evidence": evidence, "model_family": v.family, "model": v.model,
			"harness": "agora-test 1.0", "hazard": "none"}
		change(e)
		if sign {
			v.sign(t, e)
		}
		return e
	}
	files := func(m map[string][]byte) map[string]any {
		out := map[string]any{}
		for p, d := range m {
			out[p] = base64.StdEncoding.EncodeToString(d)
		}
		return map[string]any{"files": out}
	}
	attest := func(e map[string]any, ev map[string]any) []byte {
		return mustJSON(t, map[string]any{"entry": e, "evidence": ev})
	}
	good := files(report)
	hazardReview := func(v verifier, verdict string) []byte {
		return mustJSON(t, v.sign(t, map[string]any{"type": "hazard_review", "reviewer": v.id, "bundle": hash, "verdict": verdict,
			"model_family": v.family, "model": v.model}))
	}

	// Checks of published work: what needs no job held is refused first.
	stranger := verifier{testOperator: testOperator{id: "op:" + strings.Repeat("cd", 32), key: checker.key}, family: "gpt", model: "gpt-1"}
	citations := func(e map[string]any) { e["citations"] = map[string]any{"doi:10.1/x": "supports"} }
	pairs := func(e map[string]any) {
		e["pairs"] = []any{map[string]any{"claim": claimID, "earlier": claimID, "verdict": "distinct"}}
	}
	unsigned := func(v verifier, kind string, change func(map[string]any)) map[string]any {
		e := map[string]any{"type": kind, "checker": v.id, "bundle": hash, "evidence": evidence, "model_family": v.family, "model": v.model}
		change(e)
		return e
	}
	check := func(v verifier, kind string, change func(map[string]any)) map[string]any {
		return v.sign(t, unsigned(v, kind, change))
	}
	checkBody := func(e map[string]any) []byte { return mustJSON(t, map[string]any{"entry": e, "evidence": good}) }
	rating := func(v verifier, score float64, sign bool) []byte {
		e := map[string]any{"type": "importance_rating", "rater": v.id, "bundle": hash, "scores": map[string]any{claimID: score},
			"model_family": v.family, "model": v.model}
		if sign {
			v.sign(t, e)
		}
		return mustJSON(t, map[string]any{"entry": e})
	}

	for _, c := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"jobs: not JSON", "POST", "/api/v1/jobs", []byte("{"), 400, "invalid_json"},
		{"jobs: an array", "POST", "/api/v1/jobs", []byte("[]"), 400, "bad_request"},
		{"jobs: no signature", "POST", "/api/v1/jobs", request(checker, same, false), 400, "bad_request"},
		{"jobs: stale", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["time"] = "2020-01-01T00:00:00Z" }, true), 400, "stale"},
		{"jobs: unknown member", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["colour"] = "red" }, true), 400, "bad_request"},
		{"jobs: bad can", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["can"] = map[string]any{"minutes": -3} }, true), 400, "bad_request"},
		// The model a call names is refused with the codes of "Naming your model".
		{"jobs: bad family", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["model_family"] = "martian" }, true), 422, "unknown_model_family"},
		{"jobs: no family", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { delete(e, "model_family") }, true), 422, "model_missing"},
		{"jobs: no model", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { delete(e, "model") }, true), 422, "model_missing"},
		{"jobs: model not an ID", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["model"] = "GPT 6, the big one" }, true), 422, "model_name_invalid"},
		{"attest: no model", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) { delete(e, "model") }, true), good), 422, "model_missing"},
		{"hazard review: bad family", "POST", "/api/v1/hazard-reviews", mustJSON(t, map[string]any{"entry": checker.sign(t, map[string]any{"type": "hazard_review", "reviewer": checker.id,
			"bundle": hash, "verdict": "none", "model_family": "martian", "model": checker.model})}), 422, "unknown_model_family"},
		{"jobs: unknown operator", "POST", "/api/v1/jobs", request(verifier{testOperator: testOperator{id: "op:" + strings.Repeat("ab", 32), key: checker.key}, family: "gpt", model: "gpt-1"}, same, true), 404, "not_found"},
		{"jobs: bad signature", "POST", "/api/v1/jobs", request(checker, func(e map[string]any) { e["model"] = "gpt-other" }, true), 401, "bad_signature"},
		{"jobs: no identity", "POST", "/api/v1/jobs", request(nobody, same, true), 403, "no_identity"},
		{"release: not JSON", "POST", "/api/v1/jobs/release", []byte("nope"), 400, "invalid_json"},
		{"release: wrong type", "POST", "/api/v1/jobs/release", mustJSON(t, checker.sign(t, map[string]any{"type": "job_request", "operator": checker.id, "time": now})), 400, "bad_request"},
		{"release: bad area", "POST", "/api/v1/jobs/release", mustJSON(t, checker.sign(t, map[string]any{"type": "job_release", "operator": checker.id, "time": now, "blocked": "poetry"})), 400, "bad_request"},
		{"release: stale", "POST", "/api/v1/jobs/release", mustJSON(t, checker.sign(t, map[string]any{"type": "job_release", "operator": checker.id, "time": "2020-01-01T00:00:00Z"})), 400, "stale"},
		{"release: no job", "POST", "/api/v1/jobs/release", mustJSON(t, author.sign(t, map[string]any{"type": "job_release", "operator": author.id, "time": now})), 403, "no_job"},
		{"release: another's job", "POST", "/api/v1/jobs/release", mustJSON(t, author.sign(t, map[string]any{"type": "job_release", "operator": author.id, "time": now, "job": job["job"]})), 403, "no_job"},
		{"attest: bare entry", "POST", "/api/v1/attestations", mustJSON(t, attestation(checker, same, true)), 400, "bad_request"},
		{"attest: no entry", "POST", "/api/v1/attestations", mustJSON(t, map[string]any{"evidence": good}), 400, "bad_request"},
		{"attest: harness", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) { e["harness"] = "my harness" }, true), good), 422, "harness_invalid"},
		{"attest: no hazard", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) { delete(e, "hazard") }, true), good), 422, "invalid_attestation"},
		{"attest: wrong verdict", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) { e["claims"] = map[string]any{claimID: "sound"} }, true), good), 422, "invalid_attestation"},
		{"attest: bad signature", "POST", "/api/v1/attestations", attest(attestation(checker, same, false), good), 422, "bad_signature"},
		{"attest: unknown verifier", "POST", "/api/v1/attestations", attest(attestation(verifier{testOperator: testOperator{id: "op:" + strings.Repeat("cd", 32), key: checker.key}, family: "gpt", model: "gpt-1"}, same, true), good), 404, "not_found"},
		{"attest: no job", "POST", "/api/v1/attestations", attest(attestation(author, func(e map[string]any) { e["model_family"] = "gpt" }, true), good), 403, "no_job"},
		{"attest: family", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) { e["model_family"] = "claude" }, true), good), 409, "family"},
		{"attest: other claims", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) {
			e["claims"] = map[string]any{"claim:" + strings.Repeat("0", 64): "reproduced"}
		}, true), good), 422, "verdicts"},
		{"attest: evidence mismatch", "POST", "/api/v1/attestations", attest(attestation(checker, same, true), files(map[string][]byte{"report.md": []byte("# Other\n")})), 422, "evidence_mismatch"},
		{"attest: no report", "POST", "/api/v1/attestations", attest(attestation(checker, func(e map[string]any) {
			_, d, _ := bundle.DigestEvidence(map[string][]byte{"notes.md": []byte("x")})
			e["evidence"] = d
		}, true), files(map[string][]byte{"notes.md": []byte("x")})), 422, "no_report"},
		{"attest: evidence not base64", "POST", "/api/v1/attestations", attest(attestation(checker, same, true), map[string]any{"files": map[string]any{"report.md": "%%%"}}), 400, "bad_request"},
		{"attest: evidence shape", "POST", "/api/v1/attestations", attest(attestation(checker, same, true), map[string]any{"report.md": "x"}), 400, "bad_request"},
		{"hazard review: bad verdict", "POST", "/api/v1/hazard-reviews", hazardReview(checker, "spooky"), 422, "invalid_review"},
		{"hazard review: no job", "POST", "/api/v1/hazard-reviews", hazardReview(author, "none"), 403, "no_job"},
		{"hazard review: not an object", "POST", "/api/v1/hazard-reviews", []byte(`"x"`), 400, "bad_request"},
		{"attestation: bad index", "GET", "/api/v1/attestations/abc", nil, 400, "bad_request"},
		{"attestation: none there", "GET", "/api/v1/attestations/999999", nil, 404, "not_found"},
		{"attestation: not one", "GET", "/api/v1/attestations/0", nil, 404, "not_found"},
		{"citation check: not JSON", "POST", "/api/v1/citation-checks", []byte("{"), 400, "invalid_json"},
		{"citation check: bare entry", "POST", "/api/v1/citation-checks", mustJSON(t, check(checker, "citation_check", citations)), 400, "bad_request"},
		{"citation check: bad verdict", "POST", "/api/v1/citation-checks", checkBody(check(checker, "citation_check", func(e map[string]any) {
			e["citations"] = map[string]any{"doi:10.1/x": "maybe"}
		})), 422, "invalid_check"},
		{"citation check: unknown member", "POST", "/api/v1/citation-checks", checkBody(check(checker, "citation_check", func(e map[string]any) {
			citations(e)
			e["colour"] = "red"
		})), 422, "invalid_check"},
		{"citation check: bad signature", "POST", "/api/v1/citation-checks", checkBody(unsigned(checker, "citation_check", citations)), 422, "bad_signature"},
		{"citation check: unknown checker", "POST", "/api/v1/citation-checks", checkBody(check(stranger, "citation_check", citations)), 404, "not_found"},
		{"citation check: no job", "POST", "/api/v1/citation-checks", checkBody(check(author, "citation_check", citations)), 403, "no_job"},
		{"duplicate check: not an object", "POST", "/api/v1/duplicate-checks", []byte(`[1]`), 400, "bad_request"},
		{"duplicate check: no pairs", "POST", "/api/v1/duplicate-checks", checkBody(check(checker, "duplicate_check", func(e map[string]any) { e["pairs"] = []any{} })), 422, "invalid_check"},
		{"duplicate check: bad pair", "POST", "/api/v1/duplicate-checks", checkBody(check(checker, "duplicate_check", func(e map[string]any) {
			e["pairs"] = []any{map[string]any{"claim": "C1", "earlier": claimID, "verdict": "distinct"}}
		})), 422, "invalid_check"},
		{"duplicate check: no job", "POST", "/api/v1/duplicate-checks", checkBody(check(author, "duplicate_check", pairs)), 403, "no_job"},
		{"duplicate check: no evidence (the job is checked first)", "POST", "/api/v1/duplicate-checks", mustJSON(t, map[string]any{"entry": check(author, "duplicate_check", pairs)}), 403, "no_job"},
		{"rating: not JSON", "POST", "/api/v1/importance-ratings", []byte("nope"), 400, "invalid_json"},
		{"rating: score out of range", "POST", "/api/v1/importance-ratings", rating(checker, 101, true), 422, "invalid_rating"},
		{"rating: not whole", "POST", "/api/v1/importance-ratings", rating(checker, 40.5, true), 422, "invalid_rating"},
		{"rating: bad signature", "POST", "/api/v1/importance-ratings", rating(checker, 40, false), 422, "bad_signature"},
		{"rating: no job", "POST", "/api/v1/importance-ratings", rating(author, 40, true), 403, "no_job"},
		{"download: no link", "GET", "/api/v1/jobs/" + job["job"].(string) + "/files/" + evidence, nil, 403, "bad_link"},
		{"download: forged", "GET", "/api/v1/jobs/" + job["job"].(string) + "/files/" + evidence + "?operator=" + checker.id + "&expires=99999999999&sig=00", nil, 403, "bad_link"},
		{"download: not a digest", "GET", "/api/v1/jobs/" + job["job"].(string) + "/files/x?operator=" + checker.id + "&expires=1&sig=00", nil, 403, "bad_link"},
		{"credit: bad operator", "GET", "/api/v1/operators/me/credit", nil, 400, "bad_request"},
		{"credit: unknown operator", "GET", "/api/v1/operators/op:" + strings.Repeat("ef", 32) + "/credit", nil, 404, "not_found"},
	} {
		status, v := call(t, c.method, base+c.path, c.body)
		body, _ := v.(map[string]any)
		if status != c.status || body["code"] != c.code {
			t.Errorf("%s: %d %v, want %d %s", c.name, status, v, c.status, c.code)
		}
		if status >= 500 {
			t.Errorf("%s: a %d", c.name, status)
		}
	}

	// The good answer is taken once.
	status, v := call(t, "POST", base+"/api/v1/attestations", attest(attestation(checker, same, true), good))
	if status != http.StatusCreated {
		t.Fatalf("the good attestation: %d %v", status, v)
	}
	status, v = call(t, "POST", base+"/api/v1/attestations", attest(attestation(checker, same, true), good))
	if status != http.StatusConflict || v.(map[string]any)["code"] != "finished" {
		t.Errorf("the attestation again: %d %v", status, v)
	}
	// The author gets no job on its own work.
	status, job2 := author.request(t, base, map[string]any{"minutes": 30})
	if status != http.StatusOK || job2["job"] != nil {
		t.Errorf("the author got a job on its own work: %d %v", status, job2)
	}

	// Asking too often: 429 in the job shape, with Retry-After.
	limited := false
	for i := 0; i < 300 && !limited; i++ {
		e := checker.sign(t, map[string]any{"type": "job_request", "operator": checker.id, "time": tlog.FormatTimestamp(time.Now()), "model_family": "gpt", "model": "gpt-test-1"})
		resp, err := http.Post(base+"/api/v1/jobs", "application/json", strings.NewReader(string(mustJSON(t, e))))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited = true
			if resp.Header.Get("Retry-After") == "" {
				t.Error("a 429 without Retry-After")
			}
			if i != 240-1 { // one request of this operator that got past its checks came before the loop
				t.Errorf("limited after %d requests in the loop, want %d", i, 240-1)
			}
		}
	}
	if !limited {
		t.Error("300 job requests in an hour were all answered")
	}
	status, v = call(t, "POST", base+"/api/v1/jobs", request(checker, func(e map[string]any) {}, true))
	if body := v.(map[string]any); status != http.StatusTooManyRequests || body["code"] != "rate_limited" || body["job"] != nil || body["retry_after_seconds"] == nil {
		t.Errorf("a request past the limit: %d %v", status, v)
	}
}

// TestPricesFollowBacklog: GET /api/v1/prices is live. The CPU pool's rate
// is 1 while its backlog is short and rises once the open reproductions
// outgrow what verifiers clear in 2 days (at least 10 jobs): 6 bundles
// with 2 reproductions each make 12.
func TestPricesFollowBacklog(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	a := newAuthor(t, n, base)
	author := verifier{testOperator: testOperator{id: a.id, key: a.key}, family: "claude"}
	rate := func() float64 {
		status, v := call(t, "GET", base+"/api/v1/prices", nil)
		if status != http.StatusOK {
			t.Fatalf("prices: %d %v", status, v)
		}
		return v.(map[string]any)["rates"].(map[string]any)["cpu"].(float64)
	}
	for i := range 6 {
		if got := rate(); got != 1 {
			t.Fatalf("with %d open reproductions the CPU rate is %v, want 1", 2*i, got)
		}
		author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "sample "+itoa(uint64(i)), true))
	}
	if got := rate(); got != 2 {
		t.Errorf("with 12 open reproductions and none cleared the CPU rate is %v, want 2", got)
	}
}
