package node

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/translog"
)

// memoryAdminToken reads the node's admin token.
func memoryAdminToken(t testing.TB, n *Node) string {
	t.Helper()
	b, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// issueAdapter has the admin issue a token for adapter id.
func issueAdapter(t testing.TB, url, admin, id string) string {
	t.Helper()
	status, v := call(t, "POST", url+"/api/v1/admin/memory/adapters", mustJSON(t, map[string]any{"adapter_id": id}), "Authorization", "Bearer "+admin)
	if status != http.StatusCreated {
		t.Fatalf("issue adapter %s: %d %v", id, status, v)
	}
	return v.(map[string]any)["token"].(string)
}

// agent sends events as one adapter would.
type agent struct {
	t     testing.TB
	url   string
	id    string
	token string
}

// reply is one answer of the ingress route.
type reply struct {
	status int
	body   []byte
	ok     bool
	result map[string]any
	code   string
}

func newEventID() string {
	var b [32]byte
	rand.Read(b[:])
	return "sha256:" + hex.EncodeToString(b[:])
}

// envelope makes an event's body.
func (a *agent) envelope(eventID, kind string, payload any) []byte {
	return mustJSON(a.t, map[string]any{
		"adapter_id": a.id, "event_id": eventID, "session_ref": "run-" + a.id, "occurred_at": "2026-11-30T10:00:00Z",
		"kind": kind, "payload": payload,
	})
}

// post sends a body as kind and checks the answer against the contract.
func (a *agent) post(kind string, body []byte) reply {
	a.t.Helper()
	req, err := http.NewRequest("POST", a.url+"/v1/agent-ingress/"+a.id+"/events/"+kind, bytes.NewReader(body))
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, body: data}
	var v struct {
		OK     bool           `json:"ok"`
		Result map[string]any `json:"result"`
		Error  struct{ Code string }
	}
	if err := json.Unmarshal(data, &v); err != nil {
		a.t.Fatalf("%s answered with something other than JSON: %v\n%s", kind, err, data)
	}
	r.ok, r.result, r.code = v.OK, v.Result, v.Error.Code
	if memory.IsKind(kind) {
		if err := memory.ValidateResponse(kind, data); err != nil {
			a.t.Fatalf("%s answer breaks the contract: %v\n%s", kind, err, data)
		}
	}
	if r.ok != (r.status == http.StatusOK) {
		a.t.Fatalf("%s: status %d with ok %v", kind, r.status, r.ok)
	}
	return r
}

// send sends a fresh event and returns its answer.
func (a *agent) send(kind string, payload any) reply {
	a.t.Helper()
	return a.post(kind, a.envelope(newEventID(), kind, payload))
}

// must sends a fresh event that must be accepted.
func (a *agent) must(kind string, payload any) map[string]any {
	a.t.Helper()
	r := a.send(kind, payload)
	if !r.ok {
		a.t.Fatalf("%s refused: %d %s", kind, r.status, r.body)
	}
	return r.result
}

// start opens a session in project and returns its handle.
func (a *agent) start(project string, extra map[string]any) string {
	a.t.Helper()
	p := map[string]any{"project": project, "capabilities": []any{"session_binding", "step_injection", "tool_capture", "note_tool", "query_tools"}}
	for k, v := range extra {
		p[k] = v
	}
	return a.must("session.start", p)["session_handle"].(string)
}

func startMemoryNode(t *testing.T) (*Node, *httptest.Server, string) {
	n, srv := testNode(t)
	return n, srv, memoryAdminToken(t, n)
}

// npmFailure is the failing output both projects see.
const npmFailure = "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Could not resolve dependency: peer react@\"^17.0.0\" from react-dom@17.0.2"

func goodNote(handle string) map[string]any {
	return map[string]any{
		"session_handle": handle, "title": "npm test fails with ERESOLVE until dependencies install with legacy peer deps",
		"type": "bugfix", "scope": "global",
		"content": map[string]any{
			"what":    "npm test failed: ERESOLVE unable to resolve dependency tree for react-dom",
			"why":     "react-dom 17 declares a peer dependency on react 17 while the project pins react 18",
			"where":   "package.json dependencies, npm 8 and later",
			"learned": "run npm install --legacy-peer-deps before the tests; the peer conflict is harmless here",
		},
		"fix": map[string]any{"kind": "command", "command": "npm install --legacy-peer-deps"},
	}
}

