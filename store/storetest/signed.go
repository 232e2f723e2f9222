package storetest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

func testNotFound(f *fixture) {
	unknown := protocol.OperatorIDPrefix + "0000000000000000000000000000000000000000000000000000000000000000"
	for what, err := range map[string]error{
		"Operator":        second(f.s.Operator(f.ctx, unknown)),
		"OperatorByKey":   second(f.s.OperatorByKey(f.ctx, "sha256:00")),
		"Signed":          second(f.s.Signed(f.ctx, 0)),
		"SignedByDigest":  second(f.s.SignedByDigest(f.ctx, "sha256:00")),
		"Invite":          second(f.s.Invite(f.ctx, "sha256:00")),
		"BindIndex":       f.s.BindIndex(f.ctx, 0, "sha256:00"),
		"DropUnbound":     f.s.DropUnbound(f.ctx, "sha256:00"),
		"NoteModelFamily": f.s.NoteModelFamily(f.ctx, unknown, "claude"),
		"Rename": func() error {
			_, _, err := f.rename(unknown, "Scout", "scout")
			return err
		}(),
		"RotateKey": second(f.s.RotateKey(f.ctx, store.Rotation{Operator: unknown, From: "sha256:00", Key: "k", Entry: "sha256:01"})),
		"AddIdentity": second(f.s.AddIdentity(f.ctx, store.Identity{
			Operator: unknown, Kind: "domain", Organization: "example.org", Subject: "example.org", Entry: "sha256:01",
		})),
	} {
		if !errors.Is(err, store.ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
			f.t.Errorf("%s of nothing: error %v, want one wrapping store.ErrNotFound and fs.ErrNotExist", what, err)
		}
	}
	latest, err := f.s.LatestIndex(f.ctx)
	if err != nil || latest != store.Unlogged {
		f.t.Errorf("LatestIndex of an empty store = %d, %v; want Unlogged", latest, err)
	}
	unbound, err := f.s.Unbound(f.ctx)
	if err != nil || len(unbound) != 0 {
		f.t.Errorf("Unbound of an empty store = %v, %v", unbound, err)
	}
}

func second[T any](_ T, err error) error { return err }

func testSignedEntries(f *fixture) {
	digest, signed, leaf := Entry(f.t, "op:x", map[string]any{"type": "key"})
	f.ok(f.s.PutSigned(f.ctx, digest, signed, nil), "PutSigned")

	got, err := f.s.SignedByDigest(f.ctx, digest)
	f.ok(err, "SignedByDigest")
	if got.Digest != digest || !bytes.Equal(got.Entry, signed) || got.Leaf != nil || got.Index != store.Unlogged || got.Stored.IsZero() {
		f.t.Errorf("SignedByDigest before binding = %+v", got)
	}
	if _, err := f.s.Signed(f.ctx, 0); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("Signed(0) before binding: %v, want ErrNotFound", err)
	}
	unbound, err := f.s.Unbound(f.ctx)
	f.ok(err, "Unbound")
	if len(unbound) != 1 || unbound[0].Digest != digest {
		f.t.Errorf("Unbound = %+v, want the one entry", unbound)
	}

	// Putting it again sets its leaf; other bytes under its digest conflict.
	f.ok(f.s.PutSigned(f.ctx, digest, signed, leaf), "PutSigned again with its leaf")
	f.ok(f.s.PutSigned(f.ctx, digest, signed, nil), "PutSigned again without a leaf")
	f.is(f.s.PutSigned(f.ctx, digest, append(bytes.Clone(signed), ' '), leaf), store.ErrConflict, "PutSigned of other bytes")
	f.is(f.s.PutSigned(f.ctx, "", signed, leaf), store.ErrInvalid, "PutSigned without a digest")

	f.ok(f.s.BindIndex(f.ctx, 0, digest), "BindIndex")
	f.ok(f.s.BindIndex(f.ctx, 0, digest), "BindIndex again")
	got, err = f.s.Signed(f.ctx, 0)
	f.ok(err, "Signed(0)")
	if got.Digest != digest || !bytes.Equal(got.Entry, signed) || !bytes.Equal(got.Leaf, leaf) || got.Index != 0 {
		f.t.Errorf("Signed(0) = %+v", got)
	}
	if latest, err := f.s.LatestIndex(f.ctx); err != nil || latest != 0 {
		f.t.Errorf("LatestIndex = %d, %v; want 0", latest, err)
	}
	if unbound, _ := f.s.Unbound(f.ctx); len(unbound) != 0 {
		f.t.Errorf("Unbound after binding = %+v", unbound)
	}
	f.is(f.s.PutSigned(f.ctx, digest, signed, leaf), store.ErrDuplicate, "PutSigned of a logged entry")
	f.is(f.s.BindIndex(f.ctx, 1, digest), store.ErrConflict, "BindIndex of a logged entry elsewhere")
	f.is(f.s.DropUnbound(f.ctx, digest), store.ErrConflict, "DropUnbound of a logged entry")

	other := f.put("op:x", map[string]any{"type": "key"})
	f.is(f.s.BindIndex(f.ctx, 0, other), store.ErrConflict, "BindIndex to a taken index")
	f.is(f.s.BindIndex(f.ctx, -1, other), store.ErrInvalid, "BindIndex to a negative index")
	f.ok(f.s.BindIndex(f.ctx, 5, other), "BindIndex with a gap")
	if latest, _ := f.s.LatestIndex(f.ctx); latest != 5 {
		f.t.Errorf("LatestIndex = %d, want 5", latest)
	}

	// Read in order from an index: bound entries only, a gap skipped.
	unboundYet := f.put("op:x", map[string]any{"type": "key"})
	for _, tc := range []struct {
		from  int64
		limit int
		want  []string
	}{
		{0, 10, []string{digest, other}}, {0, 1, []string{digest}}, {1, 10, []string{other}}, {5, 1, []string{other}}, {6, 10, nil},
	} {
		got, err := f.s.SignedFrom(f.ctx, tc.from, tc.limit)
		f.ok(err, "SignedFrom")
		var digests []string
		for _, e := range got {
			digests = append(digests, e.Digest)
			if at, err := f.s.Signed(f.ctx, e.Index); err != nil || at.Digest != e.Digest || !bytes.Equal(at.Entry, e.Entry) || !bytes.Equal(at.Leaf, e.Leaf) {
				f.t.Errorf("SignedFrom gave %s at %d, Signed there gives %+v, %v", e.Digest, e.Index, at, err)
			}
		}
		if !slices.Equal(digests, tc.want) {
			f.t.Errorf("SignedFrom(%d, %d) = %v, want %v (%s unbound)", tc.from, tc.limit, digests, tc.want, unboundYet)
		}
	}
	f.is(second(f.s.SignedFrom(f.ctx, 0, 0)), store.ErrInvalid, "SignedFrom of no entries")

	// An unbound entry can be dropped, and then it is gone.
	third := f.put("op:x", map[string]any{"type": "key"})
	f.ok(f.s.DropUnbound(f.ctx, third), "DropUnbound")
	f.is(second(f.s.SignedByDigest(f.ctx, third)), store.ErrNotFound, "SignedByDigest of a dropped entry")
}

