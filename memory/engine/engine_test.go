package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlite"
)

// faultStore fails ApplyMemoryEvent on demand: before writing (nothing
// kept) or after (kept, but the caller is told it failed).
type faultStore struct {
	engine.Store
	failBefore, failAfter bool
}

var errDisk = errors.New("disk said no")

func (f *faultStore) ApplyMemoryEvent(ctx context.Context, c engine.MemoryChange) (engine.MemoryEvent, error) {
	if f.failBefore {
		f.failBefore = false
		return engine.MemoryEvent{}, errDisk
	}
	ev, err := f.Store.ApplyMemoryEvent(ctx, c)
	if err == nil && f.failAfter {
		f.failAfter = false
		return engine.MemoryEvent{}, errDisk
	}
	return ev, err
}

type client struct {
	t     *testing.T
	e     *engine.Engine
	token string
}

func (c *client) body(id, kind string, payload any) []byte {
	b, err := json.Marshal(map[string]any{"adapter_id": "codex", "event_id": id, "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": kind, "payload": payload})
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func eventID() string {
	var b [32]byte
	rand.Read(b[:])
	return "sha256:" + hex.EncodeToString(b[:])
}

func (c *client) send(body []byte, kind string) ([]byte, int, error) {
	return c.e.Handle(context.Background(), "codex", kind, c.token, body)
}

// TestWriteFaults: an event whose write failed is not applied and can be
// sent again; one whose write was kept though reported failed is answered
// from the store when sent again, and the session goes on from what the
// store holds.
func TestWriteFaults(t *testing.T) {
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "m.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fs := &faultStore{Store: st}
	e, err := engine.New(t.Context(), fs, engine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.IssueToken(t.Context(), "codex")
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, e: e, token: token}
	out, status, err := c.send(c.body(eventID(), "session.start", map[string]any{"project": "p", "capabilities": []any{}}), "session.start")
	if err != nil || status != 200 {
		t.Fatalf("session.start: %d %s %v", status, out, err)
	}
	var start struct {
		Result struct {
			SessionHandle string `json:"session_handle"`
		}
	}
	json.Unmarshal(out, &start)
	h := start.Result.SessionHandle

	note := map[string]any{"session_handle": h, "title": "go vet flags a copied sync.Mutex in the worker pool", "type": "pitfall", "scope": "project",
		"content": map[string]any{"what": "go vet reported copylocks on Pool.worker", "why": "the worker took Pool by value",
			"where": "internal/pool/pool.go", "learned": "pass the pool by pointer to every goroutine"}}

	// Failed before the write: an internal error, nothing kept, and the
	// same event sent again is applied.
	fs.failBefore = true
	id := eventID()
	body := c.body(id, "note", note)
	if out, status, err := c.send(body, "note"); status != 500 || !errors.Is(err, errDisk) {
		t.Fatalf("failing write: %d %s %v", status, out, err)
	}
	if _, err := st.MemoryEvent(t.Context(), "codex", id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a failed write kept its event: %v", err)
	}
	first, status, err := c.send(body, "note")
	if err != nil || status != 200 {
		t.Fatalf("note sent again: %d %s %v", status, first, err)
	}

	// Kept though reported failed: sent again, the kept answer; the next
	// note on the topic is revision 2, not a conflict.
	fs.failAfter = true
	id2 := eventID()
	body2 := c.body(id2, "step.before", map[string]any{"session_handle": h, "step": 1})
	if _, status, _ := c.send(body2, "step.before"); status != 500 {
		t.Fatalf("a write reported failed: %d", status)
	}
	kept, err := st.MemoryEvent(t.Context(), "codex", id2)
	if err != nil {
		t.Fatal(err)
	}
	again, status, err := c.send(body2, "step.before")
	if err != nil || status != 200 || !bytes.Equal(again, kept.Result) {
		t.Fatalf("sent again: %d %s %v, want the kept %s", status, again, err, kept.Result)
	}
	rev, status, err := c.send(c.body(eventID(), "note", note), "note")
	if err != nil || status != 200 {
		t.Fatalf("the session after a write reported failed: %d %s %v", status, rev, err)
	}
	var res struct{ Result memory.NoteResult }
	if err := json.Unmarshal(rev, &res); err != nil || res.Result.Revision != 2 {
		t.Errorf("second note on the topic: %s, want revision 2", rev)
	}
}

// TestForgetWhileSessionsRun forgets a record while sessions that were
// pushed it apply its fix and write notes: whichever comes first, the
// record does not come back, in the store or the engine, and every event
// is answered.
func TestForgetWhileSessionsRun(t *testing.T) {
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "m.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := engine.New(t.Context(), st, engine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.IssueToken(t.Context(), "codex")
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, e: e, token: token}
	// try sends an event that must be accepted; it may run in any goroutine.
	try := func(kind string, payload any) (map[string]any, bool) {
		out, status, err := c.send(c.body(eventID(), kind, payload), kind)
		if err != nil || status != 200 {
			t.Errorf("%s: %d %s %v", kind, status, out, err)
			return nil, false
		}
		var v struct{ Result map[string]any }
		json.Unmarshal(out, &v)
		return v.Result, true
	}
	must := func(kind string, payload any) map[string]any {
		t.Helper()
		v, ok := try(kind, payload)
		if !ok {
			t.FailNow()
		}
		return v
	}
	start := func(project string) string {
		return must("session.start", map[string]any{"project": project, "capabilities": []any{}})["session_handle"].(string)
	}
	failing := func(h string) map[string]any {
		return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "command": "go test ./...",
			"error_tail": "pool.go:12: copylocks: worker passes lock by value: Pool contains sync.Mutex"}
	}
	h := start("p")
	must("tool.result", failing(h))
	// Global: a project note is no candidate in the other projects.
	ref := must("note", map[string]any{"session_handle": h, "title": "go vet copylocks in the worker pool", "type": "pitfall", "scope": "global",
		"content": map[string]any{"what": "go vet reported copylocks on Pool.worker", "why": "the worker took Pool by value",
			"where": "internal/pool/pool.go", "learned": "pass the pool by pointer"},
		"fix": map[string]any{"kind": "command", "command": "gofmt -r 'Pool -> *Pool' -w internal/pool"}})["record_ref"].(string)
	must("session.end", map[string]any{"session_handle": h, "reason": "exit"})

	const sessions = 6
	var handles []string
	for i := range sessions {
		hs := start(fmt.Sprintf("q%d", i))
		if must("tool.result", failing(hs))["inject"] == nil {
			t.Fatalf("session %d was not pushed the record", i)
		}
		handles = append(handles, hs)
	}
	var wg sync.WaitGroup
	for i, hs := range handles {
		wg.Go(func() {
			try("tool.result", map[string]any{"session_handle": hs, "tool_name": "Bash", "ok": true, "command": "gofmt -r 'Pool -> *Pool' -w internal/pool"})
			try("tool.result", map[string]any{"session_handle": hs, "tool_name": "Bash", "ok": true, "command": "go test ./..."})
			try("note", map[string]any{"session_handle": hs, "title": fmt.Sprintf("the race detector needs cgo in session %d", i), "type": "learning", "scope": "project",
				"content": map[string]any{"what": "go test -race failed to build with CGO_ENABLED=0 in the CI image",
					"why": "the race detector is built on ThreadSanitizer, which links through cgo", "where": "the CI job's environment",
					"learned": "set CGO_ENABLED=1 and install a C compiler for the race job"}})
			try("session.end", map[string]any{"session_handle": hs, "reason": "exit"})
		})
	}
	wg.Go(func() {
		if _, _, err := e.Forget(context.Background(), ref); err != nil {
			t.Errorf("Forget: %v", err)
		}
	})
	wg.Wait()
	if _, err := st.MemoryRecord(t.Context(), ref); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the forgotten record is in the store again: %v", err)
	}
	if _, err := e.Inspect(t.Context(), ref); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the engine still holds the forgotten record: %v", err)
	}
	if r, _ := st.MemoryRecordReceipts(t.Context(), ref); len(r) != 0 {
		// Every push came before Forget began; the applied receipts and
		// marks of the fix were written before it or not at all.
		t.Errorf("receipts of the forgotten record: %d", len(r))
	}
	if got, err := e.Records(t.Context(), "", "", 100); err != nil || len(got) != sessions {
		t.Errorf("records after: %d, %v; want the %d sessions' own notes", len(got), err, sessions)
	}
	if hits, err := e.Search(t.Context(), "go vet copylocks worker pool", "", 5); err != nil || len(hits) != 0 {
		t.Errorf("search finds the forgotten record: %+v, %v", hits, err)
	}
}
