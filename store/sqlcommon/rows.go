package sqlcommon

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store"
)

// Reader is what a read of either driver runs on: its database, or a
// transaction.
type Reader interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Nanos is a time as both drivers keep it: nanoseconds since the epoch.
func Nanos(t time.Time) int64 { return t.UnixNano() }

// FromNanos is the UTC time Nanos kept.
func FromNanos(n int64) time.Time { return time.Unix(0, n).UTC() }

// NullString keeps "" as NULL.
func NullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func ScanBundle(row interface{ Scan(...any) error }) (ledger.Bundle, error) {
	var b ledger.Bundle
	var fields string
	var replaces, revealed, withdrawal, reason, void sql.NullString
	var at int64
	var sealedIdx, revealedIdx, withdrawnIdx, withdrawnAt sql.NullInt64
	if err := row.Scan(&b.Hash, &b.Operator, &b.KeyDigest, &b.Entry, &b.EntryDigest, &b.Sealed, &b.Salt, &fields,
		&replaces, &b.WrittenBy, &at, &sealedIdx, &revealed, &revealedIdx, &withdrawal, &withdrawnIdx, &reason, &void, &withdrawnAt); err != nil {
		return ledger.Bundle{}, err
	}
	if err := json.Unmarshal([]byte(fields), &b.Fields); err != nil {
		return ledger.Bundle{}, fmt.Errorf("store: bundle %s fields: %w", b.Hash, err)
	}
	b.Replaces, b.At = replaces.String, FromNanos(at)
	b.SealedIndex = Index(sealedIdx)
	b.Revealed, b.RevealedIndex = revealed.String, Index(revealedIdx)
	b.Withdrawal = ledger.Withdrawal{Entry: withdrawal.String, Index: Index(withdrawnIdx), Reason: reason.String, Void: void.String, At: FromNullNanos(withdrawnAt)}
	switch {
	case b.Withdrawal.Entry != "" && b.Withdrawal.Index != store.Unlogged:
		b.State = ledger.BundleWithdrawn
	case b.Revealed != "" && b.RevealedIndex != store.Unlogged:
		b.State = ledger.BundleOpen
	default:
		b.State = ledger.BundleSealed
	}
	return b, nil
}

// versions follows a bundle's Replaces back to the first version and
// forward to the latest: the whole lineage, oldest first.
func Versions(ctx context.Context, q Reader, b ledger.Bundle) ([]string, error) {
	lineage := []string{b.Hash}
	seen := map[string]bool{b.Hash: true}
	for at := b.Replaces; at != "" && !seen[at]; {
		seen[at] = true
		lineage = append([]string{at}, lineage...)
		var prev sql.NullString
		err := q.QueryRowContext(ctx, `SELECT replaces FROM bundles WHERE hash = ?`, at).Scan(&prev)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, err
		}
		at = prev.String
	}
	for at := b.Hash; ; {
		var next string
		err := q.QueryRowContext(ctx, `SELECT hash FROM bundles WHERE replaces = ? ORDER BY at LIMIT 1`, at).Scan(&next)
		if errors.Is(err, sql.ErrNoRows) || seen[next] {
			break
		}
		if err != nil {
			return nil, err
		}
		seen[next] = true
		lineage = append(lineage, next)
		at = next
	}
	return lineage, nil
}

func LoadOperator(ctx context.Context, q Reader, id string) (store.Operator, error) {
	op := store.Operator{ID: id}
	var keyFamilies, modelFamilies []byte
	var registered int64
	err := q.QueryRowContext(ctx,
		`SELECT name, name_key, name_number, key_families, model, model_families, registered FROM operators WHERE id = ?`, id).
		Scan(&op.NameBase, &op.NameKey, &op.NameNumber, &keyFamilies, &op.Model, &modelFamilies, &registered)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Operator{}, NotFound("store: no operator %s", id)
	}
	if err != nil {
		return store.Operator{}, err
	}
	if err := errors.Join(json.Unmarshal(keyFamilies, &op.KeyFamilies), json.Unmarshal(modelFamilies, &op.ModelFamilies)); err != nil {
		return store.Operator{}, fmt.Errorf("store: operator %s: %w", id, err)
	}
	op.Name = ShownName(op.NameBase, op.NameNumber)
	op.Registered = FromNanos(registered)

	rows, err := q.QueryContext(ctx,
		`SELECT k.key, k.digest, k.entry, s.idx, COALESCE(k.retired_by, ''), r.idx, k.added, k.retired
		 FROM keys k JOIN signed s ON s.digest = k.entry LEFT JOIN signed r ON r.digest = k.retired_by
		 WHERE k.operator = ? ORDER BY k.seq`, id)
	if err != nil {
		return store.Operator{}, err
	}
	for rows.Next() {
		var k store.Key
		var since, until, retired sql.NullInt64
		var added int64
		if err := rows.Scan(&k.Key, &k.Digest, &k.Entry, &since, &k.RetiredBy, &until, &added, &retired); err != nil {
			rows.Close()
			return store.Operator{}, err
		}
		k.Since, k.Until, k.Added, k.Retired = Index(since), Index(until), FromNanos(added), FromNullNanos(retired)
		op.Keys = append(op.Keys, k)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return store.Operator{}, err
	}

	rows, err = q.QueryContext(ctx,
		`SELECT i.kind, i.organization, i.subject, i.entry, s.idx, COALESCE(i.invite, ''), i.added
		 FROM identities i JOIN signed s ON s.digest = i.entry WHERE i.operator = ?`, id)
	if err != nil {
		return store.Operator{}, err
	}
	for rows.Next() {
		i := store.Identity{Operator: id}
		var idx sql.NullInt64
		var added int64
		if err := rows.Scan(&i.Kind, &i.Organization, &i.Subject, &i.Entry, &idx, &i.Invite, &added); err != nil {
			rows.Close()
			return store.Operator{}, err
		}
		i.Index, i.Added = Index(idx), FromNanos(added)
		op.Identities = append(op.Identities, i)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return store.Operator{}, err
	}
	store.SortIdentities(op.Identities)
	return op, nil
}

// shownName is operators.ShownName; the store keeps its own copy rather
// than import the rules.
func ShownName(name string, n int) string {
	if n <= 1 {
		return name
	}
	return fmt.Sprintf("%s #%d", name, n)
}

func FromNullNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return FromNanos(n.Int64)
}

func Index(n sql.NullInt64) int64 {
	if !n.Valid {
		return store.Unlogged
	}
	return n.Int64
}

// notFound wraps store.ErrNotFound with what was missing.
func NotFound(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), store.ErrNotFound)
}
