package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMemoryEndToEnd is issue 6's story against a real node on loopback,
// driven only through the CLI, as a user and Claude Code would drive it:
//
//   - the admin issues the claude-code adapter's token (agora memory
//     adapter add), which writes the config the hooks read;
//   - session A, in /home/dev/shop-api: `npm test` fails with "Cannot find
//     module 'left-pad'"; the agent notes the fix through `agora memory
//     mcp`'s memory_note, which lands in the hooks' session, so the node
//     links the note to that failure; the session ends;
//   - session B, in /home/dev/billing-svc: the same failure, and the hook
//     prints the note's fix as additionalContext; the node pushed it for
//     the error signature; running the fix records applied, and the
//     passing re-run of `npm test` marks the record used_then_passed;
//   - the admin searches, lists, shows and finally forgets the record.
func TestMemoryEndToEnd(t *testing.T) {
	url, dataDir := startNode(t)
	home := t.TempDir()
	memoryEnv(t, home)
	admin := []string{"--url", url, "--data", dataDir}

	// The adapter's token, written where the hooks read it; again, rotated.
	out, _ := agora(t, 0, append([]string{"memory", "adapter", "add", "claude-code"}, admin...)...)
	path := adapter.ConfigPath(home, "claude-code")
	if !strings.Contains(out, path) || !strings.Contains(out, "Next: agora memory install claude-code") {
		t.Errorf("adapter add says:\n%s", out)
	}
	first, err := adapter.LoadConfig(home, "claude-code", func(string) string { return "" })
	if err != nil || first.URL != url || !strings.HasPrefix(first.Token, "agm_") {
		t.Fatalf("the config adapter add wrote: %+v, %v", first, err)
	}
	if strings.Contains(out, first.Token) {
		t.Errorf("adapter add printed the whole token:\n%s", out)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: %v, %v; want mode 0600", path, fi.Mode().Perm(), err)
	}
	out, _ = agora(t, 0, append([]string{"memory", "adapter", "add", "claude-code"}, admin...)...)
	cfg, _ := adapter.LoadConfig(home, "claude-code", func(string) string { return "" })
	if cfg.Token == first.Token || !strings.Contains(out, "the old one no longer works") {
		t.Errorf("adapter add again did not rotate the token:\n%s", out)
	}
	old := &adapter.Client{URL: url, AdapterID: "claude-code", Token: first.Token, HTTP: http.DefaultClient}
	_, err = old.Send(context.Background(), &memory.Event{AdapterID: "claude-code", EventID: adapter.EventID("old"), SessionRef: "s",
		Kind: "session.start", Payload: &memory.SessionStartPayload{Project: "p", Capabilities: []string{}}})
	if !adapter.IsCode(err, memory.CodeUnauthorized) {
		t.Errorf("the rotated-out token still works: %v", err)
	}
	_, errOut := agora(t, 2, append([]string{"memory", "adapter", "add", "Claude Code"}, admin...)...)
	if !strings.Contains(errOut, "hint: an adapter id is") {
		t.Errorf("adapter add with a bad id says:\n%s", errOut)
	}

	// Session A: the failure, met for the first time.
	for _, f := range []string{"claude-a-01-session-start.json", "claude-a-02-user-prompt.json", "claude-a-03-npm-test-failed.json"} {
		if out := memoryHook(t, "claude-code", f); out != "" {
			t.Errorf("%s printed %q while the node knew nothing", f, out)
		}
	}
	memoryHook(t, "claude-code", "claude-a-04-npm-install.json")
	memoryHook(t, "claude-code", "claude-a-05-edit-package-json.json")

	// The agent notes the fix through the MCP server Claude Code runs in
	// the project, for every project (a project note is no candidate in
	// another one).
	note := memoryMCPNote(t, "/home/dev/shop-api", map[string]any{
		"title": "npm test fails: Cannot find module 'left-pad'", "type": "bugfix", "scope": "global",
		"what": "npm test failed: src/format.js requires left-pad, which package.json did not list",
		"why":  "left-pad was installed globally on one machine only", "where": "src/format.js, package.json",
		"learned": "install left-pad as a dependency of the project", "fix_command": "npm install --save left-pad",
	})
	if note.RecordRef == nil || !memory.IsLocalRef(*note.RecordRef) || note.Revision != 1 {
		t.Fatalf("memory_note: %+v", note)
	}
	ref := *note.RecordRef

	memoryHook(t, "claude-code", "claude-a-06-pre-compact.json")
	memoryHook(t, "claude-code", "claude-a-07-subagent-stop.json")
	memoryHook(t, "claude-code", "claude-a-08-session-end.json")

	// Session B, another project: the same failure brings the fix back.
	memoryHook(t, "claude-code", "claude-b-01-session-start.json")
	if out := memoryHook(t, "claude-code", "claude-b-02-user-prompt.json"); out != "" {
		t.Errorf("the first prompt of B pushed %q before anything failed", out)
	}
	event, context := memoryContext(t, memoryHook(t, "claude-code", "claude-b-03-npm-test-failed.json"))
	if event != "PostToolUseFailure" || !strings.Contains(context, "npm install --save left-pad") || !strings.Contains(context, ref) {
		t.Fatalf("additionalContext for the failure in B: %s %q", event, context)
	}
	view := memoryRecordRoute(t, url, dataDir, ref)
	if len(view.Receipts) != 1 || view.Receipts[0].Kind != "pushed" {
		t.Fatalf("receipts after the push: %+v", view.Receipts)
	}
	pushed := view.Receipts[0]
	var reasons []string
	for _, r := range pushed.Payload.Reasons {
		reasons = append(reasons, r.Signal)
	}
	if pushed.Payload.Trigger != "after_failure" || !slices.Contains(reasons, "error_signature") {
		t.Errorf("the push's receipt: trigger %q, reasons %v; want after_failure naming error_signature", pushed.Payload.Trigger, reasons)
	}
	sessionB := pushed.Session

	// The fix, run: applied. The step again, passing: used_then_passed.
	if out := memoryHook(t, "claude-code", "claude-b-04-npm-install.json"); out != "" {
		t.Errorf("running the fix printed %q", out)
	}
	memoryHook(t, "claude-code", "claude-b-05-npm-test-passed.json")
	memoryHook(t, "claude-code", "claude-b-06-session-end.json")
	view = memoryRecordRoute(t, url, dataDir, ref)
	var kinds []string
	for _, r := range view.Receipts {
		if r.Session != sessionB {
			t.Errorf("receipt %s of session %s, want all of B (%s)", r.Kind, r.Session, sessionB)
		}
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, " ") != "pushed applied used_success" || view.Receipts[1].Payload.AppliedVia != memory.AppliedViaCommand {
		t.Errorf("receipts of the record: %v (applied via %q), want pushed applied used_success", kinds, view.Receipts[1].Payload.AppliedVia)
	}

	// What a person sees of it.
	show, _ := agora(t, 0, append([]string{"memory", "show", ref}, admin...)...)
	for _, want := range []string{
		ref + "  npm test fails: Cannot find module 'left-pad'",
		"type bugfix · scope global · topic bugfix/", "revision 1 · trust local_auto",
		"project shop-api", "Fix (command): npm install --save left-pad",
		"Marks: used_then_passed ×1", "Receipts: 3 from 1 session(s): applied ×1, pushed ×1, used_success ×1",
	} {
		if !strings.Contains(show, want) {
			t.Errorf("memory show lacks %q:\n%s", want, show)
		}
	}
	search, _ := agora(t, 0, append([]string{"memory", "search", "Cannot", "find", "module", "left-pad"}, admin...)...)
	if !regexp.MustCompile(`(?m)^1\. npm test fails: Cannot find module 'left-pad'  \[`+ref+`\]$`).MatchString(search) ||
		!regexp.MustCompile(`score \d+\.\d\d · trust local_auto`).MatchString(search) || !strings.Contains(search, "why: ") ||
		!strings.Contains(search, "marks: used_then_passed") {
		t.Errorf("memory search:\n%s", search)
	}
	if s, _ := agora(t, 0, append([]string{"memory", "search", "left-pad", "--project", "billing-svc"}, admin...)...); !strings.Contains(s, "No memory records match") {
		t.Errorf("search among the records of a project that wrote none:\n%s", s)
	}
	notes, _ := agora(t, 0, append([]string{"memory", "notes", "--project", "shop-api", "--limit", "5"}, admin...)...)
	if lines := strings.Split(strings.TrimSpace(notes), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], ref) ||
		!strings.Contains(lines[1], "[used_then_passed]") || !strings.Contains(lines[1], "local_auto") {
		t.Errorf("memory notes:\n%s", notes)
	}

	// Share, then unshare: said, and seen in the provenance.
	shared, _ := agora(t, 0, append([]string{"memory", "share", ref}, admin...)...)
	if !strings.Contains(shared, "Shared "+ref) || !strings.Contains(shared, "written by adapter claude-code · revision 1 · shared by the node's admin") {
		t.Errorf("memory share:\n%s", shared)
	}
	if show, _ := agora(t, 0, append([]string{"memory", "show", ref}, admin...)...); !strings.Contains(show, "shared by the node's admin") {
		t.Errorf("memory show after share:\n%s", show)
	}
	unshared, _ := agora(t, 0, append([]string{"memory", "unshare", ref}, admin...)...)
	if !strings.Contains(unshared, "Unshared "+ref) || strings.Contains(unshared, "shared by the node's admin") {
		t.Errorf("memory unshare:\n%s", unshared)
	}

	// Correct: the admin's words, the next revision, read back.
	corrected, _ := agora(t, 0, append([]string{"memory", "correct", ref, "--learned", "add left-pad to the dependencies, then npm ci; zebrafish"}, admin...)...)
	if !strings.Contains(corrected, "Corrected "+ref) || !strings.Contains(corrected, "revision 2") {
		t.Errorf("memory correct:\n%s", corrected)
	}
	if show, _ := agora(t, 0, append([]string{"memory", "show", ref}, admin...)...); !strings.Contains(show, "zebrafish") || !strings.Contains(show, "left-pad was installed globally") {
		t.Errorf("memory show after correct:\n%s", show)
	}

	// Forget: said, and done.
	forgot, _ := agora(t, 0, append([]string{"memory", "forget", ref}, admin...)...)
	if !strings.Contains(forgot, "Forgot "+ref+` "npm test fails: Cannot find module 'left-pad'"`) || !strings.Contains(forgot, "its 3 receipt(s)") {
		t.Errorf("memory forget:\n%s", forgot)
	}
	_, errOut = agora(t, 1, append([]string{"memory", "show", ref}, admin...)...)
	if !strings.Contains(errOut, "not_found") || !strings.Contains(errOut, "hint: list the records with 'agora memory notes'") {
		t.Errorf("show after forget:\n%s", errOut)
	}
	if s, _ := agora(t, 0, append([]string{"memory", "search", "Cannot", "find", "module", "left-pad"}, admin...)...); !strings.Contains(s, "No memory records match") {
		t.Errorf("search after forget:\n%s", s)
	}
	if s, _ := agora(t, 0, append([]string{"memory", "notes"}, admin...)...); !strings.Contains(s, "No memory records yet") {
		t.Errorf("notes after forget:\n%s", s)
	}
}

