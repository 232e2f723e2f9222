package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func pragma(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	var v string
	if err := db.QueryRowContext(t.Context(), "PRAGMA "+name).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

// TestPragmas checks what the durability contract rests on: WAL, commits
// fsync'd (synchronous=FULL, 2), foreign keys, a busy timeout, read-only
// readers, and a writer that is back at FULL after a Take.
func TestPragmas(t *testing.T) {
	s, err := Open(t.Context(), Config{Path: filepath.Join(t.TempDir(), "agora.db"), BusyTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Take(t.Context(), "b", 1, time.Minute, time.Now()); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"journal_mode": "wal", "synchronous": "2", "temp_store": "2", "wal_autocheckpoint": strconv.Itoa(walBackstop), "foreign_keys": "1", "busy_timeout": "3000", "user_version": strconv.Itoa(len(migrations)),
	} {
		if got := pragma(t, s.w, name); got != want {
			t.Errorf("writer: PRAGMA %s = %s, want %s", name, got, want)
		}
	}
	if got := pragma(t, s.r, "query_only"); got != "1" {
		t.Errorf("reader: PRAGMA query_only = %s, want 1", got)
	}
	if _, err := s.r.ExecContext(context.Background(), "DELETE FROM names"); err == nil {
		t.Error("a reader connection wrote")
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, path := range []string{"", "a?b", filepath.Join(t.TempDir(), "missing", "agora.db")} {
		if s, err := Open(t.Context(), Config{Path: path}); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
	// A database from a newer program is refused, not downgraded.
	path := filepath.Join(t.TempDir(), "agora.db")
	s, err := Open(t.Context(), Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(t.Context(), "PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err := Open(t.Context(), Config{Path: path}); err == nil {
		s.Close()
		t.Error("Open of a newer schema succeeded")
	}
}

func TestClose(t *testing.T) {
	s, err := Open(t.Context(), Config{Path: filepath.Join(t.TempDir(), "agora.db")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := s.PutSigned(t.Context(), "sha256:00", []byte("{}"), nil); !errors.Is(err, ErrClosed) {
		t.Errorf("a write after Close: %v, want ErrClosed", err)
	}
}

// TestCheckpointer checks that committed pages reach the database file
// while the store runs, well before the writer's own checkpoint at
// walBackstop pages would copy them.
func TestCheckpointer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agora.db")
	s, err := Open(t.Context(), Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	time.Sleep(2 * checkpointPause) // the migrations' pages copied
	before := size()
	blob := bytes.Repeat([]byte("x"), 8<<10)
	for i := range 200 { // about 400 pages, far below walBackstop
		if err := s.PutSigned(t.Context(), fmt.Sprintf("d%d", i), blob, nil); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); size() < before+1<<20; {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is %d bytes, %d before 1.6 MB were committed: nothing checkpointed", size(), before)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
