package status

import (
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
)

// Preregistration is a plan committed on the log before its work ran
// ("Pre-registering a plan"): the log holds only its digest. Statuses do
// not depend on it; readers and reviewers weigh it.
type Preregistration struct {
	ID           string // prereg: and the SHA-256 of its entry without the signature
	Index        uint64
	At           time.Time
	Operator     string
	Organization string
	Plan         string
	ReportBy     string   // YYYY-MM-DD
	Bundles      []string // the opened bundles that report it, in log order
}

// preregister reads a preregistration entry.
func (d *Deriver) preregister(index uint64, at time.Time, entry map[string]any) {
	id, err := protocol.PreregistrationID(entry)
	if err != nil || d.preregs[id] != nil {
		return
	}
	p := &Preregistration{ID: id, Index: index, At: at}
	p.Operator, _ = entry["operator"].(string)
	p.Plan, _ = entry["plan"].(string)
	p.ReportBy, _ = entry["report_by"].(string)
	p.Organization = d.organization(p.Operator)
	d.preregs[id] = p
}

// Preregistration answers for a registration by its ID.
func (d *Deriver) Preregistration(id string) (Preregistration, bool) {
	p := d.preregs[id]
	if p == nil {
		return Preregistration{}, false
	}
	out := *p
	out.Bundles = slices.Clone(p.Bundles)
	return out, true
}

// PreregisteredClaim is what a claim's view says of the plan covering it.
type PreregisteredClaim struct {
	Preregistration
	Bundle string // the bundle that reported it for the claim
}

// PreregistrationOf returns the registration reported for claim by the
// newest bundle holding it that reported one.
func (d *Deriver) PreregistrationOf(claim string) (PreregisteredClaim, bool) {
	c := d.claims[claim]
	if c == nil {
		return PreregisteredClaim{}, false
	}
	for _, b := range slices.Backward(c.bundles) {
		id, ok := b.prereg[claim]
		if !ok {
			continue
		}
		if p, ok := d.Preregistration(id); ok {
			return PreregisteredClaim{p, b.hash}, true
		}
	}
	return PreregisteredClaim{}, false
}

// readReported reads which registration b's references.json cites, and
// for which of its claims (all when the reference lists none), as
// claims.json's local IDs map to b's claims.
func (d *Deriver) readReported(b *bundleState, local map[string]string) {
	data, err := d.files(b.hash, "references.json")
	if err != nil {
		return
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return
	}
	refs, _ := v.([]any)
	for _, r := range refs {
		ref, _ := r.(map[string]any)
		id, _ := ref["id"].(string)
		p := d.preregs[id]
		if p == nil {
			continue
		}
		covered := b.claims
		if list, ok := ref["claims"].([]any); ok {
			covered = nil
			for _, l := range list {
				name, _ := l.(string)
				if g, ok := local[name]; ok {
					covered = append(covered, g)
				} else if slices.Contains(b.claims, name) {
					covered = append(covered, name)
				}
			}
		}
		if b.prereg == nil {
			b.prereg = map[string]string{}
		}
		for _, c := range covered {
			b.prereg[c] = id
		}
		if !slices.Contains(p.Bundles, b.hash) {
			p.Bundles = append(p.Bundles, b.hash)
		}
		return // a bundle reports one registration
	}
}
