package hybrid

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
)

// FuzzVerify feeds Verify arbitrary signature, key and message text. It must
// never panic, and whatever it accepts must have the scheme's exact form: a
// key or signature that isn't "ed25519-ml-dsa-44:" and lowercase hex of the
// right length is always a failed verification.
func FuzzVerify(f *testing.F) {
	var file struct {
		Cases []struct {
			PublicKey string `json:"public_key"`
			Payload   string `json:"payload"`
			Sig       string `json:"sig"`
		} `json:"cases"`
	}
	data := testvectors.Read(f, testvectors.ConformanceDir(), "signature-vectors.json")
	if err := json.Unmarshal(data, &file); err != nil {
		f.Fatal(err)
	}
	for _, c := range file.Cases {
		f.Add(c.Sig, c.PublicKey, []byte(c.Payload))
		f.Add(c.Sig[:len(c.Sig)-1]+"0", c.PublicKey, []byte(c.Payload))
		f.Add(c.Sig, c.PublicKey[:len(c.PublicKey)-2], []byte(c.Payload))
		f.Add(strings.ToUpper(c.Sig), c.PublicKey, []byte(c.Payload))
	}
	f.Add("", "", []byte(nil))
	f.Add(prefix, prefix, []byte("x"))
	f.Add("ed25519:00", "ed25519:00", []byte("x"))

	f.Fuzz(func(t *testing.T, sig, key string, message []byte) {
		if !Verify(sig, message, key) {
			return
		}
		if _, err := decode(sig, SignatureSize); err != nil {
			t.Fatalf("a malformed signature verified: %v", err)
		}
		if _, err := ParsePublicKey(key); err != nil {
			t.Fatalf("a malformed key verified: %v", err)
		}
	})
}
