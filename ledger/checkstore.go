package ledger

import (
	"context"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
)

// CheckStore is the part of Store that keeps the checks a published
// bundle gets after it opens: proof checks, replication matches, citation
// and duplicate checks and importance ratings ("Verifying claims"). It
// keeps JobStore's contract, and these besides:
//
//   - a check job's needs (the checkers it takes, and what its brief
//     lists: the citations, pairs or replicates it judges) are recorded
//     with it, in the same commit, and never change;
//   - an importance rating is kept, not logged: RateImportance records it
//     and pays its job at once, once per job, with no entry in the log.
type CheckStore interface {
	// CreateCheckJobs records jobs with their needs and the movements that
	// go with them, all or nothing, as CreateJobs does: a job ID already
	// recorded, store.ErrDuplicate and nothing written.
	CreateCheckJobs(ctx context.Context, js []CheckJob, moves []jobs.Movement) error

	// JobNeeds returns what CreateCheckJobs recorded for job id; a job
	// recorded without needs has none (the zero JobNeeds, no error).
	JobNeeds(ctx context.Context, id string) (JobNeeds, error)

	// RateImportance records a rating as the answer to the importance
	// job it names, which its rater must hold and whose deadline must not
	// have passed (else store.ErrConflict; rated by it before,
	// store.ErrDuplicate with the job as it stands): the job is done, its
	// Answer the rating's Digest, and pay is paid, at once.
	RateImportance(ctx context.Context, r Rating, pay []jobs.Movement) (Job, error)

	// ImportanceRatings returns the ratings of a bundle's claims, in the
	// order they came.
	ImportanceRatings(ctx context.Context, bundle string) ([]Rating, error)

	// RatingsSince returns every rating given at or after since, in the
	// order they came: what rating habits are measured from.
	RatingsSince(ctx context.Context, since time.Time) ([]Rating, error)

	// RatingCount returns how many ratings RateImportance recorded. It
	// grows in the commit that records each, whichever process sharing the
	// store recorded it, so a reader that finds it unchanged knows no
	// rating came in between: what a cache of scores checks before it
	// serves. It MUST be cheap (one row read, not a count of the ratings).
	RatingCount(ctx context.Context) (int64, error)

	// KeepHabits keeps h as the rating habits measured at h.At, unless
	// habits measured at that moment were kept already, and returns the
	// habits kept: the first measurement of a moment is the one every
	// caller gets, so the processes sharing a store score claims alike
	// even when a rating stamped before the moment committed between
	// their measurements.
	KeepHabits(ctx context.Context, h jobs.Habits) (jobs.Habits, error)

	// KeptHabits returns the habits KeepHabits kept for the moment at,
	// store.ErrNotFound if none were.
	KeptHabits(ctx context.Context, at time.Time) (jobs.Habits, error)

	// RetireBundleJobs ends a bundle's jobs of kind that are not done, held or
	// not (no one may answer them after), and records moves, at once. It
	// returns how many it ended.
	RetireBundleJobs(ctx context.Context, bundle, kind string, moves []jobs.Movement) (int, error)
}

// CheckJob is a job with its needs.
type CheckJob struct {
	Job
	Needs JobNeeds
}

// JobNeeds is what a check job takes and lists beyond a Job.
type JobNeeds struct {
	// Software are the checkers a verifier must list in can.software.
	Software []string
	// Detail is the JSON of what the job's brief lists for its kind:
	// {"replicates"}, {"citations"} or {"pairs"}; nil for none.
	Detail []byte
}

// Rating is an organization's importance rating of a bundle's claims.
type Rating struct {
	Job          string
	Operator     string
	Organization string
	Family       string
	Model        string
	Bundle       string
	Scores       map[string]int    // global claim ID → score
	Reasons      map[string]string // global claim ID → reason
	Digest       string            // the rating entry's digest
	Signed       []byte            // the rating as signed
	At           time.Time
}
