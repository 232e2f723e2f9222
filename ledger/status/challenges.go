package status

import (
	"slices"
	"time"

	"github.com/agora-node/agora/tlog"
)

// ChallengeWindow is how long a challenge stays open for its panel: one
// no panel settles within it is void ("Challenging a claim").
const ChallengeWindow = 14 * 24 * time.Hour

// PanelAgrees is how many panelists of distinct organizations must agree
// to settle a challenge.
const PanelAgrees = 2

// Challenge states.
const (
	ChallengeOpen     = "open"
	ChallengeUpheld   = "upheld"
	ChallengeRejected = "rejected"
	ChallengeVoid     = "void"
)

// Challenge is where a challenge stands on the log.
type Challenge struct {
	Index         uint64
	At            time.Time
	Claim         string
	Challenger    string
	Organization  string // the challenger's
	Ground        string
	Evidence      string
	State         string
	Settled       uint64    // the review that settled it; 0 while open or void
	SettledAt     time.Time // when it was settled or went void
	Reviews       []Vote    // the panel's reviews, in log order
	CountedReview []bool    // whether each review counted toward the outcome
}

type challengeState struct {
	Challenge
}

// challenge reads a challenge entry: its claim is Contested from now.
func (d *Deriver) challenge(index uint64, at time.Time, entry map[string]any) {
	claim, _ := entry["claim"].(string)
	c := d.claims[claim]
	if c == nil || len(c.bundles) == 0 {
		return // a claim the log never opened
	}
	ch := &challengeState{Challenge{Index: index, At: at, Claim: claim, State: ChallengeOpen}}
	ch.Challenger, _ = entry["challenger"].(string)
	ch.Ground, _ = entry["ground"].(string)
	ch.Evidence, _ = entry["evidence"].(string)
	ch.Organization = d.organization(ch.Challenger)
	d.challenges[index] = ch
	c.challenges = append(c.challenges, index)
	d.openChallenges[index] = true
	d.touch(claim)
}

// challengeReview reads a panelist's verdict: once PanelAgrees
// organizations other than the challenger's and the authors' agree, the
// challenge is upheld, which refutes the claim for good, or rejected.
func (d *Deriver) challengeReview(index, signed uint64, entry map[string]any) {
	n, _ := entry["challenge"].(float64)
	ch := d.challenges[uint64(n)]
	if ch == nil || ch.State != ChallengeOpen {
		return
	}
	reviewer, _ := entry["reviewer"].(string)
	family, _ := entry["model_family"].(string)
	bundle, _ := entry["bundle"].(string)
	verdict, _ := entry["verdict"].(string)
	v := Vote{Index: index, Signed: signed, Job: "challenge_review", Bundle: bundle, Verifier: reviewer,
		Organization: d.organization(reviewer), ModelFamily: family, Verdict: verdict}
	c := d.claims[ch.Claim]
	excluded := append(d.authorOrgs(c), ch.Organization)
	counted := v.Verdict != "could_not_judge" && v.Organization != "" && !slices.Contains(excluded, v.Organization)
	for i, r := range ch.Reviews {
		if ch.CountedReview[i] && r.Organization == v.Organization {
			counted = false
		}
	}
	ch.Reviews = append(ch.Reviews, v)
	ch.CountedReview = append(ch.CountedReview, counted)
	if !counted {
		return
	}
	agree := 0
	for i, r := range ch.Reviews {
		if ch.CountedReview[i] && r.Verdict == v.Verdict {
			agree++
		}
	}
	if agree < PanelAgrees {
		return
	}
	ch.State, ch.Settled, ch.SettledAt = v.Verdict, index, d.last
	delete(d.openChallenges, ch.Index)
	d.touch(ch.Claim)
	if v.Verdict == ChallengeUpheld && !c.refuted {
		c.refuted, c.refutedAt, c.refutedBy = true, d.last, ch.Index
		delete(d.pending, c.id)
	}
}

// voidChallenges voids every open challenge whose window closed by now,
// or whose claim no bundle still up holds.
func (d *Deriver) voidChallenges(now time.Time) {
	for index := range d.openChallenges {
		ch := d.challenges[index]
		c := d.claims[ch.Claim]
		live := slices.ContainsFunc(c.bundles, func(b *bundleState) bool { return !b.withdrawn })
		if !live || !now.Before(ch.At.Add(ChallengeWindow)) {
			ch.State, ch.SettledAt = ChallengeVoid, now
			delete(d.openChallenges, index)
			d.touch(ch.Claim)
		}
	}
}

// Challenge answers for the challenge logged at index, as of now; false
// when no challenge is logged there.
func (d *Deriver) Challenge(index uint64, now time.Time) (Challenge, bool) {
	ch := d.challenges[index]
	if ch == nil {
		return Challenge{}, false
	}
	out := ch.Challenge
	out.Reviews = slices.Clone(out.Reviews)
	out.CountedReview = slices.Clone(out.CountedReview)
	if out.State == ChallengeOpen && d.challengeLapsed(ch, now) {
		out.State, out.SettledAt = ChallengeVoid, ch.At.Add(ChallengeWindow)
	}
	return out, true
}

func (d *Deriver) challengeLapsed(ch *challengeState, now time.Time) bool {
	c := d.claims[ch.Claim]
	live := slices.ContainsFunc(c.bundles, func(b *bundleState) bool { return !b.withdrawn })
	return !live || !now.Before(ch.At.Add(ChallengeWindow))
}

// OpenChallenges lists the challenges still open as of now, oldest first.
func (d *Deriver) OpenChallenges(now time.Time) []uint64 {
	var out []uint64
	for index := range d.openChallenges {
		if !d.challengeLapsed(d.challenges[index], now) {
			out = append(out, index)
		}
	}
	slices.Sort(out)
	return out
}

// SettledChallenges lists every challenge settled or void as of now,
// oldest first: what the node settles the credit of.
func (d *Deriver) SettledChallenges(now time.Time) []uint64 {
	var out []uint64
	for index, ch := range d.challenges {
		if ch.State != ChallengeOpen || d.challengeLapsed(ch, now) {
			out = append(out, index)
		}
	}
	slices.Sort(out)
	return out
}

// contested fills the claim's challenge requirements and reports whether
// one is open as of now.
func (d *Deriver) contested(c *claimState, now time.Time) (bool, map[string]any, []any) {
	open := false
	var list []any
	for _, index := range c.challenges {
		ch, _ := d.Challenge(index, now)
		open = open || ch.State == ChallengeOpen
		list = append(list, map[string]any{"index": index, "ground": ch.Ground, "challenger": ch.Challenger,
			"state": ch.State, "logged_at": tlog.FormatTimestamp(ch.At)})
	}
	if list == nil {
		list = []any{}
	}
	return open, map[string]any{"met": open, "challenges": list}, list
}

// EvidenceUsed reports whether a challenge to claim already used
// evidence, which may not be used on it again unless that challenge went
// void.
func (d *Deriver) EvidenceUsed(claim, evidence string, now time.Time) bool {
	c := d.claims[claim]
	if c == nil {
		return false
	}
	for _, index := range c.challenges {
		ch, _ := d.Challenge(index, now)
		if ch.Evidence == evidence && ch.State != ChallengeVoid {
			return true
		}
	}
	return false
}
