package hybrid

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// ed25519Verify is the Ed25519 half of PublicKey.Verify on raw bytes.
func ed25519Verify(pub, message, sig []byte) bool {
	x := expandEd25519(pub)
	return x != nil && voi.VerifyExpandedWithOptions(x, message, sig, stdlibRules)
}

// edgeKeys are Ed25519 public key encodings where verifiers differ: the
// eight small-order points, non-canonical encodings (y ≥ p, the sign bit
// set on x = 0), bytes that are no point, and an ordinary key.
func edgeKeys() [][]byte {
	hexes := []string{
		"0100000000000000000000000000000000000000000000000000000000000000", // identity
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
		"0000000000000000000000000000000000000000000000000000000000000080", // order 4, sign bit on x = 0
		"0000000000000000000000000000000000000000000000000000000000000000", // order 4
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p: non-canonical 0
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p + 1: non-canonical 1
		"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // y = 2^255 - 1
		"0200000000000000000000000000000000000000000000000000000000000000", // no point (y = 2)
	}
	var keys [][]byte
	for _, h := range hexes {
		b, _ := hex.DecodeString(h)
		keys = append(keys, b)
	}
	seed := sha256.Sum256([]byte("ed25519 edge key"))
	return append(keys, ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
}

// edgeSignatures are signatures over message by an ordinary key, its
// S pushed past the group order, R of small order, and all zeros, for
// each key in turn.
func edgeSignatures(message []byte) [][]byte {
	seed := sha256.Sum256([]byte("ed25519 edge key"))
	good := ed25519.Sign(ed25519.NewKeyFromSeed(seed[:]), message)
	big := append([]byte(nil), good...)
	big[63] |= 0x10 // S ≥ L
	smallR := append([]byte(nil), good...)
	copy(smallR, make([]byte, 32))
	smallR[0] = 1 // R = identity
	zero := make([]byte, 64)
	identityR := make([]byte, 64)
	identityR[0] = 1 // R = identity, S = 0: verifies under small-order A, cofactorless
	return [][]byte{good, big, smallR, zero, identityR}
}

// TestEd25519AgreesWithStdlib holds the expanded-key Ed25519 check to
// crypto/ed25519.Verify on the encodings where verifiers are known to
// differ, so switching how keys are decoded changes no verdict.
func TestEd25519AgreesWithStdlib(t *testing.T) {
	message := []byte("hybrid signatures stay verifiable")
	accepted := 0
	for _, pub := range edgeKeys() {
		for i, sig := range edgeSignatures(message) {
			want := ed25519.Verify(pub, message, sig)
			if want {
				accepted++
			}
			if got := ed25519Verify(pub, message, sig); got != want {
				t.Errorf("key %x, signature %d: expanded verify %v, crypto/ed25519 %v", pub, i, got, want)
			}
		}
	}
	// The ordinary signature, and R = identity with S = 0 under each key
	// of small order that crypto/ed25519 decodes.
	if accepted < 2 {
		t.Fatalf("only %d of the edge cases verify: the cases no longer reach the rules that differ", accepted)
	}
}

// FuzzEd25519AgreesWithStdlib compares the two on any key, message and
// signature bytes.
func FuzzEd25519AgreesWithStdlib(f *testing.F) {
	message := []byte("hybrid signatures stay verifiable")
	for _, pub := range edgeKeys() {
		for _, sig := range edgeSignatures(message) {
			f.Add(pub, message, sig)
		}
	}
	f.Fuzz(func(t *testing.T, pub, message, sig []byte) {
		if len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
			return
		}
		want := ed25519.Verify(pub, message, sig)
		if got := ed25519Verify(pub, message, sig); got != want {
			t.Fatalf("key %x, signature %x: expanded verify %v, crypto/ed25519 %v", pub, sig, got, want)
		}
	})
}
