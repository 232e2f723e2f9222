package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
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
		stored, err := sqlcommon.ScanContribution(tx.QueryRowContext(ctx, `SELECT `+sqlcommon.ContributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry WHERE c.id = ?`, c.ID))
		if err == nil {
			out, duplicate = stored, true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := check(ctx, sqlcommon.TxGraph{Tx: tx}); err != nil {
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
		if err := sqlcommon.PutSigned(ctx, tx, c.Entry, c.Signed, c.Leaf); err != nil {
			return err
		}
		f := c.Facets
		var seq int64
		err = tx.QueryRowContext(ctx, `INSERT INTO contributions
			(id, root, previous, author, kind, title, authored_at, admitted, envelope, entry, is_head,
			 text, snippet, node_type, method, verdict, vote, subject, contained_in)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
			c.ID, c.Root, sqlcommon.NullString(c.Record.Previous), c.Record.Author, c.Record.Kind, c.Record.Title,
			sqlcommon.Nanos(authored), sqlcommon.Nanos(c.Admitted), c.Envelope, c.Entry,
			f.Text, f.Snippet, sqlcommon.NullString(f.NodeType), sqlcommon.NullString(f.Method), sqlcommon.NullString(f.Verdict), f.Vote,
			sqlcommon.NullString(f.Subject), sqlcommon.NullString(f.ContainedIn)).Scan(&seq)
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

// SetLibraryScopes implements library.Store; see operatorCache.
func (s *Store) SetLibraryScopes(ctx context.Context, operator string, scopes map[string]*bool) error {
	defer s.operators.changed() // after the write committed: see operatorCache
	return s.Shared.SetLibraryScopes(ctx, operator, scopes)
}

// LibraryScopes implements library.Store, from operatorCache when it
// keeps operator's.
func (s *Store) LibraryScopes(ctx context.Context, operator string) (map[string]bool, error) {
	if scopes, ok := s.operators.getScopes(operator); ok {
		return scopes, nil
	}
	gen := s.operators.gen.Load()
	scopes, err := s.Shared.LibraryScopes(ctx, operator)
	if err == nil {
		s.operators.putScopes(gen, operator, scopes)
	}
	return scopes, err
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
