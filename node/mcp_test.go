package node

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport sends an adapter's token with every request, as an MCP
// client configured with an Authorization header does.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// mcpSession connects the Go SDK's client to base's /mcp, sending token
// when it is set, and returns the session and the tools it lists.
func mcpSession(t *testing.T, base, token string) (*mcp.ClientSession, map[string]*mcp.Tool) {
	t.Helper()
	hc := &http.Client{Timeout: 30 * time.Second}
	if token != "" {
		hc.Transport = bearerTransport{token}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agora-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect to /mcp: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	tools := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatalf("list tools: %v", err)
		}
		tools[tool.Name] = tool
	}
	return cs, tools
}

// mcpCall calls a tool that must succeed and checks its structured result
// against the output schema the tool listed.
func mcpCall(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, toolText(res))
	}
	tool := tools[name]
	if tool == nil || tool.OutputSchema == nil {
		t.Fatalf("%s lists no output schema", name)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(mustJSON(t, tool.OutputSchema), &schema); err != nil {
		t.Fatalf("%s output schema: %v", name, err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s output schema: %v", name, err)
	}
	if err := resolved.Validate(res.StructuredContent); err != nil {
		t.Errorf("%s answered outside its output schema: %v\n%s", name, err, mustJSON(t, res.StructuredContent))
	}
	out, ok := res.StructuredContent.(map[string]any)
	if !ok {
		t.Fatalf("%s: structured content %T", name, res.StructuredContent)
	}
	// The text content carries the same JSON, for clients that read only it.
	var text map[string]any
	if err := json.Unmarshal([]byte(toolText(res)), &text); err != nil {
		t.Errorf("%s: text content is not the JSON: %v", name, err)
	}
	return out
}

// mcpRefused calls a tool that must answer a tool error (never a protocol
// failure, never a panic) whose text contains want.
func mcpRefused(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, want string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v, want a tool error", name, args, err)
	}
	t.Logf("%s %v: %s", name, args, toolText(res))
	if !res.IsError || !strings.Contains(toolText(res), want) {
		t.Errorf("%s %v: error %v %q, want a tool error containing %q", name, args, res.IsError, toolText(res), want)
	}
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// openBundle submits files signed by a and waits until the bundle opens.
func openBundle(t *testing.T, base string, a author, files map[string][]byte) string {
	t.Helper()
	body, hash := signedBody(t, a.key, files, nil)
	status, v := call(t, "POST", base+"/api/v1/bundles", body)
	if status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, v)
	}
	sealed := uint64(v.(map[string]any)["sealed"].(float64))
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		status, v = call(t, "GET", base+"/api/v1/sealed/"+itoa(sealed), nil)
		if status == http.StatusOK && v.(map[string]any)["state"] == "open" {
			return hash
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bundle did not open: %d %v", status, v)
		}
	}
}

// TestMCPReadServer attaches the Go SDK's MCP client to /mcp on a node
// holding an open bundle, a library thread and a memory note, and reads
// each face through the tools, each result checked against its tool's
// output schema; bad input is a tool error saying what to send.
func TestMCPReadServer(t *testing.T) {
	t.Parallel()
	w := newMCPWorld(t)
	cs, tools := mcpSession(t, w.base, w.token)
	mcpListsTools(t, tools)
	w.readsLedger(t, cs, tools)
	w.readsStandingAndTeams(t, cs, tools)
	w.readsLibraryAndMemory(t, cs, tools)
	w.refusesBadInput(t, cs)
	w.refusesTransport(t)
}

// mcpWorld is a node holding an open bundle, a library thread and a
// memory note from a session that passed, for a later session to find.
type mcpWorld struct {
	n                               *Node
	a                               author
	files                           map[string][]byte
	base, hash, thread, note, token string
	teammate                        verifier // on team
	team                            string
}

