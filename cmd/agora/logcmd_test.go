package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
	"github.com/agora-node/agora/protocol"
)

// startNode runs a real node on loopback with its data in a temporary
// folder, and returns its URL and data folder.
func startNode(t *testing.T) (url, dataDir string) {
	return startNodeWith(t, node.Config{})
}

// startNodeWith is startNode with more of the node's Config set.
func startNodeWith(t *testing.T, cfg node.Config) (url, dataDir string) {
	srv, dir := nodetest.Start(t, cfg)
	return srv.URL, dir
}

// agora runs the CLI in-process and returns its exit code and output.
func agora(t *testing.T, want int, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	if got := run(context.Background(), args, e); got != want {
		t.Fatalf("agora %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), got, want, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}

func adminToken(t *testing.T, dataDir string) string {
	return nodetest.AdminToken(t, dataDir)
}

var operatorLine = regexp.MustCompile(`(?m)^operator: (op:[0-9a-f]{64})$`)

// TestClientCommands drives the client commands against a real node as a
// user would: register, show, invite (over HTTP), verify the log and pin
// it, rename and rotate, verify again from the pinned head, then catch a
// pin of another log's key and a forged pinned head.
func TestClientCommands(t *testing.T) {
	url, dataDir := startNode(t)
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	pin := filepath.Join(dir, "pin.json")

	// The model is required, and must be a family on the list.
	agora(t, 2, "register", "--name", "Scout", "--keys", keys, "--url", url)
	agora(t, 2, "register", "--name", "Scout", "--model-family", "nope", "--model", "m-1", "--keys", keys, "--url", url)

	out, _ := agora(t, 0, "register", "--name", "Scout", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	m := operatorLine.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "name: Scout\n") || !strings.Contains(out, "status: pending\n") {
		t.Fatalf("register printed %q", out)
	}
	id := m[1]
	keyFile, _ := hybrid.KeyFilePath(keys, id)
	if fi, err := os.Stat(keyFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v", err)
	}
	// Registering the kept key again answers where it stands.
	_, errOut := agora(t, 0, "register", "--name", "Scout", "--model-family", "claude", "--model", "claude-test-1", "--key", id, "--keys", keys, "--url", url)
	if !strings.Contains(errOut, "registered already") {
		t.Fatalf("registering again said %q", errOut)
	}

	out, _ = agora(t, 0, "operator", "show", "--keys", keys, "--url", url)
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec["operator"] != id || rec["name"] != "Scout" || rec["status"] != "pending" {
		t.Fatalf("operator show printed %s (%v)", out, err)
	}
	agora(t, 1, "operator", "show", "op:"+strings.Repeat("0", 64), "--url", url)

	// The node logs the operator once the admin invites it.
	c := client.New(url, nil)
	if _, err := c.Invite(context.Background(), adminToken(t, dataDir), id); err != nil {
		t.Fatal(err)
	}
	out, _ = agora(t, 0, "log", "verify", "--url", url, "--pin", pin)
	if !strings.Contains(out, "pinned its key") || !strings.Contains(out, "tree head of 2 entries") || !strings.Contains(out, "2 signatures verified") {
		t.Fatalf("first verify printed %q", out)
	}

	out, _ = agora(t, 0, "operator", "rename", "Ada Scout", "--keys", keys, "--url", url)
	if !strings.Contains(out, "name: Ada Scout\n") {
		t.Fatalf("rename printed %q", out)
	}
	oldKey, _ := hybrid.ReadKeyFile(keyFile)
	out, _ = agora(t, 0, "operator", "rotate", "--keys", keys, "--url", url)
	newKey, err := hybrid.ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	newDigest := protocol.KeyDigest(newKey.Public().String())
	if !strings.Contains(out, "key_digest: "+newDigest) || newKey.Public().String() == oldKey.Public().String() {
		t.Fatalf("rotate printed %q; the key file holds %s", out, newDigest)
	}
	retired := keyFile + ".retired-" + strings.TrimPrefix(protocol.KeyDigest(oldKey.Public().String()), "sha256:")[:16]
	if k, err := hybrid.ReadKeyFile(retired); err != nil || k.Public().String() != oldKey.Public().String() {
		t.Fatalf("the retired key is not kept in %s: %v", retired, err)
	}
	if _, err := os.Stat(keyFile + ".next"); !os.IsNotExist(err) {
		t.Fatalf("the .next file is left: %v", err)
	}
	// The old key signs nothing now: rotating again with it is refused.
	agora(t, 1, "operator", "rotate", "--key", retired, "--keys", keys, "--url", url)
	out, _ = agora(t, 0, "operator", "show", id, "--url", url)
	if !strings.Contains(out, `"name": "Ada Scout"`) || !strings.Contains(out, newDigest) {
		t.Fatalf("the record after rename and rotation: %s", out)
	}

	out, _ = agora(t, 0, "log", "verify", "--url", url, "--pin", pin)
	if !strings.Contains(out, "extends the one of 2") || !strings.Contains(out, "tree head of 3 entries") {
		t.Fatalf("second verify printed %q", out)
	}
	out, _ = agora(t, 0, "log", "show", "--url", url, "--pin", pin)
	if !strings.Contains(out, "size: 3\n") || !strings.Contains(out, "log: log:") {
		t.Fatalf("log show printed %q", out)
	}
	out, _ = agora(t, 0, "log", "entries", "--url", url, "--start", "0", "--end", "2")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.Contains(lines[0], `"index":0`) || !strings.Contains(lines[1], `"type":"identity"`) {
		t.Fatalf("log entries printed %q", out)
	}
	out, _ = agora(t, 0, "log", "entries", "--url", url, "--latest", "1")
	if !strings.Contains(out, `"type":"key_rotation"`) || strings.Count(out, "\n") != 1 {
		t.Fatalf("log entries --latest 1 printed %q", out)
	}
	agora(t, 2, "log", "entries", "--url", url, "--latest", "1", "--start", "0")

	// A pin of another log's key: the node now serves a different log.
	good, err := os.ReadFile(pin)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	json.Unmarshal(good, &p)
	other, _ := hybrid.GenerateKey()
	p["public_key"] = other.Public().String()
	p["log"] = protocol.LogID(other.Public().String())
	tampered, _ := json.Marshal(p)
	os.WriteFile(pin, tampered, 0o644)
	_, errOut = agora(t, 1, "log", "verify", "--url", url, "--pin", pin)
	if !strings.Contains(errOut, "not the one pinned") {
		t.Fatalf("a pin of another key: %q", errOut)
	}
	agora(t, 1, "log", "show", "--url", url, "--pin", pin)

	// A pinned head the log never signed.
	json.Unmarshal(good, &p)
	head := p["tree_head"].(map[string]any)
	head["root"] = strings.Repeat("ab", 32)
	tampered, _ = json.Marshal(p)
	os.WriteFile(pin, tampered, 0o644)
	agora(t, 1, "log", "verify", "--url", url, "--pin", pin)

	// No node there: the check could not finish.
	os.WriteFile(pin, good, 0o644)
	agora(t, 2, "log", "verify", "--url", "http://127.0.0.1:1", "--pin", pin)
	agora(t, 2, "log", "verify", "extra", "--url", url, "--pin", pin)
}

// TestBench runs a short bench against a node in-process.
func TestBench(t *testing.T) {
	url, dataDir := startNode(t)
	agora(t, 2, "bench", "append", "--url", url)
	out, _ := agora(t, 0, "bench", "append", "--url", url, "--data", dataDir,
		"--duration", "1s", "--read-duration", "200ms", "--concurrency", "4", "--operators", "120",
		"--publish-duration", "1s", "--authors", "3", "--contributions", "100")
	for _, want := range []string{"register", "append", "publish", "proof reads", "p99"} {
		if !strings.Contains(out, want) {
			t.Fatalf("bench printed no %q:\n%s", want, out)
		}
	}
	// Every contribution is admitted, or the phase ran out of time.
	if m := regexp.MustCompile(`(?m)^\s*publish\s+(\d+)\s.*\s(\S+)\s*$`).FindStringSubmatch(out); m == nil || m[2] != "0" || m[1] == "0" {
		t.Fatalf("bench's publish phase admitted nothing or failed some:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^\s*register\s+120\s`).MatchString(out) {
		t.Fatalf("bench did not register its 120 operators (more than the 50 one address may):\n%s", out)
	}
}
