package node

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/teams"
	"github.com/agora-node/agora/tlog"
)

// nectarHistory is a test's history of nectar events, handed to the node
// as its nectar accounting would hand them.
type nectarHistory struct {
	mu     sync.Mutex
	events []teams.Event
}

func (h *nectarHistory) add(operator string, at time.Time, amount float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, teams.Event{Operator: operator, At: at, Amount: amount})
}

func (h *nectarHistory) all(context.Context) ([]teams.Event, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]teams.Event(nil), h.events...), nil
}

// teamBody is a signed team_join or team_leave for team, timed at now,
// with changes made before it is signed.
func (v verifier) teamBody(t *testing.T, typ, team string, now time.Time, changes ...func(map[string]any)) []byte {
	e := map[string]any{"type": typ, "operator": v.id, "team": team,
		"time": tlog.FormatTimestamp(now), "model_family": v.family, "model": v.model}
	for _, change := range changes {
		change(e)
	}
	return mustJSON(t, map[string]any{"entry": v.sign(t, e)})
}

// teamCall sends body to a team route and returns the answer as an object.
func teamCall(t *testing.T, method, url string, body []byte, header ...string) (int, map[string]any) {
	t.Helper()
	status, v := call(t, method, url, body, header...)
	m, _ := v.(map[string]any)
	return status, m
}