func newMCPWorld(t *testing.T) *mcpWorld {
	n, srv := testNodeWith(t, Config{OpenAfter: 200 * time.Millisecond})
	base := srv.URL
	a := newAuthor(t, n, base)
	files, _ := realisticBundle(t, a)
	hash := openBundle(t, base, a, files)
	thread := publish(t, base, a, content("thread", "Thermometer drift on the bench", "How far do bench thermometers drift in a week?", ""), time.Now())

	admin := memoryAdminToken(t, n)
	token := issueAdapter(t, base, admin, "codex")
	ag := &agent{t: t, url: base, id: "codex", token: token}
	h := ag.start("foo", nil)
	ag.must("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": npmFailure, "command": "npm test"})
	note := ag.must("note", goodNote(h))["record_ref"].(string)
	ag.must("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": true, "exit_code": 0, "command": "npm test"})
	ag.must("session.end", map[string]any{"session_handle": h, "reason": "exit"})

	// A team, and an agent whose person is on it.
	teammate := invitedVerifier(t, n, base, "Teammate", "claude")
	adminAuth := []string{"Authorization", adminToken(t, n)}
	status, made := teamCall(t, "POST", base+"/api/v1/admin/teams", mustJSON(t, map[string]any{"name": "Bench Thermometry"}), adminAuth...)
	wantAnswer(t, "create a team", status, made, http.StatusCreated, "")
	team := made["team"].(string)
	status, moved := teamCall(t, "POST", base+"/api/v1/admin/teams/"+team+"/people", mustJSON(t, map[string]any{"person": teammate.org}), adminAuth...)
	if status != http.StatusOK || moved["moved"] != float64(1) {
		t.Fatalf("the teammate's person joins: %d %v", status, moved)
	}
	return &mcpWorld{n: n, a: a, files: files, base: base, hash: hash, thread: thread, note: note, token: token, teammate: teammate, team: team}
}

// mcpListsTools checks that every tool is listed, with its schemas, a
// description and its read-only hint.
func mcpListsTools(t *testing.T, tools map[string]*mcp.Tool) {
	for _, name := range []string{"search_claims", "get_claim", "get_bundle", "read_paper", "get_file", "get_operator", "get_leaderboard", "search_teams", "get_team", "get_prices",
		"get_vocabulary", "get_log", "get_log_entries", "get_log_entry", "list_replications", "list_retractions", "get_preregistration",
		"search_library", "get_library_entry", "get_library_head",
		"get_library_connections", "get_library_map", "memory_query"} {
		tool := tools[name]
		if tool == nil {
			t.Errorf("no tool %s among %v", name, slices.Sorted(func(yield func(string) bool) {
				for k := range tools {
					if !yield(k) {
						return
					}
				}
			}))
			continue
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("tool %s lacks a schema, a description or its read-only hint: %+v", name, tool)
		}
	}
}

// readsLedger searches claims and reads the bundle, its paper, a range of
// a file, an operator and the log.
func (w *mcpWorld) readsLedger(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool) {
	found := mcpCall(t, cs, tools, "search_claims", map[string]any{"q": "drift", "limit": 5})
	claims := found["claims"].([]any)
	if len(claims) == 0 {
		t.Fatalf("search_claims found nothing: %v", found)
	}
	claim := claims[0].(map[string]any)
	if claim["bundle"] != w.hash {
		t.Errorf("search_claims found %v, want a claim of %s", claim, w.hash)
	}
	if got := mcpCall(t, cs, tools, "get_claim", map[string]any{"id": claim["claim_id"]}); got["claim_id"] != claim["claim_id"] {
		t.Errorf("get_claim: %v", got)
	}
	b := mcpCall(t, cs, tools, "get_bundle", map[string]any{"hash": w.hash})
	if b["state"] != "open" || b["files"].(map[string]any)["paper.md"] != sha(w.files["paper.md"]) {
		t.Errorf("get_bundle: %v", b)
	}
	paper := mcpCall(t, cs, tools, "read_paper", map[string]any{"bundle": w.hash})
	if paper["data"] != string(w.files["paper.md"]) || paper["encoding"] != "utf-8" || paper["truncated"] != false ||
		paper["size"] != float64(len(w.files["paper.md"])) || paper["bundle"] != w.hash || paper["path"] != "paper.md" {
		t.Errorf("read_paper: %v", paper)
	}
	part := mcpCall(t, cs, tools, "get_file", map[string]any{"digest": sha(w.files["paper.md"]), "offset": 2, "max_bytes": 10})
	if part["data"] != string(w.files["paper.md"][2:12]) || part["truncated"] != true || part["offset"] != 2.0 {
		t.Errorf("get_file of bytes 2 to 11: %v", part)
	}
	if op := mcpCall(t, cs, tools, "get_operator", map[string]any{"id": w.a.id}); op["operator"] != w.a.id {
		t.Errorf("get_operator: %v", op)
	}
	if lg := mcpCall(t, cs, tools, "get_log", nil); lg["log"] != w.n.LogID() {
		t.Errorf("get_log: %v", lg)
	}
	mcpCall(t, cs, tools, "get_prices", nil)
	mcpCall(t, cs, tools, "get_vocabulary", nil)
	if es := mcpCall(t, cs, tools, "get_log_entries", map[string]any{"latest": 2}); len(es["entries"].([]any)) != 2 {
		t.Errorf("get_log_entries latest 2: %v", es)
	}
	mcpCall(t, cs, tools, "get_log_entry", map[string]any{"index": 0})
	if w := mcpCall(t, cs, tools, "list_replications", map[string]any{"limit": 50}); w["waiting"] == 0.0 {
		t.Errorf("list_replications: the measured claim C2 waits for a replication: %v", w)
	}
	if r := mcpCall(t, cs, tools, "list_retractions", nil); len(r["retractions"].([]any)) != 0 {
		t.Errorf("list_retractions: %v, want none", r)
	}

}

