package status

import (
	"cmp"
	"slices"
	"time"
)

// What the log says of bundles, authors and dependencies, for readers
// that account for operators' work (ledger/standing) rather than claims.

// Bundle is an opened bundle as the log has it.
type Bundle struct {
	Hash      string
	Author    string
	AuthorOrg string // the author's organization when it opened; the author itself without one
	Paper     string // the hash of its paper's first version
	Replaces  string
	Claims    []string
	Opened    uint64
	At        time.Time
	Withdrawn bool
}

// Bundles lists every bundle the log opened, in log order.
func (d *Deriver) Bundles() []Bundle {
	out := make([]Bundle, 0, len(d.bundles))
	for _, b := range d.bundles {
		out = append(out, Bundle{Hash: b.hash, Author: b.author, AuthorOrg: b.authorOrg, Paper: b.paper, Replaces: b.replaces,
			Claims: slices.Clone(b.claims), Opened: b.opened, At: b.openedAt, Withdrawn: b.withdrawn})
	}
	slices.SortFunc(out, func(a, b Bundle) int { return cmp.Compare(a.Opened, b.Opened) })
	return out
}

// DependsOn lists the claims claim id's claims.json says it depends on,
// by global ID; none when its bundle's files could not be read.
func (d *Deriver) DependsOn(id string) []string {
	if c := d.claims[id]; c != nil {
		return slices.Clone(c.dependsOn)
	}
	return nil
}

// Organization is what operator op counts as now: its latest identity's
// organization, "" without one.
func (d *Deriver) Organization(op string) string { return d.organization(op) }
