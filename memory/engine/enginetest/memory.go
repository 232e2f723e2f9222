package enginetest

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
)

// memoryEvent makes an event of adapter a with id n and body digest d.
func (f *fixture) memoryEvent(a string, n int, d string) engine.MemoryEvent {
	return engine.MemoryEvent{
		AdapterID: a, EventID: fmt.Sprintf("sha256:%064x", n), BodyDigest: fmt.Sprintf("sha256:%064s", d),
		Kind: "note", Session: "ms_one", Result: []byte(fmt.Sprintf(`{"ok":true,"result":{"n":%d}}`, n)), Status: 200, At: f.now,
	}
}

// testMemory checks the memory's contract: adapters rotate, profile
// revisions never change, an event is applied once with all its effects or
// none, sessions and records change only from the version they were read
// at, a topic key names one record of an adapter in its scope, a record
// keeps its adapter, the admin shares a record from the version read,
// concurrent senders of
// one event see one of them win, and a record removed stays removed.
func testMemory(f *fixture) {
	testMemoryAdapters(f)
	testMemoryProfiles(f)
	rec := testMemoryEvents(f)
	testMemorySenders(f)
	testMemoryForget(f, rec)
	testMemoryOwners(f)
}

// testMemoryAdapters checks an adapter unknown, issued and rotated.
func testMemoryAdapters(f *fixture) {
	ctx, s := f.ctx, f.s
	if _, err := s.MemoryAdapter(ctx, "codex"); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("MemoryAdapter before any: %v, want ErrNotFound", err)
	}
	for i, b := range []byte{1, 2} {
		if err := s.PutMemoryAdapter(ctx, engine.MemoryAdapter{ID: "codex", TokenHash: [32]byte{b}, Issued: f.now}); err != nil {
			f.t.Fatalf("PutMemoryAdapter %d: %v", i, err)
		}
		if a, err := s.MemoryAdapter(ctx, "codex"); err != nil || a.TokenHash != [32]byte{b} || !a.Issued.Equal(f.now) {
			f.t.Fatalf("MemoryAdapter after put %d: %+v, %v", i, a, err)
		}
	}
}

// testMemoryProfiles checks that a profile revision is kept once, and
// that "" reads the last stored.
func testMemoryProfiles(f *fixture) {
	ctx, s := f.ctx, f.s
	if _, err := s.MemoryProfile(ctx, "team", ""); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("MemoryProfile before any: %v, want ErrNotFound", err)
	}
	for _, rev := range []string{"1", "2"} {
		if err := s.PutMemoryProfile(ctx, engine.MemoryProfile{ID: "team", Revision: rev, Document: []byte(`{"r":"` + rev + `"}`), Stored: f.now}); err != nil {
			f.t.Fatalf("PutMemoryProfile %s: %v", rev, err)
		}
	}
	if err := s.PutMemoryProfile(ctx, engine.MemoryProfile{ID: "team", Revision: "1", Document: []byte(`{"r":"1"}`), Stored: f.now}); !errors.Is(err, store.ErrDuplicate) {
		f.t.Fatalf("same revision again: %v, want ErrDuplicate", err)
	}
	if err := s.PutMemoryProfile(ctx, engine.MemoryProfile{ID: "team", Revision: "1", Document: []byte(`{"r":"x"}`), Stored: f.now}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("revision with another document: %v, want ErrConflict", err)
	}
	if p, err := s.MemoryProfile(ctx, "team", ""); err != nil || p.Revision != "2" {
		f.t.Fatalf("latest profile: %+v, %v; want revision 2", p, err)
	}
	if p, err := s.MemoryProfile(ctx, "team", "1"); err != nil || string(p.Document) != `{"r":"1"}` {
		f.t.Fatalf("profile team@1: %+v, %v", p, err)
	}
}

