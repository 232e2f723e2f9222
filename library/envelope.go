package library

import (
	"fmt"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
)

// An Envelope is what POST /api/entries carries: a record and its author's
// signature over the record's canonical JSON.
type Envelope struct {
	Record    *Record
	Signature string // hybrid signature text, "ed25519-ml-dsa-44:" and hex
}

// ParseEnvelope reads a signed envelope as sent. It checks the sizes first,
// before any parsing: the envelope within MaxEnvelopeBytes (ErrTooLarge).
// Then the text must be strict I-JSON (canonical.Parse), an object with
// exactly the members record and signature, the record with exactly its
// eight members of their types, the format Format, the author 64 lowercase
// hex digits, authored_at RFC 3339 UTC ending Z (ErrMalformed), and the body
// within MaxBodyChars (ErrTooLarge). Whitespace and member order are free:
// the signature covers the record's canonical JSON, not the bytes sent.
//
// It does not verify the signature (VerifySignature) nor validate the
// content (ValidateContent, Check).
func ParseEnvelope(data []byte) (*Envelope, error) {
	if len(data) > MaxEnvelopeBytes {
		return nil, fmt.Errorf("library: the envelope is %d bytes; at most %d are allowed: %w", len(data), MaxEnvelopeBytes, ErrTooLarge)
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("library: envelope: %w: %w", ErrMalformed, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("library: the envelope must be a JSON object {record, signature}, not %s: %w", canonical.Describe(v), ErrMalformed)
	}
	var r reader
	r.members("", obj, "record", "signature")
	sig := r.str(obj, "", "signature")
	var rec *Record
	if rv, ok := obj["record"]; ok {
		rec = r.record(rv)
	}
	if r.err != nil {
		return nil, fmt.Errorf("library: envelope: %w", r.err)
	}
	if err := rec.check(); err != nil {
		return nil, fmt.Errorf("library: envelope: /record: %w", err)
	}
	return &Envelope{Record: rec, Signature: sig}, nil
}

// record reads the envelope's record member.
func (r *reader) record(v any) *Record {
	obj, ok := v.(map[string]any)
	if !ok {
		r.fail("/record must be an object, not %s", canonical.Describe(v))
		return nil
	}
	const at = "/record"
	r.members(at, obj, "format", "author", "authored_at", "kind", "title", "body", "links", "previous")
	return &Record{
		Format:     r.str(obj, at, "format"),
		Author:     r.str(obj, at, "author"),
		AuthoredAt: r.str(obj, at, "authored_at"),
		Kind:       r.str(obj, at, "kind"),
		Title:      r.str(obj, at, "title"),
		Body:       r.str(obj, at, "body"),
		Links:      r.links(obj, at),
		Previous:   r.str(obj, at, "previous"),
	}
}

// Marshal returns the envelope's canonical JSON (RFC 8785), the form the
// node stores and serves. ParseEnvelope of these bytes gives back the same
// envelope.
func (e *Envelope) Marshal() ([]byte, error) {
	return e.marshal(e.Record.value(), e.Record.sizeHint())
}

// MarshalCanonical is Marshal for a caller that holds canon, the record's
// canonical JSON (Record.Canonical), which it writes as it is.
func (e *Envelope) MarshalCanonical(canon []byte) ([]byte, error) {
	return e.marshal(canonical.Raw(canon), len(canon))
}

func (e *Envelope) marshal(record any, size int) ([]byte, error) {
	b, err := canonical.AppendMarshal(make([]byte, 0, size+len(e.Signature)+32),
		map[string]any{"record": record, "signature": e.Signature})
	if err != nil {
		return nil, fmt.Errorf("library: envelope: %w", err)
	}
	return b, nil
}

// Sign signs r with key, the key of the operator r.Author names, and returns
// the envelope. It refuses a record ParseEnvelope would refuse, and one
// whose envelope would be over MaxEnvelopeBytes (ErrTooLarge), so what it
// makes is always accepted as far as ParseEnvelope goes. The envelope holds
// r itself, not a copy.
func Sign(r *Record, key *hybrid.PrivateKey) (*Envelope, error) {
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("library: sign: %w", err)
	}
	msg, err := r.Canonical()
	if err != nil {
		return nil, err
	}
	e := &Envelope{Record: r, Signature: key.Sign(msg)}
	b, err := e.Marshal()
	if err != nil {
		return nil, err
	}
	if len(b) > MaxEnvelopeBytes {
		return nil, fmt.Errorf("library: sign: the envelope would be %d bytes; at most %d are allowed: %w", len(b), MaxEnvelopeBytes, ErrTooLarge)
	}
	return e, nil
}

// VerifySignature checks that e's signature is publicKey's (a hybrid public
// key text) over e's record's canonical JSON, and returns an error wrapping
// ErrBadSignature if not. Which key is the author's is the caller's to know:
// an operator's current key does not make its ID after a rotation.
func VerifySignature(e *Envelope, publicKey string) error {
	msg, err := e.Record.Canonical()
	if err != nil {
		return fmt.Errorf("library: verify: %w: %w", ErrBadSignature, err)
	}
	return VerifyCanonical(e, msg, publicKey)
}

// VerifyCanonical is VerifySignature for a caller that holds canon, e's
// record's canonical JSON (Record.Canonical), so that it is not made again.
func VerifyCanonical(e *Envelope, canon []byte, publicKey string) error {
	if !hybrid.Verify(e.Signature, canon, publicKey) {
		return fmt.Errorf("library: the signature is not %s's over the record: %w", e.Record.OperatorID(), ErrBadSignature)
	}
	return nil
}
