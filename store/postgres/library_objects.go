package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store"
)

// The reads of one object (library.ObjectStore). Each listing is one
// read transaction that counts and pages the same FROM clause, so a page
// and its total agree. "Current" is is_head = 1; links are followed to a
// lineage through contribution_links.target_root, which the indexes of
// migration 3 cover, as contributions.contained_in.

// contributionFrom is the FROM every listing of contributions starts with,
// joined as contributionColumns expects.
const contributionFrom = ` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry `

// Contributions implements library.Store.
func (s *Store) Contributions(ctx context.Context, ids []string) ([]library.Contribution, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	byID := make(map[string]library.Contribution, len(ids))
	err := s.read(ctx, func(tx *txn) error {
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+contributionColumns+contributionFrom+`WHERE c.id IN (`+placeholders(len(ids))+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanContribution(rows)
			if err != nil {
				return err
			}
			byID[c.ID] = c
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: contributions: %w", err)
	}
	out := make([]library.Contribution, len(ids))
	for i, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, notFound("postgres: no contribution %s", id)
		}
		out[i] = c
	}
	return out, nil
}

// Revisions implements library.Store.
func (s *Store) Revisions(ctx context.Context, root string, offset, limit int) (library.ContributionPage, error) {
	return s.contributionPage(ctx, "", `WHERE c.root = ?1`, `c.seq`, offset, limit, root)
}

