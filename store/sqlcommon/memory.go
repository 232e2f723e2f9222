package sqlcommon

import (
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

// PutMemoryRecord makes or replaces a record, comparing versions; the
// topic key's uniqueness among its adapter's records is the table's.
func PutMemoryRecord(ctx context.Context, tx Querier, r engine.MemoryRecord) error {
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
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_records (ref, version, adapter, shared, scope, project, topic_scope, topic_key, revision, session, created, updated, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Ref, r.Version, r.Adapter, r.Shared, r.Scope, r.Project, TopicScope(r), r.TopicKey, r.Revision, r.Session, Nanos(r.Created), Nanos(r.Updated), r.Body)
		return err
	}
	return ReplaceMemoryRecord(ctx, tx, r)
}

// TopicScope is the column a record's topic key is unique in: the project
// for a project record, "" for a global one.
func TopicScope(r engine.MemoryRecord) string {
	if r.Scope == engine.MemoryScopeProject {
		return r.Project
	}
	return ""
}

// ReplaceMemoryRecord writes a stored record's next version. A record
// keeps its adapter, scope, project and topic for life; a change of them
// would be another record.
func ReplaceMemoryRecord(ctx context.Context, tx Querier, r engine.MemoryRecord) error {
	res, err := tx.ExecContext(ctx, `UPDATE memory_records SET version = ?, shared = ?, revision = ?, session = ?, updated = ?, body = ?
		WHERE ref = ? AND version = ? AND adapter = ? AND scope = ? AND topic_scope = ? AND topic_key = ?`,
		r.Version, r.Shared, r.Revision, r.Session, Nanos(r.Updated), r.Body, r.Ref, r.Version-1, r.Adapter, r.Scope, TopicScope(r), r.TopicKey)
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
