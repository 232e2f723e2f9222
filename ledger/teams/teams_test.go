package teams

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSum follows one agent across two teams and back out, with nectar
// dated before, on, within and after each span, and a teammate beside it:
// what it earned before it joined stays off the team, an event at the
// moment it joins counts for the team it joins, one at the moment it
// leaves goes with it, and a period counts only what fell within it.
func TestSum(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return t0.AddDate(0, 0, n) }
	spans := []Span{
		{Operator: "op:a", Team: "team:1", Joined: day(1), Left: day(5)},
		{Operator: "op:a", Team: "team:2", Joined: day(5), Left: day(9)},
		{Operator: "op:b", Team: "team:1", Joined: day(0)},
	}
	events := []Event{
		{"op:a", day(0), 100},  // before it joined: no team's
		{"op:a", day(1), 10},   // the moment it joined team:1
		{"op:a", day(3), 5.5},  // on team:1
		{"op:a", day(5), 20},   // the moment it moved: team:2's
		{"op:a", day(7), -4},   // a refutation on team:2 takes nectar away
		{"op:a", day(9), 1000}, // the moment it left: its own
		{"op:b", day(2), 7},
		{"op:b", day(40), 3}, // still on team:1
		{"op:c", day(3), 50}, // on no team
	}
	all := Sum(spans, events, time.Time{})
	check := func(what string, got map[string]*Tally, team string, total float64, by map[string]float64) {
		t.Helper()
		tally := got[team]
		if tally == nil {
			if total != 0 {
				t.Errorf("%s: %s has no tally, want %g", what, team, total)
			}
			return
		}
		if tally.Total != total {
			t.Errorf("%s: %s total %g, want %g", what, team, tally.Total, total)
		}
		for op, want := range by {
			if tally.ByOperator[op] != want {
				t.Errorf("%s: %s from %s %g, want %g", what, team, op, tally.ByOperator[op], want)
			}
		}
	}
	check("all time", all, "team:1", 25.5, map[string]float64{"op:a": 15.5, "op:b": 10})
	check("all time", all, "team:2", 16, map[string]float64{"op:a": 16})
	if len(all) != 2 {
		t.Errorf("tallies for %d teams, want 2", len(all))
	}
	// Thirty days before day 41: from day 11, only b's last event.
	recent := Sum(spans, events, day(41).Add(-Recent))
	check("30d", recent, "team:1", 3, map[string]float64{"op:b": 3})
	check("30d", recent, "team:2", 0, nil)
	// Both periods in one pass sum as each alone does.
	both := SumPeriods(spans, events, time.Time{}, day(41).Add(-Recent))
	if both[0]["team:1"].Total != 25.5 || both[0]["team:2"].Total != 16 || both[1]["team:1"].Total != 3 || both[1]["team:2"] != nil {
		t.Errorf("SumPeriods = %v, %v", both[0], both[1])
	}
	// The order events come in changes nothing.
	reversed := make([]Event, len(events))
	for i, e := range events {
		reversed[len(events)-1-i] = e
	}
	if again := Sum(spans, reversed, time.Time{}); again["team:1"].Total != all["team:1"].Total || again["team:2"].Total != all["team:2"].Total {
		t.Errorf("summed in another order: %v, %v", again["team:1"], again["team:2"])
	}
}

func TestPlace(t *testing.T) {
	all := []float64{30, 10, 30, 0}
	for _, tc := range []struct {
		total float64
		want  int
	}{{30, 1}, {10, 3}, {0, 4}} {
		if got := Place(tc.total, all); got != tc.want {
			t.Errorf("Place(%g) = %d, want %d", tc.total, got, tc.want)
		}
	}
}

func TestIDsAndNames(t *testing.T) {
	for id, ok := range map[string]bool{"team:1": true, "team:42": true, "team:0": false, "team:01": false, "team:": false, "team:-1": false, "team:1x": false, "Team:1": false} {
		if IsID(id) != ok {
			t.Errorf("IsID(%q) = %v", id, !ok)
		}
	}
	if n, ok := Number(ID(17)); !ok || n != 17 {
		t.Errorf("Number(ID(17)) = %d, %v", n, ok)
	}
	for name, ok := range map[string]bool{
		"Tuesday Night Physics": true, strings.Repeat("é", MaxName): true, strings.Repeat("a", MaxName+1): false,
		"": false, "   ": false, " Lead": false, "Trail ": false, "two\nlines": false, "bad\xff": false,
	} {
		if err := CheckName(name); (err == nil) != ok {
			t.Errorf("CheckName(%q) = %v", name, err)
		}
	}
	for _, pair := range [][2]string{{"Admin Input", "ADMIN input"}, {"Tuesday Night Physics", "tuesday  night physics"}, {"Ian's", "IAN'S"}} {
		if NameKey(pair[0]) != NameKey(pair[1]) {
			t.Errorf("NameKey(%q) = %q, NameKey(%q) = %q: want one key", pair[0], NameKey(pair[0]), pair[1], NameKey(pair[1]))
		}
	}
	if _, err := Since("7d", time.Now()); err == nil {
		t.Error("Since(7d) took a period the spec has not")
	}
}

// BenchmarkSum tallies 100,000 nectar events of 10,000 operators, each on
// and off 100 teams three times, all time and from day 40: what GET
// /api/v1/teams sums per request.
func BenchmarkSum(b *testing.B) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var spans []Span
	for op := range 10_000 {
		for k := range 3 {
			spans = append(spans, Span{Operator: "op:" + strconv.Itoa(op), Team: ID(int64((op+k)%100 + 1)),
				Joined: t0.AddDate(0, 0, 30*k), Left: t0.AddDate(0, 0, 30*k+20)})
		}
	}
	events := make([]Event, 100_000)
	for i := range events {
		events[i] = Event{Operator: "op:" + strconv.Itoa(i%10_000), At: t0.Add(time.Duration(i) * time.Minute), Amount: float64(i % 90)}
	}
	b.ReportAllocs()
	for b.Loop() {
		SumPeriods(spans, events, time.Time{}, t0.AddDate(0, 0, 40))
	}
}
