package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// CreateBundle implements ledger.Store.
func (s *Store) CreateBundle(ctx context.Context, b ledger.NewBundle) (ledger.Bundle, error) {
	if b.Hash == "" || b.Operator == "" || b.Sealed == "" || b.Salt == "" || len(b.Entry) == 0 || len(b.Files) == 0 {
		return ledger.Bundle{}, fmt.Errorf("postgres: create bundle %s: %w", b.Hash, store.ErrInvalid)
	}
	fields, err := json.Marshal(b.Fields)
	if err != nil {
		return ledger.Bundle{}, err
	}
	var out ledger.Bundle
	duplicate := false
	err = s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		existing, err := loadBundle(ctx, tx, `b.hash = ?`, b.Hash)
		if err == nil {
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := mustBeSigned(ctx, tx, b.Sealed); err != nil {
			return err
		}
		var other string
		if err := tx.QueryRowContext(ctx, `SELECT hash FROM bundles WHERE sealed = ?`, b.Sealed).Scan(&other); err == nil {
			return fmt.Errorf("postgres: sealed entry %s seals %s: %w", b.Sealed, other, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO bundles (hash, operator, key_digest, entry, entry_digest, sealed, salt, fields, replaces, written_by, at)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			b.Hash, b.Operator, b.KeyDigest, b.Entry, b.EntryDigest, b.Sealed, b.Salt, string(fields),
			nullString(b.Replaces), b.WrittenBy, nanos(b.At)); err != nil {
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
			var seq int64
			if err := tx.QueryRowContext(ctx,
				`INSERT INTO claims (id, bundle, position, local_id, type, statement, assertion, operator, claim)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
				c.ID, b.Hash, i, c.LocalID, c.Type, c.Statement, c.Assertion, b.Operator, c.JSON).Scan(&seq); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO claim_terms (term, claim, position)
				SELECT t.term, ?::bigint, t.position - 1 FROM json_array_elements_text(?::json) WITH ORDINALITY AS t (term, position)`,
				seq, jsonArray(claimWords(c.Statement))); err != nil {
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
				if _, err := tx.ExecContext(ctx, `INSERT INTO claim_tags (kind, value, claim) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, t[0], t[1], seq); err != nil {
					return err
				}
			}
		}
		out, err = loadBundle(ctx, tx, `b.hash = ?`, b.Hash)
		return err
	})
	if err != nil {
		return ledger.Bundle{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: bundle %s is recorded: %w", b.Hash, store.ErrDuplicate)
	}
	return out, nil
}

// Bundle implements ledger.Store.
func (s *Store) Bundle(ctx context.Context, hash string) (b ledger.Bundle, err error) {
	err = s.read(ctx, func(tx *txn) error {
		b, err = loadBundle(ctx, tx, `b.hash = ?`, hash)
		return err
	})
	return b, err
}

// BundleBySealed implements ledger.Store.
func (s *Store) BundleBySealed(ctx context.Context, index int64) (b ledger.Bundle, err error) {
	err = s.read(ctx, func(tx *txn) error {
		b, err = loadBundle(ctx, tx, `se.idx = ?`, index)
		return err
	})
	return b, err
}

// SealedBundles implements ledger.Store.
func (s *Store) SealedBundles(ctx context.Context, before time.Time, after string, limit int) ([]ledger.Bundle, error) {
	if after == "" {
		return s.loadBundles(ctx, `b.revealed IS NULL AND b.withdrawal IS NULL AND b.at <= ? AND se.idx IS NOT NULL
		ORDER BY b.at, b.hash LIMIT ?`, nanos(before), limit)
	}
	return s.loadBundles(ctx, `b.revealed IS NULL AND b.withdrawal IS NULL AND b.at <= ? AND se.idx IS NOT NULL
		AND (b.at, b.hash) > (SELECT at, hash FROM bundles WHERE hash = ?)
		ORDER BY b.at, b.hash LIMIT ?`, nanos(before), after, limit)
}

// UnsettledBundles implements ledger.Store.
func (s *Store) UnsettledBundles(ctx context.Context, limit int) ([]ledger.Bundle, error) {
	return s.loadBundles(ctx, `b.revealed IS NOT NULL AND b.settled IS NULL AND re.idx IS NOT NULL
		ORDER BY b.at LIMIT ?`, limit)
}

// SettleBundle implements ledger.Store.
func (s *Store) SettleBundle(ctx context.Context, hash string) error {
	return s.write(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE bundles SET settled = ? WHERE hash = ? AND revealed IS NOT NULL AND settled IS NULL`,
			nanos(time.Now()), hash)
		return err
	})
}

// loadBundles loads every bundle where matches, in one read transaction.
func (s *Store) loadBundles(ctx context.Context, where string, args ...any) ([]ledger.Bundle, error) {
	var out []ledger.Bundle
	err := s.read(ctx, func(tx *txn) error {
		rows, err := tx.QueryContext(ctx, `SELECT b.hash `+bundleJoins+` WHERE `+where, args...)
		if err != nil {
			return err
		}
		hashes, err := strings1(rows)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			b, err := loadBundle(ctx, tx, `b.hash = ?`, h)
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
func (s *Store) OpenBundle(ctx context.Context, hash, entry string) error {
	return s.write(ctx, func(tx *txn) error {
		if err := mustBeSigned(ctx, tx, entry); err != nil {
			return err
		}
		var revealed, withdrawal sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT revealed, withdrawal FROM bundles WHERE hash = ?`, hash).Scan(&revealed, &withdrawal)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("postgres: no bundle %s", hash)
		}
		switch {
		case err != nil:
			return err
		case revealed.String == entry:
			return nil
		case revealed.Valid:
			return fmt.Errorf("postgres: bundle %s was revealed by %s: %w", hash, revealed.String, store.ErrConflict)
		case withdrawal.Valid:
			return fmt.Errorf("postgres: bundle %s was withdrawn: %w", hash, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bundles SET revealed = ? WHERE hash = ?`, entry, hash); err != nil {
			return err
		}
		return markBind(ctx, tx, entry, bundleStepHook)
	})
}

// WithdrawBundle implements ledger.Store.
func (s *Store) WithdrawBundle(ctx context.Context, hash string, w ledger.Withdrawal) (ledger.Bundle, error) {
	var out ledger.Bundle
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		if err := mustBeSigned(ctx, tx, w.Entry); err != nil {
			return err
		}
		if w.Void != "" {
			if err := mustBeSigned(ctx, tx, w.Void); err != nil {
				return err
			}
		}
		b, err := loadBundle(ctx, tx, `b.hash = ?`, hash)
		if err != nil {
			return err
		}
		if b.Withdrawal.Entry != "" {
			out, duplicate = b, true
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bundles SET withdrawal = ?, reason = ?, void = ?, withdrawn_at = ? WHERE hash = ?`,
			w.Entry, w.Reason, nullString(w.Void), nanos(w.At), hash); err != nil {
			return err
		}
		if err := markBind(ctx, tx, w.Entry, bundleStepHook); err != nil {
			return err
		}
		out, err = loadBundle(ctx, tx, `b.hash = ?`, hash)
		return err
	})
	if err != nil {
		return ledger.Bundle{}, err
	}
	if duplicate {
		return out, fmt.Errorf("postgres: bundle %s is withdrawn: %w", hash, store.ErrDuplicate)
	}
	return out, nil
}

// bundleStepHook is the binding hook of the entries that reveal or
// withdraw a bundle, which OpenBundle and WithdrawBundle mark.
const bundleStepHook = "bundle"

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
	_, err := tx.ExecContext(ctx, `UPDATE claims SET withdrawn = 1 WHERE bundle = (SELECT hash FROM bundles WHERE withdrawal = ?)`, b.Digest)
	return err
}

// dropBundleRecords undoes what an unbound entry made of bundles: a sealed
// entry takes its bundle with it; a revealing, void or withdrawal entry the
// step it recorded.
func dropBundleRecords(ctx context.Context, tx *txn, digest string) error {
	var hash string
	err := tx.QueryRowContext(ctx, `SELECT hash FROM bundles WHERE sealed = ?`, digest).Scan(&hash)
	switch {
	case err == nil:
		for _, q := range []string{
			`DELETE FROM claim_terms WHERE claim IN (SELECT seq FROM claims WHERE bundle = ?1)`,
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

// OperatorBundles implements ledger.Store.
func (s *Store) OperatorBundles(ctx context.Context, operator string, since time.Time) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM bundles WHERE (?1 = '' OR operator = ?1) AND at > ?2`, operator, nanos(since)).Scan(&n)
	return n, err
}

// SearchClaims implements ledger.Store. The words, an FTS5 query, are
// matched by claim_terms (claimsearch.go); the other filters by claim_tags and
// the claims' own columns. A page that ends partway through a bundle is
// completed with the rest of that bundle's claims.
//
// A search runs in two steps, so its cost follows the page, not the number
// of claims that match: pageQuery.claims reads the page's claims in page order
// from an index that holds them so (claim_tags_opened when a tag filter is
// given, else the claims' own (opened, position) indexes) and stops at the
// page's end; queryClaims then reads the columns of those claims alone.
func (s *Store) SearchClaims(ctx context.Context, q ledger.ClaimQuery) ([]ledger.FoundClaim, error) {
	from, opened := `claims c`, `c.opened`
	var where []string
	var args []any
	var tags [][2]string
	for _, t := range [][2]string{{"field", q.Field}, {"depends_on", q.DependsOn}, {"cites", q.Cites}} {
		if t[1] != "" {
			tags = append(tags, t)
		}
	}
	if len(tags) > 0 {
		from, opened = `claim_tags t JOIN claims c ON c.seq = t.claim`, `t.opened`
		where = append(where, `t.kind = ?`, `t.value = ?`, `t.opened IS NOT NULL`, `c.withdrawn = 0`)
		args = append(args, tags[0][0], tags[0][1])
		tags = tags[1:]
	} else {
		where = append(where, `c.opened IS NOT NULL`, `c.withdrawn = 0`)
	}
	if strings.TrimSpace(q.Words) != "" {
		cond, condArgs, err := ftsCondition(q.Words)
		if err != nil {
			return nil, err
		}
		where = append(where, cond)
		args = append(args, condArgs...)
	}
	for _, t := range tags {
		where = append(where, `c.seq IN (SELECT claim FROM claim_tags WHERE kind = ? AND value = ?)`)
		args = append(args, t[0], t[1])
	}
	if q.Only != nil {
		if len(q.Only) == 0 {
			return nil, nil
		}
		where = append(where, `c.id IN (`+placeholders(len(q.Only))+`)`)
		for _, id := range q.Only {
			args = append(args, id)
		}
	}
	if q.Type != "" {
		where = append(where, `c.type = ?`)
		args = append(args, q.Type)
	}
	if q.Operator != "" {
		where = append(where, `c.operator = ?`)
		args = append(args, q.Operator)
	}
	desc := !q.Follow
	if q.Follow {
		where = append(where, opened+` > ?`)
		args = append(args, q.Since)
	} else if q.Before > 0 {
		where = append(where, opened+` < ?`)
		args = append(args, q.Before)
	}
	page := pageQuery{from: from, opened: opened, where: where, args: args, desc: desc}
	limit := max(q.Limit, 1)
	var out []ledger.FoundClaim
	err := s.read(ctx, func(tx *txn) error {
		seqs, err := page.claims(ctx, tx, limit)
		if err != nil || len(seqs) == 0 {
			return err
		}
		order := `c.opened DESC, c.position`
		if !desc {
			order = `c.opened, c.position`
		}
		out, err = queryClaims(ctx, tx, `c.seq IN (`+placeholders(len(seqs))+`) ORDER BY `+order, seqs...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: search claims: %w", err)
	}
	return out, nil
}

// pageQuery finds the claims of a page of search results.
type pageQuery struct {
	from   string // the claims, c, and what drives the search
	opened string // the column of the claims' opened index to order by
	where  []string
	args   []any
	desc   bool // newest first
}

// bundleSlack is how many claims past the page pageQuery.claims reads to
// complete the page's last bundle in the same query: a claims.json holds at
// most 30. A bundle that goes on past them is completed by a second query.
const bundleSlack = 32

// pageRow is a claim found for a page, with where it stands in page order.
type pageRow struct{ seq, opened, position int64 }

// claims returns the seqs of the first limit claims that match, with the
// rest of the last one's bundle, in page order.
func (p pageQuery) claims(ctx context.Context, tx *txn, limit int) ([]any, error) {
	order := p.opened + ` DESC, c.position`
	if !p.desc {
		order = p.opened + `, c.position`
	}
	read := func(where []string, args []any, tail string) ([]pageRow, error) {
		rows, err := tx.QueryContext(ctx, `SELECT c.seq, `+p.opened+`, c.position FROM `+p.from+
			` WHERE `+strings.Join(where, " AND ")+` ORDER BY `+order+tail, args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []pageRow
		for rows.Next() {
			var r pageRow
			if err := rows.Scan(&r.seq, &r.opened, &r.position); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	rows, err := read(p.where, append(slices.Clip(p.args), limit+bundleSlack), ` LIMIT ?`)
	if err != nil {
		return nil, err
	}
	end := min(limit, len(rows))
	if end > 0 {
		// The page ends with the bundle its last claim is in.
		last := rows[end-1].opened
		for end < len(rows) && rows[end].opened == last {
			end++
		}
		if end == limit+bundleSlack {
			more, err := read(append(slices.Clip(p.where), p.opened+` = ?`, `c.position > ?`),
				append(slices.Clip(p.args), last, rows[end-1].position), "")
			if err != nil {
				return nil, err
			}
			rows, end = append(rows, more...), end+len(more)
		}
	}
	seqs := make([]any, end)
	for i, r := range rows[:end] {
		seqs[i] = r.seq
	}
	return seqs, nil
}

// Claim implements ledger.Store.
func (s *Store) Claim(ctx context.Context, id string) ([]ledger.FoundClaim, error) {
	found, err := queryClaims(ctx, s.r, `c.id = ? AND c.opened IS NOT NULL ORDER BY c.opened`, id)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, notFound("postgres: no published claim %s", id)
	}
	return found, nil
}

// Restatements implements ledger.Store.
func (s *Store) Restatements(ctx context.Context, assertion, id string) ([]ledger.FoundClaim, error) {
	return queryClaims(ctx, s.r, `c.assertion = ? AND c.id != ? AND c.opened IS NOT NULL AND c.withdrawn = 0 ORDER BY c.opened, c.position`, assertion, id)
}

// DependedOnBy implements ledger.Store.
func (s *Store) DependedOnBy(ctx context.Context, id string) ([]ledger.FoundClaim, error) {
	return queryClaims(ctx, s.r, `c.seq IN (SELECT claim FROM claim_tags WHERE kind = 'depends_on' AND value = ?)
		AND c.opened IS NOT NULL AND c.withdrawn = 0 ORDER BY c.opened, c.position`, id)
}

// ServedFile implements ledger.Store.
func (s *Store) ServedFile(ctx context.Context, digest string) (ledger.File, error) {
	f := ledger.File{Digest: digest}
	err := s.r.QueryRowContext(ctx, `SELECT f.path, f.size, f.uploaded FROM bundle_files f
		JOIN bundles b ON b.hash = f.bundle
		JOIN signed re ON re.digest = b.revealed AND re.idx IS NOT NULL
		LEFT JOIN signed we ON we.digest = b.withdrawal
		WHERE f.digest = ? AND we.idx IS NULL LIMIT 1`, digest).Scan(&f.Path, &f.Size, &f.Uploaded)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.File{}, notFound("postgres: no served file %s", digest)
	}
	return f, err
}

// KeepEvidence implements ledger.Store.
func (s *Store) KeepEvidence(ctx context.Context, evidence string, files map[string]string) error {
	return s.write(ctx, func(tx *txn) error {
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
func (s *Store) EvidenceFiles(ctx context.Context, evidence string) (map[string]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT path, digest FROM evidence_files WHERE evidence = ?`, evidence)
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
		return nil, notFound("postgres: no evidence %s recorded", evidence)
	}
	return out, nil
}

// KeepFiles implements ledger.Store.
func (s *Store) KeepFiles(ctx context.Context, digests []string) error {
	return s.write(ctx, func(tx *txn) error {
		for _, d := range digests {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kept_files (digest) VALUES (?) ON CONFLICT DO NOTHING`, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// HoldsFile implements ledger.Store.
func (s *Store) HoldsFile(ctx context.Context, digest string) (bool, error) {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM bundle_files WHERE digest = ?
		UNION ALL SELECT 1 FROM kept_files WHERE digest = ? LIMIT 1`, digest, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// RepeatedBy implements ledger.Store.
func (s *Store) RepeatedBy(ctx context.Context, operator string, assertions []string) (string, error) {
	if len(assertions) == 0 {
		return "", notFound("postgres: no assertions")
	}
	list, err := json.Marshal(assertions)
	if err != nil {
		return "", err
	}
	var hash string
	err = s.r.QueryRowContext(ctx, `SELECT b.hash FROM claims c JOIN bundles b ON b.hash = c.bundle
		WHERE c.operator = ? AND c.assertion IN (SELECT json_array_elements_text(?::json)) AND b.withdrawal IS NULL
		ORDER BY b.at DESC LIMIT 1`, operator, string(list)).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("postgres: no earlier bundle of %s repeats these claims", operator)
	}
	return hash, err
}

// OpenedBetween implements ledger.Store.
func (s *Store) OpenedBetween(ctx context.Context, start, end int64) ([]ledger.Bundle, error) {
	return s.loadBundles(ctx, `re.idx >= ? AND re.idx < ? AND we.idx IS NULL ORDER BY re.idx`, start, end)
}

// RequestUpload implements ledger.Store.
func (s *Store) RequestUpload(ctx context.Context, u ledger.Upload, limits ledger.UploadLimits) error {
	if u.Digest == "" || u.Operator == "" || u.Size <= 0 {
		return fmt.Errorf("postgres: request upload %s: %w", u.Digest, store.ErrInvalid)
	}
	day := u.Requested.Add(-24 * time.Hour)
	kept := u.Requested.Add(-limits.Keep)
	return s.write(ctx, func(tx *txn) error {
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
				AND NOT (digest = ? AND operator = ?)`+unbound, c.value, nanos(c.since), u.Digest, u.Operator).Scan(&used, &oldest); err != nil {
				return err
			}
			if used.Int64+u.Size > c.limit {
				retry := time.Hour
				if oldest.Valid {
					retry = fromNanos(oldest.Int64).Add(c.window).Sub(u.Requested)
				}
				return &store.LimitError{What: c.what, RetryAfter: retry}
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO uploads (digest, operator, organization, size, requested) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (digest, operator) DO UPDATE SET requested = excluded.requested, size = excluded.size`,
			u.Digest, u.Operator, u.Organization, u.Size, nanos(u.Requested))
		return err
	})
}

// Upload implements ledger.Store.
func (s *Store) Upload(ctx context.Context, digest string) (ledger.Upload, error) {
	u := ledger.Upload{Digest: digest}
	var requested int64
	var completed sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT operator, organization, size, requested,
		(SELECT MAX(completed) FROM uploads WHERE digest = ?1) FROM uploads WHERE digest = ?1 ORDER BY requested DESC LIMIT 1`, digest).
		Scan(&u.Operator, &u.Organization, &u.Size, &requested, &completed)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Upload{}, notFound("postgres: no upload %s", digest)
	}
	if err != nil {
		return ledger.Upload{}, err
	}
	u.Requested, u.Completed = fromNanos(requested), fromNullNanos(completed)
	return u, nil
}

// OperatorUpload implements ledger.Store.
func (s *Store) OperatorUpload(ctx context.Context, digest, operator string) (ledger.Upload, error) {
	u := ledger.Upload{Digest: digest, Operator: operator}
	var requested int64
	var completed sql.NullInt64
	err := s.r.QueryRowContext(ctx, `SELECT organization, size, requested, completed FROM uploads WHERE digest = ? AND operator = ?`, digest, operator).
		Scan(&u.Organization, &u.Size, &requested, &completed)
	if errors.Is(err, sql.ErrNoRows) {
		return ledger.Upload{}, notFound("postgres: %s asked for no upload of %s", operator, digest)
	}
	if err != nil {
		return ledger.Upload{}, err
	}
	u.Requested, u.Completed = fromNanos(requested), fromNullNanos(completed)
	return u, nil
}

// CompleteUpload implements ledger.Store.
func (s *Store) CompleteUpload(ctx context.Context, digest, operator string, at time.Time) error {
	return s.write(ctx, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE uploads SET completed = ? WHERE digest = ? AND operator = ? AND completed IS NULL`, nanos(at), digest, operator)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			if err := tx.QueryRowContext(ctx, `SELECT 1 FROM uploads WHERE digest = ? AND operator = ?`, digest, operator).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return notFound("postgres: %s asked for no upload of %s", operator, digest)
			}
		}
		return nil
	})
}
