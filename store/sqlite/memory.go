package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// memoryMigration keeps the memory apart from the ledger and the library.
// An event is keyed by its adapter and event id, so it is applied once. A
// record's topic key is unique in its scope: topic_scope is the project
// for a project record and "" for a global one. Receipts are numbered in
// the order stored.
const memoryMigration = `
CREATE TABLE memory_adapters (
	id         TEXT PRIMARY KEY,
	token_hash BLOB NOT NULL,
	issued     BIGINT NOT NULL
) WITHOUT ROWID;

CREATE TABLE memory_profiles (
	seq      INTEGER PRIMARY KEY AUTOINCREMENT,
	id       TEXT NOT NULL,
	revision TEXT NOT NULL,
	document BLOB NOT NULL,
	stored   BIGINT NOT NULL,
	UNIQUE (id, revision)
);

CREATE TABLE memory_events (
	adapter_id  TEXT NOT NULL,
	event_id    TEXT NOT NULL,
	body_digest TEXT NOT NULL,
	kind        TEXT NOT NULL,
	session     TEXT NOT NULL,
	result      BLOB NOT NULL,
	status      INTEGER NOT NULL,
	at          BIGINT NOT NULL,
	PRIMARY KEY (adapter_id, event_id)
) WITHOUT ROWID;

CREATE TABLE memory_sessions (
	handle     TEXT PRIMARY KEY,
	adapter_id TEXT NOT NULL,
	version    INTEGER NOT NULL,
	state      BLOB NOT NULL,
	started    BIGINT NOT NULL,
	ended      INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE memory_records (
	ref         TEXT PRIMARY KEY,
	version     INTEGER NOT NULL,
	scope       TEXT NOT NULL,
	project     TEXT NOT NULL,
	topic_scope TEXT NOT NULL,
	topic_key   TEXT NOT NULL,
	revision    INTEGER NOT NULL,
	session     TEXT NOT NULL,
	created     BIGINT NOT NULL,
	updated     BIGINT NOT NULL,
	body        BLOB NOT NULL,
	UNIQUE (scope, topic_scope, topic_key)
) WITHOUT ROWID;

CREATE TABLE memory_receipts (
	seq        INTEGER PRIMARY KEY AUTOINCREMENT,
	session    TEXT NOT NULL,
	record_ref TEXT NOT NULL,
	kind       TEXT NOT NULL,
	payload    BLOB NOT NULL,
	at         BIGINT NOT NULL
);
CREATE INDEX memory_receipts_session ON memory_receipts (session, seq);
CREATE INDEX memory_receipts_record ON memory_receipts (record_ref, seq);
`

// memoryOwnerMigration is migration 10: a record belongs to the adapter
// whose session wrote it (adapter), which the admin may share (shared),
// and its topic key is unique among that adapter's records in its scope,
// so another adapter's note on the topic makes a record of its own. The
// table is made anew, since SQLite cannot change a UNIQUE constraint in
// place; a record kept before is its last writer's.
const memoryOwnerMigration = `
CREATE TABLE memory_records_owned (
	ref         TEXT PRIMARY KEY,
	version     INTEGER NOT NULL,
	adapter     TEXT NOT NULL,
	shared      INTEGER NOT NULL,
	scope       TEXT NOT NULL,
	project     TEXT NOT NULL,
	topic_scope TEXT NOT NULL,
	topic_key   TEXT NOT NULL,
	revision    INTEGER NOT NULL,
	session     TEXT NOT NULL,
	created     BIGINT NOT NULL,
	updated     BIGINT NOT NULL,
	body        BLOB NOT NULL,
	UNIQUE (adapter, scope, topic_scope, topic_key)
) WITHOUT ROWID;
INSERT INTO memory_records_owned (ref, version, adapter, shared, scope, project, topic_scope, topic_key, revision, session, created, updated, body)
	SELECT r.ref, r.version, COALESCE(s.adapter_id, ''), 0, r.scope, r.project, r.topic_scope, r.topic_key, r.revision, r.session, r.created, r.updated, r.body
	FROM memory_records r LEFT JOIN memory_sessions s ON s.handle = r.session;
DROP TABLE memory_records;
ALTER TABLE memory_records_owned RENAME TO memory_records;
`

// memoryChangesMigration is migration 22: the records' change cursor,
// so that a process sharing the store follows the others' writes
// (engine.Store's MemoryRecordChanges). memory_record_cursor holds the
// last change given, one row that the first write making, replacing or
// deleting a record inserts and every later one advances; a record keeps
// the change that wrote it (change_seq), and a deleted one leaves its ref
// with the change that deleted it. Records kept before are at change 1,
// where the cursor stands while it has no row: a new database's tables
// stay empty, as store/postgres's ImportRows wants them.
const memoryChangesMigration = `
CREATE TABLE memory_record_cursor (
	one INTEGER PRIMARY KEY CHECK (one = 1),
	seq BIGINT NOT NULL
);
ALTER TABLE memory_records ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 1;
CREATE INDEX memory_records_change ON memory_records (change_seq);
CREATE TABLE memory_record_deletions (
	seq BIGINT PRIMARY KEY,
	ref TEXT NOT NULL
);
`

// ApplyMemoryEvent implements engine.Store.
func (s *Store) ApplyMemoryEvent(ctx context.Context, c engine.MemoryChange) (engine.MemoryEvent, error) {
	ev := c.Event
	if ev.AdapterID == "" || ev.EventID == "" || ev.BodyDigest == "" || len(ev.Result) == 0 {
		return engine.MemoryEvent{}, fmt.Errorf("sqlite: apply memory event: incomplete event: %w", store.ErrInvalid)
	}
	var out engine.MemoryEvent
	var duplicate bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		prior, err := sqlcommon.ScanMemoryEvent(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.MemoryEventColumns+` FROM memory_events WHERE adapter_id = ? AND event_id = ?`, ev.AdapterID, ev.EventID))
		switch {
		case err == nil:
			out, duplicate = prior, true
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_events (`+sqlcommon.MemoryEventColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.AdapterID, ev.EventID, ev.BodyDigest, ev.Kind, ev.Session, ev.Result, ev.Status, sqlcommon.Nanos(ev.At)); err != nil {
			return err
		}
		if c.Session != nil {
			if err := sqlcommon.PutMemorySession(ctx, tx, *c.Session); err != nil {
				return err
			}
		}
		if err := sqlcommon.PutMemoryRecords(ctx, tx, c.Records); err != nil {
			return err
		}
		for _, r := range c.Receipts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO memory_receipts (session, record_ref, kind, payload, at) VALUES (?, ?, ?, ?, ?)`,
				r.Session, r.RecordRef, r.Kind, r.Payload, sqlcommon.Nanos(r.At)); err != nil {
				return err
			}
		}
		out = ev
		return nil
	})
	if err != nil {
		return engine.MemoryEvent{}, fmt.Errorf("sqlite: apply memory event %s: %w", ev.EventID, err)
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: memory event %s of %s: %w", ev.EventID, ev.AdapterID, store.ErrDuplicate)
	}
	return out, nil
}
