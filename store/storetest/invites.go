package storetest

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/store"
)

const (
	inviteLimit  = 3
	inviteWindow = 30 * 24 * time.Hour
)

// sponsor registers an operator that proved domain, and returns it with its
// key.
func (f *fixture) sponsor(name, domain string) (store.Operator, *hybrid.PrivateKey) {
	f.t.Helper()
	op, k := f.register(name)
	_, err := f.s.AddIdentity(f.ctx, f.identity(op.ID, "domain", domain, domain))
	f.ok(err, "AddIdentity")
	op, err = f.s.Operator(f.ctx, op.ID)
	f.ok(err, "Operator")
	return op, k
}

func testInvites(f *fixture) {
	sponsor, sk := f.sponsor("Sponsor", "example.org")
	inv := f.invite(sponsor.ID, sk, "example.org", f.now)
	made, err := f.s.CreateInvite(f.ctx, inv, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	got, err := f.s.Invite(f.ctx, inv.Digest)
	f.ok(err, "Invite")
	for _, rec := range []store.Invite{made, got} {
		if rec.Digest != inv.Digest || rec.Sponsor != sponsor.ID || rec.SponsorKey != inv.SponsorKey || rec.SponsorSig != inv.SponsorSig ||
			rec.Organization != "example.org" || !rec.Created.Equal(inv.Created) || !rec.Expires.Equal(inv.Expires) ||
			rec.UsedBy != "" || rec.Void || rec.State(f.now) != "open" {
			f.t.Errorf("the invite = %+v", rec)
		}
	}
	dup, err := f.s.CreateInvite(f.ctx, inv, inviteLimit, inviteWindow)
	f.is(err, store.ErrDuplicate, "CreateInvite again")
	if dup.Digest != inv.Digest {
		f.t.Errorf("CreateInvite again returned %+v", dup)
	}
	stale := f.invite(sponsor.ID, f.newKey(), "example.org", f.now)
	f.is(second(f.s.CreateInvite(f.ctx, stale, inviteLimit, inviteWindow)), store.ErrKeyChanged, "CreateInvite signed by another key")

	// An operator uses it and joins the sponsor's organization.
	user, _ := f.register("User")
	id := f.sponsored(user.ID, inv, f.now.Add(time.Hour))
	id.Organization = "somewhere.else"
	joined, err := f.s.AddIdentity(f.ctx, id)
	f.ok(err, "AddIdentity sponsored")
	if joined.Kind != "sponsored" || joined.Organization != "example.org" || joined.Subject != sponsor.ID || joined.Invite != inv.Digest {
		f.t.Errorf("the sponsored identity = %+v", joined)
	}
	got, _ = f.s.Invite(f.ctx, inv.Digest)
	if got.UsedBy != user.ID || got.UsedEntry != id.Entry || !got.UsedAt.Equal(id.Added) || got.State(f.now) != "used" {
		f.t.Errorf("the used invite = %+v", got)
	}
	// The same use again stands; another operator can't use it.
	_, err = f.s.AddIdentity(f.ctx, f.sponsored(user.ID, inv, f.now.Add(2*time.Hour)))
	f.is(err, store.ErrDuplicate, "AddIdentity sponsored again")
	late, _ := f.register("Late")
	f.is(second(f.s.AddIdentity(f.ctx, f.sponsored(late.ID, inv, f.now.Add(time.Hour)))), store.ErrInviteUsed, "a used invite")

	// A code lapses 30 days after it was made.
	old := f.invite(sponsor.ID, sk, "example.org", f.now.Add(time.Minute))
	_, err = f.s.CreateInvite(f.ctx, old, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	f.is(second(f.s.AddIdentity(f.ctx, f.sponsored(late.ID, old, old.Expires))), store.ErrInviteVoid, "a lapsed invite")
	if rec, _ := f.s.Invite(f.ctx, old.Digest); rec.State(old.Expires) != "expired" || rec.UsedBy != "" {
		f.t.Errorf("a lapsed invite = %+v", rec)
	}
	// A sponsor can't use its own code.
	f.is(second(f.s.AddIdentity(f.ctx, f.sponsored(sponsor.ID, old, f.now))), store.ErrConflict, "a sponsor's own invite")
	// Unknown codes.
	unknown := old
	unknown.Digest = "sha256:" + nonce()
	f.is(second(f.s.AddIdentity(f.ctx, f.sponsored(late.ID, unknown, f.now))), store.ErrNotFound, "an unknown invite")

	// Changing keys voids the codes the old key made that no one used.
	rotator, rk := f.sponsor("Rotator", "other.org")
	open := f.invite(rotator.ID, rk, "other.org", f.now)
	_, err = f.s.CreateInvite(f.ctx, open, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	_, err = f.s.RotateKey(f.ctx, f.rotation(rotator.ID, rk, f.newKey()))
	f.ok(err, "RotateKey")
	if rec, _ := f.s.Invite(f.ctx, open.Digest); !rec.Void || rec.State(f.now) != "void" {
		f.t.Errorf("an invite after its sponsor rotated = %+v", rec)
	}
	f.is(second(f.s.AddIdentity(f.ctx, f.sponsored(late.ID, open, f.now))), store.ErrInviteVoid, "a voided invite")
	f.is(second(f.s.CreateInvite(f.ctx, f.invite(rotator.ID, rk, "other.org", f.now), inviteLimit, inviteWindow)),
		store.ErrKeyChanged, "CreateInvite with the retired key")
	if rec, _ := f.s.Operator(f.ctx, late.ID); len(rec.Identities) != 0 {
		f.t.Errorf("failed uses left identities: %+v", rec.Identities)
	}
}

func testInviteLimit(f *fixture) {
	sponsor, sk := f.sponsor("Sponsor", "example.org")
	// Another operator of the organization shares its allowance.
	colleague, ck := f.sponsor("Colleague", "example.org")
	t0 := f.now
	for i, at := range []time.Time{t0, t0.Add(24 * time.Hour), t0.Add(48 * time.Hour)} {
		who, k := sponsor, sk
		if i == 1 {
			who, k = colleague, ck
		}
		_, err := f.s.CreateInvite(f.ctx, f.invite(who.ID, k, "example.org", at), inviteLimit, inviteWindow)
		f.ok(err, "CreateInvite")
	}
	fourth := t0.Add(10 * 24 * time.Hour)
	_, err := f.s.CreateInvite(f.ctx, f.invite(sponsor.ID, sk, "example.org", fourth), inviteLimit, inviteWindow)
	var limit *store.LimitError
	if !errors.As(err, &limit) || !errors.Is(err, store.ErrLimit) {
		f.t.Fatalf("a fourth invite in 30 days: %v, want a *LimitError", err)
	}
	if want := t0.Add(inviteWindow).Sub(fourth); limit.RetryAfter != want {
		f.t.Errorf("RetryAfter = %s, want %s", limit.RetryAfter, want)
	}
	if n, err := f.s.InvitesMade(f.ctx, "example.org", fourth.Add(-inviteWindow)); err != nil || n != 3 {
		f.t.Errorf("InvitesMade = %d, %v; want 3", n, err)
	}
	// Another organization has its own allowance.
	other, ok := f.sponsor("Other", "other.org")
	_, err = f.s.CreateInvite(f.ctx, f.invite(other.ID, ok, "other.org", fourth), inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite for another organization")
	// Once the first code is 30 days old, one more may be made.
	_, err = f.s.CreateInvite(f.ctx, f.invite(sponsor.ID, sk, "example.org", t0.Add(inviteWindow)), inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite after the window moved")
	if n, _ := f.s.InvitesMade(f.ctx, "example.org", t0.Add(inviteWindow).Add(-inviteWindow)); n != 3 {
		f.t.Errorf("InvitesMade in the window that moved = %d, want 3", n)
	}
}

// testInviteLimitConcurrent makes many codes for one organization at once:
// no more than the limit are made.
func testInviteLimitConcurrent(f *fixture) {
	sponsor, sk := f.sponsor("Sponsor", "example.org")
	const n = 12
	var made, limited atomic.Int32
	parallel(n, func(i int) {
		_, err := f.s.CreateInvite(f.ctx, f.invite(sponsor.ID, sk, "example.org", f.now.Add(time.Duration(i)*time.Second)), inviteLimit, inviteWindow)
		switch {
		case err == nil:
			made.Add(1)
		case errors.Is(err, store.ErrLimit):
			limited.Add(1)
		default:
			f.t.Errorf("CreateInvite: %v", err)
		}
	})
	if made.Load() != inviteLimit || limited.Load() != n-inviteLimit {
		f.t.Errorf("%d invites made and %d refused, want %d and %d", made.Load(), limited.Load(), inviteLimit, n-inviteLimit)
	}
}

// testInviteUseConcurrent has many operators use one code at once: one
// joins, the rest find it used.
func testInviteUseConcurrent(f *fixture) {
	sponsor, sk := f.sponsor("Sponsor", "example.org")
	inv := f.invite(sponsor.ID, sk, "example.org", f.now)
	_, err := f.s.CreateInvite(f.ctx, inv, inviteLimit, inviteWindow)
	f.ok(err, "CreateInvite")
	const n = 12
	ids := make([]store.Identity, n)
	for i := range ids {
		op, _ := f.register("User")
		ids[i] = f.sponsored(op.ID, inv, f.now)
	}
	var won, used atomic.Int32
	winner := make([]bool, n)
	parallel(n, func(i int) {
		_, err := f.s.AddIdentity(f.ctx, ids[i])
		switch {
		case err == nil:
			won.Add(1)
			winner[i] = true
		case errors.Is(err, store.ErrInviteUsed):
			used.Add(1)
		default:
			f.t.Errorf("AddIdentity: %v", err)
		}
	})
	if won.Load() != 1 || used.Load() != n-1 {
		f.t.Fatalf("%d operators joined and %d found the code used, want 1 and %d", won.Load(), used.Load(), n-1)
	}
	got, _ := f.s.Invite(f.ctx, inv.Digest)
	for i, w := range winner {
		if w && got.UsedBy != ids[i].Operator {
			f.t.Errorf("the invite names %s, but %s joined", got.UsedBy, ids[i].Operator)
		}
		rec, _ := f.s.Operator(f.ctx, ids[i].Operator)
		if (len(rec.Identities) == 1) != w {
			f.t.Errorf("%s: identities %+v, joined %v", ids[i].Operator, rec.Identities, w)
		}
	}
}
