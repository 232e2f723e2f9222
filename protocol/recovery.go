package protocol

import (
	"fmt"

	"github.com/agora-node/agora/hybrid"
)

// KeyRecoveryType is the type of the entry that gives an operator a new
// key after it lost the old one, proven by the identity it counts as.
const KeyRecoveryType = "key_recovery"

// SignKeyRecovery returns a recovery of operator to newKey through its
// domain, GitHub repository or vouch, signed by the new key over
// everything but sig ("Your key is your identity"):
//
//	{"type": "key_recovery", "kind": "domain", "operator", "key", "domain", "since", "sig"}
//	{"type": "key_recovery", "kind": "github", "operator", "key", "repository", "since", "sig"}
//	{"type": "key_recovery", "kind": "vouched", "operator", "key", "voucher", "since", "sig"}
//
// A vouched one, without voucher_sig, asks the voucher to approve it; the
// new key signs it again once the log attested the approval.
// subject is the domain, the repository or the voucher; since is the log index from
// which what the old key signed is disowned (the log's size for nothing).
func SignKeyRecovery(operator, kind, subject string, since uint64, newKey *hybrid.PrivateKey) (map[string]any, error) {
	if !IsOperatorID(operator) {
		return nil, fmt.Errorf("ledger: key recovery: %q is not an operator ID: %w", operator, ErrInvalidID)
	}
	entry := map[string]any{
		"type": KeyRecoveryType, "kind": kind, "operator": operator,
		"key": newKey.Public().String(), "since": since,
	}
	switch kind {
	case "domain":
		entry["domain"] = subject
	case "github":
		entry["repository"] = subject
	case "vouched":
		entry["voucher"] = subject
	default:
		return nil, fmt.Errorf("ledger: key recovery: an operator signs a %q recovery through a domain, a GitHub repository or a vouch, not %q", KeyRecoveryType, kind)
	}
	if err := Sign(entry, newKey); err != nil {
		return nil, fmt.Errorf("ledger: key recovery: %w", err)
	}
	return entry, nil
}

// SignInvitedRecovery returns the recovery of an invited operator to
// newKey (a public key, as written), which the log signs on its reviewers'
// word: {"type": "key_recovery", "kind": "invited", "operator", "key",
// "since", "sig"}.
func SignInvitedRecovery(operator, newKey string, since uint64, logKey *hybrid.PrivateKey) (map[string]any, error) {
	if !IsOperatorID(operator) {
		return nil, fmt.Errorf("ledger: key recovery: %q is not an operator ID: %w", operator, ErrInvalidID)
	}
	entry := map[string]any{"type": KeyRecoveryType, "kind": "invited", "operator": operator, "key": newKey, "since": since}
	if err := Sign(entry, logKey); err != nil {
		return nil, fmt.Errorf("ledger: key recovery: %w", err)
	}
	return entry, nil
}
