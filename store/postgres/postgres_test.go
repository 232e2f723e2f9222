package postgres_test

import (
	"context"
	"fmt"
	"os"
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
	"github.com/agora-node/agora/store/storetest"
)

// dsnEnv names the database the tests use. .ci/run starts PostgreSQL and
// sets it; without it the suites skip, saying so, except under CI
// (CI=true), where a missing database fails them: CI runs every suite.
const dsnEnv = "AGORA_TEST_POSTGRES"

func dsn(t testing.TB) string {
	t.Helper()
	d := os.Getenv(dsnEnv)
	if d == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI runs the PostgreSQL suites (.ci/run starts the database)", dsnEnv)
		}
		t.Skipf("skipping the PostgreSQL conformance suites: %s is not set (set it to a postgres:// URL, or run .ci/run, which starts PostgreSQL)", dsnEnv)
	}
	return d
}

// schemas numbers the schemas the tests make, one per store.
var schemas atomic.Int64

// newStore opens a store in a schema of its own, dropped at the test's
// end.
func newStore(t *testing.T) *postgres.Store {
	t.Helper()
	d := dsn(t)
	schema := fmt.Sprintf("agora_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), schemas.Add(1))
	s := open(t, d, schema)
	t.Cleanup(func() {
		// t.Context is done by now.
		admin, err := postgres.Open(context.Background(), postgres.Config{DSN: d, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return s
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
	return open(t, dsn(t), st.Schema())
}

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
