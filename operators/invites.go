package operators

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/vocabulary"
)

// InviteCodePrefix starts every invite code.
const InviteCodePrefix = "invite:"

var (
	inviteCodePattern = regexp.MustCompile(`^invite:[a-z2-7]{32}$`)
	base32Lower       = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)
)

// NewInviteCode makes an invite code: "invite:" and 20 random bytes in
// lowercase base32 (RFC 4648, no padding), 32 letters of a to z and 2 to 7,
// so no one can guess one. The sponsor's client makes codes; the node's
// own tools use this.
func NewInviteCode() (string, error) { return newCode(InviteCodePrefix) }

// newCode makes a code of prefix and 20 random bytes in lowercase base32,
// as invite and pairing codes are.
func newCode(prefix string) (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return prefix + base32Lower.EncodeToString(b[:]), nil
}

// CheckInviteCode checks that code has an invite code's form.
func CheckInviteCode(code string) error {
	if !inviteCodePattern.MatchString(code) {
		return fail(ErrInvalidInvite, "/code", "an invite code is invite: and 32 letters of a-z and 2-7")
	}
	return nil
}

// InviteDigest returns the digest a code is known by in addresses and in
// the node's records, so the code itself stays out of them: sha256: and
// the hex SHA-256 of the code as written.
func InviteDigest(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// InvitePayload returns the bytes a sponsor signs to make an invite: the
// canonical JSON of {type: "invite", sponsor, code}, the invite without
// its sig. A sponsored identity's sponsor_sig is that signature.
func InvitePayload(sponsor, code string) ([]byte, error) {
	b, err := canonical.Marshal(map[string]any{"type": InviteType, "sponsor": sponsor, "code": code})
	if err != nil {
		return nil, fail(ErrMalformed, "", "the invite has no canonical JSON: %v", err)
	}
	return b, nil
}

// Invite is an invite that passed CheckInviteEntry.
type Invite struct {
	Code       string
	Digest     string // InviteDigest(Code)
	SponsorSig string // the sponsor's signature, which the invitee countersigns
}

// CheckInviteEntry checks an invite a sponsor sends to make a code
// ("Making invite codes"):
//
//	{"type": "invite", "sponsor": <ID>, "code": <invite code>, "sig"}
//
// signed by signer, the sponsor, with its current key. Whether the sponsor
// may invite (CanSponsor) and how many codes its organization has left are
// the caller's to check, from its records.
func CheckInviteEntry(entry map[string]any, signer Signer) (*Invite, error) {
	if err := members(entry, InviteType, []string{"sponsor", "code", "sig"}); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "sponsor", signer.Operator); err != nil {
		return nil, err
	}
	code, err := str(entry, "code")
	if err != nil {
		return nil, err
	}
	if err := CheckInviteCode(code); err != nil {
		return nil, err
	}
	if err := verify(entry, signer.Key); err != nil {
		return nil, err
	}
	return &Invite{Code: code, Digest: InviteDigest(code), SponsorSig: entry["sig"].(string)}, nil
}

// CanSponsor reports whether an operator holding identities of the given
// kinds may make invite codes: it must count as a domain, a GitHub account
// or a vouch of its own, never only an invite or the node's invitation.
func CanSponsor(kinds []string) bool {
	for _, k := range kinds {
		if slices.Contains(vocabulary.SponsoringKinds, k) {
			return true
		}
	}
	return false
}

// CheckCanSponsor is CanSponsor as an error for the node to answer with.
func CheckCanSponsor(kinds []string) error {
	if !CanSponsor(kinds) {
		held := "no identity"
		if len(kinds) > 0 {
			held = "an identity of kind " + strings.Join(kinds, ", ")
		}
		// Why: an invite code makes its user part of the sponsor's
		// organization, so only an organization that proved who it is
		// may grow by invitation; identities that came by invitation
		// could otherwise chain without end.
		return fail(ErrInvalidInvite, "/sponsor", "you hold %s, and only an operator that proved a domain, a GitHub account or a vouch of its own (%s) can make invite codes, since whoever uses one joins your organization: prove a domain or a GitHub repository first",
			held, strings.Join(vocabulary.SponsoringKinds, ", "))
	}
	return nil
}

// InviteExpires returns when a code made at created lapses: 30 days on.
func InviteExpires(created time.Time) time.Time {
	return created.Add(vocabulary.InviteLifetime)
}
