package sqlcommon

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

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

// Contribution implements library.Store.
func (s *Shared) Contribution(ctx context.Context, id string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.id = ?`, id)
}

// ContributionHead implements library.Store.
func (s *Shared) ContributionHead(ctx context.Context, root string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.root = ? AND c.is_head = 1`, root)
}

// ContributionByEntry implements library.Store.
func (s *Shared) ContributionByEntry(ctx context.Context, digest string) (library.Contribution, error) {
	return s.contributionWhere(ctx, `c.entry = ?`, digest)
}

func (s *Shared) contributionWhere(ctx context.Context, where string, arg any) (library.Contribution, error) {
	c, err := ScanContribution(s.R.QueryRowContext(ctx, `SELECT `+ContributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return library.Contribution{}, NotFound("store: no contribution where %s (%v)", where, arg)
	}
	if err != nil {
		return library.Contribution{}, err
	}
	return c, nil
}

// SetLibraryScopes implements library.Store.
func (s *Shared) SetLibraryScopes(ctx context.Context, operator string, scopes map[string]*bool) error {
	if operator == "" {
		return fmt.Errorf("store: set library scopes: no operator: %w", store.ErrInvalid)
	}
	return s.Write(ctx, func(tx Querier) error {
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
func (s *Shared) LibraryScopes(ctx context.Context, operator string) (map[string]bool, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT scope, granted FROM library_scopes WHERE operator = ?`, operator)
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

// ReviewsOf implements library.BundleReads. The subject column is the
// facet library.FacetsOf gives evidence, assessments and proposals, so the
// kinds leave proposals out; contributions_subject serves the read.
func (s *Shared) ReviewsOf(ctx context.Context, revision string) ([]string, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT id FROM contributions
		WHERE subject = ? AND kind IN ('evidence', 'assessment', 'research-evidence', 'research-assessment')
		ORDER BY seq`, revision)
	if err != nil {
		return nil, fmt.Errorf("store: reviews of %s: %w", revision, err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: reviews of %s: %w", revision, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: reviews of %s: %w", revision, err)
	}
	return ids, nil
}

// Contributions implements library.Store.
func (s *Shared) Contributions(ctx context.Context, ids []string) ([]library.Contribution, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	byID := make(map[string]library.Contribution, len(ids))
	err := s.Read(ctx, func(tx Querier) error {
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+ContributionColumns+ContributionFrom+`WHERE c.id IN (`+Placeholders(len(ids))+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := ScanContribution(rows)
			if err != nil {
				return err
			}
			byID[c.ID] = c
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: contributions: %w", err)
	}
	out := make([]library.Contribution, len(ids))
	for i, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, NotFound("store: no contribution %s", id)
		}
		out[i] = c
	}
	return out, nil
}

// Revisions implements library.Store.
func (s *Shared) Revisions(ctx context.Context, root string, offset, limit int) (library.ContributionPage, error) {
	return s.contributionPage(ctx, "", `WHERE c.root = ?1`, `c.seq`, offset, limit, root)
}

// Incoming implements library.Store.
func (s *Shared) Incoming(ctx context.Context, root string, offset, limit int) (library.BacklinkPage, error) {
	const from = ` FROM contribution_links l JOIN contributions c ON c.seq = l.source
		WHERE l.target_root = ?1 AND c.is_head = 1 AND c.root <> ?1 AND c.kind <> 'vote'`
	var p library.BacklinkPage
	err := s.Read(ctx, func(tx Querier) error {
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
		return library.BacklinkPage{}, fmt.Errorf("store: links to %s: %w", root, err)
	}
	return p, nil
}

// Discussion implements library.Store.
func (s *Shared) Discussion(ctx context.Context, root string, sort library.DiscussionSort, offset, limit int) (library.ContributionPage, error) {
	var order string
	switch sort {
	case library.SortNew:
		order = `r.seq DESC`
	case library.SortOld:
		order = `r.seq`
	case library.SortTop:
		order = VoteScore + ` DESC, r.seq DESC`
	default:
		return library.ContributionPage{}, fmt.Errorf("store: discussion sort %q: %w", sort, store.ErrInvalid)
	}
	return s.contributionPage(ctx, s.Dialect.discussionUnder(),
		// IN, not a join with under: the join is planned as a scan of
		// every head.
		`JOIN contributions r ON r.id = c.root WHERE c.root IN (SELECT root FROM under) AND c.is_head = 1 AND c.root <> ?1`,
		order, offset, limit, root)
}

// Section implements library.Store.
func (s *Shared) Section(ctx context.Context, q library.SectionQuery) (library.ContributionPage, error) {
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
		cond = s.Dialect.sectionGraph()
	case library.SectionDiscussions:
		cond = sectionDiscussions
	case library.SectionKnowledge:
		cond = sectionKnowledge
	default:
		return library.ContributionPage{}, fmt.Errorf("store: object section %q: %w", q.Section, store.ErrInvalid)
	}
	// ?2 is bound by every query, used or not, and "AND ?2 = ?2" keeps
	// the driver from seeing an argument the text never names.
	return s.contributionPage(ctx, "", `WHERE (`+cond+`) AND ?2 = ?2`, `c.seq DESC`, q.Offset, q.Limit, q.Root, q.Item)
}

// contributionPage counts and pages the contributions of one listing in
// one read transaction: with is a WITH clause or "", where the rest of
// the FROM clause after ContributionFrom, order its ORDER BY. args are
// bound as ?1, ?2, ...; the limit and offset follow them.
func (s *Shared) contributionPage(ctx context.Context, with, where, order string, offset, limit int, args ...any) (library.ContributionPage, error) {
	var p library.ContributionPage
	err := s.Read(ctx, func(tx Querier) error {
		if err := tx.QueryRowContext(ctx, with+`SELECT COUNT(*)`+ContributionFrom+where, args...).Scan(&p.Total); err != nil {
			return err
		}
		if limit <= 0 || offset >= p.Total {
			return nil
		}
		n := len(args)
		rows, err := tx.QueryContext(ctx, with+`SELECT `+ContributionColumns+ContributionFrom+where+
			fmt.Sprintf(` ORDER BY %s LIMIT ?%d OFFSET ?%d`, order, n+1, n+2), append(args, limit, offset)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := ScanContribution(rows)
			if err != nil {
				return err
			}
			p.Items = append(p.Items, c)
		}
		return rows.Err()
	})
	if err != nil {
		return library.ContributionPage{}, fmt.Errorf("store: library listing: %w", err)
	}
	return p, nil
}

// VotesBy implements library.Store.
func (s *Shared) VotesBy(ctx context.Context, author string) ([]library.Vote, error) {
	rows, err := s.R.QueryContext(ctx, `SELECT v.target, v.vote, h.id, h.vote
		FROM library_votes v JOIN contributions h ON h.root = v.vote AND h.is_head = 1
		WHERE v.author = ? ORDER BY v.target`, author)
	if err != nil {
		return nil, fmt.Errorf("store: votes by %s: %w", author, err)
	}
	defer rows.Close()
	var out []library.Vote
	for rows.Next() {
		var v library.Vote
		if err := rows.Scan(&v.Target, &v.Root, &v.ID, &v.Value); err != nil {
			return nil, fmt.Errorf("store: votes by %s: %w", author, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: votes by %s: %w", author, err)
	}
	return out, nil
}

// CurrentPersonalState implements library.Store.
func (s *Shared) CurrentPersonalState(ctx context.Context, author string) (library.PersonalState, error) {
	st, err := ScanPersonalState(s.R.QueryRowContext(ctx, `SELECT `+PersonalColumns+` FROM personal_states WHERE author = ? AND is_current = 1`, author))
	if errors.Is(err, sql.ErrNoRows) {
		return library.PersonalState{}, NotFound("store: %s has no personal state", author)
	}
	return st, err
}

// ContributionFrom is the FROM every listing of contributions starts with,
// joined as contributionColumns expects.
const ContributionFrom = ` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry `

// discussionUnder is the set of lineages under ?1 (itself included), as
// Discussion defines it: UNION, not UNION ALL, so each lineage is reached
// once however many paths lead to it.
func (d Dialect) discussionUnder() string {
	return `WITH RECURSIVE under(root) AS (
	SELECT ` + d.Text("?1") + `
	UNION
	SELECT c.root FROM under u
	JOIN contribution_links l ON l.target_root = u.root AND l.relation IN ('replies_to', 'answers', 'branches_from', 'about', 'contained_in')
	JOIN contributions c ON c.seq = l.source AND c.is_head = 1 AND c.kind IN ('reply', 'thread', 'discussion')
) `
}

// VoteScore is the sum of the current votes on the root of c's lineage.
const VoteScore = `(SELECT COALESCE(SUM(v.vote), 0) FROM contribution_links vl JOIN contributions v ON v.seq = vl.source
	WHERE vl.target = c.root AND vl.relation = 'votes_on' AND v.is_head = 1 AND v.kind = 'vote')`

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
)

// sectionGraph: the graph's relationships touch the object, a direct
// child or anything included, each taken as its lineage.
func (d Dialect) sectionGraph() string {
	return `(c.is_head = 1 AND c.kind = 'relationship' AND c.seq IN (
		SELECT gl.source FROM contribution_links gl WHERE gl.relation IN ('relates_from', 'relates_to') AND gl.target_root IN (
			SELECT ` + d.Text("?1") + `
			UNION SELECT root FROM contributions WHERE contained_in = ?1
			UNION SELECT t.root FROM contributions t WHERE t.id IN (` + sectionIncluded + `))))`
}

// Activity implements library.Store.
func (s *Shared) Activity(ctx context.Context, q library.ActivityQuery) (library.ContributionPage, error) {
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
			return s.contributionPage(ctx, "", `WHERE 1 = 0`, `c.seq`, q.Offset, q.Limit)
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
