package postgres

import (
	"context"
	"fmt"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store/sqlcommon"
)

// The reads of one object (library.ObjectStore). Each listing is one
// read transaction that counts and pages the same FROM clause, so a page
// and its total agree. "Current" is is_head = 1; links are followed to a
// lineage through contribution_links.target_root, which the indexes of
// migration 3 cover, as contributions.contained_in.

// VoteTotals implements library.Store.
func (s *Store) VoteTotals(ctx context.Context, targets []string) ([]library.VoteTotal, error) {
	where := ``
	var args []any
	if targets != nil {
		if len(targets) == 0 {
			return nil, nil
		}
		for _, t := range targets {
			args = append(args, t)
		}
		where = ` AND l.target IN (` + sqlcommon.Placeholders(len(targets)) + `)`
	}
	rows, err := s.r.QueryContext(ctx, `SELECT l.target, SUM(c.vote), COUNT(*) FILTER (WHERE c.vote > 0), COUNT(*) FILTER (WHERE c.vote < 0)
		FROM contribution_links l JOIN contributions c ON c.seq = l.source
		WHERE l.relation = 'votes_on' AND c.kind = 'vote' AND c.is_head = 1`+where+`
		GROUP BY l.target ORDER BY l.target`, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: vote totals: %w", err)
	}
	defer rows.Close()
	var out []library.VoteTotal
	for rows.Next() {
		var t library.VoteTotal
		if err := rows.Scan(&t.Target, &t.Score, &t.Up, &t.Down); err != nil {
			return nil, fmt.Errorf("postgres: vote totals: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: vote totals: %w", err)
	}
	return out, nil
}
