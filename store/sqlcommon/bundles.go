package sqlcommon

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agora-node/agora/ledger"
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