// TestMemoryAdminCommandErrors checks what the record commands say when
// they are given the wrong thing.
func TestMemoryAdminCommandErrors(t *testing.T) {
	url, dataDir := startNode(t)
	memoryEnv(t, t.TempDir())
	admin := []string{"--url", url, "--data", dataDir}
	cases := []struct {
		code       int
		args       []string
		stderrHint string
	}{
		{2, []string{"memory", "show"}, "usage: agora memory show <lr_ref>"},
		{2, []string{"memory", "show", "not a ref"}, "record refs look like lr_"},
		{2, []string{"memory", "search"}, "agora memory search cannot find module left-pad"},
		{2, []string{"memory", "notes", "left-pad"}, "usage: agora memory notes"},
		{2, []string{"memory", "notes", "--limit", "0"}, "--limit 20"},
		{1, append([]string{"memory", "forget", "lr_nosuchrecord"}, admin...), "list the records with 'agora memory notes'"},
		{1, append([]string{"memory", "share", "lr_nosuchrecord"}, admin...), "list the records with 'agora memory notes'"},
		{1, append([]string{"memory", "correct", "lr_nosuchrecord", "--learned", "x"}, admin...), "list the records with 'agora memory notes'"},
		{2, []string{"memory", "correct", "lr_nosuchrecord"}, "give at least one of --title"},
		{2, []string{"memory", "unshare", "not a ref"}, "record refs look like lr_"},
		{1, []string{"memory", "notes", "--url", url, "--data", t.TempDir()}, "point --data (or AGORA_DATA) at the node's data folder"},
		{1, []string{"memory", "notes", "--url", "http://127.0.0.1:1", "--data", dataDir}, "start the node with 'agora serve'"},
	}
	bad := t.TempDir() + "/token"
	os.WriteFile(bad, []byte("not-the-token\n"), 0o600)
	cases = append(cases, struct {
		code       int
		args       []string
		stderrHint string
	}{1, []string{"memory", "notes", "--url", url, "--token-file", bad}, "this is not the node's admin token"})
	for _, c := range cases {
		_, errOut := agora(t, c.code, c.args...)
		if !strings.HasPrefix(errOut, "agora: error: ") || !strings.Contains(errOut, c.stderrHint) {
			t.Errorf("agora %s:\n%s\nwant a hint with %q", strings.Join(c.args, " "), errOut, c.stderrHint)
		}
	}
}

