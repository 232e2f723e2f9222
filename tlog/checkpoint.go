package tlog

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"encoding/binary"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/transparency-dev/formats/log"
	"golang.org/x/mod/sumdb/note"
)

// OriginPrefix begins the origin of a log run as the reference node runs
// it: the prefix, then the hex of the log ID (see CheckpointOrigin).
const OriginPrefix = "sciencejournal.ai/log/"

// maxOrigin is the longest origin, in bytes, the reference library reads.
const maxOrigin = 255

var logIDPattern = regexp.MustCompile(`^log:[0-9a-f]{64}$`)

// CheckpointOrigin returns the origin the reference library derives from a
// log ID, "sciencejournal.ai/log/" and the ID's 64 hex digits. It is the
// first line of the log's checkpoints and the name of its checkpoint key;
// the reference monitor accepts a log's checkpoints only under this origin.
func CheckpointOrigin(logID string) (string, error) {
	if !logIDPattern.MatchString(logID) {
		return "", malformed("%.100q is not a log ID: log: and 64 lowercase hex digits", logID)
	}
	return OriginPrefix + strings.TrimPrefix(logID, "log:"), nil
}

// A Checkpoint is a tree head in the form transparency-log witnesses read
// (c2sp.org/tlog-checkpoint): the log's origin, the tree size, and the root.
type Checkpoint struct {
	Origin string
	Size   uint64
	Root   Hash
}

// checkOrigin applies the reference library's rules for a checkpoint's
// origin: a line of 1 to 255 bytes of text. A log's origin is also its
// checkpoint key's name, so NewCheckpointSigner further refuses spaces
// and plus signs.
func checkOrigin(origin string) error {
	if origin == "" || len(origin) > maxOrigin {
		return malformed("a checkpoint's origin is 1 to %d bytes, not %d", maxOrigin, len(origin))
	}
	if !utf8.ValidString(origin) {
		return malformed("a checkpoint's origin is UTF-8 text")
	}
	for _, r := range origin {
		if r < 0x20 {
			return malformed("a checkpoint's origin holds no control characters")
		}
	}
	return nil
}

// FormatCheckpoint returns the checkpoint's text, the body a log signs:
// the origin, the size in decimal and the root in base64, each on its own
// line.
func FormatCheckpoint(c Checkpoint) ([]byte, error) {
	if err := checkOrigin(c.Origin); err != nil {
		return nil, err
	}
	if c.Size > MaxPosition {
		return nil, malformed("tree size %d is larger than 2^53-1", c.Size)
	}
	return log.Checkpoint{Origin: c.Origin, Size: c.Size, Hash: c.Root[:]}.Marshal(), nil
}

// parseCheckpointBody reads a checkpoint's text as the reference library
// does: exactly an origin, a size and a root, no extension lines, written
// the one way FormatCheckpoint writes them.
func parseCheckpointBody(text string) (Checkpoint, error) {
	var c log.Checkpoint
	rest, err := c.Unmarshal([]byte(text))
	if err != nil {
		return Checkpoint{}, malformed("a checkpoint's text is an origin, a size and a root, each on a line: %w", err)
	}
	if rest != nil {
		return Checkpoint{}, malformed("this protocol's checkpoints have no extension lines")
	}
	if len(c.Hash) != HashSize {
		return Checkpoint{}, malformed("a checkpoint's root is %d bytes, not %d", HashSize, len(c.Hash))
	}
	if c.Size > MaxPosition {
		return Checkpoint{}, malformed("tree size %d is larger than 2^53-1", c.Size)
	}
	if err := checkOrigin(c.Origin); err != nil {
		return Checkpoint{}, err
	}
	if !bytes.Equal(c.Marshal(), []byte(text)) {
		// A size with leading zeros, or base64 that is not canonical.
		return Checkpoint{}, malformed("a checkpoint's size is plain decimal and its root canonical base64")
	}
	return Checkpoint{Origin: c.Origin, Size: c.Size, Root: Hash(c.Hash)}, nil
}

