package library

import (
	"slices"
	"strings"

	"github.com/agora-node/agora/internal/runes"
)

// Facets are what a catalogue filters, sorts and searches a record by,
// taken from its body once, when it is admitted, so reads never decode
// bodies.
type Facets struct {
	// Text is the body's words for search: a text kind's body as it is;
	// for a structured kind, every string in the body but the revision IDs,
	// in the body's member order as its canonical JSON has it.
	Text string
	// Snippet is the first 280 characters of the body as the contract's
	// summary projection shows it.
	Snippet string
	// NodeType is a research node's type (question, claim, ...).
	NodeType string
	// Method is an evidence's method.
	Method string
	// Verdict is an assessment's verdict.
	Verdict string
	// Vote is a vote's value, -1, 0 or 1; 0 for other kinds.
	Vote int
	// Subject is the revision an evidence, assessment or proposal is
	// about: its node, claim or base.
	Subject string
	// ContainedIn is the target of the record's contained_in link, if any.
	ContainedIn string
}

// snippetLength is the length of the summary projection's snippet, in
// characters.
const snippetLength = 280

// FacetsOf returns the record's facets. A structured body that is not JSON
// (which an admitted record never has) gives only the text facets.
func FacetsOf(r *Record) Facets {
	f := Facets{Snippet: runes.Prefix(r.Body, snippetLength)}
	for _, l := range r.Links {
		if l.Relation == "contained_in" {
			f.ContainedIn = l.Target
		}
	}
	if r.Kind == kindVote {
		switch r.Body {
		case "1":
			f.Vote = 1
		case "-1":
			f.Vote = -1
		}
	}
	if IsTextKind(r.Kind) || !knownKind(r.Kind) {
		f.Text = r.Body
		return f
	}
	body, err := r.decodeBody()
	if err != nil {
		f.Text = r.Body
		return f
	}
	var words []string
	collectText(body, &words)
	f.Text = strings.Join(words, "\n")
	obj, _ := body.(map[string]any)
	str := func(name string) string { s, _ := obj[name].(string); return s }
	switch r.Kind {
	case kindResearchNode:
		f.NodeType = str("type")
	case kindEvidence, kindResearchEvidence:
		f.Method = str("method")
		f.Subject = str(subjectMember(r.Kind))
	case kindAssessment, kindResearchAssessment:
		f.Verdict = str("verdict")
		f.Subject = str(subjectMember(r.Kind))
	case kindProposal, kindResearchProposal:
		f.Subject = str(subjectMember(r.Kind))
	}
	return f
}

// collectText appends the strings of v that are words, not revision IDs,
// in canonical member order.
func collectText(v any, words *[]string) {
	switch v := v.(type) {
	case string:
		if !IsRevisionID(v) {
			*words = append(*words, v)
		}
	case []any:
		for _, e := range v {
			collectText(e, words)
		}
	case map[string]any:
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			collectText(v[name], words)
		}
	}
}
