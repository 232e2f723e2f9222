package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

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
		existing, err := dialect.LoadBundle(ctx, tx, `b.hash = ?`, b.Hash)
		if err == nil {
			out, duplicate = existing, true
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := sqlcommon.MustBeSigned(ctx, tx, b.Sealed); err != nil {
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
			sqlcommon.NullString(b.Replaces), b.WrittenBy, sqlcommon.Nanos(b.At)); err != nil {
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
		out, err = dialect.LoadBundle(ctx, tx, `b.hash = ?`, b.Hash)
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

// WithdrawBundle implements ledger.Store.
func (s *Store) WithdrawBundle(ctx context.Context, hash string, w ledger.Withdrawal) (ledger.Bundle, error) {
	var out ledger.Bundle
	duplicate := false
	err := s.write(ctx, func(tx *txn) error {
		duplicate = false // set afresh on every run: see write
		if err := sqlcommon.MustBeSigned(ctx, tx, w.Entry); err != nil {
			return err
		}
		if w.Void != "" {
			if err := sqlcommon.MustBeSigned(ctx, tx, w.Void); err != nil {
				return err
			}
		}
		b, err := dialect.LoadBundle(ctx, tx, `b.hash = ?`, hash)
		if err != nil {
			return err
		}
		if b.Withdrawal.Entry != "" {
			out, duplicate = b, true
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bundles SET withdrawal = ?, reason = ?, void = ?, withdrawn_at = ? WHERE hash = ?`,
			w.Entry, w.Reason, sqlcommon.NullString(w.Void), sqlcommon.Nanos(w.At), hash); err != nil {
			return err
		}
		if err := bindHooks.Mark(ctx, tx, w.Entry, sqlcommon.BundleStepHook); err != nil {
			return err
		}
		out, err = dialect.LoadBundle(ctx, tx, `b.hash = ?`, hash)
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
		where = append(where, `c.id IN (`+sqlcommon.Placeholders(len(q.Only))+`)`)
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
		out, err = dialect.QueryClaims(ctx, tx, `c.seq IN (`+sqlcommon.Placeholders(len(seqs))+`) ORDER BY `+order, seqs...)
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

// RepeatedBy implements ledger.Store.
func (s *Store) RepeatedBy(ctx context.Context, operator string, assertions []string) (string, error) {
	if len(assertions) == 0 {
		return "", sqlcommon.NotFound("postgres: no assertions")
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
		return "", sqlcommon.NotFound("postgres: no earlier bundle of %s repeats these claims", operator)
	}
	return hash, err
}