// testMemoryEvents checks that an event is applied once, whole, from the
// versions it was computed at, with one record per topic key in its scope.
// It returns the record it leaves, lr_a at revision 2, with receipts in
// ms_one.
func testMemoryEvents(f *fixture) engine.MemoryRecord {
	ctx, s := f.ctx, f.s

	// An event with a session, a record and receipts is applied whole.
	sess := engine.MemorySession{Handle: "ms_one", AdapterID: "codex", Version: 1, State: []byte(`{"v":1}`), Started: f.now}
	rec := engine.MemoryRecord{Ref: "lr_a", Version: 1, Scope: engine.MemoryScopeProject, Project: "foo", TopicKey: "bugfix/a",
		Revision: 1, Session: "ms_one", Created: f.now, Updated: f.now, Body: []byte(`{"title":"a"}`)}
	ev1 := f.memoryEvent("codex", 1, "a")
	got, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: ev1, Session: &sess, Records: []engine.MemoryRecord{rec},
		Receipts: []engine.MemoryReceipt{
			{Session: "ms_one", RecordRef: "lr_a", Kind: "pushed", Payload: []byte(`{"k":1}`), At: f.now},
			{Session: "ms_one", RecordRef: "lr_a", Kind: "read", Payload: []byte(`{"k":2}`), At: f.now},
		}})
	if err != nil || !bytes.Equal(got.Result, ev1.Result) {
		f.t.Fatalf("ApplyMemoryEvent: %+v, %v", got, err)
	}
	if e, err := s.MemoryEvent(ctx, "codex", ev1.EventID); err != nil || e.BodyDigest != ev1.BodyDigest || !bytes.Equal(e.Result, ev1.Result) || e.Status != 200 || e.Session != "ms_one" {
		f.t.Fatalf("MemoryEvent: %+v, %v", e, err)
	}
	if _, err := s.MemoryEvent(ctx, "other", ev1.EventID); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("an event id is the adapter's: %v, want ErrNotFound", err)
	}
	if m, err := s.MemorySession(ctx, "ms_one"); err != nil || m.Version != 1 || string(m.State) != `{"v":1}` || m.Ended || !m.Started.Equal(f.now) {
		f.t.Fatalf("MemorySession: %+v, %v", m, err)
	}
	if r, err := s.MemoryRecord(ctx, "lr_a"); err != nil || r.Version != 1 || r.TopicKey != "bugfix/a" || r.Project != "foo" || string(r.Body) != `{"title":"a"}` {
		f.t.Fatalf("MemoryRecord: %+v, %v", r, err)
	}
	receipts, err := s.MemoryReceipts(ctx, "ms_one")
	if err != nil || len(receipts) != 2 || receipts[0].Kind != "pushed" || receipts[1].Kind != "read" || receipts[0].Seq >= receipts[1].Seq {
		f.t.Fatalf("MemoryReceipts: %+v, %v", receipts, err)
	}
	if none, err := s.MemoryReceipts(ctx, "ms_none"); err != nil || none == nil || len(none) != 0 {
		f.t.Fatalf("MemoryReceipts of no session: %#v, %v; want an empty list", none, err)
	}

	// The same event again is the stored one, and writes nothing: not the
	// session's next version, not another receipt.
	next := sess
	next.Version, next.State = 2, []byte(`{"v":2}`)
	again := f.memoryEvent("codex", 1, "b")
	got, err = s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: again, Session: &next,
		Receipts: []engine.MemoryReceipt{{Session: "ms_one", RecordRef: "lr_a", Kind: "cited", Payload: []byte(`{}`), At: f.now}}})
	if !errors.Is(err, store.ErrDuplicate) || got.BodyDigest != ev1.BodyDigest || !bytes.Equal(got.Result, ev1.Result) {
		f.t.Fatalf("event again: %+v, %v; want the first with ErrDuplicate", got, err)
	}
	if m, _ := s.MemorySession(ctx, "ms_one"); m.Version != 1 {
		f.t.Fatalf("a duplicate event changed the session to version %d", m.Version)
	}
	if r, _ := s.MemoryReceipts(ctx, "ms_one"); len(r) != 2 {
		f.t.Fatalf("a duplicate event added receipts: %d", len(r))
	}

	// A stale version writes nothing, the event included.
	stale := f.memoryEvent("codex", 2, "c")
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: stale, Session: &sess}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("session made twice: %v, want ErrConflict", err)
	}
	recNext := rec
	recNext.Version = 3
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: stale, Session: &next, Records: []engine.MemoryRecord{recNext}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("record skipping a version: %v, want ErrConflict", err)
	}
	if _, err := s.MemoryEvent(ctx, "codex", stale.EventID); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("a refused change kept its event: %v", err)
	}
	if m, _ := s.MemorySession(ctx, "ms_one"); m.Version != 1 {
		f.t.Fatalf("a refused change wrote the session: version %d", m.Version)
	}

	// One topic key, one record in its scope: another project may reuse
	// it, the same project may not, and a global record has its own.
	clash := rec
	clash.Ref = "lr_b"
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: stale, Records: []engine.MemoryRecord{clash}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("topic taken in the project: %v, want ErrConflict", err)
	}
	elsewhere := clash
	elsewhere.Project = "bar"
	global := clash
	global.Ref, global.Scope = "lr_c", engine.MemoryScopeGlobal
	recNext.Version, recNext.Revision, recNext.Body = 2, 2, []byte(`{"title":"a2"}`)
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: stale, Session: &next, Records: []engine.MemoryRecord{elsewhere, global, recNext}}); err != nil {
		f.t.Fatalf("other scopes and a new revision: %v", err)
	}
	if r, err := s.MemoryRecord(ctx, "lr_a"); err != nil || r.Version != 2 || r.Revision != 2 || string(r.Body) != `{"title":"a2"}` || !r.Created.Equal(f.now) {
		f.t.Fatalf("record after its revision: %+v, %v", r, err)
	}
	moved := global
	moved.Version, moved.Scope = 2, engine.MemoryScopeProject
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 3, "d"), Records: []engine.MemoryRecord{moved}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("a record changing scope: %v, want ErrConflict", err)
	}
	all, err := s.MemoryRecords(ctx)
	if err != nil || len(all) != 3 || all[0].Ref != "lr_a" || all[1].Ref != "lr_b" || all[2].Ref != "lr_c" {
		f.t.Fatalf("MemoryRecords: %+v, %v", all, err)
	}
	return rec
}

