package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
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

// PutMemoryAdapter implements engine.Store.
func (s *Store) PutMemoryAdapter(ctx context.Context, a engine.MemoryAdapter) error {
	if a.ID == "" {
		return fmt.Errorf("sqlite: put memory adapter: no id: %w", store.ErrInvalid)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_adapters (id, token_hash, issued) VALUES (?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, issued = excluded.issued`,
			a.ID, a.TokenHash[:], nanos(a.Issued))
		return err
	})
}

// MemoryAdapter implements engine.Store.
func (s *Store) MemoryAdapter(ctx context.Context, id string) (engine.MemoryAdapter, error) {
	var a engine.MemoryAdapter
	err := s.read(ctx, func(tx *sql.Tx) error {
		var hash []byte
		var issued int64
		err := tx.QueryRowContext(ctx, `SELECT token_hash, issued FROM memory_adapters WHERE id = ?`, id).Scan(&hash, &issued)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: memory adapter %q", id)
		}
		if err != nil {
			return err
		}
		if len(hash) != len(a.TokenHash) {
			return fmt.Errorf("sqlite: memory adapter %q: token hash of %d bytes", id, len(hash))
		}
		a = engine.MemoryAdapter{ID: id, Issued: fromNanos(issued)}
		copy(a.TokenHash[:], hash)
		return nil
	})
	return a, err
}

// PutMemoryProfile implements engine.Store.
func (s *Store) PutMemoryProfile(ctx context.Context, p engine.MemoryProfile) error {
	if p.ID == "" || p.Revision == "" || len(p.Document) == 0 {
		return fmt.Errorf("sqlite: put memory profile: incomplete: %w", store.ErrInvalid)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		var doc []byte
		switch err := tx.QueryRowContext(ctx, `SELECT document FROM memory_profiles WHERE id = ? AND revision = ?`, p.ID, p.Revision).Scan(&doc); {
		case err == nil:
			if bytes.Equal(doc, p.Document) {
				return fmt.Errorf("sqlite: memory profile %s@%s: %w", p.ID, p.Revision, store.ErrDuplicate)
			}
			return fmt.Errorf("sqlite: memory profile %s@%s is kept with another document: %w", p.ID, p.Revision, store.ErrConflict)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_profiles (id, revision, document, stored) VALUES (?, ?, ?, ?)`,
			p.ID, p.Revision, p.Document, nanos(p.Stored))
		return err
	})
}

// MemoryProfile implements engine.Store.
func (s *Store) MemoryProfile(ctx context.Context, id, revision string) (engine.MemoryProfile, error) {
	p := engine.MemoryProfile{ID: id}
	err := s.read(ctx, func(tx *sql.Tx) error {
		var row *sql.Row
		if revision == "" {
			row = tx.QueryRowContext(ctx, `SELECT revision, document, stored FROM memory_profiles WHERE id = ? ORDER BY seq DESC LIMIT 1`, id)
		} else {
			row = tx.QueryRowContext(ctx, `SELECT revision, document, stored FROM memory_profiles WHERE id = ? AND revision = ?`, id, revision)
		}
		var stored int64
		err := row.Scan(&p.Revision, &p.Document, &stored)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: memory profile %s@%s", id, revision)
		}
		p.Stored = fromNanos(stored)
		return err
	})
	return p, err
}

// ApplyMemoryEvent implements engine.Store.
func (s *Store) ApplyMemoryEvent(ctx context.Context, c engine.MemoryChange) (engine.MemoryEvent, error) {
	ev := c.Event
	if ev.AdapterID == "" || ev.EventID == "" || ev.BodyDigest == "" || len(ev.Result) == 0 {
		return engine.MemoryEvent{}, fmt.Errorf("sqlite: apply memory event: incomplete event: %w", store.ErrInvalid)
	}
	var out engine.MemoryEvent
	var duplicate bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		prior, err := scanMemoryEvent(tx.QueryRowContext(ctx, `SELECT `+memoryEventColumns+` FROM memory_events WHERE adapter_id = ? AND event_id = ?`, ev.AdapterID, ev.EventID))
		switch {
		case err == nil:
			out, duplicate = prior, true
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_events (`+memoryEventColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.AdapterID, ev.EventID, ev.BodyDigest, ev.Kind, ev.Session, ev.Result, ev.Status, nanos(ev.At)); err != nil {
			return err
		}
		if c.Session != nil {
			if err := putMemorySession(ctx, tx, *c.Session); err != nil {
				return err
			}
		}
		for _, r := range c.Records {
			if err := putMemoryRecord(ctx, tx, r); err != nil {
				return err
			}
		}
		for _, r := range c.Receipts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO memory_receipts (session, record_ref, kind, payload, at) VALUES (?, ?, ?, ?, ?)`,
				r.Session, r.RecordRef, r.Kind, r.Payload, nanos(r.At)); err != nil {
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

// ReplaceMemoryRecord implements engine.Store.
func (s *Store) ReplaceMemoryRecord(ctx context.Context, r engine.MemoryRecord) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var stored int64
		switch err := tx.QueryRowContext(ctx, `SELECT version FROM memory_records WHERE ref = ?`, r.Ref).Scan(&stored); {
		case errors.Is(err, sql.ErrNoRows):
			return notFound("sqlite: memory record %s", r.Ref)
		case err != nil:
			return err
		}
		return replaceMemoryRecord(ctx, tx, r)
	})
	if err != nil {
		return fmt.Errorf("sqlite: replace memory record %s: %w", r.Ref, err)
	}
	return nil
}

