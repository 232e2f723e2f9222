// Package memoryhttp serves the memory: memory-agent-ingress/v1
// (memory/memory-agent-ingress-v1.schema.json) at its own path, answered by
// memory/engine. Adapters are let in by a bearer token the admin issues
// for each adapter id:
//
//	POST /v1/agent-ingress/{adapter_id}/events/{kind}   Authorization: Bearer <adapter token>
//	POST /api/v1/admin/memory/adapters                  {"adapter_id"} → 201 {"adapter_id", "token"}
//	POST /api/v1/admin/memory/profiles                  <memory-profile/v1> → 201 (200 if kept) {"id", "revision", "digest"}
//	GET  /api/v1/admin/memory/sessions/{handle}/receipts → 200 {"receipts": [{kind, session, record_ref, payload, at}]}
//
// and the records as a person reads them, also by admin:
//
//	GET    /api/v1/admin/memory/search?q=&project=&limit=  → 200 {"hits": [hit]}, best first
//	GET    /api/v1/admin/memory/records?project=&adapter=&limit= → 200 {"records": [record]}, changed last first
//	GET    /api/v1/admin/memory/records/{ref}              → 200 {"record", "adapter", "fix", "marks", "receipts"}
//	DELETE /api/v1/admin/memory/records/{ref}              → 200 {"removed": record, "receipts": n}
//	POST   /api/v1/admin/memory/records/{ref}/correct      {"title", "content": {what, why, where, learned}} → 200 {"record"}
//	POST   /api/v1/admin/memory/records/{ref}/share        → 200 {"record", "shared": true}
//	POST   /api/v1/admin/memory/records/{ref}/unshare      → 200 {"record", "shared": false}
//
// A record belongs to the adapter whose session wrote it; other adapters'
// sessions read it only when their profile's reads names that adapter (or
// all), or when the admin shared it here, having read it. A shared record
// may also be superseded by other adapters' notes. A new revision is not
// shared until it is shared again.
//
// A hit and a record are the contract's hit and query-read record, so a
// person sees what an agent would.
//
// The ingress route answers in the contract's own shape ({"ok":true,
// "result"} or {"ok":false,"error"}), not the node's {"error","code"}; the
// admin routes answer as every other admin route does.
package memoryhttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
)

func (s *Server) routeMemory() {
	s.mux.HandleFunc("POST /v1/agent-ingress/{adapter_id}/events/{kind}", s.ingress)
	s.mux.Handle("POST /api/v1/admin/memory/adapters", s.serve(s.admin(s.issueAdapterToken)))
	s.mux.Handle("POST /api/v1/admin/memory/profiles", s.serve(s.admin(s.putMemoryProfile)))
	s.mux.Handle("GET /api/v1/admin/memory/sessions/{handle}/receipts", s.serve(s.admin(s.memoryReceipts)))
	s.mux.Handle("GET /api/v1/admin/memory/search", s.serve(s.admin(s.searchMemory)))
	s.mux.Handle("GET /api/v1/admin/memory/records", s.serve(s.admin(s.memoryRecords)))
	s.mux.Handle("GET /api/v1/admin/memory/records/{ref}", s.serve(s.admin(s.memoryRecord)))
	s.mux.Handle("DELETE /api/v1/admin/memory/records/{ref}", s.serve(s.admin(s.forgetMemoryRecord)))
	s.mux.Handle("POST /api/v1/admin/memory/records/{ref}/correct", s.serve(s.admin(s.correctMemoryRecord)))
	s.mux.Handle("POST /api/v1/admin/memory/records/{ref}/share", s.serve(s.admin(s.shareMemoryRecord(true))))
	s.mux.Handle("POST /api/v1/admin/memory/records/{ref}/unshare", s.serve(s.admin(s.shareMemoryRecord(false))))
}

