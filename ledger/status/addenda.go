package status

import (
	"slices"
	"time"
)

// Addenda ("Adding an addendum"): an author's words beside its own opened
// bundle, logged as their digest, hidden until screens by organizations
// other than the author's let them appear. What the log says of each is
// derived here from the addendum entry, the addendum_screen entries that
// answer it, withdrawals and the clock, so agora status gets the same
// states the node serves.

// AddendumWindow is how long an addendum waits for its screens: one they
// have not settled by then lapses.
const AddendumWindow = 14 * 24 * time.Hour

// ScreensAgree is how many organizations' screens settle an addendum,
// outnumbering those that say otherwise.
const ScreensAgree = 2

// Addendum states.
const (
	AddendumScreening = "screening"
	AddendumUp        = "up"
	AddendumBlocked   = "blocked"
	AddendumLapsed    = "lapsed"
	AddendumWithdrawn = "withdrawn"
	AddendumDisowned  = "disowned"
	// AddendumRemoved is an addendum a person removed the words of: the
	// node says so, since the log keeps only their digest.
	AddendumRemoved = "removed"
)

// Why the node refuses an addendum, as AddendumRefusal gives it.
const (
	RefuseNotOpened = "not_opened"
	RefuseNotAuthor = "not_author"
	RefuseCorrected = "corrected"
	RefuseRetracted = "retracted"
	RefuseWithdrawn = "withdrawn"
)

// Addendum is where an addendum stands on the log.
type Addendum struct {
	Index       uint64
	At          time.Time
	Author      string
	Bundle      string // the version it was written for
	Paper       string // the hash of that paper's first version
	Words       string // the digest of its words
	ModelFamily string
	State       string
	SettledAt   time.Time // when screens settled it, or it lapsed
	// Screens are the screens logged for it, in log order; Counted says
	// whether each counted toward its state.
	Screens []Screen
	Counted []bool
	// BlockedBecause are the reasons and hazards the counted blocking
	// screens named, sorted, once each; set only once it is blocked.
	BlockedBecause []string
}

// Screen is one logged addendum_screen.
type Screen struct {
	Index        uint64
	Screener     string
	Organization string
	ModelFamily  string
	Hazard       string
	Verdict      string // "ok" or "block"
	Reason       string
}

// Tally is how many organizations' counted screens let an addendum appear
// (Ok) and block it (Block).
func (a Addendum) Tally() (ok, block int) {
	for i, s := range a.Screens {
		switch {
		case !a.Counted[i]:
		case s.Verdict == "ok":
			ok++
		default:
			block++
		}
	}
	return ok, block
}

// Tied reports whether its counted screens are even and it still waits:
// what makes a reserve screen.
func (a Addendum) Tied() bool {
	ok, block := a.Tally()
	return a.State == AddendumScreening && ok > 0 && ok == block
}

// NamedHazard reports whether a counted screen named a hazard: a tie then
// goes only to a screener with a track record, as a hazard review does.
func (a Addendum) NamedHazard() bool {
	for i, s := range a.Screens {
		if a.Counted[i] && s.Hazard != "" && s.Hazard != "none" {
			return true
		}
	}
	return false
}

// addendumBook holds the addenda the log added: by index, each paper's in
// log order, and each bundle's withdrawal reason.
type addendumBook struct {
	byIndex   map[uint64]*Addendum
	byPaper   map[string][]uint64
	withdrawn map[string]string // bundle → its withdrawal's reason
}

func (d *Deriver) addendaBook() *addendumBook {
	if d.addenda == nil {
		d.addenda = &addendumBook{byIndex: map[uint64]*Addendum{}, byPaper: map[string][]uint64{}, withdrawn: map[string]string{}}
	}
	return d.addenda
}

// AddendumRefusal says why an addendum by author to bundle would not
// stand: "" when it would, else one of the Refuse codes, checked in the
// spec's order (not opened, not the author's, corrected, retracted,
// withdrawn). The node refuses what it names; the log ignores it.
func (d *Deriver) AddendumRefusal(bundle, author string) string {
	b := d.bundles[bundle]
	switch {
	case b == nil:
		return RefuseNotOpened
	case b.author != author:
		return RefuseNotAuthor
	}
	for _, v := range d.papers[b.paper] {
		if v.replaces == b.hash && !v.withdrawn {
			return RefuseCorrected
		}
	}
	switch {
	case d.retractions[b.paper] != nil:
		return RefuseRetracted
	case b.withdrawn:
		return RefuseWithdrawn
	}
	return ""
}