// TestMemoryEveryKind sends every L0 kind with a valid payload and checks
// each answer against the contract (post does), then what session.end
// says of the session.
func TestMemoryEveryKind(t *testing.T) {
	t.Parallel()
	_, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "codex", token: issueAdapter(t, srv.URL, admin, "codex")}
	start := a.must("session.start", map[string]any{"project": "foo", "capabilities": []any{"session_binding"},
		"environment": map[string]any{"os": "linux", "language": []any{"javascript"}}})
	h := start["session_handle"].(string)
	if pin := start["profile"].(map[string]any); pin["id"] != "default" || pin["revision"] != "2" {
		t.Errorf("pinned %v, want default@2", pin)
	}
	if start["disabled_kinds"] == nil || start["capabilities_missing"] == nil {
		t.Errorf("session.start without disabled_kinds or capabilities_missing: %v", start)
	}
	if _, ok := start["profile_fallback"]; ok {
		t.Errorf("a fallback without a profile_ref: %v", start)
	}
	a.must("step.before", map[string]any{"session_handle": h, "step": 1, "query_text": "make the tests pass"})
	a.must("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1,
		"error_tail": npmFailure, "command": "npm test"})
	a.must("context.compaction", map[string]any{"session_handle": h, "summary_text": "working on the tests"})
	a.must("subagent.end", map[string]any{"session_handle": h, "child_ref": "sub-1", "stop_reason": "done"})
	note := a.must("note", goodNote(h))
	ref, _ := note["record_ref"].(string)
	if !memory.IsLocalRef(ref) || note["revision"] != float64(1) || note["topic_key_derived"] != true || note["visible_from"] != "next_session" {
		t.Errorf("note: %v", note)
	}
	search := a.must("query", map[string]any{"session_handle": h, "op": "search", "query": "ERESOLVE react-dom"})
	if search["status"] != "no_match" {
		t.Errorf("the session found its own note, which is visible from the next session: %v", search)
	}
	read := a.must("query", map[string]any{"session_handle": h, "op": "read", "ref": ref})
	if rec := read["record"].(map[string]any); rec["record_ref"] != ref || rec["trust"] != "raw" ||
		!strings.Contains(rec["provenance_label"].(string), "project foo") {
		t.Errorf("read: %v", rec)
	}
	a.must("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": true, "exit_code": 0, "command": "npm test"})
	end := a.must("session.end", map[string]any{"session_handle": h, "reason": "exit"})
	ex := end["exposures"].(map[string]any)
	if end["outcome"] != "pass" || end["notes"] != float64(1) || ex["read"] != float64(1) || ex["pushed"] != float64(0) {
		t.Errorf("session.end: %v", end)
	}
	if r := a.send("step.before", map[string]any{"session_handle": h, "step": 2}); r.code != memory.CodeSessionUnbound {
		t.Errorf("an event after session.end: %d %s, want session_unbound", r.status, r.body)
	}

	// The note of a session that passed is confirmed by it, and a later
	// session of another project finds it.
	h2 := a.start("bar", nil)
	found := a.must("query", map[string]any{"session_handle": h2, "op": "search", "query": "ERESOLVE react-dom peer dependency"})
	hits, _ := found["hits"].([]any)
	if len(hits) == 0 {
		t.Fatalf("the next session does not find the note: %v", found)
	}
	hit := hits[0].(map[string]any)
	if hit["record_ref"] != ref || hit["trust"] != "local_auto" || !strings.Contains(hit["provenance_label"].(string), "session outcome: pass") {
		t.Errorf("hit: %v", hit)
	}
	if len(hit["reasons"].([]any)) == 0 {
		t.Errorf("a hit without reasons: %v", hit)
	}
}

