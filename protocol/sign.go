// Package protocol holds the sciencejournal protocol's identifiers and signed
// objects: digests, key digests, operator, volunteer and log IDs, the bytes a
// signature covers, entry digests, the leaf form of an entry (its signatures
// replaced by their digests), key rotations, the IDs entries make (threads,
// posts, ideas, pre-registrations, tasks, swarms, goals and what hangs off
// them) and sealed commitments.
//
// Every rule here is byte for byte the protocol reference library's; the
// conformance vectors in signature-vectors.json and id-vectors.json pin them.
//
// The spec: spec/ledger-protocol.md; its vectors are in testdata/conformance.
package protocol

import (
	"fmt"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
)

// SigningPayload returns the bytes a signature over obj covers: the canonical
// JSON of obj without its top-level "sig" member. Every signed object has a
// "type" member, so a signature cannot be moved to an object of another type.
func SigningPayload(obj map[string]any) ([]byte, error) {
	unsigned := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "sig" {
			unsigned[k] = v
		}
	}
	b, err := canonical.Marshal(unsigned)
	if err != nil {
		return nil, fmt.Errorf("ledger: signing payload: %w", err)
	}
	return b, nil
}

// Sign sets obj["sig"] to key's signature over obj's signing payload.
func Sign(obj map[string]any, key *hybrid.PrivateKey) error {
	payload, err := SigningPayload(obj)
	if err != nil {
		return err
	}
	obj["sig"] = key.Sign(payload)
	return nil
}

// Verify reports whether obj["sig"] is publicKey's signature over obj's
// signing payload. Anything malformed is a failed verification.
func Verify(obj map[string]any, publicKey string) bool {
	sig, ok := obj["sig"].(string)
	if !ok {
		return false
	}
	payload, err := SigningPayload(obj)
	if err != nil {
		return false
	}
	return hybrid.Verify(sig, payload, publicKey)
}
