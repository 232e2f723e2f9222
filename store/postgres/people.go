package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// CreateVouchConsent implements store.Store.
func (s *Store) CreateVouchConsent(ctx context.Context, c store.VouchConsent, open int) (store.VouchConsent, error) {
	if c.Pairing == "" || c.Operator == "" || c.OperatorKey == "" || c.Sig == "" || open < 1 || !c.Expires.After(c.Created) {
		return store.VouchConsent{}, fmt.Errorf("postgres: create vouch consent %s: %w", c.Pairing, store.ErrInvalid)
	}
	var out store.VouchConsent
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		existing, err := sqlcommon.LoadConsent(ctx, tx, c.Pairing)
		if err == nil {
			if existing.Operator != c.Operator {
				return fmt.Errorf("postgres: pairing %s is another operator's consent: %w", c.Pairing, store.ErrConflict)
			}
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		op, err := sqlcommon.LoadOperator(ctx, tx, c.Operator)
		if err != nil {
			return err
		}
		if current := op.Key().Digest; current != c.OperatorKey {
			return fmt.Errorf("postgres: %s holds %s now, not %s: %w", c.Operator, current, c.OperatorKey, store.ErrKeyChanged)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO vouch_consents (pairing, operator, operator_key, sig, created, expires) VALUES (?, ?, ?, ?, ?, ?)`,
			c.Pairing, c.Operator, c.OperatorKey, c.Sig, sqlcommon.Nanos(c.Created), sqlcommon.Nanos(c.Expires)); err != nil {
			return err
		}
		// Only the newest open consents stay: the unused ones past them go.
		if _, err := tx.ExecContext(ctx,
			`DELETE FROM vouch_consents WHERE operator = ? AND used_entry IS NULL AND pairing NOT IN (
				SELECT pairing FROM vouch_consents WHERE operator = ? AND used_entry IS NULL
				ORDER BY created DESC, pairing DESC LIMIT ?)`, c.Operator, c.Operator, open); err != nil {
			return err
		}
		out, err = sqlcommon.LoadConsent(ctx, tx, c.Pairing)
		return err
	})
	if err != nil {
		return store.VouchConsent{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: vouch consent %s is recorded: %w", c.Pairing, store.ErrDuplicate)
	}
	return out, nil
}

// ConfirmAccount implements store.Store.
func (s *Store) ConfirmAccount(ctx context.Context, token string, at time.Time) (store.AccountRequest, error) {
	var out store.AccountRequest
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		r, err := sqlcommon.LoadAccountRequest(ctx, tx, token)
		if err != nil {
			return err
		}
		if !r.Confirmed.IsZero() {
			out, duplicate = r, true
			return nil
		}
		if !at.Before(r.Expires) {
			return fmt.Errorf("postgres: account request %s lapsed at %s: %w", token, r.Expires.Format(time.RFC3339), store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE account_requests SET confirmed = ? WHERE token = ?`, sqlcommon.Nanos(at), token); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO account_members (operator, email_key, added) VALUES (?, ?, ?)
			 ON CONFLICT (operator) DO UPDATE SET email_key = excluded.email_key, added = excluded.added`,
			r.Operator, r.EmailKey, sqlcommon.Nanos(at)); err != nil {
			return err
		}
		r.Confirmed = sqlcommon.FromNanos(sqlcommon.Nanos(at))
		out = r
		return nil
	})
	if err != nil {
		return store.AccountRequest{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: account request %s was confirmed: %w", token, store.ErrDuplicate)
	}
	return out, nil
}