// TestMemoryRefusals checks each refusal's code and status.
func TestMemoryRefusals(t *testing.T) {
	t.Parallel()
	_, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	h := a.start("foo", nil)
	step := map[string]any{"session_handle": h, "step": 1}

	expect := func(name string, r reply, code string) {
		t.Helper()
		if r.ok || r.code != code || r.status != memory.HTTPStatus(code) {
			t.Errorf("%s: %d %s, want %s (%d)", name, r.status, r.body, code, memory.HTTPStatus(code))
		}
	}
	expect("unknown payload field", a.send("step.before", map[string]any{"session_handle": h, "step": 1, "mood": "good"}), memory.CodeSchemaInvalid)
	expect("wrong type", a.send("step.before", map[string]any{"session_handle": h, "step": "one"}), memory.CodeSchemaInvalid)
	expect("unknown kind", a.post("step.after", a.envelope(newEventID(), "step.after", step)), memory.CodeUnknownKind)
	expect("missing session handle", a.send("step.before", map[string]any{"step": 1}), memory.CodeSchemaInvalid)
	expect("unknown session handle", a.send("step.before", map[string]any{"session_handle": "ms_nosuchsession", "step": 1}), memory.CodeSessionUnbound)
	expect("capability-disabled kind", a.send("goal.changed", map[string]any{"session_handle": h, "operation": "create"}), memory.CodeCapabilityDisabled)
	bad := goodNote(h)
	bad["content"].(map[string]any)["learned"] = "todo"
	expect("empty note", a.send("note", bad), memory.CodeNoteRejected)
	// A secret is masked where the rest of a note says something
	// (memory_secrets_test.go); a lesson that is only a secret is refused.
	secret := goodNote(h)
	secret["content"].(map[string]any)["learned"] = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	expect("a note whose lesson is only a secret", a.send("note", secret), memory.CodeNoteRejected)
	expect("relation to nothing", a.send("note", func() map[string]any {
		n := goodNote(h)
		n["relates_to"] = []any{map[string]any{"record_ref": "lr_nosuchrecordnosuchrecord", "relation": "supersedes"}}
		return n
	}()), memory.CodeNotFound)
	expect("read of nothing", a.send("query", map[string]any{"session_handle": h, "op": "read", "ref": "lr_none"}), memory.CodeNotFound)

	// The same event again: the first answer, byte for byte; changed: a
	// conflict.
	id := newEventID()
	first := a.post("step.before", a.envelope(id, "step.before", step))
	if !first.ok {
		t.Fatalf("step.before: %s", first.body)
	}
	if again := a.post("step.before", a.envelope(id, "step.before", step)); !bytes.Equal(again.body, first.body) || again.status != first.status {
		t.Errorf("replay: %d %s, want %d %s", again.status, again.body, first.status, first.body)
	}
	expect("replay with a changed body", a.post("step.before", a.envelope(id, "step.before", map[string]any{"session_handle": h, "step": 2})), memory.CodeIdempotencyConflict)

	// Tokens: none, another adapter's, a rotated one; checked before the
	// body is read, so even an unknown kind is unauthorized.
	other := &agent{t: t, url: srv.URL, id: "codex", token: issueAdapter(t, srv.URL, admin, "codex")}
	for name, tok := range map[string]string{"no token": "", "wrong token": "agm_wrong", "another adapter's token": other.token} {
		b := &agent{t: t, url: srv.URL, id: "claude", token: tok}
		expect(name, b.send("step.before", step), memory.CodeUnauthorized)
		expect(name+", unknown kind", b.post("step.after", b.envelope(newEventID(), "step.after", step)), memory.CodeUnauthorized)
	}
	old := a.token
	a.token = issueAdapter(t, srv.URL, admin, "claude")
	expect("rotated token", (&agent{t: t, url: srv.URL, id: "claude", token: old}).send("step.before", step), memory.CodeUnauthorized)
	a.must("step.before", map[string]any{"session_handle": h, "step": 3})
	// A handle is its adapter's: another adapter naming it is unbound.
	expect("another adapter's session", other.send("step.before", step), memory.CodeSessionUnbound)
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/memory/adapters", mustJSON(t, map[string]any{"adapter_id": "claude"})); status != http.StatusUnauthorized {
		t.Errorf("issuing a token without the admin token: %d %v", status, v)
	}
}

