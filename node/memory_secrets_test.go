package node

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/memorytest"
)

// The memory's secret scan (issue 12, Build 7), over HTTP: every shape of
// credential, sent in a project name, a failing tool result's command and
// error tail, a note's fields and fix, and a query, is masked before the
// node reads it. The record read back shows the mask; no answer quotes the
// secret; and no file of the node's data folder holds its bytes.

func TestMemorySecretsNeverStored(t *testing.T) {
	t.Parallel()
	// In SQLite, whatever AGORA_TEST_NODE_STATE says: the test reads the
	// data folder's files.
	n, srv := testNodeOn(t, Config{})
	admin := memoryAdminToken(t, n)
	a := &agent{t: t, url: srv.URL, id: "alpha", token: issueAdapter(t, srv.URL, admin, "alpha")}
	shapes := memorytest.SecretShapes()
	// quiet fails the test if an answer quotes a secret of any shape.
	quiet := func(what string, body []byte) {
		t.Helper()
		for _, s := range shapes {
			if bytes.Contains(body, []byte(s.Secret)) {
				t.Errorf("%s answered the %s secret: %s", what, s.Name, body)
			}
		}
	}
	send := func(kind string, payload map[string]any) reply {
		t.Helper()
		r := a.send(kind, payload)
		quiet(kind, r.body)
		if !r.ok {
			t.Fatalf("%s refused: %s", kind, r.body)
		}
		return r
	}
	refs := make([]string, len(shapes))
	for i, s := range shapes {
		start := send("session.start", map[string]any{"project": "shop " + s.Text, "capabilities": []any{"session_binding", "tool_capture", "note_tool", "query_tools"}})
		h := start.result["session_handle"].(string)
		send("step.before", map[string]any{"session_handle": h, "step": 1, "query_text": "make the deploy work: " + s.Text})
		send("tool.result", map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1,
			"command": s.Text, "error_tail": npmFailure + "\n" + s.Text})
		note := projectNote(h, "deploy "+s.Text)
		note["title"] = fmt.Sprintf("Deploy step %d (%s) needs its credential from the vault", i, s.Name)
		content := note["content"].(map[string]any)
		content["where"] = "CI settings: " + s.Text
		content["what"] = "npm test failed after " + s.Text
		refs[i] = send("note", note).result["record_ref"].(string)
		send("query", map[string]any{"session_handle": h, "op": "search", "query": "deploy " + s.Text})
		send("session.end", map[string]any{"session_handle": h, "reason": "exit"})
	}

	// Read back, by the admin and by a later session's query read: masked,
	// with the rest of the text kept.
	var later string
	for i, s := range shapes {
		if i%10 == 0 { // a session reads at most 20 records
			later = a.start("shop", nil)
		}
		v := adminRecord(t, srv.URL, admin, refs[i])
		b, _ := json.Marshal(v)
		quiet("GET record", b)
		rec := v["record"].(map[string]any)
		mask := "[redacted:" + s.Kind + "]"
		if p := rec["project"].(string); !strings.HasPrefix(p, "shop ") || !strings.Contains(p, mask) {
			t.Errorf("%s: project stored as %q, want it masked with %s", s.Name, p, mask)
		}
		if w := rec["content"].(map[string]any)["where"].(string); !strings.HasPrefix(w, "CI settings: ") || !strings.Contains(w, mask) {
			t.Errorf("%s: where stored as %q", s.Name, w)
		}
		if c := v["fix"].(map[string]any)["command"].(string); !strings.HasPrefix(c, "deploy ") || !strings.Contains(c, mask) {
			t.Errorf("%s: fix stored as %q", s.Name, c)
		}
		read := send("query", map[string]any{"session_handle": later, "op": "read", "ref": refs[i]})
		if text := read.result["record"].(map[string]any)["text"].(string); !strings.Contains(text, mask) {
			t.Errorf("%s: query read text without the mask: %q", s.Name, text)
		}
	}

	// A lesson that is only a secret is refused, without quoting it.
	only := goodNote(later)
	i := slices.IndexFunc(shapes, func(s memorytest.SecretShape) bool { return s.Kind == "github_token" })
	only["content"].(map[string]any)["learned"] = shapes[i].Secret
	if r := a.send("note", only); r.ok || r.code != "note_rejected" {
		t.Errorf("a lesson that is only a secret: %d %s", r.status, r.body)
	} else {
		quiet("note refusal", r.body)
	}

	// Nothing of any secret is in any file the node keeps: state.db, its
	// WAL, the keys, the log.
	files := 0
	err := filepath.WalkDir(n.cfg.DataDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, s := range shapes {
			if bytes.Contains(b, []byte(s.Secret)) {
				t.Errorf("%s holds the %s secret", path, s.Name)
			}
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("reading the data folder: %d files, %v", files, err)
	}
	if db, err := os.ReadFile(filepath.Join(n.cfg.DataDir, "state.db")); err != nil || !bytes.Contains(db, []byte("[redacted:")) {
		if wal, _ := os.ReadFile(filepath.Join(n.cfg.DataDir, "state.db-wal")); !bytes.Contains(wal, []byte("[redacted:")) {
			t.Errorf("neither state.db nor its WAL holds a mask: the grep above looked at the wrong files (%v)", err)
		}
	}
}
