package sqlcommon

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// ContributionColumns are what scanContribution reads, from contributions c
// joined with signed s on the entry.
const ContributionColumns = `c.seq, c.id, c.root, c.envelope, c.admitted, c.entry, s.entry, s.leaf, s.idx, c.is_head,
	c.text, c.snippet, c.node_type, c.method, c.verdict, c.vote, c.subject, c.contained_in`

// ScanContribution reads a contribution, its record parsed back from the
// envelope the node kept.
func ScanContribution(row interface{ Scan(...any) error }) (library.Contribution, error) {
	var c library.Contribution
	var admitted int64
	var idx sql.NullInt64
	var nodeType, method, verdict, subject, contained sql.NullString
	if err := row.Scan(&c.Seq, &c.ID, &c.Root, &c.Envelope, &admitted, &c.Entry, &c.Signed, &c.Leaf, &idx, &c.Head,
		&c.Facets.Text, &c.Facets.Snippet, &nodeType, &method, &verdict, &c.Facets.Vote, &subject, &contained); err != nil {
		return library.Contribution{}, err
	}
	c.Admitted, c.Index = FromNanos(admitted), Index(idx)
	c.Facets.NodeType, c.Facets.Method, c.Facets.Verdict = nodeType.String, method.String, verdict.String
	c.Facets.Subject, c.Facets.ContainedIn = subject.String, contained.String
	env, err := library.ParseEnvelope(c.Envelope)
	if err != nil {
		return library.Contribution{}, fmt.Errorf("store: contribution %s as kept: %w", c.ID, err)
	}
	c.Record = env.Record
	return c, nil
}

// TxGraph is the library.Graph AddContribution's check reads: the write
// transaction, so it sees what the transaction (and the batch it commits
// with) stored before it.
type TxGraph struct{ Tx Reader }

// Revision implements library.Graph.
func (g TxGraph) Revision(ctx context.Context, id string) (*library.Stored, error) {
	var root string
	var envelope []byte
	err := g.Tx.QueryRowContext(ctx, `SELECT root, envelope FROM contributions WHERE id = ?`, id).Scan(&root, &envelope)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("store: no revision %s", id)
	}
	if err != nil {
		return nil, err
	}
	env, err := library.ParseEnvelope(envelope)
	if err != nil {
		return nil, fmt.Errorf("store: revision %s as kept: %w", id, err)
	}
	return &library.Stored{ID: id, Root: root, Record: env.Record}, nil
}

// Head implements library.Graph.
func (g TxGraph) Head(ctx context.Context, root string) (string, error) {
	var id string
	err := g.Tx.QueryRowContext(ctx, `SELECT id FROM contributions WHERE root = ? AND is_head = 1`, root).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", NotFound("store: no lineage %s", root)
	}
	return id, err
}

// VoteBy implements library.Graph.
func (g TxGraph) VoteBy(ctx context.Context, author, target string) (string, error) {
	var id string
	err := g.Tx.QueryRowContext(ctx, `SELECT vote FROM library_votes WHERE author = ? AND target = ?`, author, target).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", NotFound("store: no vote by %s on %s", author, target)
	}
	return id, err
}

// DropContributionRecords refuses to drop the entry of a contribution: a
// contribution is visible from the moment it is stored, so later ones may
// rest on it, and recovery appends its entry instead.
func DropContributionRecords(ctx context.Context, tx Querier, digest string) error {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM contributions WHERE entry = ?`, digest).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("store: entry %s logs contribution %s, which stays: append it: %w", digest, id, store.ErrConflict)
}

// ChangesNewest is the newest revision the feed holds: the last before
// the first whose entry is not yet bound, or the last stored.
func ChangesNewest(ctx context.Context, tx Querier) (int64, error) {
	var newest int64
	err := tx.QueryRowContext(ctx, `SELECT coalesce(
		(SELECT min(c.seq) - 1 FROM signed s JOIN contributions c ON c.entry = s.digest WHERE s.idx IS NULL),
		(SELECT max(seq) FROM contributions), 0)`).Scan(&newest)
	return newest, err
}

func QueryStrings(ctx context.Context, tx Querier, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

const PersonalColumns = `id, envelope, stored`

// ScanPersonalState reads a state, its record parsed back from the
// envelope the node kept.
func ScanPersonalState(row interface{ Scan(...any) error }) (library.PersonalState, error) {
	var st library.PersonalState
	var stored int64
	if err := row.Scan(&st.ID, &st.Envelope, &stored); err != nil {
		return library.PersonalState{}, err
	}
	st.Stored = FromNanos(stored)
	env, err := library.ParseEnvelope(st.Envelope)
	if err != nil {
		return library.PersonalState{}, fmt.Errorf("store: personal state %s as kept: %w", st.ID, err)
	}
	st.Record = env.Record
	return st, nil
}
