package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/ledgertest"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/librarytest"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/memory/engine/enginetest"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/store/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// reopen closes s, a *sqlite.Store as a suite holds it, and opens its
// database again.
func reopen(t *testing.T, s any) *sqlite.Store {
	t.Helper()
	st := s.(*sqlite.Store)
	path := st.Path()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if table := os.Getenv(forgetEnv); table != "" {
		forget(t, path, table)
	}
	return open(t, path)
}

func newStore(t *testing.T) *sqlite.Store { return open(t, filepath.Join(t.TempDir(), "agora.db")) }

// TestConformance runs the core's suite and every face's against the
// driver.
func TestConformance(t *testing.T) {
	t.Run("Core", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) },
			storetest.WithReopen(func(t *testing.T, s store.Store) store.Store { return reopen(t, s) }))
	})
	t.Run("Ledger", func(t *testing.T) {
		ledgertest.Run(t, func(t *testing.T) ledger.Store { return newStore(t) },
			ledgertest.WithReopen(func(t *testing.T, s ledger.Store) ledger.Store { return reopen(t, s) }))
	})
	t.Run("Library", func(t *testing.T) {
		librarytest.Run(t, func(t *testing.T) library.Store { return newStore(t) },
			librarytest.WithReopen(func(t *testing.T, s library.Store) library.Store { return reopen(t, s) }))
	})
	t.Run("Memory", func(t *testing.T) {
		enginetest.Run(t, func(t *testing.T) engine.Store { return newStore(t) },
			enginetest.WithReopen(func(t *testing.T, s engine.Store) engine.Store { return reopen(t, s) }))
	})
}

// benchStore is a store for a benchmark, closed when it ends.
func benchStore(b *testing.B) *sqlite.Store {
	s, err := sqlite.Open(b.Context(), sqlite.Config{Path: filepath.Join(b.TempDir(), "agora.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkPutAndBind is the store's share of one append, each commit
// fsync'd.
func BenchmarkPutAndBind(b *testing.B) { storetest.BenchPutAndBind(b, benchStore(b)) }

// BenchmarkPutAndBindParallel is BenchmarkPutAndBind from 64 goroutines:
// the writer shares their commits.
func BenchmarkPutAndBindParallel(b *testing.B) { storetest.BenchPutAndBindParallel(b, benchStore(b)) }

// BenchmarkTake is one rate-limit take, which skips the fsync.
func BenchmarkTake(b *testing.B) { storetest.BenchTake(b, benchStore(b)) }

// BenchmarkMemoryQuietChanges is the read an engine makes before every
// event to follow other processes' record writes, when there were none.
func BenchmarkMemoryQuietChanges(b *testing.B) { enginetest.BenchQuietChanges(b, benchStore(b)) }