// ParseCheckpoint reads a checkpoint, a signed note whose text is a
// checkpoint, without checking any signature on it: what it returns is only
// what the text says. Use VerifyCheckpoint to trust it.
func ParseCheckpoint(msg []byte) (Checkpoint, error) {
	n, err := parseNote(msg)
	if err != nil {
		return Checkpoint{}, err
	}
	return parseCheckpointBody(n.text)
}

// VerifyCheckpoint reads a checkpoint and checks the log's signature on it:
// vkey is the log's checkpoint key, an Ed25519 verifier key (type 0x01)
// named by the checkpoint's origin, and the note must carry exactly one
// signature from it, which must verify. Other signatures, a witness's
// cosignatures among them, are ignored.
func VerifyCheckpoint(msg []byte, vkey string) (Checkpoint, error) {
	v, err := parseVerifierKey(vkey)
	if err != nil {
		return Checkpoint{}, err
	}
	if v.sigType != SigTypeEd25519 {
		return Checkpoint{}, malformed("a checkpoint key is an Ed25519 key of type 1, not %d", v.sigType)
	}
	n, err := parseNote(msg)
	if err != nil {
		return Checkpoint{}, err
	}
	c, err := parseCheckpointBody(n.text)
	if err != nil {
		return Checkpoint{}, err
	}
	if c.Origin != v.name {
		return Checkpoint{}, unverified("the checkpoint's origin is %.100q, but the key is %.100q's", c.Origin, v.name)
	}
	if _, err := n.signedBy(v); err != nil {
		return Checkpoint{}, err
	}
	return c, nil
}

// VerifyCosignature checks a witness's cosignature on a checkpoint: vkey is
// the witness's cosignature/v1 verifier key (type 0x04), and the note must
// carry exactly one signature from it, over the checkpoint's text at the
// time it states. It returns that time. It checks no other signature: a
// witness's cosignature means it saw the log sign the checkpoint.
func VerifyCosignature(msg []byte, vkey string) (time.Time, error) {
	v, err := parseVerifierKey(vkey)
	if err != nil {
		return time.Time{}, err
	}
	if v.sigType != SigTypeCosignature {
		return time.Time{}, malformed("a witness's key is a cosignature/v1 key of type 4, not %d", v.sigType)
	}
	n, err := parseNote(msg)
	if err != nil {
		return time.Time{}, err
	}
	if _, err := parseCheckpointBody(n.text); err != nil {
		return time.Time{}, err
	}
	sig, err := n.signedBy(v)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(binary.BigEndian.Uint64(sig)), 0).UTC(), nil
}

// A CheckpointSigner signs a log's checkpoints with its Ed25519 checkpoint
// key (signature type 0x01), named by the log's origin. It implements
// note.Signer.
type CheckpointSigner struct {
	s *noteSigner
}

// NewCheckpointSigner returns the signer of the checkpoints of the log with
// the given origin. For a log the reference monitor checks, origin is
// CheckpointOrigin of its ID.
func NewCheckpointSigner(origin string, key ed25519.PrivateKey) (*CheckpointSigner, error) {
	if err := checkOrigin(origin); err != nil {
		return nil, err
	}
	s, err := newNoteSigner(origin, SigTypeEd25519, key)
	if err != nil {
		return nil, err
	}
	return &CheckpointSigner{s}, nil
}

// Name is the key's name, the log's origin.
func (c *CheckpointSigner) Name() string { return c.s.Name() }

// KeyHash is the key's ID.
func (c *CheckpointSigner) KeyHash() uint32 { return c.s.KeyHash() }

// Sign signs a note's text.
func (c *CheckpointSigner) Sign(msg []byte) ([]byte, error) { return c.s.Sign(msg) }

// VerifierKey returns the key's vkey, as CheckpointKeys lists it.
func (c *CheckpointSigner) VerifierKey() string { return c.s.verifierKey() }

