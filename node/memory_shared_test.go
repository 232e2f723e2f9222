package node

import (
	"net/http"
	"testing"

	"github.com/agora-node/agora/store/postgres/pgtest"
)

// TestMemoryTwoNodesOneState: two nodes whose state is one PostgreSQL
// schema serve one memory over HTTP, whichever of them an event goes to:
// a note recorded through one is pushed by the other's next failing tool
// result, a session's events alternate between them, and a record the
// admin forgets through one is gone from the other.
func TestMemoryTwoNodesOneState(t *testing.T) {
	state := pgtest.SchemaDSN(t)
	a, srvA := testNodeOn(t, Config{State: state})
	b, srvB := testNodeOn(t, Config{State: state})
	token := issueAdapter(t, srvA.URL, memoryAdminToken(t, a), "codex")
	onA := &agent{t: t, url: srvA.URL, id: "codex", token: token}
	onB := &agent{t: t, url: srvB.URL, id: "codex", token: token}

	failing := func(h string) map[string]any {
		return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "command": "pytest -q",
			"error_tail": "E   ModuleNotFoundError: No module named 'yaml'\ntests/test_config.py:3: in <module>\n    import yaml"}
	}
	// One session, its events alternating A, B, A, B.
	h := onA.start("shop", nil)
	onB.must("tool.result", failing(h))
	ref := onA.must("note", map[string]any{"session_handle": h, "title": "pytest fails: No module named 'yaml' in the config tests", "type": "bugfix", "scope": "project",
		"content": map[string]any{"what": "pytest failed with ModuleNotFoundError: No module named 'yaml' in tests/test_config.py",
			"why": "PyYAML is imported as yaml but was never in the test requirements", "where": "requirements-dev.txt",
			"learned": "install pyyaml into the test environment before running pytest"},
		"fix": map[string]any{"kind": "command", "command": "pip install pyyaml"}})["record_ref"].(string)
	if end := onB.must("session.end", map[string]any{"session_handle": h, "reason": "exit"}); end["notes"] != float64(1) {
		t.Fatalf("the alternating session ended with %v notes, want 1: %v", end["notes"], end)
	}
	if r := onA.send("tool.result", failing(h)); r.code != "session_unbound" {
		t.Fatalf("A took an event of the session B ended: %d %s", r.status, r.body)
	}

	// A fresh session on B is pushed the note on its first failure.
	hb := onB.start("shop", nil)
	inj, _ := onB.must("tool.result", failing(hb))["inject"].(map[string]any)
	if refs, _ := inj["record_refs"].([]any); len(refs) != 1 || refs[0] != ref {
		t.Fatalf("B pushed %v, want [%s]", inj, ref)
	}

	// Forgotten through B's admin route, not read through A.
	admin := memoryAdminToken(t, b)
	if status, v := call(t, "DELETE", srvB.URL+"/api/v1/admin/memory/records/"+ref, nil, "Authorization", "Bearer "+admin); status != http.StatusOK {
		t.Fatalf("forget through B: %d %v", status, v)
	}
	ha := onA.start("shop", nil)
	if r := onA.send("query", map[string]any{"session_handle": ha, "op": "read", "ref": ref}); r.status != http.StatusNotFound {
		t.Fatalf("A reads the record B forgot: %d %s", r.status, r.body)
	}
	if status, v := call(t, "GET", srvA.URL+"/api/v1/admin/memory/records", nil, "Authorization", "Bearer "+memoryAdminToken(t, a)); status != http.StatusOK ||
		len(v.(map[string]any)["records"].([]any)) != 0 {
		t.Fatalf("A's admin lists the record B forgot: %d %v", status, v)
	}
}
