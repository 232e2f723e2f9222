package translog

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	"golang.org/x/mod/sumdb/note"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	// Tessera logs through klog to stderr; keep test output readable.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	code := m.Run()
	closeBenchLog()
	os.Exit(code)
}

// testKeys returns fixed keys, so a child process makes the same ones.
func testKeys(t testing.TB) (*hybrid.PrivateKey, ed25519.PrivateKey) {
	t.Helper()
	secret := sha256.Sum256([]byte("translog test log key"))
	more := sha256.Sum256([]byte("translog test log key, ML-DSA half"))
	logKey, err := hybrid.NewPrivateKey(append(secret[:], more[:]...))
	if err != nil {
		t.Fatal(err)
	}
	seed := sha256.Sum256([]byte("translog test checkpoint key"))
	return logKey, ed25519.NewKeyFromSeed(seed[:])
}

// testConfig is a Config for dir that publishes as often as Tessera allows,
// so tests run fast.
func testConfig(t testing.TB, dir string) Config {
	t.Helper()
	logKey, cpKey := testKeys(t)
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Dir:                dir,
		Origin:             origin,
		LogKey:             logKey,
		CheckpointKey:      cpKey,
		CheckpointInterval: MinCheckpointInterval,
		BatchMaxAge:        10 * time.Millisecond,
		Logger:             slog.New(slog.DiscardHandler),
	}
}

// openLog opens a log that the test closes at its end if it is still open.
func openLog(t testing.TB, cfg Config) *Log {
	t.Helper()
	l, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { l.Close(context.Background()) })
	return l
}

func closeLog(t testing.TB, l *Log) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// testLeaf returns the canonical JSON of a leaf shaped like the protocol's,
// unique for (tag, n).
func testLeaf(t testing.TB, tag string, n int) []byte {
	t.Helper()
	leaf, err := canonical.Marshal(map[string]any{
		"timestamp": "2026-10-02T12:00:00.000Z",
		"operator":  "op:" + strings.Repeat("ab", 32),
		"entry": map[string]any{
			"type":  "test",
			"tag":   tag,
			"n":     n,
			"claim": "claim:" + strings.Repeat("0f", 32),
			"sig":   "sha256:" + strings.Repeat("cd", 32),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return leaf
}

// checkHead checks what anyone can check of a published size with the
// protocol core and sumdb/note: the tree head's hybrid signature, the
// checkpoint's Ed25519 signature against the checkpoint key's vkey, and
// that both describe the same tree.
func checkHead(t testing.TB, l *Log, head tlog.TreeHead, cp []byte) {
	t.Helper()
	if err := tlog.VerifyTreeHead(head, l.PublicKey()); err != nil {
		t.Fatalf("tree head of %d: %v", head.Size, err)
	}
	if head.Log != l.LogID() {
		t.Fatalf("tree head names %s, want %s", head.Log, l.LogID())
	}
	if _, err := tlog.ParseTimestamp(head.Timestamp); err != nil || len(head.Timestamp) != len(tlog.TimestampLayout) {
		t.Fatalf("tree head timestamp %q is not ISO 8601 UTC with milliseconds", head.Timestamp)
	}
	v, err := note.NewVerifier(l.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(cp, note.VerifierList(v))
	if err != nil {
		t.Fatalf("checkpoint of %d does not verify with sumdb/note: %v\n%s", head.Size, err, cp)
	}
	want := fmt.Sprintf("%s\n%d\n%s\n", l.Origin(), head.Size, base64.StdEncoding.EncodeToString(head.Root[:]))
	if n.Text != want {
		t.Fatalf("checkpoint text %q, want %q", n.Text, want)
	}
}

// waitGoroutines waits for the goroutine count to fall to at most n.
func waitGoroutines(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines outlive Close, want at most %d:\n%s", runtime.NumGoroutine(), n, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
