package bundle_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
)

var keyDigest = "sha256:" + strings.Repeat("ab", 32)

// manifestWith is the instructions' example manifest with one member
// replaced (or removed, when value is "").
func manifestWith(member, value string) string {
	fields := [][2]string{
		{"operator_key_digest", `"` + keyDigest + `"`},
		{"fields", `["machine-learning"]`},
		{"license", `{"prose": "CC-BY-4.0", "code": "MIT"}`},
		{"model_families", `["claude"]`},
		{"models", `["claude-opus-5-5"]`},
		{"compute", `{"minutes": 30, "gpu": false}`},
	}
	var out []string
	replaced := false
	for _, f := range fields {
		if f[0] == member {
			replaced = true
			if value == "" {
				continue
			}
			f[1] = value
		}
		out = append(out, `"`+f[0]+`": `+f[1])
	}
	if !replaced && value != "" {
		out = append(out, `"`+member+`": `+value)
	}
	return "{" + strings.Join(out, ", ") + "}"
}

func TestManifest(t *testing.T) {
	m, issues, err := bundle.ParseManifest([]byte(manifestWith("", "")))
	if err != nil || issues != nil {
		t.Fatalf("the example manifest: %v %v", err, issues)
	}
	if m.OperatorKeyDigest != keyDigest || m.Compute.Minutes != 30 || m.License.Code != "MIT" || !slices.Equal(m.Fields, []string{"machine-learning"}) {
		t.Errorf("manifest = %+v", m)
	}

	for _, tc := range []struct {
		name, member, value string
		paths               []string // nil means valid
	}{
		{"no key digest", "operator_key_digest", "", []string{"/operator_key_digest"}},
		{"uppercase key digest", "operator_key_digest", `"sha256:` + strings.Repeat("AB", 32) + `"`, []string{"/operator_key_digest"}},
		{"no fields", "fields", `[]`, []string{"/fields"}},
		{"six fields", "fields", `["a","b","c","d","e","f"]`, []string{"/fields"}},
		{"five fields", "fields", `["a","b","c","d","e"]`, nil},
		{"a field with capitals", "fields", `["Machine-learning"]`, []string{"/fields/0"}},
		{"a field with a double hyphen", "fields", `["a--b"]`, []string{"/fields/0"}},
		{"a field of 41 characters", "fields", `["` + strings.Repeat("a", 41) + `"]`, []string{"/fields/0"}},
		{"a licence with a space", "license", `{"prose": "CC BY"}`, []string{"/license/prose"}},
		{"a licence with an unknown member", "license", `{"prose": "MIT", "media": "MIT"}`, []string{"/license"}},
		{"a blank data licence", "license", `{"prose": "MIT", "data": "  "}`, []string{"/license/data"}},
		{"a data licence", "license", `{"prose": "MIT", "data": " Open Database License "}`, nil},
		{"zero minutes", "compute", `{"minutes": 0, "gpu": false}`, []string{"/compute/minutes"}},
		{"a week of minutes", "compute", `{"minutes": 10080, "gpu": true}`, nil},
		{"over a week", "compute", `{"minutes": 10081, "gpu": true}`, []string{"/compute/minutes"}},
		{"software", "compute", `{"minutes": 1, "gpu": false, "software": ["matlab", "stata"]}`, nil},
		{"bad software", "compute", `{"minutes": 1, "gpu": false, "software": ["MATLAB"]}`, []string{"/compute/software/0"}},
		{"no gpu", "compute", `{"minutes": 1}`, []string{"/compute/gpu"}},
		{"written by people", "written_by", `"person"`, nil},
		{"written by a cat", "written_by", `"cat"`, []string{"/written_by"}},
		{"no families", "model_families", "", nil},
		{"a family twice", "model_families", `["gpt", "gpt"]`, []string{"/model_families/1"}},
		{"a blank model", "models", `["\u00a0"]`, []string{"/models/0"}},
		// Text limits count code points, as the reference's zod schemas do.
		{"100 emoji for a model", "models", `["` + strings.Repeat("😀", 100) + `"]`, nil},
		{"101 emoji for a model", "models", `["` + strings.Repeat("😀", 101) + `"]`, []string{"/models/0"}},
		{"200 emoji for a data licence, trimmed", "license", `{"prose": "MIT", "data": " ` + strings.Repeat("😀", 200) + ` "}`, nil},
		{"201 emoji for a data licence", "license", `{"prose": "MIT", "data": "` + strings.Repeat("😀", 201) + `"}`, []string{"/license/data"}},
		{"an empty model list", "models", `[]`, []string{"/models"}},
		{"replaces", "replaces", `"` + keyDigest + `"`, nil},
		{"replaces a number", "replaces", `7`, []string{"/replaces"}},
		{"replication", "replication", `{"needs": [{"kind": "lab", "hours": 40}], "days": 30}`, nil},
		{"a kind twice", "replication", `{"needs": [{"kind": "lab", "hours": 1}, {"kind": "lab", "hours": 2}], "days": 30}`, []string{"/replication/needs/1/kind"}},
		{"no needs", "replication", `{"needs": [], "days": 30}`, []string{"/replication/needs"}},
		{"unknown kind", "replication", `{"needs": [{"kind": "sea", "hours": 1}], "days": 3651}`, []string{"/replication/needs/0/kind", "/replication/days"}},
		{"hazard screen", "hazard_screen", `{"rubric": "` + keyDigest + `", "model": "claude-opus-5-5"}`, nil},
		{"hazard screen without a model", "hazard_screen", `{"rubric": "` + keyDigest + `"}`, []string{"/hazard_screen/model"}},
		{"an unknown member", "title", `"x"`, []string{""}},
		{"null for an optional member", "written_by", `null`, []string{"/written_by"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := canonical.Parse([]byte(manifestWith(tc.member, tc.value)))
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, issue := range bundle.ValidateManifest(v) {
				paths = append(paths, issue.Path)
			}
			if !slices.Equal(paths, tc.paths) {
				t.Errorf("issue paths = %q, want %q (%v)", paths, tc.paths, bundle.ValidateManifest(v))
			}
		})
	}

	if _, issues, _ := bundle.ParseManifest([]byte(`[]`)); len(issues) != 1 || issues[0].Path != "" {
		t.Errorf("an array: %v", issues)
	}
	if _, _, err := bundle.ParseManifest([]byte(`{"a": 1, "a": 2}`)); !errors.Is(err, canonical.ErrNotIJSON) {
		t.Errorf("a duplicate member: %v", err)
	}
}

func TestReplicationIssues(t *testing.T) {
	measured := []claims.Claim{{Evidence: []claims.Evidence{{Result: "R1.a", Measured: "data/a.csv"}}}}
	computed := []claims.Claim{{Evidence: []claims.Evidence{{Result: "R1.a", ProducedBy: "code/a.py"}}}}
	with := &bundle.Manifest{Replication: &bundle.Replication{Days: 1}}
	without := &bundle.Manifest{}
	for _, tc := range []struct {
		m      *bundle.Manifest
		claims []claims.Claim
		issues int
	}{
		{with, measured, 0}, {without, measured, 1}, {with, computed, 1}, {without, computed, 0},
	} {
		if got := bundle.ReplicationIssues(tc.m, tc.claims); len(got) != tc.issues {
			t.Errorf("replication %v, claims %+v: issues %v", tc.m.Replication != nil, tc.claims, got)
		}
	}
}
