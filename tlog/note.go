package tlog

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/sumdb/note"
)

// Signed-note signature types (c2sp.org/signed-note) used here: the log
// signs its checkpoints with plain Ed25519, witnesses cosign them with
// timestamped Ed25519 (c2sp.org/tlog-cosignature).
const (
	SigTypeEd25519     byte = 0x01
	SigTypeCosignature byte = 0x04
)

// Limits the reference library holds notes to.
const (
	maxNoteSignatures = 64            // signed-note asks verifiers to accept at least 16
	maxNoteSize       = 1 << 20       // far beyond a checkpoint with 64 signatures
	maxCosignTime     = math.MaxInt64 // a cosignature's time is at most 2^63-1 seconds
)

// A noteSignature is one signature line of a signed note.
type noteSignature struct {
	name   string
	keyID  uint32
	sig    []byte // after the key ID
	base64 string // key ID and signature as written
}

// A signedNote is a note split into its signed text and its signatures.
type signedNote struct {
	text string // ends in a newline
	sigs []noteSignature
}

// parseNote splits a signed note as the reference library does: valid UTF-8
// with no control characters but newlines, ending in a newline; the text
// ends at the last blank line, and every line after it is a signature line,
// "— name base64(keyID ‖ signature)", in canonical base64; at least one and
// at most 64 of them.
func parseNote(msg []byte) (*signedNote, error) {
	if len(msg) > maxNoteSize {
		return nil, malformed("a note here is at most %d bytes", maxNoteSize)
	}
	for i := 0; i < len(msg); {
		r, size := utf8.DecodeRune(msg[i:])
		if r == utf8.RuneError && size == 1 {
			return nil, malformed("a note is UTF-8 text")
		}
		if r < 0x20 && r != '\n' {
			return nil, malformed("a note holds no control characters other than newlines")
		}
		i += size
	}
	if !bytes.HasSuffix(msg, []byte("\n")) {
		return nil, malformed("a note ends with a newline")
	}
	blank := bytes.LastIndex(msg, []byte("\n\n"))
	if blank < 0 {
		return nil, malformed("a note's signatures follow a blank line")
	}
	n := &signedNote{text: string(msg[:blank+1])}
	block := msg[blank+2:]
	if len(block) == 0 {
		return nil, malformed("a note has at least one signature")
	}
	lines := strings.Split(string(block[:len(block)-1]), "\n")
	if len(lines) > maxNoteSignatures {
		return nil, malformed("a note here has at most %d signatures", maxNoteSignatures)
	}
	for _, line := range lines {
		s, err := parseSignatureLine(line)
		if err != nil {
			return nil, err
		}
		n.sigs = append(n.sigs, s)
	}
	return n, nil
}

func parseSignatureLine(line string) (noteSignature, error) {
	parts := strings.Split(line, " ")
	if len(parts) != 3 || parts[0] != "—" {
		return noteSignature{}, malformed("%.100q is not a signature line: an em dash, a key name and a signature", line)
	}
	if err := checkKeyName(parts[1]); err != nil {
		return noteSignature{}, err
	}
	raw, err := decodeBase64(parts[2])
	if err != nil {
		return noteSignature{}, err
	}
	if len(raw) < 5 {
		return noteSignature{}, malformed("the signature in %.100q is too short", line)
	}
	return noteSignature{name: parts[1], keyID: binary.BigEndian.Uint32(raw), sig: raw[4:], base64: parts[2]}, nil
}

// checkKeyName applies signed-note's rule for key names: non-empty, no
// plus sign and no space. Spaces are those of both sumdb's note package and
// the reference library (ECMAScript's \s), so a name either accepts is one
// both accept.
func checkKeyName(name string) error {
	if name == "" || !utf8.ValidString(name) || strings.ContainsRune(name, '+') ||
		strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }) >= 0 {
		return malformed("%.100q is not a key name: it is non-empty, with no spaces or +", name)
	}
	return nil
}

// decodeBase64 reads standard padded base64, refusing any other encoding
// of the same bytes, as signed-note requires.
func decodeBase64(s string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || base64.StdEncoding.EncodeToString(raw) != s {
		return nil, malformed("%.100q is not canonical base64", s)
	}
	return raw, nil
}

// keyID is a signed-note key ID: the first four bytes, big-endian, of
// SHA-256(name ‖ 0x0A ‖ type ‖ public key).
func keyID(name string, sigType byte, pub []byte) uint32 {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{'\n', sigType})
	h.Write(pub)
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// vkeyText writes a verifier key: name+hex(key ID)+base64(type ‖ key).
func vkeyText(name string, sigType byte, pub ed25519.PublicKey) string {
	return fmt.Sprintf("%s+%08x+%s", name, keyID(name, sigType, pub),
		base64.StdEncoding.EncodeToString(append([]byte{sigType}, pub...)))
}

// A noteVerifier checks one key's note signatures; it implements
// note.Verifier for Ed25519 (type 0x01) and cosignature/v1 (type 0x04) keys.
type noteVerifier struct {
	name    string
	keyID   uint32
	sigType byte
	pub     ed25519.PublicKey
}

// NewNoteVerifier reads a verifier key (vkey) of an Ed25519 key, type 0x01,
// or a witness's cosignature/v1 key, type 0x04: name+id+base64(type ‖ key),
// the ID eight lowercase hex digits that must be the one name and key make.
func NewNoteVerifier(vkey string) (note.Verifier, error) {
	return parseVerifierKey(vkey)
}

