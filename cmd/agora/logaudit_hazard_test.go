package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

// TestLogVerifyHazardWithdrawal runs 'agora log verify' against a real
// node whose hazard panel withdrew a sealed bundle: one of its two
// reproductions names a biological hazard, two panelists of organizations not yet involved share
// the concern, and the log records the withdrawal. The audit checks the
// withdrawal's signature, the tombstone and sealed state the node serves
// against it, and the four verifiers' hazard_concerns against the log
// (three raised the concern, one found nothing).
func TestLogVerifyHazardWithdrawal(t *testing.T) {
	t.Setenv("AGORA_HOME", t.TempDir()) // submit keeps a note of what it sealed
	url, keys, register := startLoopNode(t)
	author := register("Author", "claude")
	submitStudy(t, url, keys, author)

	jobsDir := t.TempDir()
	var hash string
	answer := func(id, family, kind, hazard string, verdict ...string) {
		t.Helper()
		out, _ := agora(t, 0, "job", "take", "--dir", jobsDir, "--model-family", family, "--model", family+"-test-1", "--key", id, "--keys", keys, "--url", url)
		m := regexp.MustCompile(`wrote (\S+): bundle/`).FindStringSubmatch(out)
		if m == nil || !strings.Contains(out, kind+" of sha256:") {
			t.Fatalf("%s took %s; want a %s", id, out, kind)
		}
		hash = regexp.MustCompile(`of (sha256:[0-9a-f]{64})`).FindStringSubmatch(out)[1]
		if err := os.WriteFile(filepath.Join(m[1], "evidence", "report.md"), []byte("# Report\n\nWhat I checked, and found.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"attest", m[1], "--hazard", hazard, "--model-family", family, "--model", family + "-test-1",
			"--key", id, "--keys", keys, "--url", url}, verdict...)
		agora(t, 0, args...)
	}
	answer(register("Checker", "gpt"), "gpt", "reproduction", "biological", "--verdict", "C1=reproduced")
	answer(register("Second", "gemini"), "gemini", "reproduction", "none", "--verdict", "C1=reproduced")
	answer(register("Panelist A", "gemini"), "gemini", "hazard_review", "biological")
	answer(register("Panelist B", "gpt"), "gpt", "hazard_review", "biological")

	c := client.New(url, nil)
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, err := c.Bundle(context.Background(), hash)
		if err == nil && b["state"] == "withdrawn" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bundle after its panel shared the concern: %v, %v", b, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	out, _ := agora(t, 0, "log", "verify", "--url", url, "--pin", filepath.Join(t.TempDir(), "pin"))
	for _, want := range []string{
		"withdrawal 1",
		"the node serves 1 withdrawn bundles as their withdrawals say",
		"4 operators' hazard_concerns agree with the concerns the log holds",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// startLoopNode starts a node for the verification loop (no timer opens
// bundles, no qualification, no canaries) and returns its URL, a keys
// folder, and register, which registers an operator of a model family
// there and has the admin invite it, returning its ID.
func startLoopNode(t *testing.T) (url, keys string, register func(name, family string) string) {
	t.Helper()
	url, dataDir := startNodeWith(t, node.Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	keys = filepath.Join(t.TempDir(), "keys")
	return url, keys, func(name, family string) string {
		t.Helper()
		out, _ := agora(t, 0, "register", "--name", name, "--model-family", family, "--model", family+"-test-1", "--keys", keys, "--url", url)
		id := operatorLine.FindStringSubmatch(out)[1]
		agora(t, 0, "admin", "invite", id, "--data", dataDir, "--url", url)
		return id
	}
}

// submitStudy submits a one-claim study by author, sealed for its round.
func submitStudy(t *testing.T, url, keys, author string) {
	t.Helper()
	out, _ := agora(t, 0, "key", "show", author, "--keys", keys)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	study, _ := writeBundleFolder(t, protocol.KeyDigest(lines[len(lines)-1]), 0)
	agora(t, 0, "bundle", "submit", study, "--key", author, "--keys", keys, "--url", url)
}