// testMemorySenders has senders of one event send it at once: one applies
// it, the rest get it back.
func testMemorySenders(f *fixture) {
	ctx, s := f.ctx, f.s
	const senders = 12
	var wg sync.WaitGroup
	errs := make([]error, senders)
	results := make([]engine.MemoryEvent, senders)
	for i := range senders {
		wg.Go(func() {
			ev := f.memoryEvent("claude", 9, fmt.Sprint(i))
			r := engine.MemoryReceipt{Session: "ms_two", RecordRef: "lr_a", Kind: "listed", Payload: []byte(`{}`), At: f.now}
			results[i], errs[i] = s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: ev, Receipts: []engine.MemoryReceipt{r}})
		})
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if won >= 0 {
				f.t.Fatalf("senders %d and %d both applied one event", won, i)
			}
			won = i
		case !errors.Is(err, store.ErrDuplicate):
			f.t.Fatalf("sender %d: %v", i, err)
		}
	}
	if won < 0 {
		f.t.Fatal("no sender applied the event")
	}
	for i, r := range results {
		if r.BodyDigest != results[won].BodyDigest {
			f.t.Fatalf("sender %d got digest %s, the winner stored %s", i, r.BodyDigest, results[won].BodyDigest)
		}
	}
	if r, _ := s.MemoryReceipts(ctx, "ms_two"); len(r) != 1 {
		f.t.Fatalf("one event applied by %d senders wrote %d receipts", senders, len(r))
	}
}

// testMemoryForget checks a record's receipts across sessions and its
// removal: rec (lr_a, revision 2 by now) has receipts in ms_one and, from
// testMemorySenders, ms_two.
func testMemoryForget(f *fixture, rec engine.MemoryRecord) {
	ctx, s := f.ctx, f.s
	byRecord, err := s.MemoryRecordReceipts(ctx, rec.Ref)
	if err != nil || len(byRecord) != 3 || byRecord[0].Session != "ms_one" || byRecord[0].Kind != "pushed" ||
		byRecord[2].Session != "ms_two" || byRecord[2].Kind != "listed" || byRecord[0].Seq >= byRecord[1].Seq || byRecord[1].Seq >= byRecord[2].Seq {
		f.t.Fatalf("MemoryRecordReceipts(%s): %+v, %v; want pushed and read of ms_one, then listed of ms_two", rec.Ref, byRecord, err)
	}
	if none, err := s.MemoryRecordReceipts(ctx, "lr_b"); err != nil || none == nil || len(none) != 0 {
		f.t.Fatalf("MemoryRecordReceipts of a record never met: %#v, %v; want an empty list", none, err)
	}

	// Removed with its receipts, and only those.
	if n, err := s.DeleteMemoryRecord(ctx, rec.Ref); err != nil || n != 3 {
		f.t.Fatalf("DeleteMemoryRecord(%s): %d receipts, %v; want 3", rec.Ref, n, err)
	}
	if _, err := s.MemoryRecord(ctx, rec.Ref); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("a removed record is read back: %v, want ErrNotFound", err)
	}
	if r, err := s.MemoryRecordReceipts(ctx, rec.Ref); err != nil || len(r) != 0 {
		f.t.Fatalf("a removed record's receipts: %+v, %v", r, err)
	}
	if r, _ := s.MemoryReceipts(ctx, "ms_one"); len(r) != 0 {
		f.t.Fatalf("the session still lists %d receipts of a removed record", len(r))
	}
	if all, err := s.MemoryRecords(ctx); err != nil || len(all) != 2 || all[0].Ref != "lr_b" || all[1].Ref != "lr_c" {
		f.t.Fatalf("MemoryRecords after a removal: %+v, %v", all, err)
	}
	if _, err := s.DeleteMemoryRecord(ctx, rec.Ref); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("removing a record twice: %v, want ErrNotFound", err)
	}
	if _, err := s.DeleteMemoryRecord(ctx, "lr_never"); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("removing no record: %v, want ErrNotFound", err)
	}
	if _, err := s.MemoryEvent(ctx, "codex", f.memoryEvent("codex", 1, "a").EventID); err != nil {
		f.t.Fatalf("removing a record removed the events that made it: %v", err)
	}

	// A change computed before the removal does not bring it back; the
	// topic key is free for a new record.
	stale := rec
	stale.Version, stale.Revision = 3, 3
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 20, "f"), Records: []engine.MemoryRecord{stale}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("a stale change to a removed record: %v, want ErrConflict", err)
	}
	if _, err := s.MemoryRecord(ctx, rec.Ref); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("a stale change brought a removed record back: %v", err)
	}
	fresh := rec
	fresh.Ref, fresh.Version, fresh.Revision = "lr_d", 1, 1
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 21, "g"), Records: []engine.MemoryRecord{fresh}}); err != nil {
		f.t.Fatalf("a new record on a removed record's topic: %v", err)
	}
}

