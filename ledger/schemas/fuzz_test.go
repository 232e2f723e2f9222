package schemas

import (
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
)

// FuzzValidate reads any I-JSON text as each file and checks what every
// answer must be: the same each time, and each issue pointing at a value the
// file has, or at a member missing from an object it has.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`[]`, `{}`, `null`, `"x"`,
		`[{"kind": "antibody", "name": "x", "rrid": "RRID:AB_1", "extra": [1, {"a/b~c": 2}]}]`,
		`[{"from": "claim:` + hex64 + `", "kind": "changed", "detail": "x", "claims": ["C1", 2]}]`,
		`[{"id": "doi:10.1038/x", "title": "t", "authors": ["a"], "year": 2024}, {"id": "doi:10.1038/x"}, {"id": 7}]`,
		`[{"path": "data/a", "url": "https://example.org:70000/a", "sha256": "sha256:` + hex64 + `", "bytes": 1e13, "license": "x", "doi": "10.1234/\u00a0"}]`,
		`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "s", "evidence": [{"result": "R.a"}], "depends_on": ["C1"], "confidence": 2}]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := canonical.Parse([]byte(text))
		if err != nil {
			return
		}
		for _, name := range Names() {
			issues := Validate(name, v)
			if again := Validate(name, v); !slices.Equal(issues, again) {
				t.Fatalf("%s: two answers for one file:\n%s\n%s", name, format(issues), format(again))
			}
			for _, is := range issues {
				if is.Message == "" {
					t.Errorf("%s: an issue at %q says nothing", name, is.Path)
				}
				if !pointsIntoFile(v, is.Path) {
					t.Errorf("%s: issue %q: %s points at nothing the file has", name, is.Path, is.Message)
				}
			}
		}
	})
}

// pointsIntoFile reports whether a JSON Pointer names a value of v, or a
// member missing from an object of v.
func pointsIntoFile(v any, pointer string) bool {
	if pointer == "" {
		return true
	}
	if !strings.HasPrefix(pointer, "/") {
		return false
	}
	tokens := strings.Split(pointer[1:], "/")
	for i, tok := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	if _, ok := valueAt(v, tokens); ok {
		return true
	}
	parent, ok := valueAt(v, tokens[:len(tokens)-1])
	_, isObject := parent.(map[string]any)
	return ok && isObject
}