// readsStandingAndTeams reads an operator's standing, the leaderboard and
// the team, each as its HTTP route serves it.
func (w *mcpWorld) readsStandingAndTeams(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool) {
	same := func(what, path string, got map[string]any, drop ...string) {
		t.Helper()
		status, v := call(t, "GET", w.base+path, nil)
		want, _ := v.(map[string]any)
		for _, k := range drop {
			delete(want, k)
			delete(got, k)
		}
		if status != http.StatusOK || asJSON(got) != asJSON(want) {
			t.Errorf("%s: the tool answers %s, GET %s %d %s", what, asJSON(got), path, status, asJSON(want))
		}
	}
	op := mcpCall(t, cs, tools, "get_operator", map[string]any{"id": w.teammate.id})
	if on, _ := op["team"].(map[string]any); on["team"] != w.team {
		t.Errorf("get_operator: the teammate's team is %v, want %s", op["team"], w.team)
	}
	same("get_operator", "/api/v1/operators/"+w.teammate.id, op)
	for _, period := range []string{"all", "30d"} {
		board := mcpCall(t, cs, tools, "get_leaderboard", map[string]any{"period": period, "limit": 100})
		if board["period"] != period {
			t.Errorf("get_leaderboard %s: %v", period, board)
		}
		same("get_leaderboard "+period, "/api/v1/leaderboard?limit=100&period="+period, board)
	}
	found := mcpCall(t, cs, tools, "search_teams", map[string]any{"q": "bench  THERMOMETRY", "period": "30d"})
	results, _ := found["results"].([]any)
	if len(results) != 1 || results[0].(map[string]any)["team"] != w.team || results[0].(map[string]any)["members"] != 1.0 {
		t.Fatalf("search_teams: %v, want %s with one member", found, w.team)
	}
	same("search_teams", "/api/v1/teams?q=bench&period=30d", found)
	if none := mcpCall(t, cs, tools, "search_teams", map[string]any{"q": "lone wolves"}); none["teams"] != 0.0 {
		t.Errorf("search_teams for a name no team has: %v", none)
	}
	team := mcpCall(t, cs, tools, "get_team", map[string]any{"id": w.team})
	members, _ := team["members"].([]any)
	if team["name"] != "Bench Thermometry" || len(members) != 1 || members[0].(map[string]any)["operator"] != w.teammate.id {
		t.Errorf("get_team: %v", team)
	}
	same("get_team", "/api/v1/teams/"+w.team, team)
}

