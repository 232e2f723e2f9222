package protocol

import (
	"fmt"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
)

// KeyRotationType is the type of the entry that moves an operator to a new
// key while it still holds the old one.
const KeyRotationType = "key_rotation"

// KeyRotationPayload returns the bytes the new key signs in a rotation, its
// key_sig: the canonical JSON of {type: "key_rotation", operator, key}, the
// entry without either signature.
func KeyRotationPayload(operator, newKey string) ([]byte, error) {
	b, err := canonical.Marshal(map[string]any{"type": KeyRotationType, "operator": operator, "key": newKey})
	if err != nil {
		return nil, fmt.Errorf("ledger: key rotation payload: %w", err)
	}
	return b, nil
}

// SignKeyRotation returns a signed rotation of operator from currentKey to
// newKey: {type, operator, key, key_sig, sig}. The new key signs first, in
// key_sig, which proves the operator holds it; the current key then signs
// everything but sig, key_sig included, so the rotation can't be replayed
// with another new key. The operator keeps its ID.
func SignKeyRotation(operator string, newKey, currentKey *hybrid.PrivateKey) (map[string]any, error) {
	if !IsOperatorID(operator) {
		return nil, fmt.Errorf("ledger: key rotation: %q is not an operator ID: %w", operator, ErrInvalidID)
	}
	key := newKey.Public().String()
	payload, err := KeyRotationPayload(operator, key)
	if err != nil {
		return nil, err
	}
	entry := map[string]any{
		"type":     KeyRotationType,
		"operator": operator,
		"key":      key,
		"key_sig":  newKey.Sign(payload),
	}
	if err := Sign(entry, currentKey); err != nil {
		return nil, fmt.Errorf("ledger: key rotation: %w", err)
	}
	return entry, nil
}

// VerifyKeyRotation reports whether entry is a rotation countersigned by the
// new key it names (key_sig over {type, operator, key}) and signed by
// currentKey, the key the operator held until now (sig over everything but
// sig). Anything malformed, including a type other than "key_rotation", is a
// failed verification.
func VerifyKeyRotation(entry map[string]any, currentKey string) bool {
	if entry["type"] != KeyRotationType {
		return false
	}
	operator, ok1 := entry["operator"].(string)
	key, ok2 := entry["key"].(string)
	keySig, ok3 := entry["key_sig"].(string)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	payload, err := KeyRotationPayload(operator, key)
	if err != nil {
		return false
	}
	return hybrid.Verify(keySig, payload, key) && Verify(entry, currentKey)
}
