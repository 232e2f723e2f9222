package ledger

import (
	"context"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
)

// RoundStore is the part of Store a round's timers and withdrawals need
// beyond JobStore: retiring jobs nobody will answer, finding the ones that
// waited too long, and what a withdrawn bundle's files are to the rest of
// the ledger. It keeps store.Store's contract on concurrency, durability,
// errors and retries.
type RoundStore interface {
	// RetireJobs closes the jobs named that are not done, so no one is
	// handed them again, and records moves (the refunds their closing
	// pays), at once. A retired job reads Done with no Answer. It returns
	// the jobs it retired; a job done or retired before is left as it is,
	// and a movement whose Key is recorded already is skipped.
	RetireJobs(ctx context.Context, ids []string, moves []jobs.Movement) ([]string, error)

	// LapsedJobs returns up to limit jobs of the kinds named that are not
	// done, were created at or before createdBefore, and that nobody holds
	// at now (never assigned, or their deadline passed), oldest first.
	LapsedJobs(ctx context.Context, kinds []string, createdBefore, now time.Time, limit int) ([]Job, error)

	// WithdrawnFile reports whether a withdrawn bundle (its withdrawal
	// entry bound) holds a file with digest digest.
	WithdrawnFile(ctx context.Context, digest string) (bool, error)

	// HeldElsewhere reports whether a bundle other than except that is not
	// withdrawn holds a file with digest digest: whether deleting the file
	// of a withdrawn bundle would take it from another.
	HeldElsewhere(ctx context.Context, digest, except string) (bool, error)

	// UnsettledBundles returns up to limit open bundles (their revealing
	// entry bound) whose opening SettleBundle has not recorded as settled,
	// oldest first: the ones whose node stopped between logging an
	// opening and the work that follows it.
	UnsettledBundles(ctx context.Context, limit int) ([]Bundle, error)

	// SettleBundle records that the work following bundle hash's opening
	// is done. A bundle not revealed, or settled before, is left as it is.
	// A revealing entry dropped (DropUnbound) leaves its bundle unsettled.
	SettleBundle(ctx context.Context, hash string) error
}
