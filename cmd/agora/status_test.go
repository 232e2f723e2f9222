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
)

// TestStatusAgreesWithTheLog takes a study through its round with the
// CLI (two reproductions, then three reviews by other organizations of
// two other families), and checks that agora status recomputes from the
// log the statuses the node serves: its claim Published, Reproduced and
// Reviewed, and every claim agreeing.
func TestStatusAgreesWithTheLog(t *testing.T) {
	url, keys, register := startLoopNode(t)
	author := register("Author", "claude")
	submitStudy(t, url, keys, author)
	jobsDir := t.TempDir()
	var hash string
	var verifiers []string
	answer := func(family, kind string, flags ...string) {
		t.Helper()
		id := register("Verifier "+kind, family)
		verifiers = append(verifiers, id)
		out, _ := agora(t, 0, "job", "take", "--dir", jobsDir, "--model-family", family, "--model", family+"-test-1", "--key", id, "--keys", keys, "--url", url)
		m := regexp.MustCompile(`wrote (\S+): bundle/`).FindStringSubmatch(out)
		if m == nil || !strings.Contains(out, kind+" of sha256:") && !(kind == "review" && strings.Contains(out, "_review of sha256:")) {
			t.Fatalf("took %s; want a %s", out, kind)
		}
		hash = regexp.MustCompile(`of (sha256:[0-9a-f]{64})`).FindStringSubmatch(out)[1]
		if err := os.WriteFile(filepath.Join(m[1], "evidence", "report.md"), []byte("# Report\n\nI ran it again and compared.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"attest", m[1], "--model-family", family, "--model", family + "-test-1", "--key", id, "--keys", keys, "--url", url}, flags...)
		agora(t, 0, args...)
	}
	answer("gpt", "reproduction", "--hazard", "none", "--verdict", "C1=reproduced")
	answer("gemini", "reproduction", "--hazard", "none", "--verdict", "C1=reproduced")
	// Which review comes first is the node's random choice.
	for _, family := range []string{"gpt", "gemini", "gpt"} {
		answer(family, "review", "--verdict", "C1=sound", "--significance", "C1=minor")
	}
	c := client.New(url, nil)
	for deadline := time.Now().Add(30 * time.Second); ; {
		b, err := c.Bundle(context.Background(), hash)
		if err == nil && b["state"] == "open" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bundle after its round: %v, %v", b, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	out, _ := agora(t, 0, "status", "--url", url)
	if !regexp.MustCompile(`claim:[0-9a-f]{64}  published reproduced reviewed\n`).MatchString(out) ||
		!strings.Contains(out, "1 claims from ") || !strings.Contains(out, "1 agree, 0 differ") {
		t.Errorf("agora status:\n%s", out)
	}
	if !regexp.MustCompile(`\n6 operators, 0 nectar events: 6 agree, 0 differ\n`).MatchString(out) {
		t.Errorf("agora status does not account for the author and the five verifiers:\n%s", out)
	}
	// The author's claim reproduced, and the reproducers' verdicts held:
	// one point of reputation each, and badges; no importance was rated,
	// so no nectar.
	got, _ := agora(t, 0, "nectar", author, "--url", url)
	for _, want := range []string{"nectar       0: published 0", "reputation   1 (claim_reproduced 1)", "limits       10 bundles, 100 attestations",
		"place        #1 over 30 days, #1 of all time", "Sound comb    1/3 stars, 1 claims of yours reproduced"} {
		if !strings.Contains(got, want) {
			t.Errorf("agora nectar: no %q in\n%s", want, got)
		}
	}
	got, _ = agora(t, 0, "nectar", verifiers[0], "--url", url)
	if !strings.Contains(got, "reputation   1 (verdict_confirmed 1)") || !strings.Contains(got, "Worker bee    1/3 stars, 1 jobs finished") {
		t.Errorf("agora nectar of a reproducer:\n%s", got)
	}
	got, _ = agora(t, 0, "leaderboard", "--url", url)
	if !strings.Contains(got, "6 ranked (all)") || !strings.Contains(got, author) {
		t.Errorf("agora leaderboard:\n%s", got)
	}
	if _, stderr := agora(t, 2, "leaderboard", "--period", "week", "--url", url); !strings.Contains(stderr, "--period is all or 30d") {
		t.Errorf("agora leaderboard --period week: %s", stderr)
	}

	claimID := regexp.MustCompile(`claim:[0-9a-f]{64}`).FindString(out)
	out, _ = agora(t, 0, "claims", "status", claimID, "--url", url)
	for _, want := range []string{claimID + ": published, reproduced, reviewed", "reproduced         yes: 2 organizations for, 0 against (needs 2)",
		"reviewed           yes: median sound", "5 checks:"} {
		if !strings.Contains(out, want) {
			t.Errorf("agora claims status: no %q in\n%s", want, out)
		}
	}
	_, stderr := agora(t, 1, "appeal", hash, "--key", author, "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "nothing_to_appeal") {
		t.Errorf("agora appeal of a reproduced claim: %s", stderr)
	}

	// A reproducer challenges the claim from the shell: without a ground
	// it is told what to give, and with the credit one reproduction earned
	// it is told the panel costs more.
	claim := regexp.MustCompile(`claim:[0-9a-f]{64}`).FindString(out)
	caseDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(caseDir, "report.md"), []byte("# Report\n\nThe total is 89.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr = agora(t, 2, "challenge", claim, "--evidence", caseDir, "--key", verifiers[0], "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "give --ground") {
		t.Errorf("agora challenge without --ground: %s", stderr)
	}
	_, stderr = agora(t, 1, "challenge", claim, "--ground", "counterexample", "--evidence", caseDir, "--key", verifiers[0], "--keys", keys, "--url", url)
	if !strings.Contains(stderr, "The panel costs 3 credits") || !strings.Contains(stderr, "verify_first") {
		t.Errorf("agora challenge short of credit: %s", stderr)
	}
}
