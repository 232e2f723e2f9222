package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// The checks of one entry: what the node logs, who signs each type, and
// over what.
//
//	key           the operator's own new key, which makes its ID
//	key_rotation  the key it retires (sig), and the new key (key_sig)
//	key_recovery  the new key it names; an invited operator's the log's
//	              key, a vouched one's approval (voucher_sig) the log's
//	              too; it goes through the identity the operator counts
//	              as (logaudit_recovery.go)
//	identity      the operator's key; an "invited" one the log's key, a
//	              "sponsored" one also carries the sponsor's signature on
//	              the invite, and a "vouched" one the log's (voucher_sig)
//	              with the operator's sig or, from a pairing code, its
//	              consent_sig
//	contribution  the author's key, over the record's canonical JSON (not
//	              over the entry: the library's scheme), the record's
//	              SHA-256 being the entry's revision; an imported one by
//	              the key its "imported" member names, which must be the
//	              author's first key or one its recorded rotations gave
//	bundle        the author's key over {"type": "bundle", "bundle"}, the
//	              entry without sig; revealed from a commitment, by the
//	              key it held when the commitment was logged
//	void          the author's key
//	attestation,  the verifier's (reviewer's) key, revealed from a
//	hazard_review commitment by the key it held when that was logged
//	citation_check, the checker's key; logged in the open, on published
//	duplicate_check work
//	sealed,       the log's key: entries the node signs itself name no one
//	withdrawal,
//	canary
//
// A signer's key is the one the log gave it last before the entry: its key
// entry, then each rotation. A leaf with "sealed" must open the commitment
// of the sealed entry it names.

// signer is what an audit knows of one operator.
type signer struct {
	keys []heldKey      // oldest first
	org  string         // the organization its identity counts it in; "" while none is known
	ids  []heldIdentity // the identities the log gave it, in log order
}

// heldKey is a key an operator held from the entry at since, which gave
// it; key is "" until read from that entry (a key the pin placed).
type heldKey struct {
	since uint64
	key   string
}

func signersFromPin(p *pin) map[string]*signer {
	out := map[string]*signer{}
	if p == nil {
		return out
	}
	for op, ps := range p.Signers {
		s := &signer{org: ps.Organization}
		for _, i := range ps.Keys {
			s.keys = append(s.keys, heldKey{since: i})
		}
		for _, id := range ps.Identities {
			s.ids = append(s.ids, heldIdentity{kind: id.Kind, subject: id.Subject, index: id.Index})
		}
		out[op] = s
	}
	return out
}

func (a *audit) pinnedSigners() map[string]pinnedSigner {
	out := make(map[string]pinnedSigner, len(a.signers))
	for op, s := range a.signers {
		ps := pinnedSigner{Organization: s.org, Keys: []uint64{}}
		for _, k := range s.keys {
			ps.Keys = append(ps.Keys, k.since)
		}
		for _, id := range s.ids {
			ps.Identities = append(ps.Identities, pinnedIdentity{Kind: id.kind, Subject: id.subject, Index: id.index})
		}
		out[op] = ps
	}
	return out
}

func (a *audit) signer(op string) *signer {
	s := a.signers[op]
	if s == nil {
		s = &signer{}
		a.signers[op] = s
	}
	return s
}

// keyAt returns the key op held at entry index: the one the last of its
// key-giving entries before index gave. ok is false when the log gave it
// none before index, as far as this run knows.
func (a *audit) keyAt(ctx context.Context, op string, index uint64) (key string, ok bool, err error) {
	s := a.signers[op]
	if s == nil {
		return "", false, nil
	}
	k := -1
	for j, h := range s.keys {
		if h.since < index {
			k = j
		}
	}
	if k < 0 {
		return "", false, nil
	}
	if s.keys[k].key == "" {
		if s.keys[k].key, err = a.pinnedKey(ctx, op, s.keys[k].since); err != nil {
			return "", false, err
		}
	}
	return s.keys[k].key, true, nil
}

