package ledgertest

import (
	"errors"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
)

// testTeams checks TeamStore's contract: names taken once, moves applied
// once and never undone by a replay, spans that never overlap, the move
// and request limits, requests that wait, lapse, are declined for a while
// and approved, bans by operator and by organization, and removal.
func testTeams(f *fixture) {
	at := f.now
	a, _ := f.register("Ada")
	b, _ := f.register("Bo")
	c, _ := f.register("Cy")
	org := "example.org"
	f.ok(second(f.s.AddIdentity(f.ctx, store.Identity{Operator: c.ID, Kind: "domain", Organization: org, Subject: org,
		Entry: f.put(c.ID, map[string]any{"type": "identity", "kind": "domain", "operator": c.ID, "domain": org}), Added: at})), "AddIdentity")

	physics, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "Tuesday Night Physics", NameKey: "tuesdaynightphysics", Captain: true, People: []string{"github:7"}, At: at})
	f.ok(err, "CreateTeam")
	if physics.ID != "team:1" || !physics.Captain || len(physics.People) != 1 || !physics.Created.Equal(at) {
		f.t.Errorf("CreateTeam = %+v, want team:1 with a captain and one person", physics)
	}
	same, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "tuesday night PHYSICS", NameKey: "tuesdaynightphysics", At: at})
	f.is(err, store.ErrDuplicate, "CreateTeam of a name taken")
	if same.ID != physics.ID {
		f.t.Errorf("CreateTeam of a name taken returned %s, want %s", same.ID, physics.ID)
	}
	chem, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "Chemists", NameKey: "chemists", At: at})
	f.ok(err, "CreateTeam")
	if chem.ID != "team:2" || chem.Captain {
		f.t.Errorf("second team = %+v, want team:2 without a captain", chem)
	}
	// A person joining a team moves every agent in its account.
	e, _ := f.register("Eve")
	home := "people.example"
	f.ok(second(f.s.AddIdentity(f.ctx, store.Identity{Operator: e.ID, Kind: "domain", Organization: home, Subject: home,
		Entry: f.put(e.ID, map[string]any{"type": "identity", "kind": "domain", "operator": e.ID, "domain": home}), Added: at})), "AddIdentity")
	if moved, err := f.s.AddTeamPerson(f.ctx, chem.ID, home, at); err != nil || moved != 1 {
		f.t.Errorf("AddTeamPerson moved %d agents, %v; want 1", moved, err)
	}
	if moved, err := f.s.AddTeamPerson(f.ctx, chem.ID, home, at); err != nil || moved != 0 {
		f.t.Errorf("AddTeamPerson again moved %d agents, %v; want 0", moved, err)
	}
	if got, _ := f.s.Team(f.ctx, chem.ID); len(got.People) != 1 || got.People[0] != home {
		f.t.Errorf("people after adding %s twice: %v", home, got.People)
	}
	if on, err := f.s.OperatorTeam(f.ctx, e.ID); err != nil || on.ID != chem.ID {
		f.t.Errorf("the person's agent is on %s (%v), want %s", on.ID, err, chem.ID)
	}
	// On another team, the person leaves the first, and its agent moves.
	if moved, err := f.s.AddTeamPerson(f.ctx, physics.ID, home, at.Add(time.Second)); err != nil || moved != 1 {
		f.t.Errorf("AddTeamPerson to another team moved %d agents, %v; want 1", moved, err)
	}
	if got, _ := f.s.Team(f.ctx, chem.ID); len(got.People) != 0 {
		f.t.Errorf("the first team's people once the person moved: %v", got.People)
	}
	if got, _ := f.s.Team(f.ctx, physics.ID); len(got.People) != 2 {
		f.t.Errorf("the second team's people: %v", got.People)
	}
	if on, _ := f.s.OperatorTeam(f.ctx, e.ID); on.ID != physics.ID {
		f.t.Errorf("the person's agent is on %s, want %s", on.ID, physics.ID)
	}
	f.is(second(f.s.Team(f.ctx, "team:99")), store.ErrNotFound, "Team of none")
	f.is(second(f.s.Team(f.ctx, "physics")), store.ErrNotFound, "Team of no team ID")
	f.is(second(f.s.OperatorTeam(f.ctx, a.ID)), store.ErrNotFound, "OperatorTeam of an operator on none")

	// Moves: a join, the same entry again, a replay signed earlier.
	move := func(op, team string, leave bool, entry string, signed, when time.Time) (bool, error) {
		return f.s.MoveTeam(f.ctx, ledger.TeamMove{Operator: op, Team: team, Leave: leave, Entry: entry, Signed: signed, At: when, Limit: 3, Window: 24 * time.Hour})
	}
	t1 := at.Add(time.Minute)
	moved, err := move(a.ID, physics.ID, false, "join-1", t1, t1)
	f.ok(err, "MoveTeam join")
	if !moved {
		f.t.Error("a first join moved nothing")
	}
	_, err = move(a.ID, physics.ID, false, "join-1", t1, t1.Add(time.Second))
	f.is(err, store.ErrDuplicate, "MoveTeam of an entry applied")
	if moved, err := move(a.ID, physics.ID, false, "join-1b", t1.Add(time.Second), t1.Add(time.Second)); err != nil || moved {
		f.t.Errorf("a join of the team it is on: moved %v, %v; want false, nil", moved, err)
	}
	t2 := at.Add(time.Hour)
	f.ok(second(move(a.ID, chem.ID, false, "join-2", t2, t2)), "MoveTeam to another team")
	_, err = move(a.ID, physics.ID, false, "join-old", t1.Add(30*time.Second), t2.Add(time.Second))
	f.is(err, store.ErrConflict, "MoveTeam signed before the latest")
	if on, err := f.s.OperatorTeam(f.ctx, a.ID); err != nil || on.ID != chem.ID {
		f.t.Errorf("after the replay, on %s (%v); want %s", on.ID, err, chem.ID)
	}
	if moved, err := move(a.ID, physics.ID, true, "leave-wrong", t2.Add(time.Minute), t2.Add(time.Minute)); err != nil || moved {
		f.t.Errorf("a leave of a team it is not on: moved %v, %v; want false, nil", moved, err)
	}
	// The limit counts moves that moved: two so far, one more, then none.
	t3 := at.Add(2 * time.Hour)
	f.ok(second(move(a.ID, chem.ID, true, "leave-3", t3, t3)), "MoveTeam leave")
	var limit *store.LimitError
	if _, err := move(a.ID, physics.ID, false, "join-4", t3.Add(time.Minute), t3.Add(time.Minute)); !errors.As(err, &limit) {
		f.t.Errorf("a fourth move in a day with a limit of 3: %v, want a *store.LimitError", err)
	} else if want := t1.Add(24 * time.Hour).Sub(t3.Add(time.Minute)); limit.RetryAfter != want {
		f.t.Errorf("RetryAfter = %s, want %s", limit.RetryAfter, want)
	}
	f.is(second(f.s.OperatorTeam(f.ctx, a.ID)), store.ErrNotFound, "OperatorTeam after leaving")
	all, err := f.s.TeamSpans(f.ctx, "")
	f.ok(err, "TeamSpans")
	var spans []ledger.TeamSpan
	for _, s := range all {
		if s.Operator == a.ID {
			spans = append(spans, s)
		}
	}
	want := []ledger.TeamSpan{{Operator: a.ID, Team: physics.ID, Joined: t1, Left: t2}, {Operator: a.ID, Team: chem.ID, Joined: t2, Left: t3}}
	if len(spans) != len(want) {
		f.t.Fatalf("spans = %+v, want %+v", spans, want)
	}
	for i := range want {
		if s := spans[i]; s.Operator != want[i].Operator || s.Team != want[i].Team || !s.Joined.Equal(want[i].Joined) || !s.Left.Equal(want[i].Left) {
			f.t.Errorf("span %d = %+v, want %+v", i, s, want[i])
		}
	}
	if only, _ := f.s.TeamSpans(f.ctx, chem.ID); len(only) != 2 || only[0].Operator != e.ID || only[1].Operator != a.ID {
		f.t.Errorf("TeamSpans(%s) = %+v", chem.ID, only)
	}

	// Requests: one waits, the same again waits on it, a decline holds for
	// the cooldown, an approval moves, and the limit counts requests.
	req := func(op store.Operator, team, entry string, when time.Time) (ledger.JoinRequest, error) {
		return f.s.RequestJoin(f.ctx, ledger.JoinRequest{Team: team, Operator: op.ID, Organization: "org-" + op.Name, Entry: entry, At: when},
			2, 24*time.Hour, 14*24*time.Hour, 30*24*time.Hour)
	}
	r1, err := req(b, physics.ID, "req-1", t1)
	f.ok(err, "RequestJoin")
	if r1.State != ledger.RequestPending || r1.ID < 1 || !r1.Expires.Equal(t1.Add(14*24*time.Hour)) {
		f.t.Errorf("RequestJoin = %+v", r1)
	}
	again, err := req(b, physics.ID, "req-1-again", t1.Add(time.Minute))
	f.is(err, store.ErrDuplicate, "RequestJoin while one waits")
	if again.ID != r1.ID {
		f.t.Errorf("a second request answered %d, want the one waiting, %d", again.ID, r1.ID)
	}
	if list, _ := f.s.JoinRequests(f.ctx, physics.ID, t1); len(list) != 1 || list[0].ID != r1.ID {
		f.t.Errorf("JoinRequests = %+v", list)
	}
	f.ok(second(f.s.DecideJoin(f.ctx, r1.ID, false, t2)), "DecideJoin decline")
	f.is(second(f.s.DecideJoin(f.ctx, r1.ID, true, t2)), store.ErrConflict, "DecideJoin of a decided request")
	f.is(second(f.s.DecideJoin(f.ctx, 999, true, t2)), store.ErrNotFound, "DecideJoin of no request")
	declined, err := req(b, physics.ID, "req-2", t2.Add(29*24*time.Hour))
	f.is(err, store.ErrConflict, "RequestJoin within 30 days of a decline")
	if declined.State != ledger.RequestDeclined {
		f.t.Errorf("the request that stands: %+v", declined)
	}
	later := t2.Add(31 * 24 * time.Hour)
	r2, err := req(b, physics.ID, "req-3", later)
	f.ok(err, "RequestJoin after the cooldown")
	f.ok(second(req(b, chem.ID, "req-4", later.Add(time.Minute))), "RequestJoin of a second team")
	bio, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "Biologists", NameKey: "biologists", Captain: true, At: later})
	f.ok(err, "CreateTeam")
	if _, err := req(b, bio.ID, "req-4b", later.Add(2*time.Minute)); !errors.As(err, &limit) {
		f.t.Errorf("a third request in a day with a limit of 2: %v", err)
	}
	if _, err := f.s.DecideJoin(f.ctx, r2.ID, true, later.Add(15*24*time.Hour)); !errors.Is(err, store.ErrConflict) {
		f.t.Errorf("approving a lapsed request: %v", err)
	}
	r3, err := req(b, physics.ID, "req-5", later.Add(16*24*time.Hour))
	f.ok(err, "RequestJoin after one lapsed")
	approved, err := f.s.DecideJoin(f.ctx, r3.ID, true, later.Add(17*24*time.Hour))
	f.ok(err, "DecideJoin approve")
	if approved.State != ledger.RequestApproved {
		f.t.Errorf("approved = %+v", approved)
	}
	if on, err := f.s.OperatorTeam(f.ctx, b.ID); err != nil || on.ID != physics.ID {
		f.t.Errorf("after approval, %s is on %s (%v)", b.Name, on.ID, err)
	}

	// Bans: by organization, holding the operator off until unbanned.
	end := later.Add(18 * 24 * time.Hour)
	f.ok(second(move(c.ID, physics.ID, false, "c-join", end, end)), "MoveTeam")
	left, err := f.s.BanFromTeam(f.ctx, physics.ID, org, end.Add(time.Hour))
	f.ok(err, "BanFromTeam")
	if left != 1 {
		f.t.Errorf("a ban of %s took %d off the team, want 1", org, left)
	}
	if banned, err := f.s.TeamBanned(f.ctx, physics.ID, c.ID, org); err != nil || !banned {
		f.t.Errorf("TeamBanned after the ban: %v, %v", banned, err)
	}
	if banned, _ := f.s.TeamBanned(f.ctx, chem.ID, org); banned {
		f.t.Error("a ban from one team holds on another")
	}
	f.is(second(f.s.OperatorTeam(f.ctx, c.ID)), store.ErrNotFound, "OperatorTeam after a ban")
	f.ok(f.s.UnbanFromTeam(f.ctx, physics.ID, org), "UnbanFromTeam")
	if banned, _ := f.s.TeamBanned(f.ctx, physics.ID, c.ID, org); banned {
		f.t.Error("TeamBanned after the unban")
	}

	// Removal: its agents leave it, and nothing joins it.
	gone := end.Add(2 * time.Hour)
	removed, err := f.s.RemoveTeam(f.ctx, physics.ID, gone)
	f.ok(err, "RemoveTeam")
	if !removed.Removed.Equal(gone) {
		f.t.Errorf("removed = %+v", removed)
	}
	f.is(second(f.s.RemoveTeam(f.ctx, physics.ID, gone)), store.ErrDuplicate, "RemoveTeam again")
	f.is(second(f.s.OperatorTeam(f.ctx, b.ID)), store.ErrNotFound, "OperatorTeam of a removed team's agent")
	f.is(second(move(b.ID, physics.ID, false, "b-rejoin", gone.Add(time.Minute), gone.Add(time.Minute))), store.ErrNotFound, "MoveTeam onto a removed team")
	if list, _ := f.s.Teams(f.ctx); len(list) != 2 || list[0].ID != chem.ID || list[1].ID != bio.ID {
		f.t.Errorf("Teams after a removal = %+v", list)
	}
	if _, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "Tuesday Night Physics", NameKey: "tuesdaynightphysics", At: gone}); err != nil {
		f.t.Errorf("a removed team's name is free again: %v", err)
	}
	spans, _ = f.s.TeamSpans(f.ctx, physics.ID)
	for _, s := range spans {
		if s.Left.IsZero() {
			f.t.Errorf("a span of the removed team is open: %+v", s)
		}
	}
}

