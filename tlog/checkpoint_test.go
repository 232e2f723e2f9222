package tlog_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/formats/log"
	"golang.org/x/mod/sumdb/note"
)

func seed(b byte) ed25519.PrivateKey { return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, 32)) }

func mustHash(t testing.TB, s string) tlog.Hash {
	t.Helper()
	h, err := tlog.ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestCheckpointFormat checks the facts the reference library's tests state
// about its checkpoints.
func TestCheckpointFormat(t *testing.T) {
	origin, err := tlog.CheckpointOrigin("log:" + strings.Repeat("ab", 32))
	if err != nil || origin != "sciencejournal.ai/log/"+strings.Repeat("ab", 32) {
		t.Fatalf("origin %q, %v", origin, err)
	}
	for _, bad := range []string{"log:xyz", "log:" + strings.Repeat("AB", 32), strings.Repeat("ab", 32), "log:" + strings.Repeat("ab", 33)} {
		if _, err := tlog.CheckpointOrigin(bad); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("CheckpointOrigin(%q): %v", bad, err)
		}
	}
	root := mustHash(t, strings.Repeat("cd", 32))
	text, err := tlog.FormatCheckpoint(tlog.Checkpoint{Origin: origin, Size: 20852163, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if want := origin + "\n20852163\nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc0=\n"; string(text) != want {
		t.Errorf("text %q, want %q", text, want)
	}
	for name, c := range map[string]tlog.Checkpoint{
		"an empty origin":         {Origin: "", Size: 1},
		"an origin with newlines": {Origin: "a\nb", Size: 1},
		"an origin with a tab":    {Origin: "a\tb", Size: 1},
		"a long origin":           {Origin: strings.Repeat("a", 256), Size: 1},
		"a size past 2^53":        {Origin: "a", Size: 1 << 53},
	} {
		if _, err := tlog.FormatCheckpoint(c); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// An origin may hold a space, but a log's origin is its key's name,
	// which may not.
	if _, err := tlog.FormatCheckpoint(tlog.Checkpoint{Origin: "a b", Size: 1}); err != nil {
		t.Errorf("an origin with a space: %v", err)
	}
	for _, origin := range []string{"a b", "a+b", "", strings.Repeat("a", 256)} {
		if _, err := tlog.NewCheckpointSigner(origin, seed(1)); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("a signer named %q: %v", origin, err)
		}
	}
}

func TestSignAndVerifyCheckpoint(t *testing.T) {
	origin, _ := tlog.CheckpointOrigin("log:" + strings.Repeat("ab", 32))
	signer, err := tlog.NewCheckpointSigner(origin, seed(1))
	if err != nil {
		t.Fatal(err)
	}
	vkey := signer.VerifierKey()
	if !strings.HasPrefix(vkey, origin+"+") {
		t.Fatalf("vkey %q", vkey)
	}
	root := mustHash(t, strings.Repeat("cd", 32))
	signed, err := signer.SignCheckpoint(20852163, root)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tlog.VerifyCheckpoint(signed, vkey)
	if err != nil {
		t.Fatal(err)
	}
	if c != (tlog.Checkpoint{Origin: origin, Size: 20852163, Root: root}) {
		t.Fatalf("checkpoint %+v", c)
	}

	// The checkpoint is one the field's tools read: sumdb's note package
	// and transparency-dev's checkpoint parser, with sumdb's verifier for
	// the same vkey.
	v, err := note.NewVerifier(vkey)
	if err != nil {
		t.Fatal(err)
	}
	if v.KeyHash() != signer.KeyHash() {
		t.Errorf("key ID %08x, sumdb computes %08x", signer.KeyHash(), v.KeyHash())
	}
	cp, _, _, err := log.ParseCheckpoint(signed, origin, v)
	if err != nil || cp.Size != 20852163 || !bytes.Equal(cp.Hash, root[:]) {
		t.Fatalf("formats/log reads %+v, %v", cp, err)
	}

	other, _ := tlog.NewCheckpointSigner(origin, seed(9))
	elsewhere, _ := tlog.NewCheckpointSigner("example.com/log", seed(1))
	twice := append(append([]byte(nil), signed...), signed[bytes.LastIndex(signed, []byte("\n\n"))+2:]...)
	for name, c := range map[string]struct {
		msg  []byte
		vkey string
	}{
		"another key of the same name": {signed, other.VerifierKey()},
		"a key of another name":        {signed, elsewhere.VerifierKey()},
		"a changed size":               {bytes.Replace(signed, []byte("20852163"), []byte("20852164"), 1), vkey},
		"two signatures from the key":  {twice, vkey},
	} {
		if _, err := tlog.VerifyCheckpoint(c.msg, c.vkey); !errors.Is(err, tlog.ErrVerification) {
			t.Errorf("%s: %v", name, err)
		}
	}
	w, _ := tlog.NewCosigner("witness.example/w1", seed(2))
	if _, err := tlog.VerifyCheckpoint(signed, w.VerifierKey()); !errors.Is(err, tlog.ErrMalformed) {
		t.Errorf("a witness's key as the log's: %v", err)
	}
}

func TestCheckpointRefuses(t *testing.T) {
	origin := "example.com/log"
	signer, _ := tlog.NewCheckpointSigner(origin, seed(1))
	sign := func(body string) []byte {
		msg, err := note.Sign(&note.Note{Text: body}, signer)
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	root := "zc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc0="
	good := sign(origin + "\n5\n" + root + "\n")
	if _, err := tlog.ParseCheckpoint(good); err != nil {
		t.Fatal(err)
	}
	for name, msg := range map[string][]byte{
		"a size with a leading zero":  sign(origin + "\n05\n" + root + "\n"),
		"a signed size":               sign(origin + "\n+5\n" + root + "\n"),
		"a size past 2^53":            sign(origin + "\n9007199254740992\n" + root + "\n"),
		"a short root":                sign(origin + "\n1\nAAAA\n"),
		"no root":                     sign(origin + "\n1\n"),
		"an extension line":           sign(origin + "\n5\n" + root + "\nextension\n"),
		"non-canonical base64":        sign(origin + "\n5\n" + root[:42] + "1=\n"),
		"an empty origin":             sign("\n5\n" + root + "\n"),
		"no signature":                []byte(origin + "\n5\n" + root + "\n\n"),
		"no blank line":               []byte(origin + "\n5\n" + root + "\n"),
		"no final newline":            good[:len(good)-1],
		"a tab":                       bytes.Replace(good, []byte("example"), []byte("exa\tmple"), 1),
		"a line that isn't signature": append(append([]byte(nil), good...), "not a signature\n"...),
		"a short signature":           []byte(origin + "\n5\n" + root + "\n\n— k AAAA\n"),
		"invalid UTF-8":               append([]byte("\xff"), good...),
		"too many signatures":         append(append([]byte(nil), good...), bytes.Repeat(good[bytes.LastIndex(good, []byte("\n\n"))+2:], 64)...),
	} {
		if _, err := tlog.ParseCheckpoint(msg); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestLiveCheckpoint verifies a checkpoint a live witness cosigned, from
// the reference library's tests: the log's Ed25519 signature, the witness's
// Ed25519 cosignature, and an ML-DSA-44 cosignature from the same witness,
// a signature type this package does not read and so ignores.
func TestLiveCheckpoint(t *testing.T) {
	msg, err := os.ReadFile("testdata/witnessed-checkpoint.txt")
	if err != nil {
		t.Fatal(err)
	}
	logKey := "markovianprotocol.com/log+0302c6c8+ATkpOWo95UuEiW2EhNZAol4f0CS8hMluJfPcTSzrr03v"
	witness := "witness.navigli.sunlight.geomys.org+a3e00fe2+BNy/co4C1Hn1p+INwJrfUlgz7W55dSZReusH/GhUhJ/G"
	c, err := tlog.VerifyCheckpoint(msg, logKey)
	if err != nil {
		t.Fatal(err)
	}
	if c.Origin != "markovianprotocol.com/log" || c.Size != 9266 {
		t.Errorf("checkpoint %+v", c)
	}
	at, err := tlog.VerifyCosignature(msg, witness)
	if err != nil {
		t.Fatal(err)
	}
	if at.Year() != 2026 {
		t.Errorf("cosigned at %v", at)
	}
	if _, err := tlog.VerifyCosignature(bytes.Replace(msg, []byte("9266"), []byte("9267"), 1), witness); !errors.Is(err, tlog.ErrVerification) {
		t.Errorf("a cosignature of another size: %v", err)
	}
}

func TestCosign(t *testing.T) {
	signer, _ := tlog.NewCheckpointSigner("example.com/log", seed(1))
	root := mustHash(t, strings.Repeat("cd", 32))
	signed, err := signer.SignCheckpoint(7, root)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tlog.NewCosigner("witness.example/w1", seed(2))
	if err != nil {
		t.Fatal(err)
	}
	when := time.Unix(1679315147, 0).UTC()
	cosigned, err := w.Cosign(signed, when)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(cosigned, signed) {
		t.Fatalf("the cosignature is not added after the log's signature:\n%s", cosigned)
	}
	at, err := tlog.VerifyCosignature(cosigned, w.VerifierKey())
	if err != nil || !at.Equal(when) {
		t.Fatalf("cosigned at %v, %v", at, err)
	}
	// The log's signature still verifies beside the cosignature.
	if _, err := tlog.VerifyCheckpoint(cosigned, signer.VerifierKey()); err != nil {
		t.Fatal(err)
	}
	// Cosigning again replaces the witness's earlier cosignature.
	later := when.Add(time.Hour)
	again, err := w.Cosign(cosigned, later)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(again, []byte("— witness.example/w1 ")); n != 1 {
		t.Errorf("%d cosignature lines after cosigning twice", n)
	}
	if at, err := tlog.VerifyCosignature(again, w.VerifierKey()); err != nil || !at.Equal(later) {
		t.Errorf("cosigned again at %v, %v", at, err)
	}

	// The same Ed25519 key as a plain note key has another ID: no
	// cosignature from it.
	plain, _ := tlog.NewCheckpointSigner("witness.example/w1", seed(2))
	if _, err := tlog.VerifyCosignature(cosigned, plain.VerifierKey()); !errors.Is(err, tlog.ErrMalformed) {
		t.Errorf("a plain key as a witness's: %v", err)
	}
	// A cosignature moved to another checkpoint does not verify.
	other, _ := signer.SignCheckpoint(8, root)
	line := cosigned[len(signed):]
	if _, err := tlog.VerifyCosignature(append(other, line...), w.VerifierKey()); !errors.Is(err, tlog.ErrVerification) {
		t.Errorf("a moved cosignature: %v", err)
	}
	// Another witness's key finds no cosignature.
	w2, _ := tlog.NewCosigner("witness.example/w2", seed(3))
	if _, err := tlog.VerifyCosignature(cosigned, w2.VerifierKey()); !errors.Is(err, tlog.ErrVerification) {
		t.Errorf("another witness: %v", err)
	}
	if _, err := w.Cosign(signed, time.Unix(-1, 0)); err == nil {
		t.Error("cosigned before 1970")
	}
	if _, err := w.Cosign([]byte("not a note"), when); !errors.Is(err, tlog.ErrMalformed) {
		t.Errorf("cosigned a non-note: %v", err)
	}
}

func TestCheckpointKeys(t *testing.T) {
	key := testKey(t, 7)
	pub := key.Public().String()
	logID := protocol.LogID(pub)
	origin, err := tlog.CheckpointOrigin(logID)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := tlog.NewCheckpointSigner(origin, tlog.CheckpointKeyFromLogKey(key))
	if err != nil {
		t.Fatal(err)
	}
	ck, err := tlog.SignCheckpointKeys(key, origin, []string{signer.VerifierKey()})
	if err != nil {
		t.Fatal(err)
	}
	if ck.Log != logID || ck.Origin != origin || len(ck.Keys) != 1 {
		t.Fatalf("checkpoint keys %+v", ck)
	}
	text, err := ck.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(text, []byte(`{"keys":["`+origin+`+`)) || !bytes.Contains(text, []byte(`"type":"checkpoint_keys"`)) {
		t.Errorf("JSON %s", text)
	}
	parsed, err := tlog.ParseCheckpointKeys(text)
	if err != nil {
		t.Fatal(err)
	}
	verifiers, err := tlog.VerifyCheckpointKeys(parsed, pub, origin)
	if err != nil {
		t.Fatal(err)
	}
	// The verifiers are the checkpoint key's: a checkpoint it signed opens
	// with sumdb's note package.
	signed, _ := signer.SignCheckpoint(3, tlog.EmptyRoot)
	if _, err := note.Open(signed, note.VerifierList(verifiers...)); err != nil {
		t.Fatal(err)
	}

	other := testKey(t, 8)
	w, _ := tlog.NewCosigner(origin, seed(2))
	forged := ck
	forged.Keys = []string{w.VerifierKey()}
	for name, c := range map[string]struct {
		ck     tlog.CheckpointKeys
		key    string
		origin string
		err    error
	}{
		"another log's key": {ck, other.Public().String(), origin, tlog.ErrVerification},
		"another origin":    {ck, pub, "example.com/log", tlog.ErrVerification},
		"a changed key":     {forged, pub, origin, tlog.ErrVerification},
		"no keys":           {tlog.CheckpointKeys{Log: logID, Origin: origin}, pub, origin, tlog.ErrMalformed},
	} {
		if _, err := tlog.VerifyCheckpointKeys(c.ck, c.key, c.origin); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", name, err, c.err)
		}
	}
	elsewhere, _ := tlog.NewCheckpointSigner("example.com/log", seed(4))
	for name, vkeys := range map[string][]string{
		"none":             nil,
		"nine":             slicesRepeat(signer.VerifierKey(), 9),
		"a witness's key":  {w.VerifierKey()},
		"another origin's": {elsewhere.VerifierKey()},
		"not a key":        {"x"},
	} {
		if _, err := tlog.SignCheckpointKeys(key, origin, vkeys); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("signing %s: %v", name, err)
		}
	}
	for name, text := range map[string]string{
		"another type":     strings.Replace(string(text), "checkpoint_keys", "tree_head", 1),
		"an extra member":  strings.Replace(string(text), `{"keys"`, `{"extra":1,"keys"`, 1),
		"keys as a string": strings.Replace(string(text), `"keys":[`, `"keys":"x","k":[`, 1),
		"no keys":          `{"keys":[],"log":"l","origin":"o","sig":"s","type":"checkpoint_keys"}`,
	} {
		if _, err := tlog.ParseCheckpointKeys([]byte(text)); !errors.Is(err, tlog.ErrMalformed) {
			t.Errorf("reading %s: %v", name, err)
		}
	}
}

func slicesRepeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