// TestMemoryProfiles pins a stored profile, falls back from an unknown
// one, and lets an enabled workflow kind through, pushing at phase_start.
func TestMemoryProfiles(t *testing.T) {
	t.Parallel()
	_, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "codex", token: issueAdapter(t, srv.URL, admin, "codex")}
	prof := memory.DefaultProfile()
	prof.ID, prof.Revision = "team", "2"
	prof.EnabledKinds = []string{"workflow.start", "workflow.phase"}
	prof.Push["phase_start"] = memory.PushPolicy{MaxItems: 2, MaxChars: 4000, MinScore: 1, Require: []string{"phase"}}
	doc := mustJSON(t, prof)
	status, v := call(t, "POST", srv.URL+"/api/v1/admin/memory/profiles", doc, "Authorization", "Bearer "+admin)
	if status != http.StatusCreated || v.(map[string]any)["digest"] != prof.Pin().Digest {
		t.Fatalf("put profile: %d %v", status, v)
	}
	if status, _ := call(t, "POST", srv.URL+"/api/v1/admin/memory/profiles", doc, "Authorization", "Bearer "+admin); status != http.StatusOK {
		t.Errorf("same profile again: %d, want 200", status)
	}
	// A profile over the bound is refused as a profile, not an envelope.
	big := bytes.Repeat([]byte(" "), memory.MaxProfileBytes+1)
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/memory/profiles", big, "Authorization", "Bearer "+admin); status != http.StatusRequestEntityTooLarge ||
		!strings.HasPrefix(v.(map[string]any)["error"].(string), "The profile is larger than") {
		t.Errorf("an oversized profile: %d %v", status, v)
	}

	fb := a.must("session.start", map[string]any{"project": "foo", "capabilities": []any{}, "profile_ref": "team@9"})
	if fb["profile"].(map[string]any)["id"] != "default" || fb["profile_fallback"] == nil {
		t.Errorf("an unknown profile: %v", fb)
	}
	// A record made in the phase, for the phase push to find.
	h0 := fb["session_handle"].(string)
	n := goodNote(h0)
	n["phase"] = "install dependencies"
	a.must("note", n)

	res := a.must("session.start", map[string]any{"project": "foo", "capabilities": []any{"workflow_events"}, "profile_ref": "team"})
	if pin := res["profile"].(map[string]any); pin["id"] != "team" || pin["revision"] != "2" || pin["digest"] != prof.Pin().Digest {
		t.Errorf("pinned %v", pin)
	}
	h := res["session_handle"].(string)
	a.must("workflow.start", map[string]any{"session_handle": h, "run_ref": "run-1", "name": "release", "phases": []any{"install dependencies", "test"}})
	phase := a.must("workflow.phase", map[string]any{"session_handle": h, "run_ref": "run-1", "title": "install dependencies"})
	inj, _ := phase["inject"].(map[string]any)
	if inj == nil || inj["trigger"] != "phase_start" {
		t.Errorf("workflow.phase pushed nothing: %v", phase)
	}
	if r := a.send("goal.changed", map[string]any{"session_handle": h, "operation": "create"}); r.code != memory.CodeCapabilityDisabled {
		t.Errorf("a kind the profile does not enable: %d %s", r.status, r.body)
	}
}

