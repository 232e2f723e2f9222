package adapter_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
	"github.com/agora-node/agora/memory/adapter/adaptertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMemoryErrorSignature(t *testing.T) {
	a := "Error: Cannot find module 'left-pad'\nRequire stack:\n- /home/dev/shop-api/src/format.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)"
	b := "> billing@1.0.0 test\nnode:internal/modules/cjs/loader:1080\n  throw err;\n\nError: Cannot find module 'left-pad'\nRequire stack:\n- /srv/ci/billing-svc/src/format.js"
	c := "Error: Cannot find module 'right-pad'\n"
	sa, okA := adapter.ErrorSignature(a)
	sb, okB := adapter.ErrorSignature(b)
	sc, _ := adapter.ErrorSignature(c)
	if !okA || !okB || sa != sb {
		t.Errorf("one failure in two checkouts: %s vs %s (keys %q, %q)", sa, sb, adapter.ErrorKey(a), adapter.ErrorKey(b))
	}
	if sa == sc {
		t.Errorf("different modules share a signature: %s", sa)
	}
	if k := adapter.ErrorKey("panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/u/x/main.go:12 +0x1d"); k != "panic: runtime error: index out of range [<n>] with length <n>" {
		t.Errorf("Go panic key: %q", k)
	}
	if _, ok := adapter.ErrorSignature("all good\n3 passed"); ok {
		t.Error("output with no error got a signature")
	}
}

func TestMemoryRedact(t *testing.T) {
	for in, leak := range map[string]string{
		"curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://x": "abcdefghijklmnop1234",
		"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz012345":       "ghp_abcdef",
		"psql postgres://app:hunter2@db/app":                             "hunter2",
		"deploy --password s3cret-value":                                 "s3cret-value",
		"aws s3 ls # key AKIAABCDEFGHIJKLMNOP":                           "AKIAABCDEFGHIJKLMNOP",
	} {
		if out := adapter.Redact(in); strings.Contains(out, leak) {
			t.Errorf("Redact(%q) = %q, leaks %q", in, out, leak)
		}
	}
	if s := "npm test -- --grep token-parser"; adapter.Redact(s) != s {
		t.Errorf("Redact changed a harmless command: %q", adapter.Redact(s))
	}
}

func TestMemoryExitCode(t *testing.T) {
	for out, want := range map[string]int{
		"Exit code 1\n\n> test":                  1,
		"Exit code: 0\nWall time: 0.6 seconds\n": 0,
		"Process exited with code 127\n":         127,
	} {
		if n, ok := adapter.ExitCode(out); !ok || n != want {
			t.Errorf("ExitCode(%q) = %d, %t; want %d", out, n, ok, want)
		}
	}
	if _, ok := adapter.ExitCode("added 1 package"); ok {
		t.Error("found an exit code where there is none")
	}
}

