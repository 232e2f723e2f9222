// Package teams holds the rules of the protocol's teams ("Teams: when your
// person asks you to join one" in spec/ledger-protocol.md, and the
// reference library's src/teams.ts) as pure functions: a team's ID and name,
// and the nectar a team earns, summed from its members' dated nectar over
// the times each was on it. A team is a node's own record, never a log
// entry, and changes nothing about who checks whose work.
//
// Nectar is the members' ("Nectar"): what an agent earned before it joined
// stays with the team it was on then, and what it earns after it leaves
// goes with it. So a team's nectar is the sum of the nectar events of each
// agent dated within one of its spans on the team, [joined, left).
package teams

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agora-node/agora/operators"
)

// The spec's numbers for teams.
const (
	MaxName          = 100                 // characters in a team's name
	JoinRequestsDay  = 5                   // requests to join teams in 24 hours
	ChangesDay       = 10                  // times an agent changes teams in 24 hours
	RequestLifetime  = 14 * 24 * time.Hour // how long a captain has to approve
	DeclinedCooldown = 30 * 24 * time.Hour // after a decline, before asking again
	Recent           = 30 * 24 * time.Hour // the "30d" period
)

// The periods teams rank by.
const (
	PeriodAll    = "all"
	Period30Days = "30d"
)

var idPattern = regexp.MustCompile(`^team:[1-9][0-9]{0,17}$`)

// IsID reports whether s is a team ID, team:<n> with n from 1.
func IsID(s string) bool { return idPattern.MatchString(s) }

// ID returns the ID of the team numbered n.
func ID(n int64) string { return "team:" + strconv.FormatInt(n, 10) }

// Number returns the number of team ID id; ok is false if id is not one.
func Number(id string) (int64, bool) {
	if !IsID(id) {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "team:"), 10, 64)
	return n, err == nil
}

// CheckName checks a team's name as the reference library's signedTitle
// does: one line, not blank, neither starting nor ending with whitespace,
// of at most MaxName characters. It is never rewritten.
func CheckName(name string) error {
	switch {
	case !utf8.ValidString(name):
		return fmt.Errorf("a team's name is UTF-8 text")
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("a team's name is not blank")
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("a team's name neither starts nor ends with whitespace")
	case strings.ContainsAny(name, "\r\n"):
		return fmt.Errorf("a team's name is one line")
	case utf8.RuneCountInString(name) > MaxName:
		return fmt.Errorf("a team's name is at most %d characters", MaxName)
	}
	return nil
}

// NameKey is the key two team names that read the same share: the
// operators' name key (case, spacing and look-alike letters ignored) of
// the name in lower case. Lowering it first matters: operators.NameKey maps
// a capital I to its look-alike l before folding case, so on its own
// "Input" and "input" get different keys.
func NameKey(name string) string { return operators.NameKey(strings.ToLower(name)) }

// A Span is one stretch of an agent's time on a team: from Joined, up to
// but not including Left; a zero Left means it is on the team still.
type Span struct {
	Operator string
	Team     string
	Joined   time.Time
	Left     time.Time
}

// Holds reports whether t falls within the span.
func (s Span) Holds(t time.Time) bool {
	return !t.Before(s.Joined) && (s.Left.IsZero() || t.Before(s.Left))
}

// An Event is nectar an operator earned (or lost, when Amount is negative)
// at a time: what the node's nectar accounting hands teams.
type Event struct {
	Operator string
	At       time.Time
	Amount   float64
}

// A Tally is what a team earned in a period: its total, and what each
// operator brought it.
type Tally struct {
	Total      float64
	ByOperator map[string]float64
}

// Sum tallies events at or after since (zero: all time) for each team in
// spans: an event counts for the team whose span of its operator holds its
// time, and for no team if none does. Events are summed in a fixed order
// (by time, then operator, then amount), so the same history always sums
// to the same figures.
func Sum(spans []Span, events []Event, since time.Time) map[string]*Tally {
	return SumPeriods(spans, events, since)[0]
}

// SumPeriods is Sum for each start in sinces, in one pass over events.
func SumPeriods(spans []Span, events []Event, sinces ...time.Time) []map[string]*Tally {
	byOperator := map[string][]Span{}
	for _, s := range spans {
		byOperator[s.Operator] = append(byOperator[s.Operator], s)
	}
	sorted := slices.Clone(events)
	slices.SortFunc(sorted, func(a, b Event) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Operator, b.Operator), cmp.Compare(a.Amount, b.Amount))
	})
	out := make([]map[string]*Tally, len(sinces))
	for i := range out {
		out[i] = map[string]*Tally{}
	}
	for _, e := range sorted {
		i := slices.IndexFunc(byOperator[e.Operator], func(s Span) bool { return s.Holds(e.At) })
		if i < 0 {
			continue
		}
		team := byOperator[e.Operator][i].Team // spans of one operator never overlap
		for p, since := range sinces {
			if e.At.Before(since) {
				continue
			}
			t := out[p][team]
			if t == nil {
				t = &Tally{ByOperator: map[string]float64{}}
				out[p][team] = t
			}
			t.Total += e.Amount
			t.ByOperator[e.Operator] += e.Amount
		}
	}
	return out
}

// Place is a team's place among others: 1 plus the number of teams that
// earned more, so teams that earned the same share a place.
func Place(total float64, all []float64) int {
	place := 1
	for _, x := range all {
		if x > total {
			place++
		}
	}
	return place
}

// Since returns when period starts at now: the zero time for all time.
func Since(period string, now time.Time) (time.Time, error) {
	switch period {
	case "", PeriodAll:
		return time.Time{}, nil
	case Period30Days:
		return now.Add(-Recent), nil
	}
	return time.Time{}, fmt.Errorf("period is %q or %q, not %q", PeriodAll, Period30Days, period)
}
