package library_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// signedThread signs a thread with the given body by the owner.
func signedThread(t testing.TB, body string) *library.Envelope {
	t.Helper()
	r, err := library.NewRecord(library.Content{Kind: "thread", Title: "T", Body: body}, actors()["owner"].author, epoch)
	if err != nil {
		t.Fatal(err)
	}
	e, err := library.Sign(r, actors()["owner"].key)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func wire(t testing.TB, e *library.Envelope) []byte {
	t.Helper()
	b, err := e.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEnvelopeRoundTrip(t *testing.T) {
	e := signedThread(t, "Hello, library")
	b := wire(t, e)
	got, err := library.ParseEnvelope(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Fatalf("parsed %+v, signed %+v", got.Record, e.Record)
	}
	if err := library.VerifySignature(got, actors()["owner"].public); err != nil {
		t.Fatal(err)
	}

	// Whitespace and member order are the sender's: the record's canonical
	// JSON is what is signed and identified.
	var loose map[string]any
	if err := json.Unmarshal(b, &loose); err != nil {
		t.Fatal(err)
	}
	indented, _ := json.MarshalIndent(map[string]any{"signature": loose["signature"], "record": loose["record"]}, "", "   ")
	again, err := library.ParseEnvelope(indented)
	if err != nil {
		t.Fatal(err)
	}
	id1, _ := e.Record.RevisionID()
	id2, _ := again.Record.RevisionID()
	if id1 != id2 || !bytes.Equal(wire(t, again), b) {
		t.Fatal("an indented envelope is not the same envelope")
	}
	if err := library.VerifySignature(again, actors()["owner"].public); err != nil {
		t.Fatal(err)
	}

	// The revision ID is the SHA-256 of the record's canonical JSON, which
	// has exactly the record's eight members.
	c, _ := e.Record.Canonical()
	if "sha256:"+id1 != canonical.Digest(c) {
		t.Fatal("revision ID is not the digest of the canonical record")
	}
	if !strings.HasPrefix(string(c), `{"author":"`+actors()["owner"].author+`","authored_at":"2026-03-01T12:00:00Z","body":"Hello, library","format":"alexandria.contribution/3","kind":"thread","links":[],"previous":"","title":"T"}`) {
		t.Fatalf("canonical record: %s", c)
	}

	// A caller holding the canonical record gets the same envelope, ID and
	// verdicts from it as from the record.
	if m, err := e.MarshalCanonical(c); err != nil || !bytes.Equal(m, b) {
		t.Fatalf("MarshalCanonical = %s, %v; want %s", m, err, b)
	}
	if library.RevisionIDOf(c) != id1 {
		t.Fatal("RevisionIDOf differs from RevisionID")
	}
	if err := library.VerifyCanonical(e, c, actors()["owner"].public); err != nil {
		t.Fatal(err)
	}
	if err := library.VerifyCanonical(e, c, actors()["peer"].public); !errors.Is(err, library.ErrBadSignature) {
		t.Fatalf("VerifyCanonical with another key: %v", err)
	}
	if e.Record.OperatorID() != "op:"+actors()["owner"].author {
		t.Fatal(e.Record.OperatorID())
	}
}

func TestVerifySignatureRefuses(t *testing.T) {
	owner, peer := actors()["owner"], actors()["peer"]
	for name, mutate := range map[string]func(e *library.Envelope) string{
		"another key":   func(e *library.Envelope) string { return peer.public },
		"edited title":  func(e *library.Envelope) string { e.Record.Title = "U"; return owner.public },
		"edited author": func(e *library.Envelope) string { e.Record.Author = peer.author; return owner.public },
		"garbage":       func(e *library.Envelope) string { e.Signature = "ed25519-ml-dsa-44:00"; return owner.public },
		"malformed key": func(e *library.Envelope) string { return "not a key" },
		"peer's signature": func(e *library.Envelope) string {
			e.Signature = signedThreadBy(t, peer, e.Record).Signature
			return owner.public
		},
	} {
		e := signedThread(t, "b")
		key := mutate(e)
		if err := library.VerifySignature(e, key); !errors.Is(err, library.ErrBadSignature) {
			t.Errorf("%s: %v, want ErrBadSignature", name, err)
		}
	}
}

func signedThreadBy(t testing.TB, a *actor, r *library.Record) *library.Envelope {
	e, err := library.Sign(r, a.key)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEnvelopeSizeLimits(t *testing.T) {
	b := wire(t, signedThread(t, "b"))

	// The envelope counts as sent, whitespace included, to the byte.
	exact := append(bytes.Repeat([]byte{' '}, library.MaxEnvelopeBytes-len(b)), b...)
	if _, err := library.ParseEnvelope(exact); err != nil {
		t.Fatalf("%d bytes: %v", len(exact), err)
	}
	if _, err := library.ParseEnvelope(append([]byte{' '}, exact...)); !errors.Is(err, library.ErrTooLarge) {
		t.Fatalf("%d bytes: %v, want ErrTooLarge", len(exact)+1, err)
	}
	// Size is checked before parsing: an oversized text is too large, not
	// malformed.
	if _, err := library.ParseEnvelope(bytes.Repeat([]byte{'['}, library.MaxEnvelopeBytes+1)); !errors.Is(err, library.ErrTooLarge) {
		t.Fatalf("oversized garbage: %v, want ErrTooLarge", err)
	}

	// The body: 48,000 characters, counted in UTF-16 code units.
	if _, err := library.ParseEnvelope(wire(t, signedThread(t, strings.Repeat("b", library.MaxBodyChars)))); err != nil {
		t.Fatalf("a body of %d characters: %v", library.MaxBodyChars, err)
	}
	for name, body := range map[string]string{
		"ASCII":             strings.Repeat("b", library.MaxBodyChars+1),
		"beyond the BMP":    strings.Repeat("😀", library.MaxBodyChars/2) + "b",
		"3-byte characters": strings.Repeat("中", 21800), // 21,800 characters, but 65,400 bytes
	} {
		r, err := library.NewRecord(library.Content{Kind: "thread", Title: "T", Body: "b"}, zeros, epoch)
		if err != nil {
			t.Fatal(err)
		}
		r.Body = body
		if _, err := library.Sign(r, actors()["owner"].key); !errors.Is(err, library.ErrTooLarge) {
			t.Errorf("%s: Sign: %v, want ErrTooLarge", name, err)
		}
		e := &library.Envelope{Record: r, Signature: "ed25519-ml-dsa-44:00"}
		if _, err := library.ParseEnvelope(wire(t, e)); !errors.Is(err, library.ErrTooLarge) {
			t.Errorf("%s: ParseEnvelope: %v, want ErrTooLarge", name, err)
		}
	}
}

func TestParseEnvelopeMalformed(t *testing.T) {
	good := wire(t, signedThread(t, "b"))
	var base map[string]any
	if err := json.Unmarshal(good, &base); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(env, rec map[string]any)) []byte {
		var env map[string]any
		json.Unmarshal(good, &env)
		f(env, env["record"].(map[string]any))
		b, _ := json.Marshal(env)
		return b
	}
	for name, text := range map[string][]byte{
		"empty":                  {},
		"not JSON":               []byte("record=1"),
		"byte order mark":        append([]byte("\xef\xbb\xbf"), good...),
		"array":                  []byte(`[]`),
		"repeated member":        bytes.Replace(good, []byte(`{"record":`), []byte(`{"signature":"x","record":`), 1),
		"trailing text":          append(bytes.Clone(good), "{}"...),
		"no signature":           edit(func(env, rec map[string]any) { delete(env, "signature") }),
		"extra member":           edit(func(env, rec map[string]any) { env["id"] = "x" }),
		"signature not a string": edit(func(env, rec map[string]any) { env["signature"] = 1 }),
		"record not an object":   edit(func(env, rec map[string]any) { env["record"] = "{}" }),
		"record extra member":    edit(func(env, rec map[string]any) { rec["root"] = zeros }),
		"record missing member":  edit(func(env, rec map[string]any) { delete(rec, "previous") }),
		"body an object":         edit(func(env, rec map[string]any) { rec["body"] = map[string]any{"text": "b"} }),
		"links not an array":     edit(func(env, rec map[string]any) { rec["links"] = map[string]any{} }),
		"link not an object":     edit(func(env, rec map[string]any) { rec["links"] = []any{zeros} }),
		"link extra member": edit(func(env, rec map[string]any) {
			rec["links"] = []any{map[string]any{"relation": "cites", "target": zeros, "note": "n"}}
		}),
		"link target a number": edit(func(env, rec map[string]any) {
			rec["links"] = []any{map[string]any{"relation": "cites", "target": 1}}
		}),
		"other format":             edit(func(env, rec map[string]any) { rec["format"] = "alexandria.contribution/2" }),
		"author with op: prefix":   edit(func(env, rec map[string]any) { rec["author"] = "op:" + zeros }),
		"author in capitals":       edit(func(env, rec map[string]any) { rec["author"] = strings.Repeat("A", 64) }),
		"authored_at with offset":  edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-03-01T12:00:00+00:00" }),
		"authored_at lowercase z":  edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-03-01T12:00:00z" }),
		"authored_at a date":       edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-03-01" }),
		"authored_at not a day":    edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-02-30T12:00:00Z" }),
		"authored_at space for T":  edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-03-01 12:00:00Z" }),
		"authored_at 10 fractions": edit(func(env, rec map[string]any) { rec["authored_at"] = "2026-03-01T12:00:00.0123456789Z" }),
	} {
		if _, err := library.ParseEnvelope(text); !errors.Is(err, library.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

func TestNewRecord(t *testing.T) {
	r, err := library.NewRecord(library.Content{Kind: "space", Title: "S", Body: map[string]any{"summary": "s"}}, "op:"+zeros, epoch.Add(1500))
	if err != nil {
		t.Fatal(err)
	}
	if r.Author != zeros || r.Body != `{"summary":"s"}` || r.AuthoredAt != "2026-03-01T12:00:00.0000015Z" || r.Links == nil {
		t.Fatalf("%+v", r)
	}
	if _, err := library.NewRecord(library.Content{Kind: "reply", Title: "R", Body: map[string]any{}}, zeros, epoch); !errors.Is(err, library.ErrMalformed) {
		t.Errorf("a reply with an object body: %v", err)
	}
	if _, err := library.NewRecord(library.Content{Kind: "reply", Title: "R", Body: "b"}, "op:42", epoch); !errors.Is(err, library.ErrMalformed) {
		t.Errorf("a short author: %v", err)
	}
}

func TestParseContent(t *testing.T) {
	c, err := library.ParseContent([]byte(`{"kind":"thread","title":"T","body":"b","previous":"","links":[{"relation":"cites","target":"` + zeros + `"}]}`))
	if err != nil || c.Kind != "thread" || c.Body != "b" || len(c.Links) != 1 || c.Links[0].Target != zeros {
		t.Fatalf("%+v %v", c, err)
	}
	for _, text := range []string{
		`{"kind":"thread","title":"T","body":"b","links":[]}`,
		`{"kind":"thread","title":"T","body":"b","links":[],"previous":"","author":"x"}`,
		`{"kind":1,"title":"T","body":"b","links":[],"previous":""}`,
		`{"kind":"thread","title":"T","body":"b","links":[{"relation":"cites"}],"previous":""}`,
		`["thread"]`,
		`{"kind":"thread","kind":"reply","title":"T","body":"b","links":[],"previous":""}`,
	} {
		if _, err := library.ParseContent([]byte(text)); !errors.Is(err, library.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", text, err)
		}
	}
}