// pinnedKey reads the key the entry at index gave op, an entry an earlier
// run verified, which the pin names.
func (a *audit) pinnedKey(ctx context.Context, op string, index uint64) (string, error) {
	r, err := a.receipt(ctx, index)
	if err != nil {
		return "", err
	}
	signed, err := a.c.Signed(ctx, index)
	if err != nil {
		return "", fetchFailure(fmt.Sprintf("entry %d as signed", index), err)
	}
	entry, _ := r.Leaf["entry"].(map[string]any)
	if !protocol.MatchesLeafEntry(signed, entry) {
		return "", bad("entry %d as signed does not match its leaf", index)
	}
	key, _ := signed["key"].(string)
	if leafOp, _ := r.Leaf["operator"].(string); leafOp != op || key == "" || !givesKey(signed["type"]) {
		return "", fmt.Errorf("the pin in %s names entry %d as giving %s a key, but it does not: the pin is damaged; verify from a new --pin", a.pinPath, index, op)
	}
	return key, nil
}

// checkEntry audits entry i: its receipt, the entry as signed against its
// leaf, its time, its commitment when it reveals one, and its signature.
func (a *audit) checkEntry(ctx context.Context, i uint64, r *tlog.Receipt, signed map[string]any) error {
	if err := a.checkReceipt(ctx, i, r); err != nil {
		return err
	}
	entry, _ := r.Leaf["entry"].(map[string]any)
	if !protocol.MatchesLeafEntry(signed, entry) {
		return bad("entry %d as signed does not match its leaf", i)
	}
	if err := a.times.leaf(i, r.Leaf["timestamp"]); err != nil {
		return err
	}
	signedAt := i // the entry whose key signs it: its own, or its commitment's
	if _, reveals := r.Leaf["sealed"]; reveals {
		at, err := a.opens(ctx, i, r.Leaf)
		if err != nil {
			return err
		}
		signedAt = at
	}
	typ, _ := signed["type"].(string)
	if typ == protocol.SealedType {
		a.sealed[i] = r.Leaf
	}
	if err := a.checkSignature(ctx, i, signedAt, typ, r.Leaf, signed); err != nil {
		return err
	}
	a.outcomes.note(i, typ, r.Leaf, signed)
	if a.onLeaf != nil {
		return a.onLeaf(r.Leaf)
	}
	return nil
}

// opens checks that revealed leaf i opens the commitment of the sealed
// entry it names, and returns that entry's index.
func (a *audit) opens(ctx context.Context, i uint64, leaf map[string]any) (uint64, error) {
	reveal, err := protocol.ParseSealReveal(leaf["sealed"])
	if err != nil {
		return 0, bad("entry %d: %v", i, err)
	}
	at := uint64(reveal.Index)
	if at >= i {
		return 0, bad("entry %d reveals a commitment at %d, which is not before it", i, at)
	}
	sealed, seen := a.sealed[at]
	if !seen {
		r, err := a.receipt(ctx, at)
		if err != nil {
			return 0, err
		}
		sealed = r.Leaf
	}
	if err := protocol.Opens(leaf, sealed); err != nil {
		return 0, bad("entry %d does not open its commitment: %v", i, err)
	}
	a.report.opened++
	return at, nil
}

// checkSignature checks the signature of entry i, of type typ, made when
// the entry at signedAt was logged (i, or the commitment it reveals).
func (a *audit) checkSignature(ctx context.Context, i, signedAt uint64, typ string, leaf, signed map[string]any) error {
	op, _ := leaf["operator"].(string)
	// The operator an entry names must be the one its leaf names.
	named := map[string]string{"key_rotation": "operator", "key_recovery": "operator", "identity": "operator", "contribution": "operator", "void": "author",
		"attestation": "verifier", "hazard_review": "reviewer", "citation_check": "checker", "duplicate_check": "checker"}[typ]
	if named != "" && signed[named] != op {
		return bad("entry %d (%s) names %v as its %s, but its leaf names %q", i, typ, signed[named], named, op)
	}
	var ok bool
	switch typ {
	case "key":
		k, _ := signed["key"].(string)
		if protocol.OperatorID(k) != op {
			return bad("entry %d is a key entry for %q, but its key makes %s", i, op, protocol.OperatorID(k))
		}
		if s := a.signers[op]; s != nil && len(s.keys) > 0 {
			return bad("entry %d logs a second key entry for %s, whose key entry is at %d", i, op, s.keys[0].since)
		}
		if ok = protocol.Verify(signed, k); ok {
			a.signer(op).keys = []heldKey{{since: i, key: k}}
		}
	case protocol.SealedType, "withdrawal", "canary":
		ok = protocol.Verify(signed, a.key)
	case "identity":
		return a.checkIdentity(ctx, i, leaf, signed)
	case protocol.KeyRecoveryType:
		return a.checkRecovery(ctx, i, op, signed)
	case "key_rotation", "contribution", "bundle", "void", "attestation", "hazard_review", "citation_check", "duplicate_check":
		return a.checkBySigner(ctx, i, signedAt, typ, op, leaf, signed)
	default:
		a.report.notChecked(notCheckedUnknownType, fmt.Sprintf("%.40s", typ))
		return nil
	}
	if !ok {
		return bad("entry %d (%s) is not signed by the key its signer held", i, typ)
	}
	a.report.checked(typ)
	return nil
}

