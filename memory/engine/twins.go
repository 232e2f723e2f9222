package engine

import (
	"regexp"

	"github.com/agora-node/agora/memory/recall"
)

// Twins: a note written after another on the same failure often says so
// and quotes little of it ("Same psych 5 install failure (yaml.h not
// found) on my Mac"): its writer had the output in front of them and
// the earlier note already quotes it. Matched on its own words alone, it
// loses to the earlier note on every system, though its fix is the one
// for its own; given the earlier note's quoted failure, the two match the
// output alike and the environment decides between them.

// reSameFailure finds a note saying it met an earlier failure again: a
// sentence that opens with "same" (Same `Filename too long` from git
// clone, but on Ubuntu).
var reSameFailure = regexp.MustCompile(`(?i)(?:^|[.;:!?]\s+)(?:(?:it'?s |this is )?(?:the |exactly the )?)same\b`)

// sameFailure gives the record r, when its note says it met an earlier
// failure again, the failure that earlier note quotes: the record most
// like it among those written before it that it may see, in its project
// or global.
func (t *turn) sameFailure(r *record) {
	if !reSameFailure.MatchString(r.Content.What) {
		return
	}
	d := r.doc()
	q := recall.Query{Text: r.Title + "\n" + r.Content.What, ErrorText: d.ErrorText}
	hits := t.search(q, searchFloor(t.prof)/2, 1, func(o *record, _ recall.Hit) bool {
		return o.Ref != r.Ref && o.Twin == "" && o.occurred().Before(r.occurred()) && reaches(r, o)
	})
	if len(hits) == 0 {
		return
	}
	o := t.view(hits[0].RecordRef)
	if o == nil {
		return
	}
	c := o.Content
	r.Twin = recall.NoteErrorText(c.What, c.Why, c.Where, c.Learned)
}
