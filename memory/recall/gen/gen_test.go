package gen

import (
	"reflect"
	"testing"
)

func TestGenerateIsDeterministicAndSized(t *testing.T) {
	a := Generate(Config{Seed: 7, Records: 1200})
	b := Generate(Config{Seed: 7, Records: 1200})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different corpora")
	}
	if len(a.Docs) != 1200 {
		t.Errorf("len(Docs) = %d, want 1200", len(a.Docs))
	}
	if a.RootCauses < 150 {
		t.Errorf("RootCauses = %d, want >= 150", a.RootCauses)
	}
	for _, f := range families {
		if len(f.variants) < 3 {
			t.Errorf("family %q has %d variants, want >= 3", f.title, len(f.variants))
		}
	}
	ids := make(map[string]bool)
	for _, d := range a.Docs {
		if ids[d.ID] {
			t.Fatalf("duplicate id %s", d.ID)
		}
		ids[d.ID] = true
	}
	var silent int
	for _, c := range a.Cases {
		if c.Want == "" {
			silent++
			continue
		}
		if !ids[c.Want] {
			t.Errorf("case wants %s, which is not stored", c.Want)
		}
		for _, d := range a.Docs {
			if d.ID == c.Want && c.Query.ErrorText != "" && d.ErrorText == c.Query.ErrorText {
				t.Errorf("query for %s repeats the stored text", c.Want)
			}
		}
	}
	if silent == 0 {
		t.Error("no never-stored queries")
	}
}
