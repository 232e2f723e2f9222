package hybrid_test

// Benchmarks for the hybrid-signature rows of testdata/bench (README.md
// there): the same work the reference library was measured on, so the figures
// compare. Each benchmark first checks that it does that work (the expected
// public key, the payload's size, a signature that verifies) and only then
// times it.
//
// Reference figures on the same machine kind (ops/s): generateKeyPair 561.6,
// publicKeyOf(fixed secret) 592.9, sign 152.1, sign with a fresh key object
// 129.2, verify 294.0. The "ops/s" metric each benchmark reports compares
// directly.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/protocol"
)

// signWork is inputs/sign.json with what expected-outputs.json says of it.
type signWork struct {
	secret  []byte
	entry   map[string]any
	payload []byte
	// publicKeySHA256 is the hex SHA-256 of the public key's text.
	publicKeySHA256 string
}

func loadSignWork(b *testing.B) signWork {
	b.Helper()
	dir := testvectors.BenchDir()
	var input struct {
		SecretKeyHex string          `json:"secret_key_hex"`
		Entry        json.RawMessage `json:"entry"`
	}
	if err := json.Unmarshal(testvectors.Read(b, dir, "inputs", "sign.json"), &input); err != nil {
		b.Fatal(err)
	}
	var expected struct {
		PublicKeySHA256   string `json:"sign_public_key_sha256"`
		PayloadBytes      int    `json:"sign_payload_bytes"`
		SignatureVerifies bool   `json:"signature_verifies"`
	}
	if err := json.Unmarshal(testvectors.Read(b, dir, "expected-outputs.json"), &expected); err != nil {
		b.Fatal(err)
	}
	secret, err := hex.DecodeString(input.SecretKeyHex)
	if err != nil {
		b.Fatal(err)
	}
	// canonical.Parse, not encoding/json, so numbers are read as the
	// protocol reads them.
	parsed, err := canonical.Parse(input.Entry)
	if err != nil {
		b.Fatal(err)
	}
	entry, ok := parsed.(map[string]any)
	if !ok {
		b.Fatal("sign.json's entry is not an object")
	}
	payload, err := protocol.SigningPayload(entry)
	if err != nil {
		b.Fatal(err)
	}
	if len(payload) != expected.PayloadBytes {
		b.Fatalf("signing payload is %d bytes, expected-outputs.json says %d", len(payload), expected.PayloadBytes)
	}
	if !expected.SignatureVerifies || expected.PublicKeySHA256 == "" {
		b.Fatal("expected-outputs.json does not describe the signing work")
	}
	return signWork{secret: secret, entry: entry, payload: payload, publicKeySHA256: expected.PublicKeySHA256}
}

// checkPublicKey fails the benchmark unless key's public text is the one
// expected-outputs.json names.
func (w signWork) checkPublicKey(b *testing.B, key *hybrid.PrivateKey) {
	b.Helper()
	sum := sha256.Sum256([]byte(key.Public().String()))
	if got := hex.EncodeToString(sum[:]); got != w.publicKeySHA256 {
		b.Fatalf("public key's SHA-256 is %s, expected-outputs.json says %s", got, w.publicKeySHA256)
	}
}

func (w signWork) key(b *testing.B) *hybrid.PrivateKey {
	b.Helper()
	key, err := hybrid.NewPrivateKey(w.secret)
	if err != nil {
		b.Fatal(err)
	}
	w.checkPublicKey(b, key)
	return key
}

// reportOpsPerSecond reports ops/s and, from start (ProcessCPU before the
// loop), the CPU time per operation.
func reportOpsPerSecond(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	testvectors.ReportCPU(b, start)
}

// BenchmarkKeygenRandom is generateKeyPair(): 64 random bytes, then both
// halves' key generation.
func BenchmarkKeygenRandom(b *testing.B) {
	key, err := hybrid.GenerateKey()
	if err != nil {
		b.Fatal(err)
	}
	msg := []byte("keygen check")
	if !hybrid.Verify(key.Sign(msg), msg, key.Public().String()) {
		b.Fatal("a generated key's signature does not verify")
	}
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if _, err := hybrid.GenerateKey(); err != nil {
			b.Fatal(err)
		}
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkKeygenFixed is publicKeyOf(fixed secret): the deterministic key
// generation from sign.json's two seeds, down to the public key's text.
func BenchmarkKeygenFixed(b *testing.B) {
	w := loadSignWork(b)
	w.key(b)
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		key, err := hybrid.NewPrivateKey(w.secret)
		if err != nil {
			b.Fatal(err)
		}
		_ = key.Public().String()
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkSign is sign(signingPayload(entry), sk): the payload's canonical
// JSON, then a hedged signature with a key already expanded.
func BenchmarkSign(b *testing.B) {
	w := loadSignWork(b)
	key := w.key(b)
	if !hybrid.Verify(key.Sign(w.payload), w.payload, key.Public().String()) {
		b.Fatal("signature does not verify")
	}
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		payload, err := protocol.SigningPayload(w.entry)
		if err != nil {
			b.Fatal(err)
		}
		_ = key.Sign(payload)
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkSignFreshKey is the same signature with the key expanded from its
// secret on every call, as a signer that keeps only the secret does.
func BenchmarkSignFreshKey(b *testing.B) {
	w := loadSignWork(b)
	w.key(b)
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		key, err := hybrid.NewPrivateKey(w.secret)
		if err != nil {
			b.Fatal(err)
		}
		payload, err := protocol.SigningPayload(w.entry)
		if err != nil {
			b.Fatal(err)
		}
		_ = key.Sign(payload)
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkVerify is verify(sig, payload, pk) with the key as text, parsed on
// every call, as the reference does.
func BenchmarkVerify(b *testing.B) {
	w := loadSignWork(b)
	key := w.key(b)
	sig, pub := key.Sign(w.payload), key.Public().String()
	if !hybrid.Verify(sig, w.payload, pub) {
		b.Fatal("signature does not verify")
	}
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if !hybrid.Verify(sig, w.payload, pub) {
			b.Fatal("signature does not verify")
		}
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkVerifyParsedKey verifies with a key parsed once, as a node that
// keeps its signers' parsed keys does.
func BenchmarkVerifyParsedKey(b *testing.B) {
	w := loadSignWork(b)
	key := w.key(b)
	sig := key.Sign(w.payload)
	pub, err := hybrid.ParsePublicKey(key.Public().String())
	if err != nil {
		b.Fatal(err)
	}
	if !pub.Verify(w.payload, sig) {
		b.Fatal("signature does not verify")
	}
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if !pub.Verify(w.payload, sig) {
			b.Fatal("signature does not verify")
		}
	}
	reportOpsPerSecond(b, start)
}

// BenchmarkVerifyObject is protocol.Verify on the signed entry: its signing
// payload, then the signature, with the signer's key given as text, as every
// check of a logged entry runs it.
func BenchmarkVerifyObject(b *testing.B) {
	w := loadSignWork(b)
	key := w.key(b)
	signed := make(map[string]any, len(w.entry)+1)
	for k, v := range w.entry {
		signed[k] = v
	}
	if err := protocol.Sign(signed, key); err != nil {
		b.Fatal(err)
	}
	pub := key.Public().String()
	if !protocol.Verify(signed, pub) {
		b.Fatal("signature does not verify")
	}
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if !protocol.Verify(signed, pub) {
			b.Fatal("signature does not verify")
		}
	}
	reportOpsPerSecond(b, start)
}
