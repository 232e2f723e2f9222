package sqlcommon

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
)

const BundleColumns = `b.hash, b.operator, b.key_digest, b.entry, b.entry_digest, b.sealed, b.salt, b.fields,
	b.replaces, b.written_by, b.at, se.idx, b.revealed, re.idx, b.withdrawal, we.idx, b.reason, b.void, b.withdrawn_at`

const BundleJoins = `FROM bundles b
	JOIN signed se ON se.digest = b.sealed
	LEFT JOIN signed re ON re.digest = b.revealed
	LEFT JOIN signed we ON we.digest = b.withdrawal`

// LoadBundle loads the one bundle where matches, with its files, claims
// and versions.
func (d Dialect) LoadBundle(ctx context.Context, q Reader, where string, args ...any) (ledger.Bundle, error) {
	b, err := ScanBundle(q.QueryRowContext(ctx, `SELECT `+BundleColumns+` `+BundleJoins+` WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Bundle{}, NotFound("store: no bundle where %s %v", where, args)
	}
	if err != nil {
		return ledger.Bundle{}, err
	}
	rows, err := q.QueryContext(ctx, `SELECT path, digest, size, uploaded FROM bundle_files WHERE bundle = ? ORDER BY path`, b.Hash)
	if err != nil {
		return ledger.Bundle{}, err
	}
	for rows.Next() {
		var f ledger.File
		if err := rows.Scan(&f.Path, &f.Digest, &f.Size, &f.Uploaded); err != nil {
			rows.Close()
			return ledger.Bundle{}, err
		}
		b.Files = append(b.Files, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return ledger.Bundle{}, err
	}
	found, err := d.QueryClaims(ctx, q, `c.bundle = ? ORDER BY c.position`, b.Hash)
	if err != nil {
		return ledger.Bundle{}, err
	}
	for _, c := range found {
		b.Claims = append(b.Claims, c.Claim)
	}
	b.Versions, err = Versions(ctx, q, b)
	return b, err
}

func Strings1(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

const ClaimJoins = `FROM claims c JOIN bundles b ON b.hash = c.bundle LEFT JOIN signed re ON re.digest = b.revealed`

func (d Dialect) QueryClaims(ctx context.Context, q Reader, where string, args ...any) ([]ledger.FoundClaim, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+d.claimColumns()+` `+ClaimJoins+` WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ledger.FoundClaim
	for rows.Next() {
		var c ledger.FoundClaim
		var opened, stored sql.NullInt64
		var fields, depends, cites string
		if err := rows.Scan(&c.ID, &c.LocalID, &c.Type, &c.Statement, &c.Assertion, &c.JSON, &c.Position, &c.Bundle, &c.Operator,
			&opened, &c.Withdrawn, &fields, &c.WrittenBy, &stored, &depends, &cites); err != nil {
			return nil, err
		}
		c.Opened = Index(opened)
		if opened.Valid {
			c.OpenedAt = FromNullNanos(stored)
		}
		for _, p := range []struct {
			text string
			into *[]string
		}{{fields, &c.Fields}, {depends, &c.DependsOn}, {cites, &c.Cites}} {
			if err := json.Unmarshal([]byte(p.text), p.into); err != nil {
				return nil, fmt.Errorf("store: claim %s: %w", c.ID, err)
			}
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Placeholders is n question marks, separated by commas.
func Placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// claimColumns are a claim's columns as QueryClaims scans them.
func (d Dialect) claimColumns() string {
	return `c.id, c.local_id, c.type, c.statement, c.assertion, c.claim, c.position, c.bundle, c.operator,
	c.opened, c.withdrawn, b.fields, b.written_by, re.stored,
	(SELECT ` + d.JSONArray("value") + ` FROM claim_tags t WHERE t.claim = c.seq AND t.kind = 'depends_on'),
	(SELECT ` + d.JSONArray("value") + ` FROM claim_tags t WHERE t.claim = c.seq AND t.kind = 'cites')`
}

// Bundle implements ledger.Store.
func (s *Shared) Bundle(ctx context.Context, hash string) (b ledger.Bundle, err error) {
	err = s.Read(ctx, func(tx Querier) error {
		b, err = s.Dialect.LoadBundle(ctx, tx, `b.hash = ?`, hash)
		return err
	})
	return b, err
}

// BundleBySealed implements ledger.Store.
func (s *Shared) BundleBySealed(ctx context.Context, index int64) (b ledger.Bundle, err error) {
	err = s.Read(ctx, func(tx Querier) error {
		b, err = s.Dialect.LoadBundle(ctx, tx, `se.idx = ?`, index)
		return err
	})
	return b, err
}

// SealedBundles implements ledger.Store.
func (s *Shared) SealedBundles(ctx context.Context, before time.Time, after string, limit int) ([]ledger.Bundle, error) {
	if after == "" {
		return s.loadBundles(ctx, `b.revealed IS NULL AND b.withdrawal IS NULL AND b.at <= ? AND se.idx IS NOT NULL
		ORDER BY b.at, b.hash LIMIT ?`, Nanos(before), limit)
	}
	return s.loadBundles(ctx, `b.revealed IS NULL AND b.withdrawal IS NULL AND b.at <= ? AND se.idx IS NOT NULL
		AND (b.at, b.hash) > (SELECT at, hash FROM bundles WHERE hash = ?)
		ORDER BY b.at, b.hash LIMIT ?`, Nanos(before), after, limit)
}

// UnsettledBundles implements ledger.Store.
func (s *Shared) UnsettledBundles(ctx context.Context, limit int) ([]ledger.Bundle, error) {
	return s.loadBundles(ctx, `b.revealed IS NOT NULL AND b.settled IS NULL AND re.idx IS NOT NULL
		ORDER BY b.at LIMIT ?`, limit)
}

// SettleBundle implements ledger.Store.
func (s *Shared) SettleBundle(ctx context.Context, hash string) error {
	return s.Write(ctx, func(tx Querier) error {
		_, err := tx.ExecContext(ctx, `UPDATE bundles SET settled = ? WHERE hash = ? AND revealed IS NOT NULL AND settled IS NULL`,
			Nanos(time.Now()), hash)
		return err
	})
}

// loadBundles loads every bundle where matches, in one read transaction.
func (s *Shared) loadBundles(ctx context.Context, where string, args ...any) ([]ledger.Bundle, error) {
	var out []ledger.Bundle
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT b.hash `+BundleJoins+` WHERE `+where, args...)
		if err != nil {
			return err
		}
		hashes, err := Strings1(rows)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			b, err := s.Dialect.LoadBundle(ctx, tx, `b.hash = ?`, h)
			if err != nil {
				return err
			}
			out = append(out, b)
		}
		return nil
	})
	return out, err
}

// OpenBundle implements ledger.Store.
func (s *Shared) OpenBundle(ctx context.Context, hash, entry string) error {
	return s.Write(ctx, func(tx Querier) error {
		if err := MustBeSigned(ctx, tx, entry); err != nil {
			return err
		}
		var revealed, withdrawal sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT revealed, withdrawal FROM bundles WHERE hash = ?`, hash).Scan(&revealed, &withdrawal)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: no bundle %s", hash)
		}
		switch {
		case err != nil:
			return err
		case revealed.String == entry:
			return nil
		case revealed.Valid:
			return fmt.Errorf("store: bundle %s was revealed by %s: %w", hash, revealed.String, store.ErrConflict)
		case withdrawal.Valid:
			return fmt.Errorf("store: bundle %s was withdrawn: %w", hash, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bundles SET revealed = ? WHERE hash = ?`, entry, hash); err != nil {
			return err
		}
		return s.Hooks.Mark(ctx, tx, entry, BundleStepHook)
	})
}

// OperatorBundles implements ledger.Store.
func (s *Shared) OperatorBundles(ctx context.Context, operator string, since time.Time) (int, error) {
	var n int
	err := s.R.QueryRowContext(ctx, `SELECT COUNT(*) FROM bundles WHERE (?1 = '' OR operator = ?1) AND at > ?2`, operator, Nanos(since)).Scan(&n)
	return n, err
}

// Claim implements ledger.Store.
func (s *Shared) Claim(ctx context.Context, id string) ([]ledger.FoundClaim, error) {
	found, err := s.Dialect.QueryClaims(ctx, s.R, `c.id = ? AND c.opened IS NOT NULL ORDER BY c.opened`, id)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, NotFound("store: no published claim %s", id)
	}
	return found, nil
}

// Restatements implements ledger.Store.
func (s *Shared) Restatements(ctx context.Context, assertion, id string) ([]ledger.FoundClaim, error) {
	return s.Dialect.QueryClaims(ctx, s.R, `c.assertion = ? AND c.id != ? AND c.opened IS NOT NULL AND c.withdrawn = 0 ORDER BY c.opened, c.position`, assertion, id)
}

// DependedOnBy implements ledger.Store.
func (s *Shared) DependedOnBy(ctx context.Context, id string) ([]ledger.FoundClaim, error) {
	return s.Dialect.QueryClaims(ctx, s.R, `c.seq IN (SELECT claim FROM claim_tags WHERE kind = 'depends_on' AND value = ?)
		AND c.opened IS NOT NULL AND c.withdrawn = 0 ORDER BY c.opened, c.position`, id)
}

// ServedFile implements ledger.Store.
func (s *Shared) ServedFile(ctx context.Context, digest string) (ledger.File, error) {
	f := ledger.File{Digest: digest}
	err := s.R.QueryRowContext(ctx, `SELECT f.path, f.size, f.uploaded FROM bundle_files f
		JOIN bundles b ON b.hash = f.bundle
		JOIN signed re ON re.digest = b.revealed AND re.idx IS NOT NULL
		LEFT JOIN signed we ON we.digest = b.withdrawal
		WHERE f.digest = ? AND we.idx IS NULL LIMIT 1`, digest).Scan(&f.Path, &f.Size, &f.Uploaded)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.File{}, NotFound("store: no served file %s", digest)
	}
	return f, err
}

// KeepEvidence implements ledger.Store.
func (s *Shared) KeepEvidence(ctx context.Context, evidence string, files map[string]string) error {
	return s.Write(ctx, func(tx Querier) error {
		for path, d := range files {
			if _, err := tx.ExecContext(ctx, `INSERT INTO evidence_files (evidence, path, digest) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, evidence, path, d); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO kept_files (digest) VALUES (?) ON CONFLICT DO NOTHING`, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// EvidenceFiles implements ledger.Store.
func (s *Shared) EvidenceFiles(ctx context.Context, evidence string) (map[string]string, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT path, digest FROM evidence_files WHERE evidence = ?`, evidence)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var path, d string
		if err := rows.Scan(&path, &d); err != nil {
			return nil, err
		}
		out[path] = d
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, NotFound("store: no evidence %s recorded", evidence)
	}
	return out, nil
}

// KeepFiles implements ledger.Store.
func (s *Shared) KeepFiles(ctx context.Context, digests []string) error {
	return s.Write(ctx, func(tx Querier) error {
		for _, d := range digests {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kept_files (digest) VALUES (?) ON CONFLICT DO NOTHING`, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// HoldsFile implements ledger.Store.
func (s *Shared) HoldsFile(ctx context.Context, digest string) (bool, error) {
	var one int
	err := s.R.QueryRowContext(ctx, `SELECT 1 FROM bundle_files WHERE digest = ?
		UNION ALL SELECT 1 FROM kept_files WHERE digest = ? LIMIT 1`, digest, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// OpenedBetween implements ledger.Store.
func (s *Shared) OpenedBetween(ctx context.Context, start, end int64) ([]ledger.Bundle, error) {
	return s.loadBundles(ctx, `re.idx >= ? AND re.idx < ? AND we.idx IS NULL ORDER BY re.idx`, start, end)
}

// RequestUpload implements ledger.Store.
func (s *Shared) RequestUpload(ctx context.Context, u ledger.Upload, limits ledger.UploadLimits) error {
	if u.Digest == "" || u.Operator == "" || u.Size <= 0 {
		return fmt.Errorf("store: request upload %s: %w", u.Digest, store.ErrInvalid)
	}
	day := u.Requested.Add(-24 * time.Hour)
	kept := u.Requested.Add(-limits.Keep)
	return s.Write(ctx, func(tx Querier) error {
		for _, c := range []struct {
			what, column, value string
			limit               int64
			since               time.Time
			unbound             bool
			window              time.Duration
		}{
			{"daily upload allowance of the operator", "operator", u.Operator, limits.Daily, day, false, 24 * time.Hour},
			{"daily upload allowance of the organization", "organization", u.Organization, limits.OrgDaily, day, false, 24 * time.Hour},
			{"quota of the operator's uploads no bundle holds", "operator", u.Operator, limits.Unbound, kept, true, limits.Keep},
			{"quota of the organization's uploads no bundle holds", "organization", u.Organization, limits.OrgUnbound, kept, true, limits.Keep},
		} {
			if c.value == "" || c.limit <= 0 || (c.unbound && limits.Keep <= 0) {
				continue
			}
			unbound := ""
			if c.unbound {
				unbound = ` AND digest NOT IN (SELECT digest FROM bundle_files)`
			}
			var used, oldest sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT SUM(size), MIN(requested) FROM uploads WHERE `+c.column+` = ? AND requested > ?
				AND NOT (digest = ? AND operator = ?)`+unbound, c.value, Nanos(c.since), u.Digest, u.Operator).Scan(&used, &oldest); err != nil {
				return err
			}
			if used.Int64+u.Size > c.limit {
				retry := time.Hour
				if oldest.Valid {
					retry = FromNanos(oldest.Int64).Add(c.window).Sub(u.Requested)
				}
				return &store.LimitError{What: c.what, RetryAfter: retry}
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO uploads (digest, operator, organization, size, requested) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (digest, operator) DO UPDATE SET requested = excluded.requested, size = excluded.size`,
			u.Digest, u.Operator, u.Organization, u.Size, Nanos(u.Requested))
		return err
	})
}

// Upload implements ledger.Store.
func (s *Shared) Upload(ctx context.Context, digest string) (ledger.Upload, error) {
	u := ledger.Upload{Digest: digest}
	var requested int64
	var completed sql.NullInt64
	err := s.R.QueryRowContext(ctx, `SELECT operator, organization, size, requested,
		(SELECT MAX(completed) FROM uploads WHERE digest = ?1) FROM uploads WHERE digest = ?1 ORDER BY requested DESC LIMIT 1`, digest).
		Scan(&u.Operator, &u.Organization, &u.Size, &requested, &completed)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Upload{}, NotFound("store: no upload %s", digest)
	}
	if err != nil {
		return ledger.Upload{}, err
	}
	u.Requested, u.Completed = FromNanos(requested), FromNullNanos(completed)
	return u, nil
}

// OperatorUpload implements ledger.Store.
func (s *Shared) OperatorUpload(ctx context.Context, digest, operator string) (ledger.Upload, error) {
	u := ledger.Upload{Digest: digest, Operator: operator}
	var requested int64
	var completed sql.NullInt64
	err := s.R.QueryRowContext(ctx, `SELECT organization, size, requested, completed FROM uploads WHERE digest = ? AND operator = ?`, digest, operator).
		Scan(&u.Organization, &u.Size, &requested, &completed)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Upload{}, NotFound("store: %s asked for no upload of %s", operator, digest)
	}
	if err != nil {
		return ledger.Upload{}, err
	}
	u.Requested, u.Completed = FromNanos(requested), FromNullNanos(completed)
	return u, nil
}

// CompleteUpload implements ledger.Store.
func (s *Shared) CompleteUpload(ctx context.Context, digest, operator string, at time.Time) error {
	return s.Write(ctx, func(tx Querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE uploads SET completed = ? WHERE digest = ? AND operator = ? AND completed IS NULL`, Nanos(at), digest, operator)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM uploads WHERE digest = ? AND operator = ?`, digest, operator).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return NotFound("store: %s asked for no upload of %s", operator, digest)
			}
		}
		return nil
	})
}
