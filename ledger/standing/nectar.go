package standing

import (
	"cmp"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

// earning is one claim that lets an operator earn on a paper from At.
type earning struct {
	At    time.Time
	Score int
	Claim string
}

// hallmarks are the statuses that establish a claim.
var hallmarks = []string{"reproduced", "replicated", "formally_verified"}

// established reports whether c is established now: a hallmark held and
// not overridden.
func established(c status.Claim) bool {
	return slices.ContainsFunc(hallmarks, c.Has)
}

// published accounts for what authors earn and lose by their claims.
func (w *sheet) published() error {
	papers := map[string][]earning{}
	authorOf := map[string]string{}
	for _, id := range w.d.IDs() {
		c := w.claims[id]
		first := w.first(id)
		if !established(c) && !c.Has("refuted") {
			continue
		}
		r, err := w.importance(id)
		if err != nil {
			return err
		}
		if r.Revealed.IsZero() {
			continue
		}
		if c.Has("refuted") {
			w.earn(first.Author, later(r.Revealed, w.refutedAt(c)), -r.Score, Refuted, id, first.Paper)
			continue
		}
		authorOf[first.Paper] = first.Author
		papers[first.Paper] = append(papers[first.Paper], earning{At: later(r.Revealed, w.establishedAt(c)), Score: r.Score, Claim: id})
	}
	for paper, list := range papers {
		w.mostImportant(authorOf[paper], Published, paper, list, func(score int) int { return score })
	}
	return nil
}

// mostImportant earns op, on one paper, the most important of list as it
// grew: each claim that beat the best before it earns the difference.
func (w *sheet) mostImportant(op, reason, paper string, list []earning, worth func(int) int) {
	slices.SortFunc(list, func(a, b earning) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Claim, b.Claim)) })
	best := 0
	for _, e := range list {
		if v := worth(e.Score); v > best {
			w.earn(op, e.At, v-best, reason, e.Claim, paper)
			best = v
		}
	}
}

// settledWorth is 10% of an importance score, rounded half up.
func settledWorth(score int) int { return (score + 5) / 10 }

// settled accounts for what operators earn by settling other
// organizations' claims: their organization's counted reproduction or
// proof check on the winning side, their replication that matched, or
// their challenge upheld.
func (w *sheet) settled() error {
	type key struct{ op, paper string }
	found := map[key][]earning{}
	add := func(op, id string, at time.Time) error {
		r, err := w.importance(id)
		if err != nil || r.Revealed.IsZero() {
			return err
		}
		k := key{op, w.first(id).Paper}
		found[k] = append(found[k], earning{At: later(r.Revealed, at), Score: r.Score, Claim: id})
		return nil
	}
	for _, id := range w.d.IDs() {
		c := w.claims[id]
		for _, rep := range asList(req(c, "replicated", "replications")) {
			m, _ := rep.(map[string]any)
			rid, _ := m["claim"].(string)
			if m["met"] != true || w.holder[rid] == nil {
				continue
			}
			if err := add(w.first(rid).Author, id, w.latestLogged(m)); err != nil {
				return err
			}
		}
		for _, side := range winners(c) {
			for _, a := range c.Attestations {
				if a.Counted && a.Job == side.job && a.Verdict == side.verdict {
					if err := add(a.Verifier, id, w.book.At(a.Index)); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, index := range w.d.SettledChallenges(w.now) {
		ch, _ := w.d.Challenge(index, w.now)
		if ch.State != status.ChallengeUpheld || w.holder[ch.Claim] == nil {
			continue
		}
		if err := add(ch.Challenger, ch.Claim, ch.SettledAt); err != nil {
			return err
		}
	}
	for k, list := range found {
		w.mostImportant(k.op, Settled, k.paper, list, settledWorth)
	}
	return nil
}

// side is a verdict that won a kind of check.
type side struct{ job, verdict string }

// winners are the sides that settled c's checks, either way.
func winners(c status.Claim) []side {
	var out []side
	if req(c, "reproduced", "met") == true {
		out = append(out, side{"reproduction", "reproduced"})
	} else if req(c, "reproduced", "failed") == true {
		out = append(out, side{"reproduction", "mismatch"})
	}
	if req(c, "formally_verified", "met") == true {
		out = append(out, side{"proof_check", "passed"})
	} else if req(c, "formally_verified", "rejected") == true {
		out = append(out, side{"proof_check", "failed"})
	}
	return out
}

// req is one member of one of c's requirements.
func req(c status.Claim, name, member string) any {
	r, _ := c.Requirements[name].(map[string]any)
	return r[member]
}

// establishedAt is when c's first hallmark held now was met: when the
// latest entry its requirement names was logged.
func (w *sheet) establishedAt(c status.Claim) time.Time {
	var at time.Time
	for _, h := range hallmarks {
		if !c.Has(h) {
			continue
		}
		r, _ := c.Requirements[h].(map[string]any)
		var t time.Time
		if h == "replicated" {
			for _, rep := range asList(r["replications"]) {
				if m, _ := rep.(map[string]any); m["met"] == true {
					t = later(t, w.latestLogged(m))
				}
			}
		} else {
			t = w.latestLogged(r)
		}
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	if at.IsZero() {
		at = w.first(c.ID).At
	}
	return at
}

// latestLogged is when the latest entry of a requirement's logs.each was
// logged.
func (w *sheet) latestLogged(r map[string]any) time.Time {
	logs, _ := r["logs"].(map[string]any)
	var at time.Time
	for _, v := range asList(logs["each"]) {
		if i, ok := v.(uint64); ok {
			at = later(at, w.book.At(i))
		}
	}
	return at
}

// refutedAt is when c was refuted: its upheld challenge settled, or its
// correct_by passed.
func (w *sheet) refutedAt(c status.Claim) time.Time {
	if i, ok := req(c, "refuted", "challenge").(uint64); ok {
		if ch, ok := w.d.Challenge(i, w.now); ok {
			return ch.SettledAt
		}
	}
	return c.CorrectBy
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}
