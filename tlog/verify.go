package tlog

import (
	"errors"
	"math"

	"github.com/transparency-dev/merkle/proof"
	"github.com/transparency-dev/merkle/rfc6962"
)

// MaxPosition is the largest leaf index or tree size the protocol writes:
// 2^53-1, the largest integer a JSON number holds exactly.
const MaxPosition = 1<<53 - 1

// Position reads a leaf index or tree size from a JSON number: it must be a
// non-negative integer no larger than MaxPosition. Fractions (0.5),
// negatives, NaN and infinities are refused.
func Position(n float64) (uint64, error) {
	if !(n >= 0 && n <= MaxPosition) || n != math.Trunc(n) {
		return 0, malformed("%v is not a tree position: a whole number from 0 to 2^53-1", n)
	}
	return uint64(n), nil
}

// VerifyInclusion checks an RFC 9162 inclusion proof (section 2.1.3.2): that
// the leaf whose hash is leafHash is leaf index of the tree of size leaves
// whose root is root. The proof must be exactly as long as the tree's shape
// says; an index not below the size is refused.
func VerifyInclusion(index, size uint64, leafHash Hash, path []Hash, root Hash) error {
	if size > MaxPosition {
		return unverified("tree size %d is larger than 2^53-1", size)
	}
	if index >= size {
		return unverified("leaf %d is not in a tree of %d", index, size)
	}
	err := proof.VerifyInclusion(rfc6962.DefaultHasher, index, size, leafHash[:], byteSlices(path), root[:])
	return explain(err, "inclusion proof")
}

// VerifyConsistency checks an RFC 9162 consistency proof (section 2.1.4.2):
// that the tree of first leaves with root firstRoot is a prefix of the tree
// of second leaves with root secondRoot. The trivial cases take an empty
// proof and nothing else: two empty trees, whose roots must both be
// EmptyRoot; equal sizes, whose roots must be equal; and growth from the
// empty tree, whose root must be EmptyRoot.
func VerifyConsistency(first, second uint64, firstRoot, secondRoot Hash, path []Hash) error {
	switch {
	case second > MaxPosition:
		return unverified("tree size %d is larger than 2^53-1", second)
	case first > second:
		return unverified("a tree of %d leaves cannot extend one of %d", second, first)
	case second == 0:
		if len(path) != 0 || firstRoot != EmptyRoot || secondRoot != EmptyRoot {
			return unverified("two empty trees have the empty root and an empty proof")
		}
		return nil
	case first == second:
		if len(path) != 0 {
			return unverified("two trees of %d leaves have an empty consistency proof, not %d hashes", first, len(path))
		}
		if firstRoot != secondRoot {
			return unverified("two trees of %d leaves have different roots, %v and %v", first, firstRoot, secondRoot)
		}
		return nil
	case first == 0:
		if len(path) != 0 {
			return unverified("growth from the empty tree has an empty consistency proof, not %d hashes", len(path))
		}
		if firstRoot != EmptyRoot {
			return unverified("the empty tree's root is %v, not %v", EmptyRoot, firstRoot)
		}
		return nil
	}
	err := proof.VerifyConsistency(rfc6962.DefaultHasher, first, second, byteSlices(path), firstRoot[:], secondRoot[:])
	return explain(err, "consistency proof")
}

func byteSlices(hashes []Hash) [][]byte {
	out := make([][]byte, len(hashes))
	for i := range hashes {
		out[i] = hashes[i][:]
	}
	return out
}

// explain turns the merkle package's errors into ones a person can read.
func explain(err error, what string) error {
	if err == nil {
		return nil
	}
	var mismatch proof.RootMismatchError
	if errors.As(err, &mismatch) {
		return unverified("the %s leads to root %x, not %x", what, mismatch.CalculatedRoot, mismatch.ExpectedRoot)
	}
	return unverified("%s: %w", what, err)
}
