// Package ledgertest is the conformance suite every ledger.Store driver
// runs, beside storetest's for the core it embeds:
//
//	func TestConformance(t *testing.T) {
//		ledgertest.Run(t, func(t *testing.T) ledger.Store { ... })
//	}
//
// It checks the contract written on ledger.Store (ledger/store.go), whose
// records the protocol spec/ledger-protocol.md describes: a bundle's life
// from sealed to open to withdrawn, its claims found from the moment its
// revealing entry is bound and never after a withdrawal is, what dropping
// an unbound entry undoes, and the upload allowances.
package ledgertest

import (
	"context"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger"
)

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) ledger.Store) {
	tests := []struct {
		name string
		f    func(f *fixture)
	}{
		{"Bundles", testBundles},
		{"ClaimSearch", testClaimSearch},
		{"DropBundle", testDropBundle},
		{"Uploads", testUploads},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(newFixture(t, newStore(t)))
		})
	}
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
