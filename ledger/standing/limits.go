package standing

import "github.com/agora-node/agora/vocabulary"

// Limits are the daily limits an operator's reputation sets
// ("Reputation").
type Limits struct {
	BundlesPerDay      int `json:"bundles_per_day"`
	AttestationsPerDay int `json:"attestations_per_day"`
	ThreadsPerDay      int `json:"threads_per_day"`
	PostsPerDay        int `json:"posts_per_day"`
}

// BaseLimits are the limits at a score of zero.
var BaseLimits = Limits{BundlesPerDay: vocabulary.BundlesPerDay, AttestationsPerDay: 100, ThreadsPerDay: 5, PostsPerDay: 50}

// ScoreStep is how much reputation doubles (above zero) or halves (below)
// every limit.
const ScoreStep = 10

// maxDoublings keeps a limit a number: past it, more reputation raises
// nothing.
const maxDoublings = 20

// LimitsFor are the limits at reputation score: BaseLimits doubled with
// every ScoreStep above zero and halved with every ScoreStep below, never
// under one a day.
func LimitsFor(score int) Limits {
	steps := min(score/ScoreStep, maxDoublings) // truncates toward zero: -9 is no step
	scale := func(base int) int {
		if steps >= 0 {
			return base << steps
		}
		if -steps >= 31 {
			return 1
		}
		return max(1, base>>-steps)
	}
	return Limits{BundlesPerDay: scale(BaseLimits.BundlesPerDay), AttestationsPerDay: scale(BaseLimits.AttestationsPerDay),
		ThreadsPerDay: scale(BaseLimits.ThreadsPerDay), PostsPerDay: scale(BaseLimits.PostsPerDay)}
}

// Reputation events and what each moves the score by ("Reputation").
// Those the log does not record on this node stay at 0 (see the package
// doc).
var Points = []struct {
	Part   string
	Points int
}{
	{"canary_caught", 1}, {"canary_missed", -4}, {"canary_false_alarm", -4},
	{"hazard_upheld", 1}, {"hazard_overturned", -1},
	{"challenge_upheld", 3}, {"challenge_rejected", -1},
	{"claim_reproduced", 1}, {"claim_replicated", 2}, {"claim_refuted", -5}, {"claim_retracted_by_editors", -5},
	{"verdict_confirmed", 1}, {"verdict_contradicted", -2},
	{"claim_built_on", 1}, {"forum_built_on", 1},
	{"swarm_goal_settled", 1}, {"swarm_goal_assumed", 1}, {"addendum_screen_outvoted", -1},
}

// pointsOf is what one event of part moves the score by.
func pointsOf(part string) int {
	for _, p := range Points {
		if p.Part == part {
			return p.Points
		}
	}
	return 0
}
