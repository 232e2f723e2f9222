package library_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// signer returns the example actor who is author.
func signer(t testing.TB, author string) *actor {
	t.Helper()
	for _, a := range actors() {
		if a.author == author {
			return a
		}
	}
	t.Fatalf("no actor is %s", author)
	return nil
}

// closure collects the revisions ids name in the world's graph,
// transitively (Dependencies), each signed by its actor, in an order
// shuffled on purpose: OrderDependenciesFirst must find one.
func (w *world) closure(ids ...string) []library.BundleRecord {
	w.t.Helper()
	ctx := context.Background()
	var out []library.BundleRecord
	seen := map[string]bool{}
	for len(ids) > 0 {
		id := ids[0]
		ids = ids[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		s, err := w.g.Revision(ctx, id)
		if err != nil {
			w.t.Fatal(err)
		}
		env, err := library.Sign(s.Record, signer(w.t, s.Record.Author).key)
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, library.BundleRecord{ID: s.ID, Root: s.Root, Envelope: env, Admission: map[string]any{"note": "exporter's"}})
		deps, err := library.Dependencies(s.Record)
		if err != nil {
			w.t.Fatal(err)
		}
		ids = append(ids, deps...)
	}
	rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// bundleOf makes and marshals a bundle of records about subject.
func bundleOf(t testing.TB, format, subject string, records []library.BundleRecord) (*library.Bundle, []byte) {
	t.Helper()
	ordered, err := library.OrderDependenciesFirst(records)
	if err != nil {
		t.Fatal(err)
	}
	b := &library.Bundle{Format: format, Origin: "example.org/log", Subject: subject, Authors: map[string]library.BundleAuthor{}, Records: ordered}
	if format == library.ReviewBundleFormat {
		b.ObservedAt = "2026-03-02T00:00:00Z"
	}
	for _, r := range ordered {
		b.Authors[r.Envelope.Record.Author] = library.BundleAuthor{Key: signer(t, r.Envelope.Record.Author).public}
	}
	data, err := b.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	return b, data
}

func idsOf(records []library.BundleRecord) []string {
	var ids []string
	for _, r := range records {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestMapBundle bundles the merged map of the write contract's example,
// parses it back, and replays it, in its order, into an empty graph: the
// bundle must be exactly the map's closure and admissible as it stands.
func TestMapBundle(t *testing.T) {
	w := newWorld(t)
	for _, name := range []string{"merge", "fork", "child_map"} {
		t.Run(name, func(t *testing.T) {
			_, data := bundleOf(t, library.BundleFormat, w.ids[name], w.closure(w.ids[name]))
			b, err := library.ParseBundle(data)
			if err != nil {
				t.Fatalf("ParseBundle: %v", err)
			}
			if again, err := b.Marshal(); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("parse and marshal again: %v\n%s\n%s", err, again, data)
			}
			if last := b.Records[len(b.Records)-1].ID; last != w.ids[name] {
				t.Errorf("the map is not last: %s", last)
			}
			g := library.NewMemGraph()
			for _, r := range b.Records {
				if _, err := g.Publish(context.Background(), r.Envelope.Record); err != nil {
					t.Fatalf("replaying %s (%s): %v", r.ID, r.Envelope.Record.Kind, err)
				}
				if r.SignedBy != signer(t, r.Envelope.Record.Author).public {
					t.Errorf("%s: SignedBy %q", r.ID, r.SignedBy)
				}
			}
		})
	}
	// The merge pins both nodes and selects the assessment, which cites
	// the evidence; it revises the first map and merges the proposal.
	_, data := bundleOf(t, library.BundleFormat, w.ids["merge"], w.closure(w.ids["merge"]))
	b, _ := library.ParseBundle(data)
	want := []string{w.ids["map"], w.ids["question"], w.ids["claim"], w.ids["evidence"], w.ids["assessment"], w.ids["proposal"], w.ids["merge"]}
	got := idsOf(b.Records)
	if !sameSet(got, want) {
		t.Errorf("merge bundle holds %v, want %v", got, want)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestReviewBundle: a review bundle of an exact node holds the node, the
// evidence and assessments about it, and what they name; nothing else.
func TestReviewBundle(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	reviews := func(node string, among ...string) []string {
		var out []string
		for _, name := range among {
			s, _ := w.g.Revision(ctx, w.ids[name])
			if library.IsReviewOf(s.Record, node) {
				out = append(out, s.ID)
			}
		}
		return out
	}
	names := []string{"evidence", "assessment", "o.evidence", "o.assessment", "proposal", "map"}
	for _, c := range []struct{ node, want []string }{
		{[]string{"claim"}, []string{"claim", "evidence", "assessment"}},
		{[]string{"o.claim"}, []string{"o.claim", "o.evidence", "o.assessment", "o.subspace", "o.space"}},
	} {
		node := w.ids[c.node[0]]
		_, data := bundleOf(t, library.ReviewBundleFormat, node, w.closure(append([]string{node}, reviews(node, names...)...)...))
		b, err := library.ParseBundle(data)
		if err != nil {
			t.Fatalf("%s: %v", c.node[0], err)
		}
		var want []string
		for _, name := range c.want {
			want = append(want, w.ids[name])
		}
		if got := idsOf(b.Records); !sameSet(got, want) {
			t.Errorf("review of %s holds %v, want %v", c.node[0], got, want)
		}
		if b.ObservedAt != "2026-03-02T00:00:00Z" || b.Subject != node {
			t.Errorf("review of %s: observed_at %q, node %s", c.node[0], b.ObservedAt, b.Subject)
		}
	}
}

// tamper parses data, changes it with f, and marshals it again; with
// redigest, it makes the digest match, as a forger would.
func tamper(t *testing.T, data []byte, redigest bool, f func(b map[string]any)) []byte {
	t.Helper()
	v, err := canonical.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	b := v.(map[string]any)
	f(b)
	if redigest {
		delete(b, "digest")
		unsigned, _ := canonical.Marshal(b)
		b["digest"] = canonical.Digest(unsigned)
	}
	out, err := canonical.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func recordAt(b map[string]any, i int) map[string]any {
	return b["records"].([]any)[i].(map[string]any)
}

// TestBundleRefusals breaks a valid bundle one way at a time: each is
// refused with the reason's sentinel, and a broken record is named.
func TestBundleRefusals(t *testing.T) {
	w := newWorld(t)
	merge := w.ids["merge"]
	b, data := bundleOf(t, library.BundleFormat, merge, w.closure(merge))
	at := func(id string) int { return slices.Index(idsOf(b.Records), id) }
	ev, as := at(w.ids["evidence"]), at(w.ids["assessment"])
	stranger, _ := hybrid.GenerateKey()
	peer := actors()["peer"]
	otherSig := b.Records[as].Envelope.Signature

	for _, c := range []struct {
		name   string
		data   []byte
		want   error
		record string // the revision the error must name, if any
	}{
		{"changed title", tamper(t, data, true, func(b map[string]any) {
			recordAt(b, ev)["record"].(map[string]any)["title"] = "Something else"
		}), library.ErrBadSignature, w.ids["evidence"]},
		{"changed title, digest not redone", tamper(t, data, false, func(b map[string]any) {
			recordAt(b, ev)["record"].(map[string]any)["title"] = "Something else"
		}), library.ErrBadSignature, w.ids["evidence"]},
		{"changed title and ID", func() []byte {
			rec := *b.Records[ev].Envelope.Record
			rec.Title = "Something else"
			id, _ := rec.RevisionID()
			return tamper(t, data, true, func(b map[string]any) {
				r := recordAt(b, ev)
				r["record"].(map[string]any)["title"] = "Something else"
				r["id"], r["root"] = id, id
			})
		}(), library.ErrBadSignature, ""},
		{"swapped key", tamper(t, data, true, func(b map[string]any) {
			b["authors"].(map[string]any)[peer.author].(map[string]any)["key"] = stranger.Public().String()
		}), library.ErrBadSignature, ""},
		{"wrong signature", tamper(t, data, true, func(b map[string]any) {
			recordAt(b, ev)["signature"] = otherSig
		}), library.ErrBadSignature, w.ids["evidence"]},
		{"missing dependency", tamper(t, data, true, func(b map[string]any) {
			b["records"] = slices.Delete(b["records"].([]any), ev, ev+1)
		}), library.ErrIncomplete, w.ids["assessment"]},
		{"out of order", tamper(t, data, true, func(b map[string]any) {
			r := b["records"].([]any)
			r[ev], r[as] = r[as], r[ev]
		}), library.ErrIncomplete, ""},
		{"not in the closure", func() []byte {
			extra := w.closure(w.ids["thread"])[0]
			rec, _ := canonical.Parse(mustCanonical(t, extra.Envelope.Record))
			return tamper(t, data, true, func(b map[string]any) {
				b["records"] = append([]any{map[string]any{"id": extra.ID, "root": extra.Root, "record": rec, "signature": extra.Envelope.Signature, "admission": map[string]any{}}}, b["records"].([]any)...)
				b["authors"].(map[string]any)[extra.Envelope.Record.Author] = map[string]any{"key": signer(t, extra.Envelope.Record.Author).public, "rotations": []any{}}
			})
		}(), library.ErrIncomplete, w.ids["thread"]},
		{"wrong root", tamper(t, data, true, func(b map[string]any) {
			recordAt(b, at(merge))["root"] = merge
		}), library.ErrIncomplete, merge},
		{"subject not held", tamper(t, data, true, func(b map[string]any) { b["map"] = zeros }), library.ErrIncomplete, zeros},
		{"digest", tamper(t, data, false, func(b map[string]any) { b["origin"] = "elsewhere.example/log" }), library.ErrBadSignature, ""},
		{"unknown member", tamper(t, data, true, func(b map[string]any) { b["extra"] = true }), library.ErrMalformed, ""},
		{"unknown record member", tamper(t, data, true, func(b map[string]any) { recordAt(b, 0)["extra"] = true }), library.ErrMalformed, ""},
		{"unused author", tamper(t, data, true, func(b map[string]any) {
			b["authors"].(map[string]any)[strings.TrimPrefix(protocol.OperatorID(stranger.Public().String()), "op:")] = map[string]any{"key": stranger.Public().String(), "rotations": []any{}}
		}), library.ErrMalformed, ""},
		{"format", tamper(t, data, true, func(b map[string]any) { b["format"] = "alexandria.bundle/1" }), library.ErrMalformed, ""},
		{"review of a map", tamper(t, data, true, func(b map[string]any) {
			b["format"], b["node"], b["observed_at"] = library.ReviewBundleFormat, merge, "2026-03-02T00:00:00Z"
			delete(b, "map")
		}), library.ErrMalformed, merge},
		{"duplicate member", append([]byte(`{"format":"x","format":"y",`), data[1:]...), library.ErrMalformed, ""},
		{"too large", bytes.Repeat([]byte(" "), library.MaxBundleBytes+1), library.ErrTooLarge, ""},
	} {
		_, err := library.ParseBundle(c.data)
		var be *library.BundleError
		if !errors.Is(err, c.want) || !errors.As(err, &be) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
			continue
		}
		if c.record != "" && be.Record != c.record {
			t.Errorf("%s: names %q, want %s (%v)", c.name, be.Record, c.record, err)
		}
	}
}

// TestBundleRotation: an author who rotated signs with its new key; the
// bundle carries the rotation that binds the new key to the first, and
// is refused without it or with a rotation the old key did not sign.
func TestBundleRotation(t *testing.T) {
	first, _ := hybrid.GenerateKey()
	second, _ := hybrid.GenerateKey()
	forger, _ := hybrid.GenerateKey()
	id := protocol.OperatorID(first.Public().String())
	rec, err := library.NewRecord(library.Content{Kind: "research-node", Title: "Q", Body: map[string]any{
		"type": "question", "statement": "Why?", "scope": "Here.", "assumptions": []any{}, "sources": []any{}, "programs": []any{},
	}}, id, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	env, err := library.Sign(rec, second)
	if err != nil {
		t.Fatal(err)
	}
	rid, _ := rec.RevisionID()
	good, _ := protocol.SignKeyRotation(id, second, first)
	forged, _ := protocol.SignKeyRotation(id, second, forger)
	for _, c := range []struct {
		name      string
		rotations []map[string]any
		ok        bool
	}{
		{"with its rotation", []map[string]any{good}, true},
		{"without", nil, false},
		{"forged rotation", []map[string]any{forged}, false},
	} {
		b := &library.Bundle{Format: library.ReviewBundleFormat, Origin: "example.org/log", Subject: rid, ObservedAt: "2026-03-02T00:00:00Z",
			Authors: map[string]library.BundleAuthor{rec.Author: {Key: first.Public().String(), Rotations: c.rotations}},
			Records: []library.BundleRecord{{ID: rid, Root: rid, Envelope: env}}}
		data, err := b.Marshal()
		if c.ok != (err == nil) {
			t.Errorf("%s: Marshal: %v", c.name, err)
			continue
		}
		if !c.ok {
			if !errors.Is(err, library.ErrBadSignature) {
				t.Errorf("%s: %v, want ErrBadSignature", c.name, err)
			}
			continue
		}
		parsed, err := library.ParseBundle(data)
		if err != nil || parsed.Records[0].SignedBy != second.Public().String() {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestOrderDependenciesFirst: an order that holds is kept.
func TestOrderDependenciesFirst(t *testing.T) {
	w := newWorld(t)
	records, err := library.OrderDependenciesFirst(w.closure(w.ids["merge"]))
	if err != nil {
		t.Fatal(err)
	}
	again, err := library.OrderDependenciesFirst(records)
	if err != nil || !slices.Equal(idsOf(again), idsOf(records)) {
		t.Errorf("a dependency order was changed: %v\n%v\n%v", err, idsOf(records), idsOf(again))
	}
}

func mustCanonical(t testing.TB, r *library.Record) []byte {
	t.Helper()
	b, err := r.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzParseBundle: whatever ParseBundle accepts marshals back to its own
// canonical form, which is accepted again.
func FuzzParseBundle(f *testing.F) {
	w := newWorld(f)
	_, data := bundleOf(f, library.BundleFormat, w.ids["merge"], w.closure(w.ids["merge"]))
	f.Add(data)
	f.Add([]byte(`{"format":"alexandria.review-bundle/1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := library.ParseBundle(data)
		if err != nil {
			return
		}
		out, err := b.Marshal()
		if err != nil {
			t.Fatalf("accepted, then refused to marshal: %v", err)
		}
		canon, err := canonical.Canonicalize(data)
		if err != nil || !bytes.Equal(out, canon) {
			t.Fatalf("marshals to other bytes than its canonical form: %v\n%s\n%s", err, out, canon)
		}
	})
}

// TestCheckInOrder: a bundle's records pass in order against an empty
// graph, and writing nothing, a record the ones before it make stale is
// found at its index.
func TestCheckInOrder(t *testing.T) {
	w := newWorld(t)
	records, err := library.OrderDependenciesFirst(w.closure(w.ids["merge"]))
	if err != nil {
		t.Fatal(err)
	}
	var recs []*library.Record
	for _, r := range records {
		recs = append(recs, r.Envelope.Record)
	}
	g := library.NewMemGraph()
	if i, err := library.CheckInOrder(context.Background(), g, recs); i != -1 || err != nil {
		t.Fatalf("CheckInOrder: %d %v", i, err)
	}
	for _, r := range recs {
		id, _ := r.RevisionID()
		if _, err := g.Revision(context.Background(), id); !errors.Is(err, library.ErrNotFound) {
			t.Fatalf("CheckInOrder stored %s: %v", id, err)
		}
	}
	// A second revision of the first map after the merge: the merge moved
	// the head, so it is stale.
	stale := *recs[len(recs)-1]
	stale.Title = "Another revision of the first map"
	recs = append(recs, &stale)
	if i, err := library.CheckInOrder(context.Background(), g, recs); i != len(recs)-1 || !errors.Is(err, library.ErrConflict) {
		t.Errorf("stale revision: %d %v, want %d stale_head", i, err, len(recs)-1)
	}
}
