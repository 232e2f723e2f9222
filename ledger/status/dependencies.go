package status

import (
	"cmp"
	"slices"
	"time"
)

// DependsOnHeld lists the claims id rests on, directly or through other
// claims, that hold status as of now ("refuted" or "retracted"), in ID
// order: a claim's depends_on_refuted and depends_on_retracted. It reads
// the status index.
func (d *Deriver) DependsOnHeld(id, status string, now time.Time) []string {
	d.refreshIndex(now)
	var out []string
	d.eachDependency(id, func(dep string) bool {
		if slices.Contains(d.held[dep], status) {
			out = append(out, dep)
		}
		return true
	})
	slices.Sort(out)
	return out
}

// restsOnHeld reports whether id rests on a claim holding status by the
// index, which must be up to date: len(DependsOnHeld) > 0.
func (d *Deriver) restsOnHeld(id, status string) bool {
	found := false
	d.eachDependency(id, func(dep string) bool {
		found = slices.Contains(d.held[dep], status)
		return !found
	})
	return found
}

// eachDependency calls each with every claim id rests on, directly or
// through other claims, once, nearest first, until each returns false.
func (d *Deriver) eachDependency(id string, each func(dep string) bool) {
	if len(d.dependsOn(id)) == 0 {
		return
	}
	seen := map[string]bool{id: true}
	queue := slices.Clone(d.dependsOn(id))
	for len(queue) > 0 {
		dep := queue[0]
		queue = queue[1:]
		if seen[dep] {
			continue
		}
		seen[dep] = true
		if !each(dep) {
			return
		}
		queue = append(queue, d.dependsOn(dep)...)
	}
}

func (d *Deriver) dependsOn(id string) []string {
	if c := d.claims[id]; c != nil {
		return c.dependsOn
	}
	return nil
}

// Waiting is a measured claim no replication has confirmed yet.
type Waiting struct {
	Claim      string
	Bundle     string // the newest bundle still up that holds it
	Dependents int    // how many claims the log opened build on it
}

// WaitingReplication lists the measured claims still up that no
// replication has confirmed, as of now: those most claims build on first,
// then the newest ("Replication matches", GET /api/v1/replications).
func (d *Deriver) WaitingReplication(now time.Time) []Waiting {
	dependents := map[string]int{}
	for _, c := range d.claims {
		if len(c.bundles) == 0 {
			continue
		}
		for _, dep := range c.dependsOn {
			dependents[dep]++
		}
	}
	var out []Waiting
	opened := map[string]uint64{}
	for id, c := range d.claims {
		if !c.measures || len(c.bundles) == 0 {
			continue
		}
		var live *bundleState
		for _, b := range c.bundles {
			if !b.withdrawn {
				live = b
			}
		}
		if live == nil {
			continue
		}
		if got, _ := d.Claim(id, now); got.Has("replicated") || got.Has("retracted") || got.Has("refuted") {
			continue
		}
		out = append(out, Waiting{Claim: id, Bundle: live.hash, Dependents: dependents[id]})
		opened[id] = live.opened
	}
	slices.SortFunc(out, func(a, b Waiting) int {
		if c := cmp.Compare(b.Dependents, a.Dependents); c != 0 {
			return c
		}
		if c := cmp.Compare(opened[b.Claim], opened[a.Claim]); c != 0 {
			return c
		}
		return cmp.Compare(a.Claim, b.Claim)
	})
	return out
}

// Opening is where a bundle the log opened stands.
type Opening struct {
	Index     uint64
	At        time.Time
	Withdrawn bool
}

// Opened returns where bundle hash stands, false when the log never
// opened it.
func (d *Deriver) Opened(hash string) (Opening, bool) {
	b := d.bundles[hash]
	if b == nil {
		return Opening{}, false
	}
	return Opening{Index: b.opened, At: b.openedAt, Withdrawn: b.withdrawn}, true
}

// Citation is how citation checks judged one source a bundle cites: by
// verdict, how many organizations gave it, each once, with its first.
type Citation struct {
	Verdicts map[string]int
}

// citationCheck reads a citation_check entry.
func (d *Deriver) citationCheck(entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	b := d.bundles[hash]
	checker, _ := entry["checker"].(string)
	org := d.organization(checker)
	cites, _ := entry["citations"].(map[string]any)
	if b == nil || org == "" {
		return
	}
	if b.citations == nil {
		b.citations = map[string]map[string]string{}
	}
	for ref, v := range cites {
		verdict, _ := v.(string)
		if b.citations[ref] == nil {
			b.citations[ref] = map[string]string{}
		}
		if _, voted := b.citations[ref][org]; !voted {
			b.citations[ref][org] = verdict
		}
	}
}

// Citations returns how checks judged each source bundle hash cites.
func (d *Deriver) Citations(hash string) map[string]Citation {
	b := d.bundles[hash]
	out := map[string]Citation{}
	if b == nil {
		return out
	}
	for ref, byOrg := range b.citations {
		c := Citation{Verdicts: map[string]int{}}
		for _, v := range byOrg {
			c.Verdicts[v]++
		}
		out[ref] = c
	}
	return out
}

// CurrentClaims lists, in ID order, the claims of author's current
// bundles: each the latest version of its paper still up.
func (d *Deriver) CurrentClaims(author string) []string {
	var out []string
	for _, b := range d.currentBundles(author) {
		out = append(out, b.claims...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// currentBundles are author's bundles that are the latest version of
// their paper still up, in log order.
func (d *Deriver) currentBundles(author string) []*bundleState {
	var out []*bundleState
	for _, b := range d.byAuthor[author] {
		if b.withdrawn {
			continue
		}
		latest := true
		for _, v := range d.papers[b.paper] {
			if v.opened > b.opened && !v.withdrawn {
				latest = false
			}
		}
		if latest {
			out = append(out, b)
		}
	}
	return out
}

// CurrentBundle is the newest bundle still up that holds claim id, ""
// when none does.
func (d *Deriver) CurrentBundle(id string) string {
	c := d.claims[id]
	if c == nil {
		return ""
	}
	for _, b := range slices.Backward(c.bundles) {
		if !b.withdrawn {
			return b.hash
		}
	}
	return ""
}
