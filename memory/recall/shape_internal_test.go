package recall

import (
	"math/rand/v2"
	"testing"
)

// TestFindShapeIsTheFullComparison: findShape, which compares tokens by
// id and stops on a shape once it cannot reach the best so far, files
// outputs under the same shapes as comparing every token of every shape
// of their length, the last of the best on a tie.
func TestFindShapeIsTheFullComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"error", "cannot", "find", "module", "x", "y", "z", "at", "line", "failed"}
	ix := NewIndex()
	full := func(toks []string) int32 {
		best, bestSim := int32(-1), shapeSim
		for _, id := range ix.shapesByLen[len(toks)] {
			s := ix.shapes[id]
			eq := 0
			for i, tok := range s.toks {
				if tok != "" && tok == toks[i] {
					eq++
				}
			}
			if sim := float64(eq) / float64(len(toks)); sim >= bestSim {
				best, bestSim = id, sim
				if sim == 1 {
					break
				}
			}
		}
		return best
	}
	for range 3000 {
		toks := make([]string, 2+rng.IntN(7))
		for i := range toks {
			toks[i] = words[rng.IntN(len(words))]
		}
		if got, want := ix.findShape(toks), full(toks); got != want {
			t.Fatalf("findShape(%q) = %d, comparing every token gives %d", toks, got, want)
		}
		ix.addShape(toks, nil, func(string) bool { return false })
	}
	if len(ix.shapes) < 50 {
		t.Fatalf("only %d shapes: the test compares too few", len(ix.shapes))
	}
}
