package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes pins the exit status of each command, which scripts outside
// this repository rely on: 0 for success, 1 when the input was refused (not
// I-JSON, invalid claims, a path rule broken, a receipt that does not
// verify), 2 when the command line itself was wrong.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goodClaims := `[{"local_id":"C1","type":"theoretical","core":true,"statement":"s","evidence":[],"depends_on":[],"confidence":0.5}]`
	write("good/claims.json", goodClaims)
	write("good/manifest.json", `{}`)
	write("bad/claims.json", `[{"local_id":"C1"}]`)
	write("badpath/Code/x.py", "")
	junk := write("junk.json", `{"log": 1}`)

	for _, tc := range []struct {
		args  []string
		stdin string
		want  int
	}{
		{[]string{"help"}, "", 0},
		{nil, "", 2},
		{[]string{"frobnicate"}, "", 2},
		{[]string{"canonical"}, `{"b":1,"a":2}`, 0},
		{[]string{"canonical"}, `{"a":1,"a":2}`, 1},
		{[]string{"canonical", "x"}, `{}`, 2},
		{[]string{"claims", "ids", filepath.Join(dir, "good"), "--json"}, "", 0},
		{[]string{"claims", "ids", filepath.Join(dir, "bad"), "--json"}, "", 1},
		{[]string{"claims", "ids"}, "", 2},
		{[]string{"bundle", "hash", filepath.Join(dir, "good"), "--json"}, "", 0},
		{[]string{"bundle", "hash", filepath.Join(dir, "badpath")}, "", 1},
		{[]string{"bundle", "hash"}, "", 2},
		{[]string{"receipt", "verify", junk, "--log-key", "ed25519-ml-dsa-44:" + strings.Repeat("00", 1344)}, "", 1},
		{[]string{"receipt", "verify", junk}, "", 2},
		{[]string{"key", "new", "--keys", filepath.Join(dir, "keys")}, "", 0},
		{[]string{"key", "show", "op:" + strings.Repeat("0", 64), "--keys", filepath.Join(dir, "keys")}, "", 1},
		{[]string{"key", "new", "--bogus"}, "", 2},
	} {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr}
		if got := run(context.Background(), tc.args, e); got != tc.want {
			t.Errorf("agora %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(tc.args, " "), got, tc.want, stdout.String(), stderr.String())
		}
		if tc.want != 0 && stderr.Len()+stdout.Len() == 0 {
			t.Errorf("agora %s: failed without saying why", strings.Join(tc.args, " "))
		}
	}
}
