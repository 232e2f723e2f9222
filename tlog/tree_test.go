package tlog_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agora-node/agora/tlog"
)

// leafHashes returns the hashes of n distinct leaves.
func leafHashes(n int) []tlog.Hash {
	hashes := make([]tlog.Hash, n)
	for i := range hashes {
		hashes[i] = tlog.LeafHash(fmt.Appendf(nil, "leaf %d", i))
	}
	return hashes
}

// rootOf is the RFC 9162 definition, recursively, to check the rest against.
func rootOf(leaves []tlog.Hash) tlog.Hash {
	switch len(leaves) {
	case 0:
		return tlog.EmptyRoot
	case 1:
		return leaves[0]
	}
	k := 1
	for k*2 < len(leaves) {
		k *= 2
	}
	return tlog.NodeHash(rootOf(leaves[:k]), rootOf(leaves[k:]))
}

func TestRootsAgree(t *testing.T) {
	ctx := context.Background()
	hashes := leafHashes(130)
	grown := tlog.NewMemoryTree(nil)
	var r tlog.Range
	for n := 0; n <= len(hashes); n++ {
		want := rootOf(hashes[:n])
		if got := tlog.Root(hashes[:n]); got != want {
			t.Fatalf("Root of %d: %v, want %v", n, got, want)
		}
		if got := r.Root(); got != want || r.Size() != uint64(n) {
			t.Fatalf("Range of %d: %v, want %v", n, got, want)
		}
		if got := grown.Root(); got != want || grown.Size() != uint64(n) {
			t.Fatalf("MemoryTree grown to %d: %v, want %v", n, got, want)
		}
		built := tlog.NewMemoryTree(hashes[:n])
		if got := built.Root(); got != want {
			t.Fatalf("NewMemoryTree of %d: %v, want %v", n, got, want)
		}
		if got, err := tlog.ReadRoot(ctx, grown, uint64(n)); err != nil || got != want {
			t.Fatalf("ReadRoot at %d: %v, %v; want %v", n, got, err, want)
		}
		// Every earlier size reads from the grown tree's stored subtrees.
		for m := 0; m < n; m += 7 {
			if got, err := tlog.ReadRoot(ctx, grown, uint64(m)); err != nil || got != rootOf(hashes[:m]) {
				t.Fatalf("ReadRoot at %d of %d: %v, %v", m, n, got, err)
			}
		}
		rebuilt, err := tlog.NewRange(r.Size(), r.Hashes())
		if err != nil || rebuilt.Root() != want {
			t.Fatalf("NewRange at %d: %v", n, err)
		}
		if n < len(hashes) {
			r.Append(hashes[n])
			grown.Append(hashes[n])
		}
	}
	if _, err := tlog.NewRange(5, make([]tlog.Hash, 3)); !errors.Is(err, tlog.ErrMalformed) {
		t.Errorf("a range of 5 leaves with 3 hashes: %v", err)
	}
}

func TestProofsVerify(t *testing.T) {
	ctx := context.Background()
	hashes := leafHashes(70)
	tree := tlog.NewMemoryTree(hashes)
	for size := uint64(1); size <= 70; size++ {
		root := rootOf(hashes[:size])
		for index := uint64(0); index < size; index++ {
			proof, err := tlog.InclusionProof(ctx, tree, index, size)
			if err != nil {
				t.Fatalf("inclusion %d of %d: %v", index, size, err)
			}
			if err := tlog.VerifyInclusion(index, size, hashes[index], proof, root); err != nil {
				t.Fatalf("inclusion %d of %d: %v", index, size, err)
			}
			if index > 0 {
				if err := tlog.VerifyInclusion(index-1, size, hashes[index], proof, root); err == nil {
					t.Fatalf("inclusion %d of %d verified at %d", index, size, index-1)
				}
			}
		}
		for first := uint64(0); first <= size; first++ {
			proof, err := tlog.ConsistencyProof(ctx, tree, first, size)
			if err != nil {
				t.Fatalf("consistency %d to %d: %v", first, size, err)
			}
			firstRoot := rootOf(hashes[:first])
			if err := tlog.VerifyConsistency(first, size, firstRoot, root, proof); err != nil {
				t.Fatalf("consistency %d to %d: %v", first, size, err)
			}
			if first > 0 && first < size {
				if err := tlog.VerifyConsistency(first, size, root, firstRoot, proof); err == nil {
					t.Fatalf("consistency %d to %d verified with its roots swapped", first, size)
				}
				other := rootOf(hashes[1 : first+1])
				if err := tlog.VerifyConsistency(first, size, other, root, proof); err == nil {
					t.Fatalf("consistency %d to %d verified another first tree", first, size)
				}
			}
		}
	}
}

