package status

import (
	"slices"
	"time"
)

// The status index keeps, for each status, the claims holding it, so a
// search for a rare status reads those claims and no others. Add marks
// the claims each leaf can change; the index recomputes them at the next
// read, together with the claims whose statuses time alone can change
// (a failed reproduction waiting for its correct_by, a challenge waiting
// for its panel or its window to close).

// touch marks claim id for the index to recompute.
func (d *Deriver) touch(ids ...string) {
	for _, id := range ids {
		c := d.claims[id]
		if c != nil {
			// The index keeps the ID for good: the claim's own copy, not
			// the leaf's, which would keep the whole leaf.
			id = c.id
		}
		d.dirty[id] = true
		// A replication's standing is its original's Replicated.
		if c != nil && c.typ == "replication" {
			for _, dep := range c.dependsOn {
				d.dirty[dep] = true
			}
		}
	}
}

// touchPaper marks every claim of every version of paper.
func (d *Deriver) touchPaper(paper string) {
	for _, b := range d.papers[paper] {
		d.touch(b.claims...)
	}
}

// refreshIndex brings the index up to date as of now.
func (d *Deriver) refreshIndex(now time.Time) {
	// Time changes a claim's statuses only at its deadlines: a failed
	// reproduction's correct_by, an open challenge's window.
	if now.Before(d.indexedAt) {
		for id := range d.pending {
			d.dirty[id] = true
		}
		for index := range d.openChallenges {
			d.dirty[d.challenges[index].Claim] = true
		}
	}
	for id := range d.pending {
		if c := d.claims[id]; !now.Before(c.failedSince.Add(CorrectWithin)) && d.indexedAt.Before(c.failedSince.Add(CorrectWithin)) {
			d.dirty[id] = true
		}
	}
	for index := range d.openChallenges {
		ch := d.challenges[index]
		if end := ch.At.Add(ChallengeWindow); !now.Before(end) && d.indexedAt.Before(end) {
			d.dirty[ch.Claim] = true
		}
	}
	d.indexedAt = now
	if len(d.dirty) > 0 {
		d.generation++
	}
	for id := range d.dirty {
		for _, s := range d.held[id] {
			delete(d.byStatus[s], id)
		}
		c, ok := d.Claim(id, now)
		if !ok {
			delete(d.held, id)
			continue
		}
		d.held[id] = c.Statuses
		for _, s := range c.Statuses {
			if d.byStatus[s] == nil {
				d.byStatus[s] = map[string]bool{}
			}
			d.byStatus[s][id] = true
		}
	}
	clear(d.dirty)
}

// WithStatus lists, in ID order, the claims holding any of statuses as of
// now, which should be no earlier than the last leaf added.
func (d *Deriver) WithStatus(now time.Time, statuses ...string) []string {
	d.refreshIndex(now)
	var out []string
	for _, s := range statuses {
		for id := range d.byStatus[s] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CountWithStatus is how many claims hold any of statuses as of now, at
// most len(WithStatus), without listing them.
func (d *Deriver) CountWithStatus(now time.Time, statuses ...string) int {
	d.refreshIndex(now)
	n := 0
	for _, s := range statuses {
		n += len(d.byStatus[s])
	}
	return n
}

// Statuses returns claim id's statuses as of now from the index, as
// Claim would give them, without building its requirements.
func (d *Deriver) Statuses(id string, now time.Time) []string {
	d.refreshIndex(now)
	return d.held[id]
}
