package node

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
)

// The memory: memory-agent-ingress/v1 at its own path, answered by
// memory/engine. Adapters are let in by a bearer token the admin issues
// for each adapter id:
//
//	POST /v1/agent-ingress/{adapter_id}/events/{kind}   Authorization: Bearer <adapter token>
//	POST /api/v1/admin/memory/adapters                  {"adapter_id"} → 201 {"adapter_id", "token"}
//	POST /api/v1/admin/memory/profiles                  <memory-profile/v1> → 201 (200 if kept) {"id", "revision", "digest"}
//	GET  /api/v1/admin/memory/sessions/{handle}/receipts → 200 {"receipts": [{kind, record_ref, payload, at}]}
//
// The ingress route answers in the contract's own shape ({"ok":true,
// "result"} or {"ok":false,"error"}), not the node's {"error","code"}; the
// admin routes answer as every other admin route does.

func (n *Node) routeMemory() {
	n.mux.HandleFunc("POST /v1/agent-ingress/{adapter_id}/events/{kind}", n.ingress)
	n.mux.Handle("POST /api/v1/admin/memory/adapters", n.serveAPI(n.admin(n.issueAdapterToken)))
	n.mux.Handle("POST /api/v1/admin/memory/profiles", n.serveAPI(n.admin(n.putMemoryProfile)))
	n.mux.Handle("GET /api/v1/admin/memory/sessions/{handle}/receipts", n.serveAPI(n.admin(n.memoryReceipts)))
}

// ingress answers one event. The body is read before the token is checked
// (the engine checks it first of all), up to one byte over the contract's
// bound, so an oversized event is refused as the contract says and no
// more is read.
func (n *Node) ingress(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	body, err := io.ReadAll(io.LimitReader(r.Body, memory.MaxEventBytes+1))
	var out []byte
	var status int
	if err != nil {
		out, status = memory.MarshalError(memory.NewError(memory.CodeBadRequest, "the body could not be read"))
	} else {
		out, status, err = n.memory.Handle(r.Context(), r.PathValue("adapter_id"), r.PathValue("kind"), token, body)
	}
	switch {
	case err != nil && status >= 500:
		n.logger.Error("memory event failed", "path", r.URL.Path, "status", status, "err", err)
	case err != nil:
		n.logger.Debug("memory event refused", "path", r.URL.Path, "status", status, "err", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(out)
}

// issueAdapterToken answers POST /api/v1/admin/memory/adapters
// {"adapter_id"}: a new token for the adapter, shown this once. Issuing
// again rotates it.
func (n *Node) issueAdapterToken(r *http.Request) (any, int, error) {
	body, err := readJSON(r, n.cfg.MaxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, _ := body.(map[string]any)
	id, _ := obj["adapter_id"].(string)
	token, err := n.memory.IssueToken(r.Context(), id)
	if errors.Is(err, engine.ErrAdapterID) {
		return nil, 0, badRequest("bad_request", "Give \"adapter_id\": a lowercase letter, then up to 63 of a-z, 0-9, _ and -")
	}
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"adapter_id": id, "token": token}, http.StatusCreated, nil
}

// putMemoryProfile answers POST /api/v1/admin/memory/profiles with a
// memory-profile/v1 document: kept for sessions to pin by profile_ref.
func (n *Node) putMemoryProfile(r *http.Request) (any, int, error) {
	if r.ContentLength > memory.MaxProfileBytes {
		return nil, 0, tooLarge(memory.MaxProfileBytes)
	}
	doc, err := io.ReadAll(io.LimitReader(r.Body, memory.MaxProfileBytes+1))
	if err != nil {
		return nil, 0, badRequest("bad_request", "The body could not be read")
	}
	pin, created, err := n.memory.PutProfile(r.Context(), doc)
	var me *memory.Error
	switch {
	case errors.As(err, &me):
		return nil, 0, &APIError{Status: memory.HTTPStatus(me.Code), Code: me.Code, Message: me.Message, Err: err}
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &APIError{Status: http.StatusConflict, Code: "conflict",
			Message: "This revision of the profile is kept with another document: give the changed profile a new revision", Err: err}
	case err != nil:
		return nil, 0, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return map[string]any{"id": pin.ID, "revision": pin.Revision, "digest": pin.Digest}, status, nil
}

// memoryReceipts answers GET /api/v1/admin/memory/sessions/{handle}/receipts.
func (n *Node) memoryReceipts(r *http.Request) (any, int, error) {
	rs, err := n.memory.Receipts(r.Context(), r.PathValue("handle"))
	if err != nil {
		return nil, 0, err
	}
	list := make([]any, 0, len(rs))
	for _, rc := range rs {
		payload, err := canonical.Parse(rc.Payload)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, map[string]any{"kind": rc.Kind, "record_ref": rc.RecordRef, "payload": payload,
			"at": rc.At.UTC().Format("2006-01-02T15:04:05.000000000Z")})
	}
	return map[string]any{"receipts": list}, http.StatusOK, nil
}
