package enginetest

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/agora-node/agora/memory/engine"
)

// changes reads what changed after since, failing the test on an error.
func (f *fixture) changes(since int64, what string) engine.MemoryRecordChanges {
	f.t.Helper()
	ch, err := f.s.MemoryRecordChanges(f.ctx, since)
	f.ok(err, what)
	return ch
}

// quiet fails the test unless nothing changed after cursor.
func (f *fixture) quiet(cursor int64, what string) {
	f.t.Helper()
	if ch := f.changes(cursor, what); len(ch.Records) != 0 || len(ch.Deleted) != 0 || ch.Cursor != cursor {
		f.t.Fatalf("%s: %d records, deleted %v, cursor %d; want nothing after %d", what, len(ch.Records), ch.Deleted, ch.Cursor, cursor)
	}
}

// refsAt are the changed records as ref@version, sorted.
func refsAt(ch engine.MemoryRecordChanges) []string {
	var out []string
	for _, r := range ch.Records {
		out = append(out, fmt.Sprintf("%s@%d", r.Ref, r.Version))
	}
	slices.Sort(out)
	return out
}

// testMemoryChanges checks MemoryRecordChanges: every write that makes,
// replaces or deletes records advances the cursor and is read back from
// the cursor before it, once, at its current version; a write refused,
// sent twice or touching no record changes nothing; and changes written
// at once by many writers are each read by a reader following the
// cursor meanwhile.
func testMemoryChanges(f *fixture) {
	ctx, s := f.ctx, f.s
	start := f.changes(0, "changes of an empty store")
	if len(start.Records) != 0 || len(start.Deleted) != 0 {
		f.t.Fatalf("an empty store's changes: %+v", start)
	}
	f.quiet(start.Cursor, "asked again")

	a := engine.MemoryRecord{Ref: "lr_a", Version: 1, Adapter: "codex", Scope: engine.MemoryScopeProject, Project: "foo", TopicKey: "bugfix/a",
		Revision: 1, Session: "ms_one", Created: f.now, Updated: f.now, Body: []byte(`{"title":"a"}`)}
	b := a
	b.Ref, b.TopicKey, b.Body = "lr_b", "bugfix/b", []byte(`{"title":"b"}`)
	sess := engine.MemorySession{Handle: "ms_one", AdapterID: "codex", Version: 1, State: []byte(`{}`), Started: f.now}
	_, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 1, "a"), Session: &sess, Records: []engine.MemoryRecord{a, b}})
	f.ok(err, "two records made")
	made := f.changes(start.Cursor, "after two records made")
	if got := refsAt(made); !slices.Equal(got, []string{"lr_a@1", "lr_b@1"}) || made.Cursor <= start.Cursor || len(made.Deleted) != 0 {
		f.t.Fatalf("changes after two records made: %v, deleted %v, cursor %d after %d", got, made.Deleted, made.Cursor, start.Cursor)
	}
	for _, r := range made.Records {
		if r.Ref == "lr_a" && (!sameRecord(r, a) || r.TopicKey != a.TopicKey || r.Adapter != a.Adapter) {
			f.t.Fatalf("a changed record as read: %+v, want %+v", r, a)
		}
	}
	f.quiet(made.Cursor, "nothing since")

	// An event that writes no record, one sent again and one refused
	// change nothing.
	next := sess
	next.Version = 2
	_, err = s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 2, "b"), Session: &next,
		Receipts: []engine.MemoryReceipt{{Session: "ms_one", RecordRef: "lr_a", Kind: "pushed", Payload: []byte(`{}`), At: f.now}}})
	f.ok(err, "an event of receipts only")
	stale := a
	stale.Version = 3
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 3, "c"), Records: []engine.MemoryRecord{stale}}); err == nil {
		f.t.Fatal("a record skipping a version was written")
	}
	if _, err := s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 1, "a"), Records: []engine.MemoryRecord{stale}}); err == nil {
		f.t.Fatal("an event applied twice")
	}
	if err := s.ReplaceMemoryRecord(ctx, stale); err == nil {
		f.t.Fatal("ReplaceMemoryRecord from a stale version wrote")
	}
	if _, err := s.DeleteMemoryRecord(ctx, "lr_never"); err == nil {
		f.t.Fatal("DeleteMemoryRecord of no record wrote")
	}
	f.quiet(made.Cursor, "after writes of no record")

	// A revision, then the admin's share, each read from the cursor before.
	revised := a
	revised.Version, revised.Revision, revised.Body = 2, 2, []byte(`{"title":"a2"}`)
	_, err = s.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: f.memoryEvent("codex", 4, "d"), Records: []engine.MemoryRecord{revised}})
	f.ok(err, "a revision")
	rev := f.changes(made.Cursor, "after a revision")
	if got := refsAt(rev); !slices.Equal(got, []string{"lr_a@2"}) || rev.Cursor <= made.Cursor || string(rev.Records[0].Body) != `{"title":"a2"}` {
		f.t.Fatalf("changes after a revision: %v, cursor %d after %d", got, rev.Cursor, made.Cursor)
	}
	shared := b
	shared.Version, shared.Shared = 2, true
	f.ok(s.ReplaceMemoryRecord(ctx, shared), "sharing")
	sh := f.changes(rev.Cursor, "after sharing")
	if got := refsAt(sh); !slices.Equal(got, []string{"lr_b@2"}) || !sh.Records[0].Shared || sh.Cursor <= rev.Cursor {
		f.t.Fatalf("changes after sharing: %v, cursor %d after %d", got, sh.Cursor, rev.Cursor)
	}

	// A deletion is read as one, and a record deleted is never read as
	// changed, whatever the cursor.
	if _, err := s.DeleteMemoryRecord(ctx, "lr_a"); err != nil {
		f.t.Fatalf("DeleteMemoryRecord: %v", err)
	}
	del := f.changes(sh.Cursor, "after a deletion")
	if len(del.Records) != 0 || !slices.Equal(del.Deleted, []string{"lr_a"}) || del.Cursor <= sh.Cursor {
		f.t.Fatalf("changes after a deletion: %v, deleted %v, cursor %d after %d", refsAt(del), del.Deleted, del.Cursor, sh.Cursor)
	}
	f.quiet(del.Cursor, "nothing after the deletion")
	all := f.changes(start.Cursor, "everything since the start")
	if got := refsAt(all); !slices.Equal(got, []string{"lr_b@2"}) || !slices.Equal(all.Deleted, []string{"lr_a"}) || all.Cursor != del.Cursor {
		f.t.Fatalf("changes since the start: %v, deleted %v, cursor %d; want lr_b@2, lr_a deleted, cursor %d", got, all.Deleted, all.Cursor, del.Cursor)
	}
	if got := refsAt(f.changes(0, "from 0")); !slices.Equal(got, []string{"lr_b@2"}) {
		f.t.Fatalf("changes from 0: %v, want every record kept", got)
	}

	testMemoryChangesRacing(f, del.Cursor)
}

