package storetest

import (
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
)

// testRecoveryRequests keeps a vouched operator's requests for a new key:
// asking again replaces one not approved, only the newest open ones stay,
// an approval is given once and within the wait, and an approved request
// stands against asking again until its countersignature's deadline.
func testRecoveryRequests(f *fixture) {
	op, _ := f.register("Recovering")
	req := func(key string, at time.Time, since uint64) store.RecoveryRequest {
		return store.RecoveryRequest{Operator: op.ID, KeyDigest: "sha256:" + key, Key: "ed25519-ml-dsa-44:" + key, Voucher: "github:42",
			Since: since, Entry: []byte(fmt.Sprintf(`{"since":%d}`, since)), Requested: at, Expires: at.Add(7 * 24 * time.Hour)}
	}
	key := nonce() + nonce()
	got, err := f.s.PutRecoveryRequest(f.ctx, req(key, f.now, 3), 2)
	f.ok(err, "PutRecoveryRequest")
	if got.State(f.now) != "waiting" || got.Since != 3 || string(got.Entry) != `{"since":3}` {
		f.t.Errorf("PutRecoveryRequest = %+v", got)
	}
	got, err = f.s.PutRecoveryRequest(f.ctx, req(key, f.now.Add(time.Minute), 5), 2)
	f.ok(err, "PutRecoveryRequest again")
	if got.Since != 5 || !got.Requested.Equal(f.now.Add(time.Minute)) {
		f.t.Errorf("asking again = %+v", got)
	}
	f.is(second(f.s.PutRecoveryRequest(f.ctx, store.RecoveryRequest{Operator: "op:" + nonce() + nonce(), KeyDigest: "sha256:x", Key: "k",
		Voucher: "github:1", Entry: []byte("{}"), Requested: f.now, Expires: f.now.Add(time.Hour)}, 2)), store.ErrNotFound, "a request for no operator")

	f.is(second(f.s.ApproveRecovery(f.ctx, op.ID, "sha256:none", "sig", f.now, f.now.Add(time.Hour))), store.ErrNotFound, "approving no request")
	f.is(second(f.s.ApproveRecovery(f.ctx, op.ID, "sha256:"+key, "sig", f.now.Add(8*24*time.Hour), f.now.Add(9*24*time.Hour))), store.ErrConflict, "approving a lapsed request")
	at := f.now.Add(time.Hour)
	got, err = f.s.ApproveRecovery(f.ctx, op.ID, "sha256:"+key, "ed25519-ml-dsa-44:attested", at, at.Add(7*24*time.Hour))
	f.ok(err, "ApproveRecovery")
	if got.State(at) != "approved" || !got.Approved.Equal(at) || got.VoucherSig != "ed25519-ml-dsa-44:attested" || !got.Expires.Equal(at.Add(7*24*time.Hour)) {
		f.t.Errorf("ApproveRecovery = %+v", got)
	}
	f.is(second(f.s.ApproveRecovery(f.ctx, op.ID, "sha256:"+key, "other", at, at.Add(time.Hour))), store.ErrDuplicate, "approving twice")
	again, err := f.s.PutRecoveryRequest(f.ctx, req(key, at.Add(time.Minute), 9), 2)
	f.is(err, store.ErrDuplicate, "asking again after the approval")
	if again.Since != 5 || again.VoucherSig != got.VoucherSig {
		f.t.Errorf("asking again after the approval replaced it: %+v", again)
	}

	// Only the newest 2 unapproved requests stay; the approved one too.
	for i := range 3 {
		f.ok(second(f.s.PutRecoveryRequest(f.ctx, req(nonce()+nonce(), at.Add(time.Duration(i+2)*time.Minute), 9), 2)), "PutRecoveryRequest")
	}
	open, err := f.s.RecoveryRequests(f.ctx, op.ID, at)
	f.ok(err, "RecoveryRequests")
	if len(open) != 3 || open[2].KeyDigest != "sha256:"+key {
		f.t.Errorf("RecoveryRequests = %d requests, want the newest 2 and the approved one", len(open))
	}
	if open, _ := f.s.RecoveryRequests(f.ctx, op.ID, at.Add(30*24*time.Hour)); len(open) != 0 {
		f.t.Errorf("RecoveryRequests after they lapsed = %d", len(open))
	}
	f.ok(f.s.DropRecoveryRequest(f.ctx, op.ID, "sha256:"+key), "DropRecoveryRequest")
	f.is(second(f.s.RecoveryRequest(f.ctx, op.ID, "sha256:"+key)), store.ErrNotFound, "a dropped request")
}
