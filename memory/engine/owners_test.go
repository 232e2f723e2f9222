package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlite"
)

// adapterClient sends events as one adapter.
type adapterClient struct {
	t     *testing.T
	e     *engine.Engine
	id    string
	token string
}

func (c *adapterClient) must(kind string, payload map[string]any) map[string]any {
	c.t.Helper()
	body, err := json.Marshal(map[string]any{"adapter_id": c.id, "event_id": eventID(), "session_ref": "r", "occurred_at": "2026-11-30T10:00:00Z",
		"kind": kind, "payload": payload})
	if err != nil {
		c.t.Fatal(err)
	}
	out, status, err := c.e.Handle(context.Background(), c.id, kind, c.token, body)
	if err != nil || status != 200 {
		c.t.Fatalf("%s: %d %s %v", kind, status, out, err)
	}
	var v struct{ Result map[string]any }
	if err := json.Unmarshal(out, &v); err != nil {
		c.t.Fatal(err)
	}
	return v.Result
}

func ownerNote(h, title string) map[string]any {
	return map[string]any{"session_handle": h, "title": title, "type": "bugfix", "scope": "project",
		"content": map[string]any{"what": "npm test failed with ERESOLVE for react-dom", "why": "react-dom 17 wants react 17",
			"where": "package.json", "learned": "install with --legacy-peer-deps before running the tests"}}
}

// TestOwnersSurviveRestart checks that who wrote a record and whether the
// admin shared it are kept: after the engine is made anew over the same
// store, two adapters' notes on one topic are still two records, each
// naming its writer, the shared one still read by the other adapter, and
// a further note of each still a revision of its own record.
func TestOwnersSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	open := func() (*sqlite.Store, *engine.Engine) {
		st, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(t.Context(), st, engine.Config{})
		if err != nil {
			t.Fatal(err)
		}
		return st, e
	}
	st, e := open()
	clients := map[string]*adapterClient{}
	for _, id := range []string{"alpha", "beta"} {
		tok, err := e.IssueToken(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		clients[id] = &adapterClient{t: t, e: e, id: id, token: tok}
	}
	refs := map[string]string{}
	for id, c := range clients {
		h := c.must("session.start", map[string]any{"project": "shop", "capabilities": []any{"session_binding"}})["session_handle"].(string)
		refs[id] = c.must("note", ownerNote(h, "npm test fails with ERESOLVE"))["record_ref"].(string)
	}
	if refs["alpha"] == refs["beta"] {
		t.Fatalf("two adapters' notes on one topic share %s", refs["alpha"])
	}
	if _, err := e.Share(t.Context(), refs["alpha"], true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Share(t.Context(), "lr_nosuchrecordatall", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("sharing no record: %v, want ErrNotFound", err)
	}
	st.Close()

	st, e = open()
	defer st.Close()
	for id, c := range clients {
		c.e = e
		rec, err := e.Record(refs[id])
		if err != nil || !strings.Contains(rec.ProvenanceLabel, "written by adapter "+id+" · revision 1") {
			t.Errorf("%s's record after a restart: %q, %v", id, rec.ProvenanceLabel, err)
		}
		if shared := strings.Contains(rec.ProvenanceLabel, "shared by the node's admin"); shared != (id == "alpha") {
			t.Errorf("%s's record shared %v after a restart: %q", id, shared, rec.ProvenanceLabel)
		}
		h := c.must("session.start", map[string]any{"project": "shop", "capabilities": []any{"session_binding"}})["session_handle"].(string)
		again := c.must("note", ownerNote(h, "npm test fails with ERESOLVE"))
		if again["record_ref"] != refs[id] || again["revision"] != float64(2) {
			t.Errorf("%s's note after a restart: %v, want revision 2 of %s", id, again, refs[id])
		}
	}
	hb := clients["beta"].must("session.start", map[string]any{"project": "shop", "capabilities": []any{"session_binding"}})["session_handle"].(string)
	found := clients["beta"].must("query", map[string]any{"session_handle": hb, "op": "search", "query": "npm ERESOLVE react-dom"})
	var refsFound []string
	for _, h := range found["hits"].([]any) {
		refsFound = append(refsFound, h.(map[string]any)["record_ref"].(string))
	}
	// alpha's revision 2 is no longer shared, so beta finds its own only.
	if strings.Join(refsFound, ",") != refs["beta"] {
		t.Errorf("beta found %v, want only its own %s", refsFound, refs["beta"])
	}
}