// TestTeams drives teams on a real node as the spec's agents and the
// node's admin (standing in for people and captains) would: a team made,
// a person joining it with its agent, that agent's join recorded, another asking the captain and
// approved, refusals for no identity, no captain, a decline and a ban,
// replays that change nothing, the limit on changing teams, and a removal;
// and through it all a history of nectar events, summed per team over the
// times each agent was on it, all time and 30 days, checked against the
// figures worked out by hand.
func TestTeams(t *testing.T) {
	t.Parallel()
	clock := &testClock{}
	history := &nectarHistory{}
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1, clock: clock.now, nectar: history.all})
	base := srv.URL
	admin := adminToken(t, n)
	a := invitedVerifier(t, n, base, "Ada", "claude")
	b := invitedVerifier(t, n, base, "Bo", "claude")
	d := invitedVerifier(t, n, base, "Dee", "claude")
	c := verifier{testOperator: registerOperator(t, base, "Cy"), family: "claude", model: "claude-test-1"}

	create := func(body map[string]any) (int, map[string]any) {
		return teamCall(t, "POST", base+"/api/v1/admin/teams", mustJSON(t, body), "Authorization", admin)
	}
	status, physics := create(map[string]any{"name": "Tuesday Night Physics"})
	wantAnswer(t, "create a team", status, physics, http.StatusCreated, "")
	pid := physics["team"].(string)
	status, wolves := create(map[string]any{"name": "Lone Wolves", "captain": false})
	wantAnswer(t, "create a team without a captain", status, wolves, http.StatusCreated, "")
	wid := wolves["team"].(string)
	status, body := create(map[string]any{"name": "tuesday  night physics"})
	wantAnswer(t, "a name taken", status, body, http.StatusConflict, "name_taken")

	join := func(v verifier, team string) (int, map[string]any) {
		return teamCall(t, "POST", base+"/api/v1/teams/"+team+"/join", v.teamBody(t, "team_join", team, clock.now()))
	}
	leave := func(v verifier, team string) (int, map[string]any) {
		return teamCall(t, "POST", base+"/api/v1/teams/"+team+"/leave", v.teamBody(t, "team_leave", team, clock.now()))
	}
	record := func(v verifier) any {
		_, op := teamCall(t, "GET", base+"/api/v1/operators/"+v.id, nil)
		return op["team"]
	}

	// Ada earned 10 before she joined: it stays off the team.
	history.add(a.id, clock.now().Add(-time.Hour), 10)
	if got := record(a); got != nil {
		t.Fatalf("Ada's team before she joined: %v", got)
	}
	// Ada's person joins the team, which moves Ada onto it.
	people := func(team, person string) (int, map[string]any) {
		return teamCall(t, "POST", base+"/api/v1/admin/teams/"+team+"/people", mustJSON(t, map[string]any{"person": person}), "Authorization", admin)
	}
	status, body = people(pid, a.org)
	if status != http.StatusOK || body["moved"] != float64(1) {
		t.Fatalf("Ada's person joins: %d %v", status, body)
	}
	if got, _ := record(a).(map[string]any); got["team"] != pid || got["name"] != "Tuesday Night Physics" {
		t.Errorf("Ada's record's team: %v", record(a))
	}
	adaJoin := a.teamBody(t, "team_join", pid, clock.now())
	status, body = teamCall(t, "POST", base+"/api/v1/teams/"+pid+"/join", adaJoin)
	if status != http.StatusOK || body["status"] != "joined" || body["moved"] != false || body["name"] != "Tuesday Night Physics" {
		t.Fatalf("Ada joins the team she is on: %d %v", status, body)
	}
	status, body = teamCall(t, "POST", base+"/api/v1/teams/"+pid+"/join", adaJoin)
	if status != http.StatusOK || body["moved"] != false {
		t.Errorf("the same join again: %d %v, want moved false", status, body)
	}
	clock.advance(time.Hour)
	history.add(a.id, clock.now().Add(-time.Minute), 7)

	// Bo is not one of its people: he asks the captain, once.
	status, body = join(b, pid)
	if status != http.StatusOK || body["status"] != "requested" || body["request"] == nil || body["requested_at"] == nil {
		t.Fatalf("Bo asks to join: %d %v", status, body)
	}
	request := body["request"]
	if status, again := join(b, pid); status != http.StatusOK || again["request"] != request {
		t.Errorf("Bo asks again: %d %v, want the same request %v", status, again, request)
	}
	if got := record(b); got != nil {
		t.Errorf("Bo's team while he waits: %v", got)
	}
	history.add(b.id, clock.now().Add(-time.Second), 1000) // before the captain approves: his own
	status, body = teamCall(t, "GET", base+"/api/v1/admin/teams/"+pid+"/requests", nil, "Authorization", admin)
	if list, _ := body["requests"].([]any); status != http.StatusOK || len(list) != 1 || list[0].(map[string]any)["operator"] != b.id {
		t.Fatalf("the requests waiting: %d %v", status, body)
	}
	decide := func(team string, req any, approve bool) (int, map[string]any) {
		return teamCall(t, "POST", fmt.Sprintf("%s/api/v1/admin/teams/%s/requests/%v", base, team, req),
			mustJSON(t, map[string]any{"approve": approve}), "Authorization", admin)
	}
	if status, body := decide(pid, request, true); status != http.StatusOK || body["status"] != "approved" {
		t.Fatalf("the captain approves Bo: %d %v", status, body)
	}
	if got, _ := record(b).(map[string]any); got["team"] != pid {
		t.Errorf("Bo's team once approved: %v", record(b))
	}
	if status, body := decide(pid, request, true); status != http.StatusConflict || body["code"] != "not_pending" {
		t.Errorf("approving again: %d %v", status, body)
	}
	clock.advance(time.Hour)
	history.add(b.id, clock.now().Add(-time.Minute), 5)

	// Refusals: no identity to ask a captain, no captain, a decline.
	status, body = join(c, pid)
	wantAnswer(t, "Cy, with no identity, asks", status, body, http.StatusForbidden, "no_identity")
	status, body = join(b, wid)
	wantAnswer(t, "Bo asks a team with no captain", status, body, http.StatusConflict, "no_captain")
	status, body = join(d, pid)
	if status != http.StatusOK || body["status"] != "requested" {
		t.Fatalf("Dee asks: %d %v", status, body)
	}
	if status, body := decide(pid, body["request"], false); status != http.StatusOK || body["status"] != "declined" {
		t.Fatalf("the captain declines Dee: %d %v", status, body)
	}
	status, body = join(d, pid)
	wantAnswer(t, "Dee asks again after a decline", status, body, http.StatusConflict, "declined")

	// Ada leaves: what she earns after goes with her. A replay of her old
	// join can't move her back.
	clock.advance(24 * time.Hour)
	status, body = leave(a, pid)
	if status != http.StatusOK || body["team"] != pid || body["moved"] != true {
		t.Fatalf("Ada leaves: %d %v", status, body)
	}
	status, body = leave(a, pid)
	if status != http.StatusOK || body["moved"] != false {
		t.Errorf("Ada leaves a team she is not on: %d %v", status, body)
	}
	history.add(a.id, clock.now().Add(time.Second), 100)
	status, body = teamCall(t, "POST", base+"/api/v1/teams/"+pid+"/join", adaJoin)
	if status == http.StatusOK || record(a) != nil {
		t.Errorf("a replay of Ada's first join: %d %v, and she is on %v; want it refused", status, body, record(a))
	}

	// The standings: Physics earned Ada's 7 and Bo's 5.
	clock.advance(time.Minute)
	wantTeam := func(period string, place int, nectar float64, members int) {
		t.Helper()
		status, body := teamCall(t, "GET", base+"/api/v1/teams?q=physics&period="+period, nil)
		list, _ := body["results"].([]any)
		if status != http.StatusOK || body["period"] != period || body["teams"] != float64(1) || len(list) != 1 {
			t.Fatalf("teams, %s: %d %v", period, status, body)
		}
		got := list[0].(map[string]any)
		if got["team"] != pid || got["nectar"] != nectar || got["place"] != float64(place) || got["members"] != float64(members) {
			t.Errorf("Physics, %s: %v; want nectar %g, place %d, %d members", period, got, nectar, place, members)
		}
	}
	wantTeam("all", 1, 12, 1)
	status, body = teamCall(t, "GET", base+"/api/v1/teams/"+pid, nil)
	if status != http.StatusOK || body["has_captain"] != true || body["people"] != float64(1) {
		t.Fatalf("Physics: %d %v", status, body)
	}
	if nectar, _ := body["nectar"].(map[string]any); nectar["all"] != float64(12) || nectar["30d"] != float64(12) {
		t.Errorf("Physics's nectar: %v", body["nectar"])
	}
	if members, _ := body["members"].([]any); len(members) != 1 || members[0].(map[string]any)["operator"] != b.id || members[0].(map[string]any)["nectar"] != float64(5) {
		t.Errorf("Physics's members: %v", body["members"])
	}
	// Forty days on, Bo earns 2 more: 30 days holds only that.
	clock.advance(40 * 24 * time.Hour)
	history.add(b.id, clock.now().Add(-time.Hour), 2)
	wantTeam("all", 1, 14, 1)
	wantTeam("30d", 1, 2, 1)

	// Ada may change teams 10 times a day: on and off her person's team.
	// She joins at once, since her person is still on it.
	for i := range teams.ChangesDay {
		move := join
		if i%2 == 1 {
			move = leave
		}
		if status, body := move(a, pid); status != http.StatusOK || body["moved"] != true {
			t.Fatalf("Ada's move %d: %d %v", i+1, status, body)
		}
		clock.advance(time.Second) // each request signed after the last
	}
	status, body = join(a, pid)
	wantAnswer(t, "an eleventh move in a day", status, body, http.StatusTooManyRequests, "rate_limited")

	// The captain removes Bo: he leaves, and can't ask again until let.
	status, body = teamCall(t, "POST", base+"/api/v1/admin/teams/"+pid+"/bans", mustJSON(t, map[string]any{"subject": b.id}), "Authorization", admin)
	if status != http.StatusOK || body["left"] != float64(1) || record(b) != nil {
		t.Fatalf("the captain removes Bo: %d %v; his team %v", status, body, record(b))
	}
	status, body = join(b, pid)
	wantAnswer(t, "Bo asks after his removal", status, body, http.StatusForbidden, "banned")
	status, body = teamCall(t, "DELETE", base+"/api/v1/admin/teams/"+pid+"/bans/"+b.id, nil, "Authorization", admin)
	wantAnswer(t, "the captain lets Bo again", status, body, http.StatusOK, "")
	if status, body := join(b, pid); status != http.StatusOK || body["status"] != "requested" {
		t.Errorf("Bo asks once let: %d %v", status, body)
	}

	// Dee's person joins Lone Wolves, and a person at the node removes
	// the team: Dee, on it, leaves it.
	if status, body := people(wid, d.org); status != http.StatusOK || body["moved"] != float64(1) {
		t.Fatalf("Dee's person joins Lone Wolves: %d %v", status, body)
	}
	if got, _ := record(d).(map[string]any); got["team"] != wid {
		t.Errorf("Dee's team once her person joined: %v", record(d))
	}
	status, body = teamCall(t, "DELETE", base+"/api/v1/admin/teams/"+wid, nil, "Authorization", admin)
	wantAnswer(t, "remove a team", status, body, http.StatusOK, "")
	status, body = teamCall(t, "GET", base+"/api/v1/teams/"+wid, nil)
	wantAnswer(t, "a removed team", status, body, http.StatusNotFound, "not_found")
	if got := record(d); got != nil {
		t.Errorf("Dee's team once Lone Wolves was removed: %v", got)
	}
	if status, body := teamCall(t, "GET", base+"/api/v1/teams", nil); status != http.StatusOK || body["teams"] != float64(1) {
		t.Errorf("teams after a removal: %d %v", status, body)
	}
}

