package libraryhttp

import (
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// TestLibraryEntryDigest checks the digest libraryEntry gives a
// contribution's entry, taken from the bytes it marshalled, against the
// ledger's digest of the entry they hold, with and without an imported
// member.
func TestLibraryEntryDigest(t *testing.T) {
	key, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	text, err := canonical.Marshal(map[string]any{"kind": "thread", "title": "T", "body": "b", "links": []any{}, "previous": ""})
	if err != nil {
		t.Fatal(err)
	}
	c, err := library.ParseContent(text)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := library.NewRecord(c, protocol.OperatorID(key.Public().String()), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	env, err := library.Sign(rec, key)
	if err != nil {
		t.Fatal(err)
	}
	id, err := rec.RevisionID()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{journal: journal.New(nil, nil, time.Now), now: time.Now}
	for _, imported := range []map[string]any{nil, {"from": "https://elsewhere.example"}} {
		canon, err := rec.Canonical()
		if err != nil {
			t.Fatal(err)
		}
		signed, digest, _, err := s.libraryEntry(env, canon, id, imported)
		if err != nil {
			t.Fatal(err)
		}
		v, err := canonical.Parse(signed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := protocol.EntryDigest(v.(map[string]any))
		if err != nil {
			t.Fatal(err)
		}
		if digest != want {
			t.Errorf("imported %v: digest %s, want %s", imported, digest, want)
		}
		if _, ok := importedFrom(library.Contribution{NewContribution: library.NewContribution{Signed: signed}}); ok != (imported != nil) {
			t.Errorf("imported %v: importedFrom found one: %v", imported, ok)
		}
	}
}
