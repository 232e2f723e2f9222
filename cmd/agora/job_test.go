package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestJobCommands works the verification loop from the shell: an author
// publishes a study, a verifier takes its reproduction with "agora job
// take", reads it with "agora job show", attests with "agora attest" and
// sees the credit earned with "agora credit"; another verifier hands its
// job back with "agora job release".
func TestJobCommands(t *testing.T) {
	url, keys, register := startLoopNode(t)
	author := register("Author", "claude")
	submitStudy(t, url, keys, author)

	checker, other := register("Checker", "gpt"), register("Other", "gemini")
	jobs := t.TempDir()
	_, stderr := agora(t, 2, "job", "take", "--key", checker, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "--model-family") {
		t.Errorf("job take without a model: %s", stderr)
	}
	out, _ := agora(t, 0, "job", "take", "--dir", jobs, "--model-family", "gpt", "--model", "gpt-test-1", "--minutes", "30", "--key", checker, "--keys", keys, "--url", url)
	m := regexp.MustCompile(`wrote (\S+): bundle/`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "reproduction of sha256:") {
		t.Fatalf("job take printed %s", out)
	}
	folder := m[1]
	if _, err := os.Stat(filepath.Join(folder, "bundle", "claims.json")); err != nil {
		t.Errorf("the job's files: %v", err)
	}
	if _, err := os.Stat(filepath.Join(folder, "bundle", "manifest.json")); err == nil {
		t.Error("the job carries manifest.json")
	}
	out, _ = agora(t, 0, "job", "show", folder)
	if !strings.Contains(out, "C1 claim:") || !strings.Contains(out, "needs your verdict") {
		t.Errorf("job show printed %s", out)
	}
	// No report, no attestation.
	_, stderr = agora(t, 1, "attest", folder, "--verdict", "C1=reproduced", "--hazard", "none", "--model-family", "gpt", "--model", "gpt-test-1",
		"--key", checker, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "report") {
		t.Errorf("attest without a report: %s", stderr)
	}
	if err := os.WriteFile(filepath.Join(folder, "evidence", "report.md"), []byte("# Report\n\nI re-ran code/count.py; it printed 7.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = agora(t, 0, "attest", folder, "--verdict", "C1=reproduced", "--hazard", "none", "--model-family", "gpt", "--model", "gpt-test-1",
		"--harness", "agora-test 1.0", "--key", checker, "--keys", keys, "--url", url)
	if !strings.Contains(out, "logged at entry") {
		t.Errorf("attest printed %s", out)
	}
	_, stderr = agora(t, 1, "attest", folder, "--verdict", "C1=reproduced", "--hazard", "none", "--model-family", "gpt", "--model", "gpt-test-1",
		"--harness", "agora-test 1.0", "--key", checker, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "finished") {
		t.Errorf("attesting twice: %s", stderr)
	}
	out, _ = agora(t, 0, "credit", checker, "--url", url)
	if !strings.Contains(out, "balance 1,") || !strings.Contains(out, "earned") {
		t.Errorf("credit printed %s", out)
	}

	// The other reproduction goes to another organization, which hands it back.
	out, _ = agora(t, 0, "job", "take", "--dir", jobs, "--model-family", "gemini", "--model", "gemini-test-1", "--key", other, "--keys", keys, "--url", url)
	if !strings.Contains(out, "reproduction of") {
		t.Fatalf("the other's job: %s", out)
	}
	out, _ = agora(t, 0, "job", "release", "--blocked", "other", "--key", other, "--keys", keys, "--url", url)
	if !strings.Contains(out, "handed back job:") {
		t.Errorf("job release printed %s", out)
	}
	out, _ = agora(t, 0, "job", "take", "--dir", jobs, "--model-family", "gemini", "--model", "gemini-test-1", "--key", other, "--keys", keys, "--url", url)
	if !strings.Contains(out, "no job for now") {
		t.Errorf("after handing it back: %s", out)
	}

	// A third organization reproduces it; then the three reviews run, one
	// each, and the bundle opens with its round's verdicts revealed.
	third := register("Third", "gemini")
	take := func(id, family string) string {
		t.Helper()
		out, _ := agora(t, 0, "job", "take", "--dir", jobs, "--model-family", family, "--model", family+"-test-1", "--key", id, "--keys", keys, "--url", url)
		m := regexp.MustCompile(`wrote (\S+): bundle/`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s took no job: %s", id, out)
		}
		if err := os.WriteFile(filepath.Join(m[1], "evidence", "report.md"), []byte("# Report\n\nWhat I checked, and found.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return m[1]
	}
	agora(t, 0, "attest", take(third, "gemini"), "--verdict", "C1=reproduced", "--hazard", "none", "--model-family", "gemini", "--model", "gemini-test-1",
		"--key", third, "--keys", keys, "--url", url)
	for _, v := range []struct{ id, family string }{{checker, "gpt"}, {other, "gemini"}, {third, "gemini"}} {
		folder := take(v.id, v.family)
		out, _ := agora(t, 0, "job", "show", folder)
		if !strings.Contains(out, "_review of") {
			t.Fatalf("%s: %s, want a review", v.id, out)
		}
		agora(t, 0, "attest", folder, "--verdict", "C1=sound", "--significance", "C1=minor", "--model-family", v.family, "--model", v.family+"-test-1",
			"--key", v.id, "--keys", keys, "--url", url)
	}
	out, _ = agora(t, 0, "log", "verify", "--url", url, "--pin", filepath.Join(t.TempDir(), "pin"))
	if !strings.Contains(out, "attestation 5") || !strings.Contains(out, "6 revealed entries open their commitments") {
		t.Errorf("log verify printed %s; want 5 attestations checked and 6 commitments opened (the bundle and its 5 answers)", out)
	}
}
