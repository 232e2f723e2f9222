package storetest

import (
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/store"
)

// consent returns a consent op (holding key k) gives at created.
func (f *fixture) consent(op string, k *hybrid.PrivateKey, created time.Time) store.VouchConsent {
	return store.VouchConsent{
		Pairing:     "sha256:" + nonce() + nonce(),
		Operator:    op,
		OperatorKey: digestOf(k),
		Sig:         "ed25519-ml-dsa-44:" + nonce(),
		Created:     created,
		Expires:     created.Add(30 * 24 * time.Hour),
	}
}

// paired puts a paired vouch entry for op completing consent c.
func (f *fixture) paired(op, voucher string, c store.VouchConsent, at time.Time) store.Identity {
	f.t.Helper()
	return store.Identity{
		Operator: op, Kind: "vouched", Organization: voucher, Subject: voucher,
		Entry:   f.put(op, map[string]any{"type": "identity", "kind": "vouched", "operator": op, "voucher": voucher, "pairing": c.Pairing}),
		Index:   store.Unlogged,
		Pairing: c.Pairing,
		Added:   at,
	}
}

// testVouchConsents records consents, keeps only an operator's newest
// open ones, and uses one once, as a paired vouch's AddIdentity does; a
// dropped vouch frees it, and a key change voids the rest.
func testVouchConsents(f *fixture) {
	op, k := f.register("Paired")
	first := f.consent(op.ID, k, f.now)
	got, err := f.s.CreateVouchConsent(f.ctx, first, 3)
	f.ok(err, "CreateVouchConsent")
	if got.Pairing != first.Pairing || got.Operator != op.ID || got.Sig != first.Sig || got.State(f.now) != "open" {
		f.t.Errorf("the consent = %+v", got)
	}
	dup, err := f.s.CreateVouchConsent(f.ctx, first, 3)
	f.is(err, store.ErrDuplicate, "CreateVouchConsent again")
	if dup.Pairing != first.Pairing {
		f.t.Errorf("CreateVouchConsent again returned %+v", dup)
	}
	other, _ := f.register("Other")
	stolen := first
	stolen.Operator = other.ID
	f.is(second(f.s.CreateVouchConsent(f.ctx, stolen, 3)), store.ErrConflict, "another operator's pairing")
	f.is(second(f.s.CreateVouchConsent(f.ctx, f.consent(op.ID, f.newKey(), f.now), 3)), store.ErrKeyChanged, "a consent signed by another key")

	// Three more: the first, the oldest, goes.
	var later []store.VouchConsent
	for i := range 3 {
		c := f.consent(op.ID, k, f.now.Add(time.Duration(i+1)*time.Minute))
		f.ok(second(f.s.CreateVouchConsent(f.ctx, c, 3)), "CreateVouchConsent")
		later = append(later, c)
	}
	f.is(second(f.s.VouchConsent(f.ctx, first.Pairing)), store.ErrNotFound, "a consent past the newest 3")

	// A paired vouch uses one, once; another operator can't.
	c := later[0]
	f.is(second(f.s.AddIdentity(f.ctx, f.paired(other.ID, "github:7", c, f.now.Add(time.Hour)))), store.ErrConflict, "another operator's consent")
	id := f.paired(op.ID, "github:7", c, f.now.Add(time.Hour))
	added, err := f.s.AddIdentity(f.ctx, id)
	f.ok(err, "AddIdentity paired")
	if added.Kind != "vouched" || added.Organization != "github:7" {
		f.t.Errorf("the paired identity = %+v", added)
	}
	used, _ := f.s.VouchConsent(f.ctx, c.Pairing)
	if used.State(f.now) != "used" || used.UsedEntry != id.Entry {
		f.t.Errorf("the used consent = %+v", used)
	}
	f.ok(f.s.DropUnbound(f.ctx, id.Entry), "DropUnbound")
	freed, _ := f.s.VouchConsent(f.ctx, c.Pairing)
	if freed.State(f.now) != "open" || freed.UsedEntry != "" {
		f.t.Errorf("a dropped vouch's consent = %+v", freed)
	}
	f.is(second(f.s.AddIdentity(f.ctx, f.paired(op.ID, "github:7", later[1], later[1].Expires))), store.ErrConsentVoid, "a lapsed consent")
	f.ok(second(f.s.AddIdentity(f.ctx, f.paired(op.ID, "github:7", c, f.now.Add(time.Hour)))), "AddIdentity with the freed consent")

	// A rotation voids the open consents.
	f.ok(second(f.s.RotateKey(f.ctx, f.rotation(op.ID, k, f.newKey()))), "RotateKey")
	void, _ := f.s.VouchConsent(f.ctx, later[2].Pairing)
	if void.State(f.now) != "void" {
		f.t.Errorf("a consent after a rotation = %+v", void)
	}
}

