package ledgerhttp

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/teams"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The spec's people start teams, and a team's captain, a person, decides
// who joins. This node has no people's accounts yet, so its admin stands
// in for both: it starts teams, names the people on them, and answers
// requests and removes agents as the captain would.
func (s *Server) routeTeamAdmin() {
	s.mux.Handle("POST /api/v1/admin/teams", s.serve(s.admin(s.createTeam)))
	s.mux.Handle("DELETE /api/v1/admin/teams/{id}", s.serve(s.admin(s.removeTeam)))
	s.mux.Handle("POST /api/v1/admin/teams/{id}/people", s.serve(s.admin(s.addTeamPerson)))
	s.mux.Handle("GET /api/v1/admin/teams/{id}/requests", s.serve(s.admin(s.teamRequests)))
	s.mux.Handle("POST /api/v1/admin/teams/{id}/requests/{request}", s.serve(s.admin(s.decideTeamRequest)))
	s.mux.Handle("POST /api/v1/admin/teams/{id}/bans", s.serve(s.admin(s.banFromTeam)))
	s.mux.Handle("DELETE /api/v1/admin/teams/{id}/bans/{subject}", s.serve(s.admin(s.unbanFromTeam)))
}

// adminBody reads an admin route's JSON object body.
func (s *Server) adminBody(r *http.Request) (map[string]any, error) {
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	obj, ok := body.(map[string]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", "The body must be a JSON object")
	}
	return obj, nil
}

// teamAdminCall reads an admin call on team {id}: the ID and the body.
func (s *Server) teamAdminCall(r *http.Request) (string, map[string]any, error) {
	id, err := pathTeam(r)
	if err != nil {
		return "", nil, err
	}
	obj, err := s.adminBody(r)
	return id, obj, err
}

// isPerson reports whether s names who a person is here: an organization
// an identity counts as (a domain, github:<ID>, card:<hex>) or, for an
// invited identity, the operator itself.
func isPerson(s string) bool {
	return operators.IsVoucher(s) || operators.IsGitHubOrganization(s) || protocol.IsOperatorID(s) || operators.CheckDomain(s) == nil
}

// people reads an optional list of people.
func people(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", "\"people\" is a list of organizations")
	}
	out := make([]string, 0, len(list))
	for _, p := range list {
		ps, ok := p.(string)
		if !ok || !isPerson(ps) {
			return nil, httpapi.BadRequest("bad_request", "%v is not an organization: a domain, github:<ID>, card:<hex> or an operator ID", p)
		}
		out = append(out, ps)
	}
	return out, nil
}

func teamAnswer(t ledger.Team) map[string]any {
	return map[string]any{"team": t.ID, "name": t.Name, "has_captain": t.Captain, "people": t.People,
		"created_at": t.Created.UTC().Format(time.RFC3339)}
}

// createTeam answers POST /api/v1/admin/teams {"name", "captain", "people"}:
// a new team, with a captain to answer requests unless captain is false.
func (s *Server) createTeam(r *http.Request) (any, int, error) {
	obj, err := s.adminBody(r)
	if err != nil {
		return nil, 0, err
	}
	for k := range obj {
		if k != "name" && k != "captain" && k != "people" {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown member %q: give name, captain and people", k)
		}
	}
	name, _ := obj["name"].(string)
	if err := teams.CheckName(name); err != nil {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_name", Message: err.Error(), Err: err}
	}
	captain := true
	if v, ok := obj["captain"]; ok {
		if captain, ok = v.(bool); !ok {
			return nil, 0, httpapi.BadRequest("bad_request", "\"captain\" is true or false")
		}
	}
	ps, err := people(obj["people"])
	if err != nil {
		return nil, 0, err
	}
	t, err := s.store.CreateTeam(r.Context(), ledger.NewTeam{Name: name, NameKey: teams.NameKey(name), Captain: captain, People: ps, At: s.now()})
	if errors.Is(err, store.ErrDuplicate) {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "name_taken", Err: err,
			Message: "Team " + t.ID + " is called " + strconv.Quote(t.Name) + ": choose another name"}
	}
	if err != nil {
		return nil, 0, err
	}
	return teamAnswer(t), http.StatusCreated, nil
}

// removeTeam answers DELETE /api/v1/admin/teams/{id}: a person at the node
// removes a team whose name breaks the rules; its agents leave it.
func (s *Server) removeTeam(r *http.Request) (any, int, error) {
	id, err := pathTeam(r)
	if err != nil {
		return nil, 0, err
	}
	t, err := s.store.RemoveTeam(r.Context(), id, s.now())
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		return nil, 0, err
	}
	answer := teamAnswer(t)
	answer["removed_at"] = t.Removed.UTC().Format(time.RFC3339)
	return answer, http.StatusOK, nil
}

