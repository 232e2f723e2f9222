package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// AddContribution implements library.Store.
func (s *Store) AddContribution(ctx context.Context, c library.NewContribution, check func(context.Context, library.Graph) error) (library.Contribution, error) {
	if c.Record == nil || c.ID == "" || c.Entry == "" || len(c.Signed) == 0 || len(c.Envelope) == 0 {
		return library.Contribution{}, fmt.Errorf("sqlite: add contribution: incomplete: %w", store.ErrInvalid)
	}
	authored, err := c.Record.Time()
	if err != nil {
		return library.Contribution{}, fmt.Errorf("sqlite: add contribution %s: %w: %w", c.ID, store.ErrInvalid, err)
	}
	var out library.Contribution
	var duplicate bool
	err = s.write(ctx, func(tx *sql.Tx) error {
		stored, err := scanContribution(tx.QueryRowContext(ctx, `SELECT `+contributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry WHERE c.id = ?`, c.ID))
		if err == nil {
			out, duplicate = stored, true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := check(ctx, txGraph{tx}); err != nil {
			return err
		}
		c.Root = c.ID
		if c.Record.Previous != "" {
			// The root is the previous revision's, read in this
			// transaction: the check just found previous stored.
			if err := tx.QueryRowContext(ctx, `SELECT root FROM contributions WHERE id = ?`, c.Record.Previous).Scan(&c.Root); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return fmt.Errorf("sqlite: contribution %s revises %s, which is not stored: %w", c.ID, c.Record.Previous, store.ErrConflict)
				}
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE contributions SET is_head = 0 WHERE id = ? AND is_head = 1`, c.Record.Previous)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("sqlite: contribution %s revises %s, which is not the head of %s: %w", c.ID, c.Record.Previous, c.Root, store.ErrConflict)
			}
		}
		if err := putSigned(ctx, tx, c.Entry, c.Signed, c.Leaf); err != nil {
			return err
		}
		f := c.Facets
		var seq int64
		err = tx.QueryRowContext(ctx, `INSERT INTO contributions
			(id, root, previous, author, kind, title, authored_at, admitted, envelope, entry, is_head,
			 text, snippet, node_type, method, verdict, vote, subject, contained_in)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
			c.ID, c.Root, nullString(c.Record.Previous), c.Record.Author, c.Record.Kind, c.Record.Title,
			nanos(authored), nanos(c.Admitted), c.Envelope, c.Entry,
			f.Text, f.Snippet, nullString(f.NodeType), nullString(f.Method), nullString(f.Verdict), f.Vote,
			nullString(f.Subject), nullString(f.ContainedIn)).Scan(&seq)
		if err != nil {
			return err
		}
		if err := catalogueTerms(ctx, tx, seq, c.Record.Kind, c.Record.Title, f.Text); err != nil {
			return err
		}
		for i, l := range c.Record.Links {
			var targetRoot string
			if err := tx.QueryRowContext(ctx, `SELECT root FROM contributions WHERE id = ?`, l.Target).Scan(&targetRoot); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return fmt.Errorf("sqlite: contribution %s links to %s, which is not stored: %w", c.ID, l.Target, store.ErrConflict)
				}
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO contribution_links (source, position, relation, target, target_root) VALUES (?, ?, ?, ?, ?)`,
				seq, i, l.Relation, l.Target, targetRoot); err != nil {
				return err
			}
		}
		if c.Record.Kind == "vote" && c.Record.Previous == "" && len(c.Record.Links) == 1 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO library_votes (author, target, vote) VALUES (?, ?, ?)`,
				c.Record.Author, c.Record.Links[0].Target, c.ID); err != nil {
				return err
			}
		}
		out = library.Contribution{NewContribution: c, Seq: seq, Index: store.Unlogged, Head: true}
		return nil
	})
	if err != nil {
		return library.Contribution{}, err
	}
	if duplicate {
		return out, fmt.Errorf("sqlite: contribution %s: %w", c.ID, store.ErrDuplicate)
	}
	return out, nil
}

// Contribution implements library.Store.
func (s *Store) Contribution(ctx context.Context, id string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.id = ?`, id)
}

// ContributionHead implements library.Store.
func (s *Store) ContributionHead(ctx context.Context, root string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.root = ? AND c.is_head = 1`, root)
}

// ContributionByEntry implements library.Store.
func (s *Store) ContributionByEntry(ctx context.Context, digest string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.entry = ?`, digest)
}

