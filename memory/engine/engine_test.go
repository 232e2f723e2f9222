package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlite"
)

// faultStore fails ApplyMemoryEvent on demand: before writing (nothing
// kept) or after (kept, but the caller is told it failed).
type faultStore struct {
	store.MemoryStore
	failBefore, failAfter bool
}

var errDisk = errors.New("disk said no")

func (f *faultStore) ApplyMemoryEvent(ctx context.Context, c store.MemoryChange) (store.MemoryEvent, error) {
	if f.failBefore {
		f.failBefore = false
		return store.MemoryEvent{}, errDisk
	}
	ev, err := f.MemoryStore.ApplyMemoryEvent(ctx, c)
	if err == nil && f.failAfter {
		f.failAfter = false
		return store.MemoryEvent{}, errDisk
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
	fs := &faultStore{MemoryStore: st}
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
