package storetest

import (
	"errors"
	"sync"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// newKey makes a hybrid key. Keys are real, so operator IDs are the ones
// their keys make; the store never checks signatures, so entries carry a
// random stand-in for theirs.
func (f *fixture) newKey() *hybrid.PrivateKey {
	f.t.Helper()
	k, err := hybrid.GenerateKey()
	if err != nil {
		f.t.Fatal(err)
	}
	return k
}

func pub(k *hybrid.PrivateKey) string { return k.Public().String() }

func digestOf(k *hybrid.PrivateKey) string { return protocol.KeyDigest(pub(k)) }

func nonce() string { return Nonce() }

func (f *fixture) put(operator string, fields map[string]any) string {
	return Put(f.t, f.ctx, f.s, operator, fields)
}

func (f *fixture) newOperator(k *hybrid.PrivateKey, name string) store.NewOperator {
	return NewOperator(f.t, f.ctx, f.s, k, name, f.now)
}

func (f *fixture) register(name string) (store.Operator, *hybrid.PrivateKey) {
	return Register(f.t, f.ctx, f.s, name, f.now)
}

// rotation puts a rotation of op from one key to another and returns what
// RotateKey records.
func (f *fixture) rotation(op string, from, to *hybrid.PrivateKey) store.Rotation {
	f.t.Helper()
	return store.Rotation{
		Operator: op,
		From:     digestOf(from),
		Key:      pub(to),
		Entry:    f.put(op, map[string]any{"type": "key_rotation", "operator": op, "key": pub(to), "key_sig": nonce()}),
		At:       f.now,
	}
}

// identity puts an identity entry and returns what AddIdentity records.
func (f *fixture) identity(op, kind, subject, organization string) store.Identity {
	f.t.Helper()
	fields := map[string]any{"type": "identity", "kind": kind, "operator": op}
	switch kind {
	case "domain":
		fields["domain"] = subject
	case "github":
		fields["repository"] = subject
	}
	return store.Identity{
		Operator:     op,
		Kind:         kind,
		Organization: organization,
		Subject:      subject,
		Entry:        f.put(op, fields),
		Index:        store.Unlogged,
		Added:        f.now,
	}
}

// invite returns an invite sponsor (holding key k) makes at created.
func (f *fixture) invite(sponsor string, k *hybrid.PrivateKey, organization string, created time.Time) store.Invite {
	return store.Invite{
		Digest:       "sha256:" + nonce() + nonce(),
		Sponsor:      sponsor,
		SponsorKey:   digestOf(k),
		SponsorSig:   "ed25519-ml-dsa-44:" + nonce(),
		Organization: organization,
		Created:      created,
		Expires:      created.Add(30 * 24 * time.Hour),
	}
}

// sponsored puts a sponsored identity entry for op using inv.
func (f *fixture) sponsored(op string, inv store.Invite, at time.Time) store.Identity {
	f.t.Helper()
	return store.Identity{
		Operator: op,
		Kind:     "sponsored",
		Entry:    f.put(op, map[string]any{"type": "identity", "kind": "sponsored", "operator": op, "sponsor": inv.Sponsor, "code": nonce()}),
		Invite:   inv.Digest,
		Added:    at,
	}
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

// parallel runs f(i) for i in [0, n) at once and waits for all of them.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f(i)
		}()
	}
	close(start)
	wg.Wait()
}
