package sqlcommon

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
)

const MemoryEventColumns = `adapter_id, event_id, body_digest, kind, session, result, status, at`

func ScanMemoryEvent(row interface{ Scan(...any) error }) (engine.MemoryEvent, error) {
	var e engine.MemoryEvent
	var at int64
	err := row.Scan(&e.AdapterID, &e.EventID, &e.BodyDigest, &e.Kind, &e.Session, &e.Result, &e.Status, &at)
	e.At = FromNanos(at)
	return e, err
}

// PutMemorySession makes or replaces a session, comparing versions.
func PutMemorySession(ctx context.Context, tx Querier, m engine.MemorySession) error {
	if m.Handle == "" || m.Version < 1 {
		return fmt.Errorf("session %q version %d: %w", m.Handle, m.Version, store.ErrInvalid)
	}
	var stored int64
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM memory_sessions WHERE handle = ?`, m.Handle).Scan(&stored); {
	case errors.Is(err, sql.ErrNoRows):
		stored = 0
	case err != nil:
		return err
	}
	if m.Version != stored+1 {
		return fmt.Errorf("session %s is at version %d, not %d: %w", m.Handle, stored, m.Version-1, store.ErrConflict)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO memory_sessions (handle, adapter_id, version, state, started, ended) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (handle) DO UPDATE SET version = excluded.version, state = excluded.state, ended = excluded.ended`,
		m.Handle, m.AdapterID, m.Version, m.State, Nanos(m.Started), m.Ended)
	return err
}

// NextMemoryChange advances the records' change cursor and returns the
// change a write making, replacing or deleting records is: the cursor's
// one row stays locked until the write commits, so changes are numbered
// in the order they commit (engine.Store's MemoryRecordChanges).
func NextMemoryChange(ctx context.Context, tx Querier) (int64, error) {
	var change int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO memory_record_cursor (one, seq) VALUES (1, 2)
		ON CONFLICT (one) DO UPDATE SET seq = memory_record_cursor.seq + 1 RETURNING seq`).Scan(&change); err != nil {
		return 0, fmt.Errorf("advancing the records' change cursor: %w", err)
	}
	return change, nil
}

// PutMemoryRecords makes or replaces an event's records, all under one
// change; none is no change.
func PutMemoryRecords(ctx context.Context, tx Querier, records []engine.MemoryRecord) error {
	if len(records) == 0 {
		return nil
	}
	change, err := NextMemoryChange(ctx, tx)
	if err != nil {
		return err
	}
	for _, r := range records {
		if err := PutMemoryRecord(ctx, tx, r, change); err != nil {
			return err
		}
	}
	return nil
}

// PutMemoryRecord makes or replaces a record as change, comparing
// versions; the topic key's uniqueness among its adapter's records is the
// table's.
func PutMemoryRecord(ctx context.Context, tx Querier, r engine.MemoryRecord, change int64) error {
	if r.Ref == "" || r.Version < 1 || r.TopicKey == "" || (r.Scope != engine.MemoryScopeProject && r.Scope != engine.MemoryScopeGlobal) {
		return fmt.Errorf("record %q: incomplete: %w", r.Ref, store.ErrInvalid)
	}
	var stored int64
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM memory_records WHERE ref = ?`, r.Ref).Scan(&stored); {
	case errors.Is(err, sql.ErrNoRows):
		stored = 0
	case err != nil:
		return err
	}
	if r.Version != stored+1 {
		return fmt.Errorf("record %s is at version %d, not %d: %w", r.Ref, stored, r.Version-1, store.ErrConflict)
	}
	if stored == 0 {
		var other string
		switch err := tx.QueryRowContext(ctx, `SELECT ref FROM memory_records WHERE adapter = ? AND scope = ? AND topic_scope = ? AND topic_key = ?`,
			r.Adapter, r.Scope, TopicScope(r), r.TopicKey).Scan(&other); {
		case err == nil:
			return fmt.Errorf("record %s: topic %s is %s's in its scope: %w", r.Ref, r.TopicKey, other, store.ErrConflict)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_records (ref, version, adapter, shared, scope, project, topic_scope, topic_key, revision, session, created, updated, body, change_seq)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Ref, r.Version, r.Adapter, r.Shared, r.Scope, r.Project, TopicScope(r), r.TopicKey, r.Revision, r.Session, Nanos(r.Created), Nanos(r.Updated), r.Body, change)
		return err
	}
	return ReplaceMemoryRecord(ctx, tx, r, change)
}