func parseVerifierKey(vkey string) (*noteVerifier, error) {
	// The name holds no +, so it ends at the first; eight hex digits and
	// another + follow; the base64 after may hold + itself.
	name, rest, ok := strings.Cut(vkey, "+")
	if !ok || len(rest) < 9 || rest[8] != '+' {
		return nil, malformed("%.100q is not a verifier key: name+id+key", vkey)
	}
	if err := checkKeyName(name); err != nil {
		return nil, err
	}
	idText := rest[:8]
	for _, c := range []byte(idText) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, malformed("the ID in %.100q is not eight lowercase hex digits", vkey)
		}
	}
	raw, err := decodeBase64(rest[9:])
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 || raw[0] != SigTypeEd25519 && raw[0] != SigTypeCosignature {
		return nil, malformed("%.100q is not an Ed25519 key of signature type 1 or 4", vkey)
	}
	if len(raw) != 1+ed25519.PublicKeySize {
		return nil, malformed("an Ed25519 public key is %d bytes, not %d", ed25519.PublicKeySize, len(raw)-1)
	}
	v := &noteVerifier{name: name, sigType: raw[0], pub: ed25519.PublicKey(raw[1:])}
	v.keyID = keyID(name, v.sigType, v.pub)
	if id, _ := strconv.ParseUint(idText, 16, 32); uint32(id) != v.keyID {
		return nil, malformed("the ID in %.100q is not the one its name and key make", vkey)
	}
	return v, nil
}

func (v *noteVerifier) Name() string    { return v.name }
func (v *noteVerifier) KeyHash() uint32 { return v.keyID }

// Verify checks sig, the signature after the key ID, over msg, the note's
// text.
func (v *noteVerifier) Verify(msg, sig []byte) bool {
	switch v.sigType {
	case SigTypeEd25519:
		return len(sig) == ed25519.SignatureSize && ed25519.Verify(v.pub, msg, sig)
	case SigTypeCosignature:
		if len(sig) != 8+ed25519.SignatureSize {
			return false
		}
		t := binary.BigEndian.Uint64(sig)
		return t <= maxCosignTime && ed25519.Verify(v.pub, cosignatureMessage(t, msg), sig[8:])
	}
	return false
}

// cosignatureMessage is what a cosignature/v1 signs: a header, the time in
// seconds since the epoch, and the checkpoint's text.
func cosignatureMessage(t uint64, text []byte) []byte {
	m := fmt.Appendf(nil, "cosignature/v1\ntime %d\n", t)
	return append(m, text...)
}

// signedBy finds v's signature on n and checks it. Signatures from other
// keys are ignored; two from v are refused, as the reference library does.
// It returns the signature, whose first 8 bytes are a cosignature's time.
func (n *signedNote) signedBy(v *noteVerifier) ([]byte, error) {
	var found []noteSignature
	for _, s := range n.sigs {
		if s.name == v.name && s.keyID == v.keyID {
			found = append(found, s)
		}
	}
	switch {
	case len(found) == 0:
		return nil, unverified("the note has no signature from %s+%08x", v.name, v.keyID)
	case len(found) > 1:
		return nil, unverified("the note has %d signatures from %s+%08x", len(found), v.name, v.keyID)
	case !v.Verify([]byte(n.text), found[0].sig):
		return nil, unverified("the signature from %s+%08x does not verify", v.name, v.keyID)
	}
	return found[0].sig, nil
}

// noteSigner signs notes with an Ed25519 key as note.Signer, in either
// signature type; a cosigner signs at a fixed time.
type noteSigner struct {
	name    string
	keyID   uint32
	sigType byte
	key     ed25519.PrivateKey
	time    uint64 // for SigTypeCosignature
}

func newNoteSigner(name string, sigType byte, key ed25519.PrivateKey) (*noteSigner, error) {
	if err := checkKeyName(name); err != nil {
		return nil, err
	}
	if len(key) != ed25519.PrivateKeySize {
		return nil, malformed("an Ed25519 private key is %d bytes, not %d", ed25519.PrivateKeySize, len(key))
	}
	pub := key.Public().(ed25519.PublicKey)
	return &noteSigner{name: name, keyID: keyID(name, sigType, pub), sigType: sigType, key: key}, nil
}

func (s *noteSigner) Name() string    { return s.name }
func (s *noteSigner) KeyHash() uint32 { return s.keyID }

func (s *noteSigner) Sign(msg []byte) ([]byte, error) {
	if s.sigType == SigTypeCosignature {
		sig := binary.BigEndian.AppendUint64(make([]byte, 0, 8+ed25519.SignatureSize), s.time)
		return append(sig, ed25519.Sign(s.key, cosignatureMessage(s.time, msg))...), nil
	}
	return ed25519.Sign(s.key, msg), nil
}

func (s *noteSigner) verifierKey() string {
	return vkeyText(s.name, s.sigType, s.key.Public().(ed25519.PublicKey))
}

// at returns a cosigner signing at t.
func (s *noteSigner) at(t time.Time) (*noteSigner, error) {
	if t.Unix() < 0 {
		return nil, malformed("a cosignature's time is after 1970, not %v", t)
	}
	at := *s
	at.time = uint64(t.Unix())
	return &at, nil
}
