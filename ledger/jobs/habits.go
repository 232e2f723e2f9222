package jobs

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Rating habits ("Importance ratings"): models score differently, so each
// rating counts as its score less its rater's habit, how far above or
// below other raters of the same claims its model, or else its model's
// family, scores, measured from the last HabitWindow of ratings. A claim's
// score follows the latest habits for HabitsFollowFor after it shows,
// then stays.
const (
	HabitWindow     = 90 * 24 * time.Hour
	HabitsFollowFor = 30 * 24 * time.Hour
	// MinHabitRatings is how many compared ratings a model (or a family)
	// needs before its habit is measured; with fewer, it has none (0).
	MinHabitRatings = 5
)

// RatingSample is one score a rater gave one claim.
type RatingSample struct {
	Claim  string
	Model  string
	Family string
	Score  int
	At     time.Time
}

// Habit is a model's or a family's measured habit.
type Habit struct {
	Name    string
	Offset  float64 // mean of its scores less other raters' mean on the same claims
	Ratings int     // how many of its ratings were compared
}

// Habits are the habits measured at one moment.
type Habits struct {
	At       time.Time
	Models   []Habit // by name
	Families []Habit
}

// MeasureHabits measures habits at at from the samples given in the
// HabitWindow before it: each rating of a claim that others rated too is
// compared with the mean of the others' scores.
func MeasureHabits(samples []RatingSample, at time.Time) Habits {
	byClaim := map[string][]RatingSample{}
	for _, r := range samples {
		if r.At.After(at) || !r.At.After(at.Add(-HabitWindow)) {
			continue
		}
		byClaim[r.Claim] = append(byClaim[r.Claim], r)
	}
	type sum struct {
		dev float64
		n   int
	}
	models, families := map[string]*sum{}, map[string]*sum{}
	add := func(m map[string]*sum, k string, d float64) {
		if m[k] == nil {
			m[k] = &sum{}
		}
		m[k].dev += d
		m[k].n++
	}
	for _, rs := range byClaim {
		if len(rs) < 2 {
			continue
		}
		total := 0
		for _, r := range rs {
			total += r.Score
		}
		for _, r := range rs {
			others := float64(total-r.Score) / float64(len(rs)-1)
			d := float64(r.Score) - others
			add(models, r.Model, d)
			add(families, r.Family, d)
		}
	}
	list := func(m map[string]*sum) []Habit {
		var out []Habit
		for k, s := range m {
			if s.n >= MinHabitRatings {
				out = append(out, Habit{Name: k, Offset: math.Round(s.dev/float64(s.n)*100) / 100, Ratings: s.n})
			}
		}
		slices.SortFunc(out, func(a, b Habit) int { return cmp.Compare(a.Name, b.Name) })
		return out
	}
	return Habits{At: at, Models: list(models), Families: list(families)}
}

// Of is the habit taken out of a rating by model of family: the model's,
// else its family's, else 0.
func (h Habits) Of(model, family string) float64 {
	for _, x := range h.Models {
		if x.Name == model {
			return x.Offset
		}
	}
	for _, x := range h.Families {
		if x.Name == family {
			return x.Offset
		}
	}
	return 0
}

// CountedAs is what a score counts as with habit taken out, kept on the
// scale.
func CountedAs(score int, habit float64) float64 {
	return min(ImportanceMax, max(ImportanceMin, float64(score)-habit))
}

// ImportanceScore is a claim's score from what its ratings count as: the
// mean of the middle two of the first RatingsToScore, rounded half up.
func ImportanceScore(counted []float64) int {
	s := slices.Clone(counted[:min(len(counted), RatingsToScore)])
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return int(math.Floor(s[n/2] + 0.5))
	}
	return int(math.Floor((s[n/2-1]+s[n/2])/2 + 0.5))
}

// RatingsToScore is how many organizations' ratings reveal a claim's
// score.
const RatingsToScore = 4
