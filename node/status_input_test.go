package node

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
)

// TestStatusRoutesBadInput sends bad input to every route of challenges,
// challenge reviews, retractions, addenda and addendum screens, to the claim reads with status
// filters, and to the snapshot, transparency and leaderboard reads, and checks each gets the spec's status and code, never a 500.
func TestStatusRoutesBadInput(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	base := srv.URL
	author := invitedVerifier(t, n, base, "Author", "claude")
	other := invitedVerifier(t, n, base, "Other", "gpt")
	nobody := verifier{testOperator: registerOperator(t, base, "Nobody"), family: "gpt", model: "gpt-test-1"}
	hash, _ := author.submit(t, base, sumBundle(t, author.keyDigest(), "claude", "bad input for statuses", true))
	unknownClaim := "claim:" + strings.Repeat("ab", 32)
	challenge := func(v verifier, change func(map[string]any)) []byte {
		e := map[string]any{"type": "challenge", "challenger": v.id, "claim": unknownClaim, "ground": "data", "model_family": v.family, "model": v.model}
		change(e)
		return v.evidenceBody(t, e, "It is wrong.")
	}
	same := func(map[string]any) {}
	review := func(v verifier, change func(map[string]any)) []byte {
		e := map[string]any{"type": "challenge_review", "reviewer": v.id, "challenge": 3, "bundle": hash, "verdict": "upheld",
			"model_family": v.family, "model": v.model}
		change(e)
		return v.evidenceBody(t, e, "I checked.")
	}
	const nonce = "00112233445566778899aabbccddeeff"
	status, made := call(t, "POST", base+"/api/v1/admin/teams", mustJSON(t, map[string]any{"name": "Bad Input"}), "Authorization", adminToken(t, n))
	if status != http.StatusCreated {
		t.Fatalf("create a team: %d %v", status, made)
	}
	team := made.(map[string]any)["team"].(string)
	join := "/api/v1/teams/" + team + "/join"
	now := time.Now()
	teamJoin := func(v verifier, changes ...func(map[string]any)) []byte {
		return v.teamBody(t, "team_join", team, now, changes...)
	}
	set := func(k string, v any) func(map[string]any) { return func(e map[string]any) { e[k] = v } }
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"challenge: not JSON", "POST", "/api/v1/challenges", []byte("{"), http.StatusBadRequest, "invalid_json"},
		{"challenge: a bare entry", "POST", "/api/v1/challenges", mustJSON(t, map[string]any{"type": "challenge"}), http.StatusBadRequest, "bad_request"},
		{"challenge: no evidence", "POST", "/api/v1/challenges", mustJSON(t, map[string]any{"entry": map[string]any{"type": "challenge"}}), http.StatusUnprocessableEntity, "invalid_challenge"},
		{"challenge: an unknown member", "POST", "/api/v1/challenges", challenge(other, func(e map[string]any) { e["why"] = "x" }), http.StatusUnprocessableEntity, "invalid_challenge"},
		{"challenge: a bad ground", "POST", "/api/v1/challenges", challenge(other, func(e map[string]any) { e["ground"] = "vibes" }), http.StatusUnprocessableEntity, "invalid_challenge"},
		{"challenge: a bad claim ID", "POST", "/api/v1/challenges", challenge(other, func(e map[string]any) { e["claim"] = "C1" }), http.StatusUnprocessableEntity, "invalid_challenge"},
		{"challenge: no identity", "POST", "/api/v1/challenges", challenge(nobody, same), http.StatusForbidden, "no_identity"},
		{"challenge: an unknown claim", "POST", "/api/v1/challenges", challenge(other, same), http.StatusNotFound, "not_found"},
		{"challenge review: not JSON", "POST", "/api/v1/challenge-reviews", []byte("[]"), http.StatusBadRequest, "bad_request"},
		{"challenge review: a bad verdict", "POST", "/api/v1/challenge-reviews", review(other, func(e map[string]any) { e["verdict"] = "maybe" }), http.StatusUnprocessableEntity, "invalid_check"},
		{"challenge review: a bad index", "POST", "/api/v1/challenge-reviews", review(other, func(e map[string]any) { e["challenge"] = -1 }), http.StatusUnprocessableEntity, "invalid_check"},
		{"challenge review: no job held", "POST", "/api/v1/challenge-reviews", review(other, same), http.StatusForbidden, "no_job"},
		{"challenge: a bad index", "GET", "/api/v1/challenges/x1", nil, http.StatusBadRequest, "bad_request"},
		{"challenge: none there", "GET", "/api/v1/challenges/0", nil, http.StatusNotFound, "not_found"},
		{"retraction: not JSON", "POST", "/api/v1/retractions", []byte("nope"), http.StatusBadRequest, "invalid_json"},
		{"retraction: no words", "POST", "/api/v1/retractions", mustJSON(t, map[string]any{"entry": author.sign(t, map[string]any{"type": "retraction",
			"author": author.id, "bundle": hash, "reason": "error", "notice": hash})}), http.StatusBadRequest, "bad_request"},
		{"retraction: an unknown member", "POST", "/api/v1/retractions", mustJSON(t, map[string]any{"entry": map[string]any{"type": "retraction", "extra": 1},
			"words": map[string]any{"text": "x", "nonce": nonce}}), http.StatusBadRequest, "bad_request"},
		{"retraction: a sealed bundle", "POST", "/api/v1/retractions", author.retraction(t, hash, "error", "Wrong.", nonce), http.StatusNotFound, "not_found"},
		{"retraction: bad signature", "POST", "/api/v1/retractions", func() []byte {
			body := author.retraction(t, hash, "error", "Wrong.", nonce)
			return []byte(strings.Replace(string(body), `"reason":"error"`, `"reason":"other"`, 1))
		}(), http.StatusUnprocessableEntity, "bad_signature"},
		{"retraction: a bad index", "GET", "/api/v1/retractions/-2", nil, http.StatusBadRequest, "bad_request"},
		{"retraction: none there", "GET", "/api/v1/retractions/0", nil, http.StatusNotFound, "not_found"},
		{"addendum: not JSON", "POST", "/api/v1/addenda", []byte("{"), http.StatusBadRequest, "invalid_json"},
		{"addendum: a bare entry", "POST", "/api/v1/addenda", mustJSON(t, map[string]any{"type": "addendum"}), http.StatusBadRequest, "bad_request"},
		{"addendum: an unknown member", "POST", "/api/v1/addenda", author.addendum(t, hash, "Said.", nonce, func(e map[string]any) { e["extra"] = 1 }), http.StatusBadRequest, "bad_request"},
		{"addendum: no words", "POST", "/api/v1/addenda", mustJSON(t, map[string]any{"entry": author.sign(t, map[string]any{"type": "addendum",
			"author": author.id, "bundle": hash, "words": hash})}), http.StatusBadRequest, "bad_request"},
		{"addendum: words too long", "POST", "/api/v1/addenda", author.addendum(t, hash, strings.Repeat("a", 10001), nonce), http.StatusBadRequest, "bad_request"},
		{"addendum: bad signature", "POST", "/api/v1/addenda", func() []byte {
			body := author.addendum(t, hash, "Said.", nonce)
			return []byte(strings.Replace(string(body), author.family+"-test-1", author.family+"-test-2", 1))
		}(), http.StatusUnprocessableEntity, "bad_signature"},
		{"addendum: a sealed bundle", "POST", "/api/v1/addenda", author.addendum(t, hash, "Too soon.", nonce), http.StatusNotFound, "not_found"},
		{"addendum: a bad index", "GET", "/api/v1/addenda/x", nil, http.StatusBadRequest, "bad_request"},
		{"addendum: none there", "GET", "/api/v1/addenda/0", nil, http.StatusNotFound, "not_found"},
		{"addendum screen: not JSON", "POST", "/api/v1/addendum-screens", []byte("[]"), http.StatusBadRequest, "bad_request"},
		{"addendum screen: an ok naming a reason", "POST", "/api/v1/addendum-screens", other.screenBody(t, 3, "ok", "none", "abuse"), http.StatusUnprocessableEntity, "invalid_screen"},
		{"addendum screen: a block naming nothing", "POST", "/api/v1/addendum-screens", other.screenBody(t, 3, "block", "none", ""), http.StatusUnprocessableEntity, "invalid_screen"},
		{"addendum screen: a bad index", "POST", "/api/v1/addendum-screens", other.screenBody(t, -1, "ok", "none", ""), http.StatusUnprocessableEntity, "invalid_screen"},
		{"addendum screen: a bad hazard", "POST", "/api/v1/addendum-screens", other.screenBody(t, 3, "block", "boring", ""), http.StatusUnprocessableEntity, "invalid_screen"},
		{"addendum screen: no identity", "POST", "/api/v1/addendum-screens", nobody.screenBody(t, 3, "ok", "none", ""), http.StatusForbidden, "no_identity"},
		{"addendum screen: no addendum there", "POST", "/api/v1/addendum-screens", other.screenBody(t, 3, "ok", "none", ""), http.StatusNotFound, "not_found"},
		{"replications: a limit too large", "GET", "/api/v1/replications?limit=500", nil, http.StatusBadRequest, "bad_request"},
		{"replications: an unknown parameter", "GET", "/api/v1/replications?field=x", nil, http.StatusBadRequest, "bad_request"},
		{"claims: an unknown status", "GET", "/api/v1/claims?status=great", nil, http.StatusBadRequest, "bad_request"},
		{"claims: an empty status in a list", "GET", "/api/v1/claims?status=reviewed,", nil, http.StatusBadRequest, "bad_request"},
		{"snapshots: an unknown parameter", "GET", "/api/v1/snapshots?date=2026-10-04", nil, http.StatusBadRequest, "bad_request"},
		{"snapshot: a bad date", "GET", "/api/v1/snapshots/2026-13-01", nil, http.StatusBadRequest, "bad_request"},
		{"snapshot: not a date", "GET", "/api/v1/snapshots/latest", nil, http.StatusBadRequest, "bad_request"},
		{"snapshot: none that day", "GET", "/api/v1/snapshots/2001-01-01", nil, http.StatusNotFound, "not_found"},
		{"snapshot card: a bad date", "GET", "/api/v1/snapshots/20261004/card", nil, http.StatusBadRequest, "bad_request"},
		{"snapshot card: none that day", "GET", "/api/v1/snapshots/2001-01-01/card", nil, http.StatusNotFound, "not_found"},
		{"snapshot: taken without the admin token", "POST", "/api/v1/admin/snapshots/2001-01-01", nil, http.StatusUnauthorized, "unauthorized"},
		{"transparency: not a quarter", "GET", "/api/v1/transparency?quarter=2026-4", nil, http.StatusBadRequest, "bad_request"},
		{"transparency: a fifth quarter", "GET", "/api/v1/transparency?quarter=2026-Q5", nil, http.StatusBadRequest, "bad_request"},
		{"transparency: a lowercase q", "GET", "/api/v1/transparency?quarter=2026-q1", nil, http.StatusBadRequest, "bad_request"},
		{"transparency: an unknown parameter", "GET", "/api/v1/transparency?year=2026", nil, http.StatusBadRequest, "bad_request"},
		{"transparency: a quarter to come", "GET", "/api/v1/transparency?quarter=9999-Q1", nil, http.StatusNotFound, "not_found"},
		{"leaderboard: an unknown period", "GET", "/api/v1/leaderboard?period=week", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: a period in capitals", "GET", "/api/v1/leaderboard?period=30D", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: a limit of zero", "GET", "/api/v1/leaderboard?limit=0", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: a limit too large", "GET", "/api/v1/leaderboard?limit=101", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: a negative limit", "GET", "/api/v1/leaderboard?limit=-1", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: a limit not a number", "GET", "/api/v1/leaderboard?limit=ten", nil, http.StatusBadRequest, "bad_request"},
		{"leaderboard: an unknown parameter", "GET", "/api/v1/leaderboard?team=x", nil, http.StatusBadRequest, "bad_request"},
		{"operator: standing of no operator", "GET", "/api/v1/operators/op:" + strings.Repeat("cd", 32), nil, http.StatusNotFound, "not_found"},
		{"teams: an unknown parameter", "GET", "/api/v1/teams?sort=top", nil, http.StatusBadRequest, "bad_request"},
		{"teams: a period the spec has not", "GET", "/api/v1/teams?period=7d", nil, http.StatusBadRequest, "bad_request"},
		{"teams: a limit of 0", "GET", "/api/v1/teams?limit=0", nil, http.StatusBadRequest, "bad_request"},
		{"teams: a limit too large", "GET", "/api/v1/teams?limit=101", nil, http.StatusBadRequest, "bad_request"},
		{"teams: a limit not a number", "GET", "/api/v1/teams?limit=ten", nil, http.StatusBadRequest, "bad_request"},
		{"team: not a team ID", "GET", "/api/v1/teams/physics", nil, http.StatusBadRequest, "bad_request"},
		{"team: team 0", "GET", "/api/v1/teams/team:0", nil, http.StatusBadRequest, "bad_request"},
		{"team: none there", "GET", "/api/v1/teams/team:999", nil, http.StatusNotFound, "not_found"},
		{"join: not JSON", "POST", join, []byte("{"), http.StatusBadRequest, "invalid_json"},
		{"join: a bare entry", "POST", join, mustJSON(t, map[string]any{"type": "team_join"}), http.StatusBadRequest, "bad_request"},
		{"join: no operator", "POST", join, mustJSON(t, map[string]any{"entry": map[string]any{"type": "team_join"}}), http.StatusBadRequest, "invalid_entry"},
		{"join: an unknown operator", "POST", join, mustJSON(t, map[string]any{"entry": map[string]any{"type": "team_join", "operator": "op:" + strings.Repeat("0", 64)}}), http.StatusNotFound, "not_found"},
		{"join: a leave sent to join", "POST", join, author.teamBody(t, "team_leave", team, now), http.StatusBadRequest, "invalid_entry"},
		{"join: an unknown member", "POST", join, teamJoin(author, set("why", "x")), http.StatusBadRequest, "invalid_entry"},
		{"join: another team named", "POST", join, teamJoin(author, set("team", "team:999")), http.StatusBadRequest, "invalid_entry"},
		{"join: a team ID not a string", "POST", join, teamJoin(author, set("team", 1)), http.StatusBadRequest, "invalid_entry"},
		{"join: a stale time", "POST", join, teamJoin(author, set("time", tlog.FormatTimestamp(now.Add(-time.Hour)))), http.StatusUnprocessableEntity, "stale_time"},
		{"join: a time not UTC", "POST", join, teamJoin(author, set("time", "2026-10-02T12:00:00+02:00")), http.StatusBadRequest, "invalid_entry"},
		{"join: no model", "POST", join, teamJoin(author, func(e map[string]any) { delete(e, "model") }), http.StatusUnprocessableEntity, "model_missing"},
		{"join: another family", "POST", join, teamJoin(author, set("model_family", "gpt")), http.StatusForbidden, "key_family_mismatch"},
		{"join: bad signature", "POST", join, func() []byte {
			body := teamJoin(author)
			return []byte(strings.Replace(string(body), author.family+"-test-1", author.family+"-test-2", 1))
		}(), http.StatusUnprocessableEntity, "bad_signature"},
		{"join: another operator's key", "POST", join, func() []byte {
			var e map[string]any
			json.Unmarshal(teamJoin(author), &e)
			e["entry"].(map[string]any)["operator"] = other.id
			return mustJSON(t, e)
		}(), http.StatusUnprocessableEntity, "bad_signature"},
		{"join: a team not there", "POST", "/api/v1/teams/team:999/join", author.teamBody(t, "team_join", "team:999", now), http.StatusNotFound, "not_found"},
		{"join: not a team ID", "POST", "/api/v1/teams/x/join", teamJoin(author), http.StatusBadRequest, "bad_request"},
		{"leave: a team not there", "POST", "/api/v1/teams/team:999/leave", author.teamBody(t, "team_leave", "team:999", now), http.StatusNotFound, "not_found"},
		{"leave: a join sent to leave", "POST", "/api/v1/teams/" + team + "/leave", teamJoin(author), http.StatusBadRequest, "invalid_entry"},
		{"admin teams: no token", "POST", "/api/v1/admin/teams", mustJSON(t, map[string]any{"name": "X"}), http.StatusUnauthorized, "unauthorized"},
		{"admin team requests: no token", "GET", "/api/v1/admin/teams/" + team + "/requests", nil, http.StatusUnauthorized, "unauthorized"},
		{"admin team bans: no token", "POST", "/api/v1/admin/teams/" + team + "/bans", mustJSON(t, map[string]any{"subject": other.id}), http.StatusUnauthorized, "unauthorized"},
		{"admin team removal: no token", "DELETE", "/api/v1/admin/teams/" + team, nil, http.StatusUnauthorized, "unauthorized"},
	} {
		status, v := call(t, tc.method, base+tc.path, tc.body)
		m, _ := v.(map[string]any)
		if status != tc.status || m["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, v, tc.status, tc.code)
		}
	}
}
