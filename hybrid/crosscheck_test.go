package hybrid_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"filippo.io/mldsa"

	"github.com/agora-node/agora/hybrid"
)

// TestAgreesWithSecondImplementation holds the ML-DSA-44 half against a
// second, independent implementation (filippo.io/mldsa): the same seed gives
// the same public key, each side verifies the other's hedged signatures, and
// neither accepts a signature over another message.
func TestAgreesWithSecondImplementation(t *testing.T) {
	for range 20 {
		secret := make([]byte, hybrid.SecretKeySize)
		rand.Read(secret)
		ours, err := hybrid.NewPrivateKey(secret)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := mldsa.NewPrivateKey(mldsa.MLDSA44(), secret[32:])
		if err != nil {
			t.Fatal(err)
		}
		raw := mustHex(t, strings.TrimPrefix(ours.Public().String(), hybrid.Algorithm+":"))
		if !bytes.Equal(raw[32:], theirs.PublicKey().Bytes()) {
			t.Fatal("the same seed gives another ML-DSA-44 public key")
		}
		msg := make([]byte, 1+len(secret)%200)
		rand.Read(msg)

		sig := mustHex(t, strings.TrimPrefix(ours.Sign(msg), hybrid.Algorithm+":"))
		if err := mldsa.Verify(theirs.PublicKey(), msg, sig[64:], nil); err != nil {
			t.Fatalf("their Verify refuses our signature: %v", err)
		}
		if mldsa.Verify(theirs.PublicKey(), append(msg, 0), sig[64:], nil) == nil {
			t.Fatal("their Verify accepts our signature over another message")
		}

		mlSig, err := theirs.Sign(nil, msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		hybridSig := hybrid.Algorithm + ":" + hex.EncodeToString(append(sig[:64:64], mlSig...))
		if !hybrid.Verify(hybridSig, msg, ours.Public().String()) {
			t.Fatal("our Verify refuses their signature")
		}
		if hybrid.Verify(hybridSig, append(msg, 0), ours.Public().String()) {
			t.Fatal("our Verify accepts their signature over another message")
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
