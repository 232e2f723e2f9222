package status

import (
	"cmp"
	"slices"
	"time"
)

// Attention is what an operator record's `attention` lists of its
// author's current claims (CurrentClaims), each list in ID order: the
// contested, the refuted, those resting on refuted or retracted claims,
// and those whose checks found something a new version could fix. A
// retracted claim is in none.
type Attention struct {
	Open, Refuted, OnRefuted, OnRetracted []string
	Improve                               []Improvable
}

// Improvable is a claim other organizations' checks found something in
// that a new version could fix: Findings name the checks (reproduction,
// review, proof); CorrectBy is zero unless its reproduction failed.
type Improvable struct {
	Claim     string
	Bundle    string // the newest bundle still up that holds it
	Findings  []string
	CorrectBy time.Time
}

// Attention answers for author's current claims as of now, which should
// be no earlier than the last leaf added. It reads the status index, so
// its cost is a map lookup or two for each claim, and Claim only for the
// claims some check voted on (no vote, no finding); and it keeps its
// answers until a leaf is added or the index changes, since nothing else
// changes them. The lists are the caller's.
func (d *Deriver) Attention(author string, now time.Time) Attention {
	d.refreshIndex(now)
	if d.attention.size != d.next || d.attention.generation != d.generation {
		d.attention.size, d.attention.generation = d.next, d.generation
		clear(d.attention.of)
	}
	a, ok := d.attention.of[author]
	if !ok {
		a = d.deriveAttention(author, now)
		if d.attention.of == nil {
			d.attention.of = map[string]Attention{}
		}
		d.attention.of[author] = a
	}
	return Attention{Open: slices.Clone(a.Open), Refuted: slices.Clone(a.Refuted), OnRefuted: slices.Clone(a.OnRefuted),
		OnRetracted: slices.Clone(a.OnRetracted), Improve: slices.Clone(a.Improve)}
}

// attentionCache is what Attention answered each author since the
// Deriver last changed: at size leaves and index generation.
type attentionCache struct {
	size, generation uint64
	of               map[string]Attention
}

func (d *Deriver) deriveAttention(author string, now time.Time) Attention {
	var out Attention
	for _, b := range d.currentBundles(author) {
		for _, id := range b.claims {
			held, ok := d.held[id]
			if !ok || slices.Contains(held, "retracted") {
				continue
			}
			refuted := slices.Contains(held, "refuted")
			if slices.Contains(held, "contested") {
				out.Open = append(out.Open, id)
			}
			if refuted {
				out.Refuted = append(out.Refuted, id)
			}
			c := d.claims[id]
			if len(c.dependsOn) > 0 {
				if d.restsOnHeld(id, "refuted") {
					out.OnRefuted = append(out.OnRefuted, id)
				}
				if d.restsOnHeld(id, "retracted") {
					out.OnRetracted = append(out.OnRetracted, id)
				}
			}
			if refuted || len(c.votes) == 0 {
				continue
			}
			claim, _ := d.Claim(id, now)
			if findings := improvable(claim); len(findings) > 0 {
				out.Improve = append(out.Improve, Improvable{Claim: id, Bundle: d.CurrentBundle(id), Findings: findings, CorrectBy: claim.CorrectBy})
			}
		}
	}
	// A claim two current bundles hold is listed once.
	for _, l := range []*[]string{&out.Open, &out.Refuted, &out.OnRefuted, &out.OnRetracted} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	slices.SortFunc(out.Improve, func(a, b Improvable) int { return cmp.Compare(a.Claim, b.Claim) })
	out.Improve = slices.CompactFunc(out.Improve, func(a, b Improvable) bool { return a.Claim == b.Claim })
	return out
}

// improvable names what other organizations' checks found in c that a
// new version could fix: reproduction, review, proof.
func improvable(c Claim) []string {
	var out []string
	req := func(name, key string) any {
		r, _ := c.Requirements[name].(map[string]any)
		return r[key]
	}
	if req("reproduced", "failed") == true {
		out = append(out, "reproduction")
	}
	if m := req("reviewed", "median"); m == "major_issues" || m == "unsound" {
		out = append(out, "review")
	}
	if req("formally_verified", "rejected") == true {
		out = append(out, "proof")
	}
	return out
}
