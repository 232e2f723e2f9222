package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/store"
)

// Several node processes may share one store (PostgreSQL), each with an
// engine of its own. What one writes, the others learn in two ways:
//
//   - records: before an event of a session, and before the admin reads
//     or changes records, the engine asks the store what changed among
//     the records since it last asked (Store.MemoryRecordChanges) and
//     installs it, so a note recorded through one process is ranked by
//     the next event through another. Alone on its store, the engine
//     pays one read of one row per event for it.
//   - sessions, and records changed between that read and a write: an
//     event computed from a version another process replaced meanwhile
//     fails its write with store.ErrConflict, with nothing written; the
//     engine reads the session and the records again and computes the
//     event anew (at most maxTurns times), so the answer is the one a
//     single process would have given from what the store holds.

// maxTurns bounds how often an event, or an admin's change, is computed
// again after its write met another process's change.
const maxTurns = 4

// follow installs what other processes changed among the records since
// the engine last asked. The caller holds no record lock.
func (e *Engine) follow(ctx context.Context) error {
	asked := time.Now()
	e.followMu.Lock()
	defer e.followMu.Unlock()
	if e.followed.After(asked) {
		// A read that began after this call was made, and so saw every
		// change committed before it, finished while it waited: events
		// arriving together share one read.
		return nil
	}
	began := time.Now()
	ch, err := e.st.MemoryRecordChanges(ctx, e.cursor)
	if err != nil {
		return fmt.Errorf("engine: following the records' changes: %w", err)
	}
	if len(ch.Records) == 0 && len(ch.Deleted) == 0 {
		e.cursor, e.followed = max(e.cursor, ch.Cursor), began
		return nil
	}
	// Decoded before the lock, and only those newer than installed: the
	// process's own writes come back here too, already installed.
	var fresh []*record
	for _, row := range ch.Records {
		if r := e.lookup(row.Ref); r != nil && r.Version >= row.Version {
			continue
		}
		r, err := decodeRecord(row)
		if err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		fresh = append(fresh, r)
	}
	e.recWrite.Lock()
	defer e.recWrite.Unlock()
	for _, ref := range ch.Deleted {
		e.drop(ref)
	}
	for _, r := range fresh {
		e.installNewer(r)
	}
	e.cursor, e.followed = ch.Cursor, began
	return nil
}

// installNewer installs r, read from the store, unless the engine holds
// it at its version or later, or it was deleted since it was read. The
// caller holds recWrite.
func (e *Engine) installNewer(r *record) {
	if e.forgotten[r.Ref] {
		return
	}
	if old := e.lookup(r.Ref); old != nil && old.Version >= r.Version {
		return
	}
	e.install(r)
}

// drop removes record ref from the maps and the index for good; the caller
// holds recWrite.
func (e *Engine) drop(ref string) {
	e.forgotten[ref] = true
	e.recMu.Lock()
	r := e.records[ref]
	delete(e.records, ref)
	if r != nil && e.topics[r.topic()] == ref {
		delete(e.topics, r.topic())
	}
	e.recMu.Unlock()
	if r != nil {
		_ = e.index.Remove(ref) // a record installed is indexed; its absence is the goal anyway
	}
}

// errBusy is the answer when an event met other processes' changes
// maxTurns times running: nothing was applied, and sent again it is
// computed from what the store then holds.
func errBusy(err error) error {
	return &memory.Error{Code: memory.CodeUnavailable, Retryable: true, Err: err,
		Message: "the session or its records kept changing through other node processes; the event was not applied: send it again"}
}

// changeRecord runs change, an admin's change to record ref, on the
// record as installed once the others' writes are followed, holding
// recWrite; and again, after following them once more, when its write met
// a change another process made (store.ErrConflict). A ref that names no
// record is an error wrapping store.ErrNotFound.
func (e *Engine) changeRecord(ctx context.Context, ref string, change func(*record) (memory.ReadRecord, error)) (memory.ReadRecord, error) {
	for turn := 1; ; turn++ {
		if err := e.follow(ctx); err != nil {
			return memory.ReadRecord{}, err
		}
		out, err := func() (memory.ReadRecord, error) {
			e.recWrite.Lock()
			defer e.recWrite.Unlock()
			r := e.lookup(ref)
			if r == nil {
				return memory.ReadRecord{}, fmt.Errorf("engine: record %s: %w", ref, store.ErrNotFound)
			}
			return change(r)
		}()
		if turn == maxTurns || !errors.Is(err, store.ErrConflict) {
			return out, err
		}
	}
}
