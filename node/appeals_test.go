package node

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/tlog"
)

// TestAppeal appeals a failed reproduction on a real node: only the
// author may, with the credit the reproductions cost; the appeal's
// reproductions go to organizations that never verified the bundle, and
// when they reproduce it the claim is no longer failed and is Reproduced.
func TestAppeal(t *testing.T) {
	t.Parallel()
	n, base, author, round := roundWorld(t)
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "a sum appealed", true))
	for i := range round {
		round[i].verdictFor = func(kind, honest string) string {
			if kind == "reproduction" {
				return "mismatch"
			}
			return honest
		}
	}
	work(t, base, round)
	_, bv := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	claim := bv.(map[string]any)["claims"].([]any)[0].(map[string]any)["claim_id"].(string)
	appeal := func(v verifier) (int, map[string]any) {
		t.Helper()
		e := v.sign(t, map[string]any{"type": "appeal_request", "operator": v.id, "bundle": hash, "time": tlog.FormatTimestamp(time.Now())})
		status, ans := call(t, "POST", base+"/api/v1/bundles/"+hash+"/appeal", mustJSON(t, map[string]any{"entry": e}))
		m, _ := ans.(map[string]any)
		return status, m
	}
	if status, ans := appeal(round[0]); status != http.StatusForbidden || ans["code"] != "not_author" {
		t.Errorf("an appeal by another operator: %d %v", status, ans)
	}
	if status, ans := appeal(author); status != http.StatusForbidden || ans["code"] != "verify_first" {
		t.Errorf("an appeal its author cannot pay for: %d %v", status, ans)
	}
	// A person gave the author credit.
	if _, err := n.store.AddMovements(t.Context(), []jobs.Movement{{Operator: author.id, Kind: jobs.Earned, Amount: 20, Key: "test:credit", At: time.Now()}}); err != nil {
		t.Fatal(err)
	}
	status, ans := appeal(author)
	if status != http.StatusCreated || ans["state"] != "open" || ans["reproductions"].(float64) < 1 {
		t.Fatalf("the appeal: %d %v", status, ans)
	}
	if status, again := appeal(author); status != http.StatusOK || again["appeal"] != ans["appeal"] {
		t.Errorf("asking again while it is open: %d %v, want it returned", status, again)
	}
	verifiedBefore := map[string]bool{}
	for _, v := range round {
		verifiedBefore[v.id] = true
	}
	var fresh []verifier
	for i, family := range []string{"gpt", "gemini", "llama", "mistral", "qwen"} {
		v := invitedVerifier(t, n, base, "Appeal "+itoa(uint64(i)), family)
		fresh = append(fresh, v)
	}
	// The sweep settles appeals every few seconds; settling before each
	// answer makes sure it runs after the reproductions that take the
	// failure away, and must leave the appeal's last ones to be done.
	did := workAround(t, base, append(slices.Clone(round), fresh...), func(job map[string]any, answer func()) {
		if job["kind"] == "reproduction" {
			if err := n.ledger.SettleAppealsOnce(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		answer()
	})
	reproduced := 0
	for _, d := range did[hash] {
		if d.kind == "reproduction" {
			if verifiedBefore[d.by.id] {
				t.Errorf("an appeal's reproduction went to %s, whose organization verified the bundle", d.by.name)
			}
			reproduced++
		}
	}
	if reproduced != int(ans["reproductions"].(float64)) {
		t.Errorf("%d appeal reproductions done, want %v", reproduced, ans["reproductions"])
	}
	_, cv := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
	c := cv.(map[string]any)
	if !slices.Contains(c["statuses"].([]any), any("reproduced")) || c["correct_by"] != nil {
		t.Errorf("the appealed claim: %v, correct_by %v", c["statuses"], c["correct_by"])
	}
	if aps := c["appeals"].([]any); len(aps) != 1 || aps[0].(map[string]any)["done"] != ans["reproductions"] {
		t.Errorf("the claim's appeals: %v", aps)
	}
	if status, ans := appeal(author); status != http.StatusConflict || ans["code"] != "nothing_to_appeal" {
		t.Errorf("an appeal with nothing failed: %d %v", status, ans)
	}
}
