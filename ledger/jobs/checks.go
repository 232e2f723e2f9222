package jobs

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/vocabulary"
)

// The checks of published bundles that are answered by entries of their
// own ("Verifying claims": Citation checks, Duplicate checks, Importance
// ratings): a citation_check and a duplicate_check are logged with their
// evidence; an importance_rating is kept by the node and never logged.

// CitationAnswer is a checked citation_check entry.
type CitationAnswer struct {
	Checker     string
	Bundle      string
	Citations   map[string]string // reference ID → verdict
	Evidence    string
	ModelFamily string
	Model       string
}

var citationMembers = []string{"type", "checker", "bundle", "citations", "evidence", "model_family", "model", "sig"}

// MaxReferenceID bounds a reference ID a citation check names, as the
// reference library's schema does.
const MaxReferenceID = 300

// CheckCitationCheck checks a citation_check entry's members; which
// citations it must judge, the job says.
func CheckCitationCheck(e map[string]any) (CitationAnswer, []Issue) {
	var is issues
	var c CitationAnswer
	unknown(&is, e, citationMembers, "")
	if e["type"] != "citation_check" {
		is.add("/type", `type must be "citation_check"`)
	}
	c.Checker = operatorMember(&is, e, "checker")
	c.Bundle = digestMember(&is, e, "bundle", "bundle is the bundle's hash, sha256: and 64 lowercase hex digits")
	c.Citations = map[string]string{}
	obj, ok := e["citations"].(map[string]any)
	if !ok || len(obj) == 0 {
		is.add("/citations", "citations maps each reference ID the job lists to a verdict; list at least one")
	}
	for ref, v := range obj {
		s, _ := v.(string)
		switch {
		case ref == "" || len(ref) > MaxReferenceID:
			is.add("/citations/"+escape(ref), "a reference ID is 1 to %d characters", MaxReferenceID)
		case !slices.Contains(vocabulary.CitationVerdicts, s):
			is.add("/citations/"+escape(ref), "a verdict is one of %s", strings.Join(vocabulary.CitationVerdicts, ", "))
		default:
			c.Citations[ref] = s
		}
	}
	c.Evidence = digestMember(&is, e, "evidence", "evidence is the evidence's digest, sha256: and 64 lowercase hex digits")
	c.ModelFamily, c.Model = modelMembers(&is, e)
	sigMember(&is, e, "checker")
	return c, is.sorted()
}

// CitationsWithWork reports whether a citation check got to any source:
// one that could get to none pays nothing.
func CitationsWithWork(verdicts map[string]string) bool {
	for _, v := range verdicts {
		if v != "could_not_access" {
			return true
		}
	}
	return false
}

// DuplicatePair is one pair of a duplicate check: a claim of the bundle,
// an earlier claim, and the verdict on them.
type DuplicatePair struct {
	Claim, Earlier, Verdict string
}

// PairKey is how a pair's verdict is kept among an answer's verdicts.
func PairKey(claim, earlier string) string { return claim + " " + earlier }

// DuplicateAnswer is a checked duplicate_check entry.
type DuplicateAnswer struct {
	Checker     string
	Bundle      string
	Pairs       []DuplicatePair
	Evidence    string
	ModelFamily string
	Model       string
}

var duplicateMembers = []string{"type", "checker", "bundle", "pairs", "evidence", "model_family", "model", "sig"}

// MaxPairs bounds the pairs one duplicate check judges.
const MaxPairs = 1000

// CheckDuplicateCheck checks a duplicate_check entry's members; which
// pairs it must judge, the job says.
func CheckDuplicateCheck(e map[string]any) (DuplicateAnswer, []Issue) {
	var is issues
	var d DuplicateAnswer
	unknown(&is, e, duplicateMembers, "")
	if e["type"] != "duplicate_check" {
		is.add("/type", `type must be "duplicate_check"`)
	}
	d.Checker = operatorMember(&is, e, "checker")
	d.Bundle = digestMember(&is, e, "bundle", "bundle is the bundle's hash, sha256: and 64 lowercase hex digits")
	list, ok := e["pairs"].([]any)
	if !ok || len(list) == 0 || len(list) > MaxPairs {
		is.add("/pairs", `pairs lists 1 to %d {"claim", "earlier", "verdict"}, one for every pair the job lists`, MaxPairs)
	}
	seen := map[string]bool{}
	for i, item := range list {
		at := fmt.Sprintf("/pairs/%d", i)
		obj, ok := item.(map[string]any)
		if !ok {
			is.add(at, `a pair is {"claim", "earlier", "verdict"}`)
			continue
		}
		unknown(&is, obj, []string{"claim", "earlier", "verdict"}, at)
		p := DuplicatePair{}
		p.Claim, _ = obj["claim"].(string)
		p.Earlier, _ = obj["earlier"].(string)
		p.Verdict, _ = obj["verdict"].(string)
		switch {
		case !claims.IsClaimID(p.Claim):
			is.add(at+"/claim", "claim is a global claim ID")
		case !claims.IsClaimID(p.Earlier):
			is.add(at+"/earlier", "earlier is a global claim ID")
		case !slices.Contains(vocabulary.DuplicateVerdicts, p.Verdict):
			is.add(at+"/verdict", "a verdict is one of %s", strings.Join(vocabulary.DuplicateVerdicts, ", "))
		case seen[PairKey(p.Claim, p.Earlier)]:
			is.add(at, "this pair is judged twice")
		default:
			seen[PairKey(p.Claim, p.Earlier)] = true
			d.Pairs = append(d.Pairs, p)
		}
	}
	d.Evidence = digestMember(&is, e, "evidence", "evidence is the evidence's digest, sha256: and 64 lowercase hex digits")
	d.ModelFamily, d.Model = modelMembers(&is, e)
	sigMember(&is, e, "checker")
	return d, is.sorted()
}

