package jobs

import (
	"strings"
	"testing"
	"time"
)

var (
	op    = "op:" + strings.Repeat("ab", 32)
	dig   = "sha256:" + strings.Repeat("cd", 32)
	claim = "claim:" + strings.Repeat("ef", 32)
)

func checkEntry(typ string, extra map[string]any) map[string]any {
	e := map[string]any{"type": typ, "bundle": dig, "model_family": "gpt", "model": "gpt-test-1", "sig": "x"}
	for k, v := range extra {
		e[k] = v
	}
	return e
}

func paths(list []Issue) string {
	var out []string
	for _, i := range list {
		out = append(out, i.Path)
	}
	return strings.Join(out, " ")
}

func TestCheckEntries(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(map[string]any) []Issue
		e     map[string]any
		want  string // the issues' paths
	}{
		{"citation: good", citationIssues, checkEntry("citation_check", map[string]any{"checker": op, "evidence": dig, "citations": map[string]any{"doi:10.1/x": "supports"}}), ""},
		{"citation: bad verdict", citationIssues, checkEntry("citation_check", map[string]any{"checker": op, "evidence": dig, "citations": map[string]any{"doi:10.1/x": "sound"}}), "/citations/doi:10.1~1x"},
		{"citation: none", citationIssues, checkEntry("citation_check", map[string]any{"checker": op, "evidence": dig, "citations": map[string]any{}}), "/citations"},
		{"citation: no evidence", citationIssues, checkEntry("citation_check", map[string]any{"checker": op, "citations": map[string]any{"doi:10.1/x": "supports"}}), "/evidence"},
		{"duplicate: good", duplicateIssues, checkEntry("duplicate_check", map[string]any{"checker": op, "evidence": dig,
			"pairs": []any{map[string]any{"claim": claim, "earlier": claim, "verdict": "restates"}}}), ""},
		{"duplicate: twice", duplicateIssues, checkEntry("duplicate_check", map[string]any{"checker": op, "evidence": dig,
			"pairs": []any{map[string]any{"claim": claim, "earlier": claim, "verdict": "restates"}, map[string]any{"claim": claim, "earlier": claim, "verdict": "distinct"}}}), "/pairs/1"},
		{"duplicate: extra member", duplicateIssues, checkEntry("duplicate_check", map[string]any{"checker": op, "evidence": dig,
			"pairs": []any{map[string]any{"claim": claim, "earlier": claim, "verdict": "restates", "why": "x"}}}), "/pairs/0/why"},
		{"rating: good", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 70.0}, "reasons": map[string]any{claim: "High, on strong evidence."}}), ""},
		{"rating: no reasons (the reference harness)", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 0.0}}), ""},
		{"rating: a reason missing", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 70.0}, "reasons": map[string]any{}}), "/reasons/" + claim},
		{"rating: too long a reason", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 70.0}, "reasons": map[string]any{claim: strings.Repeat("x", 1001)}}), "/reasons/" + claim},
		{"rating: out of range", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 100.5}}), "/scores/" + claim},
		{"rating: evidence is no member", ratingIssues, checkEntry("importance_rating", map[string]any{"rater": op, "scores": map[string]any{claim: 5.0}, "evidence": dig}), "/evidence"},
	} {
		if got := paths(c.check(c.e)); got != c.want {
			t.Errorf("%s: issues at %q, want %q", c.name, got, c.want)
		}
	}
}

func citationIssues(e map[string]any) []Issue  { _, is := CheckCitationCheck(e); return is }
func duplicateIssues(e map[string]any) []Issue { _, is := CheckDuplicateCheck(e); return is }
func ratingIssues(e map[string]any) []Issue    { _, is := CheckImportanceRating(e); return is }

func TestCheckCovers(t *testing.T) {
	got := map[string]string{"a": "supports", "c": "supports"}
	if is := paths(CheckCovers(got, []string{"a", "b"}, "/citations", "citation")); is != "/citations/b /citations/c" {
		t.Errorf("CheckCovers: %s", is)
	}
}

func TestSharedWords(t *testing.T) {
	a := "The four values of the original sample sum to the declared total"
	if s := SharedWords(a, "The values of the original sample sum to the declared total once more"); s < SharedWordsAtLeast {
		t.Errorf("a restatement in other words shares %.2f", s)
	}
	if s := SharedWords(a, "Averaging four measurements of the third sample is enough to compare them"); s >= SharedWordsAtLeast {
		t.Errorf("another claim shares %.2f", s)
	}
	if d := Distinctive(a, 3); strings.Join(d, " ") != "original declared values" {
		t.Errorf("Distinctive = %v", d)
	}
}

func TestRatingEligibility(t *testing.T) {
	j := Open{ID: "job:1", Kind: ImportanceRating, AuthorOrgs: []string{"org:a"}, AuthorFamilies: []string{"claude"}}
	v := Verifier{Organization: "org:b", Family: "claude", Can: DefaultCan}
	if !Eligible(j, v) {
		t.Error("the first rating from the author's family was refused")
	}
	j.RoundFamilies = []string{"claude"}
	if Eligible(j, v) {
		t.Error("a second rating from the author's family was allowed")
	}
	v.Family = "gpt"
	if !Eligible(j, v) {
		t.Error("a rating from another family was refused")
	}
	v.NoImportance = true
	if Eligible(j, v) {
		t.Error(`a rating went to a request with "importance": false`)
	}
	v.NoImportance, v.Organization = false, "org:a"
	if Eligible(j, v) {
		t.Error("a rating went to the author's organization")
	}
	at := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	if got := DeadlineFor(ImportanceRating, at, 600); !got.Equal(at.Add(2 * time.Hour)) {
		t.Errorf("a rating due %v", got)
	}
	if got := DeadlineFor(ProofCheck, at, 60); !got.Equal(Deadline(at, 60)) {
		t.Errorf("a proof check due %v", got)
	}
	proof := Open{Kind: ProofCheck, Software: []string{"lean4"}, Minutes: 5}
	if Eligible(proof, Verifier{Organization: "org:b", Family: "gpt", Can: DefaultCan}) {
		t.Error("a proof check went to a verifier without its checker")
	}
	if !Eligible(proof, Verifier{Organization: "org:b", Family: "gpt", Can: Can{Minutes: 30, DownloadMB: 100, Software: []string{"lean4"}}}) {
		t.Error("a proof check was refused to a verifier listing its checker")
	}
}

func TestMiddleMean(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want int
	}{{[]float64{10, 90, 40, 50}, 45}, {[]float64{40, 41, 0, 100}, 41}, {[]float64{7}, 7}} {
		if got := ImportanceScore(c.in); got != c.want {
			t.Errorf("ImportanceScore(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}
