// Package operators holds the rules a sciencejournal node applies to
// operators before it stores or logs anything about them, as pure
// functions of their inputs: no storage, no network, no clock but the one
// passed in.
//
//   - Names (CleanName, NameKey, ShownName): one line of at most 100
//     characters, not blank, with no web or email address, never ending in
//     "#" and a number; names that read the same ignoring case, spacing and
//     look-alike characters share a key, and from the second holder of a
//     key on the node shows "Name #2", "Name #3", ...
//   - Signed entries (CheckKeyEntry, CheckRenameEntry, CheckRotationEntry,
//     CheckCallModel, CheckTime): the key entry that registers an operator,
//     a rename, a key rotation, the model every call names, and the
//     freshness of a signed time.
//   - Identities (CheckIdentityEntry, VerifyIdentityEntry,
//     RegistrableDomain, TXTProves, GitHubFileProves, ...): the proof
//     formats and the organization each identity counts as.
//   - Invite codes (NewInviteCode, InviteDigest, CheckInviteEntry, ...).
//   - Key recovery (CheckRecoveryEntry, CheckRecoveryIdentity): a new key
//     taken through the identity the operator counts as.
//
// The rules follow the protocol's instructions (spec/ledger-protocol.md,
// sections "Publishing, step by step", "Naming your model", "Your key is your
// identity" and "Identity"), which the node publishes, and the reference library
// (src/entries.ts, src/identity.ts) where they say nothing.
//
// Every refusal is an *Error that wraps one of the Err* sentinels, each a
// *Sentinel whose Code is the "code" the protocol's error body gives it.
// Choosing the HTTP status is the node's business.
package operators

import "fmt"

// A Sentinel is one way a value or an entry is refused. Code is the
// "code" member of the error body the protocol answers with; where the
// instructions name one (model_missing, model_name_invalid,
// unknown_model_family, key_family_mismatch) it is theirs, elsewhere the
// node's.
type Sentinel struct {
	code, text string
}

func (s *Sentinel) Error() string { return s.text }

// Code returns the protocol's code for the refusal.
func (s *Sentinel) Code() string { return s.code }

// The sentinels. The status each one suggests is noted; the node decides.
var (
	// ErrMalformed: the entry is not of its type's shape: a member
	// missing, unknown or of the wrong type, or a value out of its form
	// (422).
	ErrMalformed = &Sentinel{"invalid_entry", "malformed entry"}
	// ErrBadSignature: a signature does not verify against the key that
	// must have made it (422, as the instructions answer a bad signature).
	ErrBadSignature = &Sentinel{"bad_signature", "signature does not verify"}
	// ErrModelMissing: the call does not name its model (422).
	ErrModelMissing = &Sentinel{"model_missing", "the call does not name its model"}
	// ErrModelNameInvalid: the model named is not a model ID (422).
	ErrModelNameInvalid = &Sentinel{"model_name_invalid", "the model is not a model ID"}
	// ErrUnknownModelFamily: the family named is not on the list (422).
	ErrUnknownModelFamily = &Sentinel{"unknown_model_family", "the model family is not on the list"}
	// ErrKeyFamilyMismatch: the family named is not one the key was
	// registered for (403).
	ErrKeyFamilyMismatch = &Sentinel{"key_family_mismatch", "the model family is not the key's"}
	// ErrInvalidName: the name breaks the name rules (422).
	ErrInvalidName = &Sentinel{"invalid_name", "invalid name"}
	// ErrStaleTime: a signed time is more than ClockSkew from the node's
	// clock (422).
	ErrStaleTime = &Sentinel{"stale_time", "the signed time is not within 5 minutes of the node's clock"}
	// ErrWrongOperator: the entry names an operator other than the one the
	// request is for (422).
	ErrWrongOperator = &Sentinel{"wrong_operator", "the entry names another operator"}
	// ErrInvalidDomain: the domain is not a lowercase domain name under a
	// public suffix (422).
	ErrInvalidDomain = &Sentinel{"invalid_domain", "invalid domain"}
	// ErrInvalidRepository: the repository is not a GitHub owner/name (422).
	ErrInvalidRepository = &Sentinel{"invalid_repository", "invalid repository"}
	// ErrProofNotFound: the DNS record or the repository file does not
	// name the key (422; the instructions say to try again later).
	ErrProofNotFound = &Sentinel{"proof_not_found", "the proof does not name the key"}
	// ErrAccountTooNew: the GitHub account is younger than 90 days (403).
	ErrAccountTooNew = &Sentinel{"account_too_new", "the GitHub account is less than 90 days old"}
	// ErrInvalidInvite: an invite code or an invite that is not of its
	// form, or a sponsor that may not invite (422).
	ErrInvalidInvite = &Sentinel{"invalid_invite", "invalid invite"}
	// ErrNoIdentity: the step needs an identity the operator does not
	// hold, as a key recovery does (403).
	ErrNoIdentity = &Sentinel{"no_identity", "the operator has no identity"}
	// ErrRecoveryIdentity: a key recovery goes through another identity
	// than the one the operator counts as, or one that can't take it back
	// (403).
	ErrRecoveryIdentity = &Sentinel{"wrong_identity", "the recovery does not go through the identity the operator counts as"}
	// ErrInvalidEmail: the e-mail address of an account request is not
	// one address of its form (422).
	ErrInvalidEmail = &Sentinel{"invalid_email", "invalid e-mail address"}
)

// Error is a refused value or entry: the JSON Pointer of the member at
// fault, relative to the value checked ("" for the value itself; the node
// prefixes "/entry" when the entry sits under it), why, and the sentinel
// it is.
type Error struct {
	Field  string
	Reason string
	Err    *Sentinel
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.Err.text, e.Reason)
	}
	return fmt.Sprintf("%s: %s: %s", e.Err.text, e.Field, e.Reason)
}

// Unwrap returns the sentinel, so errors.Is(err, ErrBadSignature) and
// errors.As(err, new(*Sentinel)) work through any wrapping.
func (e *Error) Unwrap() error { return e.Err }

func fail(s *Sentinel, field, format string, args ...any) *Error {
	return &Error{Field: field, Reason: fmt.Sprintf(format, args...), Err: s}
}