// ingress answers one event. The body is read before the token is checked
// (the engine checks it first of all), up to one byte over the contract's
// bound, so an oversized event is refused as the contract says and no
// more is read.
func (s *Server) ingress(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	body, err := io.ReadAll(io.LimitReader(r.Body, memory.MaxEventBytes+1))
	var out []byte
	var status int
	if err != nil {
		out, status = memory.MarshalError(memory.NewError(memory.CodeBadRequest, "the body could not be read"))
	} else {
		out, status, err = s.memory.Handle(r.Context(), r.PathValue("adapter_id"), r.PathValue("kind"), token, body)
	}
	switch {
	case err != nil && status >= 500:
		s.logger.Error("memory event failed", "path", r.URL.Path, "status", status, "err", err)
	case err != nil:
		s.logger.Debug("memory event refused", "path", r.URL.Path, "status", status, "err", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(out)
}

// issueAdapterToken answers POST /api/v1/admin/memory/adapters
// {"adapter_id"}: a new token for the adapter, shown this once. Issuing
// again rotates it.
func (s *Server) issueAdapterToken(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.maxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	obj, _ := body.(map[string]any)
	id, _ := obj["adapter_id"].(string)
	token, err := s.memory.IssueToken(r.Context(), id)
	if errors.Is(err, engine.ErrAdapterID) {
		return nil, 0, httpapi.BadRequest("bad_request", "Give \"adapter_id\": a lowercase letter, then up to 63 of a-z, 0-9, _ and -")
	}
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"adapter_id": id, "token": token}, http.StatusCreated, nil
}

// putMemoryProfile answers POST /api/v1/admin/memory/profiles with a
// memory-profile/v1 document: kept for sessions to pin by profile_ref.
func (s *Server) putMemoryProfile(r *http.Request) (any, int, error) {
	doc, err := httpapi.ReadBody(r, "The profile", memory.MaxProfileBytes)
	if err != nil {
		return nil, 0, err
	}
	pin, created, err := s.memory.PutProfile(r.Context(), doc)
	var me *memory.Error
	switch {
	case errors.As(err, &me):
		return nil, 0, contractError(me, err)
	case errors.Is(err, store.ErrConflict):
		return nil, 0, &httpapi.Error{Status: http.StatusConflict, Code: "conflict",
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
func (s *Server) memoryReceipts(r *http.Request) (any, int, error) {
	rs, err := s.memory.Receipts(r.Context(), r.PathValue("handle"))
	if err != nil {
		return nil, 0, err
	}
	list, err := receiptsJSON(rs)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"receipts": list}, http.StatusOK, nil
}

func receiptsJSON(rs []engine.Receipt) ([]any, error) {
	list := make([]any, 0, len(rs))
	for _, rc := range rs {
		payload, err := canonical.Parse(rc.Payload)
		if err != nil {
			return nil, fmt.Errorf("receipt of %s as stored: %w", rc.RecordRef, err)
		}
		list = append(list, map[string]any{"kind": rc.Kind, "session": rc.Session, "record_ref": rc.RecordRef, "payload": payload,
			"at": rc.At.UTC().Format("2006-01-02T15:04:05.000000000Z")})
	}
	return list, nil
}

// Bounds of the admin's record lists: enough to read on a screen, never
// the whole memory in one answer.
const (
	defaultMemorySearch  = 10
	maxMemorySearch      = 50
	defaultMemoryRecords = 20
	maxMemoryRecords     = 200
)

// memoryLimit reads ?limit=, 1 to most, def when absent.
func memoryLimit(r *http.Request, def, most int) (int, error) {
	v, ok, err := httpapi.QueryUint(r, "limit")
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return def, nil
	case v < 1 || v > uint64(most):
		return 0, httpapi.BadRequest("bad_request", "limit must be 1 to %d, not %d", most, v)
	}
	return int(v), nil
}

// searchMemory answers GET /api/v1/admin/memory/search?q=&project=&limit=.
func (s *Server) searchMemory(r *http.Request) (any, int, error) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		return nil, 0, httpapi.BadRequest("bad_request", "Give q, the words to look for: /api/v1/admin/memory/search?q=cannot+find+module")
	}
	limit, err := memoryLimit(r, defaultMemorySearch, maxMemorySearch)
	if err != nil {
		return nil, 0, err
	}
	found, err := s.memory.Search(r.Context(), q, r.URL.Query().Get("project"), limit)
	if err != nil {
		return nil, 0, err
	}
	hits, err := asJSON(found)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"hits": hits}, http.StatusOK, nil
}

// memoryRecords answers GET /api/v1/admin/memory/records?project=&adapter=&limit=.
func (s *Server) memoryRecords(r *http.Request) (any, int, error) {
	limit, err := memoryLimit(r, defaultMemoryRecords, maxMemoryRecords)
	if err != nil {
		return nil, 0, err
	}
	listed, err := s.memory.Records(r.Context(), r.URL.Query().Get("project"), r.URL.Query().Get("adapter"), limit)
	if err != nil {
		return nil, 0, err
	}
	records, err := asJSON(listed)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"records": records}, http.StatusOK, nil
}

// memoryRecord answers GET /api/v1/admin/memory/records/{ref}.
func (s *Server) memoryRecord(r *http.Request) (any, int, error) {
	v, err := s.memory.Inspect(r.Context(), r.PathValue("ref"))
	if err != nil {
		return nil, 0, memoryNotFound(r.PathValue("ref"), err)
	}
	record, err := asJSON(v.Record)
	if err != nil {
		return nil, 0, err
	}
	fix, err := asJSON(v.Fix)
	if err != nil {
		return nil, 0, err
	}
	marks := map[string]any{}
	for k, c := range v.Marks {
		marks[k] = c
	}
	receipts, err := receiptsJSON(v.Receipts)
	if err != nil {
		return nil, 0, err
	}
	return map[string]any{"record": record, "adapter": v.Adapter, "fix": fix, "marks": marks, "receipts": receipts}, http.StatusOK, nil
}

