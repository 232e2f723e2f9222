package operators

import (
	"strings"
	"testing"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// TestVouchBytes checks the bytes each side signs, as the reference
// library's consentPayload and vouchPayload give them: the consent and the
// vouch without their signatures, a paired vouch's with its pairing.
func TestVouchBytes(t *testing.T) {
	op := "op:" + strings.Repeat("1", 64)
	pairing := PairingDigest("pair:" + strings.Repeat("a", 32))
	if want := "sha256:"; !strings.HasPrefix(pairing, want) || len(pairing) != 71 {
		t.Fatalf("PairingDigest = %q", pairing)
	}
	consent, _ := ConsentPayload(op, pairing)
	if want := `{"operator":"` + op + `","pairing":"` + pairing + `","type":"vouch_consent"}`; string(consent) != want {
		t.Errorf("ConsentPayload = %s\nwant %s", consent, want)
	}
	plain, _ := VouchPayload(op, "github:42", "")
	if want := `{"kind":"vouched","operator":"` + op + `","type":"identity","voucher":"github:42"}`; string(plain) != want {
		t.Errorf("VouchPayload = %s\nwant %s", plain, want)
	}
	paired, _ := VouchPayload(op, "github:42", pairing)
	if want := `{"kind":"vouched","operator":"` + op + `","pairing":"` + pairing + `","type":"identity","voucher":"github:42"}`; string(paired) != want {
		t.Errorf("VouchPayload paired = %s\nwant %s", paired, want)
	}
}

// TestPairedVouch makes a consent and the paired vouch the log logs for
// it, and checks both forms of a vouch through CheckIdentityEntry and
// VerifyIdentityEntry, and what each refuses.
func TestPairedVouch(t *testing.T) {
	opKey, _ := hybrid.GenerateKey()
	logKey, _ := hybrid.GenerateKey()
	op := protocol.OperatorID(opKey.Public().String())
	signer := Signer{Operator: op, Key: opKey.Public().String(), KeyFamilies: []string{"claude"}}
	code, _ := NewPairingCode()
	if err := CheckPairingCode(code); err != nil {
		t.Fatal(err)
	}
	entry := map[string]any{"type": VouchConsentType, "operator": op, "pairing": PairingDigest(code)}
	protocol.Sign(entry, opKey)
	c, err := CheckVouchConsent(entry, signer)
	if err != nil {
		t.Fatal(err)
	}
	keys := IdentityKeys{Operator: signer.Key, Log: logKey.Public().String()}
	vouch, _ := AttestPairedVouch(op, *c, "github:42", logKey)
	e, err := CheckIdentityEntry(vouch, op)
	if err != nil || e.Pairing != c.Pairing || e.Voucher != "github:42" {
		t.Fatalf("CheckIdentityEntry(paired) = %+v, %v", e, err)
	}
	if err := VerifyIdentityEntry(vouch, e, keys); err != nil {
		t.Fatalf("a paired vouch does not verify: %v", err)
	}
	other, _ := hybrid.GenerateKey()
	if err := VerifyIdentityEntry(vouch, e, IdentityKeys{Operator: other.Public().String(), Log: keys.Log}); err == nil {
		t.Error("a paired vouch verified against another operator key")
	}
	moved := map[string]any{}
	for k, v := range vouch {
		moved[k] = v
	}
	moved["voucher"] = "github:43"
	if e2, _ := CheckIdentityEntry(moved, op); VerifyIdentityEntry(moved, e2, keys) == nil {
		t.Error("a paired vouch verified with another voucher")
	}
	countersigned, _ := AttestVouch(op, "github:42", logKey)
	protocol.Sign(countersigned, opKey)
	e, err = CheckIdentityEntry(countersigned, op)
	if err != nil || e.Pairing != "" || VerifyIdentityEntry(countersigned, e, keys) != nil {
		t.Fatalf("a countersigned vouch: %+v, %v", e, err)
	}
	for name, bad := range map[string]map[string]any{
		"code in place of digest": {"type": VouchConsentType, "operator": op, "pairing": code},
		"a model":                 {"type": VouchConsentType, "operator": op, "pairing": PairingDigest(code), "model": "x"},
	} {
		protocol.Sign(bad, opKey)
		if _, err := CheckVouchConsent(bad, signer); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			wantErr(t, name, err, ErrMalformed, "")
		}
	}
	both := map[string]any{}
	for k, v := range vouch {
		both[k] = v
	}
	both["sig"] = "x"
	if _, err := CheckIdentityEntry(both, op); err == nil {
		t.Error("a vouch with both sig and pairing was accepted")
	}
	if _, err := CheckIdentityEntry(map[string]any{"type": "identity", "kind": "vouched+pairing", "operator": op}, op); err == nil {
		t.Error("the internal shape key was accepted as a kind")
	}
}

func TestCheckEmail(t *testing.T) {
	for _, ok := range []string{"person@example.org", "Person.Name+tag@sub.example.co.uk"} {
		if err := CheckEmail(ok); err != nil {
			t.Errorf("CheckEmail(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "person", "person@localhost", "Person <person@example.org>", "a b@example.org",
		"person@example.org\r\nBcc: x@example.org", "pérson@example.org", strings.Repeat("a", 250) + "@x.org", "<person@example.org>"} {
		if err := CheckEmail(bad); err == nil {
			t.Errorf("CheckEmail(%q) accepted", bad)
		}
	}
}
