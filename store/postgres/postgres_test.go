package postgres_test

import (
	"testing"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/ledgertest"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/librarytest"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/memory/engine/enginetest"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/postgres/pgtest"
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
