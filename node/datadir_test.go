package node

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/translog"
)

func TestDataFolderSharedRefused(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	cfg := Config{DataDir: dir, CheckpointInterval: translog.MinCheckpointInterval}
	if _, err := New(context.Background(), cfg); !errors.Is(err, ErrSharedData) || !strings.Contains(err.Error(), "chmod 700") {
		t.Fatalf("New on a 0750 folder: %v; want ErrSharedData with what to do", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused folder was written to: %v", entries)
	}
	cfg.AllowSharedData = true
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New with AllowSharedData: %v", err)
	}
	n.Close(context.Background())
}

func TestDataFolderPrivateFiles(t *testing.T) {
	t.Parallel()
	n, srv := testNodeOn(t, Config{}) // SQLite: the test reads state.db's mode
	registerOperator(t, srv.URL, "Scout")
	dir := n.cfg.DataDir
	for _, name := range []string{"state.db", "state.db-wal", "keys/admin.token", "keys/log.key", "keys/checkpoint.key", "keys/upload.key"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %04o; want its owner's alone", name, perm)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("data folder mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
}

func TestAdminTokenChecked(t *testing.T) {
	t.Parallel()
	for _, token := range []string{"x", "0123456789abcdef0123456789abcdef", "abcdefghijklmnopqrstuvwxyz0123456789", "has space" + strings.Repeat("a", 60)} {
		if err := CheckAdminToken(token); err == nil {
			t.Errorf("CheckAdminToken(%q) = nil; want refused", token)
		}
	}
	for _, token := range []string{strings.Repeat("0f", 32), "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4"} {
		if err := CheckAdminToken(token); err != nil {
			t.Errorf("CheckAdminToken(%q) = %v; want accepted", token, err)
		}
	}
	if _, err := New(context.Background(), Config{DataDir: dataDir(t), AdminToken: "short"}); err == nil || !strings.Contains(err.Error(), "AdminToken") {
		t.Errorf("New with a short AdminToken: %v; want refused", err)
	}

	// A kept token that others can read, or that is too short, stops the
	// node from starting rather than opening the admin routes to them.
	dir := dataDir(t)
	path := AdminTokenPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("0f", 32)), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644)
	cfg := Config{DataDir: dir, CheckpointInterval: translog.MinCheckpointInterval}
	if _, err := New(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("New with a 0644 admin token: %v; want refused", err)
	}
	if err := os.WriteFile(path, []byte("1"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if _, err := New(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "fewer than 32") {
		t.Errorf("New with a 1-character admin token: %v; want refused", err)
	}
}

// dataDir is a data folder for a test's node: one New makes, so 0700
// (t.TempDir's own folders are 0755, which New refuses).
func dataDir(t testing.TB) string {
	return filepath.Join(t.TempDir(), "data")
}

// TestStateRefused checks Config.State: anything but "" or a postgres://
// URL is refused, saying what it takes, without the password it held; an
// unreachable database fails New rather than start without its state.
func TestStateRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ state, want string }{
		{"mysql://agora:hunter2@127.0.0.1/agora", "postgres:// URL"},
		{"state.db", "postgres:// URL"},
		{"host=127.0.0.1 password=hunter2", "postgres:// URL"},
		{"postgres://agora:hunter2@127.0.0.1:1/agora?sslmode=disable&connect_timeout=5", "connect"},
	} {
		dir := filepath.Join(t.TempDir(), "data")
		_, err := New(context.Background(), Config{DataDir: dir, State: tc.state, CheckpointInterval: translog.MinCheckpointInterval})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("New with state %q: %v; want an error saying %q, without the password", tc.state, err, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "state.db")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("New with state %q made state.db: %v", tc.state, err)
		}
	}
}
