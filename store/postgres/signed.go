package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
)

// PutSigned implements store.Store.
func (s *Store) PutSigned(ctx context.Context, digest string, signed, leaf []byte) error {
	if digest == "" || len(signed) == 0 {
		return fmt.Errorf("postgres: put signed entry: no digest or entry: %w", store.ErrInvalid)
	}
	return s.rowWrite(ctx, func(tx *txn) error { return putSigned(ctx, tx, digest, signed, leaf) })
}

// putSigned is PutSigned in the caller's transaction.
func putSigned(ctx context.Context, tx *txn, digest string, signed, leaf []byte) error {
	// A new entry, as nearly every one is, takes one statement; one
	// already kept is told apart below.
	res, err := tx.ExecContext(ctx, `INSERT INTO signed (digest, entry, leaf, stored) VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING`,
		digest, signed, leaf, nanos(time.Now()))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var entry []byte
	var idx sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT entry, idx FROM signed WHERE digest = ?`, digest).Scan(&entry, &idx)
	switch {
	case err != nil:
		return err
	case !bytes.Equal(entry, signed):
		return fmt.Errorf("postgres: signed entry %s holds other bytes: %w", digest, store.ErrConflict)
	case idx.Valid:
		return fmt.Errorf("postgres: signed entry %s is logged at %d: %w", digest, idx.Int64, store.ErrDuplicate)
	case leaf != nil:
		_, err = tx.ExecContext(ctx, `UPDATE signed SET leaf = ? WHERE digest = ?`, leaf, digest)
		return err
	}
	return nil
}

// BindIndex implements store.Store.
func (s *Store) BindIndex(ctx context.Context, index int64, digest string) error {
	return s.BindIndexes(ctx, []store.Binding{{Index: index, Digest: digest}})
}

// BindIndexes implements store.Store.
func (s *Store) BindIndexes(ctx context.Context, bindings []store.Binding) error {
	return s.rowWrite(ctx, func(tx *txn) error {
		for _, b := range bindings {
			if err := bind(ctx, tx, b); err != nil {
				return err
			}
		}
		return nil
	})
}

// Binding hooks.
//
// A face whose records must change in the commit that binds one of its
// entries (the ledger: a bundle's claims open when its revealing entry is
// bound) marks the entry, when it records them, with the name of a hook
// (signed.on_bind, set by markBind); bind runs that hook, and only for an
// entry so marked. Every other entry, nearly all of them, binds in one
// statement that knows nothing of the faces.

// A bindHook changes a face's records in the commit that binds b.
type bindHook func(ctx context.Context, tx *txn, b store.Binding) error

// bindHooks are the hooks faces mark entries with, by name.
var bindHooks = map[string]bindHook{
	bundleStepHook: bundleStepBound, // bundles.go
}

// markBind has bind run hook when it binds digest, if digest is not bound
// yet: an entry bound already has had its binding.
func markBind(ctx context.Context, tx *txn, digest, hook string) error {
	if _, ok := bindHooks[hook]; !ok {
		return fmt.Errorf("postgres: no binding hook %q", hook)
	}
	_, err := tx.ExecContext(ctx, `UPDATE signed SET on_bind = ? WHERE digest = ? AND idx IS NULL`, hook, digest)
	return err
}

// bound runs the hook an entry just bound was marked with, if any.
func bound(ctx context.Context, tx *txn, b store.Binding, hook sql.NullString) error {
	if !hook.Valid {
		return nil
	}
	h, ok := bindHooks[hook.String]
	if !ok {
		return fmt.Errorf("postgres: signed entry %s is marked for binding hook %q, which this program does not have", b.Digest, hook.String)
	}
	return h(ctx, tx, b)
}

func bind(ctx context.Context, tx *txn, b store.Binding) error {
	if b.Index < 0 {
		return fmt.Errorf("postgres: bind %s to index %d: %w", b.Digest, b.Index, store.ErrInvalid)
	}
	// The usual binding, of an unbound entry to a free index, is one
	// statement; anything else is told apart below.
	var hook sql.NullString
	err := tx.QueryRowContext(ctx, `UPDATE signed SET idx = ?1 WHERE digest = ?2 AND idx IS NULL
		AND NOT EXISTS (SELECT 1 FROM signed WHERE idx = ?1) RETURNING on_bind`, b.Index, b.Digest).Scan(&hook)
	if err == nil {
		return bound(ctx, tx, b, hook)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var idx sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT idx FROM signed WHERE digest = ?`, b.Digest).Scan(&idx)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound("postgres: bind signed entry %s", b.Digest)
	}
	if err != nil {
		return err
	}
	if idx.Valid {
		if idx.Int64 == b.Index {
			return nil
		}
		return fmt.Errorf("postgres: signed entry %s is logged at %d, not %d: %w", b.Digest, idx.Int64, b.Index, store.ErrConflict)
	}
	var other string
	err = tx.QueryRowContext(ctx, `SELECT digest FROM signed WHERE idx = ?`, b.Index).Scan(&other)
	if err == nil {
		return fmt.Errorf("postgres: index %d holds %s, not %s: %w", b.Index, other, b.Digest, store.ErrConflict)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err := tx.QueryRowContext(ctx, `UPDATE signed SET idx = ? WHERE digest = ? RETURNING on_bind`, b.Index, b.Digest).Scan(&hook); err != nil {
		return err
	}
	return bound(ctx, tx, b, hook)
}