// testMemoryChangesRacing has writers make records at once while a
// reader follows the cursor from since: every record made is read,
// whichever writer committed first, and a final read finds nothing left.
func testMemoryChangesRacing(f *fixture, since int64) {
	const writers, each = 8, 6
	var wg sync.WaitGroup
	var done atomic.Bool
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				n := 100 + w*each + i
				r := engine.MemoryRecord{Ref: fmt.Sprintf("lr_race_%d", n), Version: 1, Adapter: "codex", Scope: engine.MemoryScopeGlobal,
					TopicKey: fmt.Sprintf("race/%d", n), Revision: 1, Session: "ms_race", Created: f.now, Updated: f.now, Body: []byte(`{}`)}
				if _, err := f.s.ApplyMemoryEvent(f.ctx, engine.MemoryChange{Event: f.memoryEvent("codex", n, "r"), Records: []engine.MemoryRecord{r}}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	seen := map[string]int{}
	cursor := since
	follow := func() {
		ch := f.changes(cursor, "following racing writers")
		if ch.Cursor < cursor {
			f.t.Fatalf("the cursor went back from %d to %d", cursor, ch.Cursor)
		}
		for _, r := range ch.Records {
			seen[r.Ref]++
		}
		cursor = ch.Cursor
	}
	go func() { wg.Wait(); done.Store(true) }()
	for !done.Load() {
		follow()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		f.t.Fatalf("a racing writer: %v", err)
	}
	follow()
	for w := range writers * each {
		ref := fmt.Sprintf("lr_race_%d", 100+w)
		if seen[ref] != 1 {
			f.t.Errorf("record %s was read %d times following the cursor, want once", ref, seen[ref])
		}
	}
	f.quiet(cursor, "after the racing writers")
}
