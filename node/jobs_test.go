package node

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// A verifier in the loop tests: an operator with the model it names.
type verifier struct {
	testOperator
	name, family, model, org string
	// verdictFor, when set, gives the verdict v sends on a job of kind in
	// place of the honest one.
	verdictFor func(kind, honest string) string
	// importance, when set, is the score v gives every claim it rates
	// (else 40).
	importance int
}

func (v verifier) request(t *testing.T, base string, can map[string]any) (int, map[string]any) {
	t.Helper()
	e := v.sign(t, map[string]any{"type": "job_request", "operator": v.id, "time": tlog.FormatTimestamp(time.Now()),
		"can": can, "model_family": v.family, "model": v.model})
	status, body := call(t, "POST", base+"/api/v1/jobs", mustJSON(t, e))
	m, _ := body.(map[string]any)
	return status, m
}

// files decodes a job's inline files.
func jobFiles(t *testing.T, job map[string]any) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	inline, _ := job["files"].(map[string]any) // an importance rating carries none
	for p, v := range inline {
		data, err := base64.StdEncoding.DecodeString(v.(string))
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	return out
}

// column reads the numbers of a one-column CSV (its last column).
func column(data []byte) []float64 {
	var out []float64
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i == 0 {
			continue
		}
		cells := strings.Split(line, ",")
		v, err := strconv.ParseFloat(cells[len(cells)-1], 64)
		if err == nil {
			out = append(out, v)
		}
	}
	return out
}

func declared(t *testing.T, files map[string][]byte, name string) float64 {
	t.Helper()
	v, err := canonical.Parse(files["results/R1.json"])
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)[name].(float64)
}

// judge is what an honest verifier finds in the work these tests make: a
// total re-run by summing the column the code sums, a mean recomputed from
// the measurements, and the hazard screen read off the data.
func judge(t *testing.T, files map[string][]byte) (holds bool, hazardVerdict string) {
	hazardVerdict = "none"
	for p, data := range files {
		switch {
		case strings.Contains(string(data), "date_of_birth"):
			hazardVerdict = "private_data"
		case strings.HasSuffix(p, ".txt") && strings.Contains(string(data), "All rights reserved"):
			hazardVerdict = "copyright"
		}
	}
	switch {
	case files["data/values.csv"] != nil:
		sum := 0.0
		for _, v := range column(files["data/values.csv"]) {
			sum += v
		}
		return sum == declared(t, files, "total"), hazardVerdict
	case files["data/measurements.csv"] != nil && files["results/R1.json"] != nil:
		vals := column(files["data/measurements.csv"])
		sum := 0.0
		for _, v := range vals {
			sum += v
		}
		return math.Abs(sum/float64(len(vals))-declared(t, files, "mean")) <= 0.01, hazardVerdict
	}
	return true, hazardVerdict
}

