package node

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"
)

// TestTransparencyReport builds a small history (a bundle, its canary,
// which a lazy verifier misses, its round, and the bundle's retraction)
// and checks the report, asked before the retraction and after, counts
// what was done: the log's entries by type
// as an audit of the log counts them, the claims' statuses as the claim
// reads give them, and the canary's outcomes by model family as the
// verifiers answered. The current quarter reports the same; a quarter
// long gone reports nothing.
func TestTransparencyReport(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: 1})
	base := srv.URL
	invite := func(name, family string) verifier { return invitedVerifier(t, n, base, name, family) }
	author := invite("Author", "claude")
	lazy, honest1, honest2 := invite("Lazy", "gpt"), invite("Honest 1", "gemini"), invite("Honest 2", "mistral")
	source, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "a sum to report on", true))
	// Lazy takes the real bundle's job and the canary's, answering the
	// canary "reproduced" with the result it declares, as if unseen.
	canary := ""
	for range 2 {
		status, job := lazy.request(t, base, map[string]any{"minutes": 30})
		if status != http.StatusOK || job["kind"] != "reproduction" {
			t.Fatalf("lazy's job: %d %v", status, job)
		}
		if job["bundle"] != source {
			canary = job["bundle"].(string)
			job["files"].(map[string]any)["results/R1.json"] = base64JSON(t, `{"total": 90}`)
		}
		if status, ans := lazy.answer(t, base, job); status != http.StatusCreated {
			t.Fatalf("lazy's answer: %d %v", status, ans)
		}
	}
	did := work(t, base, []verifier{honest1, honest2, lazy})
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+source, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" {
		t.Fatalf("the bundle: %d %v", status, v)
	}
	report := func(query string) map[string]any {
		t.Helper()
		status, v := call(t, "GET", base+"/api/v1/transparency"+query, nil)
		if status != http.StatusOK {
			t.Fatalf("GET /api/v1/transparency%s: %d %v", query, status, v)
		}
		return v.(map[string]any)
	}
	// A report before the retraction, so the one after goes on from its
	// count.
	if before := report(""); before["entries"].(map[string]any)["by_type"].(map[string]any)["retraction"] != nil {
		t.Fatalf("a retraction reported before there was one: %v", before["entries"])
	}
	if status, v := call(t, "POST", base+"/api/v1/retractions", author.retraction(t, source, "error", "The sum is wrong.", "00112233445566778899aabbccddeeff")); status != http.StatusCreated {
		t.Fatalf("the retraction: %d %v", status, v)
	}

	// What was done, counted by the test: the canary's answers by family,
	// the log's entries by type, and the statuses of the claims it opened.
	wantCanaries := map[string]any{lazy.family: familyCounts(0, 1, 0)}
	for _, d := range did[canary] {
		wantCanaries[d.by.family] = familyCounts(1, 0, 0) // honest verifiers run it and catch it
	}
	leaves, _ := auditLog(t, newClient(base, nil, ""), n.keys.log.Public().String())
	wantEntries := map[string]any{}
	wantStatuses := map[string]any{}
	claims := map[string]bool{}
	for _, leaf := range leaves {
		typ := leaf["entry"].(map[string]any)["type"].(string)
		wantEntries[typ] = count(wantEntries[typ]) + 1
		if _, revealed := leaf["sealed"]; typ != "bundle" || !revealed {
			continue
		}
		for _, id := range leaf["claims"].([]any) {
			if claims[id.(string)] {
				continue
			}
			claims[id.(string)] = true
			_, v := call(t, "GET", base+"/api/v1/claims/"+id.(string), nil)
			for _, st := range v.(map[string]any)["statuses"].([]any) {
				wantStatuses[st.(string)] = count(wantStatuses[st.(string)]) + 1
			}
		}
	}
	if wantEntries["canary"] != 1.0 || wantEntries["retraction"] != 1.0 || len(claims) == 0 {
		t.Fatalf("the history the test meant to build: entries %v, claims %v", wantEntries, claims)
	}

	all := report("")
	got := func(r map[string]any, keys ...string) any {
		var v any = r
		for _, k := range keys {
			v = v.(map[string]any)[k]
		}
		return v
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"the span", []any{all["quarter"], all["from"]}, []any{nil, nil}},
		{"the log's size", all["log_size"], float64(len(leaves))},
		{"entries by type", got(all, "entries", "by_type"), wantEntries},
		{"entries in all", got(all, "entries", "total"), float64(len(leaves))},
		{"claims opened", got(all, "claims", "opened"), float64(len(claims))},
		{"claims by status", got(all, "claims", "by_status"), wantStatuses},
		{"canaries revealed", got(all, "canaries", "revealed"), 1.0},
		{"canary scores by family", got(all, "canaries", "by_model_family"), wantCanaries},
		{"integrity actions", got(all, "integrity_actions"), map[string]any{"missed_canary_penalties": 1.0, "overturned_concerns": 0.0, "panel_withdrawals": 0.0}},
		{"withdrawals", got(all, "withdrawals"), map[string]any{"total": 0.0, "by_reason": map[string]any{}}},
		{"challenges", got(all, "challenges"), map[string]any{"total": 0.0, "open": 0.0, "upheld": 0.0, "rejected": 0.0, "void": 0.0}},
		{"hazard panels", got(all, "hazard_reviews", "panels"), map[string]any{"upheld": 0.0, "overturned": 0.0, "pending": 0.0}},
		{"hazard reviews", got(all, "hazard_reviews", "total"), count(wantEntries["hazard_review"])},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}

	// This quarter holds the whole history; a quarter long gone, none of it.
	now := time.Now().UTC()
	quarter := fmt.Sprintf("%d-Q%d", now.Year(), (int(now.Month())-1)/3+1)
	this := report("?quarter=" + quarter)
	if this["quarter"] != quarter || this["from"] == nil {
		t.Errorf("this quarter's span: %v %v", this["quarter"], this["from"])
	}
	for _, k := range []string{"entries", "claims", "canaries", "integrity_actions", "withdrawals", "challenges", "hazard_reviews"} {
		if !reflect.DeepEqual(this[k], all[k]) {
			t.Errorf("this quarter's %s: %v, to date %v", k, this[k], all[k])
		}
	}
	old := report("?quarter=2001-Q1")
	if old["from"] != "2001-01-01T00:00:00.000Z" || old["to"] != "2001-04-01T00:00:00.000Z" ||
		got(old, "entries", "total") != 0.0 || got(old, "claims", "opened") != 0.0 || got(old, "canaries", "revealed") != 0.0 {
		t.Errorf("a quarter before the log: %v", old)
	}
}

// wantReport checks parts of the transparency report to date: each of
// want's members as it is.
func wantReport(t *testing.T, base string, want map[string]any) {
	t.Helper()
	status, v := call(t, "GET", base+"/api/v1/transparency", nil)
	if status != http.StatusOK {
		t.Fatalf("the transparency report: %d %v", status, v)
	}
	for k, w := range want {
		if got := v.(map[string]any)[k]; !reflect.DeepEqual(got, w) {
			t.Errorf("the transparency report's %s: %v, want %v", k, got, w)
		}
	}
}

func familyCounts(caught, missed, couldNotRun int) map[string]any {
	score := any(nil)
	if caught+missed > 0 {
		score = float64(caught) / float64(caught+missed)
	}
	return map[string]any{"caught": float64(caught), "missed": float64(missed), "could_not_run": float64(couldNotRun), "score": score}
}

// count is a JSON number held so far, 0 for none.
func count(v any) float64 {
	f, _ := v.(float64)
	return f
}