// Verdicts are the pairs' verdicts keyed by PairKey.
func (d DuplicateAnswer) Verdicts() map[string]string {
	out := make(map[string]string, len(d.Pairs))
	for _, p := range d.Pairs {
		out[PairKey(p.Claim, p.Earlier)] = p.Verdict
	}
	return out
}

// RatingAnswer is a checked importance_rating entry.
type RatingAnswer struct {
	Rater       string
	Bundle      string
	Scores      map[string]int    // global claim ID → 0 to 100
	Reasons     map[string]string // global claim ID → why; empty when the rating gives none
	ModelFamily string
	Model       string
}

var ratingMembers = []string{"type", "rater", "bundle", "scores", "reasons", "model_family", "model", "sig"}

// The importance scale and a reason's length ("Importance ratings").
const (
	ImportanceMin = 0
	ImportanceMax = 100
	MaxReason     = 1000
)

// CheckImportanceRating checks an importance_rating entry's members.
// `reasons` is the spec's; the reference harness sends none, so a rating
// without it is taken, and one with it gives a reason for every claim it
// scores.
func CheckImportanceRating(e map[string]any) (RatingAnswer, []Issue) {
	var is issues
	var r RatingAnswer
	unknown(&is, e, ratingMembers, "")
	if e["type"] != "importance_rating" {
		is.add("/type", `type must be "importance_rating"`)
	}
	r.Rater = operatorMember(&is, e, "rater")
	r.Bundle = digestMember(&is, e, "bundle", "bundle is the bundle's hash, sha256: and 64 lowercase hex digits")
	r.Scores = map[string]int{}
	scores, ok := e["scores"].(map[string]any)
	if !ok || len(scores) == 0 || len(scores) > claims.MaxClaims {
		is.add("/scores", "scores maps each claim the job lists, by global claim ID, to a whole number from 0 to 100")
	}
	for id, v := range scores {
		n, isNum := v.(float64)
		switch {
		case !claims.IsClaimID(id):
			is.add("/scores/"+escape(id), "%q is not a global claim ID", id)
		case !isNum || n != float64(int(n)) || n < ImportanceMin || n > ImportanceMax:
			is.add("/scores/"+id, "a score is a whole number from %d to %d", ImportanceMin, ImportanceMax)
		default:
			r.Scores[id] = int(n)
		}
	}
	r.Reasons = map[string]string{}
	if v, given := e["reasons"]; given {
		reasons, ok := v.(map[string]any)
		if !ok {
			is.add("/reasons", "reasons maps each claim scored to the reason for its score")
		}
		for id, why := range reasons {
			s, _ := why.(string)
			switch {
			case !claims.IsClaimID(id) || scores[id] == nil:
				is.add("/reasons/"+escape(id), "give reasons only for the claims you score")
			case strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > MaxReason:
				is.add("/reasons/"+id, "a reason is a sentence or three, at most %d characters", MaxReason)
			default:
				r.Reasons[id] = strings.TrimSpace(s)
			}
		}
		for id := range scores {
			if _, ok := reasons[id]; !ok && claims.IsClaimID(id) {
				is.add("/reasons/"+id, "give each score its reason")
			}
		}
	}
	r.ModelFamily, r.Model = modelMembers(&is, e)
	sigMember(&is, e, "rater")
	return r, is.sorted()
}

// CheckCovers checks that got names exactly the keys of want, each path
// under prefix: a check's verdicts cover every citation or pair its job
// lists, a rating every claim.
func CheckCovers[V any](got map[string]V, want []string, prefix, what string) []Issue {
	var is issues
	for k := range got {
		if !slices.Contains(want, k) {
			is.add(prefix+"/"+escape(k), "this job lists no %s %s", what, k)
		}
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			is.add(prefix+"/"+escape(k), "give a verdict on every %s the job lists: %s has none", what, k)
		}
	}
	return is.sorted()
}

func digestMember(is *issues, e map[string]any, name, message string) string {
	s, _ := e[name].(string)
	if !claims.IsDigest(s) {
		is.add("/"+name, "%s", message)
	}
	return s
}

func sigMember(is *issues, e map[string]any, who string) {
	if _, ok := e["sig"].(string); !ok {
		is.add("/sig", "sig is the %s's signature, a string", who)
	}
}
