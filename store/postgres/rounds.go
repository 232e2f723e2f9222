package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/agora-node/agora/ledger/jobs"
)

// The round's timers and withdrawals (ledger.RoundStore). They need no
// table of their own: a retired job is a job done with no answer, and a
// withdrawn bundle's files are its bundle_files rows.

// RetireJobs implements ledger.RoundStore.
func (s *Store) RetireJobs(ctx context.Context, ids []string, moves []jobs.Movement) ([]string, error) {
	var retired []string
	err := s.write(ctx, func(tx *txn) error {
		retired = retired[:0]
		for _, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1, answer = NULL WHERE id = ? AND done = 0`, id)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				retired = append(retired, id)
			}
		}
		_, err := addMoves(ctx, tx, moves)
		return err
	})
	return retired, err
}

// WithdrawnFile implements ledger.RoundStore.
func (s *Store) WithdrawnFile(ctx context.Context, digest string) (bool, error) {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM bundle_files f JOIN bundles b ON b.hash = f.bundle
		JOIN signed we ON we.digest = b.withdrawal AND we.idx IS NOT NULL WHERE f.digest = ? LIMIT 1`, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// HeldElsewhere implements ledger.RoundStore.
func (s *Store) HeldElsewhere(ctx context.Context, digest, except string) (bool, error) {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM bundle_files f JOIN bundles b ON b.hash = f.bundle
		WHERE f.digest = ? AND f.bundle <> ? AND b.withdrawal IS NULL LIMIT 1`, digest, except).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
