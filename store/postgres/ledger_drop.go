package postgres

import (
	"context"
	"database/sql"
	"errors"
)

// What DropUnbound undoes of the ledger's records. The ledger's writes are
// not on this driver yet, but its tables are (migrations 2 and 11 on), and
// an entry dropped takes what any program made of it.

// dropBundleRecords undoes what an unbound entry made of bundles: a sealed
// entry takes its bundle with it; a revealing, void or withdrawal entry the
// step it recorded.
func dropBundleRecords(ctx context.Context, tx *txn, digest string) error {
	var hash string
	err := tx.QueryRowContext(ctx, `SELECT hash FROM bundles WHERE sealed = ?`, digest).Scan(&hash)
	switch {
	case err == nil:
		for _, q := range []string{
			`DELETE FROM claim_tags WHERE claim IN (SELECT seq FROM claims WHERE bundle = ?1)`,
			`DELETE FROM claims WHERE bundle = ?1`,
			`DELETE FROM bundle_files WHERE bundle = ?1`,
			`DELETE FROM bundles WHERE hash = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, hash); err != nil {
				return err
			}
		}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	for _, q := range []string{
		`UPDATE bundles SET revealed = NULL, settled = NULL WHERE revealed = ?1`,
		`UPDATE bundles SET withdrawal = NULL, reason = NULL, void = NULL, withdrawn_at = NULL WHERE withdrawal = ?1 OR void = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, digest); err != nil {
			return err
		}
	}
	return nil
}

// dropJobRecords undoes an answer whose logged entry was dropped unlogged:
// the job is held again by the operator that answered, undone, and the
// credit the answer paid and the decline it counted go.
func dropJobRecords(ctx context.Context, tx *txn, digest string) error {
	var job string
	err := tx.QueryRowContext(ctx, `SELECT job FROM job_answers WHERE entry = ?`, digest).Scan(&job)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM credit_moves WHERE key = 'job:' || ?2 AND EXISTS (SELECT 1 FROM jobs WHERE id = ?2 AND answer = ?1)`,
		`UPDATE jobs SET done = 0, answer = NULL WHERE id = ?2 AND answer = ?1`,
		`DELETE FROM job_declines WHERE entry = ?1`,
		`DELETE FROM job_answers WHERE entry = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, digest, job); err != nil {
			return err
		}
	}
	return nil
}
