package jobs

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Qualification modes ("Qualification"): enforce, off (jobs come without
// the test), or observe (its items still come first, but every kind of job
// stays open).
const (
	ModeEnforce = "enforce"
	ModeOff     = "off"
	ModeObserve = "observe"
)

// The test's shape: three levels of ItemsPerLevel items, each passed with
// PassMark right; setup tried at most SetupTriesPerDay times a day.
const (
	Levels           = 3
	ItemsPerLevel    = 4
	PassMark         = 3
	SetupTriesPerDay = 3
)

// LevelGrants are the credits an organization's first pass of each level
// grants the operator that passed it: 2, 3 and 5, 10 in all.
var LevelGrants = [Levels + 1]int{0, 2, 3, 5}

// retakeAfterNone are the waits after each failure to pass any level:
// 1, 2, 4, then 7 days.
var retakeAfterNone = []time.Duration{24 * time.Hour, 48 * time.Hour, 96 * time.Hour, 7 * 24 * time.Hour}

// NextLevelAfter is how long a model below level 3 waits for its next
// level after its last attempt; each failure doubles it, up to 28 days.
const NextLevelAfter = 7 * 24 * time.Hour

// Item is one item of the test, as the node made it for one operator.
// What it holds is never shown: only whether the level passed.
type Item struct {
	Job    string `json:"job"`
	Kind   string `json:"kind"` // reproduction (setup), screen or a review
	Field  string `json:"field"`
	Seed   uint64 `json:"seed"`   // MakeItem(Kind, Level, Field, Seed) gives its files again
	Level  int    `json:"level"`  // 0 for setup
	Expect string `json:"expect"` // the right answer (see ItemContent.Expect)
	// Right is nil until answered.
	Right *bool `json:"right,omitempty"`
}

// ModelState is where one model of one operator stands in the test.
type ModelState struct {
	Family string `json:"model_family"`
	Model  string `json:"model"`
	Setup  bool   `json:"setup"`
	// SetupTries are when its setup items were served, in the last day.
	SetupTries []time.Time `json:"setup_tries,omitempty"`
	Level      int         `json:"level"` // levels passed
	// Items are the items of the attempt under way, or of setup.
	Items         []Item    `json:"items,omitempty"`
	Domains       []string  `json:"domains_attempted"`
	LastAttemptAt time.Time `json:"last_attempt_at"`
	NextAttemptAt time.Time `json:"next_attempt_at"`
	Failures      int       `json:"failures"`
}

// ModelKey is the key a pass holds under: the family and the model's name
// however it is written (case, and . _ and - between its parts, aside).
func ModelKey(family, model string) string {
	m := strings.ToLower(model)
	m = strings.NewReplacer(".", "-", "_", "-", " ", "-").Replace(m)
	return family + "/" + m
}

// UnderWay reports whether an attempt at the levels is under way.
func (m *ModelState) UnderWay() bool {
	for _, it := range m.Items {
		if it.Level > 0 {
			return true
		}
	}
	return false
}

// Opens reports whether the model may do a kind of job in mode
// ("Qualification", "What each level opens").
func (m *ModelState) Opens(mode, kind string) bool {
	if mode != ModeEnforce {
		return true
	}
	switch {
	case Runs(kind):
		return m.Level >= 1 && m.Setup
	case kind == Screen:
		return m.Level >= 1
	case kind == HazardReview, kind == ChallengeReview:
		return m.Level >= 3
	}
	return m.Level >= 2
}

// Fields the test's items come from, one per item of a level.
var Fields = []string{"ecology", "epidemiology", "materials science", "economics", "astronomy", "linguistics", "genetics", "climate science"}

// Step is what the test asks of a job request.
type Step struct {
	// Item is the item to serve, nil if none.
	Item *Item
	// RetakeAt is set when the model passed no level and may not try yet:
	// the request gets no job until then.
	RetakeAt time.Time
}

// Next says what the test serves a request from model m now: the item
// outstanding, a new setup item, the next item of an attempt (starting
// one if it may), or nothing. operatorLastStart is when the operator last
// started an attempt at the levels, with any model: one a day. newJob
// makes job IDs.
func (m *ModelState) Next(can Can, now, operatorLastStart time.Time, rnd *rand.Rand, newJob func() string) Step {
	for i := range m.Items {
		if m.Items[i].Right == nil {
			return Step{Item: &m.Items[i]}
		}
	}
	// The items are all answered: what is left is over.
	m.Items = nil
	if can.Minutes > 0 && !m.Setup {
		m.SetupTries = slices.DeleteFunc(m.SetupTries, func(t time.Time) bool { return now.Sub(t) >= 24*time.Hour })
		if len(m.SetupTries) < SetupTriesPerDay {
			m.SetupTries = append(m.SetupTries, now)
			m.Items = []Item{m.newItem(Reproduction, 0, rnd, newJob)}
			return Step{Item: &m.Items[0]}
		}
	}
	if m.Level >= Levels {
		return Step{}
	}
	wait := m.NextAttemptAt
	if !operatorLastStart.IsZero() && operatorLastStart.Add(24*time.Hour).After(wait) {
		wait = operatorLastStart.Add(24 * time.Hour) // one attempt a day, whatever model
	}
	if now.Before(wait) {
		if m.Level == 0 {
			return Step{RetakeAt: wait}
		}
		return Step{}
	}
	m.startLevel(m.Level+1, now, rnd, newJob)
	return Step{Item: &m.Items[0]}
}

// startLevel makes the items of level: 4 screens at level 1, 3 reviews
// and a screen at levels 2 and 3, each from a different field.
func (m *ModelState) startLevel(level int, now time.Time, rnd *rand.Rand, newJob func() string) {
	if m.Level == level-1 && !m.UnderWay() {
		m.LastAttemptAt = now
	}
	kinds := []string{Screen, Screen, Screen, Screen}
	if level >= 2 {
		kinds = []string{MethodsReview, DomainReview, AdversarialReview, Screen}
		rnd.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	}
	m.Items = nil
	for _, k := range kinds {
		m.Items = append(m.Items, m.newItem(k, level, rnd, newJob))
	}
}

func (m *ModelState) newItem(kind string, level int, rnd *rand.Rand, newJob func() string) Item {
	used := map[string]bool{}
	for _, it := range m.Items {
		used[it.Field] = true
	}
	var free []string
	for _, f := range Fields {
		if !used[f] {
			free = append(free, f)
		}
	}
	field := free[rnd.IntN(len(free))]
	if !slices.Contains(m.Domains, field) {
		m.Domains = append(m.Domains, field)
	}
	seed := rnd.Uint64()
	return Item{Job: newJob(), Kind: kind, Field: field, Seed: seed, Level: level, Expect: MakeItem(kind, level, field, seed).Expect}
}

// Outcome is what answering an item did.
type Outcome struct {
	// Done is set once the item's level (or setup) is scored.
	Done bool
	// Passed is the level passed (1 to 3), 0 if none; SetupPassed when
	// setup passed.
	Passed      int
	SetupPassed bool
	Message     string
}

// Answer records the answer to item job: right or not. It scores the level
// once its last item is in; a pass starts the next level at once.
func (m *ModelState) Answer(job string, right bool, now time.Time, rnd *rand.Rand, newJob func() string) (Outcome, bool) {
	at := -1
	for i := range m.Items {
		if m.Items[i].Job == job && m.Items[i].Right == nil {
			at = i
		}
	}
	if at < 0 {
		return Outcome{}, false
	}
	m.Items[at].Right = &right
	item := m.Items[at]
	if item.Level == 0 {
		m.Items = nil
		if right {
			m.Setup = true
			return Outcome{Done: true, SetupPassed: true, Message: "Setup passed: jobs that run work open once you pass level 1."}, true
		}
		return Outcome{Done: true, Message: "Setup did not pass: the reproduction's verdicts were not the ones an honest re-run gives. Ask for a job to try again with another bundle, up to 3 times a day."}, true
	}
	correct := 0
	for _, it := range m.Items {
		if it.Right == nil {
			return Outcome{Message: "Your answer was recorded."}, true
		}
		if *it.Right {
			correct++
		}
	}
	m.Items = nil
	if correct >= PassMark {
		m.Level = item.Level
		m.Failures = 0
		if m.Level < Levels {
			m.startLevel(m.Level+1, now, rnd, newJob)
			return Outcome{Done: true, Passed: item.Level, Message: "Level passed: the next level's items follow."}, true
		}
		return Outcome{Done: true, Passed: item.Level, Message: "Level 3 passed: the test is done."}, true
	}
	m.Failures++
	m.NextAttemptAt = now.Add(m.retakeWait())
	return Outcome{Done: true, Message: "The level did not pass. You may try again from " + m.NextAttemptAt.UTC().Format(time.RFC3339) + "."}, true
}

func (m *ModelState) retakeWait() time.Duration {
	if m.Level == 0 {
		return retakeAfterNone[min(m.Failures, len(retakeAfterNone))-1]
	}
	return min(NextLevelAfter<<(m.Failures-1), 28*24*time.Hour)
}

// Position is where item job stands in its level, as the job's
// `qualification` field says it: {message, level, item, of}.
func (m *ModelState) Position(job string) map[string]any {
	for i, it := range m.Items {
		if it.Job != job {
			continue
		}
		if it.Level == 0 {
			return map[string]any{"message": "Qualification setup: reproduce this small bundle and attest as for any reproduction. It pays nothing.", "level": 0, "item": 1, "of": 1}
		}
		return map[string]any{
			"message": "Qualification test, level " + itoa(it.Level) + ", item " + itoa(i+1) + " of " + itoa(len(m.Items)) + ": answer it as that kind of job is answered. It pays nothing and is never published.",
			"level":   it.Level, "item": i + 1, "of": len(m.Items),
		}
	}
	return nil
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 && n >= 0 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

// Record is the model's part of the operator record's `qualification`.
func (m *ModelState) Record() map[string]any {
	var next any
	if !m.NextAttemptAt.IsZero() {
		next = m.NextAttemptAt.UTC().Format(time.RFC3339)
	}
	var last any
	if !m.LastAttemptAt.IsZero() {
		last = m.LastAttemptAt.UTC().Format(time.RFC3339)
	}
	domains := make([]any, len(m.Domains))
	for i, d := range m.Domains {
		domains[i] = d
	}
	return map[string]any{
		"model_family": m.Family, "model": m.Model, "setup": m.Setup, "level": m.Level,
		"under_way": m.UnderWay(), "domains_attempted": domains, "last_attempt_at": last, "next_attempt_at": next,
	}
}
