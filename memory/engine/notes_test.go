package engine_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store/sqlite"
)

// notesEngine is an engine over a fresh store with a codex token, and a
// way to send events stamped at a given occurred_at.
func notesEngine(t *testing.T) func(kind string, at time.Time, payload map[string]any) (map[string]any, string) {
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "m.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := engine.New(t.Context(), st, engine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	token, err := e.IssueToken(t.Context(), "codex")
	if err != nil {
		t.Fatal(err)
	}
	return func(kind string, at time.Time, payload map[string]any) (map[string]any, string) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"adapter_id": "codex", "event_id": eventID(), "session_ref": "r",
			"occurred_at": at.UTC().Format(time.RFC3339Nano), "kind": kind, "payload": payload})
		out, _, _ := e.Handle(t.Context(), "codex", kind, token, body)
		var v struct {
			OK     bool
			Result map[string]any
			Error  struct{ Code, Message string }
		}
		json.Unmarshal(out, &v)
		if !v.OK {
			return nil, v.Error.Code + ": " + v.Error.Message
		}
		return v.Result, ""
	}
}

func start(t *testing.T, send func(string, time.Time, map[string]any) (map[string]any, string), project, os string) string {
	t.Helper()
	r, msg := send("session.start", time.Now(), map[string]any{"project": project, "capabilities": []any{}, "environment": map[string]any{"os": os}})
	if msg != "" {
		t.Fatal(msg)
	}
	return r["session_handle"].(string)
}

func note(h, title, scope, what, why, fix string) map[string]any {
	return map[string]any{"session_handle": h, "title": title, "type": "bugfix", "scope": scope,
		"content": map[string]any{"what": what, "why": why, "where": "the build", "learned": "see the fix for what to run next time"},
		"fix":     map[string]any{"kind": "command", "command": fix}}
}

