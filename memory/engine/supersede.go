package engine

import (
	"regexp"
	"slices"
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
// longer holds: it stopped working, is obsolete or was only a stopgap,
// the failure came back after a change, or it is fixed another way
// since an upgrade. Each alternative is a way English says one of these, not a phrase of one
// note; a note matching one still supersedes only the record most like
// it on the same failure, written earlier (supersedeInProse).
var reSupersedes = regexp.MustCompile(`(?i)\b(?:` + strings.Join([]string{
	// it stopped working
	// "no longer" with what a fix does: not "JDK 17 no longer exports
	// it", which is a first note's account of an upgrade
	`no longer (?:how (?:we|you|to)|works?|helps?|needed|necessary|applies|required|fixes|does|solves|enough|supported|an option|possible|viable|holds|gets?|cuts? it|(?:the|a|an) (?:answer|fix|solution|way|option|workaround))`,
	// a negation that runs into "any more" within the clause: "is not
	// an option any more", "doesn't get us through any more"
	// (n't inside a word: the pattern's leading \b cannot precede it)
	// (a version's dot, 3.13, ends no clause)
	`(?:not|\w+n't|never)\b(?:[^.;:!?\n]|\.\d){0,40}\bany ?more\b`,
	`(?:does|do|did) nothing (?:now|any ?more|these days)`,
	`(?:stopped|stops|ceased) (?:working|helping)`,
	`(?:does ?n[o']t|did ?n[o']t|do ?n[o']t|won'?t|will not) (?:work|help|fix (?:it|this|anything)|solve (?:it|this)|cut it) any ?more`,
	`not (?:needed|required|working|enough) any ?more`,
	`(?:is|are|was|were)n'?t (?:needed|required|necessary|working|enough|sufficient|helping) any ?more`,
	`used to (?:work|fix|help|be the fix)`,
	// it is obsolete, or was not the fix (not "turned out" nor "the
	// real cause": a first note says those of its own investigation)
	// ("out of date" alone is a cause: the lockfile, the specs repo)
	`obsolete`, `outdated`, `(?:fix|workaround|note|advice|answer|solution|approach|pin|recipe|instructions?)s? (?:is|are|was|were) (?:now |already )?out of date`,
	`superseded?`, `supersedes`, `removed in (?:v|version )?\d`,
	`(?:was|were) (?:only |just )?(?:a|the) (?:stopgap|band-?aid|temporary (?:fix|workaround))`,
	`the (?:real|proper|actual|correct|right|true) (?:fix|solution) (?:is|was)\b`,
	// the older note, named
	`replaces? (?:the|my|our|an?) (?:earlier|older|previous|old)`,
	// a note that names an older note or fix of its own ("the old
	// workaround", "(the old note)", "the 2022 note") writes after it
	// and about it
	`(?:the|my|our|that) (?:earlier|older|previous|old|prior|(?:19|20)\d\d) (?:note|fix|workaround|advice|recipe|solution|answer|hack|pin)s?\b`,
	`(?:earlier|older|previous|old|prior|first) (?:fix|workaround|note|advice|approach|solution|recipe|hack|trick|tip|command|pin|flag|setting)s? (?:is|are|was|were|no|broke|breaks|fails?|failed|stopped|does ?n[o']t|did ?n[o']t)`,
	`instead of the (?:old|earlier|previous|prior)`,
	// the writer's own earlier note, named by when they wrote it: "what
	// I wrote down last year", "the variable I noted last year"
	`\b(?:I|we) (?:noted|wrote(?: down)?|recorded|documented|suggested) (?:down )?(?:last (?:year|month|week|time|summer|spring|autumn|fall|winter)|earlier|before|previously|back in)\b`,
	// the older fix taken away: "pin removed", "dropped the pin", "the
	// port 8888 workaround is dead", "forget the ... trick"
	`(?:pin|pinning|workaround|hack|trick|override|downgrade)s? (?:is |are |was |has been |got )?(?:removed|dropped|gone|dead|reverted|retired)`,
	`(?:removed|dropped|reverted|retired|undid|undone) (?:the|my|our|that) (?:\S+ ){0,3}?(?:pin|pinning|workaround|hack|trick|override|downgrade)s?\b`,
	`(?:workaround|hack|trick|pin|fix)\b[^.;:!?\n]{0,40}\b(?:is|are) dead\b`,
	`forget (?:about )?(?:the|my|our|that) (?:\S+ ){0,4}?(?:workaround|hack|trick|pin|fix|flag|setting)s?\b`,
	`ignore (?:my|the|our|that) (?:earlier|older|previous|old|prior|last) (?:note|fix|advice|workaround|entry|answer)`,
	// the failure came back, or moved with an upgrade
	`(?:is|came|comes) back (?:after|since|with|on|when|in) `,
	// a title that says the failure is back: the fix that made it go
	// away no longer holds
	`\b(?:error|failure|crash|bug|\w+(?:Error|Exception)) is back\b`,
	`again (?:after|since|with|on) (?:the |our |an? )?(?:upgrad|updat|bump|mov|migrat|switch|new|latest|\w+ v?\d)`,
	`(?:after|since) (?:upgrading|updating|bumping|moving|migrating|switching) (?:to|from)\b.{0,60}\b(?:the )?(?:old|previous|earlier|prior) `,
}, "|") + `)`)

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
	old.SupersededBy = by
	old.Marks.Superseded++
	t.receipt(old.Ref, "superseded", map[string]any{"mark": "superseded", "revision": old.Revision, "by_ref": by})
}

