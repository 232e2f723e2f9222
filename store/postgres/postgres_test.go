package postgres_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/ledgertest"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/librarytest"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/memory/engine/enginetest"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/store/storetest"
)

// newStore opens a store in a schema of its own, dropped at the test's
// end.
func newStore(t *testing.T) *postgres.Store {
	t.Helper()
	return open(t, pgtest.DSN(t), pgtest.Schema(t))
}

func open(t *testing.T, dsn, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), postgres.Config{DSN: dsn, Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// reopen closes s, a *postgres.Store as a suite holds it, and opens its
// schema again.
func reopen(t *testing.T, s any) *postgres.Store {
	t.Helper()
	st := s.(*postgres.Store)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return open(t, pgtest.DSN(t), st.Schema())
}

// TestConformance runs the core's suite and every face's against the
// driver.
func TestConformance(t *testing.T) {
	pgtest.DSN(t) // skips (or, under CI, fails) here, once, without a database
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

// twoStores is two stores on one schema, as two node processes on one
// database hold them: writes alternate between them, so the suites'
// racing writers race across the two pools of connections, whose only
// coordination is the database's.
type twoStores struct {
	*postgres.Store
	other *postgres.Store
	n     atomic.Int64
}

func newTwoStores(t *testing.T) *twoStores {
	schema := pgtest.Schema(t)
	return &twoStores{Store: open(t, pgtest.DSN(t), schema), other: open(t, pgtest.DSN(t), schema)}
}

// next is the store the next write goes to.
func (s *twoStores) next() *postgres.Store {
	if s.n.Add(1)%2 == 0 {
		return s.other
	}
	return s.Store
}

func (s *twoStores) PutSigned(ctx context.Context, digest string, signed, leaf []byte) error {
	return s.next().PutSigned(ctx, digest, signed, leaf)
}

func (s *twoStores) BindIndex(ctx context.Context, index int64, digest string) error {
	return s.next().BindIndex(ctx, index, digest)
}

func (s *twoStores) CreateOperator(ctx context.Context, op store.NewOperator) (store.Operator, error) {
	return s.next().CreateOperator(ctx, op)
}

func (s *twoStores) RotateKey(ctx context.Context, r store.Rotation) (store.Operator, error) {
	return s.next().RotateKey(ctx, r)
}

func (s *twoStores) AddIdentity(ctx context.Context, id store.Identity) (store.Identity, error) {
	return s.next().AddIdentity(ctx, id)
}

func (s *twoStores) Take(ctx context.Context, bucket string, limit int, window time.Duration, now time.Time) (bool, time.Duration, error) {
	return s.next().Take(ctx, bucket, limit, window, now)
}

func (s *twoStores) AddContribution(ctx context.Context, c library.NewContribution, check func(context.Context, library.Graph) error) (library.Contribution, error) {
	return s.next().AddContribution(ctx, c, check)
}

func (s *twoStores) ApplyMemoryEvent(ctx context.Context, c engine.MemoryChange) (engine.MemoryEvent, error) {
	return s.next().ApplyMemoryEvent(ctx, c)
}

func (s *twoStores) MemoryRecordChanges(ctx context.Context, since int64) (engine.MemoryRecordChanges, error) {
	return s.next().MemoryRecordChanges(ctx, since)
}

func (s *twoStores) Close() error { return errors.Join(s.Store.Close(), s.other.Close()) }

// reopenTwo closes both stores and opens two on their schema again.
func reopenTwo(t *testing.T, s any) *twoStores {
	two := s.(*twoStores)
	if err := two.Close(); err != nil {
		t.Fatal(err)
	}
	schema := two.Schema()
	return &twoStores{Store: open(t, pgtest.DSN(t), schema), other: open(t, pgtest.DSN(t), schema)}
}

// TestTwoStores runs the core's, the library's and the memory's suites
// with every write of the scarce things (names, keys, invites, rate-limit
// slots, a head's successor, a first vote, a memory event) and every read
// of the memory records' changes alternating between two stores on one
// database.
func TestTwoStores(t *testing.T) {
	pgtest.DSN(t)
	t.Run("Core", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Store { return newTwoStores(t) },
			storetest.WithReopen(func(t *testing.T, s store.Store) store.Store { return reopenTwo(t, s) }))
	})
	t.Run("Library", func(t *testing.T) {
		librarytest.Run(t, func(t *testing.T) library.Store { return newTwoStores(t) },
			librarytest.WithReopen(func(t *testing.T, s library.Store) library.Store { return reopenTwo(t, s) }))
	})
	t.Run("Memory", func(t *testing.T) {
		enginetest.Run(t, func(t *testing.T) engine.Store { return newTwoStores(t) },
			enginetest.WithReopen(func(t *testing.T, s engine.Store) engine.Store { return reopenTwo(t, s) }))
	})
}

// benchStore is a store in a schema of its own for a benchmark.
func benchStore(b *testing.B) *postgres.Store {
	s, err := postgres.Open(b.Context(), postgres.Config{DSN: pgtest.DSN(b), Schema: pgtest.Schema(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkPutAndBind is the store's share of one append, each commit in
// PostgreSQL's flushed WAL.
func BenchmarkPutAndBind(b *testing.B) { storetest.BenchPutAndBind(b, benchStore(b)) }

// BenchmarkPutAndBindParallel is BenchmarkPutAndBind from 64 goroutines:
// PostgreSQL's group commit shares their flushes.
func BenchmarkPutAndBindParallel(b *testing.B) { storetest.BenchPutAndBindParallel(b, benchStore(b)) }

// BenchmarkTake is one rate-limit take, committed without waiting for the
// flush.
func BenchmarkTake(b *testing.B) { storetest.BenchTake(b, benchStore(b)) }

// BenchmarkMemoryQuietChanges is the read an engine makes before every
// event to follow other processes' record writes, when there were none.
func BenchmarkMemoryQuietChanges(b *testing.B) { enginetest.BenchQuietChanges(b, benchStore(b)) }

// TestMigrationsNumbered checks that a new schema has as many migrations
// as a new SQLite database: the two drivers number them alike.
func TestMigrationsNumbered(t *testing.T) {
	s := newStore(t)
	got, err := s.SchemaVersion(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agora.db")
	lite, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	lite.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var want int
	if err := db.QueryRowContext(t.Context(), "PRAGMA user_version").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if got != want || want == 0 {
		t.Errorf("PostgreSQL schema version %d, SQLite's %d", got, want)
	}
}
