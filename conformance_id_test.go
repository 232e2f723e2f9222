package agora_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// idVectors runs id-vectors.json: every operator ID and observer ID must be
// the one its first key makes; every entry's digest and leaf form must be
// exactly the vector's, with its signatures verifying (the key rotation's
// key_sig by the new key, its sig by the operator's first key, which still
// names the operator); every invalid operator ID must be refused for its key.
func idVectors(t *testing.T, data []byte) {
	var file struct {
		Operators []struct {
			PublicKey  string `json:"public_key"`
			OperatorID string `json:"operator_id"`
		} `json:"operators"`
		Observers []struct {
			Passkey    string `json:"passkey"`
			ObserverID string `json:"observer_id"`
		} `json:"observers"`
		Entries []struct {
			Name        string          `json:"name"`
			Entry       json.RawMessage `json:"entry"`
			EntryDigest string          `json:"entry_digest"`
			LeafEntry   json.RawMessage `json:"leaf_entry"`
		} `json:"entries"`
		Invalid []struct {
			Name       string `json:"name"`
			PublicKey  string `json:"public_key"`
			OperatorID string `json:"operator_id"`
		} `json:"invalid"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Operators) == 0 || len(file.Observers) == 0 || len(file.Entries) == 0 || len(file.Invalid) == 0 {
		t.Fatalf("vector file has %d operators, %d observers, %d entries, %d invalid; want some of each",
			len(file.Operators), len(file.Observers), len(file.Entries), len(file.Invalid))
	}

	object := func(t *testing.T, raw json.RawMessage) map[string]any {
		t.Helper()
		v, err := canonical.Parse(raw)
		if err != nil {
			t.Fatalf("%.200s: %v", raw, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%.200s is not an object", raw)
		}
		return obj
	}
	canonicalText := func(t *testing.T, v any) string {
		t.Helper()
		b, err := canonical.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// firstKeys maps each operator ID to the first key that made it, which
	// signs for the operator until it rotates.
	firstKeys := map[string]string{}
	for _, c := range file.Operators {
		t.Run("operator/"+c.OperatorID, func(t *testing.T) {
			if got := protocol.OperatorID(c.PublicKey); got != c.OperatorID {
				t.Errorf("operator ID = %s, want %s", got, c.OperatorID)
			}
			if err := protocol.ValidOperatorID(c.OperatorID, c.PublicKey); err != nil {
				t.Error(err)
			}
			if got := "op:" + strings.TrimPrefix(protocol.KeyDigest(c.PublicKey), "sha256:"); got != c.OperatorID {
				t.Errorf("the ID is not the key digest without sha256:, %s", got)
			}
		})
		firstKeys[c.OperatorID] = c.PublicKey
	}

	for _, c := range file.Observers {
		t.Run("observer/"+c.ObserverID, func(t *testing.T) {
			got, err := protocol.ObserverID(c.Passkey)
			if err != nil || got != c.ObserverID {
				t.Errorf("observer ID = %s, %v; want %s", got, err, c.ObserverID)
			}
		})
	}

	rotations := 0
	for _, c := range file.Entries {
		t.Run("entry/"+c.Name, func(t *testing.T) {
			entry, leafEntry := object(t, c.Entry), object(t, c.LeafEntry)
			if got, err := protocol.EntryDigest(entry); err != nil || got != c.EntryDigest {
				t.Errorf("entry digest = %s, %v; want %s", got, err, c.EntryDigest)
			}
			detached, err := protocol.Detach(entry)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := canonicalText(t, detached), canonicalText(t, leafEntry); got != want {
				t.Errorf("leaf entry differs:\n got %.300s\nwant %.300s", got, want)
			}
			if !protocol.MatchesLeafEntry(entry, leafEntry) {
				t.Error("the signed entry does not match its leaf entry")
			}
			if protocol.MatchesLeafEntry(leafEntry, leafEntry) {
				t.Error("the leaf entry matches itself as a signed entry")
			}

			// Whoever the entry says signed it must have: a key entry is
			// signed by the key it registers, a rotation by the operator's
			// current key and countersigned by the new one, and any other
			// entry by one of the vectors' operators.
			switch entry["type"] {
			case "key":
				key, _ := entry["key"].(string)
				if !protocol.Verify(entry, key) {
					t.Error("the key entry is not signed by the key it registers")
				}
			case protocol.KeyRotationType:
				rotations++
				operator, _ := entry["operator"].(string)
				newKey, _ := entry["key"].(string)
				current, ok := firstKeys[operator]
				if !ok {
					t.Fatalf("the rotation names %s, which no operator vector has", operator)
				}
				if !protocol.VerifyKeyRotation(entry, current) {
					t.Error("the rotation does not verify against the operator's first key")
				}
				payload, err := protocol.KeyRotationPayload(operator, newKey)
				if err != nil {
					t.Fatal(err)
				}
				keySig, _ := entry["key_sig"].(string)
				if !hybrid.Verify(keySig, payload, newKey) {
					t.Error("key_sig is not the new key's signature over {type, operator, key}")
				}
				if !protocol.Verify(entry, current) {
					t.Error("sig is not the current key's signature over the entry without sig")
				}
				if protocol.VerifyKeyRotation(entry, newKey) {
					t.Error("the rotation verifies with the new key as the current one")
				}
				// The operator keeps the ID its first key made.
				if err := protocol.ValidOperatorID(operator, current); err != nil {
					t.Error(err)
				}
				if protocol.OperatorID(newKey) == operator {
					t.Error("the new key makes the operator's ID; a rotation must keep the first key's")
				}
			default:
				signedBy := ""
				for id, key := range firstKeys {
					if protocol.Verify(entry, key) {
						signedBy = id
					}
				}
				if signedBy == "" {
					t.Error("no operator's key signed the entry")
				}
			}
		})
	}
	if rotations == 0 {
		t.Error("no key rotation among the entries")
	}

	for _, c := range file.Invalid {
		t.Run("invalid/"+c.Name, func(t *testing.T) {
			if err := protocol.ValidOperatorID(c.OperatorID, c.PublicKey); err == nil {
				t.Errorf("%s accepted for the key", c.OperatorID)
			}
		})
	}
}
