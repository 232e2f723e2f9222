package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

// writeBundleFolder writes a small valid study for the operator whose key
// digest is keyDigest, with a data/ file of bigMB megabytes (binary), over
// 8 MB so that it goes ahead as an upload.
func writeBundleFolder(t *testing.T, keyDigest string, bigMB int) (dir string, big []byte) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "study")
	big = bytes.Repeat([]byte("0123456789abcdef"), (bigMB<<20)/16)
	files := map[string][]byte{
		"manifest.json": []byte(`{"operator_key_digest": "` + keyDigest + `", "fields": ["astronomy"], "license": {"prose": "CC-BY-4.0", "code": "MIT"},
 "model_families": ["claude"], "models": ["claude-test-1"], "compute": {"minutes": 5, "gpu": false},
 "hazard_screen": {"rubric": "` + hazard.Digest() + `", "model": "claude-test-1"}}`),
		"paper.md":        []byte("# Star counts\n\n## Summary\n\nThe count is {{R1.count}}.\n\n## Claims\n\nSee C1.\n\n## Methods\n\nWe counted.\n\n## Results\n\n{{R1.count}} stars.\n\n## Discussion\n\nNone.\n\n## Limitations\n\nOne night.\n\n## Provenance\n\nAn agent.\n"),
		"claims.json":     []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "Nebular star counts are reproducible", "evidence": [{"result": "R1.count", "produced_by": "code/count.py"}], "depends_on": [], "confidence": 0.9}]`),
		"results/R1.json": []byte(`{"count": 7}`),
		"code/count.py":   []byte("print(7)\n"),
		"data/sky.bin":    big,
	}
	for p, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, big
}

// TestPublishCommands publishes a study from the CLI as a user would:
// check it (its large file goes ahead with a progress bar), submit it,
// follow it until it opens, read it back with every file checked, and find
// its claim by a word it starts.
func TestPublishCommands(t *testing.T) {
	t.Setenv("AGORA_HOME", t.TempDir()) // submit keeps a note of what it sealed
	url, dataDir := startNodeWith(t, node.Config{OpenAfter: 100 * time.Millisecond})
	keys, _, keyDigest := invitedCounter(t, url, dataDir)
	dir, big := writeBundleFolder(t, keyDigest, 9)

	out, stderr := agora(t, 0, "bundle", "check", dir, "--keys", keys, "--url", url)
	for _, want := range []string{"ready                yes", "free: seed", "integrity            nothing flagged"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "uploading data/sky.bin") || !strings.Contains(stderr, "100%") {
		t.Errorf("no upload progress: %s", stderr)
	}
	out, _ = agora(t, 0, "bundle", "submit", dir, "--keys", keys, "--url", url, "--json")
	var sub struct {
		Bundle string `json:"bundle"`
		Sealed int    `json:"sealed"`
		State  string `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &sub); err != nil || sub.State != "sealed" {
		t.Fatalf("submit printed %s", out)
	}
	// Submitting again says where it stands.
	_, stderr = agora(t, 0, "bundle", "submit", dir, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "the node had this bundle already") || !strings.Contains(stderr, "has it already") {
		t.Errorf("second submit: %s", stderr)
	}
	waitOpen(t, url, sub.Sealed)
	got := filepath.Join(t.TempDir(), "copy")
	out, _ = agora(t, 0, "bundle", "get", sub.Bundle, "--out", got, "--url", url)
	if !strings.Contains(out, "Nebular star counts") {
		t.Errorf("bundle get: %s", out)
	}
	if data, err := os.ReadFile(filepath.Join(got, "data", "sky.bin")); err != nil || !bytes.Equal(data, big) {
		t.Errorf("the uploaded file read back wrong: %v", err)
	}
	for _, p := range []string{"paper.md", "claims.json", "manifest.json", "signature"} {
		if _, err := os.Stat(filepath.Join(got, p)); err != nil {
			t.Errorf("bundle get wrote no %s: %v", p, err)
		}
	}
	out, _ = agora(t, 0, "claims", "search", "nebul", "--url", url)
	if !strings.Contains(out, "Nebular star counts are reproducible") {
		t.Errorf("claims search: %s", out)
	}
	out, stderr = agora(t, 0, "claims", "search", "galaxies", "--field", "astronomy", "--url", url)
	if out != "" || !strings.Contains(stderr, "no claims found") {
		t.Errorf("a search that finds nothing: %q %q", out, stderr)
	}
	claimID := regexp.MustCompile(`claim:[0-9a-f]{64}`).FindString(agoraOut(t, "claims", "search", "nebular", "--url", url))
	out, _ = agora(t, 0, "claims", "get", claimID, "--url", url)
	if !strings.Contains(out, `"statuses": [`) || !strings.Contains(out, sub.Bundle) {
		t.Errorf("claims get: %s", out)
	}
	// Bad input says what to type instead.
	_, stderr = agora(t, 2, "bundle", "submit", "--url", url)
	if !strings.Contains(stderr, "usage: agora bundle submit") {
		t.Errorf("submit without a folder: %s", stderr)
	}
	_, stderr = agora(t, 2, "sealed", "x", "--url", url)
	if !strings.Contains(stderr, "is not a log index") {
		t.Errorf("sealed x: %s", stderr)
	}
}

// invitedCounter registers the operator "Counter" in a new keys folder
// and has the node's admin invite it; it returns the folder, the
// operator's ID and its key's digest.
func invitedCounter(t *testing.T, url, dataDir string) (keys, id, keyDigest string) {
	t.Helper()
	keys = filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Counter", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	id = operatorLine.FindStringSubmatch(out)[1]
	agora(t, 0, "admin", "invite", id, "--data", dataDir, "--url", url)
	out, _ = agora(t, 0, "key", "show", id, "--keys", keys)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return keys, id, protocol.KeyDigest(lines[len(lines)-1])
}

// waitOpen waits for the bundle sealed at entry sealed to open.
func waitOpen(t *testing.T, url string, sealed int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := agora(t, 0, "sealed", itoa(sealed), "--url", url, "--json")
		if strings.Contains(out, `"state": "open"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("never opened: %s", out)
		}
	}
}

func agoraOut(t *testing.T, args ...string) string {
	t.Helper()
	out, _ := agora(t, 0, args...)
	return out
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
