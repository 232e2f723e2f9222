package agora_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// logVectorFile is log-vectors.json. Positions are float64 because the
// refusals include fractional ones (0.5, 1.5).
type logVectorFile struct {
	EmptyRoot string   `json:"empty_root"`
	Leaves    []string `json:"leaves"`
	Trees     []struct {
		Size float64 `json:"size"`
		Root string  `json:"root"`
	} `json:"trees"`
	Inclusion []struct {
		Index float64  `json:"index"`
		Size  float64  `json:"size"`
		Proof []string `json:"proof"`
	} `json:"inclusion"`
	Consistency []struct {
		First  float64  `json:"first"`
		Second float64  `json:"second"`
		Proof  []string `json:"proof"`
	} `json:"consistency"`
	LeafExamples     []json.RawMessage `json:"leaf_examples"`
	InvalidInclusion []inclusionCase   `json:"invalid_inclusion"`
	InvalidConsist   []consistencyCase `json:"invalid_consistency"`
}

type inclusionCase struct {
	Name     string   `json:"name"`
	Index    float64  `json:"index"`
	Size     float64  `json:"size"`
	LeafHash string   `json:"leaf_hash"`
	Proof    []string `json:"proof"`
	Root     string   `json:"root"`
}

type consistencyCase struct {
	Name       string   `json:"name"`
	First      float64  `json:"first"`
	Second     float64  `json:"second"`
	FirstRoot  string   `json:"first_root"`
	SecondRoot string   `json:"second_root"`
	Proof      []string `json:"proof"`
}

// verify reads a case as a verifier reads JSON, then verifies it; any
// refusal on the way is an error.
func (c inclusionCase) verify() error {
	index, err := tlog.Position(c.Index)
	if err != nil {
		return err
	}
	size, err := tlog.Position(c.Size)
	if err != nil {
		return err
	}
	leaf, err := tlog.ParseHash(c.LeafHash)
	if err != nil {
		return err
	}
	root, err := tlog.ParseHash(c.Root)
	if err != nil {
		return err
	}
	proof, err := tlog.ParseHashes(c.Proof)
	if err != nil {
		return err
	}
	return tlog.VerifyInclusion(index, size, leaf, proof, root)
}

func (c consistencyCase) verify() error {
	first, err := tlog.Position(c.First)
	if err != nil {
		return err
	}
	second, err := tlog.Position(c.Second)
	if err != nil {
		return err
	}
	firstRoot, err := tlog.ParseHash(c.FirstRoot)
	if err != nil {
		return err
	}
	secondRoot, err := tlog.ParseHash(c.SecondRoot)
	if err != nil {
		return err
	}
	proof, err := tlog.ParseHashes(c.Proof)
	if err != nil {
		return err
	}
	return tlog.VerifyConsistency(first, second, firstRoot, secondRoot, proof)
}

