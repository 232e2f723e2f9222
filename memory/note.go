package memory

import (
	"strconv"
	"strings"
	"unicode"
)

// placeholders are what a note's field says when the agent had nothing to
// say: compared after folding case, accents and punctuation away.
var placeholders = map[string]bool{
	"": true, "todo": true, "tbd": true, "tba": true, "n a": true, "na": true, "none": true,
	"nothing": true, "null": true, "nil": true, "undefined": true, "test": true, "testing": true,
	"test note": true, "xxx": true, "x": true, "wip": true, "fixme": true, "placeholder": true,
	"lorem ipsum": true, "same": true, "same as above": true, "see above": true, "idem": true,
	"unknown": true, "misc": true, "various": true, "stuff": true, "asdf": true, "foo": true,
	"bar": true, "example": true, "no": true, "yes": true, "ok": true, "done": true, "fixed": true,
	"fixed it": true, "it works": true, "works": true, "nothing learned": true, "nothing to add": true,
}

// minSubstance is how much a what or learned field must say, in the weight
// substance counts: one per ASCII letter or digit, three per CJK or kana
// character (each carries about a word), one per other letter.
const minSubstance = 12

// NoteProblem says why a note is empty of substance, or returns nil when it
// is not: the title, why and where must not be placeholders ("todo", "n/a",
// "test", "same as above"…), what and learned must each say something (at
// least minSubstance letters' worth, of at least four distinct letters,
// beyond placeholder words), and learned must not repeat what word for
// word, since a lesson that restates the event teaches nothing.
//
// Secrets: a node masks every text of an event before it reads it
// (ParseEvent, MaskSecrets), so a note usually arrives with its secrets
// already replaced by [redacted:<kind>]. Those marks count for nothing
// here: every check above is made on the text without them, so a note
// that is essentially only a secret (a title, what or learned that says
// nothing once its secret is gone, or a fix that is nothing but a secret)
// is refused, while a useful note that mentioned one is kept masked. A
// note that still holds a secret (a caller that did not mask it) is
// refused, naming the field and the kind but never the value.
//
// The error is a note_rejected *Error.
func NoteProblem(n *NotePayload) error {
	title := StripRedactions(n.Title)
	if isPlaceholder(title) {
		return newError(CodeNoteRejected, "at /payload/title: the title %q says nothing; name what the note is about", clip(n.Title, 40))
	}
	for _, f := range []struct{ name, text string }{{"why", n.Content.Why}, {"where", n.Content.Where}} {
		if isPlaceholder(StripRedactions(f.text)) {
			return newError(CodeNoteRejected, "at /payload/content/%s: %q is a placeholder; say %s", f.name, clip(f.text, 40),
				map[string]string{"why": "why it happened or matters", "where": "where in the code or setup it applies"}[f.name])
		}
	}
	what, learned := StripRedactions(n.Content.What), StripRedactions(n.Content.Learned)
	for _, f := range []struct{ name, text, ask string }{
		{"what", what, "what happened, concretely"},
		{"learned", learned, "what a later session should do differently"},
	} {
		if !hasSubstance(f.text) {
			return newError(CodeNoteRejected, "at /payload/content/%s: too little to go on (a secret, masked, counts for nothing); say %s", f.name, f.ask)
		}
	}
	if foldWords(what) == foldWords(learned) {
		return newError(CodeNoteRejected, "at /payload/content/learned: it repeats what; say what a later session should do differently")
	}
	if f := n.Fix; f != nil {
		for _, part := range []struct{ at, text string }{{"command", f.Command}, {"diff", f.Diff}, {"content", f.Content}} {
			if part.text != "" && strings.TrimSpace(StripRedactions(part.text)) == "" {
				return newError(CodeNoteRejected, "at /payload/fix/%s: the fix is only a secret, which memory never keeps; give the fix without it", part.at)
			}
		}
	}
	for _, f := range noteTexts(n) {
		if found := ScanSecrets(f.text); len(found) > 0 {
			return newError(CodeNoteRejected, "at %s: looks like a secret (%s at byte %d); remove it and record the note again",
				f.at, found[0].Kind, found[0].Offset)
		}
	}
	return nil
}

// noteTexts lists every text of a note a secret could hide in, with its
// JSON Pointer.
func noteTexts(n *NotePayload) []struct{ at, text string } {
	out := []struct{ at, text string }{
		{"/payload/title", n.Title},
		{"/payload/content/what", n.Content.What},
		{"/payload/content/why", n.Content.Why},
		{"/payload/content/where", n.Content.Where},
		{"/payload/content/learned", n.Content.Learned},
	}
	for i, e := range n.EvidenceRefs {
		out = append(out, struct{ at, text string }{"/payload/evidence_refs/" + strconv.Itoa(i), e})
	}
	if f := n.Fix; f != nil {
		out = append(out,
			struct{ at, text string }{"/payload/fix/command", f.Command},
			struct{ at, text string }{"/payload/fix/diff", f.Diff},
			struct{ at, text string }{"/payload/fix/path", f.Path},
			struct{ at, text string }{"/payload/fix/content", f.Content},
		)
	}
	return out
}

// foldWords folds s to lowercase words without accents or punctuation,
// joined by single spaces.
func foldWords(s string) string {
	return strings.Join(strings.FieldsFunc(foldText(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

func isPlaceholder(s string) bool { return placeholders[foldWords(s)] }

// hasSubstance reports whether s says enough once placeholder words are
// set aside.
func hasSubstance(s string) bool {
	weight := 0
	distinct := map[rune]bool{}
	for _, w := range strings.Fields(foldWords(s)) {
		if placeholders[w] {
			continue
		}
		for _, r := range w {
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
				weight += 3
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				weight++
			}
			if unicode.IsLetter(r) {
				distinct[r] = true
			}
		}
	}
	return weight >= minSubstance && len(distinct) >= 4
}
