package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
)

// Sealed rounds. A new bundle, and the verdicts its blind jobs produce, are
// first logged only as a commitment, which fixes priority without revealing
// anything. When the round closes each committed entry is logged in full,
// its leaf carrying "sealed": {"index", "salt"}, the index of the sealed
// entry that holds its commitment and the salt that opens it, so anyone can
// check the record was fixed before the verdicts were known.

// SealedType is the type of the entry the log signs to record a commitment:
// {type: "sealed", commitment, sig}. It names no one.
const SealedType = "sealed"

// SaltSize is the number of random bytes in a commitment's salt.
const SaltSize = 32

// ErrNotOpened is wrapped by the error Opens returns when a revealed entry
// and its salt do not open the commitment.
var ErrNotOpened = errors.New("revealed entry does not open the commitment")

// errMalformedSeal is wrapped by errors for seal fields of the wrong form.
var errMalformedSeal = errors.New("malformed seal")

// NewSalt returns a fresh salt: 32 random bytes in lowercase hex. Without it
// a commitment to a short entry could be opened by guessing entries until one
// hashed to it.
func NewSalt() (string, error) {
	var b [SaltSize]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("ledger: salt: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// ValidSalt checks that salt is 32 bytes in lowercase hex.
func ValidSalt(salt string) error {
	if len(salt) != 2*SaltSize || !isLowerHex(salt) {
		return fmt.Errorf("ledger: a salt is %d bytes in lowercase hex, %d digits: %w", SaltSize, 2*SaltSize, errMalformedSeal)
	}
	return nil
}

// SealCommitment returns the commitment to an entry: the canonical digest of
// {"entry": leafEntry, "salt": salt}. leafEntry is the entry as its revealed
// leaf will hold it, with its signatures detached (see Detach), since that
// is what anyone checking the log can see; SealSigned commits to a signed
// entry.
func SealCommitment(leafEntry map[string]any, salt string) (string, error) {
	if leafEntry == nil {
		return "", fmt.Errorf("ledger: commitment: no entry: %w", errMalformedSeal)
	}
	if err := ValidSalt(salt); err != nil {
		return "", err
	}
	d, err := canonical.CanonicalDigest(map[string]any{"entry": leafEntry, "salt": salt})
	if err != nil {
		return "", fmt.Errorf("ledger: commitment: %w", err)
	}
	return d, nil
}

// SealSigned returns the commitment to a signed entry: SealCommitment of its
// leaf form.
func SealSigned(signed map[string]any, salt string) (string, error) {
	leafEntry, err := Detach(signed)
	if err != nil {
		return "", err
	}
	return SealCommitment(leafEntry, salt)
}

// SignSealed returns the entry the log signs to record a commitment,
// {type: "sealed", commitment, sig}, signed by logKey.
func SignSealed(commitment string, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !isDigest(commitment) {
		return nil, fmt.Errorf("ledger: sealed entry: %q is not a digest: %w", commitment, errMalformedSeal)
	}
	entry := map[string]any{"type": SealedType, "commitment": commitment}
	if err := Sign(entry, logKey); err != nil {
		return nil, fmt.Errorf("ledger: sealed entry: %w", err)
	}
	return entry, nil
}

// SealReveal is what a revealed entry's leaf carries as "sealed": the log
// index of the sealed entry that holds its commitment, and the salt that
// opens it.
type SealReveal struct {
	Index int64
	Salt  string
}

// maxSafeInteger is 2^53 - 1, the largest index JSON carries exactly.
const maxSafeInteger = 1<<53 - 1

// ParseSealReveal reads a leaf's "sealed" member as parsed JSON: an object
// with exactly "index", a non-negative whole number, and "salt", 32 bytes in
// lowercase hex.
func ParseSealReveal(v any) (SealReveal, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return SealReveal{}, fmt.Errorf("ledger: \"sealed\" is not an object: %w", errMalformedSeal)
	}
	for k := range obj {
		if k != "index" && k != "salt" {
			return SealReveal{}, fmt.Errorf("ledger: \"sealed\" has a member %q; it holds only index and salt: %w", k, errMalformedSeal)
		}
	}
	index, ok := obj["index"].(float64)
	if !ok || index < 0 || index > maxSafeInteger || index != math.Trunc(index) {
		return SealReveal{}, fmt.Errorf("ledger: \"sealed\".index is not a log index, a whole number from 0: %w", errMalformedSeal)
	}
	salt, ok := obj["salt"].(string)
	if !ok {
		return SealReveal{}, fmt.Errorf("ledger: \"sealed\".salt is not a string: %w", errMalformedSeal)
	}
	if err := ValidSalt(salt); err != nil {
		return SealReveal{}, err
	}
	return SealReveal{Index: int64(index), Salt: salt}, nil
}

// Value returns r as a leaf holds it, ready for canonical JSON.
func (r SealReveal) Value() map[string]any {
	return map[string]any{"index": float64(r.Index), "salt": r.Salt}
}

// Opens checks that revealedLeaf opens the commitment sealedLeaf records:
// the canonical digest of {"entry": revealed entry, "salt": its salt} must
// equal the sealed entry's commitment. Both are log leaves, as the log holds
// them; sealedLeaf must be the leaf at the index the reveal names, which the
// caller fetched by that index. A mismatch wraps ErrNotOpened.
func Opens(revealedLeaf, sealedLeaf map[string]any) error {
	reveal, err := ParseSealReveal(revealedLeaf["sealed"])
	if err != nil {
		return err
	}
	entry, ok := revealedLeaf["entry"].(map[string]any)
	if !ok {
		return fmt.Errorf("ledger: the revealed leaf holds no entry: %w", errMalformedSeal)
	}
	sealed, ok := sealedLeaf["entry"].(map[string]any)
	if !ok || sealed["type"] != SealedType {
		return fmt.Errorf("ledger: the leaf at index %d holds no sealed entry: %w", reveal.Index, ErrNotOpened)
	}
	commitment, ok := sealed["commitment"].(string)
	if !ok {
		return fmt.Errorf("ledger: the sealed entry at index %d holds no commitment: %w", reveal.Index, errMalformedSeal)
	}
	got, err := SealCommitment(entry, reveal.Salt)
	if err != nil {
		return err
	}
	if got != commitment {
		return fmt.Errorf("ledger: the entry and its salt make %s, not the commitment %s at index %d: %w",
			got, commitment, reveal.Index, ErrNotOpened)
	}
	return nil
}

// isDigest reports whether s is "sha256:" and 64 lowercase hex digits.
func isDigest(s string) bool {
	rest, ok := strings.CutPrefix(s, "sha256:")
	return ok && len(rest) == 64 && isLowerHex(rest)
}
