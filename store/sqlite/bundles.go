package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// CreateBundle implements ledger.Store.
func (s *Store) CreateBundle(ctx context.Context, b ledger.NewBundle) (ledger.Bundle, error) {
	if b.Hash == "" || b.Operator == "" || b.Sealed == "" || b.Salt == "" || len(b.Entry) == 0 || len(b.Files) == 0 {
		return ledger.Bundle{}, fmt.Errorf("sqlite: create bundle %s: %w", b.Hash, store.ErrInvalid)
	}
	fields, err := json.Marshal(b.Fields)
	if err != nil {
		return ledger.Bundle{}, err
	}
	var out ledger.Bundle
	duplicate := false
	err = s.write(ctx, func(tx *sql.Tx) error {
		existing, err := dialect.LoadBundle(ctx, tx, `b.hash = ?`, b.Hash)
		if err == nil {
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := sqlcommon.MustBeSigned(ctx, tx, b.Sealed); err != nil {
			return err
		}
		var other string
		if err := tx.QueryRowContext(ctx, `SELECT hash FROM bundles WHERE sealed = ?`, b.Sealed).Scan(&other); err == nil {
			return fmt.Errorf("sqlite: sealed entry %s seals %s: %w", b.Sealed, other, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO bundles (hash, operator, key_digest, entry, entry_digest, sealed, salt, fields, replaces, written_by, at)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.Hash, b.Operator, b.KeyDigest, b.Entry, b.EntryDigest, b.Sealed, b.Salt, string(fields),
			sqlcommon.NullString(b.Replaces), b.WrittenBy, sqlcommon.Nanos(b.At)); err != nil {
			return err
		}
		for _, f := range b.Files {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO bundle_files (bundle, path, digest, size, uploaded) VALUES (?, ?, ?, ?, ?)`,
				b.Hash, f.Path, f.Digest, f.Size, f.Uploaded); err != nil {
				return err
			}
		}
		for i, c := range b.Claims {
			res, err := tx.ExecContext(ctx,
				`INSERT INTO claims (id, bundle, position, local_id, type, statement, assertion, operator, claim)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				c.ID, b.Hash, i, c.LocalID, c.Type, c.Statement, c.Assertion, b.Operator, c.JSON)
			if err != nil {
				return err
			}
			seq, err := res.LastInsertId()
			if err != nil {
				return err
			}
			tags := [][2]string{}
			for _, f := range b.Fields {
				tags = append(tags, [2]string{"field", f})
			}
			for _, d := range c.DependsOn {
				tags = append(tags, [2]string{"depends_on", d})
			}
			for _, r := range c.Cites {
				tags = append(tags, [2]string{"cites", r})
			}
			for _, t := range tags {
				if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO claim_tags (kind, value, claim) VALUES (?, ?, ?)`, t[0], t[1], seq); err != nil {
					return err
				}
			}
		}
		out, err = dialect.LoadBundle(ctx, tx, `b.hash = ?`, b.Hash)
		return err
	})
	if err != nil {
		return ledger.Bundle{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: bundle %s is recorded: %w", b.Hash, store.ErrDuplicate)
	}
	return out, nil
}

// settledMigration marks when the work following a bundle's opening was
// done (SettleBundle); bundles opened before it are taken as settled.
const settledMigration = `
ALTER TABLE bundles ADD COLUMN settled BIGINT;
UPDATE bundles SET settled = at WHERE revealed IS NOT NULL;
CREATE INDEX bundles_unsettled ON bundles (at) WHERE revealed IS NOT NULL AND settled IS NULL;
`

// WithdrawBundle implements ledger.Store.
func (s *Store) WithdrawBundle(ctx context.Context, hash string, w ledger.Withdrawal) (ledger.Bundle, error) {
	var out ledger.Bundle
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := sqlcommon.MustBeSigned(ctx, tx, w.Entry); err != nil {
			return err
		}
		if w.Void != "" {
			if err := sqlcommon.MustBeSigned(ctx, tx, w.Void); err != nil {
				return err
			}
		}
		b, err := dialect.LoadBundle(ctx, tx, `b.hash = ?`, hash)
		if err != nil {
			return err
		}
		if b.Withdrawal.Entry != "" {
			out, duplicate = b, true
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bundles SET withdrawal = ?, reason = ?, void = ?, withdrawn_at = ? WHERE hash = ?`,
			w.Entry, w.Reason, sqlcommon.NullString(w.Void), sqlcommon.Nanos(w.At), hash); err != nil {
			return err
		}
		if err := bindHooks.Mark(ctx, tx, w.Entry, sqlcommon.BundleStepHook); err != nil {
			return err
		}
		out, err = dialect.LoadBundle(ctx, tx, `b.hash = ?`, hash)
		return err
	})
	if err != nil {
		return ledger.Bundle{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: bundle %s is withdrawn: %w", hash, store.ErrDuplicate)
	}
	return out, nil
}

// bundleStepBound keeps the claims in step with the entry just bound at
// index, in the commit that binds it: claims become findable when the
// entry revealing their bundle is bound, and unfindable when a withdrawal
// of it is.
func bundleStepBound(ctx context.Context, tx sqlcommon.Querier, b store.Binding) error {
	if _, err := tx.ExecContext(ctx, `UPDATE claims SET opened = ? WHERE bundle = (SELECT hash FROM bundles WHERE revealed = ?)`, b.Index, b.Digest); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE claim_tags SET opened = ? WHERE claim IN
		(SELECT seq FROM claims WHERE bundle = (SELECT hash FROM bundles WHERE revealed = ?))`, b.Index, b.Digest); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO opened_words (rowid, statement) SELECT `+wordsKey+`, c.statement
		FROM claims c WHERE c.bundle = (SELECT hash FROM bundles WHERE revealed = ?)`, b.Digest); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE claims SET withdrawn = 1 WHERE bundle = (SELECT hash FROM bundles WHERE withdrawal = ?)`, b.Digest)
	return err
}

// bindHookMigration is migration 8: the binding hook an entry is marked
// with (signed.go), and the mark of every bundle step recorded and not
// bound yet, which bind found by probing the bundles before.
const bindHookMigration = `
ALTER TABLE signed ADD COLUMN on_bind TEXT;
UPDATE signed SET on_bind = '` + sqlcommon.BundleStepHook + `' WHERE idx IS NULL AND digest IN
	(SELECT revealed FROM bundles WHERE revealed IS NOT NULL UNION SELECT withdrawal FROM bundles WHERE withdrawal IS NOT NULL);
`

// dropBundleRecords undoes what an unbound entry made of bundles: a sealed
// entry takes its bundle with it; a revealing, void or withdrawal entry the
// step it recorded.
func dropBundleRecords(ctx context.Context, tx *sql.Tx, digest string) error {
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

// keptFilesMigration records the files that entries other than bundles
// digest (KeepFiles), so that HoldsFile keeps them too, and an evidence
// digest's files by path (KeepEvidence).
const keptFilesMigration = `
CREATE TABLE kept_files (
	digest TEXT PRIMARY KEY
) WITHOUT ROWID;
CREATE TABLE evidence_files (
	evidence TEXT NOT NULL,
	path     TEXT NOT NULL,
	digest   TEXT NOT NULL,
	PRIMARY KEY (evidence, path)
) WITHOUT ROWID;
`

// RepeatedBy implements ledger.Store.
func (s *Store) RepeatedBy(ctx context.Context, operator string, assertions []string) (string, error) {
	if len(assertions) == 0 {
		return "", sqlcommon.NotFound("sqlite: no assertions")
	}
	list, err := json.Marshal(assertions)
	if err != nil {
		return "", err
	}
	var hash string
	err = s.r.QueryRowContext(ctx, `SELECT b.hash FROM claims c JOIN bundles b ON b.hash = c.bundle
		WHERE c.operator = ? AND c.assertion IN (SELECT value FROM json_each(?)) AND b.withdrawal IS NULL
		ORDER BY b.at DESC LIMIT 1`, operator, string(list)).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", sqlcommon.NotFound("sqlite: no earlier bundle of %s repeats these claims", operator)
	}
	return hash, err
}
