package agora_test

import (
	"encoding/hex"
	"encoding/json"
	"maps"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// signatureVectors runs signature-vectors.json. For every case the public
// key derived from the secret key, its key digest, the signing payload, the
// deterministic signature and the signature digest must each be exactly the
// vector's, and the signature must verify, directly and as a signed object.
// Every invalid case must fail verification, and so must the same object
// with a signature or key that is not a string: malformed input is a failed
// verification, never an error that escapes or a panic.
func signatureVectors(t *testing.T, data []byte) {
	var file struct {
		Cases []struct {
			Name      string          `json:"name"`
			SecretKey string          `json:"secret_key"`
			PublicKey string          `json:"public_key"`
			KeyDigest string          `json:"key_digest"`
			Object    json.RawMessage `json:"object"`
			Payload   string          `json:"payload"`
			Sig       string          `json:"sig"`
			SigDigest string          `json:"sig_digest"`
		} `json:"cases"`
		// Raw, so a signature or key of any JSON type reaches the verifier
		// as the protocol's parser reads it.
		Invalid []struct {
			Name      string          `json:"name"`
			PublicKey json.RawMessage `json:"public_key"`
			Object    json.RawMessage `json:"object"`
			Sig       json.RawMessage `json:"sig"`
		} `json:"invalid"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 || len(file.Invalid) == 0 {
		t.Fatalf("vector file has %d cases and %d invalid; want some of each", len(file.Cases), len(file.Invalid))
	}

	parse := func(t *testing.T, raw json.RawMessage) any {
		t.Helper()
		v, err := canonical.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return v
	}
	object := func(t *testing.T, raw json.RawMessage) map[string]any {
		t.Helper()
		obj, ok := parse(t, raw).(map[string]any)
		if !ok {
			t.Fatalf("%s is not an object", raw)
		}
		return obj
	}
	// verifies is how a node checks a signed object it was sent: the
	// signature in "sig", the key as the JSON value it was given as.
	verifies := func(obj map[string]any, sig, publicKey any) bool {
		signed := maps.Clone(obj)
		signed["sig"] = sig
		key, ok := publicKey.(string)
		return ok && protocol.Verify(signed, key)
	}

	var valid []map[string]any // signed objects, for the extra invalid cases below
	var validKeys []string
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			secret, err := hex.DecodeString(c.SecretKey)
			if err != nil {
				t.Fatal(err)
			}
			key, err := hybrid.NewPrivateKey(secret)
			if err != nil {
				t.Fatal(err)
			}
			if got := key.Public().String(); got != c.PublicKey {
				t.Fatalf("public key from the secret differs:\n got %.80s…\nwant %.80s…", got, c.PublicKey)
			}
			if got := protocol.KeyDigest(c.PublicKey); got != c.KeyDigest {
				t.Errorf("key digest = %s, want %s", got, c.KeyDigest)
			}

			obj := object(t, c.Object)
			payload, err := protocol.SigningPayload(obj)
			if err != nil {
				t.Fatal(err)
			}
			if string(payload) != c.Payload {
				t.Fatalf("signing payload differs:\n got %.200s\nwant %.200s", payload, c.Payload)
			}
			if got := key.SignDeterministic(payload); got != c.Sig {
				t.Errorf("deterministic signature differs:\n got %.80s…\nwant %.80s…", got, c.Sig)
			}
			if !hybrid.Verify(c.Sig, payload, c.PublicKey) {
				t.Error("the vector's signature does not verify over its payload")
			}
			if !verifies(obj, c.Sig, c.PublicKey) {
				t.Error("the vector's signature does not verify as the object's sig")
			}
			// Signing an object the way a signer does gives a hedged
			// signature, which differs but verifies the same way.
			signed := maps.Clone(obj)
			if err := protocol.Sign(signed, key); err != nil {
				t.Fatal(err)
			}
			if !protocol.Verify(signed, c.PublicKey) {
				t.Error("a hedged signature over the object does not verify")
			}
			if got, err := protocol.SignatureDigest(c.Sig); err != nil || got != c.SigDigest {
				t.Errorf("signature digest = %s, %v; want %s", got, err, c.SigDigest)
			}
			withSig := maps.Clone(obj)
			withSig["sig"] = c.Sig
			valid = append(valid, withSig)
			validKeys = append(validKeys, c.PublicKey)
		})
	}

	for _, c := range file.Invalid {
		t.Run("invalid/"+c.Name, func(t *testing.T) {
			obj := object(t, c.Object)
			sig, key := parse(t, c.Sig), parse(t, c.PublicKey)
			if verifies(obj, sig, key) {
				t.Error("verified")
			}
			// The same refusal through the bare scheme, where both are text.
			sigText, ok1 := sig.(string)
			keyText, ok2 := key.(string)
			if ok1 && ok2 {
				payload, err := protocol.SigningPayload(obj)
				if err != nil {
					t.Fatal(err)
				}
				if hybrid.Verify(sigText, payload, keyText) {
					t.Error("verified as a bare signature")
				}
			}
		})
	}

	// Signatures and keys that are not strings, or not the scheme's text,
	// beside a valid object: each must be a plain failure.
	if len(valid) == 0 {
		t.Fatal("no valid case to build malformed inputs from")
	}
	obj, goodSig, goodKey := valid[0], valid[0]["sig"].(string), validKeys[0]
	upperHex := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'a' <= c && c <= 'f' {
				b[i] = c - 'a' + 'A'
			}
		}
		return string(b)
	}
	malformed := map[string][2]any{
		"signature is a number":      {1.0, goodKey},
		"signature is null":          {nil, goodKey},
		"signature is an object":     {map[string]any{"sig": goodSig}, goodKey},
		"signature is an array":      {[]any{goodSig}, goodKey},
		"signature is true":          {true, goodKey},
		"signature is empty":         {"", goodKey},
		"signature is the key":       {goodKey, goodKey},
		"signature truncated":        {goodSig[:len(goodSig)-2], goodKey},
		"signature extended":         {goodSig + "00", goodKey},
		"signature not hex":          {goodSig[:len(goodSig)-1] + "g", goodKey},
		"signature uppercase":        {hybrid.Algorithm + ":" + upperHex(goodSig[len(hybrid.Algorithm)+1:]), goodKey},
		"key is a number":            {goodSig, 1.0},
		"key is null":                {goodSig, nil},
		"key is an object":           {goodSig, map[string]any{"key": goodKey}},
		"key is empty":               {goodSig, ""},
		"key truncated":              {goodSig, goodKey[:len(goodKey)-2]},
		"key without its prefix":     {goodSig, goodKey[len(hybrid.Algorithm)+1:]},
		"key with another algorithm": {goodSig, "ed25519:" + goodKey[len(hybrid.Algorithm)+1:]},
	}
	if !verifies(obj, goodSig, goodKey) {
		t.Fatal("the valid case the malformed inputs are built from does not verify")
	}
	for name, m := range malformed {
		t.Run("malformed/"+name, func(t *testing.T) {
			if verifies(obj, m[0], m[1]) {
				t.Error("verified")
			}
		})
	}
}
