package jobs

import (
	"math/rand/v2"
	"slices"
	"time"
)

// Urgency classes, most urgent first ("Verifying claims", step 1): hazard
// reviews, then challenge reviews, then sealed bundles' reproductions,
// screens and reviews, then published replications to check, then
// published bundles short of reproductions, then the rest of published
// bundles' checks.
const (
	UrgencyHazard = iota
	UrgencyChallenge
	UrgencySealed
	UrgencyReplication
	UrgencyReproduction
	UrgencyOther
)

// Urgency is the class of a job of kind on a bundle sealed or not.
func Urgency(kind string, sealed bool) int {
	switch {
	case kind == HazardReview:
		return UrgencyHazard
	case kind == ChallengeReview:
		return UrgencyChallenge
	case sealed:
		return UrgencySealed
	case kind == ReplicationMatch:
		return UrgencyReplication
	case kind == Reproduction:
		return UrgencyReproduction
	}
	return UrgencyOther
}

// Open is a job waiting for a verifier, with what assignment needs to
// know of its bundle's round.
type Open struct {
	ID      string
	Kind    string
	Bundle  string
	Urgency int
	// AuthorOrgs are the organizations of the bundle's author (and, for a
	// replication match, the original's); AuthorFamilies the model
	// families that wrote it.
	AuthorOrgs     []string
	AuthorFamilies []string
	// Minutes and GPU are what re-running it declares; DownloadMB the
	// size of what a verifier fetches; Software the checkers it needs.
	Minutes    float64
	GPU        bool
	DownloadMB float64
	Software   []string
	// Filtered are the areas in which filters refused models of some
	// family at two organizations its work (FilteredFor gives which).
	FilteredFor map[string][]string // family → areas
	// RoundOrgs are the organizations already holding or done with a job
	// of the same kind on this bundle: each goes to a different one.
	RoundOrgs []string
	// ReviewFamilies are the families of the bundle's other reviews,
	// held or done: its three need at least two families between them.
	ReviewFamilies []string
	// RoundFamilies are the families holding or done with a job of the
	// same kind on this bundle: only one of a claim's importance ratings
	// may come from the families that wrote it.
	RoundFamilies []string
	// Declined are the organizations that handed this job back, which
	// never get it again.
	Declined []string
}

// Verifier is who asks for a job.
type Verifier struct {
	Operator     string
	Organization string
	Family       string
	Can          Can
	Unfiltered   []string
	// NoImportance is a request's "importance": false: no importance
	// ratings.
	NoImportance bool
	// Opens reports whether the verifier's model may do a kind of job
	// (its qualification); nil opens every kind.
	Opens func(kind string) bool
}

// Eligible reports whether j may go to v.
func Eligible(j Open, v Verifier) bool {
	// A model of a family that wrote the bundle may rate its importance,
	// but only one of its ratings comes from those families.
	rating := j.Kind == ImportanceRating
	authorFamily := slices.Contains(j.AuthorFamilies, v.Family)
	switch {
	case slices.Contains(j.AuthorOrgs, v.Organization):
		return false // never work by its own organization
	case rating && (v.NoImportance || authorFamily && slices.ContainsFunc(j.RoundFamilies, func(f string) bool { return slices.Contains(j.AuthorFamilies, f) })):
		return false
	case authorFamily && !rating:
		return false // never work a model of its family wrote
	case slices.Contains(j.RoundOrgs, v.Organization), slices.Contains(j.Declined, v.Organization):
		return false
	case v.Opens != nil && !v.Opens(j.Kind):
		return false
	}
	if IsReview(j.Kind) && len(j.ReviewFamilies) >= 2 {
		// A third review must not make the three one family.
		same := true
		for _, f := range j.ReviewFamilies {
			same = same && f == v.Family
		}
		if same {
			return false
		}
	}
	if Runs(j.Kind) {
		if v.Can.Minutes <= 0 || j.Minutes > v.Can.Minutes || (j.GPU && !v.Can.GPU) || j.DownloadMB > v.Can.DownloadMB {
			return false
		}
		for _, s := range j.Software {
			if !slices.Contains(v.Can.Software, s) {
				return false
			}
		}
	}
	for _, area := range j.FilteredFor[v.Family] {
		if !slices.Contains(v.Unfiltered, area) {
			return false
		}
	}
	return true
}

// Choose picks the job for v among open: one at random among the eligible
// jobs of the most urgent class. ok is false when none is eligible.
func Choose(open []Open, v Verifier, rnd *rand.Rand) (Open, bool) {
	best := -1
	var pool []Open
	for _, j := range open {
		if !Eligible(j, v) {
			continue
		}
		switch {
		case best < 0 || j.Urgency < best:
			best, pool = j.Urgency, []Open{j}
		case j.Urgency == best:
			pool = append(pool, j)
		}
	}
	if len(pool) == 0 {
		return Open{}, false
	}
	return pool[rnd.IntN(len(pool))], true
}

// Deadline is when a job assigned at must be done: at least 24 hours, and
// for long computations twice their declared minutes beyond that, so a
// verifier has time to run them ("Finish by deadline (at least 24 hours,
// longer for long computations)").
func Deadline(at time.Time, minutes float64) time.Time {
	d := 24 * time.Hour
	if minutes > 0 {
		d += time.Duration(2 * minutes * float64(time.Minute))
	}
	return at.Add(d)
}

// Quick reports whether work declaring minutes re-runs within a day, so
// its sealed round runs reproductions rather than screens ("Sealed
// rounds").
func Quick(minutes float64) bool { return minutes <= 24*60 }

// Declines limits: an organization may hand back at most DeclinesFloor
// jobs in 24 hours, or one in DeclinesPer of the jobs it did work on if
// that is more.
const (
	DeclinesFloor = 10
	DeclinesPer   = 10
)

// DeclinesAllowed is how many jobs an organization that did withWork jobs
// with work in the last 24 hours may hand back in them.
func DeclinesAllowed(withWork int) int { return max(DeclinesFloor, withWork/DeclinesPer) }

// Job request limits per hour ("Verifying claims", step 1).
const (
	RequestsPerOperator = 240
	RequestsPerOrg      = 960
)

// RetryAfterNone is how long a request that got no job is told to wait.
const RetryAfterNone = 600

// Pool rates ("Verify first"): a pool's rate is price.BaseRate while its
// backlog is short, and rises, up to price.MaxRate, when its backlog
// outgrows what its verifiers clear in 2 days at their recent pace. The
// recent pace is the jobs with work cleared in the last PaceWindow; the
// spec gives no floor, and this package takes MinCapacity jobs as the
// least a pool clears in 2 days, so a new ledger with no pace yet stays
// at the base rate until its backlog passes that.
const (
	PaceWindow  = 7 * 24 * time.Hour
	MinCapacity = 10
)

// Rate is a pool's rate with backlog open jobs when cleared were done with
// work in the last PaceWindow.
func Rate(backlog, cleared int) int {
	capacity := max(MinCapacity, cleared*2*24*int(time.Hour)/int(PaceWindow))
	if backlog <= capacity {
		return 1
	}
	return min(10, (backlog+capacity-1)/capacity)
}