// checkBySigner checks an entry op signed with the key it held at
// signedAt.
func (a *audit) checkBySigner(ctx context.Context, i, signedAt uint64, typ, op string, leaf, signed map[string]any) error {
	if typ == "contribution" {
		if imported, ok := signed["imported"].(map[string]any); ok {
			key, err := importedKey(op, imported)
			if err != nil {
				return bad("entry %d, an imported contribution: %v", i, err)
			}
			return a.verified(i, typ, verifyContribution(i, signed, key))
		}
	}
	key, known, err := a.keyAt(ctx, op, signedAt)
	if err != nil {
		return err
	}
	if !known {
		if a.knowsSigners {
			return bad("entry %d (%s) is signed by %q, but the log gives it no key before entry %d", i, typ, op, signedAt)
		}
		a.report.notChecked(notCheckedBeforePin, typ)
		return nil
	}
	switch typ {
	case "key_rotation":
		newKey, _ := signed["key"].(string)
		if !protocol.VerifyKeyRotation(signed, key) {
			return bad("entry %d (%s) is not signed by the key its signer held and the key it names", i, typ)
		}
		s := a.signer(op)
		for _, h := range s.keys {
			if h.key == newKey && newKey != "" {
				return bad("entry %d rotates %s to a key it held before", i, op)
			}
		}
		s.keys = append(s.keys, heldKey{since: i, key: newKey})
		a.report.checked(typ)
		return nil
	case "contribution":
		return a.verified(i, typ, verifyContribution(i, signed, key))
	case "bundle":
		if _, revealed := leaf["sealed"]; revealed {
			a.report.notChecked(notCheckedBundleLeaf, typ)
		}
	}
	if !protocol.Verify(signed, key) {
		return bad("entry %d (%s) is not signed by the key its signer held", i, typ)
	}
	a.report.checked(typ)
	return nil
}

// verified counts entry i's signature as checked, or returns why it is
// not good.
func (a *audit) verified(i uint64, typ string, err error) error {
	if err != nil {
		return err
	}
	a.report.checked(typ)
	return nil
}

// verifyContribution checks a contribution entry: its revision is the
// SHA-256 of its record's canonical JSON, its operator is the record's
// author, and sig is key's signature over that canonical JSON.
func verifyContribution(i uint64, signed map[string]any, key string) error {
	rec, _ := signed["record"].(map[string]any)
	sig, _ := signed["sig"].(string)
	if rec == nil {
		return bad("entry %d (contribution) holds no record", i)
	}
	canon, err := canonical.Marshal(rec)
	if err != nil {
		return bad("entry %d (contribution): its record: %v", i, err)
	}
	sum := sha256.Sum256(canon)
	if signed["revision"] != hex.EncodeToString(sum[:]) {
		return bad("entry %d (contribution) names the revision %v, but its record's is %x", i, signed["revision"], sum)
	}
	if author, _ := rec["author"].(string); signed["operator"] != "op:"+author {
		return bad("entry %d (contribution) is by %v, but its record's author is op:%s", i, signed["operator"], author)
	}
	if !hybrid.Verify(sig, canon, key) {
		return bad("entry %d (contribution) is not signed by the key its author held", i)
	}
	return nil
}

