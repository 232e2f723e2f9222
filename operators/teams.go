package operators

import "time"

// The signed requests that move an operator between teams ("Teams").
const (
	TeamJoinType  = "team_join"
	TeamLeaveType = "team_leave"
)

// TeamRequest is a team_join or team_leave that passed CheckTeamEntry.
type TeamRequest struct {
	Time        time.Time // when it was signed
	ModelFamily string
	Model       string
}

// CheckTeamEntry checks an operator's signed request to join or leave a
// team (typ TeamJoinType or TeamLeaveType), sent for team:
//
//	{"type": "team_join", "operator": <ID>, "team": <team ID>, "time": <now>, "model_family", "model", "sig"}
//
// for signer, at now on the node's clock, as the reference library's
// TeamJoinSchema and TeamLeaveSchema hold it: the operator must be
// signer's, the team the one the request is sent to, the time fresh
// (CheckTime), so a request seen once can't move it back later, the model
// one the key's families allow, and sig signer's current key's.
func CheckTeamEntry(entry map[string]any, typ, team string, signer Signer, now time.Time) (*TeamRequest, error) {
	if err := members(entry, typ, []string{"operator", "team", "time", "model_family", "model", "sig"}); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", signer.Operator); err != nil {
		return nil, err
	}
	named, err := str(entry, "team")
	if err != nil {
		return nil, err
	}
	if named != team {
		return nil, fail(ErrMalformed, "/team", "the entry names team %q, but was sent to %s", named, team)
	}
	t, family, model, err := freshCall(entry, signer, now)
	if err != nil {
		return nil, err
	}
	if err := verify(entry, signer.Key); err != nil {
		return nil, err
	}
	return &TeamRequest{Time: t, ModelFamily: family, Model: model}, nil
}
