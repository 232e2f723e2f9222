package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// recoveryRequestsMigration keeps vouched operators' requests for a new
// key (store.Store's PutRecoveryRequest): one per operator and key, with
// the voucher's approval once given. It only makes what is missing.
const recoveryRequestsMigration = `
CREATE TABLE IF NOT EXISTS recovery_requests (
	operator    TEXT NOT NULL REFERENCES operators (id),
	key_digest  TEXT NOT NULL,
	key         TEXT NOT NULL,
	voucher     TEXT NOT NULL,
	since       BIGINT NOT NULL,
	entry       BLOB NOT NULL,
	requested   BIGINT NOT NULL,
	expires     BIGINT NOT NULL,
	approved    BIGINT,
	voucher_sig TEXT,
	PRIMARY KEY (operator, key_digest)
) WITHOUT ROWID;
`

// PutRecoveryRequest implements store.Store.
func (s *Store) PutRecoveryRequest(ctx context.Context, r store.RecoveryRequest, open int) (store.RecoveryRequest, error) {
	if r.Operator == "" || r.KeyDigest == "" || r.Key == "" || r.Voucher == "" || len(r.Entry) == 0 || open < 1 ||
		!r.Expires.After(r.Requested) || r.Since > 1<<62 {
		return store.RecoveryRequest{}, fmt.Errorf("sqlite: put recovery request for %s: %w", r.Operator, store.ErrInvalid)
	}
	var out store.RecoveryRequest
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := sqlcommon.LoadOperator(ctx, tx, r.Operator); err != nil {
			return err
		}
		existing, err := sqlcommon.LoadRecoveryRequest(ctx, tx, r.Operator, r.KeyDigest)
		if err == nil && !existing.Approved.IsZero() && r.Requested.Before(existing.Expires) {
			out, duplicate = existing, true
			return nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO recovery_requests (operator, key_digest, key, voucher, since, entry, requested, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (operator, key_digest) DO UPDATE SET voucher = excluded.voucher, since = excluded.since, entry = excluded.entry,
			 requested = excluded.requested, expires = excluded.expires, approved = NULL, voucher_sig = NULL`,
			r.Operator, r.KeyDigest, r.Key, r.Voucher, int64(r.Since), r.Entry, sqlcommon.Nanos(r.Requested), sqlcommon.Nanos(r.Expires)); err != nil {
			return err
		}
		// Only the newest open requests stay: the unapproved ones past them go.
		if _, err := tx.ExecContext(ctx,
			`DELETE FROM recovery_requests WHERE operator = ? AND approved IS NULL AND key_digest NOT IN (
				SELECT key_digest FROM recovery_requests WHERE operator = ? AND approved IS NULL
				ORDER BY requested DESC, key_digest DESC LIMIT ?)`, r.Operator, r.Operator, open); err != nil {
			return err
		}
		out, err = sqlcommon.LoadRecoveryRequest(ctx, tx, r.Operator, r.KeyDigest)
		return err
	})
	if err != nil {
		return store.RecoveryRequest{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: the recovery of %s to %s was approved: %w", r.Operator, r.KeyDigest, store.ErrDuplicate)
	}
	return out, nil
}

// ApproveRecovery implements store.Store.
func (s *Store) ApproveRecovery(ctx context.Context, operator, keyDigest, voucherSig string, at, expires time.Time) (store.RecoveryRequest, error) {
	if voucherSig == "" || !expires.After(at) {
		return store.RecoveryRequest{}, fmt.Errorf("sqlite: approve the recovery of %s: %w", operator, store.ErrInvalid)
	}
	var out store.RecoveryRequest
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		r, err := sqlcommon.LoadRecoveryRequest(ctx, tx, operator, keyDigest)
		switch {
		case err != nil:
			return err
		case !r.Approved.IsZero():
			out, duplicate = r, true
			return nil
		case !at.Before(r.Expires):
			return fmt.Errorf("sqlite: the recovery of %s to %s lapsed at %s: %w", operator, keyDigest, r.Expires.Format(time.RFC3339), store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE recovery_requests SET approved = ?, voucher_sig = ?, expires = ? WHERE operator = ? AND key_digest = ?`,
			sqlcommon.Nanos(at), voucherSig, sqlcommon.Nanos(expires), operator, keyDigest); err != nil {
			return err
		}
		out, err = sqlcommon.LoadRecoveryRequest(ctx, tx, operator, keyDigest)
		return err
	})
	if err != nil {
		return store.RecoveryRequest{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: the recovery of %s to %s was approved: %w", operator, keyDigest, store.ErrDuplicate)
	}
	return out, nil
}