// MemoryEvent implements engine.Store.
func (s *Store) MemoryEvent(ctx context.Context, adapterID, eventID string) (engine.MemoryEvent, error) {
	var e engine.MemoryEvent
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		e, err = scanMemoryEvent(tx.QueryRowContext(ctx, `SELECT `+memoryEventColumns+` FROM memory_events WHERE adapter_id = ? AND event_id = ?`, adapterID, eventID))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: memory event %s of %s", eventID, adapterID)
		}
		return err
	})
	return e, err
}

// MemorySession implements engine.Store.
func (s *Store) MemorySession(ctx context.Context, handle string) (engine.MemorySession, error) {
	m := engine.MemorySession{Handle: handle}
	err := s.read(ctx, func(tx *sql.Tx) error {
		var started int64
		err := tx.QueryRowContext(ctx, `SELECT adapter_id, version, state, started, ended FROM memory_sessions WHERE handle = ?`, handle).
			Scan(&m.AdapterID, &m.Version, &m.State, &started, &m.Ended)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: memory session %s", handle)
		}
		m.Started = fromNanos(started)
		return err
	})
	return m, err
}

// MemoryRecord implements engine.Store.
func (s *Store) MemoryRecord(ctx context.Context, ref string) (engine.MemoryRecord, error) {
	var r engine.MemoryRecord
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		r, err = scanMemoryRecord(tx.QueryRowContext(ctx, `SELECT `+memoryRecordColumns+` FROM memory_records WHERE ref = ?`, ref))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: memory record %s", ref)
		}
		return err
	})
	return r, err
}

// MemoryRecords implements engine.Store.
func (s *Store) MemoryRecords(ctx context.Context) ([]engine.MemoryRecord, error) {
	var out []engine.MemoryRecord
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+memoryRecordColumns+` FROM memory_records ORDER BY ref`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanMemoryRecord(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// MemoryReceipts implements engine.Store.
func (s *Store) MemoryReceipts(ctx context.Context, session string) ([]engine.MemoryReceipt, error) {
	return s.memoryReceipts(ctx, "session", session)
}

// MemoryRecordReceipts implements engine.Store.
func (s *Store) MemoryRecordReceipts(ctx context.Context, ref string) ([]engine.MemoryReceipt, error) {
	return s.memoryReceipts(ctx, "record_ref", ref)
}

// memoryReceipts reads the receipts whose column (session or record_ref,
// both indexed with seq) holds value, in the order stored.
func (s *Store) memoryReceipts(ctx context.Context, column, value string) ([]engine.MemoryReceipt, error) {
	out := []engine.MemoryReceipt{}
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT seq, session, record_ref, kind, payload, at FROM memory_receipts WHERE `+column+` = ? ORDER BY seq`, value)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r engine.MemoryReceipt
			var at int64
			if err := rows.Scan(&r.Seq, &r.Session, &r.RecordRef, &r.Kind, &r.Payload, &at); err != nil {
				return err
			}
			r.At = fromNanos(at)
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// DeleteMemoryRecord implements engine.Store.
func (s *Store) DeleteMemoryRecord(ctx context.Context, ref string) (int, error) {
	var receipts int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM memory_records WHERE ref = ?`, ref)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("sqlite: memory record %s", ref)
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM memory_receipts WHERE record_ref = ?`, ref)
		if err != nil {
			return err
		}
		receipts, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: delete memory record %s: %w", ref, err)
	}
	return int(receipts), nil
}
