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