// TestTeamAdminBadInput sends bad input, with the admin token, to every
// admin route of teams: each gets the spec's status and code, never a 500.
func TestTeamAdminBadInput(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base, admin := srv.URL, adminToken(t, n)
	status, made := teamCall(t, "POST", base+"/api/v1/admin/teams", mustJSON(t, map[string]any{"name": "Admin Input"}), "Authorization", admin)
	wantAnswer(t, "create a team", status, made, http.StatusCreated, "")
	team := made["team"].(string)
	long := make([]byte, teams.MaxName+1)
	for i := range long {
		long[i] = 'a'
	}
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"create: not JSON", "POST", "/api/v1/admin/teams", []byte("{"), http.StatusBadRequest, "invalid_json"},
		{"create: not an object", "POST", "/api/v1/admin/teams", []byte(`["x"]`), http.StatusBadRequest, "bad_request"},
		{"create: no name", "POST", "/api/v1/admin/teams", []byte(`{}`), http.StatusUnprocessableEntity, "invalid_name"},
		{"create: a blank name", "POST", "/api/v1/admin/teams", []byte(`{"name":"  "}`), http.StatusUnprocessableEntity, "invalid_name"},
		{"create: a name of two lines", "POST", "/api/v1/admin/teams", []byte(`{"name":"a\nb"}`), http.StatusUnprocessableEntity, "invalid_name"},
		{"create: a name too long", "POST", "/api/v1/admin/teams", mustJSON(t, map[string]any{"name": string(long)}), http.StatusUnprocessableEntity, "invalid_name"},
		{"create: an unknown member", "POST", "/api/v1/admin/teams", []byte(`{"name":"X","color":"red"}`), http.StatusBadRequest, "bad_request"},
		{"create: captain not a boolean", "POST", "/api/v1/admin/teams", []byte(`{"name":"X","captain":"yes"}`), http.StatusBadRequest, "bad_request"},
		{"create: people not a list", "POST", "/api/v1/admin/teams", []byte(`{"name":"X","people":"example.org"}`), http.StatusBadRequest, "bad_request"},
		{"create: a person not an organization", "POST", "/api/v1/admin/teams", []byte(`{"name":"X","people":["Bob Smith"]}`), http.StatusBadRequest, "bad_request"},
		{"create: a name taken", "POST", "/api/v1/admin/teams", []byte(`{"name":"ADMIN input"}`), http.StatusConflict, "name_taken"},
		{"people: no person", "POST", "/api/v1/admin/teams/" + team + "/people", []byte(`{}`), http.StatusBadRequest, "bad_request"},
		{"people: a team not there", "POST", "/api/v1/admin/teams/team:999/people", []byte(`{"person":"example.org"}`), http.StatusNotFound, "not_found"},
		{"requests: not a team ID", "GET", "/api/v1/admin/teams/x/requests", nil, http.StatusBadRequest, "bad_request"},
		{"requests: a team not there", "GET", "/api/v1/admin/teams/team:999/requests", nil, http.StatusNotFound, "not_found"},
		{"decide: not a request number", "POST", "/api/v1/admin/teams/" + team + "/requests/first", []byte(`{"approve":true}`), http.StatusBadRequest, "bad_request"},
		{"decide: request 0", "POST", "/api/v1/admin/teams/" + team + "/requests/0", []byte(`{"approve":true}`), http.StatusBadRequest, "bad_request"},
		{"decide: no decision", "POST", "/api/v1/admin/teams/" + team + "/requests/1", []byte(`{}`), http.StatusBadRequest, "bad_request"},
		{"decide: a decision not a boolean", "POST", "/api/v1/admin/teams/" + team + "/requests/1", []byte(`{"approve":"yes"}`), http.StatusBadRequest, "bad_request"},
		{"decide: no such request", "POST", "/api/v1/admin/teams/" + team + "/requests/1", []byte(`{"approve":true}`), http.StatusConflict, "not_pending"},
		{"ban: no subject", "POST", "/api/v1/admin/teams/" + team + "/bans", []byte(`{}`), http.StatusBadRequest, "bad_request"},
		{"ban: a subject not an operator or organization", "POST", "/api/v1/admin/teams/" + team + "/bans", []byte(`{"subject":"Bob"}`), http.StatusBadRequest, "bad_request"},
		{"ban: a team not there", "POST", "/api/v1/admin/teams/team:999/bans", []byte(`{"subject":"example.org"}`), http.StatusNotFound, "not_found"},
		{"unban: a subject not an operator or organization", "DELETE", "/api/v1/admin/teams/" + team + "/bans/Bob", nil, http.StatusBadRequest, "bad_request"},
		{"unban: a team not there", "DELETE", "/api/v1/admin/teams/team:999/bans/example.org", nil, http.StatusNotFound, "not_found"},
		{"remove: not a team ID", "DELETE", "/api/v1/admin/teams/physics", nil, http.StatusBadRequest, "bad_request"},
		{"remove: a team not there", "DELETE", "/api/v1/admin/teams/team:999", nil, http.StatusNotFound, "not_found"},
	} {
		status, body := teamCall(t, tc.method, base+tc.path, tc.body, "Authorization", admin)
		if status != tc.status || body["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
	}
}
