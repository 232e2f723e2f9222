package status

import (
	"slices"
	"time"

	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/vocabulary"
)

// Claim is what the log says of one claim at a moment.
type Claim struct {
	ID string
	// Statuses are the statuses it holds, in vocabulary.Statuses order.
	// Contested, Refuted and Retracted override the hallmarks, which then
	// show only in Requirements.
	Statuses []string
	// Requirements say, for each status, whether it holds, what it still
	// needs and the entries that met it, as GET /api/v1/claims/{id}
	// answers them.
	Requirements map[string]any
	// Attestations are the reproductions, reviews and proof checks given
	// on it, in log order, each saying whether it counted.
	Attestations []Attestation
	// CorrectBy is when a failed reproduction refutes it unless a
	// correction that changes it opens first; zero when none has failed.
	CorrectBy time.Time
}

// An Attestation is a Vote and whether it counted toward the claim's
// statuses: when not, NotCountedBecause is no_identity, author (the
// authors' organization), author_family (a family that wrote the
// version), other_version, repeat (its organization voted before),
// no_vote (could_not_run or could_not_judge) or disowned (a key recovery
// disowned what its verifier's lost key signed).
type Attestation struct {
	Vote
	Counted           bool
	NotCountedBecause string
}

// Has reports whether the claim holds status.
func (c Claim) Has(status string) bool { return slices.Contains(c.Statuses, status) }

// Known reports whether the log opened the claim.
func (d *Deriver) Known(id string) bool {
	c := d.claims[id]
	return c != nil && len(c.bundles) > 0
}

