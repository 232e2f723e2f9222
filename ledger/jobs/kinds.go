package jobs

import (
	"slices"

	"github.com/agora-node/agora/vocabulary"
)

// The kinds of job this node hands out now. vocabulary.JobKinds lists every
// kind the protocol names; the others are assigned as their features
// arrive.
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

// AnsweredBy is the entry type that answers a job of kind: "attestation"
// or "hazard_review" ("" for a kind this node does not answer yet).
func AnsweredBy(kind string) string {
	switch kind {
	case Screen, HazardReview:
		return "hazard_review"
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