func TestProofRequests(t *testing.T) {
	ctx := context.Background()
	tree := tlog.NewMemoryTree(leafHashes(10))
	for _, c := range []struct {
		name string
		err  error
		fn   func() error
	}{
		{"index equal to the size", tlog.ErrMalformed, func() error { _, err := tlog.InclusionProof(ctx, tree, 5, 5); return err }},
		{"a size past the tree", tlog.ErrNotFound, func() error { _, err := tlog.InclusionProof(ctx, tree, 3, 11); return err }},
		{"a shrinking tree", tlog.ErrMalformed, func() error { _, err := tlog.ConsistencyProof(ctx, tree, 6, 5); return err }},
		{"growth past the tree", tlog.ErrNotFound, func() error { _, err := tlog.ConsistencyProof(ctx, tree, 3, 12); return err }},
		{"a root past the tree", tlog.ErrNotFound, func() error { _, err := tlog.ReadRoot(ctx, tree, 11); return err }},
		{"a size past 2^53", tlog.ErrMalformed, func() error { _, err := tlog.ReadRoot(ctx, tree, 1<<53); return err }},
	} {
		if err := c.fn(); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
	for _, sizes := range [][2]uint64{{0, 0}, {0, 7}, {7, 7}} {
		proof, err := tlog.ConsistencyProof(ctx, tree, sizes[0], sizes[1])
		if err != nil || proof == nil || len(proof) != 0 {
			t.Errorf("consistency %d to %d: %v, %v; want an empty proof", sizes[0], sizes[1], proof, err)
		}
	}
}

func TestCompletedSubtrees(t *testing.T) {
	// Appending leaf 11 (the 12th) completes [8,12) at level 2 and [10,12)
	// at level 1; leaf 15 completes a subtree at every level up to 4.
	if got, want := tlog.CompletedSubtrees(11), []tlog.Subtree{{1, 5}, {2, 2}}; !slices.Equal(got, want) {
		t.Errorf("leaf 11 completes %v, want %v", got, want)
	}
	if got, want := tlog.CompletedSubtrees(15), []tlog.Subtree{{1, 7}, {2, 3}, {3, 1}, {4, 0}}; !slices.Equal(got, want) {
		t.Errorf("leaf 15 completes %v, want %v", got, want)
	}
	if got := tlog.CompletedSubtrees(12); len(got) != 0 {
		t.Errorf("leaf 12 completes %v", got)
	}
	// A reader that stores only what CompletedSubtrees names, plus the
	// leaves, serves every proof.
	hashes := leafHashes(45)
	stored := map[tlog.Subtree]tlog.Hash{}
	tree := tlog.NewMemoryTree(nil)
	for i, h := range hashes {
		tree.Append(h)
		stored[tlog.Subtree{Level: 0, Index: uint64(i)}] = h
		for _, s := range tlog.CompletedSubtrees(uint64(i)) {
			got, err := tree.ReadSubtrees(context.Background(), []tlog.Subtree{s})
			if err != nil {
				t.Fatal(err)
			}
			stored[s] = got[0]
		}
	}
	reader := mapReader(stored)
	ctx := context.Background()
	for size := uint64(1); size <= 45; size++ {
		for index := range size {
			want, _ := tlog.InclusionProof(ctx, tree, index, size)
			got, err := tlog.InclusionProof(ctx, reader, index, size)
			if err != nil || !slices.Equal(got, want) {
				t.Fatalf("inclusion %d of %d from completed subtrees: %v", index, size, err)
			}
		}
	}
}

type mapReader map[tlog.Subtree]tlog.Hash

func (m mapReader) ReadSubtrees(_ context.Context, ids []tlog.Subtree) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(ids))
	for i, id := range ids {
		h, ok := m[id]
		if !ok {
			return nil, fmt.Errorf("%v: %w", id, tlog.ErrNotFound)
		}
		out[i] = h
	}
	return out, nil
}