// Incoming implements library.Store.
func (s *Store) Incoming(ctx context.Context, root string, offset, limit int) (library.BacklinkPage, error) {
	const from = ` FROM contribution_links l JOIN contributions c ON c.seq = l.source
		WHERE l.target_root = ?1 AND c.is_head = 1 AND c.root <> ?1 AND c.kind <> 'vote'`
	var p library.BacklinkPage
	err := s.read(ctx, func(tx *txn) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*)`+from, root).Scan(&p.Total); err != nil {
			return err
		}
		if limit <= 0 || offset >= p.Total {
			return nil
		}
		rows, err := tx.QueryContext(ctx, `SELECT c.id, c.kind, c.title, l.relation, l.target`+from+
			` ORDER BY c.seq DESC, l.position LIMIT ?2 OFFSET ?3`, root, limit, offset)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b library.Backlink
			if err := rows.Scan(&b.Source, &b.SourceKind, &b.SourceTitle, &b.Relation, &b.Target); err != nil {
				return err
			}
			p.Items = append(p.Items, b)
		}
		return rows.Err()
	})
	if err != nil {
		return library.BacklinkPage{}, fmt.Errorf("postgres: links to %s: %w", root, err)
	}
	return p, nil
}

// discussionUnder is the set of lineages under ?1 (itself included), as
// Discussion defines it: UNION, not UNION ALL, so each lineage is reached
// once however many paths lead to it.
const discussionUnder = `WITH RECURSIVE under(root) AS (
	SELECT ?1::text COLLATE "C"
	UNION
	SELECT c.root FROM under u
	JOIN contribution_links l ON l.target_root = u.root AND l.relation IN ('replies_to', 'answers', 'branches_from', 'about', 'contained_in')
	JOIN contributions c ON c.seq = l.source AND c.is_head = 1 AND c.kind IN ('reply', 'thread', 'discussion')
) `

// voteScore is the sum of the current votes on the root of c's lineage.
const voteScore = `(SELECT COALESCE(SUM(v.vote), 0) FROM contribution_links vl JOIN contributions v ON v.seq = vl.source
	WHERE vl.target = c.root AND vl.relation = 'votes_on' AND v.is_head = 1 AND v.kind = 'vote')`

// Discussion implements library.Store.
func (s *Store) Discussion(ctx context.Context, root string, sort library.DiscussionSort, offset, limit int) (library.ContributionPage, error) {
	var order string
	switch sort {
	case library.SortNew:
		order = `r.seq DESC`
	case library.SortOld:
		order = `r.seq`
	case library.SortTop:
		order = voteScore + ` DESC, r.seq DESC`
	default:
		return library.ContributionPage{}, fmt.Errorf("postgres: discussion sort %q: %w", sort, store.ErrInvalid)
	}
	return s.contributionPage(ctx, discussionUnder,
		// IN, not a join with under: the join is planned as a scan of
		// every head.
		`JOIN contributions r ON r.id = c.root WHERE c.root IN (SELECT root FROM under) AND c.is_head = 1 AND c.root <> ?1`,
		order, offset, limit, root)
}

// Activity implements library.Store.
func (s *Store) Activity(ctx context.Context, q library.ActivityQuery) (library.ContributionPage, error) {
	// The links, not the subject facet: an exact link to the subject is
	// what the rules guarantee every evidence, assessment and proposal
	// carries (exact_links).
	where := `WHERE c.seq IN (SELECT source FROM contribution_links WHERE target = ?1 AND relation IN ('evidence_for', 'assesses', 'proposes_for'))`
	if q.Lineage {
		where = `WHERE c.seq IN (SELECT source FROM contribution_links WHERE target_root = ?1 AND relation IN ('evidence_for', 'assesses', 'proposes_for'))`
	}
	args := []any{q.Subject}
	if q.Kinds != nil {
		if len(q.Kinds) == 0 {
			return s.contributionPage(ctx, "", `WHERE FALSE`, `c.seq`, q.Offset, q.Limit)
		}
		marks := make([]string, len(q.Kinds))
		for i, k := range q.Kinds {
			args = append(args, k)
			marks[i] = fmt.Sprintf("?%d", len(args))
		}
		where += ` AND c.kind IN (` + strings.Join(marks, ", ") + `)`
	}
	if q.Challenges {
		where += ` AND ((c.kind IN ('evidence', 'research-evidence') AND c.method = 'counterexample')
			OR (c.kind IN ('assessment', 'research-assessment') AND c.verdict IN ('disputed', 'refuted')))`
	}
	return s.contributionPage(ctx, "", where, `c.seq DESC`, q.Offset, q.Limit, args...)
}

// The sections' conditions on a contribution c, with ?1 the object's root
// and ?2 the revision shown. Each is one SQL boolean, so "all" is their
// OR and lists a revision once.
const (
	sectionChildren = `(c.contained_in = ?1 AND c.is_head = 1)`

	sectionRelated = `(c.is_head = 1 AND c.kind = 'relationship' AND c.seq IN (
		SELECT source FROM contribution_links WHERE target_root = ?1 AND relation IN ('relates_from', 'relates_to')))`

	sectionDiscussions = `(c.is_head = 1 AND c.kind IN ('discussion', 'thread') AND c.root <> ?1 AND c.seq IN (
		SELECT source FROM contribution_links WHERE target_root = ?1 AND relation IN ('about', 'contained_in', 'branches_from')))`

	sectionIncluded = `SELECT il.target FROM contribution_links il JOIN contributions i ON i.seq = il.source
		WHERE i.id = ?2 AND il.relation = 'includes'`

	sectionKnowledge = `((c.contained_in = ?1 AND c.is_head = 1 AND c.kind IN ('claim', 'document')) OR c.id IN (` + sectionIncluded + `))`

	// The graph's relationships touch the object, a direct child or
	// anything included, each taken as its lineage.
	sectionGraph = `(c.is_head = 1 AND c.kind = 'relationship' AND c.seq IN (
		SELECT gl.source FROM contribution_links gl WHERE gl.relation IN ('relates_from', 'relates_to') AND gl.target_root IN (
			SELECT ?1::text COLLATE "C"
			UNION SELECT root FROM contributions WHERE contained_in = ?1
			UNION SELECT t.root FROM contributions t WHERE t.id IN (` + sectionIncluded + `))))`
)

// Section implements library.Store.
func (s *Store) Section(ctx context.Context, q library.SectionQuery) (library.ContributionPage, error) {
	var cond string
	switch q.Section {
	case library.SectionHistory:
		return s.Revisions(ctx, q.Root, q.Offset, q.Limit)
	case library.SectionAll:
		cond = strings.Join([]string{sectionChildren, sectionRelated, sectionDiscussions, sectionKnowledge}, " OR ")
	case library.SectionChildren:
		cond = sectionChildren
	case library.SectionRelated:
		cond = sectionRelated
	case library.SectionGraph:
		cond = sectionGraph
	case library.SectionDiscussions:
		cond = sectionDiscussions
	case library.SectionKnowledge:
		cond = sectionKnowledge
	default:
		return library.ContributionPage{}, fmt.Errorf("postgres: object section %q: %w", q.Section, store.ErrInvalid)
	}
	// ?2 is bound by every query, used or not, and "AND ?2 = ?2" keeps
	// the driver from seeing an argument the text never names.
	return s.contributionPage(ctx, "", `WHERE (`+cond+`) AND ?2 = ?2`, `c.seq DESC`, q.Offset, q.Limit, q.Root, q.Item)
}

// contributionPage counts and pages the contributions of one listing in
// one read transaction: with is a WITH clause or "", where the rest of
// the FROM clause after contributionFrom, order its ORDER BY. args are
// bound as ?1, ?2, ...; the limit and offset follow them.
func (s *Store) contributionPage(ctx context.Context, with, where, order string, offset, limit int, args ...any) (library.ContributionPage, error) {
	var p library.ContributionPage
	err := s.read(ctx, func(tx *txn) error {
		if err := tx.QueryRowContext(ctx, with+`SELECT COUNT(*)`+contributionFrom+where, args...).Scan(&p.Total); err != nil {
			return err
		}
		if limit <= 0 || offset >= p.Total {
			return nil
		}
		n := len(args)
		rows, err := tx.QueryContext(ctx, with+`SELECT `+contributionColumns+contributionFrom+where+
			fmt.Sprintf(` ORDER BY %s LIMIT ?%d OFFSET ?%d`, order, n+1, n+2), append(args, limit, offset)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanContribution(rows)
			if err != nil {
				return err
			}
			p.Items = append(p.Items, c)
		}
		return rows.Err()
	})
	if err != nil {
		return library.ContributionPage{}, fmt.Errorf("postgres: library listing: %w", err)
	}
	return p, nil
}

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
		where = ` AND l.target IN (` + placeholders(len(targets)) + `)`
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

// VotesBy implements library.Store.
func (s *Store) VotesBy(ctx context.Context, author string) ([]library.Vote, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT v.target, v.vote, h.id, h.vote
		FROM library_votes v JOIN contributions h ON h.root = v.vote AND h.is_head = 1
		WHERE v.author = ? ORDER BY v.target`, author)
	if err != nil {
		return nil, fmt.Errorf("postgres: votes by %s: %w", author, err)
	}
	defer rows.Close()
	var out []library.Vote
	for rows.Next() {
		var v library.Vote
		if err := rows.Scan(&v.Target, &v.Root, &v.ID, &v.Value); err != nil {
			return nil, fmt.Errorf("postgres: votes by %s: %w", author, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: votes by %s: %w", author, err)
	}
	return out, nil
}
