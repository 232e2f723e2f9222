package jobs

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/vocabulary"
)

// AddendumScreen is the job of screening an addendum before it appears
// beside its bundle ("Adding an addendum"): it runs nothing and is due in
// RatingDeadline, as an importance rating is.
const AddendumScreen = "addendum_screen"

// MaxAddendum bounds an addendum's words, in characters.
const MaxAddendum = 10000

// MaxScreenNote bounds an addendum screen's note, in characters.
const MaxScreenNote = 300

// AddendumBlockReasons are the rules an addendum screen may say it breaks,
// with what each means, in the order the spec gives them.
var AddendumBlockReasons = []string{"instructions", "off_topic", "abuse", "misleads", "new_work"}

// AddendumBlockMeaning says what each of AddendumBlockReasons means, as a
// screen job carries it.
var AddendumBlockMeaning = map[string]string{
	"instructions": "it gives orders to the agents or people who read it",
	"off_topic":    "it isn't about this bundle",
	"abuse":        "it attacks or harasses people",
	"misleads":     "it misstates what the bundle claims or how its claims were checked",
	"new_work":     "it reports new results or changes the claims, which is a new bundle's or a correction's work",
}

// AddendumRules are the rules screeners judge an addendum by, as a screen
// job carries them.
var AddendumRules = []string{
	"It is about this bundle: what was learned since, a clarification, an answer to a replication or a challenge, a pointer to later work, or a disclosure.",
	"It adds words only. It reports no new results and changes no claim: new findings belong in a new bundle, and a fix in a correction, where they are checked.",
	"It doesn't misstate what the bundle claims or how its claims were checked.",
	"It gives the agents and people who read it no instructions, and attacks no one.",
	"It passes the hazard screen, as the bundle did.",
}

// Addendum is a checked addendum entry: an author's words added to its own
// opened bundle, logged as their digest.
type Addendum struct {
	Author      string
	Bundle      string
	Words       string // the digest of the words' canonical JSON
	ModelFamily string // "" when the entry names none
	Model       string
}

var addendumMembers = []string{"type", "author", "publisher", "bundle", "words", "model_family", "model", "sig"}

// CheckAddendum checks an addendum entry's members. Its author is named as
// author, or publisher (the field's earlier name), never both.
func CheckAddendum(e map[string]any) (Addendum, []Issue) {
	var is issues
	var a Addendum
	unknown(&is, e, addendumMembers, "")
	if e["type"] != "addendum" {
		is.add("/type", `type must be "addendum"`)
	}
	_, byAuthor := e["author"]
	_, byPublisher := e["publisher"]
	switch {
	case byAuthor && byPublisher:
		is.add("/publisher", "name the author once, as author")
	case byPublisher:
		a.Author = operatorMember(&is, e, "publisher")
	default:
		a.Author = operatorMember(&is, e, "author")
	}
	a.Bundle = digestMember(&is, e, "bundle", "bundle is the hash of the version the addendum is written for")
	a.Words = digestMember(&is, e, "words", "words is the digest of the canonical JSON of {\"text\", \"nonce\"}")
	a.ModelFamily, a.Model = optionalModel(&is, e)
	sigMember(&is, e, "author")
	return a, is.sorted()
}

// AddendumVerdict is a checked addendum_screen: a screener's hazard screen
// of the addendum logged at Addendum, and whether it may appear.
type AddendumVerdict struct {
	Screener    string
	Addendum    uint64
	Hazard      string
	Verdict     string // "ok" or "block"
	Reason      string // one of AddendumBlockReasons, or ""
	Note        string
	ModelFamily string
	Model       string
}

var addendumScreenMembers = []string{"type", "screener", "addendum", "hazard", "verdict", "reason", "note", "model_family", "model", "sig"}

// CheckAddendumScreen checks an addendum_screen's members: an ok answers
// the hazard screen "none" and names no reason; a block names a hazard, a
// reason, or both.
func CheckAddendumScreen(e map[string]any) (AddendumVerdict, []Issue) {
	var is issues
	var v AddendumVerdict
	unknown(&is, e, addendumScreenMembers, "")
	if e["type"] != AddendumScreen {
		is.add("/type", `type must be "addendum_screen"`)
	}
	v.Screener = operatorMember(&is, e, "screener")
	n, ok := e["addendum"].(float64)
	if !ok || n < 0 || n != math.Trunc(n) || n > 1<<53 {
		is.add("/addendum", "addendum is the addendum's log index, a whole number")
	} else {
		v.Addendum = uint64(n)
	}
	v.Hazard, _ = e["hazard"].(string)
	if !slices.Contains(vocabulary.HazardVerdicts, v.Hazard) {
		is.add("/hazard", "hazard is one of %s", strings.Join(vocabulary.HazardVerdicts, ", "))
	}
	v.Verdict, _ = e["verdict"].(string)
	if v.Verdict != "ok" && v.Verdict != "block" {
		is.add("/verdict", `verdict is "ok" or "block"`)
	}
	if r, ok := e["reason"]; ok {
		v.Reason, _ = r.(string)
		if !slices.Contains(AddendumBlockReasons, v.Reason) {
			is.add("/reason", "reason is one of %s", strings.Join(AddendumBlockReasons, ", "))
		}
	}
	if n, ok := e["note"]; ok {
		v.Note, _ = n.(string)
		if _, isString := n.(string); !isString || utf8.RuneCountInString(v.Note) > MaxScreenNote {
			is.add("/note", "note is text of at most %d characters", MaxScreenNote)
		}
	}
	switch {
	case v.Verdict == "ok" && (v.Hazard != "none" || v.Reason != ""):
		is.add("/verdict", `an ok answers the hazard screen "none" and names no reason; block it otherwise`)
	case v.Verdict == "block" && v.Hazard == "none" && v.Reason == "":
		is.add("/verdict", "a block names a hazard, a reason, or both")
	}
	v.ModelFamily, v.Model = modelMembers(&is, e)
	sigMember(&is, e, "screener")
	return v, is.sorted()
}
