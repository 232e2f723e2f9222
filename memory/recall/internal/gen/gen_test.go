package gen

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
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

func TestFillerKeysTakeTheFamilyShape(t *testing.T) {
	g := &generator{rng: rand.New(rand.NewPCG(3, 4))}
	g.vocab = makeVocab(rand.New(rand.NewPCG(3, 5)), 200, nil)
	g.zipf = rand.NewZipf(rand.New(rand.NewPCG(3, 6)), 1.1, 8, uint64(len(g.vocab)-1))
	g.keyVocab = makeVocab(rand.New(rand.NewPCG(3, 7)), 200, g.vocab)
	g.keyZipf = rand.NewZipf(rand.New(rand.NewPCG(3, 8)), 1.1, 8, uint64(len(g.keyVocab)-1))
	cases := []struct {
		keys []string
		ok   func(string) bool
	}{
		{[]string{"3000", "5432", "8080"}, func(k string) bool { return len(k) == 4 && strings.Trim(k, "0123456789") == "" }},
		{[]string{"B7B3B788A8D3785C", "871920D1991BC93C"}, func(k string) bool { return len(k) == 16 && strings.Trim(k, "0123456789ABCDEF") == "" }},
		{[]string{"openssl/ssl.h", "zlib.h", "Python.h"}, func(k string) bool { return strings.HasSuffix(k, ".h") }},
		{[]string{"TestIntegrationPostgres", "TestWatchReload"}, func(k string) bool { return strings.HasPrefix(k, "Test") && len(k) > 6 }},
		{[]string{"github.com/spf13/cobra", "github.com/lib/pq"}, func(k string) bool { return strings.HasPrefix(k, "github.com/") }},
	}
	for _, c := range cases {
		f := &family{keys: c.keys}
		for range 20 {
			k, _ := g.fillerKey(f)
			if !c.ok(k) || slices.Contains(c.keys, k) {
				t.Errorf("filler key %q for keys %q has the wrong shape or is a real key", k, c.keys)
			}
		}
	}
}

// A never-stored query's random identifiers (namespaces, test names,
// branches) must not be, by construction, the names stored records are
// about: the made-up keys of fillers come from words noise never uses.
func TestFillerKeysAreNotNoiseWords(t *testing.T) {
	g := newGenerator(2, time.Time{})
	noise := make(map[string]bool, len(g.vocab))
	for _, w := range g.vocab {
		noise[w] = true
	}
	for _, w := range g.keyVocab {
		if noise[w] {
			t.Fatalf("key word %q is also a noise word", w)
		}
	}
	fam := -1
	for i, f := range families {
		if slices.Contains(f.keys, "pods") {
			fam = i
		}
	}
	if fam < 0 {
		t.Fatal("no family with the key pods")
	}
	for range 200 {
		k, _ := g.fillerKey(&families[fam])
		if noise[k] {
			t.Fatalf("filler key %q is a noise word", k)
		}
	}
	// And the other way round: every noise word a query draws can be
	// told from the made-up keys.
	keys := make(map[string]bool, len(g.keyVocab))
	for _, w := range g.keyVocab {
		keys[w] = true
	}
	for range 1000 {
		if w := g.word(); keys[w] {
			t.Fatalf("noise word %q is a key word", w)
		}
	}
}