// supersedeInProse applies a supersession stated only in words. The
// record r was just written; the record most like it on the same
// failure (the one its quoted output and title find first) is the other
// party, when r may mark it (its own adapter's or shared), the newer of
// the two reaches the older (see reaches), and it is for the same system. Whichever of the
// two was written later and says the older fix no longer holds
// supersedes the other: notes do not arrive in the order they were
// written.
func (t *turn) supersedeInProse(r *record) {
	d := r.doc()
	if d.ErrorText == "" && !r.SupersedesInProse {
		return
	}
	// A note that says an older fix no longer holds quotes the failure
	// in passing ("Same `no go files to analyze` ..."): half the search
	// floor finds the older note, as long as the failure output is
	// shared.
	full := searchFloor(t.prof)
	floor := full
	if r.SupersedesInProse {
		floor /= 2
	}
	q := recall.Query{ErrorText: d.ErrorText, Text: r.Title}
	if d.ErrorText == "" {
		// A note that quotes no failure but says an older fix is
		// obsolete is found by its words: the title and what name the
		// topic.
		q.Text += "\n" + r.Content.What
	}
	eligible := func(o *record) bool {
		return o.Ref != r.Ref && !o.Superseded && (o.Adapter == t.s.AdapterID || o.Shared) &&
			(reaches(r, o) || reaches(o, r) || replacesIn(r, o) || replacesIn(o, r)) && sameSystem(d, o.doc())
	}
	party := func(o *record, h recall.Hit) bool {
		return eligible(o) && (d.ErrorText == "" || sharesOutput(h))
	}
	// The writer's "my old note" is one of its own project's when there
	// is one: a memory holds other projects' global notes on every
	// common failure.
	hits := t.ownProjectFirst(t.search(q, floor, 4, party), r.Project)
	if len(hits) == 0 && r.SupersedesInProse {
		// Its words may name the older note's topic more than quote its
		// failure ("the 'ESLint couldn't find an eslint.config' failure
		// came back"): the one record far ahead of any other it may
		// replace, at a quarter of the floor, is the older note.
		hits = t.ownProjectFirst(t.search(q, floor/4, 4, party), r.Project)
		if len(hits) >= 2 && hits[0].Score < proseLead*hits[1].Score {
			hits = nil
		}
	}
	// Found below the floor, another project's note shares a word or two
	// of the failure: the writer's old fix is one of its own project's,
	// or one whose fix its words name.
	hits = slices.DeleteFunc(hits, func(h memory.Hit) bool {
		o := t.view(h.RecordRef)
		return o == nil || h.Score < full && o.Project != r.Project && !namesOldFix(r, o) && !namesOldFix(o, r)
	})
	if r.SupersedesInProse {
		// The older note is the one whose fix the words name (a setting
		// of it this note's own fix does not use), when one is. The
		// failure may even have changed with the fix ("trust our CA
		// instead of TrustServerCertificate": another error since the
		// shortcut was banned), so it is looked for by its settings too.
		named := slices.DeleteFunc(slices.Clone(hits), func(h memory.Hit) bool { return !namesOldFix(r, t.view(h.RecordRef)) })
		if settings := strings.Join(fixSettings(r.words()), " "); len(hits) == 0 && settings != "" {
			named = t.ownProjectFirst(t.search(recall.Query{Text: settings}, floor/4, 4, func(o *record, _ recall.Hit) bool {
				return eligible(o) && namesOldFix(r, o)
			}), r.Project)
		}
		if len(named) > 0 {
			hits = named
		}
	}
	if len(hits) == 0 {
		return
	}
	o := t.view(hits[0].RecordRef)
	switch {
	case r.SupersedesInProse && o.occurred().Before(r.occurred()) && reaches(r, o):
		t.supersede(o.Ref, r.Ref)
	case o.SupersedesInProse && r.occurred().Before(o.occurred()) && reaches(o, r):
		r.Superseded = true
		r.SupersededBy = o.Ref
		r.Marks.Superseded++
	case r.SupersedesInProse && o.occurred().Before(r.occurred()) && replacesIn(r, o):
		t.supersedeIn(o.Ref, r)
	case o.SupersedesInProse && r.occurred().Before(o.occurred()) && replacesIn(o, r) && r.supersededIn(o.Project) == "":
		r.SupersededIn = append(r.SupersededIn, localSuccessor{Project: o.Project, By: o.Ref})
	}
}

