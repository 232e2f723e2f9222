package node

import (
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
)

// TestPreregistration commits a plan on a real node, then publishes the
// work carrying it: the registration is logged once, a bundle whose
// plan/ files do not digest to it is not ready, and the claims of one
// that does show when they were registered.
func TestPreregistration(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Planner", "claude")
	nobody := verifier{testOperator: registerOperator(t, base, "Unproven"), family: "gpt", model: "gpt-test-1"}
	plan := map[string][]byte{"analysis.md": []byte("# Plan\n\nSum the column; compare with 90.\n")}
	planDigest := func(files map[string][]byte) string {
		m := map[string]any{}
		for p, d := range files {
			m[p] = canonical.Digest(d)
		}
		data, _ := canonical.Marshal(m)
		return canonical.Digest(data)
	}
	reportBy := time.Now().AddDate(0, 2, 0).Format(time.DateOnly)
	register := func(v verifier, change func(map[string]any)) (int, map[string]any) {
		e := map[string]any{"type": "preregistration", "operator": v.id, "plan": planDigest(plan), "report_by": reportBy}
		change(e)
		status, ans := call(t, "POST", base+"/api/v1/preregistrations", mustJSON(t, v.sign(t, e)))
		m, _ := ans.(map[string]any)
		return status, m
	}
	same := func(map[string]any) {}
	for name, tc := range map[string]struct {
		v      verifier
		change func(map[string]any)
		status int
		code   string
	}{
		"no identity":       {nobody, same, http.StatusForbidden, "no_identity"},
		"a date past":       {author, func(e map[string]any) { e["report_by"] = "2001-01-01" }, http.StatusBadRequest, "bad_request"},
		"four years out":    {author, func(e map[string]any) { e["report_by"] = time.Now().AddDate(4, 0, 0).Format(time.DateOnly) }, http.StatusBadRequest, "bad_request"},
		"a plan not digest": {author, func(e map[string]any) { e["plan"] = "my plan" }, http.StatusBadRequest, "bad_request"},
		"an unknown member": {author, func(e map[string]any) { e["title"] = "x" }, http.StatusBadRequest, "bad_request"},
	} {
		if status, ans := register(tc.v, tc.change); status != tc.status || ans["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", name, status, ans, tc.status, tc.code)
		}
	}
	status, ans := register(author, same)
	if status != http.StatusCreated || !strings.HasPrefix(ans["preregistration"].(string), "prereg:") {
		t.Fatalf("the registration: %d %v", status, ans)
	}
	id := ans["preregistration"].(string)
	if status, again := register(author, same); status != http.StatusOK || again["preregistration"] != id {
		t.Errorf("the same registration again: %d %v", status, again)
	}

	study := sumBundle(t, author.keyDigest(), "claude", "a planned sum", true)
	study["references.json"] = mustJSON(t, []any{map[string]any{"id": id}})
	wrong := maps.Clone(study)
	wrong["plan/analysis.md"] = []byte("# Plan\n\nWhatever the data say.\n")
	body, _ := signedBody(t, author.key, wrong, nil)
	_, check := call(t, "POST", base+"/api/v1/bundles/check", body)
	if c := check.(map[string]any); c["ready"] != false || !strings.Contains(asJSON(c["issues"]), "digest to") {
		t.Errorf("a bundle whose plan is not the one registered: ready %v, issues %v", c["ready"], c["issues"])
	}
	for p, d := range plan {
		study["plan/"+p] = d
	}
	hash, _ := author.submit(t, base, study)
	b := waitSealed(t, n, hash)
	if _, err := n.ledger.OpenBundle(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	_, v := call(t, "GET", base+"/api/v1/claims/"+b.Claims[0].ID, nil)
	pre, _ := v.(map[string]any)["preregistered"].(map[string]any)
	if pre["preregistration"] != id || pre["days_before_submission"] == nil {
		t.Errorf("the planned claim's preregistered: %v", v.(map[string]any)["preregistered"])
	}
	status, got := call(t, "GET", base+"/api/v1/preregistrations/"+id, nil)
	if status != http.StatusOK || len(got.(map[string]any)["bundles"].([]any)) != 1 {
		t.Errorf("GET the registration: %d %v", status, got)
	}
	if status, _ := call(t, "GET", base+"/api/v1/preregistrations/prereg:nothex", nil); status != http.StatusBadRequest {
		t.Errorf("GET a registration by a bad ID: %d", status)
	}
}

func asJSON(v any) string {
	data, _ := canonical.Marshal(v)
	return string(data)
}