// SignCheckpoint returns the signed checkpoint of the tree of size leaves
// with root root: its text, a blank line, and the log's signature line.
func (c *CheckpointSigner) SignCheckpoint(size uint64, root Hash) ([]byte, error) {
	text, err := FormatCheckpoint(Checkpoint{Origin: c.s.name, Size: size, Root: root})
	if err != nil {
		return nil, err
	}
	return note.Sign(&note.Note{Text: string(text)}, c.s)
}

// CheckpointKeyFromLogKey derives a checkpoint key from the log's hybrid
// key, as the reference library's in-memory log does: the Ed25519 seed is
// the first 32 bytes of SHA-512("checkpoint key:" ‖ the log's 64-byte
// secret). The checkpoint key stays a key of its own, so the log's key
// signs only the log's objects.
func CheckpointKeyFromLogKey(k *hybrid.PrivateKey) ed25519.PrivateKey {
	sum := sha512.Sum512(append([]byte("checkpoint key:"), k.Bytes()...))
	return ed25519.NewKeyFromSeed(sum[:ed25519.SeedSize])
}

// A Cosigner is a witness's key: it cosigns checkpoints with timestamped
// Ed25519 cosignatures (c2sp.org/tlog-cosignature, cosignature/v1, type
// 0x04).
type Cosigner struct {
	s *noteSigner
}

// NewCosigner returns the witness named name with the given key.
func NewCosigner(name string, key ed25519.PrivateKey) (*Cosigner, error) {
	s, err := newNoteSigner(name, SigTypeCosignature, key)
	if err != nil {
		return nil, err
	}
	return &Cosigner{s}, nil
}

// Name is the witness's name.
func (w *Cosigner) Name() string { return w.s.Name() }

// VerifierKey returns the witness's cosignature/v1 vkey.
func (w *Cosigner) VerifierKey() string { return w.s.verifierKey() }

// Cosign adds the witness's cosignature at time t to a signed checkpoint,
// after the signatures already on it, replacing one it made before. A
// witness cosigns what it has checked; Cosign checks only that the text is
// a checkpoint.
func (w *Cosigner) Cosign(checkpoint []byte, t time.Time) ([]byte, error) {
	n, err := parseNote(checkpoint)
	if err != nil {
		return nil, err
	}
	if _, err := parseCheckpointBody(n.text); err != nil {
		return nil, err
	}
	signer, err := w.s.at(t)
	if err != nil {
		return nil, err
	}
	kept := make([]note.Signature, 0, len(n.sigs))
	for _, s := range n.sigs {
		if s.name != signer.name || s.keyID != signer.keyID {
			kept = append(kept, note.Signature{Name: s.name, Hash: s.keyID, Base64: s.base64})
		}
	}
	if len(kept) >= maxNoteSignatures {
		return nil, malformed("the checkpoint already has %d signatures, the most a note here holds", len(kept))
	}
	return note.Sign(&note.Note{Text: n.text, Sigs: kept}, signer)
}

// CheckpointKeys is what a log serves beside its tree head (in GET
// /api/v1/log, as "checkpoint_keys") so its checkpoints can be trusted
// through its own key: {"type": "checkpoint_keys", "log", "origin",
// "keys", "sig"}, where keys are the vkeys of its checkpoint keys (1 to 8)
// and sig is the log key's hybrid signature over the rest.
type CheckpointKeys struct {
	Log    string
	Origin string
	Keys   []string
	Sig    string
}

const maxCheckpointKeys = 8

// SignCheckpointKeys signs, with the log's key, the list of the log's
// checkpoint keys: vkeys of Ed25519 keys named origin.
func SignCheckpointKeys(key *hybrid.PrivateKey, origin string, vkeys []string) (CheckpointKeys, error) {
	if _, err := checkpointVerifiers(origin, vkeys); err != nil {
		return CheckpointKeys{}, err
	}
	ck := CheckpointKeys{Log: protocol.LogID(key.Public().String()), Origin: origin, Keys: append([]string(nil), vkeys...)}
	obj := ck.Object()
	if err := protocol.Sign(obj, key); err != nil {
		return CheckpointKeys{}, err
	}
	ck.Sig = obj["sig"].(string)
	return ck, nil
}

