package jobs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/vocabulary"
)

// Attestation is a checked attestation entry: a verifier's signed verdicts
// on the claims of one bundle ("Verifying claims", step 6).
type Attestation struct {
	Job          string
	Verifier     string
	Bundle       string
	Claims       map[string]string // global claim ID → verdict
	Significance map[string]string // reviews only: global claim ID → rating
	Evidence     string
	ModelFamily  string
	Model        string
	Harness      string
	Hazard       string // reproductions only
	Copyright    string // the digest of a copyright finding, with Hazard "copyright"
	OverBudget   bool
	KnewAuthor   bool
}

var attestationMembers = []string{
	"type", "job", "verifier", "bundle", "claims", "significance", "evidence", "model_family", "model",
	"harness", "hazard", "copyright", "over_budget", "knew_author", "knew_publisher", "sig",
}

// harnessPattern is the harness rule: a name with no spaces, then, if it
// has one, a space and a version that starts with a digit.
var harnessPattern = regexp.MustCompile(`^[^\s]{1,100}( [0-9][^\s]{0,99})?$`)

// HarnessInvalid is the path of the issue CheckAttestation gives for a
// harness that breaks the rule; the node answers it 422 harness_invalid.
const HarnessInvalid = "/harness"

// CheckAttestation checks an attestation's members against the protocol's
// rules: its job kind and that kind's verdict vocabulary, significance for
// exactly a review's claims, the evidence digest, the model, the harness
// rule, and the hazard screen that only a reproduction carries. What needs
// the job it answers (which claims need verdicts, whose bundle it is) the
// caller checks.
func CheckAttestation(e map[string]any) (Attestation, []Issue) {
	var is issues
	var a Attestation
	unknown(&is, e, attestationMembers, "")
	if e["type"] != "attestation" {
		is.add("/type", `type must be "attestation"`)
	}
	a.Job, _ = e["job"].(string)
	verdicts, known := Verdicts(a.Job)
	if !known {
		names := make([]string, len(vocabulary.AttestationJobs))
		for i, j := range vocabulary.AttestationJobs {
			names[i] = j.Job
		}
		is.add("/job", "job is one of %s", strings.Join(names, ", "))
	}
	a.Verifier = operatorMember(&is, e, "verifier")
	a.Bundle, _ = e["bundle"].(string)
	if !claims.IsDigest(a.Bundle) {
		is.add("/bundle", "bundle is the bundle's hash, sha256: and 64 lowercase hex digits")
	}
	a.Claims = claimMap(&is, e, "claims", verdicts, known)
	if IsReview(a.Job) {
		a.Significance = claimMap(&is, e, "significance", vocabulary.SignificanceRatings, true)
		if _, ok := e["significance"]; ok {
			for id := range a.Claims {
				if _, rated := a.Significance[id]; !rated {
					is.add("/significance/"+id, "rate the significance of every claim the review gives a verdict on")
				}
			}
			for id := range a.Significance {
				if _, judged := a.Claims[id]; !judged {
					is.add("/significance/"+id, "rate only the claims the review gives a verdict on")
				}
			}
		}
	} else if _, ok := e["significance"]; ok && known {
		is.add("/significance", "only a review rates significance, not a %s", a.Job)
	}
	a.Evidence, _ = e["evidence"].(string)
	if !claims.IsDigest(a.Evidence) {
		is.add("/evidence", "evidence is the evidence's digest, sha256: and 64 lowercase hex digits")
	}
	a.ModelFamily, a.Model = modelMembers(&is, e)
	a.Harness, _ = e["harness"].(string)
	if !harnessPattern.MatchString(a.Harness) {
		is.add(HarnessInvalid, "harness names the software that made your evidence: a name with no spaces, then a space and a version that starts with a digit, such as \"sj-harness 0.8.1\"")
	}
	hazard, has := e["hazard"]
	switch {
	case CarriesHazard(a.Job) && !has:
		is.add("/hazard", "a %s carries your hazard screen: none, or the closest of %s", a.Job, strings.Join(vocabulary.HazardVerdicts[1:], ", "))
	case has && known && !CarriesHazard(a.Job):
		is.add("/hazard", "a %s carries no hazard screen: the work was screened before it ran", a.Job)
	case has:
		a.Hazard, _ = hazard.(string)
		if !slices.Contains(vocabulary.HazardVerdicts, a.Hazard) {
			is.add("/hazard", "hazard is one of %s", strings.Join(vocabulary.HazardVerdicts, ", "))
		}
	}
	if v, ok := e["copyright"]; ok {
		a.Copyright, _ = v.(string)
		if !claims.IsDigest(a.Copyright) || a.Hazard != "copyright" {
			is.add("/copyright", "copyright is the digest of your copyright finding, given only with hazard copyright")
		}
	} else if a.Hazard == "copyright" {
		is.add("/copyright", "hazard copyright names the digest of your finding as copyright")
	}
	a.OverBudget = trueFlag(&is, e, "over_budget")
	a.KnewAuthor = trueFlag(&is, e, "knew_author") || trueFlag(&is, e, "knew_publisher")
	if a.KnewAuthor && known && !IsReview(a.Job) {
		is.add("/knew_author", "only a review says whether it knew whose work it judged")
	}
	if _, ok := e["sig"].(string); !ok {
		is.add("/sig", "sig is the verifier's signature, a string")
	}
	return a, is.sorted()
}

