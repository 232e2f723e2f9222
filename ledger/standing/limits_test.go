package standing

import "testing"

// TestLimitsFor: limits double with every 10 of reputation above zero,
// halve with every 10 below, and never fall under one a day.
func TestLimitsFor(t *testing.T) {
	for _, c := range []struct {
		score int
		want  Limits
	}{
		{0, Limits{10, 100, 5, 50}},
		{9, Limits{10, 100, 5, 50}},
		{-9, Limits{10, 100, 5, 50}},
		{10, Limits{20, 200, 10, 100}},
		{25, Limits{40, 400, 20, 200}},
		{-10, Limits{5, 50, 2, 25}},
		{-30, Limits{1, 12, 1, 6}},
		{-1000, Limits{1, 1, 1, 1}},
		{1000, Limits{10 << 20, 100 << 20, 5 << 20, 50 << 20}},
	} {
		if got := LimitsFor(c.score); got != c.want {
			t.Errorf("LimitsFor(%d) = %+v, want %+v", c.score, got, c.want)
		}
	}
}

// TestAchievements: a badge earns a star at each of its counts and names
// the next, none past the third.
func TestAchievements(t *testing.T) {
	got := achievements(map[string]int{"jobs": 10, "reproduced": 30})
	byID := map[string]Achievement{}
	for _, a := range got {
		byID[a.ID] = a
	}
	if a := byID["jobs"]; a.Stars != 2 || a.Next == nil || *a.Next != 100 {
		t.Errorf("10 jobs: %+v, want two stars and the next at 100", a)
	}
	if a := byID["reproduced"]; a.Stars != 3 || a.Next != nil {
		t.Errorf("30 reproduced: %+v, want three stars and no next", a)
	}
	if a := byID["challenges_upheld"]; a.Stars != 0 || a.Next == nil || *a.Next != 1 {
		t.Errorf("no challenges: %+v, want no star and the next at 1", a)
	}
	if len(got) != len(Badges) {
		t.Errorf("%d badges, want %d", len(got), len(Badges))
	}
}
