package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

// TestBundleCheckWithoutIdentity: an operator that proved nothing cannot
// send large data ahead, and is told how to get an identity.
func TestBundleCheckWithoutIdentity(t *testing.T) {
	url, _ := startNodeWith(t, node.Config{})
	keys := filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Newcomer", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	id := operatorLine.FindStringSubmatch(out)[1]
	out, _ = agora(t, 0, "key", "show", id, "--keys", keys)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	dir, _ := writeBundleFolder(t, protocol.KeyDigest(lines[len(lines)-1]), 9)
	_, stderr := agora(t, 1, "bundle", "check", dir, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "403 no_identity") || !strings.Contains(stderr, "prove an identity first") {
		t.Errorf("stderr: %s", stderr)
	}
}
