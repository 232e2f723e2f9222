package memory

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestDefaultProfile(t *testing.T) {
	p := DefaultProfile()
	if p.Format != ProfileFormat || p.Ref().String() != "default@2" {
		t.Errorf("default profile is %s@%s in %s", p.ID, p.Revision, p.Format)
	}
	for _, s := range Signals() {
		if _, ok := p.Signals[s]; !ok {
			t.Errorf("no weight for signal %s", s)
		}
	}
	for _, trig := range PushTriggers() {
		if _, ok := p.Push[trig]; !ok {
			t.Errorf("no push policy for %s", trig)
		}
	}
	for _, k := range Kinds() {
		if p.KindEnabled(k) != !IsCapabilityDisabled(k) {
			t.Errorf("KindEnabled(%s) = %v", k, p.KindEnabled(k))
		}
	}
	if p.KindEnabled("no.such.kind") {
		t.Error("an unknown kind is enabled")
	}
	pin := p.Pin()
	if !regexp.MustCompile(`^sha256:[0-9a-f]{64}$`).MatchString(pin.Digest) {
		t.Errorf("digest %q", pin.Digest)
	}
}

// The profile schema and the contract must agree on the signal and trigger
// names and the capability-disabled kinds.
func TestProfileSchemaMatchesContract(t *testing.T) {
	schema := string(ProfileSchema())
	for _, name := range append(append(Signals(), PushTriggers()...), CapabilityDisabledKinds()...) {
		if !strings.Contains(schema, `"`+name+`"`) {
			t.Errorf("the profile schema does not name %s", name)
		}
	}
	contract := string(Schema())
	for _, name := range append(Signals(), PushTriggers()...) {
		if !strings.Contains(contract, `"`+name+`"`) {
			t.Errorf("the contract does not name %s", name)
		}
	}
}

func TestProfileDigestIgnoresLayout(t *testing.T) {
	a := DefaultProfile()
	// The same document reordered and re-spaced, with 4 spelled 4.0.
	reordered := strings.NewReplacer(`"error_signature": 4,`, `"error_signature": 4.0,`, "\n", " ").Replace(string(defaultProfileText))
	b, err := ParseProfile([]byte(reordered))
	if err != nil {
		t.Fatal(err)
	}
	da, _ := a.Digest()
	db, _ := b.Digest()
	if da != db {
		t.Errorf("layout changed the digest: %s %s", da, db)
	}
	// A profile built in Go with nil lists digests as the parsed one.
	c := DefaultProfile()
	c.Dimensions, c.EnabledKinds = nil, nil
	if dc, _ := c.Digest(); dc != da {
		t.Error("nil lists changed the digest")
	}
	c.Signals["recency"] = 0.75
	if dc, _ := c.Digest(); dc == da {
		t.Error("a changed weight kept the digest")
	}
}

