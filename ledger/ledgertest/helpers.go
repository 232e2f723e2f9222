package ledgertest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The core records a bundle rests on (its author, its entries), written
// as storetest writes them: keys are real, so operator IDs are the ones
// their keys make; the store never checks signatures, so entries carry a
// random stand-in for theirs.

func nonce() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// entry returns a signed entry's JSON, its digest and its leaf.
func (f *fixture) entry(operator string, fields map[string]any) (digest string, signed, leaf []byte) {
	f.t.Helper()
	e := map[string]any{"sig": "ed25519-ml-dsa-44:" + nonce()}
	for k, v := range fields {
		e[k] = v
	}
	digest, err := protocol.EntryDigest(e)
	if err != nil {
		f.t.Fatal(err)
	}
	detached, err := protocol.Detach(e)
	if err != nil {
		f.t.Fatal(err)
	}
	signed, err = canonical.Marshal(e)
	if err != nil {
		f.t.Fatal(err)
	}
	leaf, err = canonical.Marshal(map[string]any{"timestamp": "2026-10-02T12:00:00.000Z", "operator": operator, "entry": detached})
	if err != nil {
		f.t.Fatal(err)
	}
	return digest, signed, leaf
}

// put puts an entry and returns its digest.
func (f *fixture) put(operator string, fields map[string]any) string {
	f.t.Helper()
	digest, signed, leaf := f.entry(operator, fields)
	if err := f.s.PutSigned(f.ctx, digest, signed, leaf); err != nil {
		f.t.Fatalf("PutSigned: %v", err)
	}
	return digest
}

// register registers a new operator under name, its key entry put.
func (f *fixture) register(name string) (store.Operator, *hybrid.PrivateKey) {
	f.t.Helper()
	k, err := hybrid.GenerateKey()
	if err != nil {
		f.t.Fatal(err)
	}
	pub := k.Public().String()
	id := protocol.OperatorID(pub)
	op, err := f.s.CreateOperator(f.ctx, store.NewOperator{
		ID:          id,
		Key:         pub,
		Entry:       f.put(id, map[string]any{"type": "key", "key": pub, "model_families": []any{"claude"}, "model": "claude-opus-5-5"}),
		Name:        name,
		NameKey:     strings.ToLower(strings.ReplaceAll(name, " ", "")),
		KeyFamilies: []string{"claude"},
		Model:       "claude-opus-5-5",
		At:          f.now,
	})
	if err != nil {
		f.t.Fatalf("CreateOperator(%q): %v", name, err)
	}
	return op, k
}

// is fails the test unless err wraps target.
func (f *fixture) is(err, target error, what string) {
	f.t.Helper()
	if !errors.Is(err, target) {
		f.t.Errorf("%s: error %v, want one wrapping %q", what, err, target)
	}
}

// ok fails the test now on an error.
func (f *fixture) ok(err error, what string) {
	f.t.Helper()
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
}

// bind binds digest at a new index and returns the index.
func (f *fixture) bind(digest string) int64 {
	f.t.Helper()
	i := f.nextIndex()
	f.ok(f.s.BindIndex(f.ctx, i, digest), "BindIndex")
	return i
}

// nextIndex returns an index no entry of this store has: the fixture's own
// count, so every test's store starts at 0.
func (f *fixture) nextIndex() int64 {
	f.t.Helper()
	latest, err := f.s.LatestIndex(f.ctx)
	f.ok(err, "LatestIndex")
	return latest + 1
}

func second[T any](_ T, err error) error { return err }
