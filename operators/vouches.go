package operators

import (
	"net/mail"
	"regexp"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// Entry types of a person's side of identity ("Identity").
const (
	VouchConsentType   = "vouch_consent"
	AccountRequestType = "account_request"
)

// PairingCodePrefix starts every pairing code.
const PairingCodePrefix = "pair:"

var (
	pairingCodePattern = regexp.MustCompile(`^pair:[a-z2-7]{32}$`)
	digestPattern      = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// NewPairingCode makes a pairing code: "pair:" and 20 random bytes in
// lowercase base32, as an operator's client makes one for the link it
// sends its person. The node's tests use it.
func NewPairingCode() (string, error) { return newCode(PairingCodePrefix) }

// CheckPairingCode checks that code has a pairing code's form.
func CheckPairingCode(code string) error {
	if !pairingCodePattern.MatchString(code) {
		return fail(ErrMalformed, "/pairing", "a pairing code is pair: and 32 letters of a-z and 2-7")
	}
	return nil
}

// PairingDigest returns the digest a consent names a pairing code by:
// sha256: and the hex SHA-256 of the code as written, so the node that
// holds the consent cannot vouch with it before a person brings the code.
func PairingDigest(code string) string { return InviteDigest(code) }

// VouchConsent is a consent that passed CheckVouchConsent.
type VouchConsent struct {
	Pairing string // the pairing code's digest
	Sig     string // the operator's signature, a paired vouch's consent_sig
}

// CheckVouchConsent checks an operator's advance consent to a vouch from
// whoever brings a pairing code, signed by signer with its current key:
//
//	{"type": "vouch_consent", "operator": <ID>, "pairing": "sha256:<hex>", "sig"}
//
// An identity step, so it names no model.
func CheckVouchConsent(entry map[string]any, signer Signer) (*VouchConsent, error) {
	if err := members(entry, VouchConsentType, []string{"operator", "pairing", "sig"}); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", signer.Operator); err != nil {
		return nil, err
	}
	pairing, err := str(entry, "pairing")
	if err != nil {
		return nil, err
	}
	if !digestPattern.MatchString(pairing) {
		if pairingCodePattern.MatchString(pairing) {
			return nil, fail(ErrMalformed, "/pairing", "name the pairing code by its digest, sha256: and the SHA-256 of the code, never the code itself")
		}
		return nil, fail(ErrMalformed, "/pairing", "pairing is sha256: and 64 lowercase hex digits, the SHA-256 of the pairing code")
	}
	if err := verify(entry, signer.Key); err != nil {
		return nil, err
	}
	return &VouchConsent{Pairing: pairing, Sig: entry["sig"].(string)}, nil
}

// ConsentPayload returns the bytes an operator signs to consent: the
// canonical JSON of {type: "vouch_consent", operator, pairing}.
func ConsentPayload(operator, pairing string) ([]byte, error) {
	b, err := canonical.Marshal(map[string]any{"type": VouchConsentType, "operator": operator, "pairing": pairing})
	if err != nil {
		return nil, fail(ErrMalformed, "", "the consent has no canonical JSON: %v", err)
	}
	return b, nil
}

// VouchPayload returns the bytes the log signs to attest a vouch, its
// voucher_sig: the vouch without its signatures, {type: "identity", kind:
// "vouched", operator, voucher}, with the pairing digest it completes for
// a paired vouch ("" for none).
func VouchPayload(operator, voucher, pairing string) ([]byte, error) {
	unsigned := map[string]any{"type": IdentityType, "kind": vocabulary.IdentityVouched, "operator": operator, "voucher": voucher}
	if pairing != "" {
		unsigned["pairing"] = pairing
	}
	b, err := canonical.Marshal(unsigned)
	if err != nil {
		return nil, fail(ErrMalformed, "", "the vouch has no canonical JSON: %v", err)
	}
	return b, nil
}

// AttestVouch returns the vouch the log attests for a person who vouched
// without a pairing code, {type, kind: "vouched", operator, voucher,
// voucher_sig}: what the operator countersigns to accept it.
func AttestVouch(operator, voucher string, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !protocol.IsOperatorID(operator) || !IsVoucher(voucher) {
		return nil, fail(ErrMalformed, "", "a vouch names an operator ID and a voucher")
	}
	payload, err := VouchPayload(operator, voucher, "")
	if err != nil {
		return nil, err
	}
	sig := logKey.Sign(payload)
	return map[string]any{"type": IdentityType, "kind": vocabulary.IdentityVouched, "operator": operator, "voucher": voucher, "voucher_sig": sig}, nil
}

// AttestPairedVouch returns the identity entry the node logs when a person
// vouches with the pairing code of consent: {type, kind: "vouched",
// operator, voucher, pairing, consent_sig, voucher_sig}, the log attesting
// the vouch and the consent's signature completing it.
func AttestPairedVouch(operator string, consent VouchConsent, voucher string, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !protocol.IsOperatorID(operator) || !IsVoucher(voucher) || !digestPattern.MatchString(consent.Pairing) {
		return nil, fail(ErrMalformed, "", "a paired vouch names an operator ID, a voucher and a pairing digest")
	}
	payload, err := VouchPayload(operator, voucher, consent.Pairing)
	if err != nil {
		return nil, err
	}
	sig := logKey.Sign(payload)
	return map[string]any{
		"type": IdentityType, "kind": vocabulary.IdentityVouched, "operator": operator, "voucher": voucher,
		"pairing": consent.Pairing, "consent_sig": consent.Sig, "voucher_sig": sig,
	}, nil
}

// PairedDomainPayload returns the bytes the log signs, in voucher_sig, to
// attest that whoever brought a pairing code named the domain: the paired
// domain identity without its signatures, {type: "identity", kind:
// "domain", operator, domain, pairing}.
func PairedDomainPayload(operator, domain, pairing string) ([]byte, error) {
	b, err := canonical.Marshal(map[string]any{"type": IdentityType, "kind": vocabulary.IdentityDomain, "operator": operator, "domain": domain, "pairing": pairing})
	if err != nil {
		return nil, fail(ErrMalformed, "", "the identity has no canonical JSON: %v", err)
	}
	return b, nil
}

// AttestPairedDomain returns the identity entry the node logs once the
// domain a person named from the agent's pairing link proves the agent's
// key: {type, kind: "domain", operator, domain, pairing, consent_sig,
// voucher_sig}, completing the consent.
func AttestPairedDomain(operator string, consent VouchConsent, domain string, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !protocol.IsOperatorID(operator) || CheckDomain(domain) != nil || !digestPattern.MatchString(consent.Pairing) {
		return nil, fail(ErrMalformed, "", "a paired domain names an operator ID, a domain and a pairing digest")
	}
	payload, err := PairedDomainPayload(operator, domain, consent.Pairing)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"type": IdentityType, "kind": vocabulary.IdentityDomain, "operator": operator, "domain": domain,
		"pairing": consent.Pairing, "consent_sig": consent.Sig, "voucher_sig": logKey.Sign(payload),
	}, nil
}

