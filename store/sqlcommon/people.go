package sqlcommon

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/store"
)

func LoadInvite(ctx context.Context, q Reader, digest string) (store.Invite, error) {
	inv := store.Invite{Digest: digest}
	var created, expires int64
	var usedBy, usedEntry sql.NullString
	var usedAt sql.NullInt64
	var current sql.NullString
	err := q.QueryRowContext(ctx,
		`SELECT i.sponsor, i.sponsor_key, i.sponsor_sig, i.organization, i.created, i.expires, i.used_by, i.used_entry, i.used_at, k.digest
		 FROM invites i LEFT JOIN keys k ON k.operator = i.sponsor AND k.retired_by IS NULL
		 WHERE i.digest = ?`, digest).
		Scan(&inv.Sponsor, &inv.SponsorKey, &inv.SponsorSig, &inv.Organization, &created, &expires, &usedBy, &usedEntry, &usedAt, &current)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Invite{}, NotFound("store: no invite %s", digest)
	}
	if err != nil {
		return store.Invite{}, err
	}
	inv.Created, inv.Expires = FromNanos(created), FromNanos(expires)
	inv.UsedBy, inv.UsedEntry, inv.UsedAt = usedBy.String, usedEntry.String, FromNullNanos(usedAt)
	inv.Void = current.String != inv.SponsorKey
	return inv, nil
}

// KeyFree checks that no operator holds or held the key.
func KeyFree(ctx context.Context, tx Querier, digest string) error {
	var holder string
	err := tx.QueryRowContext(ctx, `SELECT operator FROM keys WHERE digest = ?`, digest).Scan(&holder)
	if err == nil {
		return fmt.Errorf("store: key %s is %s's: %w", digest, holder, store.ErrKeyUsed)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

func MustBeSigned(ctx context.Context, tx Querier, digest string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM signed WHERE digest = ?`, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return NotFound("store: signed entry %s was not put", digest)
	}
	return err
}

// AllocateName gives out the next number under a name key: 1 for the first
// holder ever. The writer runs one transaction at a time, and PostgreSQL
// runs the same statement atomically on its row.
func AllocateName(ctx context.Context, tx Querier, nameKey string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx,
		`INSERT INTO names (name_key, last) VALUES (?, 1)
		 ON CONFLICT (name_key) DO UPDATE SET last = names.last + 1
		 RETURNING last`, nameKey).Scan(&n)
	return n, err
}

func LoadConsent(ctx context.Context, q Reader, pairing string) (store.VouchConsent, error) {
	c := store.VouchConsent{Pairing: pairing}
	var created, expires int64
	var usedEntry, current sql.NullString
	var usedAt sql.NullInt64
	err := q.QueryRowContext(ctx,
		`SELECT c.operator, c.operator_key, c.sig, c.created, c.expires, c.used_entry, c.used_at, k.digest
		 FROM vouch_consents c LEFT JOIN keys k ON k.operator = c.operator AND k.retired_by IS NULL
		 WHERE c.pairing = ?`, pairing).
		Scan(&c.Operator, &c.OperatorKey, &c.Sig, &created, &expires, &usedEntry, &usedAt, &current)
	if errors.Is(err, sql.ErrNoRows) {
		return store.VouchConsent{}, NotFound("store: no vouch consent %s", pairing)
	}
	if err != nil {
		return store.VouchConsent{}, err
	}
	c.Created, c.Expires = FromNanos(created), FromNanos(expires)
	c.UsedEntry, c.UsedAt = usedEntry.String, FromNullNanos(usedAt)
	c.Void = current.String != c.OperatorKey
	return c, nil
}

// UseConsent uses the consent a paired vouch completes, in AddIdentity's
// commit.
func UseConsent(ctx context.Context, tx Querier, id store.Identity) error {
	c, err := LoadConsent(ctx, tx, id.Pairing)
	if err != nil {
		return err
	}
	if c.Operator != id.Operator {
		return fmt.Errorf("store: pairing %s is %s's consent, not %s's: %w", id.Pairing, c.Operator, id.Operator, store.ErrConflict)
	}
	switch c.State(id.Added) {
	case "used":
		return fmt.Errorf("store: vouch consent %s completed %s: %w", id.Pairing, c.UsedEntry, store.ErrConsentUsed)
	case "void":
		return fmt.Errorf("store: vouch consent %s: its operator changed keys: %w", id.Pairing, store.ErrConsentVoid)
	case "expired":
		return fmt.Errorf("store: vouch consent %s lapsed at %s: %w", id.Pairing, c.Expires.Format(time.RFC3339), store.ErrConsentVoid)
	}
	_, err = tx.ExecContext(ctx, `UPDATE vouch_consents SET used_entry = ?, used_at = ? WHERE pairing = ?`, id.Entry, Nanos(id.Added), id.Pairing)
	return err
}

func LoadAccountRequest(ctx context.Context, q Reader, token string) (store.AccountRequest, error) {
	r := store.AccountRequest{Token: token}
	var requested, expires int64
	var confirmed sql.NullInt64
	err := q.QueryRowContext(ctx,
		`SELECT operator, email, email_key, requested, expires, confirmed FROM account_requests WHERE token = ?`, token).
		Scan(&r.Operator, &r.Email, &r.EmailKey, &requested, &expires, &confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return store.AccountRequest{}, NotFound("store: no account request %s", token)
	}
	if err != nil {
		return store.AccountRequest{}, err
	}
	r.Requested, r.Expires, r.Confirmed = FromNanos(requested), FromNanos(expires), FromNullNanos(confirmed)
	return r, nil
}

const RecoveryColumns = `key_digest, key, voucher, since, entry, requested, expires, approved, voucher_sig`

func ScanRecoveryRequest(operator string, scan func(...any) error) (store.RecoveryRequest, error) {
	r := store.RecoveryRequest{Operator: operator}
	var since, requested, expires int64
	var approved sql.NullInt64
	var sig sql.NullString
	if err := scan(&r.KeyDigest, &r.Key, &r.Voucher, &since, &r.Entry, &requested, &expires, &approved, &sig); err != nil {
		return store.RecoveryRequest{}, err
	}
	r.Since, r.Requested, r.Expires = uint64(since), FromNanos(requested), FromNanos(expires)
	r.Approved, r.VoucherSig = FromNullNanos(approved), sig.String
	return r, nil
}

func LoadRecoveryRequest(ctx context.Context, q Reader, operator, keyDigest string) (store.RecoveryRequest, error) {
	row := q.QueryRowContext(ctx, `SELECT `+RecoveryColumns+` FROM recovery_requests WHERE operator = ? AND key_digest = ?`, operator, keyDigest)
	r, err := ScanRecoveryRequest(operator, row.Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return store.RecoveryRequest{}, NotFound("store: no recovery of %s to %s waits", operator, keyDigest)
	}
	return r, err
}

// Invite implements store.Store.
func (s *Shared) Invite(ctx context.Context, digest string) (store.Invite, error) {
	return LoadInvite(ctx, s.R, digest)
}

// InvitesMade implements store.Store.
func (s *Shared) InvitesMade(ctx context.Context, organization string, since time.Time) (int, error) {
	var n int
	err := s.R.QueryRowContext(ctx, `SELECT COUNT(*) FROM invites WHERE organization = ? AND created > ?`,
		organization, Nanos(since)).Scan(&n)
	return n, err
}

// OperatorByKey implements store.Store.
func (s *Shared) OperatorByKey(ctx context.Context, keyDigest string) (store.Operator, error) {
	var out store.Operator
	err := s.Read(ctx, func(tx Querier) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT operator FROM keys WHERE digest = ?`, keyDigest).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: no operator holds key %s", keyDigest)
		}
		if err != nil {
			return err
		}
		out, err = LoadOperator(ctx, tx, id)
		return err
	})
	return out, err
}