// IDs lists every claim the log opened.
func (d *Deriver) IDs() []string {
	out := make([]string, 0, len(d.claims))
	for id, c := range d.claims {
		if len(c.bundles) > 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Claim answers for claim id as of now, which should be no earlier than
// the last leaf added; false when the log never opened it.
func (d *Deriver) Claim(id string, now time.Time) (Claim, bool) {
	c := d.claims[id]
	if c == nil || len(c.bundles) == 0 {
		return Claim{}, false
	}
	out := Claim{ID: id, Requirements: map[string]any{}}
	counted := map[uint64]Attestation{}
	note := func(a Attestation) {
		if _, seen := counted[a.Index]; !seen || a.Counted {
			counted[a.Index] = a
		}
	}
	held := map[string]bool{}

	var live *bundleState
	for _, b := range c.bundles {
		if !b.withdrawn {
			live = b
		}
	}
	if live == nil {
		last := c.bundles[len(c.bundles)-1]
		held["unavailable"] = true
		out.Requirements["unavailable"] = map[string]any{"met": true, "logs": map[string]any{"each": last.withdrawal}}
	} else {
		held["published"] = true
		out.Requirements["published"] = map[string]any{"met": true, "logs": map[string]any{"each": live.opened}}
	}
	authors := d.authorOrgs(c)

	repro := d.tally(c, "reproduction", "reproduced", "mismatch")
	repro.record(note)
	reproduced := c.computes && repro.met()
	held["reproduced"] = reproduced
	r := repro.requirement(c.computes)
	switch {
	case !c.computes:
	case repro.failed():
		r["failed"] = true
	case !reproduced && len(repro.yes)+len(repro.no) > 0:
		r["unsettled"] = true
	}
	out.Requirements["reproduced"] = r

	proof := d.tally(c, "proof_check", "passed", "failed")
	proof.record(note)
	held["formally_verified"] = c.proves && proof.met()
	p := proof.requirement(c.proves)
	if c.proves && proof.failed() {
		p["rejected"] = true
	}
	out.Requirements["formally_verified"] = p

	reviewed, rv := d.reviewed(c, authors, reproduced, note)
	held["reviewed"] = reviewed
	out.Requirements["reviewed"] = rv

	replicated, rp := d.replicated(c, authors)
	held["replicated"] = replicated
	out.Requirements["replicated"] = rp

	refuted := c.refuted
	if !c.failedSince.IsZero() {
		out.CorrectBy = c.failedSince.Add(CorrectWithin)
		if !refuted && !now.Before(out.CorrectBy) && (c.correctedBy == "" || !c.correctedAt.Before(out.CorrectBy)) {
			refuted = true
		}
	}
	held["refuted"] = refuted
	ref := map[string]any{"met": refuted, "correct_by": nil}
	if !out.CorrectBy.IsZero() {
		ref["correct_by"] = tlog.FormatTimestamp(out.CorrectBy)
	}
	if c.correctedBy != "" {
		ref["corrected_by"] = c.correctedBy
	}
	out.Requirements["refuted"] = ref
	contested, creq, _ := d.contested(c, now)
	held["contested"] = contested && !refuted
	out.Requirements["contested"] = creq
	if c.refutedBy != 0 {
		ref["challenge"] = c.refutedBy
	}
	rq := map[string]any{"met": false, "retraction": nil}
	if r := d.retractedBy(c); r != nil {
		held["retracted"] = true
		rq = map[string]any{"met": true, "retraction": r.Index, "reason": r.Reason, "bundle": r.Bundle}
	}
	out.Requirements["retracted"] = rq

	overridden := held["refuted"] || held["contested"] || held["retracted"]
	for _, s := range vocabulary.Statuses {
		if !held[s] || live == nil && s != "unavailable" {
			continue
		}
		if overridden && isHallmark(s) {
			continue
		}
		out.Statuses = append(out.Statuses, s)
	}
	for _, v := range c.votes {
		if v.Job == "replication_match" {
			continue
		}
		a, ok := counted[v.Index]
		if !ok {
			a = Attestation{Vote: v, NotCountedBecause: "no_vote"}
		}
		out.Attestations = append(out.Attestations, a)
	}
	return out, true
}

// isHallmark reports whether s is a hallmark a claim earns by checks,
// which Contested, Refuted and Retracted override.
func isHallmark(s string) bool {
	switch s {
	case "reproduced", "reviewed", "formally_verified", "replicated":
		return true
	}
	return false
}

// authorOrgs are the organizations of the authors of every bundle that
// held c.
func (d *Deriver) authorOrgs(c *claimState) []string {
	var out []string
	for _, b := range c.bundles {
		if !slices.Contains(out, b.authorOrg) {
			out = append(out, b.authorOrg)
		}
	}
	return out
}

// tally is the votes of one kind of check on a claim: each organization
// other than the authors' votes once, with its first verdict that is yes
// or no.
type tally struct {
	yes, no []string // organizations
	logs    []uint64 // the counted votes' indexes
	seen    []Attestation
}

func (d *Deriver) tally(c *claimState, job, yes, no string) tally {
	authors := d.authorOrgs(c)
	return tallyVotes(c.votes, func(v Vote) bool { return v.Job == job }, authors, yes, no)
}

// tallyVotes counts the votes that match, excluding the organizations in
// excluded.
func tallyVotes(votes []Vote, match func(Vote) bool, excluded []string, yes, no string) tally {
	var t tally
	for _, v := range votes {
		if !match(v) {
			continue
		}
		a := Attestation{Vote: v}
		switch {
		case v.Disowned:
			a.NotCountedBecause = "disowned"
		case v.Verdict != yes && v.Verdict != no:
			a.NotCountedBecause = "no_vote"
		case v.Organization == "":
			a.NotCountedBecause = "no_identity"
		case slices.Contains(excluded, v.Organization):
			a.NotCountedBecause = "author"
		case slices.Contains(t.yes, v.Organization) || slices.Contains(t.no, v.Organization):
			a.NotCountedBecause = "repeat"
		default:
			a.Counted = true
			t.logs = append(t.logs, v.Index)
			if v.Verdict == yes {
				t.yes = append(t.yes, v.Organization)
			} else {
				t.no = append(t.no, v.Organization)
			}
		}
		t.seen = append(t.seen, a)
	}
	return t
}

// met: at least 2 organizations say yes, outnumbering those that say no.
func (t tally) met() bool { return len(t.yes) >= 2 && len(t.yes) > len(t.no) }

// failed: at least 2 organizations say no, outnumbering those that say
// yes.
func (t tally) failed() bool { return len(t.no) >= 2 && len(t.no) > len(t.yes) }

func (t tally) record(note func(Attestation)) {
	for _, a := range t.seen {
		note(a)
	}
}

func (t tally) requirement(applies bool) map[string]any {
	return map[string]any{
		"applies": applies, "met": applies && t.met(), "needs": 2,
		"organizations": map[string]any{"for": listOf(t.yes), "against": listOf(t.no)},
		"logs":          map[string]any{"each": indexes(t.logs)},
	}
}

func listOf(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func indexes(s []uint64) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// favourable are the review verdicts a median must reach.
var favourable = []string{"sound", "minor_issues"}

// reviewed decides Reviewed: the reviews of the newest version whose
// three kinds are in count, the others are other_version.
func (d *Deriver) reviewed(c *claimState, authors []string, reproduced bool, note func(Attestation)) (bool, map[string]any) {
	type version struct {
		b       *bundleState
		counted []Attestation
		kinds   map[string]bool
	}
	var versions []*version
	for _, b := range c.bundles {
		if !b.withdrawn {
			versions = append(versions, &version{b: b, kinds: map[string]bool{}})
		}
	}
	all := map[uint64]Attestation{}
	for _, v := range c.votes {
		if !slices.Contains(vocabulary.ReviewJobs, v.Job) {
			continue
		}
		a := Attestation{Vote: v}
		var ver *version
		for _, x := range versions {
			if x.b.hash == v.Bundle {
				ver = x
			}
		}
		switch {
		case v.Disowned:
			a.NotCountedBecause = "disowned"
		case v.Verdict == "could_not_judge":
			a.NotCountedBecause = "no_vote"
		case v.Organization == "":
			a.NotCountedBecause = "no_identity"
		case slices.Contains(authors, v.Organization):
			a.NotCountedBecause = "author"
		case ver == nil:
			a.NotCountedBecause = "other_version"
		case slices.Contains(ver.b.families, v.ModelFamily):
			a.NotCountedBecause = "author_family"
		case slices.ContainsFunc(ver.counted, func(o Attestation) bool {
			return o.Organization == v.Organization && o.Job == v.Job
		}):
			a.NotCountedBecause = "repeat"
		default:
			a.Counted = true
			ver.counted = append(ver.counted, a)
			ver.kinds[v.Job] = true
		}
		all[v.Index] = a
	}
	var chosen *version
	for i := len(versions) - 1; i >= 0 && chosen == nil; i-- {
		if len(versions[i].kinds) == len(vocabulary.ReviewJobs) {
			chosen = versions[i]
		}
	}
	if chosen == nil && len(versions) > 0 {
		chosen = versions[len(versions)-1]
	}
	req := map[string]any{"applies": true, "met": false, "bundle": nil, "median": nil,
		"families": []any{}, "kinds": map[string]any{}, "needs_reproduced": c.computes}
	if chosen == nil {
		for _, a := range all {
			note(a)
		}
		return false, req
	}
	req["bundle"] = chosen.b.hash
	var families []string
	var verdicts []string
	kinds := map[string]any{}
	for _, k := range vocabulary.ReviewJobs {
		kinds[k] = []any{}
	}
	for _, a := range chosen.counted {
		if !slices.Contains(families, a.ModelFamily) {
			families = append(families, a.ModelFamily)
		}
		verdicts = append(verdicts, a.Verdict)
		kinds[a.Job] = append(kinds[a.Job].([]any), a.Index)
	}
	for idx, a := range all {
		if a.Counted && a.Bundle != chosen.b.hash {
			a.Counted, a.NotCountedBecause = false, "other_version"
			all[idx] = a
		}
		note(all[idx])
	}
	median := medianVerdict(verdicts)
	req["families"], req["kinds"] = listOf(families), kinds
	if median != "" {
		req["median"] = median
	}
	met := len(chosen.kinds) == len(vocabulary.ReviewJobs) && len(families) >= 2 &&
		slices.Contains(favourable, median) && (!c.computes || reproduced)
	req["met"] = met
	return met, req
}

// medianVerdict is the median of review verdicts, ordered best first as
// vocabulary.ReviewVerdicts lists them; of two middle ones, the worse.
func medianVerdict(verdicts []string) string {
	if len(verdicts) == 0 {
		return ""
	}
	rank := func(v string) int { return slices.Index(vocabulary.ReviewVerdicts, v) }
	sorted := slices.Clone(verdicts)
	slices.SortFunc(sorted, func(a, b string) int { return rank(a) - rank(b) })
	return sorted[len(sorted)/2]
}

// replicated decides Replicated: a replication claim in another
// organization's open bundle that depends on c, judged a match by 2
// organizations other than both authors', none judging a mismatch.
func (d *Deriver) replicated(c *claimState, authors []string) (bool, map[string]any) {
	var found []any
	met := false
	for _, rid := range c.replications {
		r := d.claims[rid]
		if r == nil {
			continue
		}
		theirs := d.authorOrgs(r)
		open := slices.ContainsFunc(r.bundles, func(b *bundleState) bool { return !b.withdrawn })
		independent := !slices.ContainsFunc(theirs, func(o string) bool { return slices.Contains(authors, o) })
		if !open || !independent {
			continue
		}
		excluded := append(slices.Clone(authors), theirs...)
		t := tallyVotes(r.votes, func(v Vote) bool { return v.Job == "replication_match" }, excluded, "matched", "mismatched")
		ok := len(t.yes) >= 2 && len(t.no) == 0
		met = met || ok
		found = append(found, map[string]any{"claim": rid, "met": ok,
			"organizations": map[string]any{"for": listOf(t.yes), "against": listOf(t.no)},
			"logs":          map[string]any{"each": indexes(t.logs)}})
	}
	if found == nil {
		found = []any{}
	}
	return met, map[string]any{"applies": true, "met": met, "replications": found}
}
