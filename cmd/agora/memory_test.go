package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/adapter"
	"github.com/agora-node/agora/memory/adapter/adaptertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memoryEnv points the memory commands at home and clears what a developer's
// own shell might set.
func memoryEnv(t *testing.T, home string) {
	t.Helper()
	t.Setenv("AGORA_HOME", home)
	for _, k := range []string{"AGORA_URL", "AGORA_MEMORY_TOKEN", "AGORA_MEMORY_ADAPTER", "AGORA_MEMORY_PROJECT", "CODEX_HOME", "CLAUDE_CONFIG_DIR"} {
		t.Setenv(k, "")
	}
}

// memoryHook runs `agora memory hook <agent>` on a recorded hook input,
// examples/hooks/<fixture>, as the agent would, and returns what it printed.
func memoryHook(t *testing.T, agent, fixture string) string {
	t.Helper()
	in, err := os.ReadFile(filepath.Join("..", "..", "examples", "hooks", fixture))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: bytes.NewReader(in), stdout: &stdout, stderr: &stderr}
	if code := run(context.Background(), []string{"memory", "hook", agent}, e); code != 0 {
		t.Fatalf("memory hook %s < %s: exit %d\n%s", agent, fixture, code, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("memory hook %s < %s wrote to stderr: %s", agent, fixture, stderr.String())
	}
	return stdout.String()
}

func memoryContext(t *testing.T, out string) (event, context string) {
	t.Helper()
	var o struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("hook printed something that is not the hook output JSON: %v\n%q", err, out)
	}
	return o.HookSpecificOutput.HookEventName, o.HookSpecificOutput.AdditionalContext
}