// TopicScope is the column a record's topic key is unique in: the project
// for a project record, "" for a global one.
func TopicScope(r engine.MemoryRecord) string {
	if r.Scope == engine.MemoryScopeProject {
		return r.Project
	}
	return ""
}

// ReplaceMemoryRecord writes a stored record's next version as change. A
// record keeps its adapter, scope, project and topic for life; a change
// of them would be another record.
func ReplaceMemoryRecord(ctx context.Context, tx Querier, r engine.MemoryRecord, change int64) error {
	res, err := tx.ExecContext(ctx, `UPDATE memory_records SET version = ?, shared = ?, revision = ?, session = ?, updated = ?, body = ?, change_seq = ?
		WHERE ref = ? AND version = ? AND adapter = ? AND scope = ? AND topic_scope = ? AND topic_key = ?`,
		r.Version, r.Shared, r.Revision, r.Session, Nanos(r.Updated), r.Body, change, r.Ref, r.Version-1, r.Adapter, r.Scope, TopicScope(r), r.TopicKey)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return fmt.Errorf("record %s is kept at another version or with another adapter, scope or topic: %w", r.Ref, store.ErrConflict)
	}
	return nil
}

const MemoryRecordColumns = `ref, version, adapter, shared, scope, project, topic_key, revision, session, created, updated, body`

func ScanMemoryRecord(row interface{ Scan(...any) error }) (engine.MemoryRecord, error) {
	var r engine.MemoryRecord
	var created, updated int64
	err := row.Scan(&r.Ref, &r.Version, &r.Adapter, &r.Shared, &r.Scope, &r.Project, &r.TopicKey, &r.Revision, &r.Session, &created, &updated, &r.Body)
	r.Created, r.Updated = FromNanos(created), FromNanos(updated)
	return r, err
}

// PutMemoryAdapter implements engine.Store.
func (s *Shared) PutMemoryAdapter(ctx context.Context, a engine.MemoryAdapter) error {
	if a.ID == "" {
		return fmt.Errorf("store: put memory adapter: no id: %w", store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_adapters (id, token_hash, issued) VALUES (?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash, issued = excluded.issued`,
			a.ID, a.TokenHash[:], Nanos(a.Issued))
		return err
	})
}

// MemoryAdapter implements engine.Store.
func (s *Shared) MemoryAdapter(ctx context.Context, id string) (engine.MemoryAdapter, error) {
	var a engine.MemoryAdapter
	err := s.Read(ctx, func(tx Querier) error {
		var hash []byte
		var issued int64
		err := tx.QueryRowContext(ctx, `SELECT token_hash, issued FROM memory_adapters WHERE id = ?`, id).Scan(&hash, &issued)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: memory adapter %q", id)
		}
		if err != nil {
			return err
		}
		if len(hash) != len(a.TokenHash) {
			return fmt.Errorf("store: memory adapter %q: token hash of %d bytes", id, len(hash))
		}
		a = engine.MemoryAdapter{ID: id, Issued: FromNanos(issued)}
		copy(a.TokenHash[:], hash)
		return nil
	})
	return a, err
}

// PutMemoryProfile implements engine.Store.
func (s *Shared) PutMemoryProfile(ctx context.Context, p engine.MemoryProfile) error {
	if p.ID == "" || p.Revision == "" || len(p.Document) == 0 {
		return fmt.Errorf("store: put memory profile: incomplete: %w", store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
		var doc []byte
		switch err := tx.QueryRowContext(ctx, `SELECT document FROM memory_profiles WHERE id = ? AND revision = ?`, p.ID, p.Revision).Scan(&doc); {
		case err == nil:
			if bytes.Equal(doc, p.Document) {
				return fmt.Errorf("store: memory profile %s@%s: %w", p.ID, p.Revision, store.ErrDuplicate)
			}
			return fmt.Errorf("store: memory profile %s@%s is kept with another document: %w", p.ID, p.Revision, store.ErrConflict)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_profiles (id, revision, document, stored) VALUES (?, ?, ?, ?)`,
			p.ID, p.Revision, p.Document, Nanos(p.Stored))
		return err
	})
}