// ownProjectFirst returns the hits of records written in project when
// there are any, else all of them, best first either way.
func (t *turn) ownProjectFirst(hits []memory.Hit, project string) []memory.Hit {
	var own []memory.Hit
	for _, h := range hits {
		if o := t.view(h.RecordRef); o != nil && o.Project == project {
			own = append(own, h)
		}
	}
	if len(own) > 0 {
		return own
	}
	return hits
}

// proseLead is how far ahead of the next record the one a prose
// supersession found below the floor must be to be the older note.
const proseLead = 2

// replacesIn says whether a newer record replaces an older one in its
// own project only: a project note saying a global note's fix no longer
// holds speaks of its project, where the global note's fix is then the
// stale one; elsewhere the global note still holds.
func replacesIn(newer, older *record) bool {
	return newer.Scope == MemoryScopeProject && older.Scope == MemoryScopeGlobal
}

// supersedeIn marks the global record ref replaced by the project record
// by in by's project, with a receipt naming the project.
func (t *turn) supersedeIn(ref string, by *record) {
	old := t.record(ref)
	if old == nil || old.supersededIn(by.Project) != "" {
		return
	}
	old.SupersededIn = append(old.SupersededIn, localSuccessor{Project: by.Project, By: by.Ref})
	t.receipt(old.Ref, "superseded", map[string]any{"mark": "superseded", "revision": old.Revision, "by_ref": by.Ref, "project": by.Project})
}

// reaches says whether a newer record can replace an older one wherever
// the older one is a candidate: a global note can, a project note only
// an older note of its own project's scope. A project note that says
// the old fix no longer works speaks of its project; a global note it
// sank would sink in every other project, with no successor there.
func reaches(newer, older *record) bool {
	return newer.Scope == MemoryScopeGlobal || older.Scope == MemoryScopeProject && older.Project == newer.Project
}