// answer does a job as an honest verifier and sends the answer; it
// returns the status and body.
func (v verifier) answer(t *testing.T, base string, job map[string]any) (int, map[string]any) {
	t.Helper()
	files := jobFiles(t, job)
	holds, hz := judge(t, files)
	kind := job["kind"].(string)
	if kind == "screen" {
		e := v.sign(t, map[string]any{"type": "hazard_review", "reviewer": v.id, "bundle": job["bundle"], "verdict": hz,
			"model_family": v.family, "model": v.model})
		status, body := call(t, "POST", base+"/api/v1/hazard-reviews", mustJSON(t, e))
		m, _ := body.(map[string]any)
		return status, m
	}
	if kind == "importance_rating" || kind == "citation_check" || kind == "duplicate_check" {
		return v.check(t, base, job)
	}
	verdict, significance := "reproduced", map[string]any{}
	switch {
	case kind == "proof_check":
		verdict = map[bool]string{true: "passed", false: "failed"}[holds]
	case kind == "replication_match":
		verdict = map[bool]string{true: "matched", false: "mismatched"}[holds]
	case kind != "reproduction":
		verdict = map[bool]string{true: "sound", false: "unsound"}[holds]
	case !holds:
		verdict = "mismatch"
	}
	if v.verdictFor != nil {
		verdict = v.verdictFor(kind, verdict)
	}
	verdicts := map[string]any{}
	for _, c := range job["claims"].([]any) {
		c := c.(map[string]any)
		if c["needs_verdict"] == true {
			verdicts[c["claim_id"].(string)] = verdict
			significance[c["claim_id"].(string)] = "minor"
		}
	}
	evidence := map[string][]byte{"report.md": []byte("# Report\n\nI recomputed the declared result from the data: " + verdict + ".\n")}
	_, digest, err := bundle.DigestEvidence(evidence)
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]any{"type": "attestation", "job": kind, "verifier": v.id, "bundle": job["bundle"], "claims": verdicts,
		"evidence": digest, "model_family": v.family, "model": v.model, "harness": "agora-test 1.0"}
	switch {
	case kind == "reproduction":
		e["hazard"] = hz
	case strings.HasSuffix(kind, "_review"):
		e["significance"] = significance
	}
	v.sign(t, e)
	body := map[string]any{"entry": e, "evidence": map[string]any{"files": map[string]any{"report.md": base64.StdEncoding.EncodeToString(evidence["report.md"])}}}
	status, resp := call(t, "POST", base+"/api/v1/attestations", mustJSON(t, body))
	m, _ := resp.(map[string]any)
	return status, m
}

// qualify takes v through the qualification test, answering every item
// honestly, until its requests get real work or nothing.
func (v verifier) qualify(t *testing.T, base string) {
	t.Helper()
	can := map[string]any{"minutes": 30, "download_mb": 100}
	for range 20 {
		status, body := v.request(t, base, can)
		if status != http.StatusOK {
			t.Fatalf("%s: job request: %d %v", v.name, status, body)
		}
		if body["qualification"] == nil || body["job"] == nil {
			if body["job"] != nil {
				t.Fatalf("%s: a real job before the test was done: %v", v.name, body["kind"])
			}
			break
		}
		if body["credits"] != 0.0 {
			t.Errorf("%s: an item pays %v", v.name, body["credits"])
		}
		if _, blind := jobFiles(t, body)["manifest.json"]; blind {
			t.Fatalf("an item carries its manifest")
		}
		status, ans := v.answer(t, base, body)
		if status != http.StatusOK || ans["qualification"] == nil {
			t.Fatalf("%s: answering item %v: %d %v", v.name, body["qualification"], status, ans)
		}
	}
	status, rec := call(t, "GET", base+"/api/v1/operators/"+v.id, nil)
	if status != http.StatusOK {
		t.Fatal(status)
	}
	models := rec.(map[string]any)["qualification"].(map[string]any)["models"].([]any)
	if len(models) != 1 || models[0].(map[string]any)["level"] != 3.0 || models[0].(map[string]any)["setup"] != true {
		t.Fatalf("%s: after answering every item honestly: %v", v.name, models)
	}
	if g := rec.(map[string]any)["verification"].(map[string]any)["granted"]; g != 10.0 && g != 0.0 {
		t.Errorf("%s: granted %v, want 10 for its organization's first pass (0 for a second operator of it)", v.name, g)
	}
}