// teamsBeforeReopen records a team with a person, a member's spans, a move,
// a pending request and a ban, and returns what checks each of them after
// the store is reopened.
func (f *fixture) teamsBeforeReopen() func() {
	a, _ := f.register("Member")
	b, _ := f.register("Asker")
	c, _ := f.register("Banned")
	t, err := f.s.CreateTeam(f.ctx, ledger.NewTeam{Name: "Durable", NameKey: "durable", Captain: true, People: []string{"example.org"}, At: f.now})
	f.ok(err, "CreateTeam")
	move := ledger.TeamMove{Operator: a.ID, Team: t.ID, Entry: "durable-join", Signed: f.now, At: f.now}
	f.ok(second(f.s.MoveTeam(f.ctx, move)), "MoveTeam")
	r, err := f.s.RequestJoin(f.ctx, ledger.JoinRequest{Team: t.ID, Operator: b.ID, Organization: "b.example", Entry: "durable-ask", At: f.now},
		5, 24*time.Hour, 14*24*time.Hour, 30*24*time.Hour)
	f.ok(err, "RequestJoin")
	f.ok(second(f.s.BanFromTeam(f.ctx, t.ID, c.ID, f.now)), "BanFromTeam")
	return func() {
		got, err := f.s.Team(f.ctx, t.ID)
		if err != nil || got.Name != "Durable" || !got.Captain || len(got.People) != 1 || !got.Created.Equal(f.now) {
			f.t.Errorf("the team after reopening = %+v, %v", got, err)
		}
		if on, err := f.s.OperatorTeam(f.ctx, a.ID); err != nil || on.ID != t.ID {
			f.t.Errorf("the member's team after reopening = %s, %v", on.ID, err)
		}
		if spans, err := f.s.TeamSpans(f.ctx, t.ID); err != nil || len(spans) != 1 || !spans[0].Joined.Equal(f.now) {
			f.t.Errorf("the team's spans after reopening = %+v, %v", spans, err)
		}
		f.is(second(f.s.MoveTeam(f.ctx, move)), store.ErrDuplicate, "the same move after reopening")
		if list, err := f.s.JoinRequests(f.ctx, t.ID, f.now); err != nil || len(list) != 1 || list[0].ID != r.ID {
			f.t.Errorf("the requests waiting after reopening = %+v, %v", list, err)
		}
		if banned, err := f.s.TeamBanned(f.ctx, t.ID, c.ID); err != nil || !banned {
			f.t.Errorf("the ban after reopening = %v, %v", banned, err)
		}
	}
}
