package node

import (
	"net/http"
	"strings"
	"testing"
)

// TestMemoryCorrect corrects a record through the admin route the memory
// pages post to: the admin's words are the record's next revision, read
// back and searched at once, masked of secrets as a note is; refused as a
// note would be, without the token, or for a record that does not exist.
// The records list filters by the adapter that wrote them.
func TestMemoryCorrect(t *testing.T) {
	t.Parallel()
	_, srv, admin := startMemoryNode(t)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	h := a.start("shop", nil)
	ref := a.must("note", goodNote(h))["record_ref"].(string)
	path := srv.URL + "/api/v1/admin/memory/records/" + ref
	correct := func(body map[string]any, token string) (int, map[string]any) {
		t.Helper()
		status, v := call(t, "POST", path+"/correct", mustJSON(t, body), "Authorization", "Bearer "+token)
		m, _ := v.(map[string]any)
		return status, m
	}
	content := func(learned string) map[string]any {
		return map[string]any{"title": "npm install needs --legacy-peer-deps while react-dom 17 pins react 17", "content": map[string]any{
			"what": "npm test failed: ERESOLVE unable to resolve dependency tree for react-dom", "why": "react-dom 17 wants react 17",
			"where": "package.json", "learned": learned}}
	}

	learned := "run npm install --legacy-peer-deps, with NPM_TOKEN=npm_abcdefghijklmnopqrstuvwxyz0123456789 set for the private registry; zebrafish"
	status, v := correct(content(learned), admin)
	rec, _ := v["record"].(map[string]any)
	if status != http.StatusOK || rec["revision"] != float64(2) {
		t.Fatalf("correct: %d %v", status, v)
	}
	_, got := call(t, "GET", path, nil, "Authorization", "Bearer "+admin)
	said := got.(map[string]any)["record"].(map[string]any)["content"].(map[string]any)["learned"].(string)
	if strings.Contains(said, "npm_abcdefghijklmnopqrstuvwxyz0123456789") || !strings.Contains(said, "[redacted:") || !strings.Contains(said, "zebrafish") {
		t.Errorf("the corrected record reads %q: want the admin's words, the token masked", said)
	}
	if got.(map[string]any)["adapter"] != "claude" {
		t.Errorf("the record does not name its adapter: %v", got)
	}
	_, hits := call(t, "GET", srv.URL+"/api/v1/admin/memory/search?q=zebrafish", nil, "Authorization", "Bearer "+admin)
	if hs := hits.(map[string]any)["hits"].([]any); len(hs) != 1 || hs[0].(map[string]any)["record_ref"] != ref {
		t.Errorf("a search for the correction's words finds %v", hs)
	}
	// The same words again change nothing.
	if status, v := correct(content(said), admin); status != http.StatusOK || v["record"].(map[string]any)["revision"] != float64(2) {
		t.Errorf("the same correction again: %d %v", status, v)
	}

	for _, tc := range []struct {
		name   string
		body   map[string]any
		token  string
		status int
		code   string
	}{
		{"a placeholder", content("TODO"), admin, 422, "note_rejected"},
		{"an empty part", content(""), admin, 422, "schema_invalid"},
		{"a title too long", map[string]any{"title": strings.Repeat("t", 161), "content": content("x y z")["content"]}, admin, 422, "schema_invalid"},
		{"a number for a title", map[string]any{"title": 7, "content": content("learned")["content"]}, admin, 400, "bad_request"},
		{"no admin token", content("learned"), "nope", 401, "unauthorized"},
	} {
		if status, v := correct(tc.body, tc.token); status != tc.status || v["code"] != tc.code {
			t.Errorf("correcting with %s: %d %v, want %d %s", tc.name, status, v, tc.status, tc.code)
		}
	}
	status, v2 := call(t, "POST", srv.URL+"/api/v1/admin/memory/records/lr_"+strings.Repeat("a", 26)+"/correct", mustJSON(t, content("learned")), "Authorization", "Bearer "+admin)
	if status != http.StatusNotFound {
		t.Errorf("correcting an unknown record: %d %v", status, v2)
	}

	for adapter, want := range map[string]int{"claude": 1, "codex": 0, "": 1} {
		_, v := call(t, "GET", srv.URL+"/api/v1/admin/memory/records?adapter="+adapter, nil, "Authorization", "Bearer "+admin)
		if n := len(v.(map[string]any)["records"].([]any)); n != want {
			t.Errorf("records of adapter %q: %d, want %d", adapter, n, want)
		}
	}
}