// testMemoryOwners checks that records belong to the adapter that wrote
// them: a topic key is unique among one adapter's records in its scope,
// another adapter's record on the same topic is a record of its own, a
// record never changes adapter, and ReplaceMemoryRecord shares a record
// only from the version it was read at.
func testMemoryOwners(f *fixture) {
	ctx, s := f.ctx, f.s
	alpha := engine.MemoryRecord{Ref: "lr_alpha", Version: 1, Adapter: "alpha", Scope: engine.MemoryScopeProject, Project: "shop",
		TopicKey: "bugfix/npm", Revision: 1, Session: "ms_alpha", Created: f.now, Updated: f.now, Body: []byte(`{"title":"alpha"}`)}
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("alpha", 30, "h"), Records: []engine.MemoryRecord{alpha}}); err != nil {
		f.t.Fatalf("alpha's record: %v", err)
	}
	beta := alpha
	beta.Ref, beta.Adapter, beta.Session, beta.Body = "lr_beta", "beta", "ms_beta", []byte(`{"title":"beta"}`)
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("beta", 31, "i"), Records: []engine.MemoryRecord{beta}}); err != nil {
		f.t.Fatalf("another adapter's record on the same topic: %v", err)
	}
	twice := alpha
	twice.Ref = "lr_alpha_again"
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("alpha", 32, "j"), Records: []engine.MemoryRecord{twice}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("a second record of one adapter on one topic: %v, want ErrConflict", err)
	}
	if r, err := s.MemoryRecord(ctx, "lr_alpha"); err != nil || r.Adapter != "alpha" || r.Shared || string(r.Body) != `{"title":"alpha"}` {
		f.t.Fatalf("alpha's record read back: %+v, %v", r, err)
	}
	stolen := alpha
	stolen.Version, stolen.Revision, stolen.Adapter, stolen.Body = 2, 2, "beta", []byte(`{"title":"curl | sh"}`)
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("beta", 33, "k"), Records: []engine.MemoryRecord{stolen}}); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("a revision moving a record to another adapter: %v, want ErrConflict", err)
	}
	if r, _ := s.MemoryRecord(ctx, "lr_alpha"); r.Version != 1 || r.Adapter != "alpha" || string(r.Body) != `{"title":"alpha"}` {
		f.t.Fatalf("a refused revision changed the record: %+v", r)
	}

	shared := alpha
	shared.Version, shared.Shared = 2, true
	if err := s.ReplaceMemoryRecord(ctx, shared); err != nil {
		f.t.Fatalf("ReplaceMemoryRecord: %v", err)
	}
	if r, err := s.MemoryRecord(ctx, "lr_alpha"); err != nil || !r.Shared || r.Version != 2 || r.Adapter != "alpha" {
		f.t.Fatalf("a shared record read back: %+v, %v", r, err)
	}
	if err := s.ReplaceMemoryRecord(ctx, shared); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("ReplaceMemoryRecord from a stale version: %v, want ErrConflict", err)
	}
	moved := shared
	moved.Version, moved.Adapter = 3, "beta"
	if err := s.ReplaceMemoryRecord(ctx, moved); !errors.Is(err, store.ErrConflict) {
		f.t.Fatalf("ReplaceMemoryRecord moving a record to another adapter: %v, want ErrConflict", err)
	}
	none := shared
	none.Ref = "lr_nothing"
	if err := s.ReplaceMemoryRecord(ctx, none); !errors.Is(err, store.ErrNotFound) {
		f.t.Fatalf("ReplaceMemoryRecord of no record: %v, want ErrNotFound", err)
	}
	// A revision carries the flag as the engine computed it.
	next := shared
	next.Version, next.Revision, next.Shared = 3, 2, false
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("alpha", 34, "l"), Records: []engine.MemoryRecord{next}}); err != nil {
		f.t.Fatalf("alpha's revision of its shared record: %v", err)
	}
	if r, _ := s.MemoryRecord(ctx, "lr_alpha"); r.Shared || r.Revision != 2 || r.Version != 3 {
		f.t.Fatalf("the revision read back: %+v", r)
	}
}
