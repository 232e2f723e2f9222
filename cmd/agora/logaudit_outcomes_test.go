package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// sealAndOpen logs a sealed commitment to a bundle entry by key and then
// the entry revealed, with claims in its leaf, returning the sealed index.
func (f *fakeLog) sealAndOpen(id string, key *hybrid.PrivateKey, hash string, claims ...string) uint64 {
	f.t.Helper()
	entry := map[string]any{"type": "bundle", "bundle": hash}
	if err := protocol.Sign(entry, key); err != nil {
		f.t.Fatal(err)
	}
	salt, _ := protocol.NewSalt()
	commitment, err := protocol.SealSigned(entry, salt)
	if err != nil {
		f.t.Fatal(err)
	}
	sealed, _ := protocol.SignSealed(commitment, f.key)
	at := f.append(sealed, nil)
	f.append(entry, map[string]any{"operator": id, "claims": toAny(claims), "fields": []any{}, "sealed": map[string]any{"index": float64(at), "salt": salt}})
	return at
}

// TestLogVerifyWithdrawals: what the log settles about a withdrawn bundle
// is checked against what the node serves. A node that serves the
// withdrawn bundle as open, gives its tombstone another reason, still
// serves its claim's words, says its sealed entry is still sealed, or
// serves a bundle the log never withdrew as withdrawn, or shows a
// reviewer's hazard_concerns other than its concerns on the log and the
// panels' withdrawals allow, is caught (exit 1); a node that serves them
// as the log says passes.
func TestLogVerifyWithdrawals(t *testing.T) {
	f := newFakeLog(t)
	id, key := f.operator()
	gone := "sha256:" + strings.Repeat("ab", 32)
	kept := "sha256:" + strings.Repeat("cd", 32)
	claim := "claim:" + strings.Repeat("12", 32)
	sealedAt := f.sealAndOpen(id, key, gone, claim)
	f.sealAndOpen(id, key, kept)
	for hash, verdict := range map[string]string{gone: "biological", kept: "cyber"} {
		review := map[string]any{"type": "hazard_review", "reviewer": id, "bundle": hash, "verdict": verdict}
		protocol.Sign(review, key)
		f.append(review, map[string]any{"operator": id})
	}
	withdrawal := map[string]any{"type": "withdrawal", "bundle": gone, "reason": "hazard"}
	protocol.Sign(withdrawal, f.key)
	wAt := f.append(withdrawal, nil)
	f.sign(f.clock.Add(time.Second))
	url := f.serve()

	honest := func() map[string]any {
		return map[string]any{
			"/api/v1/bundles/" + gone: map[string]any{"bundle": gone, "state": "withdrawn", "withdrawn_entry": wAt,
				"tombstone": map[string]any{"reason": "hazard", "withdrawal": wAt}, "files": nil, "claims": nil},
			"/api/v1/bundles/" + kept: map[string]any{"bundle": kept, "state": "open", "withdrawn_entry": nil, "files": map[string]any{}, "claims": []any{}},
			"/api/v1/claims/" + claim: map[string]any{"claim_id": claim, "claim": nil, "statement": nil, "statuses": []any{"unavailable"},
				"bundles": []any{map[string]any{"bundle": gone, "withdrawn": true}}},
			"/api/v1/sealed/" + strconv.FormatUint(sealedAt, 10): map[string]any{"sealed": sealedAt, "state": "withdrawn", "withdrawn_in": wAt},
			"/api/v1/operators/" + id:                            map[string]any{"operator": id, "hazard_concerns": map[string]any{"upheld": 1, "overturned": 1}},
		}
	}
	f.served = honest()
	out, _ := verifyLog(t, 0, url, filepath.Join(t.TempDir(), "pin.json"))
	for _, want := range []string{
		"the node serves 1 withdrawn bundles as their withdrawals say (tombstone, no files, claims unavailable) and 1 opened bundles as not withdrawn",
		"1 operators' hazard_concerns agree with the concerns the log holds",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}

	for _, c := range []struct {
		name   string
		change func(m map[string]any)
		want   string
	}{
		{"served open", func(m map[string]any) {
			m["/api/v1/bundles/"+gone] = map[string]any{"bundle": gone, "state": "open", "files": map[string]any{"paper.md": "sha256:" + strings.Repeat("0", 64)}}
		}, `but the node serves it as "open"`},
		{"another reason", func(m map[string]any) {
			m["/api/v1/bundles/"+gone].(map[string]any)["tombstone"] = map[string]any{"reason": "voided"}
		}, `for "hazard", but its tombstone gives voided`},
		{"wrong withdrawn_entry", func(m map[string]any) {
			m["/api/v1/bundles/"+gone].(map[string]any)["withdrawn_entry"] = wAt - 1
		}, "as its withdrawn_entry"},
		{"files still listed", func(m map[string]any) {
			m["/api/v1/bundles/"+gone].(map[string]any)["files"] = map[string]any{"paper.md": "sha256:" + strings.Repeat("0", 64)}
		}, "still lists 1 of its files"},
		{"claim words served", func(m map[string]any) {
			m["/api/v1/claims/"+claim].(map[string]any)["statement"] = "Cold fusion works"
		}, "still has its words served"},
		{"claim not unavailable", func(m map[string]any) {
			m["/api/v1/claims/"+claim].(map[string]any)["statuses"] = []any{"published"}
		}, "not unavailable"},
		{"claim gone", func(m map[string]any) { delete(m, "/api/v1/claims/"+claim) }, "stays on the record as Unavailable"},
		{"sealed entry not withdrawn", func(m map[string]any) {
			m["/api/v1/sealed/"+strconv.FormatUint(sealedAt, 10)] = map[string]any{"sealed": sealedAt, "state": "sealed"}
		}, "but the node says that entry is sealed"},
		{"an upheld concern not counted", func(m map[string]any) {
			m["/api/v1/operators/"+id] = map[string]any{"operator": id, "hazard_concerns": map[string]any{"upheld": 0, "overturned": 1}}
		}, "shows 0 hazard concerns upheld, but the log shows 1 upheld"},
		{"overturned inflated", func(m map[string]any) {
			m["/api/v1/operators/"+id] = map[string]any{"operator": id, "hazard_concerns": map[string]any{"upheld": 1, "overturned": 2}}
		}, "shows 2 hazard concerns overturned, but the log shows 1 on bundles that opened"},
		{"no hazard_concerns", func(m map[string]any) {
			m["/api/v1/operators/"+id] = map[string]any{"operator": id}
		}, "has no hazard_concerns"},
		{"a withdrawal the log lacks", func(m map[string]any) {
			m["/api/v1/bundles/"+kept] = map[string]any{"bundle": kept, "state": "withdrawn", "withdrawn_entry": wAt, "tombstone": map[string]any{"reason": "hazard"}}
		}, "holds no withdrawal of it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			served := honest()
			c.change(served)
			f.mu.Lock()
			f.served = served
			f.mu.Unlock()
			_, errOut := verifyLog(t, 1, url, filepath.Join(t.TempDir(), "pin.json"))
			if !strings.Contains(errOut, c.want) {
				t.Errorf("no %q in:\n%s", c.want, errOut)
			}
		})
	}

	// Withdrawn after the head a run verifies: not the log's to settle yet.
	served := honest()
	served["/api/v1/bundles/"+kept] = map[string]any{"bundle": kept, "state": "withdrawn", "withdrawn_entry": wAt + 1, "tombstone": map[string]any{"reason": "hazard"}}
	f.mu.Lock()
	f.served = served
	f.mu.Unlock()
	verifyLog(t, 0, url, filepath.Join(t.TempDir(), "pin.json"))
}
