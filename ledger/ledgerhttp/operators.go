package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/vocabulary"
)

func (s *Server) routeOperators() {
	s.mux.Handle("GET /api/v1/vocabulary", s.serve(getVocabulary))
	s.mux.Handle("POST /api/v1/operators", s.serve(s.register))
	s.mux.Handle("GET /api/v1/operators/{id}", s.serve(s.getOperator))
	s.mux.Handle("POST /api/v1/operators/{id}/name", s.serve(s.rename))
	s.mux.Handle("POST /api/v1/operators/{id}/key", s.serve(s.rotateKey))
}

// signedCall reads a signed call on operator {id}: the body's "entry" and
// the operator's record, and who signs for it now.
func (s *Server) signedCall(r *http.Request) (map[string]any, store.Operator, operators.Signer, error) {
	id := r.PathValue("id")
	if !protocol.IsOperatorID(id) {
		return nil, store.Operator{}, operators.Signer{}, httpapi.BadRequest("bad_request", "%q is not an operator ID (op: and 64 lowercase hex digits)", id)
	}
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, store.Operator{}, operators.Signer{}, err
	}
	entry, err := objectMember(body, "entry")
	if err != nil {
		return nil, store.Operator{}, operators.Signer{}, err
	}
	op, err := s.store.Operator(r.Context(), id)
	if err != nil {
		return nil, store.Operator{}, operators.Signer{}, err
	}
	return entry, op, operators.Signer{Operator: op.ID, Key: op.Key().Key, KeyFamilies: op.KeyFamilies}, nil
}

// rename answers POST /api/v1/operators/{id}/name with a signed
// operator_name entry. The node keeps names; the log holds none.
//
// A rename carries no nonce, and the spec's entry has no room for one, so
// anyone who saw it may send it again while its time is fresh (5
// minutes). The store makes it idempotent by its entry digest: the same
// entry again answers 200 with the name as it stands, changing nothing
// and counting nothing against the 5 a day; an entry signed before the
// latest one applied is a replay or a late arrival and never reverts a
// later name: 409 superseded, naming the name that stands.
func (s *Server) rename(r *http.Request) (any, int, error) {
	entry, op, signer, err := s.signedCall(r)
	if err != nil {
		return nil, 0, err
	}
	now := s.now()
	rn, err := operators.CheckRenameEntry(entry, signer, now)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	op, changed, err := s.store.Rename(r.Context(), store.NameChange{
		Operator: op.ID, Name: rn.Name, NameKey: operators.NameKey(rn.Name),
		Entry: canonical.Digest(signed), Signed: rn.Time, At: now,
		Limit: vocabulary.RenamesPerDay, Window: 24 * time.Hour,
	})
	var limit *store.LimitError
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return map[string]any{"operator": op.ID, "name": op.Name, "changed": false}, http.StatusOK, nil
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "superseded", Err: err,
			Message: fmt.Sprintf("A rename signed later than this one stands (the name is %q): sign a new one with the time now", op.Name)}
	case errors.As(err, &limit):
		return nil, 0, limitAnswer(err, limit, fmt.Sprintf("You may change your name %d times in 24 hours", vocabulary.RenamesPerDay))
	case err != nil:
		return nil, 0, err
	}
	if err := s.store.NoteModelFamily(r.Context(), op.ID, rn.ModelFamily); err != nil {
		return nil, 0, err
	}
	return map[string]any{"operator": op.ID, "name": op.Name, "changed": changed}, http.StatusOK, nil
}

// rotateKey answers POST /api/v1/operators/{id}/key with a signed
// key_rotation entry: the old key is retired for good, and the rotation is
// logged (after the operator's key entry, if that was not logged yet).
func (s *Server) rotateKey(r *http.Request) (any, int, error) {
	entry, op, signer, err := s.signedCall(r)
	if err != nil {
		return nil, 0, err
	}
	// A rotation carries no time or nonce: the very entry that moved the
	// operator to a key it holds or held answers where it stands, before
	// its signature is checked, since the key that signed it is retired.
	// Only a byte-for-byte copy of an entry the node verified matches.
	if answer, ok := rotationStanding(op, entry); ok {
		return answer, http.StatusOK, nil
	}
	newKey, err := operators.CheckRotationEntry(entry, signer)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	index, err := s.changeKey(r.Context(), op, newKey, entry, "rotation")
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"operator": op.ID, "key_digest": protocol.KeyDigest(newKey), "index": index}, http.StatusOK, nil
}