// testConsentUseConcurrent has many paired vouches race for one consent:
// exactly one identity stands on it.
func testConsentUseConcurrent(f *fixture) {
	op, k := f.register("Raced")
	c := f.consent(op.ID, k, f.now)
	f.ok(second(f.s.CreateVouchConsent(f.ctx, c, 10)), "CreateVouchConsent")
	ids := make([]store.Identity, 8)
	for i := range ids {
		ids[i] = f.paired(op.ID, "github:"+string(rune('1'+i)), c, f.now)
	}
	var won atomic.Int32
	parallel(len(ids), func(i int) {
		if _, err := f.s.AddIdentity(f.ctx, ids[i]); err == nil {
			won.Add(1)
		}
	})
	if won.Load() != 1 {
		f.t.Errorf("%d paired vouches used one consent", won.Load())
	}
}

// testVouchesAndAccounts keeps waiting vouches, one per voucher, and
// account requests from request to listing.
func testVouchesAndAccounts(f *fixture) {
	op, _ := f.register("Vouched")
	v := store.Vouch{Operator: op.ID, Voucher: "github:42", Login: "octo", VoucherSig: "ed25519-ml-dsa-44:" + nonce(), At: f.now}
	f.ok(f.s.PutVouch(f.ctx, v), "PutVouch")
	v.Login, v.At = "octo-renamed", f.now.Add(time.Minute)
	f.ok(f.s.PutVouch(f.ctx, v), "PutVouch again")
	f.ok(f.s.PutVouch(f.ctx, store.Vouch{Operator: op.ID, Voucher: "github:43", VoucherSig: "x", At: f.now.Add(-time.Hour)}), "PutVouch old")
	got, err := f.s.Vouches(f.ctx, op.ID, f.now.Add(-time.Minute))
	f.ok(err, "Vouches")
	if len(got) != 1 || got[0].Login != "octo-renamed" || !got[0].At.Equal(v.At) || got[0].VoucherSig != v.VoucherSig {
		f.t.Errorf("Vouches = %+v", got)
	}
	f.is(f.s.PutVouch(f.ctx, store.Vouch{Operator: "op:" + nonce() + nonce(), Voucher: "github:1", VoucherSig: "x", At: f.now}), store.ErrNotFound, "a vouch for no operator")

	other, _ := f.register("Listed")
	req := func(operator, email string, at time.Time) store.AccountRequest {
		return store.AccountRequest{Token: "sha256:" + nonce() + nonce(), Operator: operator, Email: email, EmailKey: strings.ToLower(email),
			Requested: at, Expires: at.Add(7 * 24 * time.Hour)}
	}
	r1 := req(op.ID, "Person@Example.org", f.now)
	f.ok(f.s.RequestAccount(f.ctx, r1), "RequestAccount")
	f.is(f.s.RequestAccount(f.ctx, r1), store.ErrDuplicate, "RequestAccount again")
	r2 := req(op.ID, "person@example.org", f.now.Add(time.Minute))
	f.ok(f.s.RequestAccount(f.ctx, r2), "RequestAccount restarted")
	f.is(second(f.s.AccountRequest(f.ctx, r1.Token)), store.ErrNotFound, "a request asked again")
	f.is(second(f.s.ConfirmAccount(f.ctx, r2.Token, r2.Expires)), store.ErrConflict, "a lapsed request")
	confirmed, err := f.s.ConfirmAccount(f.ctx, r2.Token, f.now.Add(time.Hour))
	f.ok(err, "ConfirmAccount")
	if confirmed.Operator != op.ID || confirmed.Confirmed.IsZero() {
		f.t.Errorf("ConfirmAccount = %+v", confirmed)
	}
	f.is(second(f.s.ConfirmAccount(f.ctx, r2.Token, f.now.Add(time.Hour))), store.ErrDuplicate, "ConfirmAccount again")
	r3 := req(other.ID, "person@example.org", f.now)
	f.ok(f.s.RequestAccount(f.ctx, r3), "RequestAccount")
	f.ok(second(f.s.ConfirmAccount(f.ctx, r3.Token, f.now.Add(2*time.Hour))), "ConfirmAccount")
	agents, err := f.s.AccountAgents(f.ctx, "person@example.org")
	f.ok(err, "AccountAgents")
	if !slices.Equal(agents, []string{op.ID, other.ID}) {
		f.t.Errorf("AccountAgents = %v", agents)
	}
	// Another address moves the operator once confirmed.
	r4 := req(op.ID, "elsewhere@example.org", f.now)
	f.ok(f.s.RequestAccount(f.ctx, r4), "RequestAccount")
	f.ok(second(f.s.ConfirmAccount(f.ctx, r4.Token, f.now.Add(3*time.Hour))), "ConfirmAccount")
	agents, _ = f.s.AccountAgents(f.ctx, "person@example.org")
	if !slices.Equal(agents, []string{other.ID}) {
		f.t.Errorf("AccountAgents after a move = %v", agents)
	}
	f.is(second(f.s.ConfirmAccount(f.ctx, "sha256:"+nonce(), f.now)), store.ErrNotFound, "an unknown token")
}

