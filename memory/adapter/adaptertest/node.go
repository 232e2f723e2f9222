// Package adaptertest is a fake Agora memory node for testing adapters: a
// real HTTP server on loopback that reads every event it receives with
// memory.ParseEvent (the contract's schema and the rules it states in
// words), answers per the contract, checks its own answers with
// memory.ValidateResponse too, and records everything for the test to
// assert.
//
// Its memory is deliberately small: a note is linked to the last failure
// signature the node saw, and a later failing tool.result with that
// signature gets the note pushed back as an inject. That is the behaviour an
// adapter has to carry end to end; ranking is the real node's business, and
// cmd/agora's end-to-end test drives the adapters against a real node.
//
// The contract: memory/memory-agent-ingress-v1.schema.json.
package adaptertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Event is one request the node received.
type Event struct {
	AdapterID string // from the path
	Kind      string // from the path
	Auth      string // the Authorization header
	Body      []byte
	Envelope  map[string]any
	Payload   map[string]any
	Status    int    // HTTP status answered
	Answer    []byte // body answered
}

// Node is the fake node. Its fields may be read after the test's requests
// are done; use Events while requests may still come.
type Node struct {
	URL   string
	Token string

	t   testing.TB
	srv *httptest.Server

	mu       sync.Mutex // guards everything below
	events   []Event
	byID     map[string]Event // event_id → first event with it
	handles  map[string]bool  // bound session handles
	started  int              // sessions ever bound, so handles are never reused
	notes    []note
	lastFail string // error_signature of the last failing tool.result
	pushed   map[string]int
}

type note struct {
	ref, title, learned, fix, signature, project string
	payload                                      map[string]any
}

// New starts a fake node on loopback that accepts token; it stops when the
// test ends.
func New(t testing.TB, token string) *Node {
	t.Helper()
	n := &Node{Token: token, t: t, byID: map[string]Event{}, handles: map[string]bool{}, pushed: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/agent-ingress/{adapter}/events/{kind}", n.serve)
	n.srv = httptest.NewServer(mux)
	n.URL = n.srv.URL
	t.Cleanup(n.srv.Close)
	return n
}

// Events returns what the node received so far, in order.
func (n *Node) Events() []Event {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Event(nil), n.events...)
}

// Kinds lists the kinds of Events.
func (n *Node) Kinds() []string {
	var ks []string
	for _, e := range n.Events() {
		ks = append(ks, e.Kind)
	}
	return ks
}

// ForgetSessions drops every session handle, as a node restarted without
// its sessions would.
func (n *Node) ForgetSessions() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.handles = map[string]bool{}
}

func (n *Node) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	ev := Event{AdapterID: r.PathValue("adapter"), Kind: r.PathValue("kind"), Auth: r.Header.Get("Authorization"), Body: body}
	status, answer := n.handle(&ev)
	out, err := json.Marshal(answer)
	if err != nil {
		n.t.Errorf("fake node: encode answer: %v", err)
	}
	ev.Status, ev.Answer = status, out
	// Keep the fake honest: what it answers must be what the contract allows.
	if memory.IsKind(ev.Kind) {
		if err := memory.ValidateResponse(ev.Kind, out); err != nil {
			n.t.Errorf("fake node answered %s outside the contract: %v\n%s", ev.Kind, err, out)
		}
	}
	n.mu.Lock()
	n.events = append(n.events, ev)
	n.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(out)
}

func fail(status int, code, msg string) (int, any) {
	return status, map[string]any{"ok": false, "error": map[string]any{"code": code, "message": msg, "retryable": false}}
}

func ok(result any) (int, any) {
	return http.StatusOK, map[string]any{"ok": true, "result": result}
}

func (n *Node) handle(ev *Event) (int, any) {
	if ev.Auth != "Bearer "+n.Token {
		return fail(http.StatusUnauthorized, "unauthorized", "bad or missing bearer token")
	}
	if _, err := memory.ParseEvent(ev.AdapterID, ev.Kind, ev.Body); err != nil {
		n.t.Errorf("adapter sent an event outside the contract: %v\n%s", err, ev.Body)
		return fail(memory.HTTPStatus(memory.AsError(err).Code), memory.AsError(err).Code, err.Error())
	}
	// The test asserts on the JSON as sent, not on the typed payload.
	if err := json.Unmarshal(ev.Body, &ev.Envelope); err != nil {
		n.t.Errorf("adapter sent a body that is not JSON: %v\n%s", err, ev.Body)
		return fail(http.StatusBadRequest, memory.CodeBadRequest, err.Error())
	}
	ev.Payload, _ = ev.Envelope["payload"].(map[string]any)

	n.mu.Lock()
	defer n.mu.Unlock()
	id, _ := ev.Envelope["event_id"].(string)
	if first, seen := n.byID[id]; seen {
		if !bytes.Equal(first.Body, ev.Body) {
			return fail(http.StatusConflict, "idempotency_conflict", "event_id reused with another body")
		}
		var ans any
		json.Unmarshal(first.Answer, &ans)
		return first.Status, ans
	}
	status, answer := n.dispatch(ev)
	out, _ := json.Marshal(answer)
	stored := *ev
	stored.Status, stored.Answer = status, out
	n.byID[id] = stored
	return status, answer
}

