package ledgerhttp

import (
	"errors"
	"net/http"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

func (s *Server) routeAdmin() {
	s.mux.Handle("POST /api/v1/admin/invitations", s.serve(s.admin(s.invite)))
}

// invite answers POST /api/v1/admin/invitations {"operator"}: the node
// logs an "invited" identity for the operator, signed by the log's key, as
// the spec's seeding rule allows. The operator counts as its own
// organization.
func (s *Server) invite(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, _ := body.(map[string]any)
	id, _ := obj["operator"].(string)
	if !protocol.IsOperatorID(id) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"operator\", an operator ID")
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	entry, err := operators.SignInvitation(op.ID, s.logKey)
	if err != nil {
		return nil, 0, err
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	digest := canonical.Digest(signed)
	if err := s.store.PutSigned(r.Context(), digest, signed, nil); err != nil {
		return nil, 0, err
	}
	identity, err := s.store.AddIdentity(r.Context(), store.Identity{
		Operator: op.ID, Kind: "invited", Organization: op.ID, Entry: digest, Added: s.now(),
	})
	if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrIdentityTaken) {
		s.store.DropUnbound(r.Context(), digest)
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "already_identified", Message: "The operator already has this identity", Err: err}
	}
	if err != nil {
		s.store.DropUnbound(r.Context(), digest)
		return nil, 0, err
	}
	if err := s.journal.PublishKey(r.Context(), op); err != nil {
		return nil, 0, err
	}
	index, err := s.journal.Append(r.Context(), digest, signed, entry, map[string]any{"operator": op.ID, "organization": identity.Organization})
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"operator": op.ID, "kind": "invited", "organization": identity.Organization, "index": index}, http.StatusCreated, nil
}
