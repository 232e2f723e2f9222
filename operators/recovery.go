package operators

import (
	"math"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// RecoveryType is the type of the entry that takes an operator back with a
// new key after it lost the old one.
const RecoveryType = protocol.KeyRecoveryType

// Recovery is a key_recovery entry that passed CheckRecoveryEntry.
type Recovery struct {
	Kind       string // domain, github, vouched or invited
	Operator   string
	Key        string // the new public key, as written
	KeyDigest  string // protocol.KeyDigest(Key)
	Since      uint64 // the log index from which the old key's entries are disowned
	Domain     string // kind domain
	Repository string // kind github
	Voucher    string // kind vouched
}

// Subject returns what the recovery goes through: the domain, the
// repository or the voucher; "" for an invited operator's.
func (r *Recovery) Subject() string {
	switch r.Kind {
	case vocabulary.IdentityDomain:
		return r.Domain
	case vocabulary.IdentityGitHub:
		return r.Repository
	case vocabulary.IdentityVouched:
		return r.Voucher
	}
	return ""
}

// recoveryShapes are the members of each kind of key_recovery entry besides
// type and kind, as the reference library's KeyRecoveryEntrySchema holds
// them. A vouched recovery is first sent without voucher_sig, as a request
// for the voucher's approval, then again with it.
var recoveryShapes = map[string][]string{
	vocabulary.IdentityDomain:  {"operator", "key", "since", "domain", "sig"},
	vocabulary.IdentityGitHub:  {"operator", "key", "since", "repository", "sig"},
	vocabulary.IdentityVouched: {"operator", "key", "since", "voucher", "sig"},
	vocabulary.IdentityInvited: {"operator", "key", "since", "sig"},
}

// RecoveryKinds are the kinds of identity a recovery can go through, firmest
// first. A sponsored identity is not one: an invite code can't take an
// operator back.
var RecoveryKinds = []string{vocabulary.IdentityDomain, vocabulary.IdentityGitHub, vocabulary.IdentityVouched, vocabulary.IdentityInvited}

// CheckRecoveryEntry checks a key recovery for operator, whose request it
// came with ("Your key is your identity"):
//
//	{"type": "key_recovery", "kind": "domain", "operator", "key", "since", "domain", "sig"}
//	{"type": "key_recovery", "kind": "github", "operator", "key", "since", "repository", "sig"}
//	{"type": "key_recovery", "kind": "vouched", "operator", "key", "since", "voucher", ["voucher_sig"], "sig"}
//	{"type": "key_recovery", "kind": "invited", "operator", "key", "since", "sig"}
//
// since is a non-negative integer. Every kind but an invited operator's is
// signed by the new key it names, over everything but sig, which proves
// the sender holds it; this checks that signature. An invited operator's
// is the log's, which the node's reviewers make: the node never takes one
// from an operator, and this checks no signature of it.
func CheckRecoveryEntry(entry map[string]any, operator string) (*Recovery, error) {
	if entry == nil {
		return nil, fail(ErrMalformed, "", "the entry is a JSON object")
	}
	kind, _ := entry["kind"].(string)
	shape, ok := recoveryShapes[kind]
	if !ok {
		return nil, fail(ErrMalformed, "/kind", "kind is one of domain, github, vouched or invited: the identity you count as")
	}
	var optional []string
	if kind == vocabulary.IdentityVouched {
		optional = []string{"voucher_sig"}
	}
	if err := members(entry, RecoveryType, append([]string{"kind"}, shape...), optional...); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", operator); err != nil {
		return nil, err
	}
	key, err := publicKey(entry, "key")
	if err != nil {
		return nil, err
	}
	since, ok := entry["since"].(float64)
	if !ok || since < 0 || since != math.Trunc(since) || since > 1<<53 {
		return nil, fail(ErrMalformed, "/since", "since is a log index, a whole number from 0: where disowning starts, or the log's size to disown nothing")
	}
	r := &Recovery{Kind: kind, Operator: operator, Key: key, KeyDigest: protocol.KeyDigest(key), Since: uint64(since)}
	switch kind {
	case vocabulary.IdentityDomain:
		if r.Domain, err = str(entry, "domain"); err == nil {
			err = CheckDomain(r.Domain)
		}
	case vocabulary.IdentityGitHub:
		if r.Repository, err = str(entry, "repository"); err == nil {
			err = CheckRepository(r.Repository)
		}
	case vocabulary.IdentityVouched:
		if r.Voucher, err = str(entry, "voucher"); err == nil && !IsVoucher(r.Voucher) {
			err = fail(ErrMalformed, "/voucher", "voucher is github:<numeric ID> or card:<64 hex digits>, as your identity's organization names it")
		}
		if _, ok := entry["voucher_sig"]; ok && err == nil {
			_, err = str(entry, "voucher_sig")
		}
	}
	if err != nil {
		return nil, err
	}
	if kind != vocabulary.IdentityInvited {
		if err := verify(entry, key); err != nil {
			if e, ok := err.(*Error); ok && e.Err == ErrBadSignature {
				e.Reason = "sig is not the new key's signature over the entry without sig: sign the recovery with the key it names"
			}
			return nil, err
		}
	}
	return r, nil
}

