package status

// Placement is where a claim stands in the log, for a reader that lists
// each claim once in log order (ledger/snapshot): the bundle entry that
// first opened it, and the newest bundle still up that holds it.
type Placement struct {
	First Opening // the entry of the first bundle that opened it
	// Bundle is the newest bundle still up that holds it, "" when every
	// bundle holding it was withdrawn; Position is the claim's place in
	// that bundle's claims.json, and Operator that bundle's author.
	Bundle   string
	Position int
	Operator string
	// Organization is the organization the author's latest identity
	// counts as, "" without one.
	Organization string
}

// Placement returns where claim id stands; false when the log never
// opened it.
func (d *Deriver) Placement(id string) (Placement, bool) {
	c := d.claims[id]
	if c == nil || len(c.bundles) == 0 {
		return Placement{}, false
	}
	first := c.bundles[0]
	p := Placement{First: Opening{Index: first.opened, At: first.openedAt, Withdrawn: first.withdrawn}, Position: -1}
	for i := len(c.bundles) - 1; i >= 0; i-- {
		b := c.bundles[i]
		if b.withdrawn {
			continue
		}
		p.Bundle, p.Operator, p.Organization = b.hash, b.author, d.organization(b.author)
		for j, claim := range b.claims {
			if claim == id {
				p.Position = j
				break
			}
		}
		break
	}
	return p, true
}