// testDomainWatches keeps the domains people named from pairing links
// until they lapse or are dropped.
func testDomainWatches(f *fixture) {
	op, _ := f.register("Watched")
	w := store.DomainWatch{Pairing: "sha256:" + nonce(), Operator: op.ID, Domain: "lab.example.org", Started: f.now, Until: f.now.Add(48 * time.Hour)}
	f.ok(f.s.WatchDomain(f.ctx, w), "WatchDomain")
	w.Domain = "example.org"
	f.ok(f.s.WatchDomain(f.ctx, w), "WatchDomain again")
	short := store.DomainWatch{Pairing: "sha256:" + nonce(), Operator: op.ID, Domain: "other.example", Started: f.now, Until: f.now.Add(time.Hour)}
	f.ok(f.s.WatchDomain(f.ctx, short), "WatchDomain")
	f.is(f.s.WatchDomain(f.ctx, store.DomainWatch{Pairing: "sha256:x", Operator: "op:" + nonce() + nonce(), Domain: "x.org", Started: f.now, Until: f.now.Add(time.Hour)}),
		store.ErrNotFound, "a watch for no operator")
	got, err := f.s.DomainWatches(f.ctx, f.now.Add(2*time.Hour))
	f.ok(err, "DomainWatches")
	if len(got) != 1 || got[0].Domain != "example.org" || !got[0].Until.Equal(w.Until) {
		f.t.Errorf("DomainWatches = %+v", got)
	}
	f.ok(f.s.DropDomainWatches(f.ctx, []string{w.Pairing}, f.now), "DropDomainWatches")
	if got, _ := f.s.DomainWatches(f.ctx, f.now); len(got) != 1 || got[0].Pairing != short.Pairing {
		f.t.Errorf("DomainWatches after a drop = %+v", got)
	}
	f.ok(f.s.DropDomainWatches(f.ctx, nil, short.Until), "DropDomainWatches of the lapsed")
	if got, _ := f.s.DomainWatches(f.ctx, f.now); len(got) != 0 {
		f.t.Errorf("DomainWatches after the lapsed went = %+v", got)
	}
}