func (s *Store) contributionWhere(ctx context.Context, where string, arg any) (library.Contribution, error) {
	c, err := scanContribution(s.r.QueryRowContext(ctx, `SELECT `+contributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return library.Contribution{}, notFound("sqlite: no contribution where %s (%v)", where, arg)
	}
	if err != nil {
		return library.Contribution{}, err
	}
	return c, nil
}

// contributionColumns are what scanContribution reads, from contributions c
// joined with signed s on the entry.
const contributionColumns = `c.seq, c.id, c.root, c.envelope, c.admitted, c.entry, s.entry, s.leaf, s.idx, c.is_head,
	c.text, c.snippet, c.node_type, c.method, c.verdict, c.vote, c.subject, c.contained_in`

// scanContribution reads a contribution, its record parsed back from the
// envelope the node kept.
func scanContribution(row interface{ Scan(...any) error }) (library.Contribution, error) {
	var c library.Contribution
	var admitted int64
	var idx sql.NullInt64
	var nodeType, method, verdict, subject, contained sql.NullString
	if err := row.Scan(&c.Seq, &c.ID, &c.Root, &c.Envelope, &admitted, &c.Entry, &c.Signed, &c.Leaf, &idx, &c.Head,
		&c.Facets.Text, &c.Facets.Snippet, &nodeType, &method, &verdict, &c.Facets.Vote, &subject, &contained); err != nil {
		return library.Contribution{}, err
	}
	c.Admitted, c.Index = fromNanos(admitted), index(idx)
	c.Facets.NodeType, c.Facets.Method, c.Facets.Verdict = nodeType.String, method.String, verdict.String
	c.Facets.Subject, c.Facets.ContainedIn = subject.String, contained.String
	env, err := library.ParseEnvelope(c.Envelope)
	if err != nil {
		return library.Contribution{}, fmt.Errorf("sqlite: contribution %s as kept: %w", c.ID, err)
	}
	c.Record = env.Record
	return c, nil
}

// txGraph is the library.Graph AddContribution's check reads: the write
// transaction, so it sees what the transaction (and the batch it commits
// with) stored before it.
type txGraph struct{ tx *sql.Tx }

// Revision implements library.Graph.
func (g txGraph) Revision(ctx context.Context, id string) (*library.Stored, error) {
	var root string
	var envelope []byte
	err := g.tx.QueryRowContext(ctx, `SELECT root, envelope FROM contributions WHERE id = ?`, id).Scan(&root, &envelope)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("sqlite: no revision %s", id)
	}
	if err != nil {
		return nil, err
	}
	env, err := library.ParseEnvelope(envelope)
	if err != nil {
		return nil, fmt.Errorf("sqlite: revision %s as kept: %w", id, err)
	}
	return &library.Stored{ID: id, Root: root, Record: env.Record}, nil
}

// Head implements library.Graph.
func (g txGraph) Head(ctx context.Context, root string) (string, error) {
	var id string
	err := g.tx.QueryRowContext(ctx, `SELECT id FROM contributions WHERE root = ? AND is_head = 1`, root).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("sqlite: no lineage %s", root)
	}
	return id, err
}

// VoteBy implements library.Graph.
func (g txGraph) VoteBy(ctx context.Context, author, target string) (string, error) {
	var id string
	err := g.tx.QueryRowContext(ctx, `SELECT vote FROM library_votes WHERE author = ? AND target = ?`, author, target).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("sqlite: no vote by %s on %s", author, target)
	}
	return id, err
}

// dropContributionRecords refuses to drop the entry of a contribution: a
// contribution is visible from the moment it is stored, so later ones may
// rest on it, and recovery appends its entry instead.
func dropContributionRecords(ctx context.Context, tx *sql.Tx, digest string) error {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM contributions WHERE entry = ?`, digest).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("sqlite: entry %s logs contribution %s, which stays: append it: %w", digest, id, store.ErrConflict)
}

// scopesMigration keeps the library scopes an admin granted or denied an
// operator, beside the default every operator with an identity has.
const scopesMigration = `
CREATE TABLE library_scopes (
	operator TEXT NOT NULL,
	scope    TEXT NOT NULL,
	granted  INTEGER NOT NULL,
	PRIMARY KEY (operator, scope)
) WITHOUT ROWID;
`

// SetLibraryScopes implements library.Store.
func (s *Store) SetLibraryScopes(ctx context.Context, operator string, scopes map[string]*bool) error {
	if operator == "" {
		return fmt.Errorf("sqlite: set library scopes: no operator: %w", store.ErrInvalid)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		for scope, granted := range scopes {
			var err error
			if granted == nil {
				_, err = tx.ExecContext(ctx, `DELETE FROM library_scopes WHERE operator = ? AND scope = ?`, operator, scope)
			} else {
				_, err = tx.ExecContext(ctx, `INSERT INTO library_scopes (operator, scope, granted) VALUES (?, ?, ?)
					ON CONFLICT (operator, scope) DO UPDATE SET granted = excluded.granted`, operator, scope, *granted)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// LibraryScopes implements library.Store.
func (s *Store) LibraryScopes(ctx context.Context, operator string) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT scope, granted FROM library_scopes WHERE operator = ?`, operator)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var scope string
		var granted bool
		if err := rows.Scan(&scope, &granted); err != nil {
			return nil, err
		}
		out[scope] = granted
	}
	return out, rows.Err()
}
