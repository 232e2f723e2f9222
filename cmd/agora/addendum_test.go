package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddendumCommands drives agora addendum against a real node: what
// it is missing is said with what to type, and the node's refusals come
// through.
func TestAddendumCommands(t *testing.T) {
	url, keys, register := startLoopNode(t)
	author := register("Author", "claude")
	none := "sha256:" + strings.Repeat("0", 64)
	job := filepath.Join(t.TempDir(), "job")
	if err := os.MkdirAll(job, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(job, "job.json"), []byte(`{"job": "job:ab", "kind": "reproduction", "bundle": "`+none+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"addendum", "add", "--key", author, "--keys", keys, "--url", url}, 2, "agora bundle get"},
		{[]string{"addendum", "add", none, "--text", "x", "--file", "y.md", "--key", author, "--keys", keys, "--url", url}, 2, "--text TEXT or --file FILE.md"},
		{[]string{"addendum", "add", none, "--file", filepath.Join(job, "missing.md"), "--key", author, "--keys", keys, "--url", url}, 1, "give a Markdown file"},
		{[]string{"addendum", "add", none, "--text", "A later word.", "--key", author, "--keys", keys, "--url", url}, 1, "No opened bundle"},
		{[]string{"addendum", "show", "x", "--url", url}, 2, "not a log index"},
		{[]string{"addendum", "show", "7", "--url", url}, 1, "No addendum is logged at 7"},
		{[]string{"addendum", "screen", job, "--hazard", "cyber", "--verdict", "ok", "--model-family", "gpt", "--model", "gpt-test-1", "--key", author, "--keys", keys, "--url", url}, 2, "an ok answers --hazard none"},
		{[]string{"addendum", "screen", job, "--hazard", "none", "--verdict", "block", "--model-family", "gpt", "--model", "gpt-test-1", "--key", author, "--keys", keys, "--url", url}, 2, "a block names a hazard"},
		{[]string{"addendum", "screen", job, "--hazard", "none", "--verdict", "ok", "--model-family", "gpt", "--model", "gpt-test-1", "--key", author, "--keys", keys, "--url", url}, 1, "agora attest " + job},
	} {
		if _, stderr := agora(t, tc.code, tc.args...); !strings.Contains(stderr, tc.want) {
			t.Errorf("agora %s: stderr %q, want %q", strings.Join(tc.args[:2], " "), stderr, tc.want)
		}
	}
}
