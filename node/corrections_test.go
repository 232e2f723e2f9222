package node

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
)

// correction is files made a correction of hash: the same study with
// "replaces" in its manifest and, when clearer is set, a paper reworded
// so the bundle changes and its claims do not.
func correction(t *testing.T, files map[string][]byte, hash string) map[string][]byte {
	t.Helper()
	out := maps.Clone(files)
	out["paper.md"] = append(bytes.Clone(out["paper.md"]), "\nSaid more clearly.\n"...)
	v, err := canonical.Parse(out["manifest.json"])
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	m["replaces"] = hash
	out["manifest.json"] = mustJSON(t, m)
	return out
}

// roundWorld starts a node for the verification loop (no timer opens
// bundles, no qualification, no canaries, every bundle free) with an
// author and the five verifiers of its rounds: five organizations, two
// families, none the author's; tweaks change its config.
func roundWorld(t *testing.T, tweaks ...func(*Config)) (n *Node, base string, author verifier, round []verifier) {
	t.Helper()
	cfg := Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll}
	for _, tweak := range tweaks {
		tweak(&cfg)
	}
	n, srv := testNodeWith(t, cfg)
	author = invitedVerifier(t, n, srv.URL, "Author", "claude")
	for i, family := range []string{"gpt", "gemini", "gpt", "gemini", "gpt"} {
		round = append(round, invitedVerifier(t, n, srv.URL, "Round "+itoa(uint64(i)), family))
	}
	return n, srv.URL, author, round
}

// trySubmit sends files signed by v and returns the status and answer.
func (v verifier) trySubmit(t *testing.T, base string, files map[string][]byte) (int, map[string]any) {
	t.Helper()
	body, _ := signedBody(t, v.key, files, nil)
	status, ans := call(t, "POST", base+"/api/v1/bundles", body)
	m, _ := ans.(map[string]any)
	return status, m
}

// TestCorrectionRules checks "Correcting a bundle" on a real node: a
// sealed bundle takes no correction; an open one takes one, its latest
// version, once; a new study repeating a claim of one sealed or published
// is refused as a new version; and a correction of a version whose
// reproduction failed costs half its price, the node paying the rest.
func TestCorrectionRules(t *testing.T) {
	t.Parallel()
	_, base, author, vs := roundWorld(t)
	study := sumBundle(t, author.keyDigest(), "claude", "a study to correct", true)
	first, _ := author.submit(t, base, study)

	refused := func(what string, status int, ans map[string]any, words string) {
		t.Helper()
		if status != http.StatusConflict || ans["code"] != "new_version" || !strings.Contains(ans["error"].(string), words) {
			t.Errorf("%s: %d %v, want 409 new_version saying %q", what, status, ans, words)
		}
	}
	status, ans := author.trySubmit(t, base, correction(t, study, first))
	refused("a correction of a sealed bundle", status, ans, "void it")
	repeat := maps.Clone(study)
	repeat["paper.md"] = append(bytes.Clone(repeat["paper.md"]), "\nAgain.\n"...)
	status, ans = author.trySubmit(t, base, repeat)
	refused("a new study repeating a sealed one's claim", status, ans, `"replaces"`)

	// Its reproductions fail: two organizations find a mismatch.
	for i := range vs {
		vs[i].verdictFor = func(kind, honest string) string {
			if kind == "reproduction" {
				return "mismatch"
			}
			return honest
		}
	}
	work(t, base, vs)
	if status, v := call(t, "GET", base+"/api/v1/bundles/"+first, nil); status != http.StatusOK || v.(map[string]any)["state"] != "open" {
		t.Fatalf("the study after its round: %d %v", status, v)
	}
	claimID := func(hash string) string {
		_, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
		return v.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	}
	_, v := call(t, "GET", base+"/api/v1/claims/"+claimID(first), nil)
	if r := v.(map[string]any)["requirements"].(map[string]any)["reproduced"].(map[string]any); r["failed"] != true || v.(map[string]any)["correct_by"] == nil {
		t.Fatalf("the study's claim after two mismatches: %v, correct_by %v", r, v.(map[string]any)["correct_by"])
	}

	improve := func() []any {
		t.Helper()
		return author.record(t, base)["attention"].(map[string]any)["to_improve"].([]any)
	}
	if ti := improve(); len(ti) != 1 || ti[0].(map[string]any)["bundle"] != first || ti[0].(map[string]any)["correct_by"] == nil ||
		!slices.Equal(ti[0].(map[string]any)["findings"].([]any), []any{"reproduction"}) {
		t.Errorf("the author's attention.to_improve after its reproduction failed: %v", ti)
	}
	fix := correction(t, study, first)
	body, _ := signedBody(t, author.key, fix, nil)
	status, check := call(t, "POST", base+"/api/v1/bundles/check", body)
	price, _ := check.(map[string]any)["price"].(map[string]any)
	if status != http.StatusOK || price["discount"].(float64) <= 0 || price["discount"].(float64)*2 > price["credits"].(float64) {
		t.Errorf("the price of correcting a failed version: %d %v, want half paid by the node", status, price)
	}
	second, _ := author.submit(t, base, fix)
	if ti := improve(); len(ti) != 0 {
		t.Errorf("to_improve while its correction is sealed in review: %v, want none", ti)
	}
	_, bv := call(t, "GET", base+"/api/v1/bundles/"+first, nil)
	if vs := bv.(map[string]any)["versions"].([]any); len(vs) != 2 || vs[0].(map[string]any)["published_at"] == nil ||
		vs[1].(map[string]any)["bundle"] != second || vs[1].(map[string]any)["published_at"] != nil {
		t.Errorf("the corrected bundle's versions: %v, want it published and its correction still sealed", vs)
	}
	again := correction(t, study, first)
	again["paper.md"] = append(again["paper.md"], "Once more.\n"...)
	status, ans = author.trySubmit(t, base, again)
	refused("a second correction of one version", status, ans, "has its correction already")
	status, ans = author.trySubmit(t, base, correction(t, fix, second))
	refused("a correction of a correction still sealed", status, ans, "still sealed")

	// A version whose checks found nothing is corrected at its whole price.
	other := sumBundle(t, author.keyDigest(), "claude", "a study that holds", true)
	third, _ := author.submit(t, base, other)
	for i := range vs {
		vs[i].verdictFor = nil
	}
	work(t, base, vs)
	body, _ = signedBody(t, author.key, correction(t, other, third), nil)
	_, check = call(t, "POST", base+"/api/v1/bundles/check", body)
	if price := check.(map[string]any)["price"].(map[string]any); price["discount"].(float64) != 0 {
		t.Errorf("the price of correcting a version that holds: %v, want no discount", price)
	}
}