// changeKey keeps, applies and logs an entry that moves op from the key it
// holds now to newKey, a rotation or a recovery (what names it): PutSigned,
// the operator's key entry if it is not logged yet (it goes on the log
// before the entry that retires its key), the key change, which retires
// the old key for good, then the append. An entry that never reached the
// log is dropped with what it made.
func (s *Server) changeKey(ctx context.Context, op store.Operator, newKey string, entry map[string]any, what string) (uint64, error) {
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return 0, err
	}
	digest := canonical.Digest(signed)
	if err := s.store.PutSigned(ctx, digest, signed, nil); err != nil {
		if errors.Is(err, store.ErrDuplicate) {
			return 0, &httpapi.Error{Status: http.StatusConflict, Code: "duplicate", Message: "This " + what + " is already logged", Err: err}
		}
		return 0, err
	}
	if err := s.journal.PublishKey(ctx, op); err != nil {
		s.dropUnbound(ctx, digest)
		return 0, err
	}
	old := op.Key()
	op, err = s.store.RotateKey(ctx, store.Rotation{Operator: op.ID, From: old.Digest, Key: newKey, Entry: digest, At: s.now()})
	if err != nil {
		s.dropUnbound(ctx, digest)
		switch {
		case errors.Is(err, store.ErrKeyUsed):
			return 0, &httpapi.Error{Status: http.StatusConflict, Code: "key_used", Message: "The new key is or was an operator's: make a new key pair", Err: err}
		case errors.Is(err, store.ErrKeyChanged):
			return 0, &httpapi.Error{Status: http.StatusConflict, Code: "key_changed", Message: "The operator's key changed meanwhile; send the " + what + " again", Err: err}
		}
		return 0, err
	}
	hybrid.Forget(old.Key)
	index, err := s.journal.Append(ctx, digest, signed, entry, map[string]any{"operator": op.ID})
	if err != nil && appendedNothing(err) {
		s.dropUnbound(ctx, digest)
	}
	return index, err
}

// rotationStanding answers a rotation entry the operator already moved by,
// once it is logged: which key it moved to, at which index.
func rotationStanding(op store.Operator, entry map[string]any) (map[string]any, bool) {
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, false
	}
	digest := canonical.Digest(signed)
	for _, k := range op.Keys {
		if k.Entry == digest && k.Since != store.Unlogged {
			return map[string]any{"operator": op.ID, "key_digest": k.Digest, "index": k.Since}, true
		}
	}
	return nil, false
}

// ruleError maps a refusal from package operators to the spec's answer:
// 422 for a value that is well-formed JSON but breaks a rule (the spec's
// status for a bad signature and the model codes), 403 for a family that is
// not the key's.
func ruleError(err error) error {
	var oe *operators.Error
	if !errors.As(err, &oe) {
		return err
	}
	status := http.StatusUnprocessableEntity
	switch oe.Err {
	case operators.ErrMalformed:
		status = http.StatusBadRequest
	case operators.ErrKeyFamilyMismatch, operators.ErrWrongOperator, operators.ErrNoIdentity, operators.ErrRecoveryIdentity:
		status = http.StatusForbidden
	}
	return &httpapi.Error{Status: status, Code: oe.Err.Code(), Message: oe.Error(), Err: err}
}

// objectMember returns body[name] as an object, or a 400 naming it.
func objectMember(body any, name string) (map[string]any, error) {
	obj, ok := body.(map[string]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", "The body must be a JSON object")
	}
	v, ok := obj[name].(map[string]any)
	if !ok {
		return nil, httpapi.BadRequest("bad_request", "The body needs %q, an object", name)
	}
	return v, nil
}

