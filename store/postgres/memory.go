package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// ApplyMemoryEvent implements engine.Store.
func (s *Store) ApplyMemoryEvent(ctx context.Context, c engine.MemoryChange) (engine.MemoryEvent, error) {
	ev := c.Event
	if ev.AdapterID == "" || ev.EventID == "" || ev.BodyDigest == "" || len(ev.Result) == 0 {
		return engine.MemoryEvent{}, fmt.Errorf("postgres: apply memory event: incomplete event: %w", store.ErrInvalid)
	}
	var out engine.MemoryEvent
	var duplicate bool
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
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
		return engine.MemoryEvent{}, fmt.Errorf("postgres: apply memory event %s: %w", ev.EventID, err)
	}
	if duplicate {
		return out, fmt.Errorf("postgres: memory event %s of %s: %w", ev.EventID, ev.AdapterID, store.ErrDuplicate)
	}
	return out, nil
}