// MemoryProfile implements engine.Store.
func (s *Shared) MemoryProfile(ctx context.Context, id, revision string) (engine.MemoryProfile, error) {
	p := engine.MemoryProfile{ID: id}
	err := s.Read(ctx, func(tx Querier) error {
		var row *sql.Row
		if revision == "" {
			row = tx.QueryRowContext(ctx, `SELECT revision, document, stored FROM memory_profiles WHERE id = ? ORDER BY seq DESC LIMIT 1`, id)
		} else {
			row = tx.QueryRowContext(ctx, `SELECT revision, document, stored FROM memory_profiles WHERE id = ? AND revision = ?`, id, revision)
		}
		var stored int64
		err := row.Scan(&p.Revision, &p.Document, &stored)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: memory profile %s@%s", id, revision)
		}
		p.Stored = FromNanos(stored)
		return err
	})
	return p, err
}

// ReplaceMemoryRecord implements engine.Store.
func (s *Shared) ReplaceMemoryRecord(ctx context.Context, r engine.MemoryRecord) error {
	err := s.Write(ctx, func(tx Querier) error {
		var stored int64
		switch err := tx.QueryRowContext(ctx, `SELECT version FROM memory_records WHERE ref = ?`, r.Ref).Scan(&stored); {
		case errors.Is(err, sql.ErrNoRows):
			return NotFound("store: memory record %s", r.Ref)
		case err != nil:
			return err
		}
		change, err := NextMemoryChange(ctx, tx)
		if err != nil {
			return err
		}
		return ReplaceMemoryRecord(ctx, tx, r, change)
	})
	if err != nil {
		return fmt.Errorf("store: replace memory record %s: %w", r.Ref, err)
	}
	return nil
}

// MemoryEvent implements engine.Store.
func (s *Shared) MemoryEvent(ctx context.Context, adapterID, eventID string) (engine.MemoryEvent, error) {
	var e engine.MemoryEvent
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		e, err = ScanMemoryEvent(tx.QueryRowContext(ctx, `SELECT `+MemoryEventColumns+` FROM memory_events WHERE adapter_id = ? AND event_id = ?`, adapterID, eventID))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: memory event %s of %s", eventID, adapterID)
		}
		return err
	})
	return e, err
}

// MemorySession implements engine.Store.
func (s *Shared) MemorySession(ctx context.Context, handle string) (engine.MemorySession, error) {
	m := engine.MemorySession{Handle: handle}
	err := s.Read(ctx, func(tx Querier) error {
		var started int64
		err := tx.QueryRowContext(ctx, `SELECT adapter_id, version, state, started, ended FROM memory_sessions WHERE handle = ?`, handle).
			Scan(&m.AdapterID, &m.Version, &m.State, &started, &m.Ended)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: memory session %s", handle)
		}
		m.Started = FromNanos(started)
		return err
	})
	return m, err
}

// MemoryRecord implements engine.Store.
func (s *Shared) MemoryRecord(ctx context.Context, ref string) (engine.MemoryRecord, error) {
	var r engine.MemoryRecord
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		r, err = ScanMemoryRecord(tx.QueryRowContext(ctx, `SELECT `+MemoryRecordColumns+` FROM memory_records WHERE ref = ?`, ref))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: memory record %s", ref)
		}
		return err
	})
	return r, err
}

// MemoryRecords implements engine.Store.
func (s *Shared) MemoryRecords(ctx context.Context) ([]engine.MemoryRecord, error) {
	var out []engine.MemoryRecord
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		out, err = queryMemoryRecords(ctx, tx, `SELECT `+MemoryRecordColumns+` FROM memory_records ORDER BY ref`)
		return err
	})
	return out, err
}

