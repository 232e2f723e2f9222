package node

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
)

// servedStandingIsTheLogs recomputes every operator's standing from the
// node's log leaves alone, with the bundles' files and each claim's
// importance as the node serves them, as agora status does, and checks
// that each operator's record serves the same nectar, reputation, limits,
// achievements and rank. It returns the sheet.
func servedStandingIsTheLogs(t *testing.T, base string, raw [][]byte) *standing.Sheet {
	t.Helper()
	d, b := status.New(httpFiles(t, base)), standing.New()
	for i, leaf := range raw {
		if err := d.Add(uint64(i), leaf); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(uint64(i), leaf); err != nil {
			t.Fatal(err)
		}
	}
	sheet, err := b.Sheet(d, time.Now(), func(claim, bundle string) (standing.Rated, error) {
		code, v := call(t, "GET", base+"/api/v1/claims/"+claim, nil)
		if code != http.StatusOK {
			t.Fatalf("GET claim %s: %d %v", claim, code, v)
		}
		return standing.ServedImportance(v.(map[string]any), ledgerhttp.RatingsToReveal)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range sheet.Operators() {
		code, v := call(t, "GET", base+"/api/v1/operators/"+op, nil)
		if code != http.StatusOK {
			t.Fatalf("GET operator %s: %d %v", op, code, v)
		}
		served := map[string]any{}
		for _, k := range standing.RecordKeys {
			served[k] = v.(map[string]any)[k]
		}
		if got, want := asJSON(served), asJSON(sheet.Record(op)); got != want {
			t.Errorf("operator %s: the node serves %s, its log gives %s", op, got, want)
		}
	}
	for _, period := range []string{standing.AllTime, standing.Last30Days} {
		board, _ := sheet.Board(period)
		code, v := call(t, "GET", base+"/api/v1/leaderboard?limit=100&period="+period, nil)
		if code != http.StatusOK {
			t.Fatalf("leaderboard %s: %d %v", period, code, v)
		}
		results := v.(map[string]any)["results"].([]any)
		if len(results) != min(len(board), 100) {
			t.Fatalf("leaderboard %s: %d places served, the log gives %d", period, len(results), len(board))
		}
		for i, p := range board[:len(results)] {
			got := results[i].(map[string]any)
			if got["operator"] != p.Operator || got["nectar"] != float64(p.Nectar) || got["place"] != float64(p.Place) {
				t.Errorf("leaderboard %s place %d: the node serves %v, its log gives %+v", period, i, got, p)
			}
		}
	}
	return sheet
}

// TestBundleLimitIsTheRecords: the daily bundle limit a check reports and
// a submission meets is the one the operator's record gives from its
// reputation, bundles_per_day: an operator at reputation 0 submits ten in
// 24 hours, and the eleventh is refused with 429 rate_limited.
func TestBundleLimitIsTheRecords(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Prolific", "claude")
	record := author.record(t, base)
	checkStandingShapes(t, record)
	rep := record["reputation"].(map[string]any)
	limit := int(rep["limits"].(map[string]any)["bundles_per_day"].(float64))
	if rep["score"] != float64(0) || limit != standing.BaseLimits.BundlesPerDay {
		t.Fatalf("a new operator's reputation: %v, want 0 and %d bundles a day", rep, standing.BaseLimits.BundlesPerDay)
	}
	for i := range limit {
		author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", fmt.Sprintf("limited study %d", i), true))
	}
	body, _ := signedBody(t, author.key, sumBundle(t, author.keyDigest(), "claude", "one too many", true), nil)
	status, check := call(t, "POST", base+"/api/v1/bundles/check", body)
	quota, _ := check.(map[string]any)["quota"].(map[string]any)
	if status != http.StatusOK || quota["limit"] != float64(limit) || quota["remaining"] != float64(0) {
		t.Errorf("the check past the limit: %d, quota %v, want limit %d and none remaining", status, quota, limit)
	}
	status, sub := call(t, "POST", base+"/api/v1/bundles", body)
	if m, _ := sub.(map[string]any); status != http.StatusTooManyRequests || m["code"] != "rate_limited" {
		t.Errorf("the bundle past the limit: %d %v, want 429 rate_limited", status, sub)
	}
}

// checkStandingShapes checks an operator record's standing members have
// the spec's shapes ("Nectar", "Reputation", and "Statuses" for
// attention).
func checkStandingShapes(t *testing.T, record map[string]any) {
	t.Helper()
	keys := func(v any) []string {
		m, _ := v.(map[string]any)
		out := slices.Collect(maps.Keys(m))
		slices.Sort(out)
		return out
	}
	rep, _ := record["reputation"].(map[string]any)
	for what, c := range map[string]struct {
		v    any
		want []string
	}{
		"nectar":            {record["nectar"], []string{"published", "refuted", "retracted", "settled", "share", "total"}},
		"reputation":        {rep, []string{"limits", "parts", "score"}},
		"reputation.limits": {rep["limits"], []string{"attestations_per_day", "bundles_per_day", "posts_per_day", "threads_per_day"}},
		"rank":              {record["rank"], []string{standing.Last30Days, standing.AllTime}},
		"attention":         {record["attention"], []string{"depends_on_refuted", "depends_on_retracted", "forum", "open_challenges", "refuted", "to_improve"}},
	} {
		want := slices.Clone(c.want)
		slices.Sort(want)
		if got := keys(c.v); !slices.Equal(got, want) {
			t.Errorf("%s has %v, want %v", what, got, want)
		}
	}
	badges, _ := record["achievements"].([]any)
	if len(badges) == 0 {
		t.Fatalf("no achievements in %v", record)
	}
	for _, b := range badges {
		if got := keys(b); !slices.Equal(got, []string{"count", "counts", "id", "name", "next", "stars"}) {
			t.Errorf("a badge has %v", got)
		}
	}
}
