// Package hybrid implements the sciencejournal protocol's hybrid signature
// scheme, ed25519-ml-dsa-44: every key is an Ed25519 key (RFC 8032) and an
// ML-DSA-44 key (FIPS 204, pure, empty context) used together, and every
// signature holds one signature of each over the same message. A signature
// verifies only if both halves do, so it stays sound if either algorithm
// falls.
//
// A secret key is 64 bytes: the Ed25519 seed, then the ML-DSA-44 key
// generation seed (ξ). Public keys and signatures are written as text: the
// algorithm's name, a colon, and the Ed25519 part then the ML-DSA part in
// lowercase hex.
//
// The spec: spec/ledger-protocol.md; its vectors are in testdata/conformance.
package hybrid

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// Algorithm names the scheme in key and signature texts.
const Algorithm = "ed25519-ml-dsa-44"

const prefix = Algorithm + ":"

// Sizes of the binary forms.
const (
	SecretKeySize = 32 + mldsa44.SeedSize                         // 64
	PublicKeySize = ed25519.PublicKeySize + mldsa44.PublicKeySize // 1,344
	SignatureSize = ed25519.SignatureSize + mldsa44.SignatureSize // 2,484
)

// ErrMalformed is wrapped by errors for key or signature texts that are not
// of the scheme's form.
var ErrMalformed = errors.New("malformed hybrid key or signature")

// PrivateKey is a hybrid secret key with both halves expanded, ready to sign.
// It is safe for concurrent use.
type PrivateKey struct {
	secret [SecretKeySize]byte
	ed     ed25519.PrivateKey
	ml     *mldsa44.PrivateKey
	public *PublicKey
}

// GenerateKey makes a new key from 64 random bytes.
func GenerateKey() (*PrivateKey, error) {
	secret := make([]byte, SecretKeySize)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("hybrid: reading randomness: %w", err)
	}
	return NewPrivateKey(secret)
}

// NewPrivateKey expands a 64-byte secret key: the Ed25519 seed, then the
// ML-DSA-44 seed.
func NewPrivateKey(secret []byte) (*PrivateKey, error) {
	if len(secret) != SecretKeySize {
		return nil, fmt.Errorf("hybrid: a secret key is %d bytes (an Ed25519 seed, then an ML-DSA-44 seed), not %d: %w",
			SecretKeySize, len(secret), ErrMalformed)
	}
	var seed [mldsa44.SeedSize]byte
	copy(seed[:], secret[32:])
	mlPublic, ml := mldsa44.NewKeyFromSeed(&seed)
	k := &PrivateKey{ed: ed25519.NewKeyFromSeed(secret[:32]), ml: ml}
	copy(k.secret[:], secret)
	pub := make([]byte, 0, PublicKeySize)
	pub = append(pub, k.ed.Public().(ed25519.PublicKey)...)
	pub = append(pub, mlPublic.Bytes()...)
	k.public = &PublicKey{ed: pub[:32], edExpanded: expandEd25519(pub[:32]), ml: mlPublic, text: prefix + hex.EncodeToString(pub)}
	return k, nil
}

// Bytes returns the 64-byte secret key.
func (k *PrivateKey) Bytes() []byte { return append([]byte(nil), k.secret[:]...) }

// Public returns the key's public half.
func (k *PrivateKey) Public() *PublicKey { return k.public }

// Sign signs message with both halves, ML-DSA in its hedged (randomized)
// variant, and returns the signature text.
func (k *PrivateKey) Sign(message []byte) string {
	return k.sign(message, true)
}

// SignDeterministic signs with ML-DSA's deterministic variant, so the same
// key and message always give the same signature, as the protocol's test
// vectors do. Ordinary signers should use Sign.
func (k *PrivateKey) SignDeterministic(message []byte) string {
	return k.sign(message, false)
}

func (k *PrivateKey) sign(message []byte, randomized bool) string {
	sig := make([]byte, SignatureSize)
	copy(sig, ed25519.Sign(k.ed, message))
	// The context is empty, so SignTo can fail only on a broken RNG.
	if err := mldsa44.SignTo(k.ml, message, nil, randomized, sig[ed25519.SignatureSize:]); err != nil {
		panic("hybrid: ML-DSA-44 signing failed: " + err.Error())
	}
	return prefix + hex.EncodeToString(sig)
}

