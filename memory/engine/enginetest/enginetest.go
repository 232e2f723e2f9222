// Package enginetest is the conformance suite every engine.Store driver
// runs:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, func(t *testing.T) engine.Store { ... }, enginetest.WithReopen(...))
//	}
//
// It checks the contract written on engine.Store (memory/engine/store.go),
// what a node keeps for memory-agent-ingress/v1
// (memory/memory-agent-ingress-v1.schema.json): adapters rotate, profile
// revisions never change, an event is applied once with all its effects or
// none, sessions and records change only from the version they were read
// at, a topic key names one record in its scope, a record removed stays
// removed, every change of the records is read once by whoever follows
// the store's change cursor (however many write at once), and, across a
// close and reopen, every adapter, profile, event,
// session, record and receipt is as it was.
package enginetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
)

// An Option changes how Run tests a driver.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, s engine.Store) engine.Store
}

// WithReopen gives Run a way to close a store and open its data again, for
// the durability test; without it the test is skipped. reopen closes s and
// returns a store over the same data, which it arranges to close at the
// end of the test.
func WithReopen(reopen func(t *testing.T, s engine.Store) engine.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) engine.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	t.Run("Memory", func(t *testing.T) {
		testMemory(newFixture(t, newStore(t)))
	})
	t.Run("Changes", func(t *testing.T) {
		testMemoryChanges(newFixture(t, newStore(t)))
	})
	t.Run("Durability", func(t *testing.T) {
		if c.reopen == nil {
			t.Skip("no enginetest.WithReopen for this driver")
		}
		testDurability(newFixture(t, newStore(t)), c.reopen)
	})
}

// fixture is one test's store and clock.
type fixture struct {
	t   *testing.T
	s   engine.Store
	ctx context.Context
	now time.Time
}

func newFixture(t *testing.T, s engine.Store) *fixture {
	return &fixture{t: t, s: s, ctx: t.Context(), now: time.Date(2026, 10, 2, 12, 0, 0, 123456789, time.UTC)}
}

// is fails the test unless err wraps target.
func (f *fixture) is(err, target error, what string) {
	f.t.Helper()
	if !errors.Is(err, target) {
		f.t.Errorf("%s: error %v, want one wrapping %q", what, err, target)
	}
}

// ok fails the test now on an error.
func (f *fixture) ok(err error, what string) {
	f.t.Helper()
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
}

func second[T any](_ T, err error) error { return err }
