// Package nodetest starts real Agora nodes on loopback for tests outside
// package node: the client, the CLI.
//
// What such a node serves: spec/ledger-protocol.md, library/contract.json and
// memory/memory-agent-ingress-v1.schema.json.
package nodetest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/node"
)

// Start runs a node with cfg (its DataDir a new temporary folder) behind an
// httptest server, closed when the test ends. It returns the server and
// the node's data folder.
func Start(t testing.TB, cfg node.Config) (*httptest.Server, string) {
	t.Helper()
	cfg.DataDir = filepath.Join(t.TempDir(), "data") // New makes it 0700
	n, err := node.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		if err := n.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv, cfg.DataDir
}

// AdminToken reads the admin token of the node kept in dataDir.
func AdminToken(t testing.TB, dataDir string) string {
	t.Helper()
	b, err := os.ReadFile(node.AdminTokenPath(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
