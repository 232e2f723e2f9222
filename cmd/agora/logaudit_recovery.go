package main

import (
	"context"
	"slices"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// Key recoveries, checked as the reference monitor checks them: the
// operator has a key on the log to recover; since is no later than the
// recovery itself; the recovery goes through an identity of its kind the
// operator holds on the log, resting on what the recovery names, and the
// operator holds no firmer one (a domain, then a GitHub account, then a
// vouch, then an invitation); it is signed by the new key it names (an
// invited operator's by the log's key, and a vouched one's approval,
// voucher_sig, attested by the log's key); and the new key is one the
// operator never held. From the recovery on, the new key signs for it.

// heldIdentity is an identity the log gave an operator: its kind, what it
// rests on, and where it is logged.
type heldIdentity struct {
	kind    string
	subject string // the domain, repository, voucher or sponsor; "" for an invitation
	index   uint64
}

// givesKey reports whether an entry of type typ gives its operator a key.
func givesKey(typ any) bool {
	return typ == "key" || typ == protocol.KeyRotationType || typ == protocol.KeyRecoveryType
}

// noteIdentity records the identity entry i gave op.
func (a *audit) noteIdentity(i uint64, op string, signed map[string]any) {
	kind, _ := signed["kind"].(string)
	member := map[string]string{"domain": "domain", "github": "repository", "vouched": "voucher", "sponsored": "sponsor"}[kind]
	subject, _ := signed[member].(string)
	s := a.signer(op)
	s.ids = append(s.ids, heldIdentity{kind: kind, subject: subject, index: i})
}

// firmness is where an identity kind stands among vocabulary.IdentityKinds,
// firmest first.
func firmness(kind string) int {
	if i := slices.Index(vocabulary.IdentityKinds, kind); i >= 0 {
		return i
	}
	return len(vocabulary.IdentityKinds)
}

const (
	notCheckedRecoveryProof = "recoveries' proofs: the DNS record or repository file naming the new key when it was logged (and a repository's owner then), which can change after"
	notCheckedDisowned      = "how far back recoveries disown: only that none disowns entries after itself"
	notCheckedIdentities    = "recoveries by operators whose identities were logged before the pinned head, which a pin an older agora wrote does not place"
)

// checkRecovery checks key_recovery entry i of op.
func (a *audit) checkRecovery(ctx context.Context, i uint64, op string, signed map[string]any) error {
	const typ = protocol.KeyRecoveryType
	s := a.signers[op]
	if s == nil || len(s.keys) == 0 {
		if a.knowsSigners {
			return bad("entry %d recovers %s, which has no key on the log to recover", i, op)
		}
		a.report.notChecked(notCheckedBeforePin, typ)
		return nil
	}
	since, ok := signed["since"].(float64)
	if !ok || since < 0 || since != float64(uint64(since)) {
		return bad("entry %d (%s) has no log index in since", i, typ)
	}
	if uint64(since) > i {
		return bad("entry %d recovers %s disowning entries from %d, past the log's size when it was logged (%d)", i, op, uint64(since), i)
	}
	if uint64(since) < i {
		a.report.notChecked(notCheckedDisowned, typ)
	}
	kind, _ := signed["kind"].(string)
	if err := a.recoveryIdentity(i, op, kind, signed); err != nil {
		return err
	}
	newKey, _ := signed["key"].(string)
	if _, err := hybrid.ParsePublicKey(newKey); err != nil {
		return bad("entry %d (%s) names no public key", i, typ)
	}
	switch kind {
	case "domain", "github":
		a.report.notChecked(notCheckedRecoveryProof, typ)
		ok = protocol.Verify(signed, newKey)
	case "vouched":
		ok = protocol.Verify(signed, newKey) && a.recoveryApproved(signed)
	case "invited":
		ok = protocol.Verify(signed, a.key)
	default:
		return bad("entry %d (%s) is of kind %q, which no recovery is", i, typ, kind)
	}
	if !ok {
		return bad("entry %d (%s, %s) is not signed by the key that must have signed it", i, typ, kind)
	}
	// The old keys are read from their entries, so a key the pin placed
	// compares too.
	for j := range s.keys {
		held, _, err := a.keyAt(ctx, op, s.keys[j].since+1)
		if err != nil {
			return err
		}
		if held == newKey {
			return bad("entry %d recovers %s to a key it held before", i, op)
		}
	}
	// Nor may another operator have held it, as far as this run read
	// their keys.
	for other, them := range a.signers {
		for _, k := range them.keys {
			if other != op && k.key == newKey {
				return bad("entry %d recovers %s to a key %s held", i, op, other)
			}
		}
	}
	s.keys = append(s.keys, heldKey{since: i, key: newKey})
	a.report.checked(typ)
	return nil
}

// recoveryIdentity checks that recovery i goes through the identity op
// counts as: one of its kind, resting on what it names, and no firmer one.
func (a *audit) recoveryIdentity(i uint64, op, kind string, signed map[string]any) error {
	s := a.signers[op]
	// A pin an older agora wrote places no identity: only an operator
	// whose key entry this run read has all its identities in view.
	if !a.knowsIdentities && (s == nil || len(s.keys) == 0 || s.keys[0].since < a.from) {
		a.report.notChecked(notCheckedIdentities, protocol.KeyRecoveryType)
		return nil
	}
	var through *heldIdentity
	for j := range s.ids {
		id := &s.ids[j]
		if firmness(id.kind) < firmness(kind) {
			return bad("entry %d recovers %s through its %s identity, but it counts as its %s identity, from entry %d, and recovers through that",
				i, op, kind, id.kind, id.index)
		}
		if id.kind == kind && through == nil {
			through = id
		}
	}
	if through == nil {
		return bad("entry %d recovers %s through its %s identity, but it has none on the log", i, op, kind)
	}
	member := map[string]string{"domain": "domain", "github": "repository", "vouched": "voucher"}[kind]
	if member != "" && signed[member] != through.subject {
		return bad("entry %d recovers %s through %v, but its %s identity, from entry %d, is %s", i, op, signed[member], kind, through.index, through.subject)
	}
	return nil
}

// recoveryApproved reports whether a vouched recovery's voucher_sig is the
// log's attestation of the approval: its signature over the entry without
// sig and voucher_sig.
func (a *audit) recoveryApproved(signed map[string]any) bool {
	operator, _ := signed["operator"].(string)
	key, _ := signed["key"].(string)
	voucher, _ := signed["voucher"].(string)
	since, _ := signed["since"].(float64)
	payload, err := operators.RecoveryApprovalPayload(operator, key, voucher, uint64(since))
	sig, _ := signed["voucher_sig"].(string)
	return err == nil && hybrid.Verify(sig, payload, a.key)
}