// TestMemoryHookClaudeCode drives two recorded Claude Code sessions through
// `agora memory hook claude-code` against a fake node on loopback: in the
// first, `npm test` fails with "Cannot find module 'left-pad'" and the agent
// notes the fix through the MCP tool; the second, in another project, hits
// the same failure and gets the note back as additionalContext.
func TestMemoryHookClaudeCode(t *testing.T) {
	node := adaptertest.New(t, "tok-claude")
	home := t.TempDir()
	memoryEnv(t, home)
	os.MkdirAll(filepath.Join(home, "memory"), 0o700)
	cfg := `{"adapter_id": "claude-code", "url": "` + node.URL + `", "token": "tok-claude"}`
	if err := os.WriteFile(adapter.ConfigPath(home, "claude-code"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	last := func() adaptertest.Event {
		ev := node.Events()
		if len(ev) == 0 {
			t.Fatal("the node received nothing")
		}
		return ev[len(ev)-1]
	}
	const sessionA = "6f1c2a9e-0b7d-4c55-9d0e-3a2b1c4d5e6f"

	// Session A: bind, then the first prompt, redacted.
	if out := memoryHook(t, "claude-code", "claude-a-01-session-start.json"); out != "" {
		t.Errorf("SessionStart printed %q, want nothing (session.start has no inject)", out)
	}
	start := last()
	if start.Kind != "session.start" || start.Payload["project"] != "shop-api" || start.Payload["workspace_root"] != "/home/dev/shop-api" || start.Envelope["session_ref"] != sessionA {
		t.Fatalf("first event: %s %v", start.Kind, start.Envelope)
	}
	if out := memoryHook(t, "claude-code", "claude-a-02-user-prompt.json"); out != "" {
		t.Errorf("UserPromptSubmit printed %q with no inject from the node", out)
	}
	step := last()
	handleA, _ := step.Payload["session_handle"].(string)
	if step.Kind != "step.before" || step.Payload["step"] != 0.0 || handleA == "" {
		t.Fatalf("prompt event: %s %v", step.Kind, step.Payload)
	}
	if q, _ := step.Payload["query_text"].(string); strings.Contains(q, "ghp_") || !strings.Contains(q, "Run the test suite") {
		t.Errorf("query_text not redacted as it should be: %q", q)
	}

	// The failing npm test: a tool.result with what a replay needs.
	if out := memoryHook(t, "claude-code", "claude-a-03-npm-test-failed.json"); out != "" {
		t.Errorf("first failure printed %q, but the node knew nothing yet", out)
	}
	failA := last()
	p := failA.Payload
	tail, _ := p["error_tail"].(string)
	sigA, _ := p["error_signature"].(string)
	if failA.Kind != "tool.result" || p["ok"] != false || p["tool_name"] != "Bash" || p["command"] != "npm test" || p["exit_code"] != 1.0 ||
		p["call_ref"] != "toolu_01HkVq3mZb2x8WcYp5sR7nTf" || p["session_handle"] != handleA || !strings.Contains(tail, "Cannot find module 'left-pad'") || sigA == "" {
		t.Fatalf("failure event: %v", p)
	}
	// The agent runs the same hook again (a retry): same event, same body,
	// and the node answers it as the first.
	n := len(node.Events())
	memoryHook(t, "claude-code", "claude-a-03-npm-test-failed.json")
	retry := last()
	if len(node.Events()) != n+1 || retry.Envelope["event_id"] != failA.Envelope["event_id"] || !bytes.Equal(retry.Body, failA.Body) || retry.Status != http.StatusOK {
		t.Errorf("retried hook: event %v status %d, want the same event_id %v and body", retry.Envelope["event_id"], retry.Status, failA.Envelope["event_id"])
	}

	// A success before memory was shown carries no command; an edit carries
	// the path written, relative to the project.
	memoryHook(t, "claude-code", "claude-a-04-npm-install.json")
	if p := last().Payload; p["ok"] != true || p["exit_code"] != 0.0 || p["command"] != nil || p["error_tail"] != nil {
		t.Errorf("successful npm install: %v", p)
	}
	memoryHook(t, "claude-code", "claude-a-05-edit-package-json.json")
	if p := last().Payload; p["tool_name"] != "Edit" || p["path"] != "package.json" || p["ok"] != true {
		t.Errorf("edit: %v", p)
	}

	// The agent notes the fix with the MCP tool, in its own session.
	memoryCallTool(t, node, "tok-claude", "memory_note", map[string]any{
		"title": "npm test fails: Cannot find module 'left-pad'", "type": "bugfix",
		"what": "npm test failed: src/format.js requires left-pad, which package.json did not list",
		"why":  "left-pad was installed globally on one machine only", "where": "src/format.js, package.json",
		"learned": "run npm install --save left-pad", "fix_command": "npm install --save left-pad",
	})

	memoryHook(t, "claude-code", "claude-a-06-pre-compact.json")
	if e := last(); e.Kind != "context.compaction" || !strings.Contains(e.Payload["summary_text"].(string), "left-pad") {
		t.Errorf("PreCompact: %s %v", e.Kind, e.Payload)
	}
	memoryHook(t, "claude-code", "claude-a-07-subagent-stop.json")
	if e := last(); e.Kind != "subagent.end" || e.Payload["child_ref"] != "a3f9c1d2" || e.Payload["agent_type"] != "Explore" {
		t.Errorf("SubagentStop: %s %v", e.Kind, e.Payload)
	}
	memoryHook(t, "claude-code", "claude-a-08-session-end.json")
	if e := last(); e.Kind != "session.end" || e.Payload["reason"] != "prompt_input_exit" || e.Payload["session_handle"] != handleA {
		t.Errorf("SessionEnd: %s %v", e.Kind, e.Payload)
	}
	n = len(node.Events())
	memoryHook(t, "claude-code", "claude-a-08-session-end.json")
	if len(node.Events()) != n {
		t.Errorf("a second SessionEnd sent %s; an ended session is not ended again", last().Kind)
	}

	// Session B, another project, the same failure: the node pushes the note.
	memoryHook(t, "claude-code", "claude-b-01-session-start.json")
	if e := last(); e.Kind != "session.start" || e.Payload["project"] != "billing-svc" {
		t.Fatalf("session B start: %s %v", e.Kind, e.Payload)
	}
	memoryHook(t, "claude-code", "claude-b-02-user-prompt.json")
	handleB, _ := last().Payload["session_handle"].(string)
	if handleB == "" || handleB == handleA {
		t.Errorf("session B handle %q, session A %q: want a new one", handleB, handleA)
	}
	out := memoryHook(t, "claude-code", "claude-b-03-npm-test-failed.json")
	if sig := last().Payload["error_signature"]; sig != sigA {
		t.Errorf("the same failure in another checkout has signature %v, want %v", sig, sigA)
	}
	ev, ctx := memoryContext(t, out)
	if ev != "PostToolUseFailure" || !strings.Contains(ctx, "npm install --save left-pad") || !strings.Contains(ctx, "lr_1") {
		t.Errorf("additionalContext for the repeated failure: %s %q", ev, ctx)
	}
	// Memory was shown, so the fix being run is reported with its command.
	memoryHook(t, "claude-code", "claude-b-04-npm-install.json")
	if p := last().Payload; p["command"] != "npm install --save left-pad" {
		t.Errorf("success after memory was shown: command %v, want it sent", p["command"])
	}

	// Every event of a hook session carries its handle and session_ref; no
	// two distinct events share an event_id.
	ids := map[string]string{}
	for _, e := range node.Events() {
		id := e.Envelope["event_id"].(string)
		if prev, ok := ids[id]; ok && prev != string(e.Body) {
			t.Errorf("event_id %s reused for another body", id)
		}
		ids[id] = string(e.Body)
		if e.Auth != "Bearer tok-claude" {
			t.Errorf("event %s sent with Authorization %q", e.Kind, e.Auth)
		}
	}
	want := []string{"session.start", "step.before", "tool.result", "tool.result", "tool.result", "tool.result",
		"session.start", "note", "context.compaction", "subagent.end", "session.end",
		"session.start", "step.before", "tool.result", "tool.result"}
	if got := node.Kinds(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("kinds sent:\n got %v\nwant %v", got, want)
	}
	// The state files are the user's alone.
	files, _ := filepath.Glob(filepath.Join(home, "memory", "sessions", "claude-code", "*.json"))
	if len(files) != 2 {
		t.Errorf("state files: %v, want one per session", files)
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", f, fi.Mode().Perm())
		}
	}
	if log, _ := os.ReadFile(filepath.Join(home, "memory", "hook.log")); !bytes.Contains(log, []byte("inject=true")) {
		t.Errorf("hook.log does not record the push:\n%s", log)
	}
}

// memoryCallTool calls one tool of the MCP server `agora memory mcp` serves,
// over the SDK's in-memory transport, against node.
func memoryCallTool(t *testing.T, node *adaptertest.Node, token, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx := context.Background()
	tools := &adapter.MCPTools{Client: &adapter.Client{URL: node.URL, AdapterID: "claude-code", Token: token, HTTP: http.DefaultClient}, WorkspaceRoot: "/home/dev/shop-api"}
	cs := adaptertest.ConnectMCP(t, ctx, tools)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %+v", tool, err, res)
	}
	return res
}

