package ledgerhttp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/teams"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

// NectarEvents returns every nectar event the node's accounting knows:
// what each operator earned (or lost), and when. Teams sum them over their
// members' spans (package ledger/teams).
type NectarEvents func(ctx context.Context) ([]teams.Event, error)

// Pages of GET /api/v1/teams.
const (
	DefaultTeamsPage = 20
	MaxTeamsPage     = 100
)

func (s *Server) routeTeams() {
	s.mux.Handle("GET /api/v1/teams", s.serve(s.listTeams))
	s.mux.Handle("GET /api/v1/teams/{id}", s.serve(s.getTeam))
	s.mux.Handle("POST /api/v1/teams/{id}/join", s.serve(s.joinTeam))
	s.mux.Handle("POST /api/v1/teams/{id}/leave", s.serve(s.leaveTeam))
	s.routeTeamAdmin()
}

// nectarEvents is every operator's dated nectar, as the node's standing
// sheet (ledger/standing) derives it from the log, unless Deps.Nectar
// replaces it. The sheet is as fresh as an operator record's and the
// leaderboard's (made again only once the log grew or a rating came in),
// so that a team's nectar is always its members' as their records show
// it: a sheet kept for limits' checks may be RefreshStanding old.
func (s *Server) nectarEvents(ctx context.Context) ([]teams.Event, error) {
	if s.nectar != nil {
		return s.nectar(ctx)
	}
	sheet, err := s.standingSheet(ctx, true)
	if err != nil {
		return nil, err
	}
	out := make([]teams.Event, 0, len(sheet.Events))
	for _, e := range sheet.Events {
		out = append(out, teams.Event{Operator: e.Operator, At: e.At, Amount: float64(e.Amount)})
	}
	return out, nil
}

// teamTable is every standing team's nectar in both periods, its place in
// each, and who is on it now.
type teamTable struct {
	teams   []ledger.Team
	tally   map[string]map[string]*teams.Tally // period → team → tally
	place   map[string]map[string]int          // period → team → place
	members map[string][]ledger.TeamSpan       // team → open spans
}

func (st *teamTable) nectar(period, team string) float64 {
	if t := st.tally[period][team]; t != nil {
		return t.Total
	}
	return 0
}

// teamStandings sums the nectar events over every team's spans.
func (s *Server) teamStandings(ctx context.Context) (*teamTable, error) {
	list, err := s.store.Teams(ctx)
	if err != nil {
		return nil, err
	}
	stored, err := s.store.TeamSpans(ctx, "")
	if err != nil {
		return nil, err
	}
	events, err := s.nectarEvents(ctx)
	if err != nil {
		return nil, fmt.Errorf("nectar events: %w", err)
	}
	st := &teamTable{teams: list, tally: map[string]map[string]*teams.Tally{}, place: map[string]map[string]int{},
		members: map[string][]ledger.TeamSpan{}}
	spans := make([]teams.Span, 0, len(stored))
	for _, sp := range stored {
		spans = append(spans, teams.Span{Operator: sp.Operator, Team: sp.Team, Joined: sp.Joined, Left: sp.Left})
		if sp.Left.IsZero() {
			st.members[sp.Team] = append(st.members[sp.Team], sp)
		}
	}
	periods := []string{teams.PeriodAll, teams.Period30Days}
	sinces := make([]time.Time, len(periods))
	for i, period := range periods {
		sinces[i], _ = teams.Since(period, s.now())
	}
	tallies := teams.SumPeriods(spans, events, sinces...)
	for i, period := range periods {
		st.tally[period] = tallies[i]
		totals := make([]float64, len(list))
		for i, t := range list {
			totals[i] = st.nectar(period, t.ID)
		}
		st.place[period] = map[string]int{}
		for i, t := range list {
			st.place[period][t.ID] = teams.Place(totals[i], totals)
		}
	}
	return st, nil
}

// listTeams answers GET /api/v1/teams?q=&period=&limit=: standing teams
// ranked by the nectar their members earned on them, of all time or of 30
// days; q keeps those whose name holds it, ignoring case, spacing and
// look-alike letters, each still with its place among all.
func (s *Server) listTeams(r *http.Request) (any, int, error) {
	q := r.URL.Query()
	for name := range q {
		switch name {
		case "q", "period", "limit":
		default:
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q", name)
		}
	}
	period := cmp.Or(q.Get("period"), teams.PeriodAll)
	if _, err := teams.Since(period, s.now()); err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "%v", err)
	}
	limit := DefaultTeamsPage
	if v, ok, err := httpapi.QueryUint(r, "limit"); err != nil {
		return nil, 0, err
	} else if ok {
		if v < 1 || v > MaxTeamsPage {
			return nil, 0, httpapi.BadRequest("bad_request", "limit is 1 to %d", MaxTeamsPage)
		}
		limit = int(v)
	}
	st, err := s.teamStandings(r.Context())
	if err != nil {
		return nil, 0, err
	}
	words := teams.NameKey(strings.TrimSpace(q.Get("q")))
	var found []ledger.Team
	for _, t := range st.teams {
		if strings.Contains(t.NameKey, words) {
			found = append(found, t)
		}
	}
	slices.SortStableFunc(found, func(a, b ledger.Team) int {
		return cmp.Compare(st.place[period][a.ID], st.place[period][b.ID]) // ties stay by number
	})
	results := []any{}
	for _, t := range found[:min(limit, len(found))] {
		results = append(results, map[string]any{"team": t.ID, "name": t.Name, "nectar": st.nectar(period, t.ID),
			"members": len(st.members[t.ID]), "place": st.place[period][t.ID]})
	}
	return map[string]any{"period": period, "teams": len(found), "results": results}, http.StatusOK, nil
}

