// Package storetest is the conformance suite every store.Store driver runs:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { ... }, storetest.WithReopen(...))
//	}
//
// It checks the contract written on store.Store (store/store.go): what
// each method records and returns, its errors, and the guarantees under
// concurrency (one name number, one rotation, one use of an invite code, no
// more rate-limit slots than the limit, however many goroutines ask at
// once) and across a close and reopen (everything written is still there).
//
// What the faces keep beside the core has a suite of its own, next to the
// face's contract: ledger/ledgertest (ledger.Store), library/librarytest
// (library.Store) and memory/engine/enginetest (engine.Store). A driver
// runs them all. The records are those spec/ledger-protocol.md defines.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/agora-node/agora/store"
)

// An Option changes how Run tests a driver.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, s store.Store) store.Store
}

// WithReopen gives Run a way to close a store and open its data again, for
// the durability tests; without it they are skipped. reopen closes s and
// returns a store over the same data, which it arranges to close at the
// end of the test.
func WithReopen(reopen func(t *testing.T, s store.Store) store.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Run runs the suite against the driver newStore makes: each call returns
// a new, empty store that newStore arranges to close at the end of the test
// (t.Cleanup).
func Run(t *testing.T, newStore func(t *testing.T) store.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	tests := []struct {
		name string
		f    func(f *fixture)
	}{
		{"NotFound", testNotFound},
		{"SignedEntries", testSignedEntries},
		{"BindIndexes", testBindIndexes},
		{"Operators", testOperators},
		{"OperatorReadsFollowWrites", testOperatorReadsFollowWrites},
		{"RenameReplays", testRenameReplays},
		{"Names", testNames},
		{"NamesConcurrent", testNamesConcurrent},
		{"Rotation", testRotation},
		{"RotationConcurrent", testRotationConcurrent},
		{"Identities", testIdentities},
		{"Invites", testInvites},
		{"InviteLimit", testInviteLimit},
		{"InviteLimitConcurrent", testInviteLimitConcurrent},
		{"InviteUseConcurrent", testInviteUseConcurrent},
		{"VouchConsents", testVouchConsents},
		{"ConsentUseConcurrent", testConsentUseConcurrent},
		{"VouchesAndAccounts", testVouchesAndAccounts},
		{"RecoveryRequests", testRecoveryRequests},
		{"DomainWatches", testDomainWatches},
		{"RateLimits", testRateLimits},
		{"RateLimitsConcurrent", testRateLimitsConcurrent},
		{"DropUnbound", testDropUnbound},
		{"Canceled", testCanceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(newFixture(t, newStore(t)))
		})
	}
	t.Run("Durability", func(t *testing.T) {
		if c.reopen == nil {
			t.Skip("no storetest.WithReopen for this driver")
		}
		testDurability(newFixture(t, newStore(t)), c.reopen)
	})
}

// fixture is one test's store and clock.
type fixture struct {
	t   *testing.T
	s   store.Store
	ctx context.Context
	now time.Time
}

func newFixture(t *testing.T, s store.Store) *fixture {
	return &fixture{t: t, s: s, ctx: t.Context(), now: time.Date(2026, 10, 2, 12, 0, 0, 123456789, time.UTC)}
}