// TestMemoryHookCodex drives recorded Codex CLI hooks: its tool_response is
// the text the model saw, with the exit code in it, and apply_patch names the
// file in the patch.
func TestMemoryHookCodex(t *testing.T) {
	node := adaptertest.New(t, "tok-codex")
	memoryEnv(t, t.TempDir())
	t.Setenv("AGORA_URL", node.URL)
	t.Setenv("AGORA_MEMORY_TOKEN", "tok-codex")

	memoryHook(t, "codex", "codex-01-session-start.json")
	memoryHook(t, "codex", "codex-02-user-prompt.json")
	memoryHook(t, "codex", "codex-03-npm-test.json")
	memoryHook(t, "codex", "codex-04-apply-patch.json")
	memoryHook(t, "codex", "codex-05-stop.json") // a turn's end, not the session's
	ev := node.Events()
	if got := node.Kinds(); strings.Join(got, " ") != "session.start step.before tool.result tool.result" {
		t.Fatalf("kinds: %v", got)
	}
	if ev[0].AdapterID != "codex" || ev[1].Payload["query_text"] != "make npm test pass" {
		t.Errorf("start/prompt: %s %v", ev[0].AdapterID, ev[1].Payload)
	}
	if p := ev[2].Payload; p["ok"] != false || p["exit_code"] != 1.0 || p["command"] != "npm test" || p["error_signature"] == nil {
		t.Errorf("failing npm test: %v", p)
	}
	if p := ev[3].Payload; p["ok"] != true || p["tool_name"] != "apply_patch" || p["path"] != "package.json" || p["command"] != nil {
		t.Errorf("apply_patch: %v", p)
	}
}

// TestMemoryHookNodeDown checks that a hook whose node cannot be reached, or
// never answers, still exits 0 within its budget, prints nothing and says
// why in hook.log.
func TestMemoryHookNodeDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	hang := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(hang)

	for _, tc := range []struct{ name, url string }{{"refused", refused}, {"silent", silent.URL}} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			memoryEnv(t, home)
			t.Setenv("AGORA_URL", tc.url)
			t.Setenv("AGORA_MEMORY_TOKEN", "tok")
			for _, f := range []string{"claude-a-02-user-prompt.json", "claude-a-03-npm-test-failed.json"} {
				begin := time.Now()
				if out := memoryHook(t, "claude-code", f); out != "" {
					t.Errorf("%s printed %q with no node", f, out)
				}
				if took := time.Since(begin); took > 2*time.Second {
					t.Errorf("%s took %s with the node %s; the budget is 2 s", f, took, tc.name)
				}
			}
			log, _ := os.ReadFile(filepath.Join(home, "memory", "hook.log"))
			if bytes.Count(log, []byte("failed after")) != 2 || !bytes.Contains(log, []byte("PostToolUseFailure")) {
				t.Errorf("hook.log:\n%s", log)
			}
		})
	}

	// Not configured at all: still exit 0, and the log says what to do.
	home := t.TempDir()
	memoryEnv(t, home)
	memoryHook(t, "claude-code", "claude-a-01-session-start.json")
	if log, _ := os.ReadFile(filepath.Join(home, "memory", "hook.log")); !bytes.Contains(log, []byte("AGORA_MEMORY_TOKEN")) {
		t.Errorf("hook.log without config:\n%s", log)
	}
}