// pathTeam reads the {id} of the path as a team ID.
func pathTeam(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if !teams.IsID(id) {
		return "", httpapi.BadRequest("bad_request", "%q is not a team ID (team: and a number)", id)
	}
	return id, nil
}

// standingTeam returns a team that stands, or 404.
func (s *Server) standingTeam(ctx context.Context, id string) (ledger.Team, error) {
	t, err := s.store.Team(ctx, id)
	if err != nil {
		return ledger.Team{}, err
	}
	if !t.Removed.IsZero() {
		return ledger.Team{}, httpapi.NotFound("Team %s was removed", id)
	}
	return t, nil
}

// getTeam answers GET /api/v1/teams/{id}: its nectar and places in both
// periods, whether it has a captain, the domains its agents proved, how
// many people are on it, and its members with what each brought it.
func (s *Server) getTeam(r *http.Request) (any, int, error) {
	id, err := pathTeam(r)
	if err != nil {
		return nil, 0, err
	}
	t, err := s.standingTeam(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	st, err := s.teamStandings(r.Context())
	if err != nil {
		return nil, 0, err
	}
	brought := map[string]float64{}
	if tally := st.tally[teams.PeriodAll][id]; tally != nil {
		brought = tally.ByOperator
	}
	domains := []string{}
	members := []any{}
	for _, sp := range st.members[id] {
		op, err := s.store.Operator(r.Context(), sp.Operator)
		if err != nil {
			return nil, 0, err
		}
		for _, identity := range op.Identities {
			if identity.Kind == vocabulary.IdentityDomain && !slices.Contains(domains, identity.Subject) {
				domains = append(domains, identity.Subject)
			}
		}
		members = append(members, map[string]any{"operator": op.ID, "name": op.Name, "nectar": brought[op.ID],
			"joined_at": sp.Joined.UTC().Format(time.RFC3339)})
	}
	slices.Sort(domains)
	return map[string]any{
		"team": t.ID, "name": t.Name, "has_captain": t.Captain, "people": len(t.People),
		"nectar":  map[string]any{teams.PeriodAll: st.nectar(teams.PeriodAll, id), teams.Period30Days: st.nectar(teams.Period30Days, id)},
		"places":  map[string]any{teams.PeriodAll: st.place[teams.PeriodAll][id], teams.Period30Days: st.place[teams.Period30Days][id]},
		"domains": domains, "members": members, "created_at": t.Created.UTC().Format(time.RFC3339),
	}, http.StatusOK, nil
}

// teamCall reads a signed team_join or team_leave sent to team {id}: the
// body's "entry", checked against the key of the operator it names.
func (s *Server) teamCall(r *http.Request, typ string) (string, store.Operator, *operators.TeamRequest, string, error) {
	id, err := pathTeam(r)
	if err != nil {
		return "", store.Operator{}, nil, "", err
	}
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return "", store.Operator{}, nil, "", err
	}
	entry, err := objectMember(body, "entry")
	if err != nil {
		return "", store.Operator{}, nil, "", err
	}
	named, _ := entry["operator"].(string)
	if !protocol.IsOperatorID(named) {
		return "", store.Operator{}, nil, "", httpapi.BadRequest(operators.ErrMalformed.Code(),
			"The entry's \"operator\" is an operator ID: op: and 64 lowercase hex digits")
	}
	op, err := s.store.Operator(r.Context(), named)
	if err != nil {
		return "", store.Operator{}, nil, "", err
	}
	signer := operators.Signer{Operator: op.ID, Key: op.Key().Key, KeyFamilies: op.KeyFamilies}
	req, err := operators.CheckTeamEntry(entry, typ, id, signer, s.now())
	if err != nil {
		return "", store.Operator{}, nil, "", ruleError(err)
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return "", store.Operator{}, nil, "", err
	}
	if err := s.store.NoteModelFamily(r.Context(), op.ID, req.ModelFamily); err != nil {
		return "", store.Operator{}, nil, "", err
	}
	return id, op, req, canonical.Digest(signed), nil
}

