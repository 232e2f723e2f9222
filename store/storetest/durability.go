package storetest

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/store"
)

// testDurability writes one of everything, closes the store, opens it
// again, and finds everything as it was, including where the name numbers
// and the invite allowance stand.
func testDurability(f *fixture, reopen func(t *testing.T, s store.Store) store.Store) {
	sponsor, sk := f.sponsor("Scout", "example.org")
	named, namedKey := f.register("scout")
	nk := f.newKey()
	rotated, err := f.s.RotateKey(f.ctx, f.rotation(named.ID, namedKey, nk))
	f.ok(err, "RotateKey")
	f.ok(f.s.NoteModelFamily(f.ctx, named.ID, "gpt"), "NoteModelFamily")
	renaming := store.NameChange{Operator: sponsor.ID, Name: "Pathfinder", NameKey: "pathfinder", Entry: "sha256:" + Nonce() + Nonce(), Signed: f.now, At: f.now}
	renamed, _, err := f.s.Rename(f.ctx, renaming)
	f.ok(err, "Rename")
	inv := f.invite(sponsor.ID, sk, "example.org", f.now)
	_, err = f.s.CreateInvite(f.ctx, inv, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	user, _ := f.register("User")
	joined, err := f.s.AddIdentity(f.ctx, f.sponsored(user.ID, inv, f.now))
	f.ok(err, "AddIdentity")
	var bindings []store.Binding
	for i, d := range []string{sponsor.Key().Entry, sponsor.Identities[0].Entry, named.Key().Entry, rotated.Key().Entry} {
		bindings = append(bindings, store.Binding{Index: int64(i), Digest: d})
	}
	f.ok(f.s.BindIndexes(f.ctx, bindings), "BindIndexes")
	pendingDigest, pendingEntry, pendingLeaf := Entry(f.t, "op:x", map[string]any{"type": "key"})
	f.ok(f.s.PutSigned(f.ctx, pendingDigest, pendingEntry, pendingLeaf), "PutSigned")
	before := map[string]store.Operator{}
	for _, id := range []string{sponsor.ID, named.ID, user.ID} {
		before[id], err = f.s.Operator(f.ctx, id)
		f.ok(err, "Operator")
	}
	beforeSigned, err := f.s.Signed(f.ctx, 3)
	f.ok(err, "Signed")
	for range inviteLimit - 1 {
		_, err := f.s.CreateInvite(f.ctx, f.invite(sponsor.ID, sk, "example.org", f.now.Add(time.Second)), inviteLimit, inviteWindow)
		f.ok(err, "CreateInvite")
	}
	// A person's side: a consent, a waiting vouch, a confirmed account.
	consent := f.consent(sponsor.ID, sk, f.now)
	f.ok(second(f.s.CreateVouchConsent(f.ctx, consent, 10)), "CreateVouchConsent")
	f.ok(f.s.PutVouch(f.ctx, store.Vouch{Operator: named.ID, Voucher: "github:42", Login: "octo", VoucherSig: "x", At: f.now}), "PutVouch")
	pending := store.AccountRequest{Token: "sha256:" + Nonce(), Operator: user.ID, Email: "p@example.org", EmailKey: "p@example.org", Requested: f.now, Expires: f.now.Add(time.Hour)}
	listed := pending
	listed.Token, listed.Operator = "sha256:"+Nonce(), sponsor.ID
	f.ok(f.s.RequestAccount(f.ctx, pending), "RequestAccount")
	f.ok(f.s.RequestAccount(f.ctx, listed), "RequestAccount")
	f.ok(second(f.s.ConfirmAccount(f.ctx, listed.Token, f.now)), "ConfirmAccount")
	watch := store.DomainWatch{Pairing: consent.Pairing, Operator: sponsor.ID, Domain: "lab.example.org", Started: f.now, Until: f.now.Add(time.Hour)}
	f.ok(f.s.WatchDomain(f.ctx, watch), "WatchDomain")
	waiting := store.RecoveryRequest{Operator: named.ID, KeyDigest: "sha256:" + Nonce(), Key: "k", Voucher: "github:42", Since: 2,
		Entry: []byte(`{"since":2}`), Requested: f.now, Expires: f.now.Add(time.Hour)}
	f.ok(second(f.s.PutRecoveryRequest(f.ctx, waiting, 10)), "PutRecoveryRequest")
	f.ok(second(f.s.ApproveRecovery(f.ctx, named.ID, waiting.KeyDigest, "attested", f.now, f.now.Add(time.Hour))), "ApproveRecovery")

	f.s = reopen(f.t, f.s)

	if c, err := f.s.VouchConsent(f.ctx, consent.Pairing); err != nil || c.Sig != consent.Sig || c.State(f.now) != "open" {
		f.t.Errorf("the consent after reopening = %+v, %v", c, err)
	}
	if vs, err := f.s.Vouches(f.ctx, named.ID, f.now); err != nil || len(vs) != 1 || vs[0].Login != "octo" {
		f.t.Errorf("the vouches after reopening = %+v, %v", vs, err)
	}
	if r, err := f.s.AccountRequest(f.ctx, pending.Token); err != nil || r.Operator != user.ID || !r.Confirmed.IsZero() {
		f.t.Errorf("the pending account request after reopening = %+v, %v", r, err)
	}
	if agents, err := f.s.AccountAgents(f.ctx, "p@example.org"); err != nil || !slices.Equal(agents, []string{sponsor.ID}) {
		f.t.Errorf("the account after reopening = %v, %v", agents, err)
	}
	if ws, err := f.s.DomainWatches(f.ctx, f.now); err != nil || len(ws) != 1 || ws[0].Domain != watch.Domain {
		f.t.Errorf("the domain watches after reopening = %+v, %v", ws, err)
	}
	if r, err := f.s.RecoveryRequest(f.ctx, named.ID, waiting.KeyDigest); err != nil || r.State(f.now) != "approved" || r.VoucherSig != "attested" || r.Since != 2 {
		f.t.Errorf("the recovery request after reopening = %+v, %v", r, err)
	}

	for id, was := range before {
		now, err := f.s.Operator(f.ctx, id)
		f.ok(err, "Operator after reopening")
		if !sameOperator(was, now) {
			f.t.Errorf("%s after reopening:\n%+v\nwas\n%+v", id, now, was)
		}
	}
	if got := before[sponsor.ID]; got.Name != renamed.Name || got.Identities[0].Index != 1 {
		f.t.Errorf("the renamed sponsor = %+v", got)
	}
	if got := before[named.ID]; got.Name != "scout #2" || got.Keys[1].Since != 3 || got.ModelFamilies[0] != "gpt" {
		f.t.Errorf("the rotated operator = %+v", got)
	}
	if got := before[user.ID]; len(got.Identities) != 1 || got.Identities[0].Entry != joined.Entry {
		f.t.Errorf("the sponsored operator = %+v", got)
	}
	got, err := f.s.Signed(f.ctx, 3)
	f.ok(err, "Signed after reopening")
	if got.Digest != beforeSigned.Digest || !bytes.Equal(got.Entry, beforeSigned.Entry) || !bytes.Equal(got.Leaf, beforeSigned.Leaf) {
		f.t.Errorf("Signed(3) after reopening = %+v", got)
	}
	if unbound, err := f.s.Unbound(f.ctx); err != nil || len(unbound) != 3 || !slices.ContainsFunc(unbound, func(s store.Signed) bool { return s.Digest == pendingDigest }) {
		// The pending entry, the user's key entry and its identity.
		f.t.Errorf("Unbound after reopening = %d entries, %v", len(unbound), err)
	}
	if inv2, err := f.s.Invite(f.ctx, inv.Digest); err != nil || inv2.UsedBy != user.ID {
		f.t.Errorf("the invite after reopening = %+v, %v", inv2, err)
	}
	// Allocation goes on from where it stood.
	third, _ := f.register("SCOUT")
	if third.Name != "SCOUT #3" {
		f.t.Errorf("a name registered after reopening shows as %q, want SCOUT #3", third.Name)
	}
	f.is(second(f.s.CreateInvite(f.ctx, f.invite(sponsor.ID, sk, "example.org", f.now.Add(time.Minute)), inviteLimit, inviteWindow)),
		store.ErrLimit, "a fourth invite after reopening")
	f.is(second(f.s.CreateOperator(f.ctx, f.newOperator(nk, "Thief"))), store.ErrKeyUsed, "a rotated-to key after reopening")
	// A rename's entry is still known: sent again, it changes nothing.
	f.is(thirdErr(f.s.Rename(f.ctx, renaming)), store.ErrDuplicate, "the same rename entry after reopening")
}

func sameOperator(a, b store.Operator) bool {
	if a.ID != b.ID || a.Name != b.Name || a.NameBase != b.NameBase || a.NameKey != b.NameKey || a.NameNumber != b.NameNumber ||
		a.Model != b.Model || !slices.Equal(a.KeyFamilies, b.KeyFamilies) || !slices.Equal(a.ModelFamilies, b.ModelFamilies) ||
		!a.Registered.Equal(b.Registered) || len(a.Keys) != len(b.Keys) || len(a.Identities) != len(b.Identities) {
		return false
	}
	for i := range a.Keys {
		x, y := a.Keys[i], b.Keys[i]
		if x.Key != y.Key || x.Digest != y.Digest || x.Entry != y.Entry || x.Since != y.Since || x.RetiredBy != y.RetiredBy ||
			x.Until != y.Until || !x.Added.Equal(y.Added) || !x.Retired.Equal(y.Retired) {
			return false
		}
	}
	for i := range a.Identities {
		x, y := a.Identities[i], b.Identities[i]
		if x != y && !(x.Operator == y.Operator && x.Kind == y.Kind && x.Organization == y.Organization && x.Subject == y.Subject &&
			x.Entry == y.Entry && x.Index == y.Index && x.Invite == y.Invite && x.Added.Equal(y.Added)) {
			return false
		}
	}
	return true
}
