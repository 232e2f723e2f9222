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

// CreateInvite implements store.Store.
func (s *Store) CreateInvite(ctx context.Context, inv store.Invite, limit int, window time.Duration) (store.Invite, error) {
	if inv.Digest == "" || inv.Sponsor == "" || inv.SponsorKey == "" || inv.SponsorSig == "" || inv.Organization == "" ||
		limit < 1 || window <= 0 || !inv.Expires.After(inv.Created) {
		return store.Invite{}, fmt.Errorf("sqlite: create invite %s: %w", inv.Digest, store.ErrInvalid)
	}
	var out store.Invite
	duplicate := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		existing, err := sqlcommon.LoadInvite(ctx, tx, inv.Digest)
		if err == nil {
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		op, err := sqlcommon.LoadOperator(ctx, tx, inv.Sponsor)
		if err != nil {
			return err
		}
		if current := op.Key().Digest; current != inv.SponsorKey {
			return fmt.Errorf("sqlite: %s holds %s now, not %s: %w", inv.Sponsor, current, inv.SponsorKey, store.ErrKeyChanged)
		}
		// The codes the organization made in the window ending now; the
		// oldest that must age out before another may be made.
		since := sqlcommon.Nanos(inv.Created.Add(-window))
		var made int
		if err := tx.QueryRowContext(ctx,
			`SELECT COUNT(*) FROM invites WHERE organization = ? AND created > ?`, inv.Organization, since).Scan(&made); err != nil {
			return err
		}
		if made >= limit {
			var oldest int64
			if err := tx.QueryRowContext(ctx,
				`SELECT created FROM invites WHERE organization = ? AND created > ? ORDER BY created LIMIT 1 OFFSET ?`,
				inv.Organization, since, made-limit).Scan(&oldest); err != nil {
				return err
			}
			return &store.LimitError{
				What:       fmt.Sprintf("%d invite codes per organization in %s", limit, window),
				RetryAfter: sqlcommon.FromNanos(oldest).Add(window).Sub(inv.Created),
			}
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO invites (digest, sponsor, sponsor_key, sponsor_sig, organization, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			inv.Digest, inv.Sponsor, inv.SponsorKey, inv.SponsorSig, inv.Organization, sqlcommon.Nanos(inv.Created), sqlcommon.Nanos(inv.Expires)); err != nil {
			return err
		}
		out, err = sqlcommon.LoadInvite(ctx, tx, inv.Digest)
		return err
	})
	if err != nil {
		return store.Invite{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: invite %s is recorded: %w", inv.Digest, store.ErrDuplicate)
	}
	return out, nil
}

// Take implements store.Store. Each take is a row (bucket, at, expires):
// the window's count is the rows of the bucket after now-window, and rows
// past their expiry are deleted as takes go by. Takes are light writes
// (see lightWrite): no fsync of their own.
func (s *Store) Take(ctx context.Context, bucket string, limit int, window time.Duration, now time.Time) (bool, time.Duration, error) {
	if bucket == "" || limit < 1 || window <= 0 {
		return false, 0, fmt.Errorf("sqlite: take %q: %w", bucket, store.ErrInvalid)
	}
	ok := false
	var retry time.Duration
	at, since := sqlcommon.Nanos(now), sqlcommon.Nanos(now.Add(-window))
	err := s.lightWrite(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_events WHERE expires <= ?`, at); err != nil {
			return err
		}
		var taken int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM rate_events WHERE bucket = ? AND at > ?`, bucket, since).Scan(&taken); err != nil {
			return err
		}
		if taken < limit {
			ok = true
			_, err := tx.ExecContext(ctx, `INSERT INTO rate_events (bucket, at, expires) VALUES (?, ?, ?)`, bucket, at, sqlcommon.Nanos(now.Add(window)))
			return err
		}
		// A slot frees when the take that holds the limit's last place
		// leaves the window.
		var oldest int64
		if err := tx.QueryRowContext(ctx,
			`SELECT at FROM rate_events WHERE bucket = ? AND at > ? ORDER BY at LIMIT 1 OFFSET ?`,
			bucket, since, taken-limit).Scan(&oldest); err != nil {
			return err
		}
		retry = sqlcommon.FromNanos(oldest).Add(window).Sub(now)
		return nil
	})
	if err != nil {
		return false, 0, err
	}
	return ok, retry, nil
}