func TestVerifyRefuses(t *testing.T) {
	hashes := leafHashes(8)
	root := rootOf(hashes)
	other := rootOf(hashes[:3])
	ctx := context.Background()
	tree := tlog.NewMemoryTree(hashes)
	proof, _ := tlog.InclusionProof(ctx, tree, 3, 8)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"index past 2^53", tlog.VerifyInclusion(1<<53, 1<<53+1, hashes[0], proof, root)},
		{"index equal to size", tlog.VerifyInclusion(8, 8, hashes[3], proof, root)},
		{"truncated", tlog.VerifyInclusion(3, 8, hashes[3], proof[:2], root)},
		{"extended", tlog.VerifyInclusion(3, 8, hashes[3], append(slices.Clone(proof), root), root)},
		{"no proof for a tree of one leaf", tlog.VerifyInclusion(0, 1, hashes[0], []tlog.Hash{root}, hashes[0])},
		{"size past 2^53", tlog.VerifyConsistency(1, 1<<53, other, root, nil)},
		{"empty trees with another root", tlog.VerifyConsistency(0, 0, tlog.EmptyRoot, root, nil)},
		{"empty trees with a proof", tlog.VerifyConsistency(0, 0, tlog.EmptyRoot, tlog.EmptyRoot, []tlog.Hash{root})},
		{"equal sizes with a proof", tlog.VerifyConsistency(8, 8, root, root, []tlog.Hash{root})},
		{"growth from the empty tree with another root", tlog.VerifyConsistency(0, 8, other, root, nil)},
		{"growth from the empty tree with a proof", tlog.VerifyConsistency(0, 8, tlog.EmptyRoot, root, []tlog.Hash{root})},
		{"shrinking", tlog.VerifyConsistency(8, 3, root, other, nil)},
		{"empty proof for growth", tlog.VerifyConsistency(3, 8, other, root, nil)},
	} {
		if !errors.Is(c.err, tlog.ErrVerification) {
			t.Errorf("%s: %v, want a failed verification", c.name, c.err)
		}
	}
	// The trivial cases accepted.
	for _, err := range []error{
		tlog.VerifyInclusion(0, 1, hashes[0], nil, hashes[0]),
		tlog.VerifyConsistency(0, 0, tlog.EmptyRoot, tlog.EmptyRoot, nil),
		tlog.VerifyConsistency(8, 8, root, root, nil),
		tlog.VerifyConsistency(0, 8, tlog.EmptyRoot, root, nil),
	} {
		if err != nil {
			t.Errorf("a trivial case refused: %v", err)
		}
	}
}

func TestPositionAndHash(t *testing.T) {
	for _, n := range []float64{0, 1, 4095, tlog.MaxPosition} {
		if p, err := tlog.Position(n); err != nil || float64(p) != n {
			t.Errorf("Position(%v) = %d, %v", n, p, err)
		}
	}
	var zero float64
	for _, n := range []float64{-1, 0.5, 1.5, tlog.MaxPosition + 1, 1e300, zero / zero} {
		if _, err := tlog.Position(n); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("Position(%v): %v", n, err)
		}
	}
	h := tlog.LeafHash(nil)
	if got, err := tlog.ParseHash(h.String()); err != nil || got != h {
		t.Errorf("ParseHash(%v) = %v, %v", h, got, err)
	}
	for _, s := range []string{"", "00", h.String()[:62], h.String() + "00", "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855", "zz" + h.String()[2:]} {
		if _, err := tlog.ParseHash(s); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("ParseHash(%q): %v", s, err)
		}
	}
	// Leaves of every length around the stack buffer hash alike.
	for _, n := range []int{0, 1, 254, 255, 256, 1000} {
		input := make([]byte, n)
		if got, want := tlog.LeafHash(input), tlog.Hash(sha256.Sum256(append([]byte{0}, input...))); got != want {
			t.Errorf("length %d", n)
		}
	}
}

// TestMemoryTreeConcurrent appends while others read proofs at the sizes
// already appended; run with -race.
func TestMemoryTreeConcurrent(t *testing.T) {
	hashes := leafHashes(200)
	tree := tlog.NewMemoryTree(hashes[:1])
	ctx := context.Background()
	done := make(chan error)
	for range 2 {
		go func() {
			for range 200 {
				size := tree.Size()
				root, err := tlog.ReadRoot(ctx, tree, size)
				if err == nil {
					var proof []tlog.Hash
					if proof, err = tlog.InclusionProof(ctx, tree, size-1, size); err == nil {
						err = tlog.VerifyInclusion(size-1, size, hashes[size-1], proof, root)
					}
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for _, h := range hashes[1:] {
		tree.Append(h)
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