// TestMemoryRunnerRebinds checks that a node that forgot its sessions (it
// was restarted) costs one event, and the next hook binds a new session.
func TestMemoryRunnerRebinds(t *testing.T) {
	node := adaptertest.New(t, "tok")
	r := &adapter.Runner{
		Client: &adapter.Client{URL: node.URL, AdapterID: "claude-code", Token: "tok", HTTP: http.DefaultClient},
		Store:  &adapter.Store{Dir: t.TempDir()},
	}
	ctx := context.Background()
	prompt := func(text string) (adapter.Outcome, error) {
		in, err := adapter.ParseClaudeCode([]byte(`{"session_id":"s1","cwd":"/w/p","hook_event_name":"UserPromptSubmit","prompt":"` + text + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		return r.Run(ctx, in)
	}
	// No SessionStart hook ran (installed mid-session): the first prompt
	// binds the session itself.
	if _, err := prompt("go"); err != nil {
		t.Fatal(err)
	}
	// The same prompt again, after the node acknowledged it, is a new step.
	if _, err := prompt("go"); err != nil {
		t.Fatal(err)
	}
	ev := node.Events()
	if len(ev) != 3 || ev[0].Kind != "session.start" || ev[1].Payload["step"] != 0.0 || ev[2].Payload["step"] != 1.0 ||
		ev[1].Envelope["event_id"] == ev[2].Envelope["event_id"] {
		t.Fatalf("events: %v", node.Kinds())
	}
	node.ForgetSessions()
	if _, err := prompt("again"); !adapter.IsCode(err, memory.CodeSessionUnbound) {
		t.Fatalf("prompt to a node that forgot the session: %v", err)
	}
	if _, err := prompt("and again"); err != nil {
		t.Fatal(err)
	}
	ev = node.Events()
	last := ev[len(ev)-1]
	if ev[len(ev)-2].Kind != "session.start" || last.Kind != "step.before" || last.Payload["step"] != 0.0 || last.Payload["session_handle"] == ev[1].Payload["session_handle"] {
		t.Errorf("after the node forgot: %v, last %v", node.Kinds(), last.Payload)
	}
}

// TestMemoryMCPTools calls each tool through the SDK's client over its
// in-memory transport, against the fake node.
func TestMemoryMCPTools(t *testing.T) {
	node := adaptertest.New(t, "tok-mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wd := t.TempDir()
	os.WriteFile(filepath.Join(wd, "package.json"), []byte("{}"), 0o644)
	tools := &adapter.MCPTools{
		Client:        &adapter.Client{URL: node.URL, AdapterID: "claude-code", Token: "tok-mcp", HTTP: http.DefaultClient},
		WorkspaceRoot: wd,
		Version:       "test",
	}
	cs := adaptertest.ConnectMCP(t, ctx, tools)

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "memory_note,memory_read,memory_search" {
		t.Errorf("tools: %v", names)
	}
	call := func(name string, args map[string]any) (*mcp.CallToolResult, string) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		return res, strings.Join(text, "\n")
	}

	res, text := call("memory_note", map[string]any{
		"title": "left-pad missing from package.json", "type": "bugfix", "what": "npm test failed",
		"why": "dependency not declared", "where": "package.json", "learned": "npm install --save left-pad",
		"fix_command": "npm install --save left-pad",
	})
	if res.IsError || !strings.Contains(text, "lr_1") {
		t.Fatalf("memory_note: %s", text)
	}
	res, text = call("memory_search", map[string]any{"query": "left-pad", "limit": 3})
	var sr memory.QuerySearchResult
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &sr)
	if res.IsError || len(sr.Hits) != 1 || sr.Hits[0].RecordRef != "lr_1" || !strings.Contains(text, "left-pad missing") {
		t.Errorf("memory_search: %s %+v", text, sr)
	}
	if res, text = call("memory_read", map[string]any{"ref": "lr_1"}); res.IsError || !strings.Contains(text, "npm install --save left-pad") {
		t.Errorf("memory_read: %s", text)
	}
	if res, text = call("memory_read", map[string]any{"ref": "lr_404"}); !res.IsError || !strings.Contains(text, "not_found") {
		t.Errorf("memory_read of a missing record: error %t, %s", res.IsError, text)
	}
	if res, text = call("memory_note", map[string]any{"title": "x", "type": "gossip", "what": "a", "why": "b", "where": "c", "learned": "d"}); !res.IsError {
		t.Errorf("memory_note with a bad type was sent: %s", text)
	}
	if err := tools.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// One session for the whole server, bound once, ended on Close.
	ev := node.Events()
	want := "session.start note query query query session.end"
	if got := strings.Join(node.Kinds(), " "); got != want {
		t.Fatalf("kinds: %s, want %s", got, want)
	}
	start := ev[0].Payload
	if start["project"] != filepath.Base(wd) || !strings.Contains(string(ev[0].Body), `"note_tool"`) || !strings.Contains(string(ev[0].Body), `"javascript"`) {
		t.Errorf("session.start: %s", ev[0].Body)
	}
	for _, e := range ev[1:] {
		if e.Envelope["session_ref"] != ev[0].Envelope["session_ref"] || e.Payload["session_handle"] != "sh_1" {
			t.Errorf("%s outside the server's session: %s", e.Kind, e.Body)
		}
	}
	if ev[1].Payload["fix"].(map[string]any)["command"] != "npm install --save left-pad" {
		t.Errorf("note fix: %v", ev[1].Payload)
	}
}

// TestMemoryConfig reads an adapter's config file and lets the environment
// override it.
func TestMemoryConfig(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if _, err := adapter.LoadConfig(home, "claude-code", getenv); err == nil {
		t.Error("no file, no env: want an error")
	}
	os.MkdirAll(filepath.Join(home, "memory"), 0o700)
	os.WriteFile(adapter.ConfigPath(home, "codex"), []byte(`{"adapter_id":"codex","url":"http://127.0.0.1:9","token":"t1"}`), 0o600)
	c, err := adapter.LoadConfig(home, "codex", getenv)
	if err != nil || c.URL != "http://127.0.0.1:9" || c.Token != "t1" {
		t.Errorf("from the file: %+v %v", c, err)
	}
	env["AGORA_MEMORY_TOKEN"] = "t2"
	if c, _ := adapter.LoadConfig(home, "codex", getenv); c.Token != "t2" || c.URL != "http://127.0.0.1:9" {
		t.Errorf("env override: %+v", c)
	}
	if _, err := adapter.LoadConfig(home, "Bad ID", getenv); err == nil {
		t.Error("bad adapter id accepted")
	}
}

// TestMemoryMCPJoinsHookSession checks that the MCP tools act in the
// session the hooks bound in the same workspace, so that the node links a
// note to the failure that session met; and that they fall back to a
// session of their own when the hooks' session ended or the node forgot it.
func TestMemoryMCPJoinsHookSession(t *testing.T) {
	node := adaptertest.New(t, "tok")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &adapter.Client{URL: node.URL, AdapterID: "claude-code", Token: "tok", HTTP: http.DefaultClient}
	states := &adapter.Store{Dir: t.TempDir()}
	r := &adapter.Runner{Client: client, Store: states}
	hook := func(session, cwd, event string) {
		t.Helper()
		in, err := adapter.ParseClaudeCode([]byte(`{"session_id":"` + session + `","cwd":"` + cwd + `","hook_event_name":"` + event + `","prompt":"go","reason":"exit"}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Run(ctx, in); err != nil {
			t.Fatalf("%s %s: %v", session, event, err)
		}
	}
	hook("other", "/w/elsewhere", "UserPromptSubmit")
	hook("mine", "/w/project", "UserPromptSubmit")
	hook("other", "/w/elsewhere", "UserPromptSubmit") // updated last, but another workspace
	handles := map[string]string{}
	for _, e := range node.Events() {
		if e.Kind == "step.before" {
			handles[e.Envelope["session_ref"].(string)] = e.Payload["session_handle"].(string)
		}
	}

	tools := &adapter.MCPTools{Client: client, WorkspaceRoot: "/w/project/", Hooks: states}
	cs := adaptertest.ConnectMCP(t, ctx, tools)
	search := func() adaptertest.Event {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": "left-pad"}})
		if err != nil || res.IsError {
			t.Fatalf("memory_search: %v %+v %v", err, res, res.Content[0])
		}
		ev := node.Events()
		return ev[len(ev)-1]
	}

	if e := search(); e.Envelope["session_ref"] != "mine" || e.Payload["session_handle"] != handles["mine"] {
		t.Errorf("search in the hooks' session: ref %v handle %v, want mine %s", e.Envelope["session_ref"], e.Payload["session_handle"], handles["mine"])
	}
	// The hooks' session ends: the server binds its own.
	hook("mine", "/w/project", "SessionEnd")
	n := len(node.Events())
	e := search()
	if ev := node.Events(); len(ev) != n+2 || ev[n].Kind != "session.start" || !strings.HasPrefix(e.Envelope["session_ref"].(string), "mcp-") {
		t.Errorf("after the hooks' session ended: %v", node.Kinds()[n:])
	}
	// The node forgets both sessions: the hooks' is tried and left, then
	// the server's own, and a new one of its own is bound.
	hook("mine", "/w/project", "UserPromptSubmit") // the agent resumes: a new generation
	node.ForgetSessions()
	n = len(node.Events())
	e = search()
	if kinds := node.Kinds()[n:]; strings.Join(kinds, " ") != "query query session.start query" || !strings.HasPrefix(e.Envelope["session_ref"].(string), "mcp-") {
		t.Errorf("after the node forgot the hooks' session: %v", kinds)
	}
	// Close ends the server's own session only.
	if err := tools.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if ev := node.Events(); ev[len(ev)-1].Kind != "session.end" || ev[len(ev)-1].Payload["session_handle"] != e.Payload["session_handle"] {
		t.Errorf("Close: %v", node.Kinds())
	}
}

// TestMemoryWriteConfig writes a config as `agora memory adapter add` does
// and reads it back as the hooks do.
func TestMemoryWriteConfig(t *testing.T) {
	home := t.TempDir()
	want := adapter.Config{AdapterID: "codex", URL: "http://127.0.0.1:9", Token: "agm_x"}
	for range 2 { // the second replaces the first
		path, err := adapter.WriteConfig(home, want)
		if err != nil || path != adapter.ConfigPath(home, "codex") {
			t.Fatalf("WriteConfig: %s, %v", path, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", path, fi.Mode().Perm(), err)
		}
		if got, err := adapter.LoadConfig(home, "codex", func(string) string { return "" }); err != nil || got != want {
			t.Errorf("read back: %+v, %v; want %+v", got, err, want)
		}
	}
	if _, err := adapter.WriteConfig(home, adapter.Config{AdapterID: "Bad ID"}); err == nil {
		t.Error("wrote a config for a bad adapter id")
	}
	if files, _ := filepath.Glob(filepath.Join(home, "memory", ".*")); len(files) != 0 {
		t.Errorf("temporary files left: %v", files)
	}
}
