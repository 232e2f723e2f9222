package hybrid

import (
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
)

type signatureVector struct {
	Name      string `json:"name"`
	SecretKey string `json:"secret_key"`
	PublicKey string `json:"public_key"`
	Payload   string `json:"payload"`
	Sig       string `json:"sig"`
}

func loadVectors(t *testing.T) []signatureVector {
	var file struct {
		Cases []signatureVector `json:"cases"`
	}
	data := testvectors.Read(t, testvectors.ConformanceDir(), "signature-vectors.json")
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	return file.Cases
}

func TestVectorsReproduce(t *testing.T) {
	for _, v := range loadVectors(t) {
		secret, _ := hex.DecodeString(v.SecretKey)
		k, err := NewPrivateKey(secret)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.Public().String(); got != v.PublicKey {
			t.Errorf("%s: public key differs", v.Name)
		}
		if got := k.SignDeterministic([]byte(v.Payload)); got != v.Sig {
			t.Errorf("%s: deterministic signature differs", v.Name)
		}
		if !Verify(v.Sig, []byte(v.Payload), v.PublicKey) {
			t.Errorf("%s: signature does not verify", v.Name)
		}
		hedged := k.Sign([]byte(v.Payload))
		if !Verify(hedged, []byte(v.Payload), v.PublicKey) {
			t.Errorf("%s: hedged signature does not verify", v.Name)
		}
		if Verify(hedged, []byte(v.Payload+" "), v.PublicKey) {
			t.Errorf("%s: signature verifies over another message", v.Name)
		}
	}
}

func TestMalformedIsFalse(t *testing.T) {
	v := loadVectors(t)[0]
	msg := []byte(v.Payload)
	for name, c := range map[string][2]string{
		"empty sig":       {"", v.PublicKey},
		"wrong prefix":    {"ed25519:" + v.Sig[len(prefix):], v.PublicKey},
		"short sig":       {v.Sig[:len(v.Sig)-2], v.PublicKey},
		"uppercase hex":   {prefix + "A" + v.Sig[len(prefix)+1:], v.PublicKey},
		"not hex":         {prefix + "zz" + v.Sig[len(prefix)+2:], v.PublicKey},
		"empty key":       {v.Sig, ""},
		"short key":       {v.Sig, v.PublicKey[:100]},
		"key as sig":      {v.PublicKey, v.PublicKey},
		"flipped ed half": {flip(v.Sig, len(prefix)+3), v.PublicKey},
		"flipped ml half": {flip(v.Sig, len(v.Sig)-3), v.PublicKey},
	} {
		if Verify(c[0], msg, c[1]) {
			t.Errorf("%s: verified", name)
		}
	}
}

func flip(s string, i int) string {
	b := []byte(s)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return string(b)
}
