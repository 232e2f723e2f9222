package tlog

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestSignedNoteExample checks the example of c2sp.org/signed-note,
// "Verifier keys": its vkey, and the note it signed.
func TestSignedNoteExample(t *testing.T) {
	vkey := "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
	msg := "This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
	v, err := parseVerifierKey(vkey)
	if err != nil {
		t.Fatal(err)
	}
	if v.name != "example.com/foo" || v.keyID != 0x530d903a || v.sigType != SigTypeEd25519 {
		t.Fatalf("verifier %+v", v)
	}
	if got := vkeyText(v.name, v.sigType, v.pub); got != vkey {
		t.Errorf("vkey written back as %q", got)
	}
	n, err := parseNote([]byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	if n.text != "This is an example message.\n" {
		t.Errorf("text %q", n.text)
	}
	if _, err := n.signedBy(v); err != nil {
		t.Error(err)
	}
	n.text = "This is an example message!\n"
	if _, err := n.signedBy(v); !errors.Is(err, ErrVerification) {
		t.Errorf("a changed text: %v", err)
	}

	for name, bad := range map[string]string{
		"another ID":           strings.Replace(vkey, "530d903a", "530d903b", 1),
		"an uppercase ID":      "example.com/foo+530D903A+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
		"no key":               "example.com/foo+530d903a",
		"non-canonical base64": strings.TrimSuffix(vkey, "k") + "l",
		"a name with a space":  "example com+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
		"an unknown type":      "example.com/foo+530d903a+AukyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
	} {
		if _, err := parseVerifierKey(bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNoteSplits follows the reference library's reading of notes: the
// text ends at the last blank line.
func TestNoteSplits(t *testing.T) {
	text := "first\n\nsecond\n"
	signer, err := newNoteSigner("example.com/k", SigTypeEd25519, seedKey(1))
	if err != nil {
		t.Fatal(err)
	}
	sig, _ := signer.Sign([]byte(text))
	line := "\u2014 example.com/k " + b64(append(be32(signer.keyID), sig...)) + "\n"
	n, err := parseNote([]byte(text + "\n" + line))
	if err != nil || n.text != text || len(n.sigs) != 1 {
		t.Fatalf("%+v, %v", n, err)
	}
	for _, bad := range []string{text, text + "\n", text + "\n" + line[:len(line)-1], text + "\nnot a signature\n", "\n\n"} {
		if _, err := parseNote([]byte(bad)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for _, name := range []string{"", "a b", "a+b", "a\u00a0b", "a\ufeffb", "a\u0085b", "a\u3000b"} {
		if checkKeyName(name) == nil {
			t.Errorf("key name %q accepted", name)
		}
	}
}

func seedKey(b byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize))
}

func be32(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
