package engine

import (
	"regexp"
	"strings"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
)

// Dates and supersession: a note says when it was written (occurred_at)
// and, often only in words, that an older fix no longer holds.

// earliestOccurred is the earliest occurred_at a note may carry: no
// coding agent wrote a note before it, so an earlier one is a broken
// clock, not history.
var earliestOccurred = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// maxClockSkew is how far ahead of the node's clock an adapter's may run
// before its dates are refused rather than read as now.
const maxClockSkew = 24 * time.Hour

// occurredAt bounds an event's occurred_at by the node's clock now: never
// in the future (a clock a little ahead reads as now), and refused when
// absurd, before 2000 or more than a day ahead.
func occurredAt(at, now time.Time) (time.Time, error) {
	at = at.UTC()
	switch {
	case at.Before(earliestOccurred):
		return time.Time{}, memory.NewError(memory.CodeSchemaInvalid,
			"at /occurred_at: %s is before 2000; send when the note was written, in RFC 3339", at.Format(time.RFC3339))
	case at.After(now.Add(maxClockSkew)):
		return time.Time{}, memory.NewError(memory.CodeSchemaInvalid,
			"at /occurred_at: %s is more than a day after the node's clock (%s); check the adapter's clock", at.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	case at.After(now):
		return now, nil
	}
	return at, nil
}

// reSupersedes finds the words in which a note says an older fix no
// longer holds: it stopped working, is obsolete, or the failure is fixed
// another way since an upgrade.
var reSupersedes = regexp.MustCompile(`(?i)\b(no longer (?:works?|helps?|needed|necessary|applies|required|fixes)|(?:stopped|stops|ceased) (?:working|helping)|(?:does ?n[o']t|did ?n[o']t|do ?n[o']t) (?:work|help) any ?more|not (?:needed|required|working) any ?more|obsolete|outdated|out of date|superseded?|supersedes|replaces? (?:the|my|our|an?) (?:earlier|older|previous|old)|(?:earlier|older|previous|old|prior) (?:fix|workaround|note|advice|approach|solution|recipe|hack)s? (?:is|are|was|were|no|broke|fails?|failed|stopped)|instead of the (?:old|earlier|previous|prior)|used to (?:work|fix|be the fix)|(?:after|since) (?:upgrading|updating|bumping|moving|migrating) to\b.{0,60}\b(?:the )?(?:old|previous|earlier|prior) )`)

// proseSupersedes reports whether a note's words say it replaces an
// older fix.
func proseSupersedes(p *memory.NotePayload) bool {
	return reSupersedes.MatchString(strings.Join([]string{p.Title, p.Content.What, p.Content.Why, p.Content.Where, p.Content.Learned}, "\n"))
}

// supersede marks the record ref superseded by the record by, with its
// receipt.
func (t *turn) supersede(ref, by string) {
	old := t.record(ref)
	if old == nil || old.Superseded {
		return
	}
	old.Superseded = true
	old.Marks.Superseded++
	t.receipt(old.Ref, "superseded", map[string]any{"mark": "superseded", "revision": old.Revision, "by_ref": by})
}

// supersedeInProse applies a supersession stated only in words. The
// record r was just written; the record most like it on the same
// failure (the one its quoted output and title find first) is the other
// party, when r may mark it (its own adapter's or shared), it is a
// candidate where r is, and it is for the same system. Whichever of the
// two was written later and says the older fix no longer holds
// supersedes the other: notes do not arrive in the order they were
// written.
func (t *turn) supersedeInProse(r *record) {
	d := r.doc()
	if d.ErrorText == "" {
		return
	}
	hits := t.search(recall.Query{ErrorText: d.ErrorText, Text: r.Title}, searchFloor(t.prof), 1, func(o *record, _ recall.Hit) bool {
		return o.Ref != r.Ref && !o.Superseded && (o.Adapter == t.s.AdapterID || o.Shared) &&
			(o.Scope == r.Scope || o.Scope == MemoryScopeGlobal) && sameSystem(d, o.doc())
	})
	if len(hits) == 0 {
		return
	}
	o := t.view(hits[0].RecordRef)
	switch {
	case r.SupersedesInProse && o.occurred().Before(r.occurred()):
		t.supersede(o.Ref, r.Ref)
	case o.SupersedesInProse && r.occurred().Before(o.occurred()):
		r.Superseded = true
		r.Marks.Superseded++
	}
}

// sameSystem reports whether two records' fixes are for the same
// operating system, or either holds anywhere.
func sameSystem(a, b recall.Doc) bool {
	if !a.PlatformBound && !b.PlatformBound {
		return true
	}
	return a.Environment["os"] == "" || b.Environment["os"] == "" || a.Environment["os"] == b.Environment["os"]
}
