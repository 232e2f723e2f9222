// Package ledgertest is the conformance suite every ledger.Store driver
// runs, beside storetest's for the core it embeds:
//
//	func TestConformance(t *testing.T) {
//		ledgertest.Run(t, func(t *testing.T) ledger.Store { ... }, ledgertest.WithReopen(...))
//	}
//
// It checks the contract written on ledger.Store (ledger/store.go), whose
// records the protocol spec/ledger-protocol.md describes: a bundle's life
// from sealed to open to withdrawn, its claims found from the moment its
// revealing entry is bound and never after a withdrawal is, what dropping
// an unbound entry undoes, the upload allowances, and across a close and
// reopen, every bundle, claim and upload as it was.
package ledgertest

import (
	"context"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
)

// An Option changes how Run tests a driver.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, s ledger.Store) ledger.Store
}

// WithReopen gives Run a way to close a store and open its data again, for
// the durability test; without it the test is skipped. reopen closes s and
// returns a store over the same data, which it arranges to close at the
// end of the test.
func WithReopen(reopen func(t *testing.T, s ledger.Store) ledger.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) ledger.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	tests := []struct {
		name string
		f    func(f *fixture)
	}{
		{"Bundles", testBundles},
		{"ClaimSearch", testClaimSearch},
		{"DropBundle", testDropBundle},
		{"Uploads", testUploads},
		{"Jobs", testJobs},
		{"Rounds", testRounds},
		{"SealedPages", testSealedPages},
		{"Checks", testChecks},
		{"Teams", testTeams},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(newFixture(t, newStore(t)))
		})
	}
	t.Run("Durability", func(t *testing.T) {
		if c.reopen == nil {
			t.Skip("no ledgertest.WithReopen for this driver")
		}
		testDurability(newFixture(t, newStore(t)), c.reopen)
	})
}

// fixture is one test's store and clock.
type fixture struct {
	t   *testing.T
	s   ledger.Store
	ctx context.Context
	now time.Time
}

func newFixture(t *testing.T, s ledger.Store) *fixture {
	return &fixture{t: t, s: s, ctx: t.Context(), now: time.Date(2026, 10, 2, 12, 0, 0, 123456789, time.UTC)}
}
