package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// PutSigned implements store.Store.
func (s *Store) PutSigned(ctx context.Context, digest string, signed, leaf []byte) error {
	if digest == "" || len(signed) == 0 {
		return fmt.Errorf("sqlite: put signed entry: no digest or entry: %w", store.ErrInvalid)
	}
	return s.write(ctx, func(tx *sql.Tx) error { return sqlcommon.PutSigned(ctx, tx, digest, signed, leaf) })
}

// BindIndex implements store.Store.
func (s *Store) BindIndex(ctx context.Context, index int64, digest string) error {
	return s.BindIndexes(ctx, []store.Binding{{Index: index, Digest: digest}})
}

// BindIndexes implements store.Store.
func (s *Store) BindIndexes(ctx context.Context, bindings []store.Binding) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for _, b := range bindings {
			if err := bindHooks.Bind(ctx, tx, b); err != nil {
				return err
			}
		}
		return nil
	})
}

// bindHooks are the hooks faces mark entries with, by name.
var bindHooks = sqlcommon.BindHooks{
	sqlcommon.BundleStepHook: bundleStepBound, // bundles.go
}

// DropUnbound implements store.Store.
func (s *Store) DropUnbound(ctx context.Context, digest string) error {
	defer s.operators.changed() // after the write committed: see operatorCache
	return s.write(ctx, func(tx *sql.Tx) error {
		var idx sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT idx FROM signed WHERE digest = ?`, digest).Scan(&idx)
		if errors.Is(err, sql.ErrNoRows) {
			return sqlcommon.NotFound("sqlite: drop signed entry %s", digest)
		}
		if err != nil {
			return err
		}
		if idx.Valid {
			return fmt.Errorf("sqlite: signed entry %s is logged at %d and stays: %w", digest, idx.Int64, store.ErrConflict)
		}
		if err := sqlcommon.DropContributionRecords(ctx, tx, digest); err != nil {
			return err
		}
		if err := dropBundleRecords(ctx, tx, digest); err != nil {
			return err
		}
		if err := sqlcommon.DropJobRecords(ctx, tx, digest); err != nil {
			return err
		}
		// An identity it made goes, and frees the invite code it used.
		if _, err := tx.ExecContext(ctx, `UPDATE invites SET used_by = NULL, used_entry = NULL, used_at = NULL WHERE used_entry = ?`, digest); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE vouch_consents SET used_entry = NULL, used_at = NULL WHERE used_entry = ?`, digest); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM identities WHERE entry = ?`, digest); err != nil {
			return err
		}
		// A key a rotation gave goes, and the key it retired is current again.
		var operator string
		var seq int
		err = tx.QueryRowContext(ctx, `SELECT operator, seq FROM keys WHERE entry = ?`, digest).Scan(&operator, &seq)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case seq > 0:
			if _, err := tx.ExecContext(ctx, `DELETE FROM keys WHERE entry = ?`, digest); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE keys SET retired_by = NULL, retired = NULL WHERE retired_by = ?`, digest); err != nil {
				return err
			}
		default:
			// A key entry: the operator goes with it, if nothing else
			// of it is recorded.
			var others int
			if err := tx.QueryRowContext(ctx,
				`SELECT (SELECT COUNT(*) FROM keys WHERE operator = ?1) - 1
				      + (SELECT COUNT(*) FROM identities WHERE operator = ?1)
				      + (SELECT COUNT(*) FROM invites WHERE sponsor = ?1 OR used_by = ?1)
				      + (SELECT COUNT(*) FROM bundles WHERE operator = ?1)`, operator).Scan(&others); err != nil {
				return err
			}
			if others > 0 {
				return fmt.Errorf("sqlite: %s registered with %s has other records: %w", operator, digest, store.ErrConflict)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM keys WHERE operator = ?`, operator); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM operators WHERE id = ?`, operator); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM signed WHERE digest = ?`, digest)
		return err
	})
}