func logVectors(t *testing.T, data []byte) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	keys := slices.Sorted(maps.Keys(top))
	want := []string{"consistency", "description", "empty_root", "inclusion", "invalid_consistency",
		"invalid_inclusion", "leaf_examples", "leaves", "trees"}
	if !slices.Equal(keys, want) {
		t.Fatalf("top-level keys %v, want %v: a new kind of case needs a test", keys, want)
	}
	var v logVectorFile
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	// The counts the suite's README states; a file that changes them is
	// noticed here rather than half run.
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"leaves", len(v.Leaves), 32},
		{"trees", len(v.Trees), 32},
		{"inclusion", len(v.Inclusion), 528},
		{"consistency", len(v.Consistency), 528},
		{"leaf_examples", len(v.LeafExamples), 2},
		{"invalid_inclusion", len(v.InvalidInclusion), 9},
		{"invalid_consistency", len(v.InvalidConsist), 8},
	} {
		if c.got != c.want {
			t.Fatalf("%s: %d cases, the README says %d", c.what, c.got, c.want)
		}
	}

	if got := tlog.EmptyRoot.String(); got != v.EmptyRoot {
		t.Errorf("empty root %s, want %s", got, v.EmptyRoot)
	}

	hashes := make([]tlog.Hash, len(v.Leaves))
	for i, l := range v.Leaves {
		input, err := hex.DecodeString(l)
		if err != nil {
			t.Fatalf("leaf %d: %v", i, err)
		}
		hashes[i] = tlog.LeafHash(input)
	}
	stored := tlog.NewMemoryTree(hashes)
	ctx := context.Background()

	roots := map[uint64]tlog.Hash{0: tlog.EmptyRoot}
	t.Run("trees", func(t *testing.T) {
		for _, tree := range v.Trees {
			size := uint64(tree.Size)
			want, err := tlog.ParseHash(tree.Root)
			if err != nil {
				t.Fatalf("size %d: %v", size, err)
			}
			roots[size] = want
			if got := tlog.Root(hashes[:size]); got != want {
				t.Errorf("size %d: root %v, want %v", size, got, want)
			}
			if got, err := tlog.ReadRoot(ctx, stored, size); err != nil || got != want {
				t.Errorf("size %d: root from stored subtrees %v (%v), want %v", size, got, err, want)
			}
		}
	})
	if len(roots) != 33 {
		t.Fatalf("trees give roots for %d sizes, want 0 to 32", len(roots))
	}

	t.Run("inclusion", func(t *testing.T) {
		for _, c := range v.Inclusion {
			index, size := uint64(c.Index), uint64(c.Size)
			got, err := tlog.InclusionProof(ctx, stored, index, size)
			if err != nil {
				t.Errorf("leaf %d of %d: %v", index, size, err)
				continue
			}
			if !slices.Equal(tlog.HashStrings(got), c.Proof) {
				t.Errorf("leaf %d of %d: proof %v, want %v", index, size, tlog.HashStrings(got), c.Proof)
			}
			proof, err := tlog.ParseHashes(c.Proof)
			if err != nil {
				t.Fatal(err)
			}
			if err := tlog.VerifyInclusion(index, size, hashes[index], proof, roots[size]); err != nil {
				t.Errorf("leaf %d of %d: the vector's proof does not verify: %v", index, size, err)
			}
		}
	})

	t.Run("consistency", func(t *testing.T) {
		for _, c := range v.Consistency {
			first, second := uint64(c.First), uint64(c.Second)
			got, err := tlog.ConsistencyProof(ctx, stored, first, second)
			if err != nil {
				t.Errorf("%d to %d: %v", first, second, err)
				continue
			}
			if !slices.Equal(tlog.HashStrings(got), c.Proof) {
				t.Errorf("%d to %d: proof %v, want %v", first, second, tlog.HashStrings(got), c.Proof)
			}
			proof, err := tlog.ParseHashes(c.Proof)
			if err != nil {
				t.Fatal(err)
			}
			if err := tlog.VerifyConsistency(first, second, roots[first], roots[second], proof); err != nil {
				t.Errorf("%d to %d: the vector's proof does not verify: %v", first, second, err)
			}
		}
	})

	t.Run("leaf_examples", func(t *testing.T) {
		for i, raw := range v.LeafExamples {
			parsed, err := canonical.Parse(raw)
			if err != nil {
				t.Fatalf("example %d: %v", i, err)
			}
			example := parsed.(map[string]any)
			leaf, ok := example["leaf"].(map[string]any)
			if !ok {
				t.Fatalf("example %d has no leaf object", i)
			}
			b, err := tlog.LeafBytes(leaf)
			if err != nil {
				t.Fatalf("example %d: %v", i, err)
			}
			if got := tlog.LeafHash(b).String(); got != example["leaf_hash"] {
				t.Errorf("example %d: leaf hash %s, want %s", i, got, example["leaf_hash"])
			}
			// The leaf's entry is the signed entry, its signatures detached.
			signed, ok := example["signed_entry"].(map[string]any)
			entry, _ := leaf["entry"].(map[string]any)
			if !ok || entry == nil {
				t.Fatalf("example %d has no signed_entry or leaf entry", i)
			}
			detached, err := protocol.Detach(signed)
			if err != nil {
				t.Fatalf("example %d: %v", i, err)
			}
			got, _ := canonical.Marshal(detached)
			want, _ := canonical.Marshal(entry)
			if string(got) != string(want) {
				t.Errorf("example %d: detached entry %s, want %s", i, got, want)
			}
		}
	})

	t.Run("invalid_inclusion", func(t *testing.T) {
		for _, c := range v.InvalidInclusion {
			if err := c.verify(); err == nil {
				t.Errorf("%s: verified", c.Name)
			} else {
				t.Logf("%s: refused: %v", c.Name, err)
			}
		}
	})

	t.Run("invalid_consistency", func(t *testing.T) {
		for _, c := range v.InvalidConsist {
			if err := c.verify(); err == nil {
				t.Errorf("%s: verified", c.Name)
			} else {
				t.Logf("%s: refused: %v", c.Name, err)
			}
		}
	})
}
