package ledgertest

import (
	"errors"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/storetest"
)

// The core records a bundle rests on (its author, its entries), written
// as storetest writes them.

func nonce() string { return storetest.Nonce() }

func (f *fixture) put(operator string, fields map[string]any) string {
	return storetest.Put(f.t, f.ctx, f.s, operator, fields)
}

func (f *fixture) register(name string) (store.Operator, *hybrid.PrivateKey) {
	return storetest.Register(f.t, f.ctx, f.s, name, f.now)
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
func (f *fixture) bind(digest string) int64 { return storetest.Bind(f.t, f.ctx, f.s, digest) }

func second[T any](_ T, err error) error { return err }