// sumBundle is a small study whose code sums a column; with total set it
// declares that total, and with nothing to re-run it declares a mean of
// measurements instead.
func sumBundle(t *testing.T, key string, family string, title string, rerun bool) map[string][]byte {
	t.Helper()
	paper := "# " + title + "\n\n## Summary\n\nWe report {{R1.total}}.\n\n## Claims\n\nThe claim is C1.\n\n## Methods\n\nThe code sums the column.\n\n## Results\n\nThe result is {{R1.total}}.\n\n## Discussion\n\nNothing more.\n\n## Limitations\n\nA small sample.\n"
	files := map[string][]byte{
		"data/values.csv": []byte("value\n12\n30\n7\n41\n"),
		"code/run.py":     []byte("import csv, json\nrows = list(csv.DictReader(open('data/values.csv')))\njson.dump({'total': sum(int(r['value']) for r in rows)}, open('results/R1.json', 'w'))\n"),
		"results/R1.json": []byte(`{"total": 90}`),
		"claims.json":     []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "The four values of ` + title + ` sum to the declared total", "evidence": [{"result": "R1.total", "produced_by": "code/run.py", "tolerance": 0}], "depends_on": [], "confidence": 0.9}]`),
		"references.json": []byte(`[]`),
		"provenance.json": []byte(`{}`),
	}
	delete(files, "provenance.json")
	if !rerun {
		paper = strings.ReplaceAll(paper, "{{R1.total}}", "a method")
		files = map[string][]byte{
			"data/measurements.csv": []byte("value\n10\n20\n30\n40\n"),
			"claims.json":           []byte(`[{"local_id": "C1", "type": "methodological", "core": true, "statement": "Averaging four measurements of ` + title + ` is enough to compare them", "evidence": [], "depends_on": [], "confidence": 0.6}]`),
			"references.json":       []byte(`[]`),
		}
	}
	files["paper.md"] = []byte(paper)
	files["manifest.json"] = mustJSON(t, map[string]any{
		"operator_key_digest": key, "fields": []any{"statistics"}, "license": map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
		"model_families": []any{family}, "models": []any{family + "-author-1"}, "compute": map[string]any{"minutes": 5, "gpu": false},
		"hazard_screen": map[string]any{"rubric": hazard.Digest(), "model": family + "-author-1"},
	})
	return files
}

func (v verifier) submit(t *testing.T, base string, files map[string][]byte) (string, map[string]any) {
	t.Helper()
	body, hash := signedBody(t, v.key, files, nil)
	status, check := call(t, "POST", base+"/api/v1/bundles/check", body)
	if status != http.StatusOK {
		t.Fatalf("check: %d %v", status, check)
	}
	if check.(map[string]any)["ready"] != true {
		t.Fatalf("%s's bundle is not ready: %v %v", v.name, check.(map[string]any)["issues"], check.(map[string]any)["publishing"])
	}
	status, sub := call(t, "POST", base+"/api/v1/bundles", body)
	if status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, sub)
	}
	return hash, check.(map[string]any)["price"].(map[string]any)
}

// work has every verifier take and do jobs, round after round, until
// none is handed out; it returns who did which job of which bundle.
type done struct {
	by   verifier
	kind string
}

func work(t *testing.T, base string, vs []verifier) map[string][]done {
	t.Helper()
	return workAround(t, base, vs, nil)
}

// workAround is work calling around, when set, with each job handed out
// and the func that answers it, which around must call once.
func workAround(t *testing.T, base string, vs []verifier, around func(job map[string]any, answer func())) map[string][]done {
	t.Helper()
	out := map[string][]done{}
	for round := 0; ; round++ {
		if round > 30 {
			t.Fatal("jobs kept coming")
		}
		got := false
		for _, v := range vs {
			status, job := v.request(t, base, map[string]any{"minutes": 30, "download_mb": 100})
			if status != http.StatusOK {
				t.Fatalf("%s: job request: %d %v", v.name, status, job)
			}
			if job["job"] == nil {
				if job["retry_after_seconds"] == nil {
					t.Fatalf("no job without retry_after_seconds: %v", job)
				}
				continue
			}
			if job["qualification"] != nil {
				t.Fatalf("%s: a qualification item after passing: %v", v.name, job["qualification"])
			}
			files := jobFiles(t, job)
			if _, blind := files["manifest.json"]; blind {
				t.Fatal("a job carries manifest.json")
			}
			if _, blind := files["signature"]; blind {
				t.Fatal("a job carries signature")
			}
			got = true
			answer := func() {
				status, ans := v.answer(t, base, job)
				if status == http.StatusConflict && ans["code"] == "closed" {
					// Its round closed it while it was being done (the
					// sweep settled its appeal or panel): no work to count.
					return
				}
				if status != http.StatusCreated && !(job["kind"] == "importance_rating" && status == http.StatusOK) {
					t.Fatalf("%s: answering %s: %d %v", v.name, job["kind"], status, ans)
				}
				out[job["bundle"].(string)] = append(out[job["bundle"].(string)], done{v, job["kind"].(string)})
			}
			if around != nil {
				around(job, answer)
			} else {
				answer()
			}
		}
		if !got {
			return out
		}
	}
}

func (v verifier) record(t *testing.T, base string) map[string]any {
	t.Helper()
	status, rec := call(t, "GET", base+"/api/v1/operators/"+v.id, nil)
	if status != http.StatusOK {
		t.Fatalf("record: %d %v", status, rec)
	}
	return rec.(map[string]any)
}

// TestVerificationLoop runs the loop end to end on a real node over
// loopback: six operators of five organizations and three model families
// take the qualification test, take jobs and attest; the rounds assign
// work only to other organizations and families; one verifier publishes a
// bundle paid for with the credit it earned; both bundles open with their
// rounds' verdicts revealed; and every entry verifies with the protocol
// core.
func TestVerificationLoop(t *testing.T) {
	t.Parallel()
	d, g := startDNS(t), startGitHub(t)
	n, srv := testNodeWith(t, Config{DNSResolver: d.addr, GitHubAPI: g.URL, OpenAfter: -1, CanaryRate: -1})
	verificationLoop(t, n, srv.URL, func() string { return srv.URL }, d)
}

// verificationLoop is TestVerificationLoop on node n served at base, its
// domains proved through d, and its log audited at the URL audit gives
// once the loop is done: one process, whose head and entries are one
// view, where base may send each request to another.
func verificationLoop(t *testing.T, n *Node, base string, audit func() string, d *fakeDNS) {
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	// The author: invited, so its first bundle goes free under the
	// seeding rule.
	author := verifier{testOperator: registerOperator(t, base, "Author"), name: "author", family: "claude", model: "claude-test-1"}
	status, v := call(t, "POST", base+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": author.id}), "Authorization", "Bearer "+string(token))
	if status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	author.org = v.(map[string]any)["organization"].(string)
	// Five verifiers in four organizations (two share lab3's domain), of
	// two families other than the author's.
	var vs []verifier
	for i, spec := range []struct{ domain, family string }{
		{"lab1.example.org", "gpt"}, {"lab2.example.net", "gemini"}, {"lab3.example.com", "gpt"}, {"lab3.example.com", "gemini"}, {"lab4.example.edu", "gemini"},
	} {
		op := registerOperator(t, base, fmt.Sprintf("Verifier %d", i+1))
		d.set("_sciencejournal."+spec.domain, operators.ProofLine(op.keyDigest()))
		status, id := op.proveDomain(t, base, spec.domain)
		if status != http.StatusCreated && status != http.StatusOK {
			t.Fatalf("prove %s: %d %v", spec.domain, status, id)
		}
		vs = append(vs, verifier{testOperator: op, name: fmt.Sprintf("v%d", i+1), family: spec.family, model: spec.family + "-test-" + strconv.Itoa(i), org: id["organization"].(string)})
	}
	everyone := append([]verifier{author}, vs...)

	// Before the test, the first answer is an item; a request without an
	// identity is refused.
	stranger := verifier{testOperator: registerOperator(t, base, "Stranger"), family: "gpt", model: "gpt-x"}
	if status, body := stranger.request(t, base, map[string]any{"minutes": 0}); status != http.StatusForbidden || body["code"] != "no_identity" {
		t.Errorf("a job request without an identity: %d %v", status, body)
	}
	for _, v := range everyone {
		v.qualify(t, base)
	}

	// The author publishes two studies free; their rounds go to the others.
	first, p1 := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "the first sample", true))
	second, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "the second sample", true))
	if p1["free"] != "seed" {
		t.Errorf("the author's bundle price: %v", p1)
	}
	did := work(t, base, everyone)
	for _, b := range []string{first, second} {
		var reproducers, reviewers []string
		for _, dn := range did[b] {
			if dn.by.org == author.org || dn.by.family == "claude" {
				t.Errorf("bundle %s: a %s went to %s (%s, %s), the author's organization or family", b, dn.kind, dn.by.name, dn.by.org, dn.by.family)
			}
			switch dn.kind {
			case "reproduction":
				reproducers = append(reproducers, dn.by.org)
			case "methods_review", "domain_review", "adversarial_review":
				reviewers = append(reviewers, dn.by.org+"/"+dn.by.family)
			}
		}
		if len(reproducers) != 2 || reproducers[0] == reproducers[1] {
			t.Errorf("bundle %s reproduced by %v, want two organizations", b, reproducers)
		}
		if len(reviewers) != 3 {
			t.Errorf("bundle %s reviewed by %v, want three", b, reviewers)
		}
		status, v := call(t, "GET", base+"/api/v1/bundles/"+b, nil)
		if status != http.StatusOK || v.(map[string]any)["state"] != "open" || v.(map[string]any)["withdrawn_entry"] != nil {
			t.Fatalf("bundle %s after its round: %d %v", b, status, v)
		}
	}

	// A verifier with enough credit publishes with it, paying the price.
	var payer verifier
	for _, v := range vs {
		rec := v.record(t, base)
		ver := rec["verification"].(map[string]any)
		if rec["can_publish"] == true && ver["spendable"].(float64) >= 12 {
			payer = v
			break
		}
	}
	if payer.id == "" {
		for _, v := range vs {
			t.Logf("%s: %v", v.name, v.record(t, base)["verification"])
		}
		t.Fatal("no verifier earned enough to publish")
	}
	before := payer.record(t, base)["verification"].(map[string]any)
	third, p3 := payer.submit(t, base, sumBundle(t, payer.keyDigest(), payer.family, "the third sample", false))
	if p3["free"] != nil || p3["charged"].(float64) <= 0 {
		t.Errorf("the verifier's bundle price: %v, want it charged", p3)
	}
	after := payer.record(t, base)["verification"].(map[string]any)
	if after["spent"].(float64)-before["spent"].(float64) != p3["charged"].(float64) || after["balance"].(float64) != before["balance"].(float64)-p3["charged"].(float64) {
		t.Errorf("paying %v: before %v, after %v", p3["charged"], before, after)
	}
	status, v = call(t, "GET", base+"/api/v1/operators/"+payer.id+"/credit", nil)
	if status != http.StatusOK || !slices.ContainsFunc(v.(map[string]any)["movements"].([]any), func(m any) bool { return m.(map[string]any)["for"] == "bundle:"+third }) {
		t.Errorf("the credit account: %d %v", status, v)
	}
	did = work(t, base, everyone)
	if kinds := kindsDone(did[third]); kinds["screen"] != 2 || kinds["methods_review"]+kinds["domain_review"]+kinds["adversarial_review"] != 3 || kinds["importance_rating"] != 4 {
		t.Errorf("the third bundle's jobs: %v, want 2 screens, 3 reviews and, once open, 4 importance ratings", kinds)
	}
	// A model of the family that wrote it may rate its importance, once.
	ownFamilyRatings := 0
	for _, dn := range did[third] {
		if dn.kind == "importance_rating" && dn.by.family == payer.family && dn.by.org != payer.org {
			ownFamilyRatings++
			continue
		}
		if dn.by.org == payer.org || dn.by.family == payer.family {
			t.Errorf("a %s of %s's bundle went to %s (%s, %s)", dn.kind, payer.name, dn.by.name, dn.by.org, dn.by.family)
		}
	}
	if ownFamilyRatings > 1 {
		t.Errorf("%d importance ratings of %s's bundle came from its own family, want at most 1", ownFamilyRatings, payer.name)
	}
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+third, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" {
		t.Fatalf("the third bundle: %d %v", status, v)
	}

	// Every entry verifies: receipts, entries against their leaves, each
	// operator's signature, and each revealed commitment.
	leaves, entries, keys := loggedEntries(t, n, audit(), everyone)
	counts := map[string]int{}
	for i, leaf := range leaves {
		signed := entries[i]
		typ := signed["type"].(string)
		counts[typ]++
		if seal, ok := leaf["sealed"].(map[string]any); ok {
			if err := protocol.Opens(leaf, leaves[int(seal["index"].(float64))]); err != nil {
				t.Errorf("entry %d (%s) does not open its commitment: %v", i, typ, err)
			}
		}
		switch typ {
		case "attestation", "hazard_review":
			who := signed["verifier"]
			if typ == "hazard_review" {
				who = signed["reviewer"]
			}
			if !protocol.Verify(signed, keys[who.(string)]) {
				t.Errorf("entry %d (%s) is not signed by %v", i, typ, who)
			}
			if _, ok := leaf["sealed"]; !ok {
				t.Errorf("entry %d (%s) of sealed work was logged without its commitment", i, typ)
			}
		}
	}
	// 3 bundles: 2 × (2 reproductions + 3 reviews) + 2 screens + 3 reviews,
	// each a commitment and then its reveal; no qualification item logged.
	if counts["attestation"] != 13 || counts["hazard_review"] != 2 {
		t.Errorf("entries logged: %v, want 13 attestations and 2 hazard reviews", counts)
	}
	// The round's verdicts make the first bundle's computed claim
	// Reproduced (two organizations) and Reviewed (three reviews, two
	// families, none the author's), each check listed as counted.
	status, v = call(t, "GET", base+"/api/v1/bundles/"+first, nil)
	if status != http.StatusOK {
		t.Fatalf("bundle %s: %d %v", first, status, v)
	}
	claimID := v.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	status, v = call(t, "GET", base+"/api/v1/claims/"+claimID, nil)
	view, _ := v.(map[string]any)
	if status != http.StatusOK || fmt.Sprint(view["statuses"]) != "[published reproduced reviewed]" {
		t.Errorf("the first bundle's claim after its round: %d %v %v", status, view["statuses"], view["requirements"])
	}
	if checks, _ := view["attestations"].([]any); len(checks) != 5 || slices.ContainsFunc(checks, func(a any) bool {
		return a.(map[string]any)["counted"] != true
	}) {
		t.Errorf("the first bundle's claim's attestations: %v, want 5, all counted", view["attestations"])
	}
	if status, v := call(t, "GET", base+"/api/v1/claims?status=refuted,formally_verified", nil); status != http.StatusOK || len(v.(map[string]any)["claims"].([]any)) != 0 {
		t.Errorf("claims refuted or formally verified: %d %v, want none", status, v)
	}
	if status, v := call(t, "GET", base+"/api/v1/claims?status=reviewed", nil); status != http.StatusOK || len(v.(map[string]any)["claims"].([]any)) != 3 {
		t.Errorf("claims with status reviewed: %d %v, want the claims of all three bundles", status, v)
	}
	// The attestation read back.
	for i, leaf := range leaves {
		if leaf["entry"].(map[string]any)["type"] == "attestation" {
			status, v := call(t, "GET", base+"/api/v1/attestations/"+itoa(uint64(i)), nil)
			if status != http.StatusOK || v.(map[string]any)["counted"] != true || v.(map[string]any)["entry"].(map[string]any)["verifier"] == nil {
				t.Errorf("GET /api/v1/attestations/%d: %d %v", i, status, v)
			}
			break
		}
	}
}

// invitedVerifier registers an operator named name, of model family
// family, and has the node's admin invite it: an identity in an
// organization of its own.
func invitedVerifier(t *testing.T, n *Node, base, name, family string) verifier {
	t.Helper()
	op := registerOperator(t, base, name)
	status, v := call(t, "POST", base+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": op.id}), "Authorization", adminToken(t, n))
	if status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	return verifier{testOperator: op, name: name, family: family, model: family + "-test-1", org: v.(map[string]any)["organization"].(string)}
}

// kindsDone counts the jobs done by kind.
func kindsDone(ds []done) map[string]int {
	out := map[string]int{}
	for _, d := range ds {
		out[d.kind]++
	}
	return out
}

// check answers a citation check, a duplicate check or an importance
// rating as an honest checker: every source supports, every pair is
// distinct, every claim scores 40 with its reason.
func (v verifier) check(t *testing.T, base string, job map[string]any) (int, map[string]any) {
	t.Helper()
	kind := job["kind"].(string)
	if kind == "importance_rating" {
		scores, reasons := map[string]any{}, map[string]any{}
		for _, c := range job["claims"].([]any) {
			id := c.(map[string]any)["claim_id"].(string)
			scores[id], reasons[id] = cmp.Or(v.importance, 40), "Real but narrow knowledge, on a small sample."
		}
		e := v.sign(t, map[string]any{"type": "importance_rating", "rater": v.id, "bundle": job["bundle"], "scores": scores, "reasons": reasons,
			"model_family": v.family, "model": v.model})
		status, body := call(t, "POST", base+"/api/v1/importance-ratings", mustJSON(t, map[string]any{"entry": e}))
		m, _ := body.(map[string]any)
		return status, m
	}
	report := []byte("# Report\n\nI read each source and pair: what I relied on is quoted here.\n")
	_, digest, err := bundle.DigestEvidence(map[string][]byte{"report.md": report})
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]any{"type": kind, "checker": v.id, "bundle": job["bundle"], "evidence": digest, "model_family": v.family, "model": v.model}
	path := "/api/v1/citation-checks"
	if kind == "citation_check" {
		verdicts := map[string]any{}
		for _, c := range job["citations"].([]any) {
			verdicts[c.(map[string]any)["reference"].(string)] = "supports"
		}
		e["citations"] = verdicts
	} else {
		var pairs []any
		for _, p := range job["pairs"].([]any) {
			p := p.(map[string]any)
			pairs = append(pairs, map[string]any{"claim": p["claim"], "earlier": p["earlier"], "verdict": "distinct"})
		}
		e["pairs"], path = pairs, "/api/v1/duplicate-checks"
	}
	v.sign(t, e)
	body := map[string]any{"entry": e, "evidence": map[string]any{"files": map[string]any{"report.md": base64.StdEncoding.EncodeToString(report)}}}
	status, resp := call(t, "POST", base+path, mustJSON(t, body))
	m, _ := resp.(map[string]any)
	return status, m
}

// loggedEntries audits the node's log and returns its leaves, each
// leaf's entry as signed, and the keys of vs by operator.
func loggedEntries(t *testing.T, n *Node, base string, vs []verifier) (leaves, entries []map[string]any, keys map[string]string) {
	t.Helper()
	c := newClient(base, nil, "")
	leaves, _ = auditLog(t, c, n.keys.log.Public().String())
	keys = map[string]string{}
	for _, v := range vs {
		keys[v.id] = v.key.Public().String()
	}
	for i := range leaves {
		_, sv, err := c.do("GET", "/api/v1/log/entries/"+itoa(uint64(i))+"/signed", nil)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, sv.(map[string]any)["entry"].(map[string]any))
	}
	return leaves, entries, keys
}
