package protocol

import (
	"bytes"
	"fmt"
	"maps"

	"github.com/agora-node/agora/canonical"
)

// SignatureFields are the members of a signed entry that hold signatures. A
// log leaf holds each as its signature digest and the node keeps the
// signatures beside the log: they are most of an entry's size and matter
// only to someone checking who signed it, while the leaf hash still fixes
// every one of them.
var SignatureFields = [...]string{"sig", "key_sig", "voucher_sig", "sponsor_sig", "consent_sig"}

// EntryDigest returns an entry's digest as signed: the canonical digest of
// the whole entry, signatures included. Every log that holds the entry gives
// it the same digest, whatever its index there, so two logs are compared
// entry by entry through it.
func EntryDigest(entry map[string]any) (string, error) {
	d, err := canonical.CanonicalDigest(entry)
	if err != nil {
		return "", fmt.Errorf("ledger: entry digest: %w", err)
	}
	return d, nil
}

// SignatureDigest returns the digest a log leaf holds in place of a
// signature: the canonical digest of the signature value. For a hybrid
// signature, a string, that is the SHA-256 of the quoted JSON string; for a
// passkey signature, an object, the SHA-256 of its canonical JSON.
func SignatureDigest(sig any) (string, error) {
	d, err := canonical.CanonicalDigest(sig)
	if err != nil {
		return "", fmt.Errorf("ledger: signature digest: %w", err)
	}
	return d, nil
}

// Detach returns the leaf form of a signed entry: a shallow copy in which
// every member named in SignatureFields that is present is replaced by its
// signature digest. entry itself is not changed.
func Detach(entry map[string]any) (map[string]any, error) {
	detached := maps.Clone(entry)
	if detached == nil {
		return nil, fmt.Errorf("ledger: detach: the entry is not an object")
	}
	for _, field := range SignatureFields {
		sig, ok := detached[field]
		if !ok {
			continue
		}
		d, err := SignatureDigest(sig)
		if err != nil {
			return nil, fmt.Errorf("ledger: detach %q: %w", field, err)
		}
		detached[field] = d
	}
	return detached, nil
}

// MatchesLeafEntry reports whether signed is the entry a log leaf holds as
// leafEntry: whether signed, its signatures detached, has the same canonical
// JSON. A node serves entries as signed beside its log; this is how a reader
// checks one against the leaf the tree fixes. Anything that cannot be
// canonicalized does not match.
func MatchesLeafEntry(signed, leafEntry map[string]any) bool {
	detached, err := Detach(signed)
	if err != nil {
		return false
	}
	got, err := canonical.Marshal(detached)
	if err != nil {
		return false
	}
	want, err := canonical.Marshal(leafEntry)
	if err != nil {
		return false
	}
	return bytes.Equal(got, want)
}
