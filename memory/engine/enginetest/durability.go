package enginetest

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
)

// testDurability writes one of everything the memory keeps (an adapter
// rotated, two profile revisions, events that make and change a session
// and records with receipts, a record removed), closes the store, opens it
// again, and finds everything as it was: the events answered as stored,
// the versions they were applied at, the topic keys held, the receipts in
// their order, and the removed record still gone.
func testDurability(f *fixture, reopen func(t *testing.T, s engine.Store) engine.Store) {
	ctx := f.ctx
	for _, b := range []byte{1, 2} {
		f.ok(f.s.PutMemoryAdapter(ctx, engine.MemoryAdapter{ID: "codex", TokenHash: [32]byte{b}, Issued: f.now.Add(time.Duration(b) * time.Second)}), "PutMemoryAdapter")
	}
	for _, rev := range []string{"1", "2"} {
		f.ok(f.s.PutMemoryProfile(ctx, engine.MemoryProfile{ID: "team", Revision: rev, Document: []byte(`{"r":"` + rev + `"}`), Stored: f.now}), "PutMemoryProfile")
	}
	sess := engine.MemorySession{Handle: "ms_one", AdapterID: "codex", Version: 1, State: []byte(`{"v":1}`), Started: f.now}
	rec := engine.MemoryRecord{Ref: "lr_a", Version: 1, Scope: engine.MemoryScopeProject, Project: "foo", TopicKey: "bugfix/a",
		Revision: 1, Session: "ms_one", Created: f.now, Updated: f.now, Body: []byte(`{"title":"a"}`)}
	gone := engine.MemoryRecord{Ref: "lr_gone", Version: 1, Scope: engine.MemoryScopeGlobal, Project: "foo", TopicKey: "pitfall/gone",
		Revision: 1, Session: "ms_one", Created: f.now, Updated: f.now, Body: []byte(`{"title":"gone"}`)}
	first := f.memoryEvent("codex", 1, "a")
	_, err := f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: first, Session: &sess, Records: []engine.MemoryRecord{rec, gone},
		Receipts: []engine.MemoryReceipt{
			{Session: "ms_one", RecordRef: "lr_a", Kind: "pushed", Payload: []byte(`{"k":1}`), At: f.now},
			{Session: "ms_one", RecordRef: "lr_gone", Kind: "listed", Payload: []byte(`{"k":2}`), At: f.now},
		}})
	f.ok(err, "ApplyMemoryEvent")
	next := sess
	next.Version, next.State, next.Ended = 2, []byte(`{"v":2}`), true
	revised := rec
	revised.Version, revised.Revision, revised.Updated, revised.Body = 2, 2, f.now.Add(time.Minute), []byte(`{"title":"a2"}`)
	later := f.memoryEvent("codex", 2, "b")
	later.Status, later.Result = 409, []byte(`{"ok":false}`)
	_, err = f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: later, Session: &next, Records: []engine.MemoryRecord{revised},
		Receipts: []engine.MemoryReceipt{{Session: "ms_one", RecordRef: "lr_a", Kind: "cited", Payload: []byte(`{"k":3}`), At: f.now.Add(time.Minute)}}})
	f.ok(err, "ApplyMemoryEvent")
	_, err = f.s.DeleteMemoryRecord(ctx, gone.Ref)
	f.ok(err, "DeleteMemoryRecord")
	receipts, err := f.s.MemoryReceipts(ctx, "ms_one")
	f.ok(err, "MemoryReceipts")
	records, err := f.s.MemoryRecords(ctx)
	f.ok(err, "MemoryRecords")
	changes := f.changes(0, "MemoryRecordChanges")

	f.s = reopen(f.t, f.s)

	// The change cursor stands where it stood, with the deletion read
	// from before it.
	if ch := f.changes(0, "MemoryRecordChanges after reopening"); ch.Cursor != changes.Cursor || !slices.Equal(refsAt(ch), []string{"lr_a@2"}) ||
		len(ch.Deleted) != 1 || ch.Deleted[0] != gone.Ref {
		f.t.Errorf("the records' changes after reopening: %v, deleted %v, cursor %d; were %v, deleted %v, cursor %d",
			refsAt(ch), ch.Deleted, ch.Cursor, refsAt(changes), changes.Deleted, changes.Cursor)
	}
	f.quiet(changes.Cursor, "nothing changed across reopening")

	if a, err := f.s.MemoryAdapter(ctx, "codex"); err != nil || a.TokenHash != [32]byte{2} || !a.Issued.Equal(f.now.Add(2*time.Second)) {
		f.t.Errorf("the adapter after reopening = %+v, %v; want its second token", a, err)
	}
	if p, err := f.s.MemoryProfile(ctx, "team", ""); err != nil || p.Revision != "2" || string(p.Document) != `{"r":"2"}` {
		f.t.Errorf("the latest profile after reopening = %+v, %v", p, err)
	}
	if p, err := f.s.MemoryProfile(ctx, "team", "1"); err != nil || string(p.Document) != `{"r":"1"}` || !p.Stored.Equal(f.now) {
		f.t.Errorf("profile team@1 after reopening = %+v, %v", p, err)
	}
	f.is(f.s.PutMemoryProfile(ctx, engine.MemoryProfile{ID: "team", Revision: "1", Document: []byte(`{"r":"x"}`), Stored: f.now}), store.ErrConflict, "a pinned revision changed after reopening")
	for _, want := range []engine.MemoryEvent{first, later} {
		got, err := f.s.MemoryEvent(ctx, "codex", want.EventID)
		if err != nil || got.BodyDigest != want.BodyDigest || got.Kind != want.Kind || got.Session != want.Session ||
			!bytes.Equal(got.Result, want.Result) || got.Status != want.Status || !got.At.Equal(want.At) {
			f.t.Errorf("event %s after reopening = %+v, %v; want %+v", want.EventID, got, err, want)
		}
	}
	if m, err := f.s.MemorySession(ctx, "ms_one"); err != nil || m.Version != 2 || string(m.State) != `{"v":2}` || !m.Ended || m.AdapterID != "codex" || !m.Started.Equal(f.now) {
		f.t.Errorf("the session after reopening = %+v, %v", m, err)
	}
	if got, err := f.s.MemoryRecords(ctx); err != nil || len(got) != len(records) || len(got) != 1 || !sameRecord(got[0], records[0]) || !sameRecord(got[0], revised) {
		f.t.Errorf("MemoryRecords after reopening = %+v, %v; was %+v", got, err, records)
	}
	f.is(second(f.s.MemoryRecord(ctx, gone.Ref)), store.ErrNotFound, "the removed record after reopening")
	got, err := f.s.MemoryReceipts(ctx, "ms_one")
	if err != nil || len(got) != 2 || len(receipts) != 2 || !sameReceipts(got, receipts) || got[0].Kind != "pushed" || got[1].Kind != "cited" {
		f.t.Errorf("the session's receipts after reopening = %+v, %v; were %+v", got, err, receipts)
	}
	if byRecord, err := f.s.MemoryRecordReceipts(ctx, rec.Ref); err != nil || !sameReceipts(byRecord, receipts) {
		f.t.Errorf("the record's receipts after reopening = %+v, %v", byRecord, err)
	}

	// What was applied stays applied: the same event is the stored one, a
	// change from a stale version or onto a held topic key is refused, and
	// receipts are numbered on after the last.
	if e, err := f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 1, "z"), Session: &next}); !errors.Is(err, store.ErrDuplicate) || e.BodyDigest != first.BodyDigest {
		f.t.Errorf("the first event again after reopening = %+v, %v; want it with ErrDuplicate", e, err)
	}
	f.is(second(f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 3, "c"), Records: []engine.MemoryRecord{revised}})), store.ErrConflict, "a record from a stale version after reopening")
	clash := rec
	clash.Ref = "lr_b"
	f.is(second(f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 4, "d"), Records: []engine.MemoryRecord{clash}})), store.ErrConflict, "a held topic key after reopening")
	fresh := gone
	fresh.Ref = "lr_fresh"
	_, err = f.s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 5, "e"), Records: []engine.MemoryRecord{fresh},
		Receipts: []engine.MemoryReceipt{{Session: "ms_one", RecordRef: "lr_a", Kind: "read", Payload: []byte(`{}`), At: f.now}}})
	f.ok(err, "a new record on the removed record's topic after reopening")
	if ch := f.changes(changes.Cursor, "changes after reopening"); !slices.Equal(refsAt(ch), []string{"lr_fresh@1"}) || ch.Cursor <= changes.Cursor {
		f.t.Errorf("the first change after reopening: %v, cursor %d after %d", refsAt(ch), ch.Cursor, changes.Cursor)
	}
	if after, err := f.s.MemoryReceipts(ctx, "ms_one"); err != nil || len(after) != 3 || after[2].Seq <= receipts[1].Seq {
		f.t.Errorf("receipts after one more, after reopening = %+v, %v", after, err)
	}
}

// sameRecord reports whether two reads of a record agree, times compared
// as instants.
func sameRecord(a, b engine.MemoryRecord) bool {
	if !a.Created.Equal(b.Created) || !a.Updated.Equal(b.Updated) {
		return false
	}
	a.Created, a.Updated, b.Created, b.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

// sameReceipts reports whether two lists of receipts agree, times compared
// as instants.
func sameReceipts(a, b []engine.MemoryReceipt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Seq != y.Seq || x.Session != y.Session || x.RecordRef != y.RecordRef || x.Kind != y.Kind || !bytes.Equal(x.Payload, y.Payload) || !x.At.Equal(y.At) {
			return false
		}
	}
	return true
}