const signedColumns = `digest, entry, leaf, idx, stored`

func scanSigned(row interface{ Scan(...any) error }) (store.Signed, error) {
	var e store.Signed
	var idx sql.NullInt64
	var stored int64
	if err := row.Scan(&e.Digest, &e.Entry, &e.Leaf, &idx, &stored); err != nil {
		return store.Signed{}, err
	}
	e.Index, e.Stored = index(idx), fromNanos(stored)
	return e, nil
}

// Signed implements store.Store.
func (s *Store) Signed(ctx context.Context, index int64) (store.Signed, error) {
	e, err := scanSigned(s.r.QueryRowContext(ctx, `SELECT `+signedColumns+` FROM signed WHERE idx = ?`, index))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Signed{}, notFound("postgres: no entry at index %d", index)
	}
	return e, err
}

// SignedByDigest implements store.Store.
func (s *Store) SignedByDigest(ctx context.Context, digest string) (store.Signed, error) {
	e, err := scanSigned(s.r.QueryRowContext(ctx, `SELECT `+signedColumns+` FROM signed WHERE digest = ?`, digest))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Signed{}, notFound("postgres: no signed entry %s", digest)
	}
	return e, err
}

// LatestIndex implements store.Store.
func (s *Store) LatestIndex(ctx context.Context) (int64, error) {
	var idx sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT MAX(idx) FROM signed`).Scan(&idx); err != nil {
		return 0, err
	}
	return index(idx), nil
}

// Unbound implements store.Store.
func (s *Store) Unbound(ctx context.Context) ([]store.Signed, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+signedColumns+` FROM signed WHERE idx IS NULL ORDER BY stored, digest`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Signed
	for rows.Next() {
		e, err := scanSigned(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DropUnbound implements store.Store.
func (s *Store) DropUnbound(ctx context.Context, digest string) error {
	return s.write(ctx, func(tx *txn) error {
		var idx sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT idx FROM signed WHERE digest = ?`, digest).Scan(&idx)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("postgres: drop signed entry %s", digest)
		}
		if err != nil {
			return err
		}
		if idx.Valid {
			return fmt.Errorf("postgres: signed entry %s is logged at %d and stays: %w", digest, idx.Int64, store.ErrConflict)
		}
		if err := dropContributionRecords(ctx, tx, digest); err != nil {
			return err
		}
		if err := dropBundleRecords(ctx, tx, digest); err != nil {
			return err
		}
		if err := dropJobRecords(ctx, tx, digest); err != nil {
			return err
		}
		// An identity it made goes, and frees the invite code or vouch
		// consent it used.
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
				return fmt.Errorf("postgres: %s registered with %s has other records: %w", operator, digest, store.ErrConflict)
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