// VerifyCheckpointKeys checks a log's checkpoint keys as the reference
// monitor does, and returns a verifier for each: they name the log whose key
// is logPublicKey, that key signed them, they name origin (for a log the
// reference monitor checks, CheckpointOrigin of its ID), and each is an
// Ed25519 key (type 0x01) named origin.
func VerifyCheckpointKeys(ck CheckpointKeys, logPublicKey, origin string) ([]note.Verifier, error) {
	if len(ck.Keys) == 0 || len(ck.Keys) > maxCheckpointKeys {
		return nil, malformed("a log lists 1 to %d checkpoint keys, not %d", maxCheckpointKeys, len(ck.Keys))
	}
	if id := protocol.LogID(logPublicKey); ck.Log != id {
		return nil, unverified("the checkpoint keys are %s's, not %s's", ck.Log, id)
	}
	if !protocol.Verify(ck.Object(), logPublicKey) {
		return nil, unverified("the checkpoint keys are not signed by the log's key")
	}
	if ck.Origin != origin {
		return nil, unverified("the checkpoint keys name the origin %.100q, not %.100q", ck.Origin, origin)
	}
	return checkpointVerifiers(origin, ck.Keys)
}

func checkpointVerifiers(origin string, vkeys []string) ([]note.Verifier, error) {
	if err := checkOrigin(origin); err != nil {
		return nil, err
	}
	if len(vkeys) == 0 || len(vkeys) > maxCheckpointKeys {
		return nil, malformed("a log lists 1 to %d checkpoint keys, not %d", maxCheckpointKeys, len(vkeys))
	}
	verifiers := make([]note.Verifier, len(vkeys))
	for i, vkey := range vkeys {
		v, err := parseVerifierKey(vkey)
		if err != nil {
			return nil, err
		}
		if v.name != origin || v.sigType != SigTypeEd25519 {
			return nil, malformed("%.100q is not an Ed25519 key named %.100q", vkey, origin)
		}
		verifiers[i] = v
	}
	return verifiers, nil
}

// Object returns ck as the JSON object the protocol writes. A signature
// covers it without its "sig".
func (ck CheckpointKeys) Object() map[string]any {
	return map[string]any{
		"type":   "checkpoint_keys",
		"log":    ck.Log,
		"origin": ck.Origin,
		"keys":   append([]string{}, ck.Keys...),
		"sig":    ck.Sig,
	}
}

// MarshalJSON writes ck as canonical JSON.
func (ck CheckpointKeys) MarshalJSON() ([]byte, error) { return canonical.Marshal(ck.Object()) }

// ParseCheckpointKeys reads checkpoint keys from JSON text, strictly:
// exactly their members, each of its type. VerifyCheckpointKeys checks them.
func ParseCheckpointKeys(data []byte) (CheckpointKeys, error) {
	v, err := canonical.Parse(data)
	if err != nil {
		return CheckpointKeys{}, malformed("checkpoint keys: %w", err)
	}
	o, err := closedObject(v, "checkpoint keys", []string{"type", "log", "origin", "keys", "sig"})
	if err != nil {
		return CheckpointKeys{}, err
	}
	if err := o.literal("type", "checkpoint_keys"); err != nil {
		return CheckpointKeys{}, err
	}
	var ck CheckpointKeys
	if ck.Log, err = o.string("log"); err != nil {
		return CheckpointKeys{}, err
	}
	if ck.Origin, err = o.string("origin"); err != nil {
		return CheckpointKeys{}, err
	}
	if ck.Keys, err = o.strings("keys"); err != nil {
		return CheckpointKeys{}, err
	}
	if len(ck.Keys) == 0 || len(ck.Keys) > maxCheckpointKeys {
		return CheckpointKeys{}, malformed("a log lists 1 to %d checkpoint keys, not %d", maxCheckpointKeys, len(ck.Keys))
	}
	if ck.Sig, err = o.string("sig"); err != nil {
		return CheckpointKeys{}, err
	}
	return ck, nil
}
