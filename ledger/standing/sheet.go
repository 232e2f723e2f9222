package standing

import (
	"cmp"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

// Rated is a claim's importance as its node publishes it.
type Rated struct {
	Score    int
	Revealed time.Time // when its score was revealed; zero while hidden
}

// Importance reads the importance of claim, as of bundle, the newest
// bundle holding it.
type Importance func(claim, bundle string) (Rated, error)

// Nectar reasons: the parts of an operator's nectar an Event adds to.
const (
	Published = "published"
	Refuted   = "refuted"
	Retracted = "retracted"
	Settled   = "settled"
	Share     = "share"
)

// Event is one change of an operator's nectar: Amount (negative for what
// a refutation takes away) at At, for Reason, earned by Claim of Bundle.
type Event struct {
	Operator string
	At       time.Time
	Amount   int
	Reason   string
	Claim    string
	Bundle   string
}

// Nectar is an operator's nectar by part; Total is their sum, Refuted and
// Retracted are what they take away (0 or less).
type Nectar struct {
	Total     int     `json:"total"`
	Published int     `json:"published"`
	Refuted   int     `json:"refuted"`
	Retracted int     `json:"retracted"`
	Settled   int     `json:"settled"`
	Share     float64 `json:"share"`
}

// Reputation is an operator's score, its parts by event, and the limits
// it sets.
type Reputation struct {
	Score  int            `json:"score"`
	Parts  map[string]int `json:"parts"`
	Limits Limits         `json:"limits"`
}

// Standing is one operator's account as of a Sheet's moment.
type Standing struct {
	Operator     string
	Nectar       Nectar
	Reputation   Reputation
	Achievements []Achievement
	counts       map[string]int // what badges count
}

// Sheet is every operator's account as of one moment.
type Sheet struct {
	At     time.Time
	Events []Event // every nectar change, by time, operator, reason, bundle and claim
	of     map[string]*Standing
}

// Of is operator op's standing; an operator the log says nothing of
// stands at zero, with the base limits.
func (s *Sheet) Of(op string) Standing {
	if st := s.of[op]; st != nil {
		return *st
	}
	st := newStanding(op)
	st.Achievements = achievements(st.counts)
	return *st
}

// Operators lists, in ID order, the operators the sheet accounts for.
func (s *Sheet) Operators() []string {
	out := make([]string, 0, len(s.of))
	for op := range s.of {
		out = append(out, op)
	}
	slices.Sort(out)
	return out
}

func newStanding(op string) *Standing {
	parts := map[string]int{}
	for _, p := range Points {
		parts[p.Part] = 0
	}
	return &Standing{Operator: op, Reputation: Reputation{Parts: parts, Limits: LimitsFor(0)}, counts: map[string]int{}}
}

// sheet is the work of one Sheet call.
type sheet struct {
	*Sheet
	book    *Book
	d       *status.Deriver
	now     time.Time
	imp     Importance
	rated   map[string]Rated
	claims  map[string]status.Claim
	bundles []status.Bundle
	holder  map[string][]int // claim → indexes into bundles, in log order
	// builders are, for each claim, the organizations whose checked
	// claims build on it.
	builders map[string][]string
}

// Sheet accounts for every operator as of now, which should be no
// earlier than the last leaf added, from b and d, fed the same leaves,
// and imp for claims' importance.
func (b *Book) Sheet(d *status.Deriver, now time.Time, imp Importance) (*Sheet, error) {
	if b.Size() != d.Size() {
		return nil, errSizes(b.Size(), d.Size())
	}
	w := &sheet{Sheet: &Sheet{At: now, of: map[string]*Standing{}}, book: b, d: d, now: now, imp: imp,
		rated: map[string]Rated{}, claims: map[string]status.Claim{}, holder: map[string][]int{}}
	w.bundles = d.Bundles()
	for i, bd := range w.bundles {
		for _, id := range bd.Claims {
			w.holder[id] = append(w.holder[id], i)
		}
		w.standing(bd.Author)
	}
	for _, id := range d.IDs() {
		w.claims[id], _ = d.Claim(id, now)
	}
	for op := range b.attested {
		w.standing(op).counts["jobs"] = b.Attestations(op)
	}
	if err := w.published(); err != nil {
		return nil, err
	}
	if err := w.settled(); err != nil {
		return nil, err
	}
	w.reputation()
	slices.SortStableFunc(w.Events, func(a, b Event) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Operator, b.Operator), cmp.Compare(a.Reason, b.Reason),
			cmp.Compare(a.Bundle, b.Bundle), cmp.Compare(a.Claim, b.Claim))
	})
	for _, st := range w.of {
		n := &st.Nectar
		n.Total = n.Published + n.Refuted + n.Retracted + n.Settled + int(n.Share)
		r := &st.Reputation
		for part, count := range r.Parts {
			r.Score += count * pointsOf(part)
		}
		r.Limits = LimitsFor(r.Score)
		st.Achievements = achievements(st.counts)
	}
	return w.Sheet, nil
}

// standing is op's account being built.
func (w *sheet) standing(op string) *Standing {
	st := w.of[op]
	if st == nil {
		st = newStanding(op)
		w.of[op] = st
	}
	return st
}

// first is the first bundle that held claim id.
func (w *sheet) first(id string) status.Bundle { return w.bundles[w.holder[id][0]] }

// newest is the newest bundle holding claim id.
func (w *sheet) newest(id string) status.Bundle {
	h := w.holder[id]
	return w.bundles[h[len(h)-1]]
}

// importance is claim id's importance, read once.
func (w *sheet) importance(id string) (Rated, error) {
	if r, ok := w.rated[id]; ok {
		return r, nil
	}
	r, err := w.imp(id, w.newest(id).Hash)
	if err != nil {
		return Rated{}, err
	}
	w.rated[id] = r
	return r, nil
}

// earn adds an event to op's nectar.
func (w *sheet) earn(op string, at time.Time, amount int, reason, claim, bundle string) {
	if amount == 0 {
		return
	}
	st := w.standing(op)
	switch reason {
	case Published:
		st.Nectar.Published += amount
	case Refuted:
		st.Nectar.Refuted += amount
	case Settled:
		st.Nectar.Settled += amount
	}
	w.Events = append(w.Events, Event{Operator: op, At: at, Amount: amount, Reason: reason, Claim: claim, Bundle: bundle})
}
