package bundle_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/schemas"
)

// TestManifestSchemaAgrees holds the manifest schema the node serves (GET
// /api/v1/schemas/manifest.json) to the verdicts CheckManifest gives, on the
// example study's manifest and on one change of it per rule: the schema
// accepts a manifest exactly when CheckManifest does and it declares a hazard
// screen, which the bundle check requires beside it.
func TestManifestSchemaAgrees(t *testing.T) {
	text, err := os.ReadFile("../../examples/study/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	key := `"sha256:` + strings.Repeat("ab", 32) + `"`
	changes := map[string]string{
		"as shipped, with a key":   ``,
		"no key":                   `"operator_key_digest": null`,
		"key not a digest":         `"operator_key_digest": "sha256:AB"`,
		"no fields":                `"fields": null`,
		"empty fields":             `"fields": []`,
		"six fields":               `"fields": ["a","b","c","d","e","f"]`,
		"field not a tag":          `"fields": ["Physics"]`,
		"field with double hyphen": `"fields": ["a--b"]`,
		"no license":               `"license": null`,
		"licence without prose":    `"license": {"code": "MIT"}`,
		"licence not SPDX":         `"license": {"prose": "CC BY"}`,
		"licence extra member":     `"license": {"prose": "MIT", "fonts": "OFL"}`,
		"data licence blank":       `"license": {"prose": "MIT", "data": "   "}`,
		"no compute":               `"compute": null`,
		"compute without gpu":      `"compute": {"minutes": 3}`,
		"zero minutes":             `"compute": {"minutes": 0, "gpu": false}`,
		"too many minutes":         `"compute": {"minutes": 10081, "gpu": false}`,
		"software tags":            `"compute": {"minutes": 3, "gpu": true, "software": ["matlab"]}`,
		"software not tags":        `"compute": {"minutes": 3, "gpu": true, "software": ["MATLAB"]}`,
		"written by a person":      `"written_by": "person"`,
		"written by a robot":       `"written_by": "robot"`,
		"families twice":           `"model_families": ["claude", "claude"]`,
		"no families listed":       `"model_families": []`,
		"model blank":              `"models": [" "]`,
		"replaces":                 `"replaces": ` + key,
		"replaces not a digest":    `"replaces": "v1"`,
		"replication":              `"replication": {"needs": [{"kind": "lab", "hours": 40}], "days": 30}`,
		"replication bad kind":     `"replication": {"needs": [{"kind": "sea", "hours": 40}], "days": 30}`,
		"replication no days":      `"replication": {"needs": [{"kind": "lab", "hours": 40}]}`,
		"no hazard screen":         `"hazard_screen": null`,
		"screen without model":     `"hazard_screen": {"rubric": ` + key + `}`,
		"screen rubric not digest": `"hazard_screen": {"rubric": "v1", "model": "m"}`,
		"unknown member":           `"title": "Boiling"`,
	}
	for name, change := range changes {
		var m map[string]any
		if err := json.Unmarshal(text, &m); err != nil {
			t.Fatal(err)
		}
		m["operator_key_digest"] = strings.Trim(key, `"`)
		if change != "" {
			var patch map[string]any
			if err := json.Unmarshal([]byte("{"+change+"}"), &patch); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for k, v := range patch {
				if v == nil {
					delete(m, k)
				} else {
					m[k] = v
				}
			}
		}
		b, _ := json.Marshal(m)
		v, err := canonical.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		_, issues := bundle.CheckManifest(v)
		_, screened := m["hazard_screen"]
		checked := len(issues) == 0 && screened
		schemaIssues := schemas.Validate("manifest.json", v)
		if checked != (len(schemaIssues) == 0) {
			t.Errorf("%s: CheckManifest says %v (screened %v), the schema %v", name, issues, screened, schemaIssues)
		}
		if name == "as shipped, with a key" && !checked {
			t.Errorf("the example's manifest is refused: %v", issues)
		}
	}
}

// TestManifestIssuesAllAtOnce: an empty manifest is told every member it
// lacks in one answer, each with its pointer and the form it takes.
func TestManifestIssuesAllAtOnce(t *testing.T) {
	_, issues := bundle.CheckManifest(map[string]any{})
	got := map[string]string{}
	for _, is := range issues {
		got[is.Path] = is.Message
	}
	for path, form := range map[string]string{
		"/operator_key_digest": `"sha256:" and 64 lowercase hex digits`,
		"/fields":              `such as ["physics"]`,
		"/license":             `"CC-BY-4.0"`,
		"/compute":             `"minutes"`,
	} {
		if !strings.Contains(got[path], form) {
			t.Errorf("%s: %q, want the form %q", path, got[path], form)
		}
	}
}
