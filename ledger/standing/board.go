package standing

import (
	"cmp"
	"slices"
	"time"
)

// Periods the leaderboard ranks by: all time, or the last 30 days.
const (
	AllTime    = "all"
	Last30Days = "30d"
)

// Window is how far back Last30Days reaches.
const Window = 30 * 24 * time.Hour

// Place is one operator's place on the leaderboard.
type Place struct {
	Operator string
	Nectar   int // in the period
	Place    int // 1 for the most; equal nectar shares a place
	Stars    int
}

// NectarSince is what operator op's nectar events after since add up to.
func (s *Sheet) NectarSince(op string, since time.Time) int {
	n := 0
	for _, e := range s.Events {
		if e.Operator == op && e.At.After(since) {
			n += e.Amount
		}
	}
	return n
}

// Board ranks, by nectar in period (AllTime or Last30Days, as of the
// sheet's moment), the operators with nectar in it or a badge star; ok is
// false for another period.
func (s *Sheet) Board(period string) ([]Place, bool) {
	var since time.Time
	switch period {
	case AllTime:
	case Last30Days:
		since = s.At.Add(-Window)
	default:
		return nil, false
	}
	earned := map[string]int{}
	for _, e := range s.Events {
		if period == AllTime || e.At.After(since) {
			earned[e.Operator] += e.Amount
		}
	}
	var out []Place
	for op, st := range s.of {
		p := Place{Operator: op, Nectar: earned[op], Stars: st.Stars()}
		if p.Nectar > 0 || p.Stars > 0 {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Place) int {
		return cmp.Or(cmp.Compare(b.Nectar, a.Nectar), cmp.Compare(b.Stars, a.Stars), cmp.Compare(a.Operator, b.Operator))
	})
	for i := range out {
		out[i].Place = i + 1
		if i > 0 && out[i].Nectar == out[i-1].Nectar {
			out[i].Place = out[i-1].Place
		}
	}
	return out, true
}

// Rank is operator op's place in each period, 0 where it has none.
func (s *Sheet) Rank(op string) map[string]int {
	out := map[string]int{}
	for _, period := range []string{Last30Days, AllTime} {
		board, _ := s.Board(period)
		out[period] = 0
		for _, p := range board {
			if p.Operator == op {
				out[period] = p.Place
			}
		}
	}
	return out
}