// importedKey returns the key an imported contribution says verifies it,
// once it checked that the key is the author's: its first key, which makes
// op, or one a rotation it records gave, each rotation signed by the key
// before it and countersigned by the new one.
func importedKey(op string, imported map[string]any) (string, error) {
	author, _ := imported["author"].(map[string]any)
	first, _ := author["key"].(string)
	if protocol.OperatorID(first) != op {
		return "", fmt.Errorf("the author's first key it records does not make %s", op)
	}
	keys := []string{first}
	rotations, _ := author["rotations"].([]any)
	for n, v := range rotations {
		rot, _ := v.(map[string]any)
		next, _ := rot["key"].(string)
		if rot["operator"] != op || !protocol.VerifyKeyRotation(rot, keys[len(keys)-1]) || slices.Contains(keys, next) {
			return "", fmt.Errorf("its rotation %d is not one of %s's, signed by the key before it", n, op)
		}
		keys = append(keys, next)
	}
	signedBy, _ := imported["signed_by"].(string)
	if !slices.Contains(keys, signedBy) {
		return "", fmt.Errorf("it names a key that verifies it that is not one of its author's")
	}
	return signedBy, nil
}

// checkIdentity checks an identity entry: an invited one signed by the
// log's key, others by the operator's; a vouch's voucher_sig by the log's
// key and, from a pairing code, its consent_sig by the operator's; a
// sponsored one's sponsor, as checkSponsor does. It records the organization the leaf counts the
// operator in.
func (a *audit) checkIdentity(ctx context.Context, i uint64, leaf, signed map[string]any) error {
	op, _ := leaf["operator"].(string)
	key, known := a.key, true
	if signed["kind"] != "invited" {
		var err error
		if key, known, err = a.keyAt(ctx, op, i); err != nil {
			return err
		}
	}
	switch {
	case known && (signed["kind"] == "vouched" || signed["pairing"] != nil):
		// A vouch, or a domain named from a pairing link: the log's
		// attestation in voucher_sig, and the operator's countersignature
		// (sig) or its advance consent (consent_sig).
		e, err := operators.CheckIdentityEntry(signed, op)
		if err == nil {
			err = operators.VerifyIdentityEntry(signed, e, operators.IdentityKeys{Operator: key, Log: a.key})
		}
		if err != nil {
			return bad("entry %d (%v identity) does not verify: %v", i, signed["kind"], err)
		}
		a.report.checked("identity")
	case known && !protocol.Verify(signed, key):
		return bad("entry %d (identity) is not signed by the key its signer held", i)
	case known:
		a.report.checked("identity")
	case a.knowsSigners:
		return bad("entry %d (identity) is signed by %q, but the log gives it no key before it", i, op)
	default:
		a.report.notChecked(notCheckedBeforePin, "identity")
	}
	if signed["kind"] == "sponsored" {
		if err := a.checkSponsor(ctx, i, leaf, signed); err != nil {
			return err
		}
	}
	if org, _ := leaf["organization"].(string); org != "" {
		a.signer(op).org = org
	}
	a.noteIdentity(i, op, signed)
	return nil
}

// checkSponsor checks a sponsored identity as the reference monitor checks
// that each signer had the identity its entry needs: the sponsor had an
// identity of its own when the entry was logged, the operator counts as the
// sponsor's organization, and the sponsor's key signed the invite.
func (a *audit) checkSponsor(ctx context.Context, i uint64, leaf, signed map[string]any) error {
	sponsor, _ := signed["sponsor"].(string)
	org := ""
	if s := a.signers[sponsor]; s != nil {
		org = s.org
	}
	if org == "" {
		if a.knowsSigners {
			return bad("entry %d: its sponsor %s had no identity on the log", i, sponsor)
		}
		a.report.notChecked(notCheckedSponsor, "identity")
		return nil
	}
	if got, _ := leaf["organization"].(string); got != org {
		return bad("entry %d: a sponsored identity counts as %q, not its sponsor's organization %q", i, got, org)
	}
	key, have, err := a.keyAt(ctx, sponsor, i)
	if err != nil {
		return err
	}
	code, _ := signed["code"].(string)
	sig, _ := signed["sponsor_sig"].(string)
	payload, err := operators.InvitePayload(sponsor, code)
	if !have || err != nil || !hybrid.Verify(sig, payload, key) {
		return bad("entry %d: the sponsor's signature on the invite does not verify", i)
	}
	return nil
}