// correctMemoryRecord answers POST /api/v1/admin/memory/records/{ref}/correct
// {"title", "content": {"what", "why", "where", "learned"}}: the record's
// next revision, in the admin's words (engine.Correct).
func (s *Server) correctMemoryRecord(r *http.Request) (any, int, error) {
	body, err := httpapi.ReadJSON(r, s.maxBodyBytes)
	if err != nil {
		return nil, 0, err
	}
	var c struct {
		Title   string             `json:"title"`
		Content memory.NoteContent `json:"content"`
	}
	if raw, err := json.Marshal(body); err != nil || json.Unmarshal(raw, &c) != nil {
		return nil, 0, httpapi.BadRequest("bad_request", `Give {"title", "content": {"what", "why", "where", "learned"}}, each a string`)
	}
	rec, err := s.memory.Correct(r.Context(), r.PathValue("ref"), engine.Correction{Title: c.Title, Content: c.Content})
	if me := (*memory.Error)(nil); errors.As(err, &me) {
		return nil, 0, contractError(me, err)
	}
	if err != nil {
		return nil, 0, memoryNotFound(r.PathValue("ref"), err)
	}
	record, err := asJSON(rec)
	if err != nil {
		return nil, 0, err
	}
	s.logger.Info("memory record corrected", "ref", rec.RecordRef, "revision", rec.Revision)
	return map[string]any{"record": record}, http.StatusOK, nil
}

// forgetMemoryRecord answers DELETE /api/v1/admin/memory/records/{ref}.
func (s *Server) forgetMemoryRecord(r *http.Request) (any, int, error) {
	gone, receipts, err := s.memory.Forget(r.Context(), r.PathValue("ref"))
	if err != nil {
		return nil, 0, memoryNotFound(r.PathValue("ref"), err)
	}
	record, err := asJSON(gone)
	if err != nil {
		return nil, 0, err
	}
	s.logger.Info("memory record forgotten", "ref", gone.RecordRef, "receipts", receipts)
	return map[string]any{"removed": record, "receipts": receipts}, http.StatusOK, nil
}

// shareMemoryRecord answers POST /api/v1/admin/memory/records/{ref}/share
// (shared) or /unshare (not shared).
func (s *Server) shareMemoryRecord(shared bool) httpapi.Func {
	return func(r *http.Request) (any, int, error) {
		rec, err := s.memory.Share(r.Context(), r.PathValue("ref"), shared)
		if err != nil {
			return nil, 0, memoryNotFound(r.PathValue("ref"), err)
		}
		record, err := asJSON(rec)
		if err != nil {
			return nil, 0, err
		}
		s.logger.Info("memory record sharing changed", "ref", rec.RecordRef, "shared", shared)
		return map[string]any{"record": record, "shared": shared}, http.StatusOK, nil
	}
}

// contractError is me, a refusal in the contract's codes, answered as an
// admin route answers: the code's status, its code and message.
func contractError(me *memory.Error, err error) error {
	return &httpapi.Error{Status: memory.HTTPStatus(me.Code), Code: me.Code, Message: me.Message, Err: err}
}

// memoryNotFound says which record is missing and how to find the others.
func memoryNotFound(ref string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return &httpapi.Error{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("No memory record %q on this node; list them with GET /api/v1/admin/memory/records", ref), Err: err}
	}
	return err
}

// asJSON turns one of the contract's Go values into the plain values the
// canonical encoder takes, as its JSON form reads.
func asJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return canonical.Parse(b)
}

// Server is the memory's HTTP API.
type Server struct {
	memory       *engine.Engine
	logger       *slog.Logger
	adminToken   string
	maxBodyBytes int64
	mux          *http.ServeMux
}

// New returns the memory's handlers for eng, mounted on mux; adminToken
// lets its bearer use the admin routes, whose JSON bodies are at most
// maxBodyBytes.
func New(mux *http.ServeMux, eng *engine.Engine, adminToken string, maxBodyBytes int64, logger *slog.Logger) *Server {
	s := &Server{memory: eng, logger: logger, adminToken: adminToken, maxBodyBytes: maxBodyBytes, mux: mux}
	s.routeMemory()
	return s
}

func (s *Server) serve(fn httpapi.Func) http.Handler { return httpapi.Serve(s.logger, fn) }

func (s *Server) admin(fn httpapi.Func) httpapi.Func { return httpapi.Admin(s.adminToken, fn) }