// VouchConsent implements store.Store.
func (s *Shared) VouchConsent(ctx context.Context, pairing string) (store.VouchConsent, error) {
	return LoadConsent(ctx, s.R, pairing)
}

// PutVouch implements store.Store.
func (s *Shared) PutVouch(ctx context.Context, v store.Vouch) error {
	if v.Operator == "" || v.Voucher == "" || v.VoucherSig == "" {
		return fmt.Errorf("store: put vouch for %s: %w", v.Operator, store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
		if _, err := LoadOperator(ctx, tx, v.Operator); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO vouches (operator, voucher, login, voucher_sig, at) VALUES (?, ?, ?, ?, ?)
			 ON CONFLICT (operator, voucher) DO UPDATE SET login = excluded.login, voucher_sig = excluded.voucher_sig, at = excluded.at`,
			v.Operator, v.Voucher, v.Login, v.VoucherSig, Nanos(v.At))
		return err
	})
}

// Vouches implements store.Store.
func (s *Shared) Vouches(ctx context.Context, operator string, since time.Time) ([]store.Vouch, error) {
	rows, err := s.R.QueryContext(ctx,
		`SELECT voucher, login, voucher_sig, at FROM vouches WHERE operator = ? AND at >= ? ORDER BY at DESC, voucher`,
		operator, Nanos(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Vouch
	for rows.Next() {
		v := store.Vouch{Operator: operator}
		var at int64
		if err := rows.Scan(&v.Voucher, &v.Login, &v.VoucherSig, &at); err != nil {
			return nil, err
		}
		v.At = FromNanos(at)
		out = append(out, v)
	}
	return out, rows.Err()
}

// RequestAccount implements store.Store.
func (s *Shared) RequestAccount(ctx context.Context, r store.AccountRequest) error {
	if r.Token == "" || r.Operator == "" || r.Email == "" || r.EmailKey == "" || !r.Expires.After(r.Requested) {
		return fmt.Errorf("store: request account for %s: %w", r.Operator, store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
		if _, err := LoadOperator(ctx, tx, r.Operator); err != nil {
			return err
		}
		if _, err := LoadAccountRequest(ctx, tx, r.Token); err == nil {
			return fmt.Errorf("store: account request %s is recorded: %w", r.Token, store.ErrDuplicate)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM account_requests WHERE operator = ? AND email_key = ? AND confirmed IS NULL`,
			r.Operator, r.EmailKey); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO account_requests (token, operator, email, email_key, requested, expires) VALUES (?, ?, ?, ?, ?, ?)`,
			r.Token, r.Operator, r.Email, r.EmailKey, Nanos(r.Requested), Nanos(r.Expires))
		return err
	})
}

// AccountRequest implements store.Store.
func (s *Shared) AccountRequest(ctx context.Context, token string) (store.AccountRequest, error) {
	return LoadAccountRequest(ctx, s.R, token)
}

// AccountAgents implements store.Store.
func (s *Shared) AccountAgents(ctx context.Context, emailKey string) ([]string, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT operator FROM account_members WHERE email_key = ? ORDER BY added, operator`, emailKey)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var op string
		if err := rows.Scan(&op); err != nil {
			return nil, err
		}
		out = append(out, op)
	}
	return out, rows.Err()
}

