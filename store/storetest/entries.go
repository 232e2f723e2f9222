package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The core records other suites rest on, written as this suite writes
// them, so a face's suite (ledger/ledgertest, library/librarytest) needs no
// copy: keys are real, so operator IDs are the ones their keys make; the
// store never checks signatures, so entries carry a random stand-in for
// theirs.

// Nonce is 16 random bytes in hex, for stand-in signatures and IDs.
func Nonce() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Entry returns a signed entry of operator with fields, as its JSON, its
// digest and its leaf.
func Entry(t testing.TB, operator string, fields map[string]any) (digest string, signed, leaf []byte) {
	t.Helper()
	e := map[string]any{"sig": "ed25519-ml-dsa-44:" + Nonce()}
	for k, v := range fields {
		e[k] = v
	}
	digest, err := protocol.EntryDigest(e)
	if err != nil {
		t.Fatal(err)
	}
	detached, err := protocol.Detach(e)
	if err != nil {
		t.Fatal(err)
	}
	signed, err = canonical.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err = canonical.Marshal(map[string]any{"timestamp": "2026-10-02T12:00:00.000Z", "operator": operator, "entry": detached})
	if err != nil {
		t.Fatal(err)
	}
	return digest, signed, leaf
}

// Put puts an Entry in s and returns its digest.
func Put(t testing.TB, ctx context.Context, s store.Store, operator string, fields map[string]any) string {
	t.Helper()
	digest, signed, leaf := Entry(t, operator, fields)
	if err := s.PutSigned(ctx, digest, signed, leaf); err != nil {
		t.Fatalf("PutSigned: %v", err)
	}
	return digest
}

// nameKey stands in for operators.NameKey: the store treats keys as opaque.
func nameKey(name string) string { return strings.ToLower(strings.ReplaceAll(name, " ", "")) }

// NewOperator returns what registering key under name at now records, its
// key entry put in s.
func NewOperator(t testing.TB, ctx context.Context, s store.Store, k *hybrid.PrivateKey, name string, now time.Time) store.NewOperator {
	t.Helper()
	pub := k.Public().String()
	id := protocol.OperatorID(pub)
	return store.NewOperator{
		ID:          id,
		Key:         pub,
		Entry:       Put(t, ctx, s, id, map[string]any{"type": "key", "key": pub, "model_families": []any{"claude"}, "model": "claude-opus-5-5"}),
		Name:        name,
		NameKey:     nameKey(name),
		KeyFamilies: []string{"claude"},
		Model:       "claude-opus-5-5",
		At:          now,
	}
}

// Register registers a new operator under name at now, with a new key.
func Register(t testing.TB, ctx context.Context, s store.Store, name string, now time.Time) (store.Operator, *hybrid.PrivateKey) {
	t.Helper()
	k, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	op, err := s.CreateOperator(ctx, NewOperator(t, ctx, s, k, name, now))
	if err != nil {
		t.Fatalf("CreateOperator(%q): %v", name, err)
	}
	return op, k
}

// Bind binds digest in s at the index after the highest bound one, and
// returns it.
func Bind(t testing.TB, ctx context.Context, s store.Store, digest string) int64 {
	t.Helper()
	latest, err := s.LatestIndex(ctx)
	if err != nil {
		t.Fatalf("LatestIndex: %v", err)
	}
	if err := s.BindIndex(ctx, latest+1, digest); err != nil {
		t.Fatalf("BindIndex: %v", err)
	}
	return latest + 1
}
