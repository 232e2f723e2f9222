package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/snapshot"
)

// TestSnapshotCommands publishes a study on a real node, has the node's
// admin take today's snapshot, downloads it with agora snapshot get, and
// has agora snapshot verify recompute it from the node's public routes
// and find it the same byte for byte. A copy with one byte flipped, and
// one whose record was changed and gzipped again, are caught, the second
// with its line and claim named.
func TestSnapshotCommands(t *testing.T) {
	url, dataDir, id := openStudy(t)

	today := time.Now().UTC().Format(time.DateOnly)
	take := func() (int, map[string]any) {
		req, _ := http.NewRequest("POST", url+"/api/v1/admin/snapshots/"+today, nil)
		req.Header.Set("Authorization", "Bearer "+adminToken(t, dataDir))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		body, _ := io.ReadAll(resp.Body)
		json.Unmarshal(body, &v)
		return resp.StatusCode, v
	}
	code, listed := take()
	if code != http.StatusCreated || listed["claims"] != 1.0 || listed["file"] != "/api/v1/snapshots/"+today {
		t.Fatalf("taking today's snapshot: %d %v", code, listed)
	}
	if again, v := take(); again != http.StatusOK || v["digest"] != listed["digest"] {
		t.Fatalf("taking it again: %d %v", again, v)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, today+".jsonl.gz")
	out, _ := agora(t, 0, "snapshot", "get", today, "-o", file, "--url", url)
	if !strings.Contains(out, "wrote "+file+": 1 claims") || !strings.Contains(out, listed["digest"].(string)) {
		t.Errorf("snapshot get: %s", out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	records := string(gunzipped(t, data))
	if !strings.Contains(records, `"statement":"Nebular star counts are reproducible"`) || !strings.Contains(records, `"operator":"`+id+`"`) {
		t.Errorf("the snapshot's record: %s", records)
	}
	out, _ = agora(t, 0, "snapshot", "verify", file, "--url", url)
	if !strings.Contains(out, "byte for byte: 1 claims") {
		t.Errorf("snapshot verify: %s", out)
	}

	// One byte flipped in the middle of the gzip stream.
	tampered := bytes.Clone(data)
	tampered[len(tampered)/2] ^= 0x01
	bad := filepath.Join(dir, "flipped.jsonl.gz")
	if err := os.WriteFile(bad, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr := agora(t, 1, "snapshot", "verify", bad, "--date", today, "--url", url)
	if !strings.Contains(out, "differs from the snapshot of "+today) || !strings.Contains(out, "byte "+itoa(len(tampered)/2)) ||
		!strings.Contains(stderr, "is not the snapshot of "+today) {
		t.Errorf("a flipped byte: %s %s", out, stderr)
	}
	// A record changed by one byte and gzipped again, as a copy edited
	// on purpose would be: its line and claim are named.
	changed := strings.Replace(records, "reproducible", "reproducibly", 1)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, snapshot.Level)
	zw.Write([]byte(changed))
	zw.Close()
	if err := os.WriteFile(bad, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	claimID := regexp.MustCompile(`claim:[0-9a-f]{64}`).FindString(records)
	out, _ = agora(t, 1, "snapshot", "verify", bad, "--date", today, "--url", url)
	if !strings.Contains(out, "line 1 ("+claimID+"): the record's statement is not the one the log gives") || !strings.Contains(out, "reproducibly") {
		t.Errorf("a changed record: %s", out)
	}

	// Bad input says what to type instead.
	_, stderr = agora(t, 2, "snapshot", "get", "2026-13-01", "--url", url)
	if !strings.Contains(stderr, `"2026-13-01" is not a date`) || !strings.Contains(stderr, "usage: agora snapshot get") {
		t.Errorf("a bad date: %s", stderr)
	}
	_, stderr = agora(t, 2, "snapshot", "get", "2001-01-01", "--url", url)
	if !strings.Contains(stderr, "no snapshot of 2001-01-01") || !strings.Contains(stderr, "/api/v1/snapshots") {
		t.Errorf("an unknown date: %s", stderr)
	}
	_, stderr = agora(t, 2, "snapshot", "verify", filepath.Join(dir, "copy.gz"), "--url", url)
	if !strings.Contains(stderr, "add --date") {
		t.Errorf("a file without a date: %s", stderr)
	}
}

func gunzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
