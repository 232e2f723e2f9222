package storetest

import (
	"sync/atomic"
	"time"

	"github.com/agora-node/agora/store"
)

func testRateLimits(f *fixture) {
	const limit = 3
	window := time.Hour
	t0 := f.now
	take := func(bucket string, at time.Time) (bool, time.Duration) {
		f.t.Helper()
		ok, retry, err := f.s.Take(f.ctx, bucket, limit, window, at)
		f.ok(err, "Take")
		return ok, retry
	}
	for i := range limit {
		if ok, _ := take("a", t0.Add(time.Duration(i)*time.Minute)); !ok {
			f.t.Fatalf("take %d of %d refused", i+1, limit)
		}
	}
	ok, retry := take("a", t0.Add(10*time.Minute))
	if ok || retry != 50*time.Minute {
		f.t.Errorf("a take past the limit: %v, retry after %s; want refused, 50m", ok, retry)
	}
	// A refused take takes nothing: still refused until the first leaves
	// the window, then one slot frees.
	if ok, retry := take("a", t0.Add(59*time.Minute)); ok || retry != time.Minute {
		f.t.Errorf("a minute before the first take leaves the window: %v, %s", ok, retry)
	}
	if ok, _ := take("a", t0.Add(time.Hour)); !ok {
		f.t.Error("a take once the first left the window was refused")
	}
	if ok, retry := take("a", t0.Add(time.Hour)); ok || retry != time.Minute {
		f.t.Errorf("the next take: %v, %s; want refused, 1m", ok, retry)
	}
	// Buckets are independent.
	if ok, _ := take("b", t0.Add(10*time.Minute)); !ok {
		f.t.Error("another bucket's take was refused")
	}
	// A lower limit counts the takes already in the window.
	if ok, retry, err := f.s.Take(f.ctx, "a", 1, window, t0.Add(time.Hour+30*time.Minute)); ok || err != nil || retry != 30*time.Minute {
		f.t.Errorf("a lower limit: %v, %s, %v; want refused for 30m", ok, retry, err)
	}
	for _, bad := range []struct {
		bucket string
		limit  int
		window time.Duration
	}{{"", 1, time.Hour}, {"a", 0, time.Hour}, {"a", 1, 0}} {
		if _, _, err := f.s.Take(f.ctx, bad.bucket, bad.limit, bad.window, t0); err == nil {
			f.t.Errorf("Take(%q, %d, %s) took a slot", bad.bucket, bad.limit, bad.window)
		} else {
			f.is(err, store.ErrInvalid, "Take with bad arguments")
		}
	}
}

// testRateLimitsConcurrent takes from one bucket at once: exactly the limit
// succeed.
func testRateLimitsConcurrent(f *fixture) {
	const n, limit = 48, 10
	var took, refused atomic.Int32
	parallel(n, func(i int) {
		ok, retry, err := f.s.Take(f.ctx, "busy", limit, time.Hour, f.now.Add(time.Duration(i)*time.Millisecond))
		switch {
		case err != nil:
			f.t.Errorf("Take: %v", err)
		case ok:
			took.Add(1)
		case retry > 0:
			refused.Add(1)
		default:
			f.t.Error("a refused Take says nothing about when to retry")
		}
	})
	if took.Load() != limit || refused.Load() != n-limit {
		f.t.Errorf("%d takes succeeded and %d were refused, want %d and %d", took.Load(), refused.Load(), limit, n-limit)
	}
}

func testDropUnbound(f *fixture) {
	// A registration never logged goes, but its name number stays given.
	op, k := f.register("Scout")
	f.ok(f.s.DropUnbound(f.ctx, op.Key().Entry), "DropUnbound of a key entry")
	f.is(second(f.s.Operator(f.ctx, op.ID)), store.ErrNotFound, "an operator whose key entry was dropped")
	again, err := f.s.CreateOperator(f.ctx, f.newOperator(k, "Scout"))
	f.ok(err, "CreateOperator after a drop")
	if again.Name != "Scout #2" {
		f.t.Errorf("re-registered as %q, want Scout #2", again.Name)
	}

	// A rotation never logged goes, and the old key is current again.
	next := f.newKey()
	r := f.rotation(again.ID, k, next)
	_, err = f.s.RotateKey(f.ctx, r)
	f.ok(err, "RotateKey")
	f.ok(f.s.DropUnbound(f.ctx, r.Entry), "DropUnbound of a rotation")
	rec, _ := f.s.Operator(f.ctx, again.ID)
	if len(rec.Keys) != 1 || rec.Key().Key != pub(k) || !rec.Key().Current() {
		f.t.Errorf("after dropping the rotation, Keys = %+v", rec.Keys)
	}
	if _, err := f.s.OperatorByKey(f.ctx, digestOf(next)); err == nil {
		f.t.Error("the dropped rotation's key is still known")
	}
	_, err = f.s.RotateKey(f.ctx, f.rotation(again.ID, k, next))
	f.ok(err, "RotateKey to the same new key after the drop")

	// An identity never logged goes, and frees the code it used.
	sponsor, sk := f.sponsor("Sponsor", "example.org")
	inv := f.invite(sponsor.ID, sk, "example.org", f.now)
	_, err = f.s.CreateInvite(f.ctx, inv, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	user, _ := f.register("User")
	id := f.sponsored(user.ID, inv, f.now)
	_, err = f.s.AddIdentity(f.ctx, id)
	f.ok(err, "AddIdentity")
	f.ok(f.s.DropUnbound(f.ctx, id.Entry), "DropUnbound of an identity")
	if rec, _ := f.s.Operator(f.ctx, user.ID); len(rec.Identities) != 0 {
		f.t.Errorf("after dropping the identity: %+v", rec.Identities)
	}
	if got, _ := f.s.Invite(f.ctx, inv.Digest); got.UsedBy != "" || got.State(f.now) != "open" {
		f.t.Errorf("after dropping the identity, the invite = %+v", got)
	}
	_, err = f.s.AddIdentity(f.ctx, f.sponsored(user.ID, inv, f.now))
	f.ok(err, "AddIdentity with the freed code")

	// An operator with other records keeps its key entry.
	f.is(f.s.DropUnbound(f.ctx, user.Key().Entry), store.ErrConflict, "DropUnbound of the key entry of an operator with an identity")
	// A logged entry stays.
	f.bind(sponsor.Key().Entry)
	f.is(f.s.DropUnbound(f.ctx, sponsor.Key().Entry), store.ErrConflict, "DropUnbound of a logged entry")
}
