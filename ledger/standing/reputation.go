package standing

import (
	"slices"

	"github.com/agora-node/agora/ledger/status"
)

// BuiltOnCap is how many organizations' claims building on one claim
// count toward its author's reputation.
const BuiltOnCap = 5

// reputation counts the reputation events the log records.
func (w *sheet) reputation() {
	part := func(op, name string) { w.standing(op).Reputation.Parts[name]++ }
	// current are the claims of their authors' current bundles: a claim
	// withdrawn or corrected away builds on nothing.
	current, authors := map[string]bool{}, map[string]bool{}
	for _, bd := range w.bundles {
		if !authors[bd.Author] {
			authors[bd.Author] = true
			for _, id := range w.d.CurrentClaims(bd.Author) {
				current[id] = true
			}
		}
	}
	for _, id := range w.d.IDs() {
		c := w.claims[id]
		author := w.first(id).Author
		if req(c, "reproduced", "met") == true {
			part(author, "claim_reproduced")
			w.standing(author).counts["reproduced"]++
		}
		if req(c, "replicated", "met") == true {
			part(author, "claim_replicated")
		}
		if c.Has("refuted") {
			part(author, "claim_refuted")
		}
		w.verdicts(c)
		if established(c) && current[id] {
			w.builtOn(id)
		}
	}
	for _, index := range w.d.SettledChallenges(w.now) {
		ch, _ := w.d.Challenge(index, w.now)
		switch ch.State {
		case status.ChallengeUpheld:
			part(ch.Challenger, "challenge_upheld")
			w.standing(ch.Challenger).counts["challenges_upheld"]++
		case status.ChallengeRejected:
			part(ch.Challenger, "challenge_rejected")
		}
	}
	for dep, orgs := range w.builders {
		w.standing(w.first(dep).Author).Reputation.Parts["claim_built_on"] += min(len(orgs), BuiltOnCap)
	}
}

// verdicts counts each verifier's reproduction verdict on c, its first,
// confirmed when the claim settled its way and contradicted when it said
// reproduced on a claim refuted for failing to reproduce.
func (w *sheet) verdicts(c status.Claim) {
	failedRefuted := c.Has("refuted") && req(c, "refuted", "challenge") == nil
	reproduced := req(c, "reproduced", "met") == true
	failed := req(c, "reproduced", "failed") == true || failedRefuted
	seen := map[string]bool{}
	for _, a := range c.Attestations {
		if a.Job != "reproduction" || seen[a.Verifier] || (a.Verdict != "reproduced" && a.Verdict != "mismatch") {
			continue
		}
		seen[a.Verifier] = true
		st := w.standing(a.Verifier)
		switch {
		case a.Verdict == "reproduced" && reproduced, a.Verdict == "mismatch" && failed:
			st.Reputation.Parts["verdict_confirmed"]++
			st.counts["verdicts_held"]++
		case a.Verdict == "reproduced" && failedRefuted:
			st.Reputation.Parts["verdict_contradicted"]++
		}
	}
}

// builtOn notes the claims established claim id, still current, builds
// on that another organization wrote: once per organization of its
// author.
func (w *sheet) builtOn(id string) {
	builder := w.first(id).AuthorOrg
	for _, dep := range w.d.DependsOn(id) {
		if w.holder[dep] == nil || w.first(dep).AuthorOrg == builder {
			continue
		}
		if w.builders == nil {
			w.builders = map[string][]string{}
		}
		if !slices.Contains(w.builders[dep], builder) {
			w.builders[dep] = append(w.builders[dep], builder)
		}
	}
}
