package store

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"time"
)

func TestErrors(t *testing.T) {
	wrapped := fmt.Errorf("driver: no operator op:1: %w", ErrNotFound)
	if !errors.Is(wrapped, ErrNotFound) || !errors.Is(wrapped, fs.ErrNotExist) {
		t.Error("ErrNotFound does not wrap fs.ErrNotExist")
	}
	for _, err := range []error{ErrKeyUsed, ErrKeyChanged, ErrIdentityTaken, ErrInviteUsed, ErrInviteVoid} {
		if !errors.Is(fmt.Errorf("x: %w", err), ErrConflict) || errors.Is(err, ErrDuplicate) {
			t.Errorf("%v does not wrap ErrConflict alone", err)
		}
	}
	var limit *LimitError
	err := fmt.Errorf("x: %w", &LimitError{What: "invites", RetryAfter: time.Hour})
	if !errors.Is(err, ErrLimit) || !errors.As(err, &limit) || limit.RetryAfter != time.Hour {
		t.Errorf("a LimitError: %v", err)
	}
}

func TestOperatorKeys(t *testing.T) {
	op := Operator{Keys: []Key{
		{Key: "k0", Since: 3, RetiredBy: "r1", Until: 7},
		{Key: "k1", Since: 7, RetiredBy: "r2", Until: Unlogged},
		{Key: "k2", Since: Unlogged},
	}}
	if op.Key().Key != "k2" || !op.Key().Current() || op.Keys[0].Current() {
		t.Errorf("Key() = %+v", op.Key())
	}
	for _, tc := range []struct {
		at   int64
		want string
	}{{3, ""}, {4, "k0"}, {7, "k0"}, {8, "k1"}, {1000, "k1"}} {
		got, ok := op.KeyAt(tc.at)
		if got.Key != tc.want || ok != (tc.want != "") {
			t.Errorf("KeyAt(%d) = %q, %v; want %q", tc.at, got.Key, ok, tc.want)
		}
	}
	if (&Operator{}).Key() != (Key{}) {
		t.Error("an operator without keys has a key")
	}
}

func TestIdentities(t *testing.T) {
	op := Operator{Identities: []Identity{{Kind: "invited"}, {Kind: "sponsored"}, {Kind: "github"}, {Kind: "domain"}, {Kind: "vouched"}}}
	SortIdentities(op.Identities)
	if got := op.IdentityKinds(); !slices.Equal(got, []string{"domain", "github", "vouched", "sponsored", "invited"}) {
		t.Errorf("sorted kinds = %v", got)
	}
	if id, ok := op.Identity(); !ok || id.Kind != "domain" {
		t.Errorf("Identity() = %+v, %v", id, ok)
	}
	if _, ok := (&Operator{}).Identity(); ok {
		t.Error("an operator without identities has one")
	}
}

func TestInviteState(t *testing.T) {
	made := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	inv := Invite{Created: made, Expires: made.AddDate(0, 0, 30)}
	for _, tc := range []struct {
		inv  Invite
		at   time.Time
		want string
	}{
		{inv, made, "open"},
		{inv, inv.Expires.Add(-time.Nanosecond), "open"},
		{inv, inv.Expires, "expired"},
		{Invite{Expires: inv.Expires, Void: true}, made, "void"},
		{Invite{Expires: inv.Expires, Void: true, UsedBy: "op:1"}, inv.Expires, "used"},
	} {
		if got := tc.inv.State(tc.at); got != tc.want {
			t.Errorf("State(%v) of %+v = %q, want %q", tc.at, tc.inv, got, tc.want)
		}
	}
}