// AccountRequest is an account request that passed CheckAccountRequest.
type AccountRequest struct {
	Email  string // as signed
	Family string
	Model  string
}

// CheckAccountRequest checks an operator's request to be listed in the
// account of the person who uses an e-mail address ("Your person's
// account"), signed by signer with its current key and naming its model:
//
//	{"type": "account_request", "operator", "email", "model_family", "model", "sig"}
//
// The address is at most 254 characters, one addr-spec with a domain,
// checked as signed, never rewritten; the node compares addresses without
// case.
func CheckAccountRequest(entry map[string]any, signer Signer) (*AccountRequest, error) {
	if err := members(entry, AccountRequestType, []string{"operator", "email", "model_family", "model", "sig"}); err != nil {
		return nil, err
	}
	if err := sameOperator(entry, "operator", signer.Operator); err != nil {
		return nil, err
	}
	email, err := str(entry, "email")
	if err != nil {
		return nil, err
	}
	if err := CheckEmail(email); err != nil {
		return nil, err
	}
	family, model, err := CheckCallModel(entry, signer.KeyFamilies)
	if err != nil {
		return nil, err
	}
	if err := verify(entry, signer.Key); err != nil {
		return nil, err
	}
	return &AccountRequest{Email: email, Family: family, Model: model}, nil
}

// CheckEmail checks an e-mail address as an account request names it: a
// bare addr-spec (no display name, no angle brackets), local@domain with a
// dot in the domain, at most 254 characters, printable ASCII only.
func CheckEmail(email string) error {
	if len(email) > vocabulary.MaxEmailLength {
		return fail(ErrInvalidEmail, "/email", "an e-mail address is at most %d characters", vocabulary.MaxEmailLength)
	}
	for _, c := range email {
		if c <= ' ' || c > '~' {
			return fail(ErrInvalidEmail, "/email", "an e-mail address is printable ASCII, with no spaces")
		}
	}
	a, err := mail.ParseAddress(email)
	at := strings.LastIndexByte(email, '@')
	if err != nil || a.Address != email || a.Name != "" || at < 1 || !strings.Contains(email[at+1:], ".") || strings.ContainsAny(email, "<>") {
		return fail(ErrInvalidEmail, "/email", "an e-mail address is one address such as person@example.org")
	}
	return nil
}

// EmailKey returns the form two addresses are compared in: lowercase.
func EmailKey(email string) string { return strings.ToLower(email) }