// TestMemoryFailureFlow is the loop memory is for, over HTTP: a failure
// and a note with its fix in one project; the same failure in another
// project pushes the note after the failure, for its error signature; the
// agent runs the fix (applied), the step passes (used_then_passed); and a
// second project passing makes the record reviewed.
func TestMemoryFailureFlow(t *testing.T) {
	t.Parallel()
	n, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	fail := func(h string) map[string]any {
		return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": npmFailure, "command": "npm test"}
	}

	// Project one: the failure, then the note.
	h1 := a.start("shop", nil)
	a.must("step.before", map[string]any{"session_handle": h1, "step": 1, "query_text": "fix the failing tests"})
	if inj := a.must("tool.result", fail(h1))["inject"]; inj != nil {
		t.Errorf("a push before any record exists: %v", inj)
	}
	ref := a.must("note", goodNote(h1))["record_ref"].(string)
	a.must("tool.result", map[string]any{"session_handle": h1, "tool_name": "Bash", "ok": true, "command": "npm test"})
	a.must("session.end", map[string]any{"session_handle": h1, "reason": "exit"})

	// Project two, elsewhere: the same failure pushes the record.
	h2 := a.start("blog", nil)
	r := a.must("tool.result", fail(h2))
	inj, _ := r["inject"].(map[string]any)
	if inj == nil {
		t.Fatalf("the same failure elsewhere pushed nothing: %v", r)
	}
	if inj["trigger"] != "after_failure" || len(inj["record_refs"].([]any)) != 1 || inj["record_refs"].([]any)[0] != ref {
		t.Fatalf("inject: %v", inj)
	}
	hit := inj["hits"].([]any)[0].(map[string]any)
	var sig bool
	for _, rs := range hit["reasons"].([]any) {
		sig = sig || rs.(map[string]any)["signal"] == "error_signature"
	}
	if !sig || hit["score"].(float64) < memory.DefaultProfile().Push["after_failure"].MinScore {
		t.Errorf("pushed hit without an error_signature reason or below the floor: %v", hit)
	}
	if !strings.Contains(inj["text"].(string), "npm install --legacy-peer-deps") {
		t.Errorf("the injection does not quote the fix:\n%s", inj["text"])
	}
	// The same failure again is not pushed twice.
	if again := a.must("tool.result", fail(h2)); again["inject"] != nil {
		t.Errorf("pushed the same record twice in one session: %v", again)
	}
	// The fix, then the step again, passing.
	a.must("tool.result", map[string]any{"session_handle": h2, "tool_name": "Bash", "ok": true, "exit_code": 0,
		"command": "cd web && npm install --legacy-peer-deps"})
	a.must("tool.result", map[string]any{"session_handle": h2, "tool_name": "Bash", "ok": true, "exit_code": 0, "command": "npm test"})
	end := a.must("session.end", map[string]any{"session_handle": h2, "reason": "exit"})
	if ex := end["exposures"].(map[string]any); ex["pushed"] != float64(1) || ex["applied"] != float64(1) || end["outcome"] != "pass" {
		t.Errorf("session.end: %v", end)
	}
	kinds := receiptKinds(t, srv.URL, admin, h2)
	if want := []string{"pushed", "applied", "used_success"}; strings.Join(kinds, ",") != strings.Join(want, ",") {
		t.Errorf("receipts %v, want %v", kinds, want)
	}
	rec, err := n.memory.Record(ref)
	if err != nil || strings.Join(rec.Marks, ",") != "used_then_passed" || rec.Trust != "local_auto" {
		t.Errorf("record after one project passed: %+v, %v", rec, err)
	}

	// A third project passes with the fix too: two projects, reviewed.
	h3 := a.start("docs", nil)
	if a.must("tool.result", fail(h3))["inject"] == nil {
		t.Fatal("no push in the third project")
	}
	a.must("tool.result", map[string]any{"session_handle": h3, "tool_name": "Bash", "ok": true, "command": "npm install --legacy-peer-deps"})
	a.must("tool.result", map[string]any{"session_handle": h3, "tool_name": "Bash", "ok": true, "command": "npm test"})
	if rec, _ := n.memory.Record(ref); rec.Trust != "reviewed" {
		t.Errorf("trust after two projects passed: %s, want reviewed", rec.Trust)
	}

	// A fix applied that does not help earns task_failed.
	h4 := a.start("admin", nil)
	a.must("tool.result", fail(h4))
	a.must("tool.result", map[string]any{"session_handle": h4, "tool_name": "Bash", "ok": true, "command": "npm install --legacy-peer-deps"})
	a.must("tool.result", fail(h4))
	if k := receiptKinds(t, srv.URL, admin, h4); strings.Join(k, ",") != "pushed,applied,task_failed" {
		t.Errorf("receipts of a fix that did not help: %v", k)
	}
}

func receiptKinds(t *testing.T, url, admin, handle string) []string {
	t.Helper()
	status, v := call(t, "GET", url+"/api/v1/admin/memory/sessions/"+handle+"/receipts", nil, "Authorization", "Bearer "+admin)
	if status != http.StatusOK {
		t.Fatalf("receipts: %d %v", status, v)
	}
	var kinds []string
	for _, r := range v.(map[string]any)["receipts"].([]any) {
		kinds = append(kinds, r.(map[string]any)["kind"].(string))
	}
	return kinds
}