// readsLibraryAndMemory finds the thread and the note, and reads them back.
func (w *mcpWorld) readsLibraryAndMemory(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool) {
	// The library: the catalogue finds the thread, which reads back.
	lib := mcpCall(t, cs, tools, "search_library", map[string]any{"q": "thermometer drift"})
	items := lib["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["id"] != w.thread {
		t.Errorf("search_library: %v, want %s", lib, w.thread)
	}
	if e := mcpCall(t, cs, tools, "get_library_entry", map[string]any{"revision": w.thread}); e["id"] != w.thread {
		t.Errorf("get_library_entry: %v", e)
	}
	if e := mcpCall(t, cs, tools, "get_library_head", map[string]any{"revision": w.thread}); e["id"] != w.thread {
		t.Errorf("get_library_head: %v", e)
	}
	mcpCall(t, cs, tools, "get_library_connections", map[string]any{"revision": w.thread})

	// Memory: a session the tool starts finds the note, and reads it in
	// the same session.
	hits := mcpCall(t, cs, tools, "memory_query", map[string]any{"adapter_id": "codex", "op": "search", "query": "ERESOLVE react-dom peer dependency"})
	list, _ := hits["hits"].([]any)
	if len(list) == 0 || list[0].(map[string]any)["record_ref"] != w.note {
		t.Fatalf("memory_query search: %v, want %s first", hits, w.note)
	}
	read := mcpCall(t, cs, tools, "memory_query", map[string]any{"adapter_id": "codex", "op": "read", "ref": w.note, "session_handle": hits["session_handle"]})
	if read["record"].(map[string]any)["record_ref"] != w.note || read["session_handle"] != hits["session_handle"] {
		t.Errorf("memory_query read: %v", read)
	}
	// Queries without a handle share the server's session for the adapter
	// and project; once the node ends it, the next starts another.
	again := mcpCall(t, cs, tools, "memory_query", map[string]any{"adapter_id": "codex", "op": "read", "ref": w.note})
	if again["session_handle"] != hits["session_handle"] {
		t.Errorf("a second query started session %v, not the server's %v", again["session_handle"], hits["session_handle"])
	}
	ag := &agent{t: t, url: w.base, id: "codex", token: w.token}
	ag.must("session.end", map[string]any{"session_handle": hits["session_handle"], "reason": "exit"})
	after := mcpCall(t, cs, tools, "memory_query", map[string]any{"adapter_id": "codex", "op": "search", "query": "ERESOLVE react-dom peer dependency"})
	if h := after["session_handle"]; h == hits["session_handle"] || h == "" || len(after["hits"].([]any)) == 0 {
		t.Errorf("after the node ended the session: %v", after)
	}
	mcpRefused(t, cs, "memory_query", map[string]any{"adapter_id": "codex", "op": "read", "ref": w.note, "session_handle": hits["session_handle"]}, "session_unbound")

}