// TestMemoryInstall writes the hooks into a project's Claude Code settings
// that already hold other settings and hooks, twice, then removes them; and
// into a fresh Codex hooks.json.
func TestMemoryInstall(t *testing.T) {
	memoryEnv(t, t.TempDir())
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	orig := `{
  "permissions": {"allow": ["Bash(npm test)"]},
  "model": "sonnet",
  "hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}]}]}
}
`
	if err := os.WriteFile(settings, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	install := func(args ...string) string {
		t.Helper()
		out, errOut := agora(t, 0, append([]string{"memory"}, args...)...)
		if errOut != "" {
			t.Errorf("memory %v: stderr %s", args, errOut)
		}
		return out
	}
	out := install("install", "claude-code", "--project", dir, "--agora", "/opt/agora bin/agora")
	if !strings.Contains(out, "agora memory uninstall claude-code --project") || !strings.Contains(out, ".bak-") {
		t.Errorf("install output does not say how to undo:\n%s", out)
	}
	var got struct {
		Permissions map[string]any `json:"permissions"`
		Model       string         `json:"model"`
		Hooks       map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	read := func() []byte {
		data, err := os.ReadFile(settings)
		if err != nil {
			t.Fatal(err)
		}
		got.Hooks = nil
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("settings.json after install: %v\n%s", err, data)
		}
		return data
	}
	first := read()
	const cmd = "'/opt/agora bin/agora' memory hook claude-code"
	if got.Model != "sonnet" || got.Permissions == nil {
		t.Errorf("other settings lost: %s", first)
	}
	for _, h := range adapter.ClaudeCodeHooks {
		groups := got.Hooks[h.Event]
		if len(groups) == 0 || groups[len(groups)-1].Hooks[0].Command != cmd || groups[len(groups)-1].Matcher != h.Matcher {
			t.Errorf("%s: %+v", h.Event, groups)
		}
	}
	if g := got.Hooks["PostToolUse"]; len(g) != 2 || g[0].Hooks[0].Command != "npx prettier --write" || g[0].Hooks[0].Timeout != 30 {
		t.Errorf("the user's own PostToolUse hook was not kept: %+v", g)
	}
	backups, _ := filepath.Glob(settings + ".bak-*")
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != orig {
		t.Errorf("backup holds %q, want the old file", b)
	}

	// Again: nothing changes, no second backup.
	if out := install("install", "claude-code", "--project", dir, "--agora", "/opt/agora bin/agora"); !strings.Contains(out, "nothing changed") {
		t.Errorf("second install: %s", out)
	}
	if again := read(); !bytes.Equal(again, first) {
		t.Errorf("second install changed the file:\n%s", again)
	}
	if b, _ := filepath.Glob(settings + ".bak-*"); len(b) != 1 {
		t.Errorf("second install made a backup: %v", b)
	}

	// Uninstall leaves what the user had.
	install("uninstall", "claude-code", "--project", dir)
	read()
	if len(got.Hooks) != 1 || len(got.Hooks["PostToolUse"]) != 1 || got.Model != "sonnet" {
		t.Errorf("after uninstall: %+v", got)
	}

	// Codex, in CODEX_HOME, from nothing.
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	out = install("install", "codex", "--agora", "/usr/local/bin/agora")
	data, err := os.ReadFile(filepath.Join(codexHome, "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks map[string]map[string][]map[string]any
	if err := json.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	for _, h := range adapter.CodexHooks {
		if len(hooks["hooks"][h.Event]) != 1 {
			t.Errorf("codex %s: %v", h.Event, hooks["hooks"][h.Event])
		}
	}
	if !strings.Contains(string(data), "/usr/local/bin/agora memory hook codex") || strings.Contains(out, ".bak-") {
		t.Errorf("codex hooks.json:\n%s\noutput:\n%s", data, out)
	}
}

// TestInGoBuildCache checks which binaries memory install refuses to wire
// hooks to: those 'go run' builds, in a go-build folder under the
// temporary directory or in GOCACHE, and no other.
func TestInGoBuildCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "gocache")
	t.Setenv("GOCACHE", cache)
	for bin, want := range map[string]bool{
		filepath.Join(os.TempDir(), "go-build653941925", "b001", "exe", "agora"): true,
		filepath.Join(cache, "ab", "agora"):                                      true,
		filepath.Join(os.TempDir(), "tools", "agora"):                            false,
		"/usr/local/bin/agora":                                                   false,
		filepath.Join(filepath.Dir(cache), "gocache-other", "agora"):             false,
	} {
		if got := inGoBuildCache(bin); got != want {
			t.Errorf("inGoBuildCache(%s) = %v, want %v", bin, got, want)
		}
	}
}
