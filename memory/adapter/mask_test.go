package adapter_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/adapter"
	"github.com/agora-node/agora/memory/adapter/adaptertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMemoryMCPNoteMasked checks that a note sent through the MCP note
// tool, which the hooks' redaction never saw, leaves the machine masked by
// the node's own rules: the fake node's record of the raw request body
// holds no secret, and the masks are there.
func TestMemoryMCPNoteMasked(t *testing.T) {
	node := adaptertest.New(t, "tok-mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wd := filepath.Join(t.TempDir(), "shop")
	os.MkdirAll(wd, 0o755)
	tools := &adapter.MCPTools{
		Client:        &adapter.Client{URL: node.URL, AdapterID: "claude-code", Token: "tok-mcp", HTTP: http.DefaultClient},
		WorkspaceRoot: wd,
		Version:       "test",
	}
	cs := adaptertest.ConnectMCP(t, ctx, tools)
	pg := strings.Join([]string{"pg", "Pass", "w0rd"}, "")
	curl := strings.Join([]string{"curl", "Pass99"}, "")
	npm := strings.Join([]string{"npm_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}, "")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_note", Arguments: map[string]any{
		"title": "Migrations need the database URL", "type": "config",
		"what":        "npm run migrate failed until DATABASE_URL=postgres://app:" + pg + "@db/shop was set",
		"why":         "the migration tool reads only DATABASE_URL",
		"where":       "CI: curl -u ci:" + curl + " https://ci.example.com/api",
		"learned":     "export DATABASE_URL before npm run migrate; the token is //registry.npmjs.org/:_authToken=" + npm,
		"fix_command": "DATABASE_URL=postgres://app:" + pg + "@db/shop npm run migrate",
	}})
	if err != nil || res.IsError {
		t.Fatalf("memory_note: %v %+v", err, res)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_search", Arguments: map[string]any{"query": "curl -u ci:" + curl}}); err != nil {
		t.Fatal(err)
	}
	var sent int
	for _, ev := range node.Events() {
		body := string(ev.Body)
		for _, secret := range []string{pg, curl, npm} {
			if strings.Contains(body, secret) {
				t.Errorf("%s sent a secret: %s", ev.Kind, body)
			}
		}
		if ev.Kind == "note" || ev.Kind == "query" {
			sent++
			if !strings.Contains(body, "[redacted:") {
				t.Errorf("%s without a mask: %s", ev.Kind, body)
			}
		}
	}
	if sent != 2 {
		t.Errorf("%d note and query events sent, want 2: %v", sent, node.Kinds())
	}
	if note := node.Events()[1].Payload; !strings.Contains(note["content"].(map[string]any)["what"].(string), "postgres://app:[redacted:url_password]@db/shop") {
		t.Errorf("the note lost what was not the secret: %v", note["content"])
	}
}
