package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
)

// TestServe starts the node on its embedded default in a fresh folder,
// stops it as SIGINT would, and starts it again on the same folder: the
// keys made on first start are kept (0600) and used again.
func TestServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	serve := func() {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		var out syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"serve", "--data", dir, "--listen", "127.0.0.1:0"}, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out})
		}()
		deadline := time.Now().Add(20 * time.Second)
		for !strings.Contains(out.String(), "agora node serving") {
			select {
			case code := <-done:
				t.Fatalf("serve exited %d before serving:\n%s", code, out.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("serve did not start:\n%s", out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("serve exited %d on shutdown:\n%s", code, out.String())
		}
	}
	serve()
	first, err := hybrid.ReadKeyFile(filepath.Join(dir, "keys", "log.key"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"keys/log.key", "keys/checkpoint.key", "keys/admin.token"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600", name, err, fi.Mode().Perm())
		}
	}
	for _, name := range []string{"state.db", "log"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	serve()
	again, err := hybrid.ReadKeyFile(filepath.Join(dir, "keys", "log.key"))
	if err != nil || again.Public().String() != first.Public().String() {
		t.Errorf("the log key changed across restarts: %v", err)
	}
	agora(t, 2, "serve", "--data", dir, "--max-body", "0")
	if _, errOut := agora(t, 2, "serve", "--data", dir, "--checkpoint-interval", "5ms"); !strings.Contains(errOut, "from 100ms to 1m0s") {
		t.Errorf("a checkpoint interval too short: %s", errOut)
	}
	agora(t, 2, "serve", "extra")
}

// syncBuffer is a bytes.Buffer the server's goroutines and the test may
// use at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
