package node

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/protocol"
)

// download GETs a download link of a job: its status and bytes.
func download(t *testing.T, base, link string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(base + link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// workChecks is work for verifiers that list the Lean checker: each takes
// jobs until none is handed out, fetching each job's downloads (checked
// against their digests) before answering. It returns who did what, and
// the first job of each kind as it was handed out.
func workChecks(t *testing.T, base string, vs []verifier) (map[string][]done, map[string]map[string]any) {
	t.Helper()
	can := map[string]any{"minutes": 30, "download_mb": 100, "software": []any{"lean4"}}
	did, first := map[string][]done{}, map[string]map[string]any{}
	for round := 0; ; round++ {
		if round > 40 {
			t.Fatal("jobs kept coming")
		}
		got := false
		for _, v := range vs {
			status, job := v.request(t, base, can)
			if status != http.StatusOK {
				t.Fatalf("%s: job request: %d %v", v.name, status, job)
			}
			if job["job"] == nil {
				continue
			}
			kind := job["kind"].(string)
			downloads, _ := job["downloads"].(map[string]any)
			for p, d := range downloads {
				d := d.(map[string]any)
				status, data := download(t, base, d["url"].(string))
				sum := sha256.Sum256(data)
				if status != http.StatusOK || "sha256:"+hex.EncodeToString(sum[:]) != d["digest"] || float64(len(data)) != d["bytes"] {
					t.Fatalf("%s: downloading %s: %d, %d bytes", v.name, p, status, len(data))
				}
				job["files"].(map[string]any)[p] = base64.StdEncoding.EncodeToString(data)
			}
			if first[kind] == nil {
				first[kind] = job
			}
			status, ans := v.answer(t, base, job)
			if status != http.StatusCreated && !(kind == "importance_rating" && status == http.StatusOK) {
				t.Fatalf("%s: answering %s: %d %v", v.name, kind, status, ans)
			}
			for _, d := range downloads {
				if status, _ := download(t, base, d.(map[string]any)["url"].(string)); status != http.StatusForbidden {
					t.Errorf("%s: a download link after the job was answered: %d, want 403", v.name, status)
				}
			}
			did[job["bundle"].(string)] = append(did[job["bundle"].(string)], done{v, kind})
			got = true
		}
		if !got {
			return did, first
		}
	}
}

// checkedBundle is a replication of original's claim C1 that also proves a
// theorem and cites the original and a paper: every check of published
// work applies to it. Its data file is larger than the node's inline limit
// in TestPublishedChecks, so it comes as a download.
func checkedBundle(t *testing.T, key, family, original string) map[string][]byte {
	t.Helper()
	var rows strings.Builder
	rows.WriteString("value\n")
	total := 0
	for i := range 1200 {
		fmt.Fprintf(&rows, "%d\n", i%10)
		total += i % 10
	}
	paper := "# A replication\n\n## Summary\n\nWe replicate [the original total](" + original + ") and prove a lemma.\n\n## Claims\n\nC1 and C2.\n\n" +
		"## Methods\n\nThe code sums the column, as [Person (2020)](doi:10.1234/abcd) describe.\n\n## Results\n\nThe total holds.\n\n" +
		"## Discussion\n\nIt agrees with [the original](" + original + ").\n\n## Limitations\n\nOne sample.\n"
	claims := `[{"local_id": "C1", "type": "replication", "core": true, "statement": "The values of the original sample sum to the declared total once more", "evidence": [{"result": "R1.total", "produced_by": "code/run.py", "tolerance": 0}], "depends_on": ["` + original + `"], "confidence": 0.9},` +
		`{"local_id": "C2", "type": "theoretical", "core": false, "statement": "One plus one is two in the natural numbers", "evidence": [{"proof": "proofs/Main.lean", "theorem": "Main.two", "checker": "lean4"}], "depends_on": [], "confidence": 1}]`
	files := map[string][]byte{
		"data/values.csv":  []byte(rows.String()),
		"code/run.py":      []byte("import csv, json\nrows = list(csv.DictReader(open('data/values.csv')))\njson.dump({'total': sum(int(r['value']) for r in rows)}, open('results/R1.json', 'w'))\n"),
		"results/R1.json":  []byte(fmt.Sprintf(`{"total": %d}`, total)),
		"proofs/Main.lean": []byte("namespace Main\ntheorem two : 1 + 1 = 2 := rfl\nend Main\n"),
		"claims.json":      []byte(claims),
		"references.json": []byte(`[{"id": "` + original + `", "claims": ["C1"]},` +
			`{"id": "doi:10.1234/abcd", "title": "Summing columns", "authors": ["A. Person"], "year": 2020, "claims": []}]`),
		"deviations.json": []byte(`[{"from": "` + original + `", "kind": "unstated", "detail": "The original did not say how rows are read; we read them with csv.", "claims": ["C1"]}]`),
		"paper.md":        []byte(paper),
	}
	files["manifest.json"] = mustJSON(t, map[string]any{
		"operator_key_digest": key, "fields": []any{"statistics"}, "license": map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
		"model_families": []any{family}, "models": []any{family + "-author-1"}, "compute": map[string]any{"minutes": 5, "gpu": false},
		"hazard_screen": map[string]any{"rubric": hazard.Digest(), "model": family + "-author-1"},
	})
	return files
}

// TestPublishedChecks runs the checks of published work end to end on a
// real node over loopback: an earlier study opens; a replication of it
// that proves a theorem and cites it opens in turn, and gets 2 proof
// checks (only for verifiers listing lean4), 2 replication matches (for
// neither author's organization nor family), 2 citation checks, 2
// duplicate checks (its claim shares most of its words with the
// original's) and 4 importance ratings (due in 2 hours, at most one from
// the author's family). Each goes to other organizations, is answered,
// logged (but ratings, which are kept), paid once, and verifies with the
// protocol core; its large file comes as a download only its holder can
// fetch.
func TestPublishedChecks(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, JobFileInline: 2000})
	base := srv.URL
	earlier := invitedVerifier(t, n, base, "Earlier", "gemini")
	author := invitedVerifier(t, n, base, "Author", "claude")
	var vs []verifier
	for i, family := range []string{"gpt", "gpt", "gemini", "grok", "llama"} {
		vs = append(vs, invitedVerifier(t, n, base, fmt.Sprintf("v%d", i+1), family))
	}
	everyone := append([]verifier{earlier, author}, vs...)

	original, _ := earlier.submit(t, base, sumBundle(t, earlier.keyDigest(), "gemini", "the original sample", true))
	did, _ := workChecks(t, base, everyone)
	if kinds := kindsDone(did[original]); kinds["importance_rating"] != 4 || kinds["duplicate_check"] != 0 {
		t.Fatalf("the original's jobs: %v, want 4 importance ratings and no duplicate checks (nothing came before it)", kinds)
	}
	status, ob := call(t, "GET", base+"/api/v1/bundles/"+original, nil)
	if status != http.StatusOK || ob.(map[string]any)["state"] != "open" {
		t.Fatalf("the original: %d %v", status, ob)
	}
	originalClaim := ob.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)

	hash, price := author.submit(t, base, checkedBundle(t, author.keyDigest(), "claude", originalClaim))
	t.Logf("the replication's price: %v", price)
	did, first := workChecks(t, base, everyone)
	kinds := kindsDone(did[hash])
	for kind, want := range map[string]int{"reproduction": 2, "methods_review": 1, "domain_review": 1, "adversarial_review": 1,
		"proof_check": 2, "replication_match": 2, "citation_check": 2, "duplicate_check": 2, "importance_rating": 4} {
		if kinds[kind] != want {
			t.Errorf("the replication's %s jobs: %d, want %d (all: %v)", kind, kinds[kind], want, kinds)
		}
	}
	ownFamily, orgs := 0, map[string][]string{}
	for _, dn := range did[hash] {
		orgs[dn.kind] = append(orgs[dn.kind], dn.by.org)
		switch {
		case dn.by.org == author.org:
			t.Errorf("a %s of the author's bundle went to its own organization", dn.kind)
		case dn.kind == "replication_match" && (dn.by.org == earlier.org || dn.by.family == "gemini" || dn.by.family == "claude"):
			t.Errorf("a replication match went to %s (%s, %s), of an author of the replication or the original", dn.by.name, dn.by.org, dn.by.family)
		case dn.kind == "importance_rating" && dn.by.family == "claude":
			ownFamily++
		case dn.by.family == "claude":
			t.Errorf("a %s went to %s, of the author's family", dn.kind, dn.by.name)
		}
	}
	for kind, list := range orgs {
		if distinct := slices.Compact(slices.Sorted(slices.Values(list))); len(distinct) != len(list) && !strings.HasSuffix(kind, "_review") {
			t.Errorf("the %s jobs went to %v: one organization twice", kind, list)
		}
	}
	if ownFamily > 1 {
		t.Errorf("%d importance ratings from the author's family, want at most 1", ownFamily)
	}

	// What each kind carries, in the shapes the reference harness reads.
	if r := first["replication_match"]["replicates"].([]any); len(r) != 1 || r[0].(map[string]any)["original"] != originalClaim || r[0].(map[string]any)["original_bundle"] != original {
		t.Errorf("replicates: %v", r)
	}
	cites := first["citation_check"]["citations"].([]any)
	if len(cites) != 2 {
		t.Fatalf("citations: %v", cites)
	}
	for _, c := range cites {
		c := c.(map[string]any)
		places, _ := c["cited_at"].([]any)
		if len(places) == 0 || places[0].(map[string]any)["section"] == nil || places[0].(map[string]any)["line"] == nil {
			t.Errorf("a citation without where the paper cites it: %v", c)
		}
		if c["reference"] == "doi:10.1234/abcd" && (c["title"] != "Summing columns" || c["year"] != 2020.0 || len(c["claims"].([]any)) != 0) {
			t.Errorf("the outside source: %v", c)
		}
	}
	if p := first["duplicate_check"]["pairs"].([]any); len(p) != 1 || p[0].(map[string]any)["earlier"] != originalClaim || p[0].(map[string]any)["earlier_bundle"] != original ||
		p[0].(map[string]any)["earlier_statement"] == nil || p[0].(map[string]any)["statement"] == nil {
		t.Errorf("pairs: %v", p)
	}
	rating := first["importance_rating"]
	for _, k := range []string{"job", "kind", "deadline", "credits", "bundle", "submitted", "fields", "paper", "claims", "reviews", "scale"} {
		if _, ok := rating[k]; !ok {
			t.Errorf("the importance job lacks %s: %v", k, rating)
		}
	}
	deadline, _ := time.Parse(time.RFC3339, rating["deadline"].(string))
	assigned, _ := time.Parse(time.RFC3339, rating["assigned_at"].(string))
	if deadline.Sub(assigned) != 2*time.Hour {
		t.Errorf("an importance rating due %v after it was handed out, want 2h", deadline.Sub(assigned))
	}
	if len(rating["scale"].(map[string]any)["bands"].([]any)) != 6 || len(rating["reviews"].([]any)) != 3 {
		t.Errorf("the importance job's scale and reviews: %v", rating)
	}
	for _, c := range first["proof_check"]["claims"].([]any) {
		c := c.(map[string]any)
		if (c["local_id"] == "C2") != (c["needs_verdict"] == true) {
			t.Errorf("a proof check asks a verdict on %v", c)
		}
	}
	if _, ok := first["reproduction"]["downloads"].(map[string]any)["data/values.csv"]; !ok {
		t.Errorf("the large data file did not come as a download: %v", first["reproduction"]["downloads"])
	}

	// Paid once: no job's credit twice, and every check paid its verifier.
	paid := map[string]int{}
	for _, v := range everyone {
		status, c := call(t, "GET", base+"/api/v1/operators/"+v.id+"/credit", nil)
		if status != http.StatusOK {
			t.Fatalf("credit: %d %v", status, c)
		}
		for _, m := range c.(map[string]any)["movements"].([]any) {
			paid[m.(map[string]any)["for"].(string)]++
		}
	}
	jobsPaid := 0
	for key, times := range paid {
		if times != 1 {
			t.Errorf("%s paid %d times", key, times)
		}
		if strings.HasPrefix(key, "job:") {
			jobsPaid++
		}
	}
	if jobsPaid < len(did[hash])+len(did[original]) {
		t.Errorf("%d jobs paid, want at least the %d done", jobsPaid, len(did[hash])+len(did[original]))
	}

	// Logged: the citation and duplicate checks as signed, in the open;
	// the ratings nowhere; each attestation counted.
	leaves, entries, keys := loggedEntries(t, n, base, everyone)
	counts := map[string]int{}
	for i, leaf := range leaves {
		signed := entries[i]
		typ := signed["type"].(string)
		switch typ {
		case "citation_check", "duplicate_check":
			counts[typ]++
			if !protocol.Verify(signed, keys[signed["checker"].(string)]) || leaf["operator"] != signed["checker"] || leaf["sealed"] != nil {
				t.Errorf("entry %d (%s) does not verify as its checker's, in the open", i, typ)
			}
		case "attestation":
			if job := signed["job"].(string); job == "proof_check" || job == "replication_match" {
				counts[job]++
				status, v := call(t, "GET", base+"/api/v1/attestations/"+itoa(uint64(i)), nil)
				if status != http.StatusOK || v.(map[string]any)["counted"] != true || leaf["sealed"] != nil {
					t.Errorf("attestation %d (%s): %d %v", i, job, status, v)
				}
			}
		case "importance_rating":
			t.Errorf("entry %d is an importance rating: ratings aren't logged", i)
		}
	}
	if counts["citation_check"] != 2 || counts["duplicate_check"] != 2 || counts["proof_check"] != 2 || counts["replication_match"] != 2 {
		t.Errorf("checks logged: %v, want 2 of each", counts)
	}
}