// pushed replays a failure in a fresh session and returns the titles
// pushed, best first.
func pushed(t *testing.T, send func(string, time.Time, map[string]any) (map[string]any, string), project, os, tail string) []string {
	t.Helper()
	h := start(t, send, project, os)
	r, msg := send("tool.result", time.Now(), map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": tail, "command": "pytest -q"})
	if msg != "" {
		t.Fatal(msg)
	}
	var titles []string
	if inj, ok := r["inject"].(map[string]any); ok {
		for _, h := range inj["hits"].([]any) {
			titles = append(titles, h.(map[string]any)["title"].(string))
		}
	}
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	return titles
}

// TestNoteWordsMakeTheMatch: a note sent with no failing tool result
// before it, quoting its failure in prose, is pushed for that failure in
// its project only; a note that quotes no failure never is.
func TestNoteWordsMakeTheMatch(t *testing.T) {
	send := notesEngine(t)
	h := start(t, send, "shop", "linux")
	send("note", time.Now().Add(-time.Hour), note(h, "pytest can't import yaml", "project",
		"pytest stopped at collection with `ModuleNotFoundError: No module named 'yaml'`.", "PyYAML was only a dev dependency.", "pip install -r requirements-dev.txt"))
	send("note", time.Now().Add(-time.Hour), note(h, "we pin yaml loaders", "project",
		"We decided to always use yaml.safe_load in the shop service.", "Unsafe loaders are a risk we do not take.", "grep -r yaml.load ."))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	// Other notes, so that the store can tell a rare name from wording.
	tools := []string{"cargo", "gradle", "helm", "terraform", "rspec", "mvn", "xcodebuild", "dotnet", "composer", "kubectl",
		"tsc", "eslint", "vite", "webpack", "bundler", "alembic", "docker", "make", "swift", "ruby"}
	for i, tool := range tools {
		if i%5 == 0 {
			h = start(t, send, "other", "linux")
		}
		send("note", time.Now().Add(-time.Hour), note(h, tool+" step "+fmt.Sprint(i)+" fails", "global",
			tool+" failed with `error: step "+fmt.Sprint(i)+" of "+tool+" could not start`.", "the "+tool+" cache was stale", tool+" --clean"))
		if i%5 == 4 {
			send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
		}
	}

	tail := "ImportError while importing test module '/src/tests/test_cfg.py'.\nE   ModuleNotFoundError: No module named 'yaml'\n"
	if got := pushed(t, send, "shop", "linux", tail); len(got) != 1 || got[0] != "pytest can't import yaml" {
		t.Errorf("in its project the failure pushed %v", got)
	}
	if got := pushed(t, send, "blog", "linux", tail); len(got) != 0 {
		t.Errorf("another project was pushed %v, a project note of shop", got)
	}
	if got := pushed(t, send, "shop", "linux", "E   ModuleNotFoundError: No module named 'toml'\n"); len(got) != 0 {
		t.Errorf("the same failure about another module pushed %v", got)
	}
}

// oldEresolveNote writes, two years ago in project web, the global note
// whose ERESOLVE fix later notes replace, and returns the failure it
// quotes.
func oldEresolveNote(t *testing.T, send func(string, time.Time, map[string]any) (map[string]any, string)) string {
	quote := "`npm ERR! ERESOLVE unable to resolve dependency tree` for react-beautiful-dnd"
	h := start(t, send, "web", "linux")
	send("note", time.Now().AddDate(-2, 0, 0), note(h, "npm ERESOLVE for react-beautiful-dnd", "global", "npm install failed: "+quote, "the package wants react 17", "npm install --legacy-peer-deps"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	return quote
}

// TestSupersededInProse: a newer note that says in words the older fix
// no longer works ranks first, the older one is marked superseded; and a
// note's occurred_at must be a date that can be true.
func TestSupersededInProse(t *testing.T) {
	send := notesEngine(t)
	quote := oldEresolveNote(t, send)
	h := start(t, send, "web", "linux")
	_, msg := send("note", time.Now().AddDate(0, -1, 0), note(h, "react-beautiful-dnd ERESOLVE, the real fix", "global", "npm install failed again: "+quote,
		"the old --legacy-peer-deps workaround no longer works since npm 9; the maintained fork supports react 18", "npm install @hello-pangea/dnd"))
	if msg != "" {
		t.Fatal(msg)
	}
	for at, code := range map[time.Time]string{time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC): "schema_invalid", time.Now().Add(48 * time.Hour): "schema_invalid"} {
		if _, msg := send("note", at, note(h, "a note from a broken clock", "global", "npm install failed with `error: the lock file is corrupt`", "a merge left conflict markers in it", "git checkout --theirs package-lock.json")); !strings.HasPrefix(msg, code) || !strings.Contains(msg, "/occurred_at") {
			t.Errorf("occurred_at %s: %q, want %s at /occurred_at", at, msg, code)
		}
	}
	if _, msg := send("note", time.Now().Add(time.Hour), note(h, "a note from a clock a little ahead", "global", "npm ci failed with `error: the lock file is out of date`", "package.json changed without npm install", "npm install")); msg != "" {
		t.Errorf("a clock an hour ahead: %s", msg)
	}
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	got := pushed(t, send, "web", "linux", "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1\n")
	if len(got) == 0 || got[0] != "react-beautiful-dnd ERESOLVE, the real fix" {
		t.Errorf("pushed %v, want the newer fix first", got)
	}
}

// TestProseSupersessionStaysInItsProject: a project note saying a
// global note's old fix no longer works replaces it in its own project
// (the global note is not pushed there at all) and does not sink it
// anywhere else: every other project still gets the global note first.
func TestProseSupersessionStaysInItsProject(t *testing.T) {
	send := notesEngine(t)
	quote := oldEresolveNote(t, send)
	h := start(t, send, "shop", "linux")
	send("note", time.Now().AddDate(0, -1, 0), note(h, "react-beautiful-dnd ERESOLVE in shop", "project", "npm install failed again: "+quote,
		"the old --legacy-peer-deps workaround no longer works here since shop moved to npm 9", "npm install @hello-pangea/dnd"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	tail := "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1\n"
	if got := pushed(t, send, "blog", "linux", tail); len(got) == 0 || got[0] != "npm ERESOLVE for react-beautiful-dnd" {
		t.Errorf("another project was pushed %v, want the global note", got)
	}
	if got := pushed(t, send, "shop", "linux", tail); len(got) != 1 || got[0] != "react-beautiful-dnd ERESOLVE in shop" {
		t.Errorf("the project that replaced the global note was pushed %v, want its own note alone", got)
	}
}

// TestTwinNoteTakesTheEarlierNotesFailure: a note that says it met an
// earlier note's failure again, on another system, and quotes little of
// it is pushed first on its own system, the earlier one on its own.
func TestTwinNoteTakesTheEarlierNotesFailure(t *testing.T) {
	send := notesEngine(t)
	h := start(t, send, "gems", "linux")
	send("note", time.Now().AddDate(-1, 0, 0), note(h, "bundle install: psych fails, yaml.h not found", "project",
		"bundle install stops: `An error occurred while installing psych (5.1.0), and Bundler cannot continue.` mkmf says yaml.h not found.",
		"psych 5 needs the libyaml headers, which the slim image lacks", "apt-get install -y libyaml-dev"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	h = start(t, send, "gems", "darwin")
	send("note", time.Now().AddDate(0, -6, 0), note(h, "psych native extension on the Mac", "project",
		"Same psych 5 install failure (yaml.h not found) on my Mac with rbenv's Ruby 3.2.",
		"Homebrew's libyaml lives under /opt/homebrew, which the build does not search", "bundle config build.psych --with-libyaml-dir=$(brew --prefix libyaml)"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	tail := "Installing psych 5.1.2 with native extensions\nyaml.h not found\nAn error occurred while installing psych (5.1.2), and Bundler cannot continue.\n"
	if got := pushed(t, send, "gems", "darwin", tail); len(got) == 0 || got[0] != "psych native extension on the Mac" {
		t.Errorf("on the Mac pushed %v, want the Mac's note first", got)
	}
	if got := pushed(t, send, "gems", "linux", tail); len(got) == 0 || got[0] != "bundle install: psych fails, yaml.h not found" {
		t.Errorf("on Linux pushed %v, want the Linux note first", got)
	}
}

// TestProseSupersessionNamesItsTopic: a note that says an older fix is
// dead but names the failure only in passing, in words no search floor
// takes for a quote, still replaces the one older note of its project
// far ahead of any other on that topic.
func TestProseSupersessionNamesItsTopic(t *testing.T) {
	send := notesEngine(t)
	otherNotes(t, send, "foxglove")
	writeSession(t, send, "foxglove", time.Now().AddDate(-1, 0, 0), func(h string) []map[string]any {
		return []map[string]any{
			note(h, "eslint 9 landed via renovate, lint broken", "project",
				"ESLint couldn't find an eslint.config.(js|mjs|cjs) file — renovate bumped eslint to 9 and we still have .eslintrc.cjs", "v9 only reads flat config by default", "yarn add -D eslint@8.57.0"),
			note(h, "prettier and eslint disagree on trailing commas", "project",
				"yarn lint reports `Insert ,  prettier/prettier` on every file after the prettier 3 bump", "prettier 3 defaults trailingComma to all", "yarn prettier --write ."),
		}
	})
	h := start(t, send, "foxglove", "linux")
	if _, msg := send("note", time.Now().AddDate(0, -1, 0), note(h, "migrated to eslint.config.mjs — the eslint@8 pin is dead", "project",
		"The 'ESLint couldn't find an eslint.config' failure came back on a branch. Don't pin eslint 8 anymore: that stopped working once typescript-eslint 8 required eslint 9.",
		"main has been on flat config since March; old branches still carry .eslintrc.cjs and the 8 pin.", "npx @eslint/migrate-config .eslintrc.cjs")); msg != "" {
		t.Fatal(msg)
	}
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	tail := eslintTail
	got := pushed(t, send, "foxglove", "linux", tail)
	if len(got) == 0 || got[0] != "migrated to eslint.config.mjs — the eslint@8 pin is dead" {
		t.Errorf("pushed %v, want the newer note first", got)
	}
}

const eslintTail = "\nOops! Something went wrong! :(\n\nESLint: 9.1.1\n\nESLint couldn't find an eslint.config.(js|mjs|cjs) file.\n\nFrom ESLint v9.0.0, the default configuration file is now eslint.config.js.\nIf you are using a .eslintrc.* file, please follow the migration guide\nto update your configuration file to the new format:\n\nhttps://eslint.org/docs/latest/use/configure/migration-guide\n"

// TestProseSupersessionPrefersItsOwnProject: of the older notes on the
// failure, a project note saying the old fix no longer works replaces
// its own project's, not another project's global note that matches as
// well: in its project it comes first and its own older note is not
// pushed above it; elsewhere the global note still comes first.
func TestProseSupersessionPrefersItsOwnProject(t *testing.T) {
	send := notesEngine(t)
	otherNotes(t, send, "shop")
	quote := oldEresolveNote(t, send)
	h := start(t, send, "shop", "linux")
	send("note", time.Now().AddDate(-1, 0, 0), note(h, "shop: react-beautiful-dnd ERESOLVE", "project", "npm install stopped on ERESOLVE: unable to resolve dependency tree",
		"react-beautiful-dnd wants react 17", "npm install --force"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	h = start(t, send, "shop", "linux")
	send("note", time.Now().AddDate(0, -1, 0), note(h, "shop: react-beautiful-dnd replaced", "project", "npm install failed again: "+quote,
		"the old --force workaround no longer works since npm 9; moved to the maintained fork", "npm install @hello-pangea/dnd"))
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
	tail := "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1\n"
	got := pushed(t, send, "shop", "linux", tail)
	if len(got) == 0 || got[0] != "shop: react-beautiful-dnd replaced" || slices.Contains(got, "shop: react-beautiful-dnd ERESOLVE") {
		t.Errorf("shop was pushed %v, want its newer note first and its older one not at all", got)
	}
	if got := pushed(t, send, "blog", "linux", tail); len(got) == 0 || got[0] != "npm ERESOLVE for react-beautiful-dnd" {
		t.Errorf("another project was pushed %v, want the global note", got)
	}
}

// otherNotes stores notes about other failures of a web project, so that
// word rarity in a test's store means something.
func otherNotes(t *testing.T, send func(string, time.Time, map[string]any) (map[string]any, string), project string) {
	t.Helper()
	writeSession(t, send, project, time.Now().AddDate(-2, 0, 0), func(h string) []map[string]any {
		return []map[string]any{
			note(h, "tsc can't find the css modules", "project",
				"tsc fails with `TS2307: Cannot find module './Button.module.css'`", "no declaration for css modules", "echo \"declare module '*.css'\" > src/css.d.ts"),
			note(h, "vite dev: port 5173 taken", "project",
				"`Error: Port 5173 is already in use` with strictPort", "a stale dev server kept running", "npx kill-port 5173"),
			note(h, "jest can't parse the ESM-only nanoid", "project",
				"`SyntaxError: Cannot use import statement outside a module` from node_modules/nanoid", "jest does not transform node_modules", "yarn jest --clearCache"),
			note(h, "yarn install: integrity check failed", "project",
				"`error Integrity check failed for \"left-pad\"` on the CI install", "the cache held a corrupt tarball", "yarn cache clean"),
		}
	})
}

// writeSession sends the notes notes(h) makes in one session of project
// on linux, each dated at.
func writeSession(t *testing.T, send func(string, time.Time, map[string]any) (map[string]any, string), project string, at time.Time, notes func(h string) []map[string]any) {
	t.Helper()
	h := start(t, send, project, "linux")
	for _, n := range notes(h) {
		if _, msg := send("note", at, n); msg != "" {
			t.Fatal(msg)
		}
	}
	send("session.end", time.Now(), map[string]any{"session_handle": h, "reason": "exit"})
}

// TestProseSupersessionNamesTheOldFix: a note saying an older fix no
// longer holds, about the error its failure prints now that the fix is
// gone, replaces the older note whose fix it names: the old failure
// brings the newer note, and the older one is not pushed above it.
func TestProseSupersessionNamesTheOldFix(t *testing.T) {
	send := notesEngine(t)
	otherNotes(t, send, "clinic")
	writeSession(t, send, "clinic", time.Now().AddDate(-2, 0, 0), func(h string) []map[string]any {
		n := note(h, "SqlClient 4: certificate chain not trusted", "project",
			"After bumping Microsoft.Data.SqlClient: `A connection was successfully established with the server, but then an error occurred during the pre-login handshake` and `The certificate chain was issued by an authority that is not trusted`",
			"SqlClient 4 encrypts by default and the dev server's certificate is self-signed", "")
		delete(n, "fix")
		n["content"].(map[string]any)["learned"] = "add TrustServerCertificate=True to the connection string"
		return []map[string]any{n}
	})
	writeSession(t, send, "clinic", time.Now().AddDate(0, -1, 0), func(h string) []map[string]any {
		return []map[string]any{note(h, "staging SQL: trust our CA", "project",
			"Staging fails at the first query: `The remote certificate was rejected by the provided RemoteCertificateValidationCallback`",
			"the TrustServerCertificate=True shortcut was banned by the security review; the old advice is only for throwaway local containers now",
			"cp clinic-root-ca.crt /usr/local/share/ca-certificates/ && update-ca-certificates")}
	})
	tail := "Microsoft.Data.SqlClient.SqlException (0x80131904): A connection was successfully established with the server, but then an error occurred during the pre-login handshake. (provider: SSL Provider, error: 0 - The certificate chain was issued by an authority that is not trusted.)\n"
	got := pushed(t, send, "clinic", "linux", tail)
	if len(got) == 0 || got[0] != "staging SQL: trust our CA" || slices.Contains(got, "SqlClient 4: certificate chain not trusted") {
		t.Errorf("pushed %v, want the newer note first and the older one not at all", got)
	}
}

// TestProseSupersessionLeavesOtherProjects: a note saying an old fix no
// longer holds, whose failure shares only a word with another project's
// global note, replaces nothing: that global note is still pushed, in
// the new note's project too, for its own failure.
func TestProseSupersessionLeavesOtherProjects(t *testing.T) {
	send := notesEngine(t)
	otherNotes(t, send, "clinic")
	writeSession(t, send, "infra", time.Now().AddDate(-2, 0, 0), func(h string) []map[string]any {
		return []map[string]any{note(h, "git push rejected (fetch first)", "global",
			"`! [rejected] main -> main (fetch first)` and `error: failed to push some refs`", "the remote has commits the local branch lacks", "git pull --rebase && git push")}
	})
	writeSession(t, send, "clinic", time.Now().AddDate(0, -1, 0), func(h string) []map[string]any {
		return []map[string]any{note(h, "staging SQL: trust our CA", "project",
			"Staging fails at the first query: `The remote certificate was rejected by the provided RemoteCertificateValidationCallback`",
			"the old shortcut no longer works since the security review", "update-ca-certificates")}
	})
	tail := "To github.com:clinic/api.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:clinic/api.git'\nhint: Updates were rejected because the remote contains work that you do not\n"
	if got := pushed(t, send, "clinic", "linux", tail); len(got) == 0 || got[0] != "git push rejected (fetch first)" {
		t.Errorf("pushed %v, want the other project's global note", got)
	}
}