// WatchDomain implements store.Store.
func (s *Shared) WatchDomain(ctx context.Context, w store.DomainWatch) error {
	if w.Pairing == "" || w.Operator == "" || w.Domain == "" || !w.Until.After(w.Started) {
		return fmt.Errorf("store: watch %s for %s: %w", w.Domain, w.Operator, store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
		if _, err := LoadOperator(ctx, tx, w.Operator); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx,
			`INSERT INTO domain_watches (pairing, operator, domain, started, until) VALUES (?, ?, ?, ?, ?)
			 ON CONFLICT (pairing) DO UPDATE SET operator = excluded.operator, domain = excluded.domain, started = excluded.started, until = excluded.until`,
			w.Pairing, w.Operator, w.Domain, Nanos(w.Started), Nanos(w.Until))
		return err
	})
}

// DomainWatches implements store.Store.
func (s *Shared) DomainWatches(ctx context.Context, now time.Time) ([]store.DomainWatch, error) {
	rows, err := s.R.QueryContext(ctx,
		`SELECT pairing, operator, domain, started, until FROM domain_watches WHERE until > ? ORDER BY started, pairing`, Nanos(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.DomainWatch
	for rows.Next() {
		var w store.DomainWatch
		var started, until int64
		if err := rows.Scan(&w.Pairing, &w.Operator, &w.Domain, &started, &until); err != nil {
			return nil, err
		}
		w.Started, w.Until = FromNanos(started), FromNanos(until)
		out = append(out, w)
	}
	return out, rows.Err()
}

// DropDomainWatches implements store.Store.
func (s *Shared) DropDomainWatches(ctx context.Context, pairings []string, now time.Time) error {
	return s.Write(ctx, func(tx Querier) error {
		for _, p := range pairings {
			if _, err := tx.ExecContext(ctx, `DELETE FROM domain_watches WHERE pairing = ?`, p); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM domain_watches WHERE until <= ?`, Nanos(now))
		return err
	})
}

// RecoveryRequest implements store.Store.
func (s *Shared) RecoveryRequest(ctx context.Context, operator, keyDigest string) (store.RecoveryRequest, error) {
	return LoadRecoveryRequest(ctx, s.R, operator, keyDigest)
}

// RecoveryRequests implements store.Store.
func (s *Shared) RecoveryRequests(ctx context.Context, operator string, now time.Time) ([]store.RecoveryRequest, error) {
	rows, err := s.R.QueryContext(ctx,
		`SELECT `+RecoveryColumns+` FROM recovery_requests WHERE operator = ? AND expires > ? ORDER BY requested DESC, key_digest`,
		operator, Nanos(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.RecoveryRequest
	for rows.Next() {
		r, err := ScanRecoveryRequest(operator, rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DropRecoveryRequest implements store.Store.
func (s *Shared) DropRecoveryRequest(ctx context.Context, operator, keyDigest string) error {
	return s.Write(ctx, func(tx Querier) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM recovery_requests WHERE operator = ? AND key_digest = ?`, operator, keyDigest)
		return err
	})
}
