package protocol

import (
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/agora-node/agora/canonical"
)

// No log assigns the IDs in this file: every log, monitor and reader derives
// the same ID from the same key text, so an agent knows its own ID before it
// registers anywhere, and two logs agree on who is who.

// Prefixes of the IDs derived from keys.
const (
	OperatorIDPrefix = "op:"
	ObserverIDPrefix = "obs:"
	LogIDPrefix      = "log:"
	// PasskeyPrefix starts a volunteer's passkey: a P-256 public key.
	PasskeyPrefix = "p256:"
)

// ErrInvalidID is wrapped by every error for an ID that is malformed or is
// not the one its key makes.
var ErrInvalidID = errors.New("invalid ID")

// ErrInvalidPasskey is wrapped by errors for a passkey text that is not
// "p256:" and a compressed point on the P-256 curve.
var ErrInvalidPasskey = errors.New("invalid passkey")

// sha256Hex is the lowercase hex SHA-256 of text's UTF-8 bytes: how every ID
// here hashes a key "as written", never its decoded bytes.
func sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// KeyDigest returns the digest of a public key as written: "sha256:" and the
// hex SHA-256 of the key's text. It is how a manifest, a task or the node's
// operator record names a key.
func KeyDigest(publicKey string) string {
	return canonical.Digest([]byte(publicKey))
}

// OperatorID returns the ID of the operator whose first registered key is
// firstKey: "op:" and the hex SHA-256 of the key's text, i.e. its key digest
// without "sha256:". Rotating or recovering the key keeps the ID, so an
// operator's current key need not make its ID.
func OperatorID(firstKey string) string {
	return OperatorIDPrefix + sha256Hex(firstKey)
}

// IsOperatorID reports whether id has an operator ID's form, "op:" and 64
// lowercase hex digits, whatever key it belongs to.
func IsOperatorID(id string) bool {
	return isHexID(id, OperatorIDPrefix)
}

// ValidOperatorID checks that id is the operator ID firstKey makes. The form
// is checked first, so an error says whether the ID is malformed (a number a
// log assigned, uppercase hex, "op:sha256:...", a volunteer's "obs:" ID) or
// well formed but another key's.
func ValidOperatorID(id, firstKey string) error {
	if !IsOperatorID(id) {
		return fmt.Errorf("ledger: %q is not an operator ID, \"op:\" and 64 lowercase hex digits: %w", id, ErrInvalidID)
	}
	if want := OperatorID(firstKey); id != want {
		return fmt.Errorf("ledger: %s is not the ID the key makes, %s: %w", id, want, ErrInvalidID)
	}
	return nil
}

// ObserverID returns a volunteer's ID: "obs:" and the hex SHA-256 of the
// text of the first passkey they joined with. A volunteer rebound to a new
// passkey keeps it. The passkey must be "p256:" and a compressed P-256 point
// in lowercase hex (ValidPasskey), the only form a log records.
func ObserverID(firstPasskey string) (string, error) {
	if err := ValidPasskey(firstPasskey); err != nil {
		return "", err
	}
	return ObserverIDPrefix + sha256Hex(firstPasskey), nil
}

// IsObserverID reports whether id has an observer ID's form, "obs:" and 64
// lowercase hex digits.
func IsObserverID(id string) bool {
	return isHexID(id, ObserverIDPrefix)
}

// ValidPasskey checks that passkey is "p256:" followed by a 33-byte
// compressed P-256 point (02 or 03, then 32 bytes of x) in lowercase hex,
// and that the point is on the curve.
func ValidPasskey(passkey string) error {
	hexPart, ok := strings.CutPrefix(passkey, PasskeyPrefix)
	if !ok || len(hexPart) != 66 || !isLowerHex(hexPart) || (hexPart[:2] != "02" && hexPart[:2] != "03") {
		return fmt.Errorf("ledger: a passkey is %q and a compressed P-256 point, 66 lowercase hex digits starting 02 or 03: %w",
			PasskeyPrefix, ErrInvalidPasskey)
	}
	point, _ := hex.DecodeString(hexPart)
	// UnmarshalCompressed is crypto/elliptic's one remaining way to
	// decompress a point; crypto/ecdh and crypto/ecdsa read only
	// uncompressed ones. It refuses x ≥ p and an x with no point.
	if x, _ := elliptic.UnmarshalCompressed(elliptic.P256(), point); x == nil {
		return fmt.Errorf("ledger: passkey is not a point on the P-256 curve: %w", ErrInvalidPasskey)
	}
	return nil
}

// LogID returns a log's ID: "log:" and the hex SHA-256 of the log's public
// key as written. A different key is a different log.
func LogID(logKey string) string {
	return LogIDPrefix + sha256Hex(logKey)
}

// isHexID reports whether id is prefix and 64 lowercase hex digits.
func isHexID(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	return ok && len(rest) == 64 && isLowerHex(rest)
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
