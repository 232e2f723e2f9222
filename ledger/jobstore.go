package ledger

import (
	"context"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
)

// JobStore is the part of Store that keeps the verification loop: jobs,
// their answers, the credit account's movements and the qualification
// test's state (ledger/jobs holds the rules). Its methods keep
// store.Store's contract on concurrency, durability, errors and retries,
// and these besides, each held inside one write transaction:
//
//   - an operator holds at most one open job, and a job is assigned to at
//     most one operator at a time (TakeJob);
//   - a job's credit is paid once, however often it is answered: a
//     movement's Key is unique, and a second movement with a Key already
//     recorded records nothing;
//   - an answer is recorded before its entry is logged, naming that entry
//     (the attestation itself, or the sealed commitment to it), and
//     DropUnbound of the entry undoes the answer and the credit it paid.
type JobStore interface {
	// CreateJobs records new jobs and the movements that pay for them
	// (the author's charge), all or nothing. A job ID already recorded:
	// store.ErrDuplicate, and nothing written.
	CreateJobs(ctx context.Context, js []Job, moves []jobs.Movement) error

	// TakeJob hands operator a job at now: its open job if it holds one
	// (counting Served), else the job choose picks from those open
	// (unassigned, or whose deadline passed), assigned with deadline
	// from jobs.Deadline and Served 1. choose sees each candidate's round
	// (RoundOrgs, ReviewFamilies, Declined) as it stands in the same
	// transaction. store.ErrNotFound when choose picks none.
	TakeJob(ctx context.Context, t TakeJob, choose func([]jobs.Open) (string, bool)) (Job, error)

	// Job returns a job by ID.
	Job(ctx context.Context, id string) (Job, error)

	// OpenJob returns the job operator holds at now, store.ErrNotFound if
	// none.
	OpenJob(ctx context.Context, operator string, now time.Time) (Job, error)

	// BundleJobs returns a bundle's jobs, oldest first.
	BundleJobs(ctx context.Context, bundle string) ([]Job, error)

	// ReleaseJob hands back the job operator holds, recording a decline
	// for its organization (which never gets the job again). Not held by
	// operator: store.ErrNotFound.
	ReleaseJob(ctx context.Context, id, operator string, at time.Time) error

	// AnswerJob records an answer to the job the answer names, which its
	// operator must hold and whose deadline must not have passed (else
	// store.ErrConflict; already answered by it, store.ErrDuplicate with
	// the job as it stands). With work, the job is done and pays Pay; an
	// answer without work hands the job back as a decline. Entry (put
	// before) is what the log gets for it.
	AnswerJob(ctx context.Context, a Answer, pay []jobs.Movement) (Job, error)

	// BundleAnswers returns every answer to a bundle's jobs, with work or
	// without, in the order they came.
	BundleAnswers(ctx context.Context, bundle string) ([]Answer, error)

	// AnswerByEntry returns the answer whose logged entry (or whose own
	// entry digest) is entry.
	AnswerByEntry(ctx context.Context, entry string) (Answer, error)

	// Movements returns operator's credit movements, oldest first.
	Movements(ctx context.Context, operator string) ([]jobs.Movement, error)

	// AddMovements records movements; one whose Key is recorded already
	// is skipped. It returns how many it recorded.
	AddMovements(ctx context.Context, moves []jobs.Movement) (int, error)

	// OrgJobs counts the jobs organization did with work since since,
	// addendum screens aside ("Verify first": they open neither a free
	// bundle nor gifts); OrgDeclines the jobs it handed back since.
	OrgJobs(ctx context.Context, organization string, since time.Time) (int, error)
	OrgDeclines(ctx context.Context, organization string, since time.Time) (int, error)

	// Backlog counts the reproductions and proof checks open (not done)
	// and those done with work since since, by pool (GPU or not): what a
	// pool's rate follows.
	Backlog(ctx context.Context, since time.Time) (Backlog, error)

	// CreateCanary records a canary made from a sealed bundle with its
	// jobs, at once; a canary already recorded under c.Hash:
	// store.ErrDuplicate.
	CreateCanary(ctx context.Context, c Canary, js []Job) error

	// Canary returns the canary with hash hash; CanariesOf those made
	// from bundle source.
	Canary(ctx context.Context, hash string) (Canary, error)
	CanariesOf(ctx context.Context, source string) ([]Canary, error)

	// CloseCanary records that the canary entry (put before) reveals
	// canary hash, each verifier's outcome and the movements they make,
	// and retires its jobs still open, at once. Closed before: the canary
	// that stands with store.ErrDuplicate.
	CloseCanary(ctx context.Context, hash, entry string, outcomes []CanaryOutcome, moves []jobs.Movement) error

	// CanaryCounts counts operator's canary outcomes: caught, missed and
	// could_not_run.
	CanaryCounts(ctx context.Context, operator string) (map[string]int, error)

	// Qualification returns operator's qualification state, one per model
	// key (jobs.ModelKey).
	Qualification(ctx context.Context, operator string) (map[string]jobs.ModelState, error)

	// PutQualification records a model's state and the movements (level
	// grants) its change earned, at once.
	PutQualification(ctx context.Context, operator, key string, m jobs.ModelState, moves []jobs.Movement) error
}