func testBindIndexes(f *fixture) {
	var bindings []store.Binding
	for i := range 5 {
		bindings = append(bindings, store.Binding{Index: int64(i), Digest: f.put("op:x", map[string]any{"type": "key"})})
	}
	f.ok(f.s.BindIndexes(f.ctx, bindings), "BindIndexes")
	for _, b := range bindings {
		if got, err := f.s.Signed(f.ctx, b.Index); err != nil || got.Digest != b.Digest {
			f.t.Errorf("Signed(%d) = %s, %v; want %s", b.Index, got.Digest, err, b.Digest)
		}
	}
	// A batch with one bad binding binds nothing.
	fresh := f.put("op:x", map[string]any{"type": "key"})
	err := f.s.BindIndexes(f.ctx, []store.Binding{{Index: 10, Digest: fresh}, {Index: 0, Digest: f.put("op:x", map[string]any{"type": "key"})}})
	f.is(err, store.ErrConflict, "BindIndexes with a taken index")
	if got, _ := f.s.SignedByDigest(f.ctx, fresh); got.Index != store.Unlogged {
		f.t.Errorf("a failed batch bound %s at %d", fresh, got.Index)
	}
}

func testCanceled(f *fixture) {
	ctx, cancel := context.WithCancel(f.ctx)
	cancel()
	k := f.newKey()
	op := f.newOperator(k, "Scout")
	if _, err := f.s.CreateOperator(ctx, op); !errors.Is(err, context.Canceled) {
		f.t.Errorf("CreateOperator with a canceled context: %v, want context.Canceled", err)
	}
	if _, err := f.s.Operator(f.ctx, op.ID); !errors.Is(err, store.ErrNotFound) {
		f.t.Errorf("a canceled CreateOperator wrote %s: %v", op.ID, err)
	}
	if _, _, err := f.s.Take(ctx, "b", 1, time.Minute, f.now); !errors.Is(err, context.Canceled) {
		f.t.Errorf("Take with a canceled context: %v, want context.Canceled", err)
	}
	if ok, _, err := f.s.Take(f.ctx, "b", 1, time.Minute, f.now); !ok || err != nil {
		f.t.Errorf("a canceled Take took a slot: %v, %v", ok, err)
	}
}
