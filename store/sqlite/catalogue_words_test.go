package sqlite

import (
	"database/sql/driver"
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestCatalogueWords checks catalogue_words' hand-written JSON against
// encoding/json's of the same pairs, on text of many scripts, marks,
// digits, quotes, escapes and invalid UTF-8.
func TestCatalogueWords(t *testing.T) {
	texts := [][2]any{
		{"Thermal drift", "drift in bench thermometers, drift again"},
		{`He said "no" \ <b>&amp;</b>`, "tab\there\nnew line\u2028sep \x00 nul"},
		{"Ünïcödé ﬁle Ⅻ ½", "日本語のテキスト, кириллица, العربية, e\u0301, ١٢٣"},
		{"\xff\xfe broken", []byte("bytes \xc3\x28 too")},
		{"", nil},
	}
	for _, args := range texts {
		got, err := catalogueWords(nil, []driver.Value{args[0], args[1]})
		if err != nil {
			t.Fatal(err)
		}
		weights, err := catalogueWeights([]driver.Value{args[0], args[1]})
		if err != nil {
			t.Fatal(err)
		}
		pairs := [][2]any{}
		for _, w := range slices.Sorted(maps.Keys(weights)) {
			pairs = append(pairs, [2]any{w, weights[w]})
		}
		want, _ := json.Marshal(pairs)
		if got != string(want) {
			t.Errorf("catalogue_words(%q, %q) = %s, want %s", args[0], args[1], got, want)
		}
	}
}
