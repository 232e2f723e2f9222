package ledger

import (
	"context"
	"time"
)

// TeamStore is the part of Store that keeps teams ("Teams"): named groups
// of agents, each a node's own record, never a log entry. It keeps Store's
// contract, and these besides:
//
//   - a team's ID is team:<n>, n counting from 1 in the order teams were
//     made, never reused; its name is taken by no other team standing,
//     compared by NameKey;
//   - an operator is on one team at most at any time, and its time on
//     each is kept for good as spans, [joined, left), which never overlap:
//     they are what a team's nectar is summed over (package ledger/teams);
//   - every move (MoveTeam, an approval, a ban, a removal) is durable
//     before the method returns, and closes the span it ends and opens the
//     one it starts in the same commit;
//   - a signed request is applied once: its entry digest is kept, and the
//     same entry again changes nothing (store.ErrDuplicate).
type TeamStore interface {
	// CreateTeam makes a team, with t.People on it as AddTeamPerson puts
	// them, at t.At. A name whose NameKey a standing team holds returns
	// that team with store.ErrDuplicate, and makes nothing.
	CreateTeam(ctx context.Context, t NewTeam) (Team, error)

	// Team returns a team by ID, removed or not; store.ErrNotFound if no
	// team ever had it.
	Team(ctx context.Context, id string) (Team, error)

	// Teams returns every team standing (not removed), by number.
	Teams(ctx context.Context) ([]Team, error)

	// AddTeamPerson puts person (an organization an identity counts as:
	// see Team.People) on a standing team at at, off any other team it was
	// on, and moves every agent of the person (every operator with an
	// identity that counts as it) onto the team then, but those the team
	// banned: a person joining a team moves every agent in its account. It
	// returns how many agents moved. Again, nothing changes.
	// store.ErrNotFound for a team not standing.
	AddTeamPerson(ctx context.Context, team, person string, at time.Time) (int, error)

	// RemoveTeam removes a standing team at at: its agents leave it then,
	// and its requests lapse. Removed before: the team with
	// store.ErrDuplicate.
	RemoveTeam(ctx context.Context, id string, at time.Time) (Team, error)

	// TeamSpans returns the spans of team, or of every team for "",
	// oldest first (by Joined, then operator).
	TeamSpans(ctx context.Context, team string) ([]TeamSpan, error)

	// OperatorTeam returns the team operator is on now; store.ErrNotFound
	// if none.
	OperatorTeam(ctx context.Context, operator string) (Team, error)

	// MoveTeam applies an operator's signed join (Leave false) or leave.
	// It reports whether the operator moved: a join of the team it is on,
	// or a leave of one it is not on, moves nothing but is still recorded.
	// Its entry applied before: store.ErrDuplicate, nothing changed. An
	// entry signed before the latest the operator applied: store.ErrConflict
	// (a replay can't move it back). A join of a team not standing:
	// store.ErrNotFound. A move past m.Limit moves in m.Window before m.At:
	// a *store.LimitError, nothing recorded; moves that move nothing are not
	// counted.
	MoveTeam(ctx context.Context, m TeamMove) (bool, error)

	// RequestJoin records an operator's request to join a team whose
	// captain decides. While a request of the operator for that team is
	// pending and not lapsed, it returns that one with store.ErrDuplicate;
	// if the captain declined one within cooldown before r.At, that one
	// with store.ErrConflict; past limit requests in window before r.At, a
	// *store.LimitError. A new request is pending until lifetime after
	// r.At (Expires), and gets the next request number.
	RequestJoin(ctx context.Context, r JoinRequest, limit int, window, lifetime, cooldown time.Duration) (JoinRequest, error)

	// JoinRequests returns team's requests still pending and not lapsed
	// at now, oldest first.
	JoinRequests(ctx context.Context, team string, now time.Time) ([]JoinRequest, error)

	// DecideJoin records the captain's decision on request id at at:
	// approved, its operator moves onto the team then (off any team it was
	// on); declined, it stays. store.ErrNotFound for no such request;
	// store.ErrConflict for one decided, lapsed, of a team not standing, or
	// whose operator or organization the team banned meanwhile.
	DecideJoin(ctx context.Context, id int64, approve bool, at time.Time) (JoinRequest, error)

	// BanFromTeam has team's captain remove subject, an operator or an
	// organization (every operator whose identity counts as it), at at:
	// those on the team leave it then, their pending requests are
	// declined, and TeamBanned holds them until UnbanFromTeam. It returns
	// how many left the team.
	BanFromTeam(ctx context.Context, team, subject string, at time.Time) (int, error)
	UnbanFromTeam(ctx context.Context, team, subject string) error

	// TeamBanned reports whether team banned any of subjects.
	TeamBanned(ctx context.Context, team string, subjects ...string) (bool, error)
}

// NewTeam is a team as CreateTeam records it.
type NewTeam struct {
	Name    string
	NameKey string // operators.NameKey(Name)
	// Captain is whether someone answers requests to join: false for a
	// team that takes no one new but its people's agents.
	Captain bool
	People  []string
	At      time.Time
}

// Team is a team's record.
type Team struct {
	ID      string // team:<n>
	Name    string
	NameKey string
	Captain bool
	// People are who is on the team, as the node knows people: the
	// organizations identities count as (a voucher's GitHub account or
	// card is a person's own). An agent whose organization is here joins
	// at once; any other asks the captain. Sorted.
	People  []string
	Created time.Time
	Removed time.Time // zero while it stands
}

// TeamSpan is one stretch of an operator's time on a team, [Joined, Left);
// a zero Left means it is on it still.
type TeamSpan struct {
	Operator string
	Team     string
	Joined   time.Time
	Left     time.Time
}

// TeamMove is an operator's signed request to join or leave a team.
type TeamMove struct {
	Operator string
	Team     string
	Leave    bool
	Entry    string    // the signed request's entry digest
	Signed   time.Time // the time it was signed
	At       time.Time // when the node applies it
	Limit    int       // moves in Window; zero or less, no limit
	Window   time.Duration
}

// The states of a request to join.
const (
	RequestPending  = "pending"
	RequestApproved = "approved"
	RequestDeclined = "declined"
)

// JoinRequest is a request to join a team, for its captain to decide.
type JoinRequest struct {
	ID           int64 // from 1, in the order they came
	Team         string
	Operator     string
	Organization string
	Entry        string // the team_join entry's digest
	At           time.Time
	Expires      time.Time // pending past this, it lapsed
	State        string    // RequestPending, RequestApproved or RequestDeclined
	Decided      time.Time
}
