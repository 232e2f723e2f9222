package operators

import (
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/protocol"
)

func TestNewInviteCode(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		code, err := NewInviteCode()
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckInviteCode(code); err != nil || len(code) != len("invite:")+32 {
			t.Fatalf("NewInviteCode() = %q: %v", code, err)
		}
		if seen[code] {
			t.Fatalf("NewInviteCode() gave %q twice", code)
		}
		seen[code] = true
	}
}

func TestCheckInviteCode(t *testing.T) {
	for code, ok := range map[string]bool{
		"invite:" + strings.Repeat("a", 32):        true,
		"invite:" + strings.Repeat("z7", 16):       true,
		"invite:" + strings.Repeat("a", 31):        false,
		"invite:" + strings.Repeat("a", 33):        false,
		"invite:" + strings.Repeat("A", 32):        false, // lowercase only
		"invite:" + strings.Repeat("1", 32):        false, // base32 has no 0, 1, 8, 9
		"invite:" + strings.Repeat("a", 30) + "==": false,
		"pair:" + strings.Repeat("a", 32):          false,
		strings.Repeat("a", 32):                    false,
		"":                                         false,
	} {
		err := CheckInviteCode(code)
		if ok && err != nil {
			t.Errorf("CheckInviteCode(%q) = %v", code, err)
		}
		if !ok {
			wantErr(t, "CheckInviteCode("+code+")", err, ErrInvalidInvite, "/code")
		}
	}
}

func TestInviteDigest(t *testing.T) {
	// printf %s 'invite:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | sha256sum
	code := "invite:" + strings.Repeat("a", 32)
	const want = "sha256:146d736b0ecb8377a8290ce82174b55cd23ae66911f20fbb04172542c6eb6958"
	if got := InviteDigest(code); got != want {
		t.Errorf("InviteDigest(%q) = %q, want %q", code, got, want)
	}
}

func TestCheckInviteEntry(t *testing.T) {
	k, other := key(t, 0), key(t, 1)
	sponsor := protocol.OperatorID(pub(k))
	signer := Signer{Operator: sponsor, Key: pub(k)}
	code, _ := NewInviteCode()
	entry := signed(t, k, map[string]any{"type": "invite", "sponsor": sponsor, "code": code})
	inv, err := CheckInviteEntry(entry, signer)
	if err != nil || inv.Code != code || inv.Digest != InviteDigest(code) || inv.SponsorSig != entry["sig"] {
		t.Fatalf("CheckInviteEntry = %+v, %v", inv, err)
	}
	// The invitee countersigns exactly this signature: it verifies over
	// the invite payload.
	payload, _ := InvitePayload(sponsor, code)
	if !k.Public().Verify(payload, inv.SponsorSig) {
		t.Error("the invite's sig is not over InvitePayload")
	}
	for _, tc := range []struct {
		why   string
		entry map[string]any
		want  *Sentinel
		field string
	}{
		{"another sponsor", signed(t, k, map[string]any{"type": "invite", "sponsor": protocol.OperatorID(pub(other)), "code": code}), ErrWrongOperator, "/sponsor"},
		{"bad code", signed(t, k, map[string]any{"type": "invite", "sponsor": sponsor, "code": "invite:nope"}), ErrInvalidInvite, "/code"},
		{"names a model", signed(t, k, map[string]any{"type": "invite", "sponsor": sponsor, "code": code, "model": "m"}), ErrMalformed, "/model"},
		{"signed by another key", signed(t, other, map[string]any{"type": "invite", "sponsor": sponsor, "code": code}), ErrBadSignature, "/sig"},
		{"no sig", map[string]any{"type": "invite", "sponsor": sponsor, "code": code}, ErrMalformed, "/sig"},
	} {
		_, err := CheckInviteEntry(tc.entry, signer)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
}

func TestCanSponsor(t *testing.T) {
	for _, tc := range []struct {
		kinds []string
		want  bool
	}{
		{[]string{"domain"}, true},
		{[]string{"github"}, true},
		{[]string{"vouched"}, true},
		{[]string{"sponsored", "github"}, true},
		{[]string{"sponsored"}, false},
		{[]string{"invited"}, false},
		{[]string{"sponsored", "invited"}, false},
		{nil, false},
	} {
		if got := CanSponsor(tc.kinds); got != tc.want {
			t.Errorf("CanSponsor(%v) = %v", tc.kinds, got)
		}
		if err := CheckCanSponsor(tc.kinds); (err == nil) != tc.want {
			t.Errorf("CheckCanSponsor(%v) = %v", tc.kinds, err)
		}
	}
	made := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	if got := InviteExpires(made); !got.Equal(made.AddDate(0, 0, 30)) {
		t.Errorf("InviteExpires = %v", got)
	}
}