// PublicKey is a parsed hybrid public key. It is safe for concurrent use.
type PublicKey struct {
	ed ed25519.PublicKey
	// edExpanded is ed decoded once, with a table of its multiples, so
	// a Verify skips the decoding and a third of the curve work; nil
	// when ed is no point, which no signature verifies under.
	edExpanded *voi.ExpandedPublicKey
	ml         *mldsa44.PublicKey
	text       string
}

// stdlibRules are crypto/ed25519's verification rules (cofactorless,
// canonical S, any encoding of A the standard library decodes), so the
// expanded key accepts exactly the signatures crypto/ed25519.Verify does.
var stdlibRules = &voi.Options{Verify: voi.VerifyOptionsStdLib}

// expandEd25519 decodes an Ed25519 public key for repeated verification,
// or returns nil for bytes that are no point.
func expandEd25519(pub []byte) *voi.ExpandedPublicKey {
	x, err := voi.NewExpandedPublicKey(voi.PublicKey(pub))
	if err != nil {
		return nil
	}
	return x
}

// ParsePublicKey parses a public key text: "ed25519-ml-dsa-44:" and 2,688
// lowercase hex digits.
func ParsePublicKey(text string) (*PublicKey, error) {
	raw, err := decode(text, PublicKeySize)
	if err != nil {
		return nil, fmt.Errorf("hybrid: public key: %w", err)
	}
	// Unpack expands the key's matrix once, so every later Verify with
	// this key skips the work that dominates an ML-DSA verification.
	var mlRaw [mldsa44.PublicKeySize]byte
	copy(mlRaw[:], raw[32:])
	ml := new(mldsa44.PublicKey)
	ml.Unpack(&mlRaw)
	return &PublicKey{ed: ed25519.PublicKey(raw[:32]), edExpanded: expandEd25519(raw[:32]), ml: ml, text: text}, nil
}

// String returns the key's text form, as the protocol writes it.
func (p *PublicKey) String() string { return p.text }

// Verify reports whether sig, a signature text, is a valid signature of
// message by this key: both halves must verify. A malformed signature is a
// failed verification.
func (p *PublicKey) Verify(message []byte, sig string) bool {
	// Decoded in place, so a verification allocates nothing of its own.
	var raw [SignatureSize]byte
	if decodeInto(raw[:], sig) != nil {
		return false
	}
	return p.edExpanded != nil && voi.VerifyExpandedWithOptions(p.edExpanded, message, raw[:ed25519.SignatureSize], stdlibRules) &&
		mldsa44.Verify(p.ml, message, nil, raw[ed25519.SignatureSize:])
}

// Verify reports whether sig is a valid signature of message by the public
// key publicKey, both given as text. Malformed keys and signatures are failed
// verifications, never errors or panics.
//
// Parsed keys are kept in a bounded cache (see keycache.go), so verifying
// many entries by one key parses it once.
func Verify(sig string, message []byte, publicKey string) bool {
	pub, err := cachedPublicKey(publicKey)
	if err != nil {
		return false
	}
	return pub.Verify(message, sig)
}

// decode reads "ed25519-ml-dsa-44:" followed by exactly size bytes in
// lowercase hex.
func decode(text string, size int) ([]byte, error) {
	raw := make([]byte, size)
	if err := decodeInto(raw, text); err != nil {
		return nil, err
	}
	return raw, nil
}

// decodeInto is decode into dst, len(dst) being the size.
func decodeInto(dst []byte, text string) error {
	hexPart, ok := strings.CutPrefix(text, prefix)
	if !ok {
		return fmt.Errorf("does not start with %q: %w", prefix, ErrMalformed)
	}
	if len(hexPart) != 2*len(dst) {
		return fmt.Errorf("has %d hex digits, want %d: %w", len(hexPart), 2*len(dst), ErrMalformed)
	}
	if !decodeLowerHex(dst, hexPart) {
		return fmt.Errorf("is not lowercase hex: %w", ErrMalformed)
	}
	return nil
}
