package node

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

func (n *Node) routeAdmin() {
	n.mux.Handle("POST /api/v1/admin/invitations", n.serveAPI(n.admin(n.invite)))
}

// admin lets only the bearer of the node's admin token through.
func (n *Node) admin(fn apiFunc) apiFunc {
	return func(r *http.Request) (any, int, error) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if n.cfg.AdminToken == "" || !ok || subtle.ConstantTimeCompare([]byte(token), []byte(n.cfg.AdminToken)) != 1 {
			return nil, 0, &APIError{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "This needs the node's admin token"}
		}
		return fn(r)
	}
}

// invite answers POST /api/v1/admin/invitations {"operator"}: the node
// logs an "invited" identity for the operator, signed by the log's key, as
// the spec's seeding rule allows. The operator counts as its own
// organization.
func (n *Node) invite(r *http.Request) (any, int, error) {
	body, err := readJSON(r, n.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, _ := body.(map[string]any)
	id, _ := obj["operator"].(string)
	if !protocol.IsOperatorID(id) {
		return nil, 0, badRequest("bad_request", "Give \"operator\", an operator ID")
	}
	op, err := n.store.Operator(r.Context(), id)
	if err != nil {
		return nil, 0, err
	}
	entry, err := operators.SignInvitation(op.ID, n.keys.log)
	if err != nil {
		return nil, 0, err
	}
	signed, err := canonical.Marshal(entry)
	if err != nil {
		return nil, 0, err
	}
	digest := canonical.Digest(signed)
	if err := n.store.PutSigned(r.Context(), digest, signed, nil); err != nil {
		return nil, 0, err
	}
	identity, err := n.store.AddIdentity(r.Context(), store.Identity{
		Operator: op.ID, Kind: "invited", Organization: op.ID, Entry: digest, Added: n.now(),
	})
	if errors.Is(err, store.ErrDuplicate) || errors.Is(err, store.ErrIdentityTaken) {
		n.store.DropUnbound(r.Context(), digest)
		return nil, 0, &APIError{Status: http.StatusConflict, Code: "already_identified", Message: "The operator already has this identity", Err: err}
	}
	if err != nil {
		n.store.DropUnbound(r.Context(), digest)
		return nil, 0, err
	}
	if err := n.publishKey(r, op); err != nil {
		return nil, 0, err
	}
	index, err := n.logEntry(r, digest, signed, entry, map[string]any{"operator": op.ID, "organization": identity.Organization})
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"operator": op.ID, "kind": "invited", "organization": identity.Organization, "index": index}, http.StatusCreated, nil
}

// publishKey logs the operator's key entry if it is not logged yet: an
// operator's key goes on the log with its first logged action.
func (n *Node) publishKey(r *http.Request, op store.Operator) error {
	if op.Keys[0].Since != store.Unlogged {
		return nil
	}
	// Two first actions of one operator at once must log its key once: the
	// second waits for the first, then finds the key logged. Other
	// operators' first actions go on side by side.
	for {
		n.publishMu.Lock()
		busy, ok := n.publishing[op.ID]
		if !ok {
			busy = make(chan struct{})
			n.publishing[op.ID] = busy
			n.publishMu.Unlock()
			break
		}
		n.publishMu.Unlock()
		select {
		case <-busy:
		case <-r.Context().Done():
			return r.Context().Err()
		}
	}
	defer func() {
		n.publishMu.Lock()
		close(n.publishing[op.ID])
		delete(n.publishing, op.ID)
		n.publishMu.Unlock()
	}()
	op, err := n.store.Operator(r.Context(), op.ID)
	if err != nil {
		return err
	}
	first := op.Keys[0]
	if first.Since != store.Unlogged {
		return nil
	}
	s, err := n.store.SignedByDigest(r.Context(), first.Entry)
	if err != nil {
		return fmt.Errorf("the key entry of %s: %w", op.ID, err)
	}
	entry, err := canonical.Parse(s.Entry)
	if err != nil {
		return fmt.Errorf("the key entry of %s as kept: %w", op.ID, err)
	}
	// The action that needed the key logs right after it, and waits for a
	// checkpoint covering both; the key entry need only be sequenced first.
	_, err = n.appendEntry(r.Context(), first.Entry, s.Entry, entry.(map[string]any), map[string]any{"operator": op.ID}, false)
	return err
}

// logEntry appends a signed entry's leaf (leafFields plus the timestamp and
// the entry with its signatures detached) and binds the entry to its index.
// It returns once the entry is durable and provable.
func (n *Node) logEntry(r *http.Request, digest string, signed []byte, entry, leafFields map[string]any) (uint64, error) {
	return n.appendEntry(r.Context(), digest, signed, entry, leafFields, true)
}

// appendEntry is logEntry; with published false it returns once the entry
// is durably sequenced, not yet in a published checkpoint (translog.Sequence).
func (n *Node) appendEntry(ctx context.Context, digest string, signed []byte, entry, leafFields map[string]any, published bool) (uint64, error) {
	detached, err := protocol.Detach(entry)
	if err != nil {
		return 0, err
	}
	leaf := map[string]any{"timestamp": tlog.FormatTimestamp(n.now()), "entry": detached}
	for k, v := range leafFields {
		leaf[k] = v
	}
	leafBytes, err := tlog.LeafBytes(leaf)
	if err != nil {
		return 0, err
	}
	// Once the entry is on its way to the log, a client hanging up must not
	// leave it logged but unbound: finish the append and the binding.
	ctx = context.WithoutCancel(ctx)
	if err := n.store.PutSigned(ctx, digest, signed, leafBytes); err != nil {
		return 0, err
	}
	appendLeaf := n.log.Append
	if !published {
		appendLeaf = n.log.Sequence
	}
	index, err := appendLeaf(ctx, leafBytes)
	if err != nil {
		return 0, err
	}
	if err := n.store.BindIndex(ctx, int64(index), digest); err != nil {
		return 0, err
	}
	return index, nil
}