// TestCheckAnswersRefused: a check answer that misses what its job lists,
// or answers another kind of job, is refused with the spec's status and
// code, and a download link works only as the node signed it.
func TestCheckAnswersRefused(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, JobFileInline: 2000})
	base := srv.URL
	earlier := invitedVerifier(t, n, base, "Earlier", "gemini")
	author := invitedVerifier(t, n, base, "Author", "claude")
	var vs []verifier
	for i, family := range []string{"gpt", "gpt", "grok"} {
		vs = append(vs, invitedVerifier(t, n, base, fmt.Sprintf("v%d", i+1), family))
	}
	original, _ := earlier.submit(t, base, sumBundle(t, earlier.keyDigest(), "gemini", "the original sample", true))
	// The first verifier holds a reproduction of the original: its link is
	// checked, and its answer as a citation check is the wrong kind.
	status, job := vs[0].request(t, base, map[string]any{"minutes": 30})
	if status != http.StatusOK || job["kind"] != "reproduction" || job["bundle"] != original {
		t.Fatalf("the first job: %d %v", status, job)
	}
	report := []byte("# Report\n\nRead it.\n")
	_, evidence, _ := bundle.DigestEvidence(map[string][]byte{"report.md": report})
	ev := map[string]any{"files": map[string]any{"report.md": base64.StdEncoding.EncodeToString(report)}}
	check := func(v verifier, kind string, change func(map[string]any)) []byte {
		e := map[string]any{"type": kind, "checker": v.id, "bundle": job["bundle"], "evidence": evidence, "model_family": v.family, "model": v.model}
		change(e)
		return mustJSON(t, map[string]any{"entry": v.sign(t, e), "evidence": ev})
	}
	wrong := check(vs[0], "citation_check", func(e map[string]any) { e["citations"] = map[string]any{"doi:10.1/x": "supports"} })
	if status, v := call(t, "POST", base+"/api/v1/citation-checks", wrong); status != http.StatusUnprocessableEntity || v.(map[string]any)["code"] != "wrong_job" {
		t.Errorf("a citation check answering a reproduction: %d %v", status, v)
	}
	rate := mustJSON(t, map[string]any{"entry": vs[0].sign(t, map[string]any{"type": "importance_rating", "rater": vs[0].id, "bundle": job["bundle"],
		"scores": map[string]any{job["claims"].([]any)[0].(map[string]any)["claim_id"].(string): 50}, "model_family": "gpt", "model": vs[0].model})})
	if status, v := call(t, "POST", base+"/api/v1/importance-ratings", rate); status != http.StatusUnprocessableEntity || v.(map[string]any)["code"] != "wrong_job" {
		t.Errorf("a rating answering a reproduction: %d %v", status, v)
	}
	// Do the original's round, then hold a citation check of a bundle
	// citing it, and leave a source out.
	work(t, base, append([]verifier{author}, vs...))
	status, ob := call(t, "GET", base+"/api/v1/bundles/"+original, nil)
	if status != http.StatusOK {
		t.Fatal(status)
	}
	originalClaim := ob.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	hash, _ := author.submit(t, base, checkedBundle(t, author.keyDigest(), "claude", originalClaim))
	var holder verifier
	for range 40 {
		for _, v := range append([]verifier{earlier}, vs...) {
			status, j := v.request(t, base, map[string]any{"minutes": 30, "download_mb": 100, "software": []any{"lean4"}})
			if status != http.StatusOK || j["job"] == nil {
				continue
			}
			if j["kind"] == "citation_check" && j["bundle"] == hash {
				job, holder = j, v
				break
			}
			if downloads, _ := j["downloads"].(map[string]any); len(downloads) > 0 {
				link := downloads["data/values.csv"].(map[string]any)["url"].(string)
				for name, bad := range map[string]string{
					"tampered": strings.Replace(link, "sig=", "sig=00", 1), "another operator": strings.Replace(link, "operator=op%3A", "operator=op%3A0", 1),
					"not a digest": strings.Replace(link, "/files/sha256:", "/files/md5:", 1),
				} {
					if status, _ := download(t, base, bad); status != http.StatusForbidden {
						t.Errorf("a %s download link: %d, want 403", name, status)
					}
				}
				for p, d := range downloads {
					_, data := download(t, base, d.(map[string]any)["url"].(string))
					j["files"].(map[string]any)[p] = base64.StdEncoding.EncodeToString(data)
				}
			}
			if status, ans := v.answer(t, base, j); status >= 300 {
				t.Fatalf("%s answering %s: %d %v", v.name, j["kind"], status, ans)
			}
		}
		if holder.id != "" {
			break
		}
	}
	if holder.id == "" {
		t.Fatal("no one got a citation check of the citing bundle")
	}
	one := check(holder, "citation_check", func(e map[string]any) { e["citations"] = map[string]any{originalClaim: "supports"} })
	if status, v := call(t, "POST", base+"/api/v1/citation-checks", one); status != http.StatusUnprocessableEntity || v.(map[string]any)["code"] != "verdicts" {
		t.Errorf("a citation check leaving a source out: %d %v", status, v)
	}
	dup := check(holder, "duplicate_check", func(e map[string]any) {
		e["pairs"] = []any{map[string]any{"claim": originalClaim, "earlier": originalClaim, "verdict": "distinct"}}
	})
	// Refused as the wrong kind of answer, or, when the holder did this
	// bundle's duplicate check before, as a job it finished.
	if status, v := call(t, "POST", base+"/api/v1/duplicate-checks", dup); !(status == http.StatusUnprocessableEntity && v.(map[string]any)["code"] == "wrong_job") &&
		!(status == http.StatusConflict && v.(map[string]any)["code"] == "finished") {
		t.Errorf("a duplicate check answering a citation check: %d %v", status, v)
	}
	all := check(holder, "citation_check", func(e map[string]any) {
		e["citations"] = map[string]any{originalClaim: "could_not_access", "doi:10.1234/abcd": "could_not_access"}
	})
	if status, v := call(t, "POST", base+"/api/v1/citation-checks", all); status != http.StatusCreated {
		t.Errorf("a citation check that reached no source: %d %v", status, v)
	}
	// It paid nothing, and counts as handed back.
	status, c := call(t, "GET", base+"/api/v1/operators/"+holder.id+"/credit", nil)
	if status != http.StatusOK {
		t.Fatalf("credit: %d %v", status, c)
	}
	for _, m := range c.(map[string]any)["movements"].([]any) {
		if m.(map[string]any)["for"] == "job:"+strings.TrimPrefix(job["job"].(string), "job:") {
			t.Errorf("a citation check that reached no source paid %v", m)
		}
	}
}
