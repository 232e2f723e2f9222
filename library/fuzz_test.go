package library_test

import (
	"bytes"
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// FuzzParseEnvelope holds ParseEnvelope to its round trip: what it accepts
// encodes (Marshal) to the canonical form of the input, which parses back
// to the same envelope, so nothing in an accepted envelope is lost or
// invented, and an envelope sent canonical is stored byte for byte. What
// it accepts, ValidateContent and Check take without panicking, against a
// graph holding both example sequences.
func FuzzParseEnvelope(f *testing.F) {
	w := newWorld(f)
	names := make([]string, 0, len(w.ids))
	for name := range w.ids {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s, err := w.g.Revision(context.Background(), w.ids[name])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(wire(f, &library.Envelope{Record: s.Record, Signature: "ed25519-ml-dsa-44:00"}))
	}
	f.Add(wire(f, signedThread(f, "Hello")))
	f.Add([]byte(`{"record":{},"signature":""}`))
	f.Add([]byte(`{"record":{"format":"alexandria.contribution/3","author":"` + zeros + `","authored_at":"2026-03-01T12:00:00Z","kind":"reply","title":"\u00e9","body":"\ud83d\ude00","links":[{"relation":"replies_to","target":"` + zeros + `"}],"previous":""},"signature":"x"}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := library.ParseEnvelope(data)
		if err != nil {
			return
		}
		enc, err := e.Marshal()
		if err != nil {
			t.Fatalf("accepted but cannot encode: %v", err)
		}
		canon, err := canonical.Canonicalize(data)
		if err != nil {
			t.Fatalf("accepted text that canonical refuses: %v", err)
		}
		if !bytes.Equal(enc, canon) {
			t.Fatalf("encoding\n%s\nis not the input's canonical form\n%s", enc, canon)
		}
		again, err := library.ParseEnvelope(enc)
		if err != nil {
			t.Fatalf("refused its own encoding: %v", err)
		}
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("round trip changed the envelope: %+v, then %+v", e.Record, again.Record)
		}
		if _, err := e.Record.RevisionID(); err != nil {
			t.Fatal(err)
		}
		library.ValidateContent(e.Record)
		library.Check(context.Background(), e.Record, w.g)
	})
}