// TestMemoryConcurrent runs several adapters' sessions at once, each event
// sent twice at the same moment: every event is applied once (one note per
// session, one record each), and both senders of an event get one answer.
func TestMemoryConcurrent(t *testing.T) {
	t.Parallel()
	n, srv, admin := startMemoryNode(t)
	const adapters, sessions = 3, 3
	var wg sync.WaitGroup
	refs := make(chan string, adapters*sessions)
	for i := range adapters {
		a := &agent{t: t, url: srv.URL, id: fmt.Sprintf("agent%d", i), token: issueAdapter(t, srv.URL, admin, fmt.Sprintf("agent%d", i))}
		for j := range sessions {
			wg.Go(func() {
				twice := func(kind string, payload any) reply {
					body := a.envelope(newEventID(), kind, payload)
					var rs [2]reply
					var inner sync.WaitGroup
					for k := range rs {
						inner.Go(func() { rs[k] = a.post(kind, body) })
					}
					inner.Wait()
					if !bytes.Equal(rs[0].body, rs[1].body) || !rs[0].ok {
						t.Errorf("%s sent twice at once: %s / %s", kind, rs[0].body, rs[1].body)
					}
					return rs[0]
				}
				project := fmt.Sprintf("p%d-%d", i, j)
				h := twice("session.start", map[string]any{"project": project, "capabilities": []any{}}).result["session_handle"].(string)
				twice("step.before", map[string]any{"session_handle": h, "step": 1, "query_text": "build"})
				twice("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "error_tail": npmFailure, "command": "npm test"})
				note := goodNote(h)
				note["scope"] = "project"
				res := twice("note", note)
				refs <- res.result["record_ref"].(string)
				twice("query", map[string]any{"session_handle": h, "op": "search", "query": "ERESOLVE"})
				end := twice("session.end", map[string]any{"session_handle": h, "reason": "exit"})
				if end.result["notes"] != float64(1) {
					t.Errorf("session %s: %v notes, want 1", h, end.result["notes"])
				}
			})
		}
	}
	wg.Wait()
	close(refs)
	seen := map[string]bool{}
	for ref := range refs {
		if seen[ref] {
			t.Errorf("record %s made by two sessions", ref)
		}
		seen[ref] = true
	}
	rows, err := n.store.MemoryRecords(context.Background())
	if err != nil || len(rows) != adapters*sessions {
		t.Errorf("%d records stored (%v), want %d", len(rows), err, adapters*sessions)
	}
}

// TestMemoryRestart restarts the node mid-session: the handle still
// works, the records are indexed again, and an event sent before the
// restart is answered as it was.
func TestMemoryRestart(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	open := func() (*Node, *httptest.Server) {
		n, err := New(context.Background(), Config{DataDir: dir, CheckpointInterval: translog.MinCheckpointInterval})
		if err != nil {
			t.Fatal(err)
		}
		return n, httptest.NewServer(n.Handler())
	}
	n, srv := open()
	admin := memoryAdminToken(t, n)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	h1 := a.start("shop", nil)
	a.must("tool.result", map[string]any{"session_handle": h1, "tool_name": "Bash", "ok": false, "error_tail": npmFailure, "command": "npm test"})
	ref := a.must("note", goodNote(h1))["record_ref"].(string)
	a.must("session.end", map[string]any{"session_handle": h1, "reason": "exit"})
	h2 := a.start("blog", nil)
	stepID := newEventID()
	stepBody := a.envelope(stepID, "step.before", map[string]any{"session_handle": h2, "step": 1})
	before := a.post("step.before", stepBody)

	srv.Close()
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	n, srv = open()
	defer func() {
		srv.Close()
		n.Close(context.Background())
	}()
	a.url = srv.URL

	if again := a.post("step.before", stepBody); !bytes.Equal(again.body, before.body) {
		t.Errorf("an event from before the restart: %s, want %s", again.body, before.body)
	}
	r := a.must("tool.result", map[string]any{"session_handle": h2, "tool_name": "Bash", "ok": false, "error_tail": npmFailure, "command": "npm test"})
	inj, _ := r["inject"].(map[string]any)
	if inj == nil || inj["record_refs"].([]any)[0] != ref {
		t.Fatalf("after the restart the session got no push of %s: %v", ref, r)
	}
	a.must("session.end", map[string]any{"session_handle": h2, "reason": "exit"})
	if r := a.send("step.before", map[string]any{"session_handle": h1, "step": 9}); r.code != memory.CodeSessionUnbound {
		t.Errorf("a session ended before the restart: %d %s", r.status, r.body)
	}
}

// TestMemoryAdminRecords drives the admin's record routes: a note written
// after a failure is found by search with its reasons, listed, shown whole
// with the receipts of the session that met it, and forgotten: gone from
// pushes, searches, reads, the list and the store at once, its topic free
// for a new note.
func TestMemoryAdminRecords(t *testing.T) {
	t.Parallel()
	n, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	get := func(path string, want int) map[string]any {
		t.Helper()
		status, v := call(t, "GET", srv.URL+path, nil, "Authorization", "Bearer "+admin)
		if status != want {
			t.Fatalf("GET %s: %d %v, want %d", path, status, v, want)
		}
		m, _ := v.(map[string]any)
		return m
	}
	fail := func(h string) map[string]any {
		return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": npmFailure, "command": "npm test"}
	}

	// Nothing yet; and none of it without the admin token.
	if v := get("/api/v1/admin/memory/records", 200); len(v["records"].([]any)) != 0 {
		t.Errorf("records of an empty memory: %v", v)
	}
	for _, path := range []string{"/api/v1/admin/memory/records", "/api/v1/admin/memory/search?q=npm", "/api/v1/admin/memory/records/lr_x"} {
		if status, _ := call(t, "GET", srv.URL+path, nil); status != http.StatusUnauthorized {
			t.Errorf("GET %s without the admin token: %d", path, status)
		}
	}
	if status, _ := call(t, "DELETE", srv.URL+"/api/v1/admin/memory/records/lr_x", nil); status != http.StatusUnauthorized {
		t.Errorf("DELETE without the admin token: %d", status)
	}
	get("/api/v1/admin/memory/search", 400)
	get("/api/v1/admin/memory/records?limit=0", 400)
	get("/api/v1/admin/memory/records?limit=many", 400)

	h1 := a.start("shop", nil)
	a.must("tool.result", fail(h1))
	ref := a.must("note", goodNote(h1))["record_ref"].(string)
	a.must("tool.result", map[string]any{"session_handle": h1, "tool_name": "Bash", "ok": true, "command": "npm test"})
	a.must("session.end", map[string]any{"session_handle": h1, "reason": "exit"})
	h2 := a.start("blog", nil)
	if a.must("tool.result", fail(h2))["inject"] == nil {
		t.Fatal("the record was not pushed in the second project")
	}

	// Search: the admin sees the record at once, with its reasons.
	hits := get("/api/v1/admin/memory/search?q=ERESOLVE+react-dom+peer+dependency", 200)["hits"].([]any)
	if len(hits) != 1 {
		t.Fatalf("search hits: %v", hits)
	}
	hit := hits[0].(map[string]any)
	if hit["record_ref"] != ref || hit["score"].(float64) <= 0 || len(hit["reasons"].([]any)) == 0 {
		t.Errorf("search hit: %v", hit)
	}
	if v := get("/api/v1/admin/memory/search?q=ERESOLVE+react-dom&project=shop", 200); len(v["hits"].([]any)) != 1 {
		t.Errorf("the record is not found among its project's: %v", v)
	}
	if v := get("/api/v1/admin/memory/search?q=ERESOLVE+react-dom&project=blog", 200); len(v["hits"].([]any)) != 0 {
		t.Errorf("search in blog, which wrote no record: %v", v)
	}
	if v := get("/api/v1/admin/memory/search?q=kubernetes+ingress+timeout", 200); len(v["hits"].([]any)) != 0 {
		t.Errorf("search for what no record is about: %v", v)
	}

	// The list, newest first, and by project.
	if v := get("/api/v1/admin/memory/records?project=shop", 200)["records"].([]any); len(v) != 1 || v[0].(map[string]any)["record_ref"] != ref {
		t.Errorf("records of shop: %v", v)
	}
	if v := get("/api/v1/admin/memory/records?project=blog", 200)["records"].([]any); len(v) != 0 {
		t.Errorf("records of blog, which wrote none: %v", v)
	}

	// Show: the record, its fix, its receipts (pushed in blog).
	show := get("/api/v1/admin/memory/records/"+ref, 200)
	rec := show["record"].(map[string]any)
	if rec["title"] != goodNote("")["title"] || rec["type"] != "bugfix" || rec["scope"] != "global" || rec["revision"] != 1.0 || rec["trust"] != "local_auto" {
		t.Errorf("shown record: %v", rec)
	}
	if fix := show["fix"].(map[string]any); fix["kind"] != "command" || fix["command"] != "npm install --legacy-peer-deps" {
		t.Errorf("shown fix: %v", show["fix"])
	}
	receipts := show["receipts"].([]any)
	if len(receipts) != 1 || receipts[0].(map[string]any)["kind"] != "pushed" || receipts[0].(map[string]any)["session"] != h2 {
		t.Errorf("shown receipts: %v", receipts)
	}
	get("/api/v1/admin/memory/records/lr_nosuchrecord", 404)

	// Forget: gone everywhere at once.
	status, v := call(t, "DELETE", srv.URL+"/api/v1/admin/memory/records/"+ref, nil, "Authorization", "Bearer "+admin)
	if status != 200 || v.(map[string]any)["receipts"] != 1.0 || v.(map[string]any)["removed"].(map[string]any)["record_ref"] != ref {
		t.Fatalf("DELETE: %d %v", status, v)
	}
	if status, _ := call(t, "DELETE", srv.URL+"/api/v1/admin/memory/records/"+ref, nil, "Authorization", "Bearer "+admin); status != 404 {
		t.Errorf("forgetting twice: %d, want 404", status)
	}
	get("/api/v1/admin/memory/records/"+ref, 404)
	if v := get("/api/v1/admin/memory/search?q=ERESOLVE+react-dom+peer+dependency", 200); len(v["hits"].([]any)) != 0 {
		t.Errorf("a forgotten record is still found: %v", v)
	}
	if v := get("/api/v1/admin/memory/records", 200); len(v["records"].([]any)) != 0 {
		t.Errorf("a forgotten record is still listed: %v", v)
	}
	if _, err := n.store.MemoryRecord(t.Context(), ref); err == nil {
		t.Error("a forgotten record is still in the store")
	}
	if k := receiptKinds(t, srv.URL, admin, h2); len(k) != 0 {
		t.Errorf("the session still lists receipts of a forgotten record: %v", k)
	}
	h3 := a.start("docs", nil)
	if inj := a.must("tool.result", fail(h3))["inject"]; inj != nil {
		t.Errorf("a forgotten record was pushed: %v", inj)
	}
	if r := a.send("query", map[string]any{"session_handle": h2, "op": "read", "ref": ref}); r.code != memory.CodeNotFound {
		t.Errorf("reading a forgotten record: %d %s", r.status, r.body)
	}
	// Its session goes on; a new note takes the topic it held.
	a.must("tool.result", map[string]any{"session_handle": h2, "tool_name": "Bash", "ok": true, "command": "npm install --legacy-peer-deps"})
	again := a.must("note", goodNote(h3))
	if again["record_ref"] == ref || again["revision"] != 1.0 {
		t.Errorf("a note on a forgotten record's topic: %v, want a new record at revision 1", again)
	}
}

// TestMemoryReplayEveryKind sends each L0 kind once, then the same event
// ID with the same body (the first answer, byte for byte) and with another
// body (idempotency_conflict): the replay rule holds for every kind, not
// just the ones with effects.
func TestMemoryReplayEveryKind(t *testing.T) {
	t.Parallel()
	_, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	h := a.start("replay", nil)
	payloads := map[string]map[string]any{
		"session.start":      {"project": "replay-2", "capabilities": []any{"session_binding"}},
		"step.before":        {"session_handle": h, "step": 1, "query_text": "run the tests"},
		"tool.result":        {"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": npmFailure, "command": "npm test"},
		"context.compaction": {"session_handle": h, "summary_text": "tests"},
		"subagent.end":       {"session_handle": h, "child_ref": "sub-1", "stop_reason": "done"},
		"note":               goodNote(h),
		"query":              {"session_handle": h, "op": "search", "query": "ERESOLVE"},
		"session.end":        {"session_handle": h, "reason": "exit"},
	}
	for _, kind := range memory.L0Kinds() {
		p, ok := payloads[kind]
		if !ok {
			t.Fatalf("no payload for %s", kind)
		}
		id := newEventID()
		body := a.envelope(id, kind, p)
		first := a.post(kind, body)
		if !first.ok {
			t.Fatalf("%s: %s", kind, first.body)
		}
		if again := a.post(kind, body); again.status != first.status || !bytes.Equal(again.body, first.body) {
			t.Errorf("%s replayed: %d %s, want %d %s", kind, again.status, again.body, first.status, first.body)
		}
		changed := bytes.Replace(body, []byte(`"occurred_at":"2026-11-30T10:00:00Z"`), []byte(`"occurred_at":"2026-11-30T10:00:01Z"`), 1)
		if bytes.Equal(changed, body) {
			t.Fatalf("%s: the body did not change", kind)
		}
		if r := a.post(kind, changed); r.code != memory.CodeIdempotencyConflict || r.status != memory.HTTPStatus(memory.CodeIdempotencyConflict) {
			t.Errorf("%s replayed with another body: %d %s, want idempotency_conflict", kind, r.status, r.body)
		}
	}
}
