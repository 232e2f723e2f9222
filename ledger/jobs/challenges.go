package jobs

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/vocabulary"
)

// Challenge is a checked challenge entry ("Challenging a claim"): why its
// challenger thinks a published claim is wrong, and the digest of the
// files that make the case.
type Challenge struct {
	Challenger  string
	Claim       string
	Ground      string
	Evidence    string
	ModelFamily string // "" when the entry names none
	Model       string
}

var challengeMembers = []string{"type", "challenger", "claim", "ground", "evidence", "model_family", "model", "sig"}

// CheckChallenge checks a challenge entry's members.
func CheckChallenge(e map[string]any) (Challenge, []Issue) {
	var is issues
	var c Challenge
	unknown(&is, e, challengeMembers, "")
	if e["type"] != "challenge" {
		is.add("/type", `type must be "challenge"`)
	}
	c.Challenger = operatorMember(&is, e, "challenger")
	c.Claim, _ = e["claim"].(string)
	if !claims.IsClaimID(c.Claim) {
		is.add("/claim", "claim is the challenged claim's global ID, claim: and 64 lowercase hex digits")
	}
	c.Ground, _ = e["ground"].(string)
	if !slices.Contains(vocabulary.ChallengeGrounds, c.Ground) {
		is.add("/ground", "ground is one of %s", strings.Join(vocabulary.ChallengeGrounds, ", "))
	}
	c.Evidence = digestMember(&is, e, "evidence", "evidence is the digest of your evidence's files, sha256: and 64 lowercase hex digits")
	c.ModelFamily, c.Model = optionalModel(&is, e)
	sigMember(&is, e, "challenger")
	return c, is.sorted()
}

// ChallengeVerdict is a checked challenge_review entry: a panelist's
// verdict on the challenge logged at Challenge.
type ChallengeVerdict struct {
	Reviewer    string
	Challenge   uint64
	Bundle      string
	Verdict     string
	Evidence    string
	ModelFamily string
	Model       string
}

var challengeReviewMembers = []string{"type", "reviewer", "challenge", "bundle", "verdict", "evidence", "model_family", "model", "sig"}

// CheckChallengeReview checks a challenge_review entry's members.
func CheckChallengeReview(e map[string]any) (ChallengeVerdict, []Issue) {
	var is issues
	var c ChallengeVerdict
	unknown(&is, e, challengeReviewMembers, "")
	if e["type"] != "challenge_review" {
		is.add("/type", `type must be "challenge_review"`)
	}
	c.Reviewer = operatorMember(&is, e, "reviewer")
	n, ok := e["challenge"].(float64)
	if !ok || n < 0 || n != math.Trunc(n) || n > 1<<53-1 {
		is.add("/challenge", "challenge is the challenge's log index, a whole number")
	} else {
		c.Challenge = uint64(n)
	}
	c.Bundle = digestMember(&is, e, "bundle", "bundle is the hash of the bundle the job carried")
	c.Verdict, _ = e["verdict"].(string)
	if !slices.Contains(vocabulary.ChallengeVerdicts, c.Verdict) {
		is.add("/verdict", "verdict is one of %s", strings.Join(vocabulary.ChallengeVerdicts, ", "))
	}
	c.Evidence = digestMember(&is, e, "evidence", "evidence is the digest of your evidence's files, sha256: and 64 lowercase hex digits")
	c.ModelFamily, c.Model = modelMembers(&is, e)
	sigMember(&is, e, "reviewer")
	return c, is.sorted()
}

// AppealRequest is a checked appeal_request entry: an author asking more
// reproductions of a bundle whose reproduction failed ("Statuses",
// "Appealing a failed reproduction").
type AppealRequest struct {
	Operator string
	Bundle   string
	Time     time.Time
}

var appealMembers = []string{"type", "operator", "bundle", "time", "model_family", "model", "sig"}

// MaxAppealReproductions bounds what one appeal prepays.
const MaxAppealReproductions = 5

// CheckAppealRequest checks an appeal_request's members, its time within
// vocabulary.ClockSkew of now.
func CheckAppealRequest(e map[string]any, now time.Time) (AppealRequest, []Issue) {
	var is issues
	var a AppealRequest
	unknown(&is, e, appealMembers, "")
	if e["type"] != "appeal_request" {
		is.add("/type", `type must be "appeal_request"`)
	}
	a.Operator = operatorMember(&is, e, "operator")
	a.Bundle = digestMember(&is, e, "bundle", "bundle is the hash of the bundle whose reproduction failed")
	a.Time = timeMember(&is, e, now)
	sigMember(&is, e, "operator")
	return a, is.sorted()
}

// AppealReproductions is how many more reproductions settle a claim the
// other way if they all reproduce it: enough that at least 2
// organizations reproduce it and outnumber those finding a mismatch, at
// most MaxAppealReproductions.
func AppealReproductions(reproduced, mismatched int) int {
	return min(MaxAppealReproductions, max(2-reproduced, mismatched-reproduced+1, 0))
}
