// Package librarytest is the conformance suite every library.Store driver
// runs, beside storetest's for the core it embeds:
//
//	func TestConformance(t *testing.T) {
//		librarytest.Run(t, func(t *testing.T) library.Store { ... }, librarytest.WithReopen(...))
//	}
//
// It checks the contract written on library.Store (library/store.go), whose
// records the read/write contract library/contract.json describes: a
// contribution admitted in one write under the library's state rules,
// whatever the race; lineages, votes and reviews; the catalogue, the
// changes feed and an object's reads; the personal lists' compare-and-set
// and read nonces; the scopes an admin set; and, across a close and
// reopen, every contribution, its entry, the personal lists and the scopes
// as they were.
package librarytest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store/storetest"
)

// An Option changes how Run tests a driver.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, s library.Store) library.Store
}

// WithReopen gives Run a way to close a store and open its data again, for
// the durability test; without it the test is skipped. reopen closes s and
// returns a store over the same data, which it arranges to close at the
// end of the test.
func WithReopen(reopen func(t *testing.T, s library.Store) library.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) library.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	tests := []struct {
		name string
		f    func(f *fixture)
	}{
		{"Contributions", testContributions},
		{"ContributionsConcurrent", testContributionsConcurrent},
		{"LibraryScopes", testLibraryScopes},
		{"LibraryCatalogue", testLibraryCatalogue},
		{"LibraryObjects", testLibraryObjects},
		{"LibraryPersonal", testLibraryPersonal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(newFixture(t, newStore(t)))
		})
	}
	t.Run("Durability", func(t *testing.T) {
		if c.reopen == nil {
			t.Skip("no librarytest.WithReopen for this driver")
		}
		testDurability(newFixture(t, newStore(t)), c.reopen)
	})
}

// fixture is one test's store and clock.
type fixture struct {
	t   *testing.T
	s   library.Store
	ctx context.Context
	now time.Time
}

func newFixture(t *testing.T, s library.Store) *fixture {
	return &fixture{t: t, s: s, ctx: t.Context(), now: time.Date(2026, 10, 2, 12, 0, 0, 123456789, time.UTC)}
}

func nonce() string { return storetest.Nonce() }

func second[T any](_ T, err error) error { return err }

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
