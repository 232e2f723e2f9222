// Package enginetest is the conformance suite every engine.Store driver
// runs:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, func(t *testing.T) engine.Store { ... })
//	}
//
// It checks the contract written on engine.Store (memory/engine/store.go),
// what a node keeps for memory-agent-ingress/v1
// (memory/memory-agent-ingress-v1.schema.json): adapters rotate, profile
// revisions never change, an event is applied once with all its effects or
// none, sessions and records change only from the version they were read
// at, a topic key names one record in its scope, and a record removed stays
// removed.
package enginetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
)

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) engine.Store) {
	t.Run("Memory", func(t *testing.T) {
		testMemory(newFixture(t, newStore(t)))
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
