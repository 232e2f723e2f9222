package tlog

import (
	"context"
	"fmt"
	"math/bits"
	"sync"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/proof"
)

// A Subtree names a perfect subtree of the log's tree: the 2^Level leaves
// [Index<<Level, (Index+1)<<Level). Level 0 subtrees are the leaves.
type Subtree struct {
	Level uint
	Index uint64
}

// A SubtreeReader reads the hashes of the perfect subtrees a log stores.
// Every range the RFC 9162 proofs need is a perfect subtree or splits into
// perfect subtrees, so a log that stores each subtree as it completes (see
// CompletedSubtrees) can prove anything about any of its sizes.
//
// ReadSubtrees returns the hash of each subtree in ids, in the same order.
// It MUST return an error wrapping ErrNotFound when any of them is not
// stored (for instance because it lies past the log's size), and otherwise
// exactly len(ids) hashes. It MUST be safe for concurrent use. A stored hash
// never changes, so an implementation MAY cache freely. It SHOULD give up
// when ctx is done.
type SubtreeReader interface {
	ReadSubtrees(ctx context.Context, ids []Subtree) ([]Hash, error)
}

// CompletedSubtrees lists the subtrees, above the leaf itself, that appending
// leaf index completes, smallest first: the ones a log stores then.
func CompletedSubtrees(index uint64) []Subtree {
	var done []Subtree
	for level := uint(1); level < 64 && (index+1)%(uint64(1)<<level) == 0; level++ {
		done = append(done, Subtree{Level: level, Index: (index+1)>>level - 1})
	}
	return done
}

// ReadRoot returns the root of the tree of the first size leaves, from the
// perfect subtrees that cover it (at most one for each bit set in size).
func ReadRoot(ctx context.Context, r SubtreeReader, size uint64) (Hash, error) {
	if size == 0 {
		return EmptyRoot, nil
	}
	if size > MaxPosition {
		return Hash{}, malformed("tree size %d is larger than 2^53-1", size)
	}
	nodes := compact.RangeNodes(0, size, nil) // largest first
	hashes, err := read(ctx, r, nodes)
	if err != nil {
		return Hash{}, err
	}
	root := hashes[len(hashes)-1]
	for i := len(hashes) - 2; i >= 0; i-- {
		root = NodeHash(hashes[i], root)
	}
	return root, nil
}

// InclusionProof returns the RFC 9162 inclusion proof (audit path) of leaf
// index in the tree of the first size leaves, from the leaf's sibling
// upward.
func InclusionProof(ctx context.Context, r SubtreeReader, index, size uint64) ([]Hash, error) {
	if index >= size || size > MaxPosition {
		return nil, malformed("leaf %d is not in a tree of %d", index, size)
	}
	nodes, err := proof.Inclusion(index, size)
	if err != nil {
		return nil, malformed("inclusion proof: %w", err)
	}
	return build(ctx, r, nodes)
}

// ConsistencyProof returns the RFC 9162 consistency proof that the tree of
// the first `first` leaves is a prefix of the tree of the first `second`. It
// is empty when first is 0 or first equals second.
func ConsistencyProof(ctx context.Context, r SubtreeReader, first, second uint64) ([]Hash, error) {
	if first > second || second > MaxPosition {
		return nil, malformed("no consistency proof from a tree of %d to one of %d", first, second)
	}
	nodes, err := proof.Consistency(first, second)
	if err != nil {
		return nil, malformed("consistency proof: %w", err)
	}
	return build(ctx, r, nodes)
}

// build reads the stored subtrees a proof needs and hashes together the
// ones that stand for an incomplete subtree at the tree's right edge.
func build(ctx context.Context, r SubtreeReader, nodes proof.Nodes) ([]Hash, error) {
	if len(nodes.IDs) == 0 {
		return []Hash{}, nil
	}
	hashes, err := read(ctx, r, nodes.IDs)
	if err != nil {
		return nil, err
	}
	raw := make([][]byte, len(hashes))
	for i := range hashes {
		raw[i] = hashes[i][:]
	}
	raw, err = nodes.Rehash(raw, func(left, right []byte) []byte {
		h := NodeHash(Hash(left), Hash(right))
		return h[:]
	})
	if err != nil {
		return nil, fmt.Errorf("building proof: %w", err)
	}
	out := make([]Hash, len(raw))
	for i, h := range raw {
		out[i] = Hash(h)
	}
	return out, nil
}

func read(ctx context.Context, r SubtreeReader, nodes []compact.NodeID) ([]Hash, error) {
	ids := make([]Subtree, len(nodes))
	for i, n := range nodes {
		ids[i] = Subtree{Level: n.Level, Index: n.Index}
	}
	hashes, err := r.ReadSubtrees(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(hashes) != len(ids) {
		return nil, fmt.Errorf("asked for %d subtree hashes, read %d", len(ids), len(hashes))
	}
	return hashes, nil
}

// A MemoryTree keeps a whole tree in memory: every perfect subtree, leaves
// included, so proofs at any size it holds are a few lookups. It serves
// tests, tools and small logs; a log on disk stores the same subtrees. It is
// safe for concurrent use.
type MemoryTree struct {
	mu sync.RWMutex
	// levels[l][i] is the hash of Subtree{l, i}; only complete subtrees
	// are kept, so len(levels[l]) is size >> l.
	levels [][]Hash
}

// NewMemoryTree returns the tree whose leaves hash to leafHashes, in order.
func NewMemoryTree(leafHashes []Hash) *MemoryTree {
	t := &MemoryTree{}
	level := append([]Hash(nil), leafHashes...)
	for len(level) > 0 {
		t.levels = append(t.levels, level)
		next := make([]Hash, len(level)/2)
		for i := range next {
			next[i] = NodeHash(level[2*i], level[2*i+1])
		}
		level = next
	}
	return t
}

// Append adds a leaf and stores the subtrees it completes.
func (t *MemoryTree) Append(leafHash Hash) {
	t.mu.Lock()
	defer t.mu.Unlock()
	node := leafHash
	for l := 0; ; l++ {
		if l == len(t.levels) {
			t.levels = append(t.levels, nil)
		}
		t.levels[l] = append(t.levels[l], node)
		n := len(t.levels[l])
		if n%2 == 1 {
			return
		}
		node = NodeHash(t.levels[l][n-2], t.levels[l][n-1])
	}
}

// Size is the number of leaves.
func (t *MemoryTree) Size() uint64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if len(t.levels) == 0 {
		return 0
	}
	return uint64(len(t.levels[0]))
}

// Root returns the root of the whole tree.
func (t *MemoryTree) Root() Hash {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var r Range
	// The range over the whole tree is the last stored subtree of each
	// level whose bit is set in the size, largest first.
	if len(t.levels) == 0 {
		return EmptyRoot
	}
	size := uint64(len(t.levels[0]))
	for l := bits.Len64(size) - 1; l >= 0; l-- {
		if size>>l&1 == 1 {
			r.hashes = append(r.hashes, t.levels[l][size>>l-1])
		}
	}
	r.size = size
	return r.Root()
}

// ReadSubtrees implements SubtreeReader.
func (t *MemoryTree) ReadSubtrees(_ context.Context, ids []Subtree) ([]Hash, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]Hash, len(ids))
	for i, id := range ids {
		if id.Level >= uint(len(t.levels)) || id.Index >= uint64(len(t.levels[id.Level])) {
			return nil, fmt.Errorf("subtree %d at level %d: %w", id.Index, id.Level, ErrNotFound)
		}
		out[i] = t.levels[id.Level][id.Index]
	}
	return out, nil
}
