package node

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/agora-node/agora/canonical"
)

// retraction is v's signed retraction of bundle with a notice text, as
// {"entry", "words"}.
func (v verifier) retraction(t *testing.T, bundle, reason, text, nonce string) []byte {
	t.Helper()
	w := map[string]any{"text": text, "nonce": nonce}
	data, err := canonical.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	entry := v.sign(t, map[string]any{"type": "retraction", "author": v.id, "bundle": bundle, "reason": reason, "notice": canonical.Digest(data)})
	return mustJSON(t, map[string]any{"entry": entry, "words": w})
}

// TestRetraction retracts a published paper on a real node: only its
// author can, once; its claims are Retracted with their hallmarks
// overridden, the paper and its notice stay readable, it takes no
// correction, and its work may go up again as a new bundle.
func TestRetraction(t *testing.T) {
	t.Parallel()
	_, base, author, round := roundWorld(t)
	study := sumBundle(t, author.keyDigest(), "claude", "a paper to retract", true)
	hash, _ := author.submit(t, base, study)
	const nonce = "00112233445566778899aabbccddeeff"
	if status, v := call(t, "POST", base+"/api/v1/retractions", author.retraction(t, hash, "error", "Wrong.", nonce)); status != http.StatusNotFound {
		t.Errorf("retracting a sealed bundle: %d %v, want 404", status, v)
	}
	work(t, base, round)

	for name, tc := range map[string]struct {
		body   []byte
		status int
		code   string
	}{
		"another operator":   {round[0].retraction(t, hash, "error", "Not mine.", nonce), http.StatusForbidden, "not_author"},
		"a reason not known": {author.retraction(t, hash, "boredom", "Dull.", nonce), http.StatusBadRequest, "bad_request"},
		"a short nonce":      {author.retraction(t, hash, "error", "Wrong.", "0011"), http.StatusBadRequest, "bad_request"},
		"words not the notice": {func() []byte {
			var v map[string]any
			body := author.retraction(t, hash, "error", "Wrong.", nonce)
			if err := canonicalUnmarshal(body, &v); err != nil {
				t.Fatal(err)
			}
			v["words"].(map[string]any)["text"] = "Something else."
			return mustJSON(t, v)
		}(), http.StatusUnprocessableEntity, "notice_mismatch"},
	} {
		if status, v := call(t, "POST", base+"/api/v1/retractions", tc.body); status != tc.status || v.(map[string]any)["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", name, status, v, tc.status, tc.code)
		}
	}

	body := author.retraction(t, hash, "error", "The total was summed from the wrong column; C1 does not hold.", nonce)
	status, v := call(t, "POST", base+"/api/v1/retractions", body)
	if status != http.StatusCreated || v.(map[string]any)["reason"] != "error" || v.(map[string]any)["text"] == nil {
		t.Fatalf("the retraction: %d %v", status, v)
	}
	index := uint64(v.(map[string]any)["retraction"].(float64))
	if status, v := call(t, "POST", base+"/api/v1/retractions", body); status != http.StatusOK || uint64(v.(map[string]any)["retraction"].(float64)) != index {
		t.Errorf("the same retraction again: %d %v, want 200 with it", status, v)
	}
	if status, v := call(t, "POST", base+"/api/v1/retractions", author.retraction(t, hash, "other", "Again.", nonce)); status != http.StatusConflict || v.(map[string]any)["code"] != "retracted" {
		t.Errorf("a second retraction: %d %v, want 409 retracted", status, v)
	}
	_, bv := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	b := bv.(map[string]any)
	if b["state"] != "open" || b["retraction"] == nil || len(b["files"].(map[string]any)) == 0 {
		t.Errorf("the retracted paper: state %v, retraction %v, %d files; want it readable and marked", b["state"], b["retraction"], len(b["files"].(map[string]any)))
	}
	claim := b["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	_, cv := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
	if got := cv.(map[string]any)["statuses"].([]any); !slices.Equal(got, []any{"published", "retracted"}) {
		t.Errorf("the retracted paper's claim: %v, want published and retracted", got)
	}
	if status, v := call(t, "GET", base+"/api/v1/retractions", nil); status != http.StatusOK || len(v.(map[string]any)["retractions"].([]any)) != 1 {
		t.Errorf("GET /api/v1/retractions: %d %v", status, v)
	}
	if status, v := call(t, "GET", base+"/api/v1/retractions/"+itoa(index), nil); status != http.StatusOK || v.(map[string]any)["bundle"] != hash {
		t.Errorf("GET /api/v1/retractions/%d: %d %v", index, status, v)
	}
	if status, _ := call(t, "GET", base+"/api/v1/retractions/"+itoa(index+1000), nil); status != http.StatusNotFound {
		t.Errorf("GET a retraction where none is: %d", status)
	}

	status, ans := author.trySubmit(t, base, correction(t, study, hash))
	if status != http.StatusConflict || ans["code"] != "new_version" {
		t.Errorf("a correction of a retracted paper: %d %v, want 409 new_version", status, ans)
	}
	again := maps.Clone(study)
	again["paper.md"] = append(bytes.Clone(again["paper.md"]), "\nFixed and sent again.\n"...)
	if status, ans := author.trySubmit(t, base, again); status != http.StatusAccepted {
		t.Errorf("the retracted work sent again as a new bundle: %d %v, want 202", status, ans)
	}
}

func canonicalUnmarshal(data []byte, v *map[string]any) error {
	got, err := canonical.Parse(data)
	if err == nil {
		*v = got.(map[string]any)
	}
	return err
}
