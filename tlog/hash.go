package tlog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
)

// HashSize is the size of every hash in the tree.
const HashSize = sha256.Size

// A Hash is a SHA-256 hash: of a leaf, of an interior node, or a root.
type Hash [HashSize]byte

// EmptyRoot is the root of the empty tree: SHA-256 of nothing.
var EmptyRoot = Hash(sha256.Sum256(nil))

// String returns h in lowercase hex, as the protocol writes hashes.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// ParseHash reads a hash written as exactly 64 lowercase hex digits.
func ParseHash(text string) (Hash, error) {
	var h Hash
	if len(text) != 2*HashSize {
		return h, malformed("a hash is %d hex digits (32 bytes), not %d", 2*HashSize, len(text))
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return h, malformed("a hash is lowercase hex, and %.80q is not", text)
		}
	}
	hex.Decode(h[:], []byte(text))
	return h, nil
}

// ParseHashes reads a list of hashes, such as a proof, each as ParseHash does.
func ParseHashes(texts []string) ([]Hash, error) {
	hashes := make([]Hash, len(texts))
	for i, t := range texts {
		h, err := ParseHash(t)
		if err != nil {
			return nil, fmt.Errorf("hash %d: %w", i, err)
		}
		hashes[i] = h
	}
	return hashes, nil
}

// HashStrings writes hashes in lowercase hex.
func HashStrings(hashes []Hash) []string {
	out := make([]string, len(hashes))
	for i, h := range hashes {
		out[i] = h.String()
	}
	return out
}

// leafStack bounds the leaf inputs LeafHash hashes without allocating.
const leafStack = 256

// LeafHash returns the hash of a leaf whose bytes are input:
// SHA-256(0x00 ‖ input).
func LeafHash(input []byte) Hash {
	if len(input) < leafStack {
		var buf [leafStack]byte
		copy(buf[1:], input)
		return sha256.Sum256(buf[:1+len(input)])
	}
	d := sha256.New()
	d.Write([]byte{0})
	d.Write(input)
	var h Hash
	d.Sum(h[:0])
	return h
}

// NodeHash returns the hash of an interior node: SHA-256(0x01 ‖ left ‖ right).
func NodeHash(left, right Hash) Hash {
	var buf [1 + 2*HashSize]byte
	buf[0] = 1
	copy(buf[1:], left[:])
	copy(buf[1+HashSize:], right[:])
	return sha256.Sum256(buf[:])
}

// Root returns the root of the tree whose leaves hash to leafHashes, in
// order: the Merkle Tree Hash of RFC 9162, section 2.1.1.
func Root(leafHashes []Hash) Hash {
	var r Range
	for _, h := range leafHashes {
		r.Append(h)
	}
	return r.Root()
}

// A Range is a compact range over the first Size leaves of a tree: the
// roots of the perfect subtrees that cover them, largest first, one for each
// bit set in Size. It is all a reader needs to extend the tree one leaf at a
// time and compute each root, without keeping the leaves, as a monitor does.
// The zero Range is the empty tree.
type Range struct {
	size   uint64
	hashes []Hash
}

// NewRange rebuilds a range from its size and its subtree roots, largest
// first, as Hashes returns them.
func NewRange(size uint64, hashes []Hash) (*Range, error) {
	if n := bits.OnesCount64(size); len(hashes) != n {
		return nil, malformed("a range over %d leaves has %d hashes, not %d", size, n, len(hashes))
	}
	return &Range{size: size, hashes: append([]Hash(nil), hashes...)}, nil
}

// Size is the number of leaves the range covers.
func (r *Range) Size() uint64 { return r.size }

// Hashes returns the range's subtree roots, largest first.
func (r *Range) Hashes() []Hash { return append([]Hash(nil), r.hashes...) }

// Append adds the leaf whose hash is leafHash.
func (r *Range) Append(leafHash Hash) {
	node := leafHash
	// Each trailing one bit of the size is a perfect subtree as large as
	// everything to its right, so the new leaf merges with it.
	for rest := r.size; rest&1 == 1; rest >>= 1 {
		last := len(r.hashes) - 1
		node = NodeHash(r.hashes[last], node)
		r.hashes = r.hashes[:last]
	}
	r.hashes = append(r.hashes, node)
	r.size++
}

// Root returns the root of the tree the range covers.
func (r *Range) Root() Hash {
	if len(r.hashes) == 0 {
		return EmptyRoot
	}
	root := r.hashes[len(r.hashes)-1]
	for i := len(r.hashes) - 2; i >= 0; i-- {
		root = NodeHash(r.hashes[i], root)
	}
	return root
}
