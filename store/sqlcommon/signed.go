package sqlcommon

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
)

// PutSigned is PutSigned in the caller's transaction.
func PutSigned(ctx context.Context, tx Querier, digest string, signed, leaf []byte) error {
	// A new entry, as nearly every one is, takes one statement; one
	// already kept is told apart below.
	res, err := tx.ExecContext(ctx, `INSERT INTO signed (digest, entry, leaf, stored) VALUES (?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING`,
		digest, signed, leaf, Nanos(time.Now()))
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
		return fmt.Errorf("store: signed entry %s holds other bytes: %w", digest, store.ErrConflict)
	case idx.Valid:
		return fmt.Errorf("store: signed entry %s is logged at %d: %w", digest, idx.Int64, store.ErrDuplicate)
	case leaf != nil:
		_, err = tx.ExecContext(ctx, `UPDATE signed SET leaf = ? WHERE digest = ?`, leaf, digest)
		return err
	}
	return nil
}

// Binding hooks.
//
// A face whose records must change in the commit that binds one of its
// entries (the ledger: a bundle's claims open when its revealing entry is
// bound) marks the entry, when it records them, with the name of a hook
// (signed.on_bind, set by Mark); Bind runs that hook, and only for an
// entry so marked. Every other entry, nearly all of them, binds in one
// statement that knows nothing of the faces. The hooks are each driver's:
// what a face keeps beside its rows (SQLite's word index) is the driver's.

// A BindHook changes a face's records in the commit that binds b.
type BindHook func(ctx context.Context, tx Querier, b store.Binding) error

// BindHooks are the hooks faces mark entries with, by name.
type BindHooks map[string]BindHook

// Mark has Bind run hook when it binds digest, if digest is not bound
// yet: an entry bound already has had its binding.
func (hooks BindHooks) Mark(ctx context.Context, tx Querier, digest, hook string) error {
	if _, ok := hooks[hook]; !ok {
		return fmt.Errorf("store: no binding hook %q", hook)
	}
	_, err := tx.ExecContext(ctx, `UPDATE signed SET on_bind = ? WHERE digest = ? AND idx IS NULL`, hook, digest)
	return err
}

// bound runs the hook an entry just bound was marked with, if any.
func (hooks BindHooks) bound(ctx context.Context, tx Querier, b store.Binding, hook sql.NullString) error {
	if !hook.Valid {
		return nil
	}
	h, ok := hooks[hook.String]
	if !ok {
		return fmt.Errorf("store: signed entry %s is marked for binding hook %q, which this program does not have", b.Digest, hook.String)
	}
	return h(ctx, tx, b)
}

// Bind binds b, running the hook its entry was marked with.
func (hooks BindHooks) Bind(ctx context.Context, tx Querier, b store.Binding) error {
	if b.Index < 0 {
		return fmt.Errorf("store: bind %s to index %d: %w", b.Digest, b.Index, store.ErrInvalid)
	}
	// The usual binding, of an unbound entry to a free index, is one
	// statement; anything else is told apart below.
	var hook sql.NullString
	err := tx.QueryRowContext(ctx, `UPDATE signed SET idx = ?1 WHERE digest = ?2 AND idx IS NULL
		AND NOT EXISTS (SELECT 1 FROM signed WHERE idx = ?1) RETURNING on_bind`, b.Index, b.Digest).Scan(&hook)
	if err == nil {
		return hooks.bound(ctx, tx, b, hook)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var idx sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT idx FROM signed WHERE digest = ?`, b.Digest).Scan(&idx)
	if errors.Is(err, sql.ErrNoRows) {
		return NotFound("store: bind signed entry %s", b.Digest)
	}
	if err != nil {
		return err
	}
	if idx.Valid {
		if idx.Int64 == b.Index {
			return nil
		}
		return fmt.Errorf("store: signed entry %s is logged at %d, not %d: %w", b.Digest, idx.Int64, b.Index, store.ErrConflict)
	}
	var other string
	err = tx.QueryRowContext(ctx, `SELECT digest FROM signed WHERE idx = ?`, b.Index).Scan(&other)
	if err == nil {
		return fmt.Errorf("store: index %d holds %s, not %s: %w", b.Index, other, b.Digest, store.ErrConflict)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err := tx.QueryRowContext(ctx, `UPDATE signed SET idx = ? WHERE digest = ? RETURNING on_bind`, b.Index, b.Digest).Scan(&hook); err != nil {
		return err
	}
	return hooks.bound(ctx, tx, b, hook)
}

const SignedColumns = `digest, entry, leaf, idx, stored`

func ScanSigned(row interface{ Scan(...any) error }) (store.Signed, error) {
	var e store.Signed
	var idx sql.NullInt64
	var stored int64
	if err := row.Scan(&e.Digest, &e.Entry, &e.Leaf, &idx, &stored); err != nil {
		return store.Signed{}, err
	}
	e.Index, e.Stored = Index(idx), FromNanos(stored)
	return e, nil
}

// BundleStepHook is the binding hook of the entries that reveal or
// withdraw a bundle, which OpenBundle and WithdrawBundle mark.
const BundleStepHook = "bundle"

// Signed implements store.Store.
func (s *Shared) Signed(ctx context.Context, index int64) (store.Signed, error) {
	e, err := ScanSigned(s.R.QueryRowContext(ctx, `SELECT `+SignedColumns+` FROM signed WHERE idx = ?`, index))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Signed{}, NotFound("store: no entry at index %d", index)
	}
	return e, err
}

// SignedFrom implements store.Store.
func (s *Shared) SignedFrom(ctx context.Context, from int64, limit int) ([]store.Signed, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("store: SignedFrom of %d entries: %w", limit, store.ErrInvalid)
	}
	rows, err := s.R.QueryContext(ctx, `SELECT `+SignedColumns+` FROM signed WHERE idx >= ? ORDER BY idx LIMIT ?`, from, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Signed
	for rows.Next() {
		e, err := ScanSigned(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// SignedByDigest implements store.Store.
func (s *Shared) SignedByDigest(ctx context.Context, digest string) (store.Signed, error) {
	e, err := ScanSigned(s.R.QueryRowContext(ctx, `SELECT `+SignedColumns+` FROM signed WHERE digest = ?`, digest))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Signed{}, NotFound("store: no signed entry %s", digest)
	}
	return e, err
}

// LatestIndex implements store.Store.
func (s *Shared) LatestIndex(ctx context.Context) (int64, error) {
	var idx sql.NullInt64
	if err := s.R.QueryRowContext(ctx, `SELECT MAX(idx) FROM signed`).Scan(&idx); err != nil {
		return 0, err
	}
	return Index(idx), nil
}

// Unbound implements store.Store.
func (s *Shared) Unbound(ctx context.Context) ([]store.Signed, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT `+SignedColumns+` FROM signed WHERE idx IS NULL ORDER BY stored, digest`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Signed
	for rows.Next() {
		e, err := ScanSigned(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