// memoryMCPNote runs `agora memory mcp --workspace root` in-process on
// pipes, as an agent runs it on stdio, calls memory_note with args and
// returns its structured result.
func memoryMCPNote(t *testing.T, root string, args map[string]any) memory.NoteResult {
	t.Helper()
	ctx := context.Background()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var stderr strings.Builder
		code := run(ctx, []string{"memory", "mcp", "--workspace", root}, &env{stdin: inR, stdout: outW, stderr: &stderr})
		if stderr.Len() > 0 {
			t.Errorf("memory mcp wrote to stderr: %s", stderr.String())
		}
		outW.Close()
		done <- code
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_note", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("memory_note: %v %+v", err, res)
	}
	cs.Close()
	if code := <-done; code != 0 {
		t.Errorf("memory mcp exited %d", code)
	}
	var note memory.NoteResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &note); err != nil {
		t.Fatalf("memory_note's result: %v\n%s", err, b)
	}
	return note
}

// memoryReceiptView is one receipt as the admin's record route shows it.
type memoryReceiptView struct {
	Kind    string `json:"kind"`
	Session string `json:"session"`
	Payload struct {
		Trigger    string               `json:"trigger"`
		AppliedVia string               `json:"applied_via"`
		Reasons    []memory.MatchReason `json:"reasons"`
	} `json:"payload"`
}

// memoryRecordRoute reads GET /api/v1/admin/memory/records/{ref}.
func memoryRecordRoute(t *testing.T, url, dataDir, ref string) (v struct {
	Record   memory.ReadRecord
	Receipts []memoryReceiptView
}) {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/api/v1/admin/memory/records/"+ref, nil)
	req.Header.Set("Authorization", "Bearer "+adminToken(t, dataDir))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET record %s: %d %s", ref, resp.StatusCode, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
