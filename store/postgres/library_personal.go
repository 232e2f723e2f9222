package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// SetPersonalState implements library.Store.
func (s *Store) SetPersonalState(ctx context.Context, st library.PersonalState) (library.PersonalState, error) {
	if st.Record == nil || st.ID == "" || len(st.Envelope) == 0 {
		return library.PersonalState{}, fmt.Errorf("postgres: set personal state: incomplete: %w", store.ErrInvalid)
	}
	author := st.Record.Author
	var out library.PersonalState
	var duplicate bool
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		var owner string
		switch err := tx.QueryRowContext(ctx, `SELECT author FROM personal_states WHERE id = ?`, st.ID).Scan(&owner); {
		case err == nil:
			if owner != author {
				return fmt.Errorf("postgres: personal state %s is kept as %s's, not %s's: %w", st.ID, owner, author, store.ErrConflict)
			}
			cur, err := sqlcommon.ScanPersonalState(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.PersonalColumns+` FROM personal_states WHERE author = ? AND is_current = 1`, author))
			if err != nil {
				return err
			}
			out, duplicate = cur, true
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var current string
		switch err := tx.QueryRowContext(ctx, `SELECT id FROM personal_states WHERE author = ? AND is_current = 1`, author).Scan(&current); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		}
		if current != st.Record.Previous {
			return fmt.Errorf("postgres: personal state %s replaces %q, but %s's current state is %q: %w",
				st.ID, st.Record.Previous, author, current, store.ErrConflict)
		}
		if current != "" {
			if _, err := tx.ExecContext(ctx, `UPDATE personal_states SET is_current = 0 WHERE id = ?`, current); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO personal_states (id, author, previous, envelope, stored, is_current) VALUES (?, ?, ?, ?, ?, 1)`,
			st.ID, author, sqlcommon.NullString(st.Record.Previous), st.Envelope, sqlcommon.Nanos(st.Stored)); err != nil {
			return err
		}
		out = st
		out.Stored = sqlcommon.FromNanos(sqlcommon.Nanos(st.Stored))
		return nil
	})
	if err != nil {
		return library.PersonalState{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: personal state %s: %w", st.ID, store.ErrDuplicate)
	}
	return out, nil
}

// ReadPersonal implements library.Store.
func (s *Store) ReadPersonal(ctx context.Context, r library.PersonalRead) (*library.PersonalState, error) {
	if r.Author == "" || r.Nonce == "" || r.Request == "" {
		return nil, fmt.Errorf("postgres: read personal: incomplete: %w", store.ErrInvalid)
	}
	var out *library.PersonalState
	var duplicate bool
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		if _, err := tx.ExecContext(ctx, `DELETE FROM personal_nonces WHERE expires < ?`, sqlcommon.Nanos(r.Now)); err != nil {
			return err
		}
		var request string
		var answer sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT request, answer FROM personal_nonces WHERE author = ? AND nonce = ?`, r.Author, r.Nonce).Scan(&request, &answer)
		switch {
		case err == nil && request != r.Request:
			return fmt.Errorf("postgres: %s's nonce %s: %w", r.Author, r.Nonce, library.ErrNonceUsed)
		case err == nil:
			duplicate = true
			if answer.Valid {
				st, err := sqlcommon.ScanPersonalState(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.PersonalColumns+` FROM personal_states WHERE id = ?`, answer.String))
				if err != nil {
					return err
				}
				out = &st
			}
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		st, err := sqlcommon.ScanPersonalState(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.PersonalColumns+` FROM personal_states WHERE author = ? AND is_current = 1`, r.Author))
		switch {
		case err == nil:
			out = &st
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var id sql.NullString
		if out != nil {
			id = sqlcommon.NullString(out.ID)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO personal_nonces (author, nonce, request, answer, expires) VALUES (?, ?, ?, ?, ?)`,
			r.Author, r.Nonce, r.Request, id, sqlcommon.Nanos(r.Expires))
		return err
	})
	if err != nil {
		return nil, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: personal read %s: %w", r.Request, store.ErrDuplicate)
	}
	return out, nil
}
