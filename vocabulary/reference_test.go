package vocabulary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestReferenceFamilies holds the family list and CanonicalFamily to
// vectors made by running the reference library's canonicalFamily on
// seeded names (testdata/README.md says how). The instructions list more
// families than the reference, so every reference family must be ours,
// with its maker and models, in the reference's order, and not the other
// way round.
func TestReferenceFamilies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "reference-families.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Families []struct {
			Family string `json:"family"`
			Maker  string `json:"maker"`
			Models string `json:"models"`
		} `json:"families"`
		Canonical []struct {
			Name   string `json:"name"`
			Family string `json:"family"`
		} `json:"canonical"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Families) == 0 || len(v.Canonical) == 0 {
		t.Fatal("no vectors")
	}
	for i, f := range v.Families {
		if i >= len(ModelFamilies) || ModelFamilies[i] != (Family{f.Family, f.Maker, f.Models}) {
			t.Errorf("family %d: the reference has %+v, we have %+v", i, f, ModelFamilies[min(i, len(ModelFamilies)-1)])
		}
	}
	for _, c := range v.Canonical {
		if got := CanonicalFamily(c.Name); got != c.Family {
			t.Errorf("CanonicalFamily(%q) = %q, the reference's canonicalFamily gives %q", c.Name, got, c.Family)
		}
	}
}