// addTeamPerson answers POST /api/v1/admin/teams/{id}/people {"person"}:
// the person joins the team, off any other, which moves every agent of
// theirs onto it; "moved" counts them.
func (s *Server) addTeamPerson(r *http.Request) (any, int, error) {
	id, obj, err := s.teamAdminCall(r)
	if err != nil {
		return nil, 0, err
	}
	ps, err := people([]any{obj["person"]})
	if err != nil {
		return nil, 0, err
	}
	moved, err := s.store.AddTeamPerson(r.Context(), id, ps[0], s.now())
	if err != nil {
		return nil, 0, err
	}
	t, err := s.store.Team(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	answer := teamAnswer(t)
	answer["moved"] = moved
	return answer, http.StatusOK, nil
}

func requestAnswer(jr ledger.JoinRequest) map[string]any {
	return map[string]any{"request": jr.ID, "team": jr.Team, "operator": jr.Operator, "organization": jr.Organization,
		"status": jr.State, "requested_at": jr.At.UTC().Format(time.RFC3339), "expires_at": jr.Expires.UTC().Format(time.RFC3339)}
}

// teamRequests answers GET /api/v1/admin/teams/{id}/requests: the requests
// waiting on the captain, oldest first.
func (s *Server) teamRequests(r *http.Request) (any, int, error) {
	id, err := pathTeam(r)
	if err != nil {
		return nil, 0, err
	}
	if _, err := s.store.Team(r.Context(), id); err != nil {
		return nil, 0, err
	}
	list, err := s.store.JoinRequests(r.Context(), id, s.now())
	if err != nil {
		return nil, 0, err
	}
	out := []any{}
	for _, jr := range list {
		out = append(out, requestAnswer(jr))
	}
	return map[string]any{"team": id, "requests": out}, http.StatusOK, nil
}

// decideTeamRequest answers POST /api/v1/admin/teams/{id}/requests/{request}
// {"approve": true|false}: the captain's decision.
func (s *Server) decideTeamRequest(r *http.Request) (any, int, error) {
	id, err := pathTeam(r)
	if err != nil {
		return nil, 0, err
	}
	n, err := strconv.ParseInt(r.PathValue("request"), 10, 64)
	if err != nil || n < 1 {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a request number", r.PathValue("request"))
	}
	obj, err := s.adminBody(r)
	if err != nil {
		return nil, 0, err
	}
	approve, ok := obj["approve"].(bool)
	if !ok || len(obj) != 1 {
		return nil, 0, httpapi.BadRequest("bad_request", "Give {\"approve\": true} or {\"approve\": false}")
	}
	list, err := s.store.JoinRequests(r.Context(), id, s.now())
	if err != nil {
		return nil, 0, err
	}
	if !slices.ContainsFunc(list, func(jr ledger.JoinRequest) bool { return jr.ID == n }) {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "not_pending",
			Message: "No request " + strconv.FormatInt(n, 10) + " to " + id + " waits on the captain"}
	}
	jr, err := s.store.DecideJoin(r.Context(), n, approve, s.now())
	if errors.Is(err, store.ErrConflict) {
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "not_pending", Err: err,
			Message: "The request no longer waits on the captain, or its agent was removed from the team"}
	}
	if err != nil {
		return nil, 0, err
	}
	return requestAnswer(jr), http.StatusOK, nil
}

// banFromTeam answers POST /api/v1/admin/teams/{id}/bans {"subject"}: the
// captain removes an agent, or every agent of a person, from the team, and
// it can't join or ask again until unbanned.
func (s *Server) banFromTeam(r *http.Request) (any, int, error) {
	id, obj, err := s.teamAdminCall(r)
	if err != nil {
		return nil, 0, err
	}
	subject, _ := obj["subject"].(string)
	if !isPerson(subject) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"subject\": an operator ID or an organization")
	}
	left, err := s.store.BanFromTeam(r.Context(), id, subject, s.now())
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"team": id, "subject": subject, "banned": true, "left": left}, http.StatusOK, nil
}

// unbanFromTeam answers DELETE /api/v1/admin/teams/{id}/bans/{subject}.
func (s *Server) unbanFromTeam(r *http.Request) (any, int, error) {
	id, err := pathTeam(r)
	if err != nil {
		return nil, 0, err
	}
	subject := r.PathValue("subject")
	if !isPerson(subject) {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not an operator ID or an organization", subject)
	}
	if err := s.store.UnbanFromTeam(r.Context(), id, subject); err != nil {
		return nil, 0, err
	}
	return map[string]any{"team": id, "subject": subject, "banned": false}, http.StatusOK, nil
}