// sameSystem reports whether two records' fixes are for the same
// operating system, or either holds anywhere.
func sameSystem(a, b recall.Doc) bool {
	if !a.PlatformBound && !b.PlatformBound {
		return true
	}
	return a.Environment["os"] == "" || b.Environment["os"] == "" || a.Environment["os"] == b.Environment["os"]
}

// maxSuccession bounds how far a chain of successors is followed, so a
// cycle written by two adapters' notes cannot loop.
const maxSuccession = 8

// successor returns the newest record that supersedes r, directly or
// through others, that the session may see; nil for none. In a project
// where a project note replaced r (supersededIn), that note is r's
// successor.
func (t *turn) successor(r *record) *record {
	var found *record
	next := r.SupersededBy
	if by := r.supersededIn(t.s.Project); by != "" {
		next = by
	}
	for i := 0; i < maxSuccession && next != ""; i++ {
		if r = t.view(next); r == nil {
			break
		}
		if t.visible(r) {
			found = r
		}
		next = r.SupersededBy
	}
	return found
}

// successorHit is the hit of s found through the record old it
// supersedes: old's match without its supersession penalty, each reason
// saying it came through old. The successor answers what old was found
// for, so it ranks above old (a superseded fix never ranks above the one
// that replaced it) even when its own words match less.
func successorHit(s *record, old recall.Hit) recall.Hit {
	h := recall.Hit{ID: s.Ref, Title: s.Title, Trust: recall.Trust(s.Trust), Project: s.Project, UpdatedAt: s.occurred()}
	for _, r := range old.Reasons {
		if r.Signal == recall.SignalNegative {
			continue
		}
		r.Value = "via the note it supersedes: " + r.Value
		h.Reasons = append(h.Reasons, r)
		h.Score += r.Contribution
	}
	return h
}

// sharesOutput reports whether a hit matched on failure output.
func sharesOutput(h recall.Hit) bool {
	for _, r := range h.Reasons {
		if r.Signal == recall.SignalErrorSignature && r.Contribution > 0 {
			return true
		}
	}
	return false
}

// reFixSetting finds the settings a fix writes: flags (--no-dev),
// assignments (TrustServerCertificate=True), SCREAMING_CASE variables,
// dotted keys (http.postBuffer) and camelCase or CamelCase names.
var reFixSetting = regexp.MustCompile("(?:^|[\\s`'\"(;,])(--?[a-zA-Z][\\w-]{3,}(?:=[^\\s`'\",;]+)?|[A-Za-z_][\\w.-]*=[^\\s`'\",;]+|[A-Z][A-Z0-9]*_[A-Z0-9_]{2,}|[a-z]+(?:\\.[a-z][a-zA-Z]+)+|[a-z]+[A-Z][a-zA-Z]{2,}|[A-Z][a-z]+[A-Z][a-zA-Z]{3,})")

// fixSettings returns the settings text names (see reFixSetting), at
// least six characters each, once each.
func fixSettings(text string) []string {
	var out []string
	for _, m := range reFixSetting.FindAllStringSubmatch(text, -1) {
		if tok := strings.TrimRight(m[1], ".:"); len(tok) >= 6 && !slices.Contains(out, tok) {
			out = append(out, tok)
		}
	}
	return out
}

// words are what a note says in words: its title, what, why and
// learned.
func (r *record) words() string {
	return strings.Join([]string{r.Title, r.Content.What, r.Content.Why, r.Content.Learned}, "\n")
}

// namesOldFix reports whether the newer note's words name a setting of
// the older note's fix (its command, or what it learned) that the newer
// note's own fix does not use: the fix it says no longer holds.
func namesOldFix(newer, older *record) bool {
	if newer == nil || older == nil || !older.occurred().Before(newer.occurred()) {
		return false
	}
	words, own := newer.words(), fixText(newer.Fix)
	for _, tok := range fixSettings(fixText(older.Fix) + "\n" + older.Content.Learned) {
		if !strings.Contains(own, tok) && strings.Contains(words, tok) {
			return true
		}
	}
	return false
}