// refusesBadInput: bad input is a tool error that says what to send.
func (w *mcpWorld) refusesBadInput(t *testing.T, cs *mcp.ClientSession) {
	mcpRefused(t, cs, "get_bundle", map[string]any{}, `missing properties: ["hash"]: send the arguments the tool's inputSchema describes`)
	mcpRefused(t, cs, "get_bundle", map[string]any{"hash": ""}, `send "hash"`)
	mcpRefused(t, cs, "get_bundle", map[string]any{"hash": "sha256:" + strings.Repeat("0", 64)}, "not_found")
	mcpRefused(t, cs, "search_claims", map[string]any{"limit": 500}, "limit is 1 to 50")
	mcpRefused(t, cs, "search_claims", map[string]any{"q": 5}, "q")
	mcpRefused(t, cs, "search_claims", map[string]any{"sort": "best"}, "sort is new or importance")
	mcpRefused(t, cs, "get_file", map[string]any{"digest": "paper.md"}, "is not a digest")
	mcpRefused(t, cs, "get_file", map[string]any{"digest": sha(w.files["paper.md"]), "offset": 1 << 20}, "send a smaller offset")
	mcpRefused(t, cs, "get_file", map[string]any{"digest": sha(w.files["paper.md"]), "max_bytes": 1 << 30}, `send "max_bytes"`)
	mcpRefused(t, cs, "read_paper", map[string]any{"bundle": "sha256:" + strings.Repeat("0", 64)}, "not_found")
	mcpRefused(t, cs, "get_log_entry", map[string]any{"index": -1}, `send "index"`)
	mcpRefused(t, cs, "get_log_entries", map[string]any{}, "start")
	mcpRefused(t, cs, "list_replications", map[string]any{"limit": 0}, "limit is 1 to 50")
	mcpRefused(t, cs, "get_leaderboard", map[string]any{"period": "week"}, `period is all (all time) or 30d`)
	mcpRefused(t, cs, "get_leaderboard", map[string]any{"limit": 0}, "limit is 1 to 100")
	mcpRefused(t, cs, "search_teams", map[string]any{"period": "week"}, `period is "all" or "30d", not "week"`)
	mcpRefused(t, cs, "search_teams", map[string]any{"limit": 101}, "limit is 1 to 100")
	mcpRefused(t, cs, "get_team", map[string]any{}, `missing properties: ["id"]`)
	mcpRefused(t, cs, "get_team", map[string]any{"id": " "}, `send "id": a team ID`)
	mcpRefused(t, cs, "get_team", map[string]any{"id": "physics"}, "is not a team ID (team: and a number)")
	mcpRefused(t, cs, "get_team", map[string]any{"id": "team:999"}, "not_found")
	mcpRefused(t, cs, "get_preregistration", map[string]any{"id": "nope"}, "GET /api/v1/preregistrations/{id}")
	mcpRefused(t, cs, "search_library", map[string]any{"node_type": "poem"}, "node_type")
	mcpRefused(t, cs, "get_library_map", map[string]any{"revision": w.thread}, "not a research map")
	mcpRefused(t, cs, "get_library_entry", map[string]any{"revision": "nope"}, "revision")
	mcpRefused(t, cs, "memory_query", map[string]any{"adapter_id": "codex", "op": "forget"}, `send "op"`)
	mcpRefused(t, cs, "memory_query", map[string]any{"adapter_id": "codex", "op": "search"}, `send "query"`)
	mcpRefused(t, cs, "memory_query", map[string]any{"adapter_id": "claude", "op": "search", "query": "npm"}, "unauthorized")
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "publish_bundle"}); err == nil {
		t.Errorf("an unknown tool answered")
	}

}

// refusesTransport: without a token memory is refused with what to send
// while the rest reads; what is not an MCP request is the node's JSON error.
func (w *mcpWorld) refusesTransport(t *testing.T) {
	// Without a token, memory is refused with what to send; the rest reads.
	anon, anonTools := mcpSession(t, w.base, "")
	mcpRefused(t, anon, "memory_query", map[string]any{"adapter_id": "codex", "op": "search", "query": "npm"}, "Authorization: Bearer")
	mcpCall(t, anon, anonTools, "get_bundle", map[string]any{"hash": w.hash})

	// /mcp takes POST; another method, or a body that is not JSON-RPC, is
	// the node's JSON error, as every route answers, never a 500.
	if status, v := call(t, "GET", w.base+"/mcp", nil); status != http.StatusMethodNotAllowed || v.(map[string]any)["code"] != "method_not_allowed" {
		t.Errorf("GET /mcp: %d %v", status, v)
	}
	jsonRPC := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}
	for _, c := range []struct {
		body   string
		header []string
		status int
		code   string
	}{
		{"not json", jsonRPC, http.StatusBadRequest, "bad_request"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/steal"}`, jsonRPC, http.StatusBadRequest, "bad_request"},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{`"` + strings.Repeat("x", 2<<20) + `"`, jsonRPC, http.StatusRequestEntityTooLarge, "too_large"},
	} {
		status, v := call(t, "POST", w.base+"/mcp", []byte(c.body), c.header...)
		body, _ := v.(map[string]any)
		if msg, _ := body["error"].(string); status != c.status || body["code"] != c.code || !strings.HasPrefix(msg, "MCP: ") {
			t.Errorf("POST /mcp %.40q: %d %v, want %d %s", c.body, status, v, c.status, c.code)
		}
	}
	// A tool's bad arguments are a tool error in a JSON-RPC result.
	status, v := call(t, "POST", w.base+"/mcp", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_bundle","arguments":"x"}}`), jsonRPC...)
	if res, _ := v.(map[string]any)["result"].(map[string]any); status != http.StatusOK || res["isError"] != true {
		t.Errorf("tools/call with arguments that are no object: %d %v", status, v)
	}
}
