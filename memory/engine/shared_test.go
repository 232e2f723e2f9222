package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/postgres/pgtest"
)

// The engine shared by several node processes: two engines, each over a
// PostgreSQL store of its own (a pool of connections, as a process holds
// one) on one schema, are two processes serving one memory.

// conflictCounter counts the writes its store refused for a version read
// before another process's change: how a test knows it made the engines
// meet each other's writes.
type conflictCounter struct {
	engine.Store
	conflicts *atomic.Int64
}

func (c conflictCounter) ApplyMemoryEvent(ctx context.Context, ch engine.MemoryChange) (engine.MemoryEvent, error) {
	ev, err := c.Store.ApplyMemoryEvent(ctx, ch)
	if errors.Is(err, store.ErrConflict) {
		c.conflicts.Add(1)
	}
	return ev, err
}

// steppingClock is one clock for every engine of a test, a microsecond
// later at each reading, so that processes sharing a store agree on what
// came first, as one machine's clock would, and two runs of one script
// read the same times.
func steppingClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Microsecond)
		return t
	}
}

// processes returns n engines sharing one new PostgreSQL schema, each
// over its own store, all on clock, with the conflicts their writes met.
func processes(t *testing.T, n int, clock func() time.Time) ([]*engine.Engine, *atomic.Int64) {
	t.Helper()
	schema := pgtest.Schema(t)
	conflicts := new(atomic.Int64)
	var out []*engine.Engine
	for range n {
		st, err := postgres.Open(t.Context(), postgres.Config{DSN: pgtest.DSN(t), Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		e, err := engine.New(t.Context(), conflictCounter{Store: st, conflicts: conflicts}, engine.Config{Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out, conflicts
}

// sender sends one adapter's events to whichever engine it is told.
type sender struct {
	t     *testing.T
	id    string
	token string
}

// send sends an event to e and returns the raw answer, which must be a
// 200.
func (s *sender) send(e *engine.Engine, kind string, payload map[string]any) []byte {
	s.t.Helper()
	body, err := json.Marshal(map[string]any{"adapter_id": s.id, "event_id": eventID(), "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": kind, "payload": payload})
	if err != nil {
		s.t.Fatal(err)
	}
	out, status, err := e.Handle(context.Background(), s.id, kind, s.token, body)
	if err != nil || status != 200 {
		s.t.Fatalf("%s: %d %s %v", kind, status, out, err)
	}
	return out
}

// result sends an event to e and returns its result.
func (s *sender) result(e *engine.Engine, kind string, payload map[string]any) map[string]any {
	s.t.Helper()
	var v struct{ Result map[string]any }
	if err := json.Unmarshal(s.send(e, kind, payload), &v); err != nil {
		s.t.Fatal(err)
	}
	return v.Result
}

func (s *sender) start(e *engine.Engine, project string) string {
	s.t.Helper()
	return s.result(e, "session.start", map[string]any{"project": project, "capabilities": []any{}})["session_handle"].(string)
}

func issue(t *testing.T, e *engine.Engine, id string) *sender {
	t.Helper()
	token, err := e.IssueToken(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return &sender{t: t, id: id, token: token}
}

// The events of the tests: a pytest run failing on a missing module, the
// note that says what fixes it, and the fix run.
func poolFailure(h string) map[string]any {
	return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "command": "pytest -q",
		"error_tail": "E   ModuleNotFoundError: No module named 'yaml'\ntests/test_config.py:3: in <module>\n    import yaml"}
}

func poolNote(h string) map[string]any {
	return map[string]any{"session_handle": h, "title": "pytest fails: No module named 'yaml' in the config tests", "type": "bugfix", "scope": "project",
		"content": map[string]any{"what": "pytest failed with ModuleNotFoundError: No module named 'yaml' in tests/test_config.py",
			"why": "PyYAML is imported as yaml but was never in the test requirements", "where": "requirements-dev.txt",
			"learned": "install pyyaml into the test environment before running pytest"},
		"fix": map[string]any{"kind": "command", "command": "pip install pyyaml"}}
}

// injected are the record refs an answer pushed.
func injected(result map[string]any) []any {
	inj, _ := result["inject"].(map[string]any)
	refs, _ := inj["record_refs"].([]any)
	return refs
}

// TestSharedStoreNoteThenPush: a note recorded through one process is
// pushed by the other on the very next failing tool result of a session
// started there after it, and found by its search.
func TestSharedStoreNoteThenPush(t *testing.T) {
	es, _ := processes(t, 2, steppingClock())
	a, b := es[0], es[1]
	codex := issue(t, a, "codex")
	h := codex.start(a, "shop")
	codex.send(a, "tool.result", poolFailure(h))
	ref := codex.result(a, "note", poolNote(h))["record_ref"].(string)
	codex.send(a, "session.end", map[string]any{"session_handle": h, "reason": "exit"})

	hb := codex.start(b, "shop")
	if refs := injected(codex.result(b, "tool.result", poolFailure(hb))); len(refs) != 1 || refs[0] != ref {
		t.Fatalf("process B pushed %v for the failure process A's note is about, want [%s]", refs, ref)
	}
	found := codex.result(b, "query", map[string]any{"session_handle": hb, "op": "search", "query": "No module named 'yaml'"})
	if hits, _ := found["hits"].([]any); len(hits) == 0 || hits[0].(map[string]any)["record_ref"] != ref {
		t.Fatalf("process B's search: %v, want %s first", found, ref)
	}
}

// TestSharedStoreAdmin: a record the admin shares through one process is
// read by another adapter's session on the other, a correction made
// through one is what the other pushes, and a record forgotten through
// one is pushed, found and read by neither.
func TestSharedStoreAdmin(t *testing.T) {
	es, _ := processes(t, 2, steppingClock())
	a, b := es[0], es[1]
	codex, claude := issue(t, a, "codex"), issue(t, b, "claude")
	h := codex.start(a, "shop")
	codex.send(a, "tool.result", poolFailure(h))
	ref := codex.result(a, "note", poolNote(h))["record_ref"].(string)
	codex.send(a, "session.end", map[string]any{"session_handle": h, "reason": "exit"})

	// Another adapter's record is not claude's to read until shared.
	hc := claude.start(b, "shop")
	if refs := injected(claude.result(b, "tool.result", poolFailure(hc))); len(refs) != 0 {
		t.Fatalf("claude was pushed codex's unshared record: %v", refs)
	}
	if _, err := a.Share(t.Context(), ref, true); err != nil {
		t.Fatalf("sharing through A: %v", err)
	}
	hc = claude.start(b, "shop")
	if refs := injected(claude.result(b, "tool.result", poolFailure(hc))); len(refs) != 1 || refs[0] != ref {
		t.Fatalf("claude, on B, after A's admin shared the record: pushed %v, want [%s]", refs, ref)
	}

	// Corrected through B, read through A as corrected.
	fixed := "pytest fails: No module named 'yaml' (PyYAML missing from the test requirements)"
	if _, err := b.Correct(t.Context(), ref, engine.Correction{Title: fixed, Content: memoryContent(poolNote(""))}); err != nil {
		t.Fatalf("correcting through B: %v", err)
	}
	v, err := a.Inspect(t.Context(), ref)
	if err != nil || v.Record.Title != fixed || v.Record.Revision != 2 {
		t.Fatalf("A inspects the record B corrected: %+v, %v", v.Record, err)
	}

	// Forgotten through A: B pushes, finds and reads it no more.
	if _, _, err := a.Forget(t.Context(), ref); err != nil {
		t.Fatalf("forgetting through A: %v", err)
	}
	hb := codex.start(b, "shop")
	if refs := injected(codex.result(b, "tool.result", poolFailure(hb))); len(refs) != 0 {
		t.Fatalf("B pushed a record A forgot: %v", refs)
	}
	body, _ := json.Marshal(map[string]any{"adapter_id": "codex", "event_id": eventID(), "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": "query", "payload": map[string]any{"session_handle": hb, "op": "read", "ref": ref}})
	if out, status, _ := b.Handle(t.Context(), "codex", "query", codex.token, body); status != 404 {
		t.Fatalf("B reads a record A forgot: %d %s", status, out)
	}
	if hits, err := b.Search(t.Context(), "No module named yaml", "", 5); err != nil || len(hits) != 0 {
		t.Fatalf("B's admin search finds a record A forgot: %v, %v", hits, err)
	}
	if recs, err := b.Records(t.Context(), "", "", 10); err != nil || len(recs) != 0 {
		t.Fatalf("B lists a record A forgot: %v, %v", recs, err)
	}
}

// memoryContent is a note payload's content as a correction takes it.
func memoryContent(note map[string]any) memory.NoteContent {
	m := note["content"].(map[string]any)
	return memory.NoteContent{What: m["what"].(string), Why: m["why"].(string), Where: m["where"].(string), Learned: m["learned"].(string)}
}

// TestSharedStoreAlternating: one session whose events alternate between
// two processes gets, event by event, the answers one process gives the
// same script, though each event after the first was computed from a
// session the other process had moved on.
func TestSharedStoreAlternating(t *testing.T) {
	one, _ := processes(t, 1, steppingClock())
	two, conflicts := processes(t, 2, steppingClock())
	alone := script(t, func(int) *engine.Engine { return one[0] })
	shared := script(t, func(i int) *engine.Engine { return two[i%2] })
	for i := range alone {
		if alone[i] != shared[i] {
			t.Errorf("event %d: one process answered\n%s\nalternating processes\n%s", i, alone[i], shared[i])
		}
	}
	if conflicts.Load() == 0 {
		t.Error("no write met the other process's change: the test did not alternate")
	}
}

// script runs one adapter's work through the engines at(i) names for the
// i-th event: an earlier session's note, then a session that fails, is
// pushed the note, searches, reads it, applies its fix, passes, notes
// what it learned and ends. It returns the answers, with the handles and
// refs named by their order of appearance and the scores rounded.
func script(t *testing.T, at func(int) *engine.Engine) []string {
	i := 0
	next := func() *engine.Engine { i++; return at(i - 1) }
	codex := issue(t, at(0), "codex")
	var out []string
	keep := func(b []byte) map[string]any {
		out = append(out, string(b))
		var v struct{ Result map[string]any }
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v.Result
	}
	h := keep(codex.send(next(), "session.start", map[string]any{"project": "shop", "capabilities": []any{}}))["session_handle"].(string)
	keep(codex.send(next(), "tool.result", poolFailure(h)))
	ref := keep(codex.send(next(), "note", poolNote(h)))["record_ref"].(string)
	keep(codex.send(next(), "session.end", map[string]any{"session_handle": h, "reason": "exit"}))

	h = keep(codex.send(next(), "session.start", map[string]any{"project": "shop", "capabilities": []any{}}))["session_handle"].(string)
	keep(codex.send(next(), "step.before", map[string]any{"session_handle": h, "step": 1, "query_text": "make the config tests pass"}))
	keep(codex.send(next(), "tool.result", poolFailure(h)))
	keep(codex.send(next(), "query", map[string]any{"session_handle": h, "op": "search", "query": "ModuleNotFoundError yaml"}))
	keep(codex.send(next(), "query", map[string]any{"session_handle": h, "op": "read", "ref": ref}))
	keep(codex.send(next(), "tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": true, "command": "pip install pyyaml"}))
	keep(codex.send(next(), "tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": true, "command": "pytest -q"}))
	keep(codex.send(next(), "note", map[string]any{"session_handle": h, "title": "the config tests import yaml at module level", "type": "learning",
		"scope": "project", "evidence_refs": []any{ref},
		"content": map[string]any{"what": "tests/test_config.py imports yaml before any test runs", "why": "a missing PyYAML fails collection, not one test",
			"where": "tests/test_config.py", "learned": "keep pyyaml in requirements-dev.txt"}}))
	keep(codex.send(next(), "session.end", map[string]any{"session_handle": h, "reason": "exit"}))
	v, err := at(0).Inspect(t.Context(), ref)
	if err != nil {
		t.Fatal(err)
	}
	marks, _ := json.Marshal(v.Marks)
	out = append(out, fmt.Sprintf("record %s trust %s marks %s", ref, v.Record.Trust, marks))
	return normalize(out)
}

var (
	namePattern  = regexp.MustCompile(`\b(ms|lr)_[a-z2-7]+`)
	floatPattern = regexp.MustCompile(`-?\d+\.\d{4,}(e-?\d+)?`)
	timePattern  = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+Z`)
)

// normalize names the handles and refs of answers by their order of
// appearance, rounds long decimals and drops instants: what two runs of
// one script may differ in.
func normalize(answers []string) []string {
	names := map[string]string{}
	out := make([]string, len(answers))
	for i, a := range answers {
		a = namePattern.ReplaceAllStringFunc(a, func(s string) string {
			if _, ok := names[s]; !ok {
				names[s] = s[:3] + strconv.Itoa(len(names)+1)
			}
			return names[s]
		})
		a = floatPattern.ReplaceAllStringFunc(a, func(s string) string {
			f, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(f, 'f', 3, 64)
		})
		out[i] = timePattern.ReplaceAllString(a, "<instant>")
	}
	return out
}

// TestSharedStoreOneEventTwice: one event sent to both processes at once,
// and again to each, gets one answer, applied once, whichever process
// applied it.
func TestSharedStoreOneEventTwice(t *testing.T) {
	es, _ := processes(t, 2, steppingClock())
	codex := issue(t, es[0], "codex")
	h := codex.start(es[0], "shop")
	codex.send(es[1], "tool.result", poolFailure(h))
	body, _ := json.Marshal(map[string]any{"adapter_id": "codex", "event_id": eventID(), "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": "note", "payload": poolNote(h)})
	answers := make([][]byte, 4)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			out, status, err := es[i].Handle(context.Background(), "codex", "note", codex.token, body)
			if err != nil || status != 200 {
				t.Errorf("process %d: %d %s %v", i, status, out, err)
			}
			answers[i] = out
		})
	}
	wg.Wait()
	for i := range 2 {
		answers[2+i], _, _ = es[1-i].Handle(context.Background(), "codex", "note", codex.token, body)
	}
	for i, a := range answers[1:] {
		if string(a) != string(answers[0]) {
			t.Errorf("answer %d differs:\n%s\nfirst:\n%s", i+1, a, answers[0])
		}
	}
	end := codex.result(es[1], "session.end", map[string]any{"session_handle": h, "reason": "exit"})
	if n, _ := end["notes"].(float64); n != 1 {
		t.Errorf("the session ended with %v notes, want the one note applied once: %v", end["notes"], end)
	}
	if recs, err := es[0].Records(t.Context(), "", "", 10); err != nil || len(recs) != 1 {
		t.Errorf("records: %d, %v; want 1", len(recs), err)
	}
	// The process that started the session, and read it then, learns it
	// ended on the other from its write's conflict.
	late, _ := json.Marshal(map[string]any{"adapter_id": "codex", "event_id": eventID(), "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": "tool.result", "payload": poolFailure(h)})
	out, status, _ := es[0].Handle(context.Background(), "codex", "tool.result", codex.token, late)
	var refused struct{ Error struct{ Code string } }
	json.Unmarshal(out, &refused)
	if refused.Error.Code != "session_unbound" {
		t.Errorf("an event of a session ended through the other process: %d %s, want session_unbound", status, out)
	}
}
