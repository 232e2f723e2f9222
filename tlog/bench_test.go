package tlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/tlog"
)

// The benchmarks do the work of the rows of testdata/bench/README.md, on
// its inputs, and check their output against expected-outputs.json before
// they time anything, so a speed is never reported for other work.

type benchInputs struct {
	leaves [][]byte    // the leaf inputs of leaves-100k.txt
	hashes []tlog.Hash // their leaf hashes
	tree   *tlog.MemoryTree
	plan   struct {
		Size        uint64    `json:"size"`
		Indexes     []uint64  `json:"inclusion_indexes"`
		Consistency [2]uint64 `json:"consistency"`
	}
	want struct {
		Root              string   `json:"merkle_root_100k"`
		ProofLengths      []int    `json:"inclusion_proof_lengths"`
		Proof99999        []string `json:"inclusion_proof_99999"`
		ConsistencyFirst  string   `json:"consistency_first_root"`
		ConsistencyProofs []string `json:"consistency_proof"`
	}
}

var (
	benchOnce sync.Once
	bench     *benchInputs
)

func loadBench(b *testing.B) *benchInputs {
	benchOnce.Do(func() {
		dir := testvectors.BenchDir()
		in := &benchInputs{}
		text := testvectors.Read(b, dir, "inputs", "leaves-100k.txt")
		in.leaves = bytes.Split(bytes.TrimSuffix(text, []byte("\n")), []byte("\n"))
		if err := json.Unmarshal(testvectors.Read(b, dir, "inputs", "merkle.json"), &in.plan); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal(testvectors.Read(b, dir, "expected-outputs.json"), &in.want); err != nil {
			b.Fatal(err)
		}
		if uint64(len(in.leaves)) != in.plan.Size {
			b.Fatalf("%d leaves, merkle.json says %d", len(in.leaves), in.plan.Size)
		}
		in.hashes = make([]tlog.Hash, len(in.leaves))
		for i, l := range in.leaves {
			in.hashes[i] = tlog.LeafHash(l)
		}
		if got := tlog.Root(in.hashes).String(); got != in.want.Root {
			b.Fatalf("root of the 100k leaves %s, want %s", got, in.want.Root)
		}
		in.tree = tlog.NewMemoryTree(in.hashes)
		bench = in
	})
	if bench == nil {
		b.Fatal("bench inputs did not load")
	}
	return bench
}

func BenchmarkLeafHash100k(b *testing.B) {
	in := loadBench(b)
	out := make([]tlog.Hash, len(in.leaves))
	for b.Loop() {
		for i, l := range in.leaves {
			out[i] = tlog.LeafHash(l)
		}
	}
	if !slices.Equal(out, in.hashes) {
		b.Fatal("leaf hashes differ")
	}
}

func BenchmarkRoot100k(b *testing.B) {
	in := loadBench(b)
	var root tlog.Hash
	for b.Loop() {
		root = tlog.Root(in.hashes)
	}
	if root.String() != in.want.Root {
		b.Fatalf("root %v", root)
	}
}

func BenchmarkLeafHashAndRoot100k(b *testing.B) {
	in := loadBench(b)
	hashes := make([]tlog.Hash, len(in.leaves))
	var root tlog.Hash
	for b.Loop() {
		for i, l := range in.leaves {
			hashes[i] = tlog.LeafHash(l)
		}
		root = tlog.Root(hashes)
	}
	if root.String() != in.want.Root {
		b.Fatalf("root %v", root)
	}
}

// BenchmarkRangeRoot100k is the reference's "extendRange x 100k +
// rangeRoot": a compact range grown one leaf at a time.
func BenchmarkRangeRoot100k(b *testing.B) {
	in := loadBench(b)
	var root tlog.Hash
	for b.Loop() {
		var r tlog.Range
		for _, h := range in.hashes {
			r.Append(h)
		}
		root = r.Root()
	}
	if root.String() != in.want.Root {
		b.Fatalf("root %v", root)
	}
}

// inclusionProofs checks the proofs at size 100,000 against the expected
// outputs and returns them.
func inclusionProofs(b *testing.B, in *benchInputs) [][]tlog.Hash {
	ctx := context.Background()
	proofs := make([][]tlog.Hash, len(in.plan.Indexes))
	for i, index := range in.plan.Indexes {
		p, err := tlog.InclusionProof(ctx, in.tree, index, in.plan.Size)
		if err != nil {
			b.Fatal(err)
		}
		if len(p) != in.want.ProofLengths[i] {
			b.Fatalf("proof of %d has %d hashes, want %d", index, len(p), in.want.ProofLengths[i])
		}
		if index == 99999 && !slices.Equal(tlog.HashStrings(p), in.want.Proof99999) {
			b.Fatalf("proof of 99999 differs")
		}
		proofs[i] = p
	}
	return proofs
}

func BenchmarkInclusionProof(b *testing.B) {
	in := loadBench(b)
	inclusionProofs(b, in)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := tlog.InclusionProof(ctx, in.tree, in.plan.Indexes[i%len(in.plan.Indexes)], in.plan.Size); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkInclusionProofFromLeaves is the reference's
// "inclusionProof(memorySource, 77777, 100000)": no stored subtrees, so
// every one is hashed from the leaf hashes first.
func BenchmarkInclusionProofFromLeaves(b *testing.B) {
	in := loadBench(b)
	want := inclusionProofs(b, in)[slices.Index(in.plan.Indexes, 77777)]
	ctx := context.Background()
	var p []tlog.Hash
	for b.Loop() {
		var err error
		if p, err = tlog.InclusionProof(ctx, tlog.NewMemoryTree(in.hashes), 77777, in.plan.Size); err != nil {
			b.Fatal(err)
		}
	}
	if !slices.Equal(p, want) {
		b.Fatal("proof of 77777 differs")
	}
}

func BenchmarkVerifyInclusion(b *testing.B) {
	in := loadBench(b)
	proofs := inclusionProofs(b, in)
	root := in.tree.Root()
	i := 0
	for b.Loop() {
		k := i % len(proofs)
		index := in.plan.Indexes[k]
		if err := tlog.VerifyInclusion(index, in.plan.Size, in.hashes[index], proofs[k], root); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func consistencyProof(b *testing.B, in *benchInputs) (tlog.Hash, []tlog.Hash) {
	ctx := context.Background()
	first, second := in.plan.Consistency[0], in.plan.Consistency[1]
	r1, err := tlog.ReadRoot(ctx, in.tree, first)
	if err != nil || r1.String() != in.want.ConsistencyFirst {
		b.Fatalf("root at %d: %v, %v", first, r1, err)
	}
	p, err := tlog.ConsistencyProof(ctx, in.tree, first, second)
	if err != nil || !slices.Equal(tlog.HashStrings(p), in.want.ConsistencyProofs) {
		b.Fatalf("consistency proof %d to %d differs (%v)", first, second, err)
	}
	return r1, p
}

func BenchmarkConsistencyProof(b *testing.B) {
	in := loadBench(b)
	consistencyProof(b, in)
	ctx := context.Background()
	for b.Loop() {
		if _, err := tlog.ConsistencyProof(ctx, in.tree, in.plan.Consistency[0], in.plan.Consistency[1]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyConsistency(b *testing.B) {
	in := loadBench(b)
	r1, p := consistencyProof(b, in)
	r2 := in.tree.Root()
	for b.Loop() {
		if err := tlog.VerifyConsistency(in.plan.Consistency[0], in.plan.Consistency[1], r1, r2, p); err != nil {
			b.Fatal(err)
		}
	}
}