// joinTeam answers POST /api/v1/teams/{id}/join with a signed team_join:
// at once for an agent whose person is on the team, else a request to its
// captain, which takes an identity.
func (s *Server) joinTeam(r *http.Request) (any, int, error) {
	id, op, req, digest, err := s.teamCall(r, operators.TeamJoinType)
	if err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	t, err := s.standingTeam(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	identity, identified := op.Identity()
	if banned, err := s.store.TeamBanned(ctx, id, op.ID, identity.Organization); err != nil {
		return nil, 0, err
	} else if banned {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "banned",
			Message: "This team's captain removed you or your person: you can't join or ask again until they let you"}
	}
	on, err := s.store.OperatorTeam(ctx, op.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, 0, err
	}
	if on.ID == t.ID || identified && slices.Contains(t.People, identity.Organization) {
		// On the team already, the request is recorded all the same, so
		// that it can't move the agent back once it has left.
		moved, err := s.store.MoveTeam(ctx, ledger.TeamMove{Operator: op.ID, Team: t.ID, Entry: digest, Signed: req.Time, At: s.now(),
			Limit: teams.ChangesDay, Window: 24 * time.Hour})
		if err != nil && !(errors.Is(err, store.ErrDuplicate) && on.ID == t.ID) {
			return nil, 0, teamMoveError(err)
		}
		return map[string]any{"team": t.ID, "name": t.Name, "status": "joined", "moved": moved}, http.StatusOK, nil
	}
	if !t.Captain {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "no_captain",
			Message: "This team takes no one new: only its people's agents join it"}
	}
	if !identified {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "no_identity",
			Message: "Asking a team's captain takes an identity (see \"Identity\")"}
	}
	jr, err := s.store.RequestJoin(ctx, ledger.JoinRequest{Team: t.ID, Operator: op.ID, Organization: identity.Organization, Entry: digest, At: s.now()},
		teams.JoinRequestsDay, 24*time.Hour, teams.RequestLifetime, teams.DeclinedCooldown)
	var limit *store.LimitError
	switch {
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "declined", Err: err,
			Message: fmt.Sprintf("The captain turned down your request lately: ask again after %s",
				jr.Decided.Add(teams.DeclinedCooldown).UTC().Format(time.RFC3339))}
	case errors.As(err, &limit):
		return nil, 0, limitAnswer(err, limit, fmt.Sprintf("At most %d requests to join teams in 24 hours", teams.JoinRequestsDay))
	case err != nil && !errors.Is(err, store.ErrDuplicate):
		return nil, 0, err
	}
	return map[string]any{"status": "requested", "request": jr.ID, "requested_at": jr.At.UTC().Format(time.RFC3339)}, http.StatusOK, nil
}

// leaveTeam answers POST /api/v1/teams/{id}/leave with a signed
// team_leave: {"team", "moved"}, moved false if it was not on the team.
func (s *Server) leaveTeam(r *http.Request) (any, int, error) {
	id, op, req, digest, err := s.teamCall(r, operators.TeamLeaveType)
	if err != nil {
		return nil, 0, err
	}
	if _, err := s.store.Team(r.Context(), id); err != nil {
		return nil, 0, err
	}
	moved, err := s.store.MoveTeam(r.Context(), ledger.TeamMove{Operator: op.ID, Team: id, Leave: true, Entry: digest, Signed: req.Time, At: s.now(),
		Limit: teams.ChangesDay, Window: 24 * time.Hour})
	if errors.Is(err, store.ErrDuplicate) {
		return map[string]any{"team": id, "moved": false}, http.StatusOK, nil
	}
	if err != nil {
		return nil, 0, teamMoveError(err)
	}
	return map[string]any{"team": id, "moved": moved}, http.StatusOK, nil
}

// teamMoveError maps MoveTeam's refusals to the spec's answers.
func teamMoveError(err error) error {
	var limit *store.LimitError
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return &httpapi.Error{Status: http.StatusConflict, Code: "superseded", Err: err,
			Message: "This request was applied before, and a later one moved you since: sign a new one with the time now"}
	case errors.Is(err, store.ErrConflict):
		return &httpapi.Error{Status: http.StatusConflict, Code: "superseded", Err: err,
			Message: "A team request signed later than this one stands: sign a new one with the time now"}
	case errors.As(err, &limit):
		return limitAnswer(err, limit, fmt.Sprintf("An agent changes teams at most %d times in 24 hours", teams.ChangesDay))
	}
	return err
}

// limitAnswer is the spec's 429 for a store's *store.LimitError: message,
// and when to try again.
func limitAnswer(err error, limit *store.LimitError, message string) error {
	return &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Err: err, Message: message,
		RetryAfter: max(1, int(limit.RetryAfter.Round(time.Second)/time.Second))}
}

// operatorTeam is the operator record's "team": {"team", "name"} or null.
func (s *Server) operatorTeam(ctx context.Context, operator string) (any, error) {
	t, err := s.store.OperatorTeam(ctx, operator)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"team": t.ID, "name": t.Name}, nil
}
