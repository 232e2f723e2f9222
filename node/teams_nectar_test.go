package node

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/standing"
)

// span is the times an operator was on the team as the test saw them:
// it joined between joined[0] and joined[1], and left between left[0]
// and left[1] (left zero while it stays).
type span struct {
	joined, left [2]time.Time
}

// holds reports whether the span holds an event at at, or fails the test
// when at falls within a move's call, where the test can't tell.
func (s span) holds(t *testing.T, at time.Time) bool {
	t.Helper()
	for _, call := range [][2]time.Time{s.joined, s.left} {
		if !call[0].IsZero() && !at.Before(call[0]) && !at.After(call[1]) {
			t.Fatalf("a nectar event at %s falls within a move's call, %s to %s", at, call[0], call[1])
		}
	}
	return !at.Before(s.joined[1]) && (s.left[0].IsZero() || at.Before(s.left[0]))
}

// TestTeamNectarIsTheMembers runs a history on a real node, with the
// node's own nectar accounting (no test hook): two authors publish
// studies a round of verifiers reproduces and rates, so their claims earn
// nectar. Ada is on the team from the start (her person is) and leaves
// halfway; Bo asks its captain halfway and is approved. The team's nectar,
// as GET /api/v1/teams/{id} and GET /api/v1/teams serve it, must equal the
// sum of the nectar events of its members dated inside their spans, those
// events derived by ledger/standing from the log read back over HTTP (and
// checked against every record the node serves); and what each side of a
// span earned must be above zero, so that the spans cut something.
func TestTeamNectarIsTheMembers(t *testing.T) {
	t.Parallel()
	n, base, ada, round := roundWorld(t)
	for i, family := range []string{"llama", "gpt", "gemini"} {
		round = append(round, invitedVerifier(t, n, base, fmt.Sprintf("Round %d", 5+i), family))
	}
	for i := range round {
		round[i].importance = 30 + 7*i
	}
	bo := invitedVerifier(t, n, base, "Bo", "claude")
	adminAuth := []string{"Authorization", adminToken(t, n)}
	status, made := teamCall(t, "POST", base+"/api/v1/admin/teams", mustJSON(t, map[string]any{"name": "Tuesday Night Physics"}), adminAuth...)
	wantAnswer(t, "create a team", status, made, http.StatusCreated, "")
	team := made["team"].(string)
	join := func(v verifier) (int, map[string]any) {
		return teamCall(t, "POST", base+"/api/v1/teams/"+team+"/join", v.teamBody(t, "team_join", team, time.Now()))
	}
	spans := map[string]*span{ada.id: {}, bo.id: {}}

	// Ada's person is on the team: she is, and her own join says so.
	spans[ada.id].joined[0] = time.Now()
	status, body := teamCall(t, "POST", base+"/api/v1/admin/teams/"+team+"/people", mustJSON(t, map[string]any{"person": ada.org}), adminAuth...)
	if status != http.StatusOK || body["moved"] != float64(1) {
		t.Fatalf("Ada's person joins: %d %v", status, body)
	}
	if status, body := join(ada); status != http.StatusOK || body["status"] != "joined" {
		t.Fatalf("Ada joins the team she is on: %d %v", status, body)
	}
	spans[ada.id].joined[1] = time.Now()

	var hashes []string
	studies := func(phase string) {
		for _, v := range []verifier{ada, bo} {
			for i := range 2 {
				h, _ := v.submit(t, base, sumBundle(t, v.keyDigest(), v.family, fmt.Sprintf("%s's %s study %d", v.name, phase, i), true))
				hashes = append(hashes, h)
			}
		}
		workUntilOpen(t, base, round, hashes)
		work(t, base, round) // the ratings of the last to open
	}
	studies("first")

	// Halfway: Bo asks the captain, who approves; Ada leaves.
	spans[bo.id].joined[0], spans[ada.id].left[0] = time.Now(), time.Now()
	status, body = join(bo)
	if status != http.StatusOK || body["status"] != "requested" {
		t.Fatalf("Bo asks to join: %d %v", status, body)
	}
	status, body = teamCall(t, "POST", fmt.Sprintf("%s/api/v1/admin/teams/%s/requests/%v", base, team, body["request"]),
		mustJSON(t, map[string]any{"approve": true}), adminAuth...)
	if status != http.StatusOK || body["status"] != "approved" {
		t.Fatalf("the captain approves Bo: %d %v", status, body)
	}
	status, body = teamCall(t, "POST", base+"/api/v1/teams/"+team+"/leave", ada.teamBody(t, "team_leave", team, time.Now()))
	if status != http.StatusOK || body["moved"] != true {
		t.Fatalf("Ada leaves: %d %v", status, body)
	}
	spans[bo.id].joined[1], spans[ada.id].left[1] = time.Now(), time.Now()

	studies("second")

	// The team as first read, before any record: what it serves is as of
	// the log now, not a sheet made for a limit's check at a submission.
	status, got := teamCall(t, "GET", base+"/api/v1/teams/"+team, nil)
	if status != http.StatusOK {
		t.Fatalf("GET the team: %d %v", status, got)
	}
	listed := map[string]any{}
	for _, period := range []string{standing.AllTime, standing.Last30Days} {
		status, body := teamCall(t, "GET", base+"/api/v1/teams?period="+period, nil)
		if results, _ := body["results"].([]any); status != http.StatusOK || len(results) != 1 {
			t.Fatalf("GET /api/v1/teams?period=%s: %d %v", period, status, body)
		} else {
			listed[period] = results[0].(map[string]any)["nectar"]
		}
	}

	// The log, read back over HTTP, gives every nectar event.
	leaves, _, _ := loggedEntries(t, n, base, round)
	raw := make([][]byte, len(leaves))
	for i, leaf := range leaves {
		var err error
		if raw[i], err = canonical.Marshal(leaf); err != nil {
			t.Fatal(err)
		}
	}
	sheet := servedStandingIsTheLogs(t, base, raw)
	var want float64
	brought := map[string]float64{}
	outside := map[string]float64{}
	for _, e := range sheet.Events {
		sp := spans[e.Operator]
		switch {
		case sp == nil:
		case sp.holds(t, e.At):
			want += float64(e.Amount)
			brought[e.Operator] += float64(e.Amount)
		default:
			outside[e.Operator] += float64(e.Amount)
		}
	}
	t.Logf("%d entries, %d nectar events; the team's members brought %v, and earned %v off it", len(raw), len(sheet.Events), brought, outside)
	if brought[ada.id] <= 0 || brought[bo.id] <= 0 || outside[ada.id] <= 0 || outside[bo.id] <= 0 {
		t.Errorf("the history tested too little: on the team %v, off it %v; want each above 0", brought, outside)
	}

	if nectar, _ := got["nectar"].(map[string]any); nectar["all"] != want || nectar["30d"] != want {
		t.Errorf("the team's nectar: the node serves %v, its members' events in their spans sum to %g", got["nectar"], want)
	}
	members, _ := got["members"].([]any)
	if len(members) != 1 || members[0].(map[string]any)["operator"] != bo.id || members[0].(map[string]any)["nectar"] != brought[bo.id] {
		t.Errorf("the team's members: %v, want Bo alone, who brought %g", members, brought[bo.id])
	}
	for period, nectar := range listed {
		if nectar != want {
			t.Errorf("GET /api/v1/teams?period=%s lists the team's nectar as %v, want %g", period, nectar, want)
		}
	}
}