// claimMap reads a {claim ID: value} member whose values are in allowed.
func claimMap(is *issues, e map[string]any, name string, allowed []string, check bool) map[string]string {
	out := map[string]string{}
	v, ok := e[name]
	obj, isObj := v.(map[string]any)
	if !ok || !isObj || len(obj) == 0 {
		is.add("/"+name, "%s maps each claim ID (claim: and 64 hex digits) to a value; list at least one", name)
		return out
	}
	for id, val := range obj {
		s, _ := val.(string)
		if !claims.IsClaimID(id) {
			is.add("/"+name+"/"+escape(id), "%q is not a global claim ID", id)
			continue
		}
		if check && !slices.Contains(allowed, s) {
			is.add("/"+name+"/"+id, "a value here is one of %s", strings.Join(allowed, ", "))
			continue
		}
		out[id] = s
	}
	return out
}

func trueFlag(is *issues, e map[string]any, name string) bool {
	v, ok := e[name]
	if !ok {
		return false
	}
	if v != true {
		is.add("/"+name, "%s is true when given; leave it out otherwise", name)
		return false
	}
	return true
}

// HazardAnswer is a checked hazard_review entry: a verifier's hazard
// verdict on a screen or a hazard review.
type HazardAnswer struct {
	Reviewer    string
	Bundle      string
	Verdict     string
	Copyright   string
	ModelFamily string
	Model       string
}

var hazardMembers = []string{"type", "reviewer", "bundle", "verdict", "copyright", "model_family", "model", "sig"}

// CheckHazardReview checks a hazard_review entry's members.
func CheckHazardReview(e map[string]any) (HazardAnswer, []Issue) {
	var is issues
	var h HazardAnswer
	unknown(&is, e, hazardMembers, "")
	if e["type"] != "hazard_review" {
		is.add("/type", `type must be "hazard_review"`)
	}
	h.Reviewer = operatorMember(&is, e, "reviewer")
	h.Bundle, _ = e["bundle"].(string)
	if !claims.IsDigest(h.Bundle) {
		is.add("/bundle", "bundle is the bundle's hash")
	}
	h.Verdict, _ = e["verdict"].(string)
	if !slices.Contains(vocabulary.HazardVerdicts, h.Verdict) {
		is.add("/verdict", "verdict is one of %s", strings.Join(vocabulary.HazardVerdicts, ", "))
	}
	if v, ok := e["copyright"]; ok {
		h.Copyright, _ = v.(string)
		if !claims.IsDigest(h.Copyright) || h.Verdict != "copyright" {
			is.add("/copyright", "copyright is the digest of your finding, given only with the verdict copyright")
		}
	}
	// The reference harness signs every object with the model making the
	// call; a hazard review without one is taken as the spec writes it.
	if _, ok := e["model_family"]; ok {
		h.ModelFamily, h.Model = modelMembers(&is, e)
	}
	if _, ok := e["sig"].(string); !ok {
		is.add("/sig", "sig is the reviewer's signature, a string")
	}
	return h, is.sorted()
}

// CheckVerdictsFor checks that verdicts give exactly the claims in need
// their verdicts, and returns the issues.
func CheckVerdictsFor(verdicts map[string]string, need []string) []Issue {
	var is issues
	for id := range verdicts {
		if !slices.Contains(need, id) {
			is.add("/claims/"+id, "this job asks no verdict on %s; give one on exactly the claims with needs_verdict", id)
		}
	}
	for _, id := range need {
		if _, ok := verdicts[id]; !ok {
			is.add("/claims/"+id, "give a verdict on %s: the job marks it needs_verdict", id)
		}
	}
	return is.sorted()
}

var _ = fmt.Sprint