// register answers POST /api/v1/operators: {"entry": <signed key entry>,
// "name": "..."}. Registering records the operator and keeps its key entry
// beside the log; the entry is logged with the operator's first logged
// action, as the instructions say.
func (s *Server) register(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	entry, err := objectMember(body, "entry")
	if err != nil {
		return nil, 0, err
	}
	name, _ := body.(map[string]any)["name"].(string)
	ke, err := operators.CheckKeyEntry(entry)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	// Registering again answers where the operator stands, and counts
	// against no limit.
	if op, err := s.store.Operator(r.Context(), ke.Operator); err == nil {
		return registration(op), http.StatusOK, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, 0, err
	}
	clean, err := operators.CleanName(name)
	if err != nil {
		return nil, 0, ruleError(err)
	}
	if err := s.takeLimit(r, "register:"+httpapi.ClientAddress(r), vocabulary.RegistrationsPerIP, 24*time.Hour); err != nil {
		return nil, 0, err
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	digest := canonical.Digest(signed)
	if err := s.store.PutSigned(r.Context(), digest, signed, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return nil, 0, err
	}
	op, err := s.store.CreateOperator(r.Context(), store.NewOperator{
		ID: ke.Operator, Key: ke.Key, Entry: digest, Name: clean, NameKey: operators.NameKey(clean),
		KeyFamilies: ke.ModelFamilies, Model: ke.Model, At: s.now(),
	})
	switch {
	case errors.Is(err, store.ErrDuplicate):
		return registration(op), http.StatusOK, nil
	case errors.Is(err, store.ErrKeyUsed):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "key_used", Message: "This key is or was another operator's", Err: err}
	case err != nil:
		return nil, 0, err
	}
	return registration(op), http.StatusCreated, nil
}

func registration(op store.Operator) map[string]any {
	_, identified := op.Identity()
	return map[string]any{
		"operator":    op.ID,
		"name":        op.Name,
		"status":      operatorStatus(identified),
		"can_verify":  identified,
		"can_publish": false,
	}
}

func operatorStatus(identified bool) string {
	if identified {
		return "active"
	}
	return "pending"
}

// takeLimit takes one from a rate-limit bucket, or answers 429 with when to
// try again.
func (s *Server) takeLimit(r *http.Request, bucket string, limit int, window time.Duration) error {
	ok, retry, err := s.store.Take(r.Context(), bucket, limit, window, s.now())
	if err != nil {
		return err
	}
	if !ok {
		secs := max(1, int(retry.Round(time.Second)/time.Second))
		return &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "Too many requests; try again later", RetryAfter: secs}
	}
	return nil
}

// pathOperator reads the {id} of the path and returns that operator's
// record.
func (s *Server) pathOperator(r *http.Request) (store.Operator, error) {
	id, err := httpapi.PathOperatorID(r)
	if err != nil {
		return store.Operator{}, err
	}
	return s.store.Operator(r.Context(), id)
}

// getOperator answers an operator's record. Fields for features the node
// does not run yet are present with their empty values.
func (s *Server) getOperator(r *http.Request) (any, int, error) {
	op, err := s.pathOperator(r)
	if err != nil {
		return nil, 0, err
	}
	key := op.Key()
	var identity any
	if id, ok := op.Identity(); ok {
		identity = map[string]any{"kind": id.Kind, "organization": id.Organization, "index": id.Index}
	}
	// How many invite codes the operator's organization may still make, for
	// an operator that may sponsor at all.
	var invitesLeft any
	if id, ok := op.Identity(); ok && operators.CanSponsor(op.IdentityKinds()) {
		made, err := s.store.InvitesMade(r.Context(), id.Organization, s.now().Add(-vocabulary.InviteWindow))
		if err != nil {
			return nil, 0, err
		}
		invitesLeft = max(0, vocabulary.InvitesPerOrg-made)
	}
	keys := []any{}
	for _, k := range op.Keys {
		keys = append(keys, map[string]any{"key_digest": k.Digest, "since": k.Since, "until": k.Until})
	}
	loop, err := s.verificationRecord(r.Context(), op)
	if err != nil {
		return nil, 0, err
	}
	team, err := s.operatorTeam(r.Context(), op.ID)
	if err != nil {
		return nil, 0, err
	}
	record := map[string]any{
		"operator":       op.ID,
		"name":           op.Name,
		"key":            key.Key,
		"key_digest":     key.Digest,
		"keys":           keys,
		"key_families":   op.KeyFamilies,
		"model_families": op.ModelFamilies,
		"model":          op.Model,
		"registered_at":  op.Registered.UTC().Format(time.RFC3339Nano),
		"identity":       identity,
		"identities":     op.IdentityKinds(),
		"status":         operatorStatus(identity != nil),
		"can_verify":     identity != nil,
		"can_publish":    false,
		"credit":         0,
		"team":           team,
		"withdrawn":      []any{},
		"invites_left":   invitesLeft,
	}
	for k, v := range loop {
		record[k] = v
	}
	standing, err := s.standingRecord(r.Context(), op.ID)
	if err != nil {
		return nil, 0, err
	}
	for k, v := range standing {
		record[k] = v
	}
	return record, http.StatusOK, nil
}