// Canary is a sealed copy of a bundle with one declared result changed
// beyond its tolerance ("Verifying claims", Canaries).
type Canary struct {
	Hash   string
	Source string            // the bundle it was made from
	Files  map[string]string // path → digest, every file but manifest.json and signature
	// Claims are its claims' IDs (changed, since they bind the results)
	// and Changed those whose evidence reads the changed result.
	Claims  []JobClaim
	Changed []string
	// Path and Result name the changed result, From and To its values.
	Path, Result string
	From, To     float64
	Entry        string // the canary entry that revealed it; "" while open
	Created      time.Time
}

// CanaryOutcome is how one verifier answered a canary: "caught",
// "missed" or "could_not_run".
type CanaryOutcome struct {
	Operator string
	Outcome  string
}

// Backlog is the work that runs code, open and cleared, by pool.
type Backlog struct {
	OpenCPU, OpenGPU       int
	ClearedCPU, ClearedGPU int
}

// JobClaim is a claim a job lists.
type JobClaim struct {
	LocalID      string
	ClaimID      string
	NeedsVerdict bool
}

// Job is a verification job and where it stands.
type Job struct {
	ID      string
	Kind    string
	Bundle  string
	Urgency int
	// AuthorOrgs and AuthorFamilies are whose work it is, which it never
	// goes to.
	AuthorOrgs     []string
	AuthorFamilies []string
	Claims         []JobClaim
	Credits        int
	Minutes        float64
	GPU            bool
	Created        time.Time

	// Assigned: the operator holding it, its organization and model
	// family, since AssignedAt, due at Deadline; Served counts the times
	// it was handed to that operator. "" when nobody holds it.
	Operator     string
	Organization string
	Family       string
	AssignedAt   time.Time
	Deadline     time.Time
	Served       int

	// Done once answered with work: by Answer.
	Done   bool
	Answer string // the logged entry of the answer that did it
}

// TakeJob is who asks for a job, at when.
type TakeJob struct {
	Operator     string
	Organization string
	Family       string
	At           time.Time
}

// Answer is a verifier's answer to a job.
type Answer struct {
	Job          string
	Operator     string
	Organization string
	Family       string
	Kind         string
	Bundle       string
	// Entry is the digest of what is logged for it: the attestation or
	// hazard review, or for sealed work the sealed commitment to it.
	Entry string
	// Signed is the answer's entry as signed; Digest its entry digest;
	// Salt the salt of its commitment, "" if it was logged in the open.
	Signed   []byte
	Digest   string
	Salt     string
	Verdicts map[string]string
	Hazard   string
	WithWork bool
	At       time.Time
}
