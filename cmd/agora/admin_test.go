package main

import (
	"strings"
	"testing"

	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
)

// TestAdminScopes denies an invited operator a library scope, shows it,
// and resets it, through the CLI against a node on loopback; a vote then
// fails and passes as the scope says.
func TestAdminScopes(t *testing.T) {
	srv, dataDir := nodetest.Start(t, node.Config{})
	url := srv.URL
	id, keys := libraryOperator(t, url, dataDir)
	admin := []string{"--data", dataDir, "--url", url}

	out, _ := agora(t, 0, append([]string{"admin", "scopes", id}, admin...)...)
	if !strings.Contains(out, "library.vote     held   (default)") {
		t.Errorf("scopes by default:\n%s", out)
	}
	out, _ = agora(t, 0, append([]string{"admin", "scopes", id, "--deny", "library.vote", "--deny", "library.curate"}, admin...)...)
	if !strings.Contains(out, "library.vote     denied (set by the admin)") || !strings.Contains(out, "library.publish  held   (default)") {
		t.Errorf("after denying:\n%s", out)
	}
	thread := publishContent(t, url, keys, map[string]any{"kind": "thread", "title": "Scopes", "body": "Votes?", "links": []any{}, "previous": ""})
	vote := map[string]any{"kind": "vote", "title": "Vote", "body": "1", "links": []any{map[string]any{"relation": "votes_on", "target": thread}}, "previous": ""}
	_, errOut := agora(t, 1, "library", "publish", "--content", writeContent(t, vote), "--keys", keys, "--url", url)
	if !strings.Contains(errOut, "scope_denied") {
		t.Errorf("a denied vote said:\n%s", errOut)
	}
	agora(t, 0, append([]string{"admin", "scopes", id, "--reset", "library.vote"}, admin...)...)
	publishContent(t, url, keys, vote)

	_, errOut = agora(t, 2, append([]string{"admin", "scopes", id, "--grant", "library.fly"}, admin...)...)
	if !strings.Contains(errOut, "not a library scope") {
		t.Errorf("an unknown scope said:\n%s", errOut)
	}
	_, errOut = agora(t, 1, "admin", "scopes", id, "--url", url, "--token-file", writeContent(t, map[string]any{}))
	if !strings.Contains(errOut, "not the node's admin token") {
		t.Errorf("a wrong token said:\n%s", errOut)
	}
	_, errOut = agora(t, 1, append([]string{"admin", "scopes", "op:" + strings.Repeat("0", 64)}, admin...)...)
	if !strings.Contains(errOut, "agora register") {
		t.Errorf("an unknown operator said:\n%s", errOut)
	}
}
