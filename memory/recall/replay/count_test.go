package replay

import "testing"

func TestCorpusShape(t *testing.T) {
	c := Build()
	notes, nofail, global := 0, 0, 0
	for _, n := range c.Notes {
		notes++
		if n.NoFailure {
			nofail++
		}
		if n.Scope == "global" {
			global++
		}
	}
	nomatch := 0
	split := map[Split]int{}
	for _, q := range c.Queries {
		split[q.Split]++
		if q.Want == "" {
			nomatch++
		}
	}
	t.Logf("notes %d (no failure %d, global %d), queries %d (no match %d), by split %v", notes, nofail, global, len(c.Queries), nomatch, split)
}
