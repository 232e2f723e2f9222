package jobs

import "time"

// Kinds of credit movement. An account is the list of its movements, never
// rewritten: every balance is computed from it.
const (
	Earned   = "earned"   // a job done with work, or a caught canary
	Granted  = "granted"  // passing a level of the qualification test
	Given    = "given"    // credit a person gave
	Moved    = "moved"    // credit a person moved between their agents (either sign)
	Spent    = "spent"    // a bundle's price (negative)
	Refunded = "refunded" // what a bundle's round gave back
	Lost     = "lost"     // a missed canary, a false alarm, an overturned concern (negative)
)

// Movement is one change to an operator's credit. Key names what caused
// it, so that one cause moves credit once: "job:<id>", "bundle:<hash>",
// "grant:<organization>:<level>".
type Movement struct {
	Operator string
	Kind     string
	Amount   int // positive in, negative out
	Key      string
	At       time.Time
}

// JobsForSpending is how many jobs with work an organization must have
// done before its operators may spend given, moved and granted credit.
const JobsForSpending = 2

// Verification is the operator record's `verification` object.
type Verification struct {
	Earned, Given, Moved, Granted, Lost, Spent int
	Balance, Spendable                         int
	GivenWaitsForJobs                          int
}

// Object is its JSON, in the spec's members.
func (v Verification) Object() map[string]any {
	return map[string]any{
		"earned": v.Earned, "given": v.Given, "moved": v.Moved, "granted": v.Granted, "lost": v.Lost,
		"spent": v.Spent, "balance": v.Balance, "spendable": v.Spendable, "given_waits_for_jobs": v.GivenWaitsForJobs,
	}
}

// Account sums an operator's movements. orgJobs is how many jobs with work
// its organization has done: until JobsForSpending, gifts, moved and
// granted credit are kept but not spendable. Spent and Lost are given as
// the credit that left (positive); refunds reduce Spent.
func Account(moves []Movement, orgJobs int) Verification {
	var v Verification
	for _, m := range moves {
		switch m.Kind {
		case Earned:
			v.Earned += m.Amount
		case Granted:
			v.Granted += m.Amount
		case Given:
			v.Given += m.Amount
		case Moved:
			v.Moved += m.Amount
		case Spent:
			v.Spent -= m.Amount
		case Refunded:
			v.Spent -= m.Amount
		case Lost:
			v.Lost -= m.Amount
		}
		v.Balance += m.Amount
	}
	v.GivenWaitsForJobs = max(0, JobsForSpending-orgJobs)
	v.Spendable = v.Balance
	if v.GivenWaitsForJobs > 0 {
		v.Spendable -= v.Given + v.Moved + v.Granted
	}
	v.Spendable = max(0, min(v.Spendable, v.Balance))
	return v
}

// The free bundle for verifiers ("Verify first"): an organization that did
// FreeBundleJobs jobs with work in the last FreeBundleDays days and had no
// such bundle in the last FreeBundleEvery, with a reputation that isn't
// negative.
const (
	FreeBundleJobs  = 2
	FreeBundleDays  = 30
	FreeBundleEvery = 7 * 24 * time.Hour
)

// FreeBundle is the operator record's `free_bundle` object.
type FreeBundle struct {
	Available    bool
	Jobs         int
	JobsNeeded   int
	Days         int
	AgainAt      time.Time // zero when no free bundle holds it back
	ReputationOK bool
}

// Object is its JSON.
func (f FreeBundle) Object() map[string]any {
	var again any
	if !f.AgainAt.IsZero() {
		again = f.AgainAt.UTC().Format(time.RFC3339)
	}
	return map[string]any{"available": f.Available, "jobs": f.Jobs, "jobs_needed": f.JobsNeeded, "days": f.Days,
		"again_at": again, "reputation_ok": f.ReputationOK}
}

// FreeBundleFor says whether a bundle the balance can't cover goes free
// now: orgJobs30 is the organization's jobs with work in the last 30 days,
// lastFree when it last had a free bundle for verifiers (zero if never),
// and reputation its reputation.
func FreeBundleFor(orgJobs30 int, lastFree, now time.Time, reputation int) FreeBundle {
	f := FreeBundle{Jobs: min(orgJobs30, FreeBundleJobs), JobsNeeded: FreeBundleJobs, Days: FreeBundleDays, ReputationOK: reputation >= 0}
	if !lastFree.IsZero() && now.Before(lastFree.Add(FreeBundleEvery)) {
		f.AgainAt = lastFree.Add(FreeBundleEvery)
	}
	f.Available = orgJobs30 >= FreeBundleJobs && f.AgainAt.IsZero() && f.ReputationOK
	return f
}
