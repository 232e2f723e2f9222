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

// peopleMigration keeps a person's side of identity (store.Store's vouch
// consents, waiting vouches and account requests): an operator's advance
// consents by pairing digest, the vouches waiting for its countersignature,
// and the requests to be listed in a person's account with the listing
// they make. It only makes what is missing.
const peopleMigration = `
CREATE TABLE IF NOT EXISTS vouch_consents (
	pairing      TEXT PRIMARY KEY,
	operator     TEXT NOT NULL REFERENCES operators (id),
	operator_key TEXT NOT NULL,
	sig          TEXT NOT NULL,
	created      BIGINT NOT NULL,
	expires      BIGINT NOT NULL,
	used_entry   TEXT UNIQUE REFERENCES signed (digest),
	used_at      BIGINT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS vouch_consents_operator ON vouch_consents (operator, created);

CREATE TABLE IF NOT EXISTS vouches (
	operator    TEXT NOT NULL REFERENCES operators (id),
	voucher     TEXT NOT NULL,
	login       TEXT NOT NULL,
	voucher_sig TEXT NOT NULL,
	at          BIGINT NOT NULL,
	PRIMARY KEY (operator, voucher)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS account_requests (
	token     TEXT PRIMARY KEY,
	operator  TEXT NOT NULL REFERENCES operators (id),
	email     TEXT NOT NULL,
	email_key TEXT NOT NULL,
	requested BIGINT NOT NULL,
	expires   BIGINT NOT NULL,
	confirmed BIGINT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS account_requests_operator ON account_requests (operator, email_key);

CREATE TABLE IF NOT EXISTS account_members (
	operator  TEXT PRIMARY KEY REFERENCES operators (id),
	email_key TEXT NOT NULL,
	added     BIGINT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS account_members_email ON account_members (email_key, added);

CREATE TABLE IF NOT EXISTS domain_watches (
	pairing  TEXT PRIMARY KEY,
	operator TEXT NOT NULL REFERENCES operators (id),
	domain   TEXT NOT NULL,
	started  BIGINT NOT NULL,
	until    BIGINT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS domain_watches_until ON domain_watches (until);
`

// CreateVouchConsent implements store.Store.
func (s *Store) CreateVouchConsent(ctx context.Context, c store.VouchConsent, open int) (store.VouchConsent, error) {
	if c.Pairing == "" || c.Operator == "" || c.OperatorKey == "" || c.Sig == "" || open < 1 || !c.Expires.After(c.Created) {
		return store.VouchConsent{}, fmt.Errorf("sqlite: create vouch consent %s: %w", c.Pairing, store.ErrInvalid)
	}
	var out store.VouchConsent
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		existing, err := sqlcommon.LoadConsent(ctx, tx, c.Pairing)
		if err == nil {
			if existing.Operator != c.Operator {
				return fmt.Errorf("sqlite: pairing %s is another operator's consent: %w", c.Pairing, store.ErrConflict)
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
			return fmt.Errorf("sqlite: %s holds %s now, not %s: %w", c.Operator, current, c.OperatorKey, store.ErrKeyChanged)
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
		return out, fmt.Errorf("sqlite: vouch consent %s is recorded: %w", c.Pairing, store.ErrDuplicate)
	}
	return out, nil
}

// ConfirmAccount implements store.Store.
func (s *Store) ConfirmAccount(ctx context.Context, token string, at time.Time) (store.AccountRequest, error) {
	var out store.AccountRequest
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		r, err := sqlcommon.LoadAccountRequest(ctx, tx, token)
		if err != nil {
			return err
		}
		if !r.Confirmed.IsZero() {
			out, duplicate = r, true
			return nil
		}
		if !at.Before(r.Expires) {
			return fmt.Errorf("sqlite: account request %s lapsed at %s: %w", token, r.Expires.Format(time.RFC3339), store.ErrConflict)
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
		return out, fmt.Errorf("sqlite: account request %s was confirmed: %w", token, store.ErrDuplicate)
	}
	return out, nil
}