// queryMemoryRecords reads the records a query of MemoryRecordColumns
// selects.
func queryMemoryRecords(ctx context.Context, tx Querier, query string, args ...any) ([]engine.MemoryRecord, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.MemoryRecord
	for rows.Next() {
		r, err := ScanMemoryRecord(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// memoryCursor reads the records' change cursor: 1, where records kept
// before it are, until the first change.
const memoryCursor = `SELECT COALESCE(MAX(seq), 1) FROM memory_record_cursor`

// MemoryRecordChanges implements engine.Store. The store's cursor is read
// first, outside a transaction: when it is still at since, that one read
// of one row is the answer.
func (s *Shared) MemoryRecordChanges(ctx context.Context, since int64) (engine.MemoryRecordChanges, error) {
	var at int64
	if err := s.R.QueryRowContext(ctx, memoryCursor).Scan(&at); err != nil {
		return engine.MemoryRecordChanges{}, fmt.Errorf("store: the memory records' change cursor: %w", err)
	}
	if at == since {
		return engine.MemoryRecordChanges{Cursor: since}, nil
	}
	var out engine.MemoryRecordChanges
	err := s.Read(ctx, func(tx Querier) error {
		out = engine.MemoryRecordChanges{}
		if err := tx.QueryRowContext(ctx, memoryCursor).Scan(&out.Cursor); err != nil {
			return err
		}
		// In the order changed; from the start, every record by ref, as
		// MemoryRecords reads them, rather than through the change index.
		query, args := `SELECT `+MemoryRecordColumns+` FROM memory_records WHERE change_seq > ? ORDER BY change_seq, ref`, []any{since}
		if since <= 0 {
			query, args = `SELECT `+MemoryRecordColumns+` FROM memory_records ORDER BY ref`, nil
		}
		var err error
		if out.Records, err = queryMemoryRecords(ctx, tx, query, args...); err != nil {
			return err
		}
		deleted, err := tx.QueryContext(ctx, `SELECT ref FROM memory_record_deletions WHERE seq > ? ORDER BY seq`, since)
		if err != nil {
			return err
		}
		defer deleted.Close()
		for deleted.Next() {
			var ref string
			if err := deleted.Scan(&ref); err != nil {
				return err
			}
			out.Deleted = append(out.Deleted, ref)
		}
		return deleted.Err()
	})
	if err != nil {
		return engine.MemoryRecordChanges{}, fmt.Errorf("store: memory records changed after %d: %w", since, err)
	}
	return out, nil
}

// MemoryReceipts implements engine.Store.
func (s *Shared) MemoryReceipts(ctx context.Context, session string) ([]engine.MemoryReceipt, error) {
	return s.memoryReceipts(ctx, "session", session)
}

// MemoryRecordReceipts implements engine.Store.
func (s *Shared) MemoryRecordReceipts(ctx context.Context, ref string) ([]engine.MemoryReceipt, error) {
	return s.memoryReceipts(ctx, "record_ref", ref)
}

// memoryReceipts reads the receipts whose column (session or record_ref,
// both indexed with seq) holds value, in the order stored.
func (s *Shared) memoryReceipts(ctx context.Context, column, value string) ([]engine.MemoryReceipt, error) {
	out := []engine.MemoryReceipt{}
	err := s.Read(ctx, func(tx Querier) error {
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
			r.At = FromNanos(at)
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, err
}

// DeleteMemoryRecord implements engine.Store.
func (s *Shared) DeleteMemoryRecord(ctx context.Context, ref string) (int, error) {
	var receipts int64
	err := s.Write(ctx, func(tx Querier) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM memory_records WHERE ref = ?`, ref)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return NotFound("store: memory record %s", ref)
		}
		change, err := NextMemoryChange(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_record_deletions (seq, ref) VALUES (?, ?)`, change, ref); err != nil {
			return err
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM memory_receipts WHERE record_ref = ?`, ref)
		if err != nil {
			return err
		}
		receipts, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete memory record %s: %w", ref, err)
	}
	return int(receipts), nil
}