func TestParseProfileRefuses(t *testing.T) {
	base := string(defaultProfileText)
	tests := map[string]string{
		"not JSON":         `{`,
		"duplicate key":    strings.Replace(base, `"id": "default",`, `"id": "default", "id": "x",`, 1),
		"unknown member":   strings.Replace(base, `"id": "default",`, `"id": "default", "colour": "red",`, 1),
		"missing signal":   strings.Replace(base, `"dimension": 0.5`, `"dimension_x": 0.5`, 1),
		"negative weight":  strings.Replace(base, `"lexical": 1,`, `"lexical": -1,`, 1),
		"bad trigger":      strings.Replace(base, `"phase_start"`, `"phase_end"`, 1),
		"require unknown":  strings.Replace(base, `"require": ["phase"]`, `"require": ["vibes"]`, 1),
		"too many items":   strings.Replace(base, `"max_items": 2, "max_chars": 1500`, `"max_items": 17, "max_chars": 1500`, 1),
		"L0 kind enabled":  strings.Replace(base, `"enabled_kinds": []`, `"enabled_kinds": ["note"]`, 1),
		"dimension twice":  strings.Replace(base, `"dimensions": []`, `"dimensions": [{"name":"stack","kind":"exact"},{"name":"stack","kind":"set"}]`, 1),
		"bad revision":     strings.Replace(base, `"revision": "2"`, `"revision": "2 beta"`, 1),
		"wrong format":     strings.Replace(base, `memory-profile/v1`, `memory-profile/v2`, 1),
		"fractional count": strings.Replace(base, `"pushes": 8`, `"pushes": 8.5`, 1),
	}
	for name, text := range tests {
		if text == base {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		p, err := ParseProfile([]byte(text))
		if err == nil {
			t.Errorf("%s: accepted %+v", name, p)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || (e.Code != CodeSchemaInvalid && e.Code != CodeBadRequest) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestProfileEnablesKindsAndChecksDimensions(t *testing.T) {
	text := strings.NewReplacer(
		`"enabled_kinds": []`, `"enabled_kinds": ["workflow.phase", "workflow.start"]`,
		`"dimensions": []`, `"dimensions": [{"name":"stack","kind":"exact","values":["go","rust"]},{"name":"areas","kind":"set"}]`,
	).Replace(string(defaultProfileText))
	p, err := ParseProfile([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !p.KindEnabled("workflow.phase") || p.KindEnabled("goal.changed") || !p.KindEnabled("note") {
		t.Error("KindEnabled")
	}
	ok := map[string]DimensionValue{"stack": {Values: []string{"go"}}, "areas": {Values: []string{"ledger"}, Set: true}}
	if err := p.CheckDimensions(ok, "/payload/dimensions"); err != nil {
		t.Errorf("declared dimensions refused: %v", err)
	}
	bad := map[string]map[string]DimensionValue{
		"/payload/dimensions/team":  {"team": {Values: []string{"a"}}},
		"/payload/dimensions/stack": {"stack": {Values: []string{"go", "rust"}, Set: true}},
		"/payload/dimensions/areas": {"areas": {Values: []string{"ledger"}}},
	}
	bad2 := map[string]DimensionValue{"stack": {Values: []string{"java"}}}
	for at, dims := range bad {
		err := p.CheckDimensions(dims, "/payload/dimensions")
		if !errors.Is(err, &Error{Code: CodeSchemaInvalid}) || !strings.Contains(err.Error(), at) {
			t.Errorf("%v: %v", dims, err)
		}
	}
	if err := p.CheckDimensions(bad2, "/payload/dimensions"); err == nil {
		t.Error("an undeclared value passed")
	}
}

func TestProfileRefs(t *testing.T) {
	for s, want := range map[string]ProfileRef{
		"default":         {Name: "default"},
		"default@1":       {Name: "default", Revision: "1"},
		"team.go@2026-03": {Name: "team.go", Revision: "2026-03"},
	} {
		got, err := ParseProfileRef(s)
		if err != nil || got != want || got.String() != s {
			t.Errorf("ParseProfileRef(%q) = %+v, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "Default", "a@", "@1", "a@b@c", "a@" + strings.Repeat("1", 33)} {
		if _, err := ParseProfileRef(bad); err == nil {
			t.Errorf("ParseProfileRef(%q) accepted", bad)
		}
	}
}

// profile.md documents every member of the format.
func TestProfileDocumented(t *testing.T) {
	doc, err := os.ReadFile("profile.md")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"format", "id", "revision", "description", "signals", "push", "max_items", "max_chars",
		"min_score", "require", "dimensions", "budgets", "pushes", "push_chars", "searches", "reads", "notes", "enabled_kinds"}
	names = append(names, Signals()...)
	names = append(names, PushTriggers()...)
	for _, n := range slices.Compact(names) {
		if !strings.Contains(string(doc), "`"+n+"`") {
			t.Errorf("profile.md does not document `%s`", n)
		}
	}
}
