package jobs

import (
	"slices"
	"time"

	"github.com/agora-node/agora/vocabulary"
)

// The kinds of job this node hands out now. vocabulary.JobKinds lists every
// kind the protocol names; idea screens wait for ideas, and no job of
// theirs is ever made. AddendumScreen is in addenda.go.
const (
	Reproduction      = "reproduction"
	Screen            = "screen"
	HazardReview      = "hazard_review"
	MethodsReview     = "methods_review"
	DomainReview      = "domain_review"
	AdversarialReview = "adversarial_review"
	ProofCheck        = "proof_check"
	ReplicationMatch  = "replication_match"
	ChallengeReview   = "challenge_review"
	CitationCheck     = "citation_check"
	DuplicateCheck    = "duplicate_check"
	ImportanceRating  = "importance_rating"
)

// ReviewKinds are the three reviews a bundle's round runs.
var ReviewKinds = []string{MethodsReview, DomainReview, AdversarialReview}

// IsReview reports whether kind is one of the three reviews.
func IsReview(kind string) bool { return slices.Contains(ReviewKinds, kind) }

// Verdicts returns the verdicts an attestation of kind may give a claim,
// and false for a kind no attestation answers (screens and hazard reviews
// are answered by a hazard_review entry).
func Verdicts(kind string) ([]string, bool) {
	for _, j := range vocabulary.AttestationJobs {
		if j.Job == kind {
			return j.Verdicts, true
		}
	}
	return nil, false
}

// AnsweredBy is the entry type that answers a job of kind: "attestation",
// "hazard_review", or the kind's own type for citation and duplicate
// checks and importance ratings ("" for a kind this node does not answer
// yet).
func AnsweredBy(kind string) string {
	switch kind {
	case Screen, HazardReview:
		return "hazard_review"
	case CitationCheck, DuplicateCheck, ImportanceRating:
		return kind
	}
	if _, ok := Verdicts(kind); ok {
		return "attestation"
	}
	return ""
}

// CarriesHazard reports whether an attestation of kind must carry the
// verifier's hazard screen: only a reproduction does ("other kinds carry
// none"; a review's bundle was screened before its reviews ran).
func CarriesHazard(kind string) bool { return kind == Reproduction }

// Idle reports whether verdict is one that says nothing about the claim:
// could_not_run or could_not_judge. A job answered with nothing but these
// pays nothing and counts as handed back ("Verifying claims", step 3).
func Idle(verdict string) bool {
	return verdict == "could_not_run" || verdict == "could_not_judge"
}

// WithWork reports whether verdicts did the job's work: at least one of
// them is not Idle.
func WithWork(verdicts map[string]string) bool {
	for _, v := range verdicts {
		if !Idle(v) {
			return true
		}
	}
	return false
}

// Runs reports whether a job of kind runs code, which needs can.minutes
// above 0 and the qualification's setup.
func Runs(kind string) bool { return kind == Reproduction || kind == ProofCheck }

// RatingDeadline is how long an importance rating is due after it is
// handed out ("due in 2 hours").
const RatingDeadline = 2 * time.Hour

// DeadlineFor is when a job of kind assigned at must be done: an
// importance rating or an addendum screen in RatingDeadline, any other
// job by Deadline.
func DeadlineFor(kind string, at time.Time, minutes float64) time.Time {
	if kind == ImportanceRating || kind == AddendumScreen {
		return at.Add(RatingDeadline)
	}
	return Deadline(at, minutes)
}
