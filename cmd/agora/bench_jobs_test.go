package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agora-node/agora/node"
)

// TestBenchJobs runs agora bench jobs end to end at a small scale against
// a node in-process: its operators register, are invited, pass the
// qualification test and seal bundles, then take jobs and attest through
// signed HTTP requests; every job handed out is answered and admitted,
// and the node's log verifies afterwards.
func TestBenchJobs(t *testing.T) {
	url, dataDir := startNodeWith(t, node.Config{FreeBundles: node.FreeAll})
	if out, _ := agora(t, 0, "bench", "jobs", "--help"); !strings.Contains(out, "usage: agora bench jobs") {
		t.Fatalf("bench jobs --help printed:\n%s", out)
	}
	agora(t, 2, "bench", "jobs", "--url", url)                             // no admin token
	agora(t, 2, "bench", "jobs", "--operators", "3", "--open-jobs", "200") // too few authors for 100 bundles
	agora(t, 2, "bench", "jobs", "--families", "claude")                   // one family verifies nobody's work

	out, _ := agora(t, 0, "bench", "jobs", "--url", url, "--data", dataDir, "--operators", "24", "--open-jobs", "60",
		"--runs", "2", "--concurrency", "8", "--attest-concurrency", "16", "--families", "claude,gpt,gemini")
	for _, want := range []string{"qualify", "seal", "take 1", "attest 2", "jobs handed out: median", "attestations admitted: median", "p95"} {
		if !strings.Contains(out, want) {
			t.Fatalf("bench printed no %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "30 bundles sealed") {
		t.Fatalf("bench did not seal its 30 bundles:\n%s", out)
	}
	// Each run hands most operators a job (24 operators, 60 open jobs and
	// what each run's rounds add), any left without one answered {"job":
	// null}, and every job handed out is answered and admitted.
	row := regexp.MustCompile(`(?m)^\s*(take|attest) (\d)\s+\d+\s+(\d+)(?:\s+\S+){5}\s+(.*?)\s*$`)
	rows := row.FindAllStringSubmatch(out, -1)
	if len(rows) != 4 {
		t.Fatalf("want 2 take and 2 attest rows:\n%s", out)
	}
	attested := 0
	for i, m := range rows {
		n, _ := strconv.Atoi(m[3])
		switch {
		case n == 0:
			t.Fatalf("%s %s: nothing done:\n%s", m[1], m[2], out)
		case m[1] == "take" && m[4] != "0" && !regexp.MustCompile(`^\d+ no job$`).MatchString(m[4]):
			t.Fatalf("take %s failed %s:\n%s", m[2], m[4], out)
		case m[1] == "attest" && (m[4] != "0" || m[3] != rows[i-1][3]):
			t.Fatalf("run %s: %s jobs handed out, %s attestations admitted, failed %s:\n%s", m[2], rows[i-1][3], m[3], m[4], out)
		case m[1] == "attest":
			attested += n
		}
	}
	// Every entry the bench made the node log verifies (exit 0): the
	// sealed bundles' and the attestations' commitments among them, as
	// answers on a sealed round are logged sealed.
	verified, _ := agora(t, 0, "log", "verify", "--url", url, "--pin", filepath.Join(t.TempDir(), "pin"))
	if want := "sealed " + strconv.Itoa(30+attested) + ")"; !strings.Contains(verified, want) {
		t.Fatalf("log verify after the bench: want %q (30 bundles and %d answers):\n%s", want, attested, verified)
	}
}
