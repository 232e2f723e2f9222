package status

// Key recoveries ("Your key is your identity"): an operator that lost its
// key takes its ID back with a new one, and disowns what the lost key
// signed from the recovery's since on. Here that means its verdicts stop
// counting, and so do its reviews on challenge panels that have not
// decided; its open challenges and its retractions are void. Anything sealed counts from when
// it was sealed, so a verdict revealed after since from a commitment
// logged before it stands; and what was settled stands: a claim already
// Refuted, a challenge a panel decided.

// signedAt is where the key that signed the entry in leaf is read: the
// commitment it was revealed from, or its own index.
func signedAt(index uint64, leaf map[string]any) uint64 {
	sealed, _ := leaf["sealed"].(map[string]any)
	if at, ok := sealed["index"].(float64); ok && at >= 0 && at < float64(index) {
		return uint64(at)
	}
	return index
}

// disown reads the key recovery logged at index.
func (d *Deriver) disown(index uint64, leaf, entry map[string]any) {
	op, _ := leaf["operator"].(string)
	since, ok := entry["since"].(float64)
	if op == "" || !ok || since < 0 || since >= float64(index) {
		return // disowns nothing
	}
	from := uint64(since)
	lost := func(v *Vote) bool { return v.Verifier == op && !v.Disowned && v.Signed >= from && v.Signed < index }
	for id, c := range d.claims {
		changed, reproduction := false, false
		for i := range c.votes {
			if v := &c.votes[i]; lost(v) {
				v.Disowned, changed = true, true
				reproduction = reproduction || v.Job == "reproduction"
			}
		}
		if !changed {
			continue
		}
		d.touch(id)
		if reproduction {
			d.noteReproduction(c, index)
		}
	}
	d.voidRetractions(op, from, index)
	for at := range d.openChallenges {
		ch := d.challenges[at]
		if ch.Challenger == op && at >= from && at < index {
			ch.State, ch.SettledAt = ChallengeVoid, d.last
			delete(d.openChallenges, at)
			d.touch(ch.Claim)
			continue
		}
		for i := range ch.Reviews {
			if lost(&ch.Reviews[i]) {
				ch.Reviews[i].Disowned, ch.CountedReview[i] = true, false
			}
		}
	}
}

// voidRetractions voids the retractions op logged from since up to index:
// their papers are no longer Retracted, and may be retracted again.
func (d *Deriver) voidRetractions(op string, since, index uint64) {
	kept := d.retractionOrder[:0]
	for _, paper := range d.retractionOrder {
		r := d.retractions[paper]
		if r.Author == op && r.Index >= since && r.Index < index {
			delete(d.retractions, paper)
			d.touchPaper(paper)
			continue
		}
		kept = append(kept, paper)
	}
	d.retractionOrder = kept
}