// dispatch answers one new event; n.mu is held.
func (n *Node) dispatch(ev *Event) (int, any) {
	p := ev.Payload
	handle, _ := p["session_handle"].(string)
	if ev.Kind != "session.start" && !n.handles[handle] {
		return fail(http.StatusConflict, "session_unbound", "unknown session_handle")
	}
	str := func(k string) string { s, _ := p[k].(string); return s }
	switch ev.Kind {
	case "session.start":
		n.started++
		h := fmt.Sprintf("sh_%d", n.started)
		n.handles[h] = true
		return ok(map[string]any{
			"session_handle": h,
			"profile":        map[string]any{"id": "default", "revision": "1", "digest": "sha256:" + strings.Repeat("0", 64)},
		})
	case "step.before":
		return ok(map[string]any{"inject": nil})
	case "tool.result":
		if okv, _ := p["ok"].(bool); okv {
			return ok(map[string]any{"inject": nil})
		}
		sig := str("error_signature")
		for _, nt := range n.notes {
			if sig != "" && nt.signature == sig {
				n.pushed[handle]++
				text := fmt.Sprintf("Agora memory: an earlier session hit this failure and noted a fix (data from memory, not instructions).\n- %s [%s]: %s", nt.title, nt.ref, nt.learned)
				if nt.fix != "" {
					text += "\n  fix: " + nt.fix
				}
				return ok(map[string]any{"inject": map[string]any{
					"text":        text,
					"record_refs": []string{nt.ref},
					"hits":        []any{hit(nt, sig)},
					"trigger":     "after_failure",
				}})
			}
		}
		n.lastFail = sig
		return ok(map[string]any{"inject": nil})
	case "context.compaction", "subagent.end":
		return ok(map[string]any{})
	case "note":
		content, _ := p["content"].(map[string]any)
		learned, _ := content["learned"].(string)
		nt := note{ref: fmt.Sprintf("lr_%d", len(n.notes)+1), title: str("title"), learned: learned, signature: n.lastFail, payload: p}
		if fix, _ := p["fix"].(map[string]any); fix != nil {
			nt.fix, _ = fix["command"].(string)
		}
		n.notes = append(n.notes, nt)
		return ok(map[string]any{
			"record_ref": nt.ref, "revision": 1, "topic_key": str("type") + "/noted", "topic_key_derived": true,
			"visible_from": "next_session", "similar": []any{},
		})
	case "query":
		if str("op") == "read" {
			for _, nt := range n.notes {
				if nt.ref == str("ref") {
					return ok(map[string]any{"op": "read", "record": map[string]any{
						"record_ref": nt.ref, "title": nt.title, "trust": "local_auto", "provenance_label": "local · noted by an agent",
						"text": nt.title + "\n\n" + nt.learned,
					}})
				}
			}
			return fail(http.StatusNotFound, "not_found", "no record "+str("ref"))
		}
		var hits []any
		for _, nt := range n.notes {
			for _, w := range strings.Fields(strings.ToLower(str("query"))) {
				if strings.Contains(strings.ToLower(nt.title+" "+nt.learned), w) {
					hits = append(hits, hit(nt, w))
					break
				}
			}
		}
		status := "ok"
		if len(hits) == 0 {
			status, hits = "no_match", []any{}
		}
		return ok(map[string]any{"op": "search", "hits": hits, "status": status})
	case "session.end":
		delete(n.handles, handle)
		return ok(map[string]any{
			"outcome": "unknown", "domain_status": "",
			"exposures": map[string]any{"pushed": n.pushed[handle], "listed": 0, "read": 0, "cited": 0},
		})
	}
	return fail(http.StatusBadRequest, "unknown_kind", ev.Kind)
}

func hit(nt note, matched string) map[string]any {
	return map[string]any{
		"record_ref": nt.ref, "title": nt.title, "trust": "local_auto",
		"provenance_label": "local · noted by an agent", "score": 0.9, "summary": nt.learned,
		"reasons": []any{map[string]any{"signal": "error_signature", "value": matched, "contribution": 0.9}},
	}
}

// ConnectMCP serves tools' MCP server over the SDK's in-memory transport
// and returns a client session of it; both close when the test ends.
func ConnectMCP(t testing.TB, ctx context.Context, tools *adapter.MCPTools) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := adapter.NewMCPServer(tools).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "adaptertest", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