// addendum reads an addendum entry the author of its opened bundle logged.
func (d *Deriver) addendum(index uint64, at time.Time, entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	author, _ := entry["author"].(string)
	if author == "" {
		author, _ = entry["publisher"].(string)
	}
	if d.AddendumRefusal(hash, author) != "" {
		return
	}
	a := &Addendum{Index: index, At: at, Author: author, Bundle: hash, Paper: d.bundles[hash].paper, State: AddendumScreening}
	a.Words, _ = entry["words"].(string)
	a.ModelFamily, _ = entry["model_family"].(string)
	book := d.addendaBook()
	book.byIndex[index] = a
	book.byPaper[a.Paper] = append(book.byPaper[a.Paper], index)
}

// addendumScreen reads a screener's screen: one per organization other
// than the author's counts, and ScreensAgree that agree, outnumbering
// those that do not, settle the addendum up or blocked.
func (d *Deriver) addendumScreen(index uint64, entry map[string]any) {
	n, _ := entry["addendum"].(float64)
	a := d.addendaBook().byIndex[uint64(n)]
	if a == nil || a.State != AddendumScreening || !d.last.Before(a.At.Add(AddendumWindow)) {
		return
	}
	s := Screen{Index: index}
	s.Screener, _ = entry["screener"].(string)
	s.ModelFamily, _ = entry["model_family"].(string)
	s.Hazard, _ = entry["hazard"].(string)
	s.Verdict, _ = entry["verdict"].(string)
	s.Reason, _ = entry["reason"].(string)
	s.Organization = d.organization(s.Screener)
	authorOrg := d.bundles[a.Bundle].authorOrg
	counted := s.Organization != "" && s.Organization != authorOrg && (s.Verdict == "ok" || s.Verdict == "block")
	for i, earlier := range a.Screens {
		counted = counted && !(a.Counted[i] && earlier.Organization == s.Organization)
	}
	a.Screens = append(a.Screens, s)
	a.Counted = append(a.Counted, counted)
	ok, block := a.Tally()
	switch {
	case ok >= ScreensAgree && ok > block:
		a.State, a.SettledAt = AddendumUp, d.last
	case block >= ScreensAgree && block > ok:
		a.State, a.SettledAt = AddendumBlocked, d.last
		for i, s := range a.Screens {
			if !a.Counted[i] || s.Verdict != "block" {
				continue
			}
			for _, why := range []string{s.Reason, s.Hazard} {
				if why != "" && why != "none" && !slices.Contains(a.BlockedBecause, why) {
					a.BlockedBecause = append(a.BlockedBecause, why)
				}
			}
		}
		slices.Sort(a.BlockedBecause)
	}
}

// addendumWithdrawal notes why a bundle was withdrawn, which its addenda
// take as their state.
func (d *Deriver) addendumWithdrawal(entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	reason, _ := entry["reason"].(string)
	book := d.addendaBook()
	if _, ok := book.withdrawn[hash]; !ok {
		book.withdrawn[hash] = reason
	}
}

// AddendumAt answers for the addendum logged at index as of now; false
// when none is logged there (or the log ignored the one there).
func (d *Deriver) AddendumAt(index uint64, now time.Time) (Addendum, bool) {
	a := d.addendaBook().byIndex[index]
	if a == nil {
		return Addendum{}, false
	}
	out := *a
	out.Screens, out.Counted = slices.Clone(a.Screens), slices.Clone(a.Counted)
	out.BlockedBecause = slices.Clone(a.BlockedBecause)
	if b := d.bundles[a.Bundle]; b.withdrawn {
		out.State = AddendumWithdrawn
		if d.addendaBook().withdrawn[a.Bundle] == "disowned" {
			out.State = AddendumDisowned
		}
		return out, true
	}
	if out.State == AddendumScreening && !now.Before(a.At.Add(AddendumWindow)) {
		out.State, out.SettledAt = AddendumLapsed, a.At.Add(AddendumWindow)
	}
	return out, true
}

// AddendaOf lists the addenda up as of now on the paper bundle is a
// version of, oldest first: those show on every version.
func (d *Deriver) AddendaOf(bundle string, now time.Time) []Addendum {
	b := d.bundles[bundle]
	if b == nil {
		return nil
	}
	var out []Addendum
	for _, index := range d.addendaBook().byPaper[b.paper] {
		if a, _ := d.AddendumAt(index, now); a.State == AddendumUp {
			out = append(out, a)
		}
	}
	return out
}

// Addenda lists every addendum the log holds as of now, oldest first:
// what the node settles the credit of and makes screens for.
func (d *Deriver) Addenda(now time.Time) []Addendum {
	book := d.addendaBook()
	indexes := make([]uint64, 0, len(book.byIndex))
	for index := range book.byIndex {
		indexes = append(indexes, index)
	}
	slices.Sort(indexes)
	out := make([]Addendum, 0, len(indexes))
	for _, index := range indexes {
		a, _ := d.AddendumAt(index, now)
		out = append(out, a)
	}
	return out
}