// HeldIdentity is an identity an operator holds, as a recovery checks it:
// its kind and what it rests on (IdentityEntry.Subject).
type HeldIdentity struct {
	Kind, Subject string
}

// CheckRecoveryIdentity checks that r goes through the identity the
// operator counts as, held firmest first, as the reference monitor checks
// it: one of r's kind must be held, resting on what r names, and no firmer
// one. Without an identity there is no way back (ErrNoIdentity); an
// operator that counts as an invite code's sponsor can't recover through
// it, nor through a weaker identity than the one it counts as
// (ErrRecoveryIdentity).
func CheckRecoveryIdentity(held []HeldIdentity, r *Recovery) error {
	if len(held) == 0 {
		return fail(ErrNoIdentity, "", "%s has no identity, and without one there is no way back: register a new key, which starts a new record", r.Operator)
	}
	first := held[0]
	switch {
	case first.Kind == vocabulary.IdentitySponsored:
		return fail(ErrRecoveryIdentity, "/kind", "you count as your sponsor's organization through an invite code, which can't take you back: register a new key and ask for a new code")
	case first.Kind != r.Kind:
		return fail(ErrRecoveryIdentity, "/kind", "you count as your %s identity, so only it takes you back: send \"kind\": %q", first.Kind, first.Kind)
	case first.Subject != r.Subject():
		return fail(ErrRecoveryIdentity, "/"+subjectMember(r.Kind), "your %s identity is %s, not %s", first.Kind, first.Subject, r.Subject())
	}
	return nil
}

func subjectMember(kind string) string {
	switch kind {
	case vocabulary.IdentityGitHub:
		return "repository"
	case vocabulary.IdentityVouched:
		return "voucher"
	}
	return kind
}

// RecoveryApprovalPayload is what the log signs to attest that the voucher
// approved a vouched recovery: the entry without sig or voucher_sig,
// {"type": "key_recovery", "kind": "vouched", "operator", "key", "voucher",
// "since"}, as canonical JSON.
func RecoveryApprovalPayload(operator, key, voucher string, since uint64) ([]byte, error) {
	return canonical.Marshal(map[string]any{
		"type": RecoveryType, "kind": vocabulary.IdentityVouched, "operator": operator,
		"key": key, "voucher": voucher, "since": since,
	})
}

// AttestRecoveryApproval returns voucher_sig for r, a vouched recovery its
// voucher approved on the node's site: the log's signature over
// RecoveryApprovalPayload.
func AttestRecoveryApproval(r *Recovery, logKey *hybrid.PrivateKey) (string, error) {
	if r.Kind != vocabulary.IdentityVouched {
		return "", fail(ErrMalformed, "/kind", "only a vouched recovery is approved")
	}
	payload, err := RecoveryApprovalPayload(r.Operator, r.Key, r.Voucher, r.Since)
	if err != nil {
		return "", err
	}
	return logKey.Sign(payload), nil
}

// VerifyRecoveryApproval reports whether sig is logKey's attestation that
// the voucher approved r.
func VerifyRecoveryApproval(r *Recovery, sig, logKey string) bool {
	payload, err := RecoveryApprovalPayload(r.Operator, r.Key, r.Voucher, r.Since)
	return err == nil && hybrid.Verify(sig, payload, logKey)
}
