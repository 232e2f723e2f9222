package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agora-node/agora/internal/search"
	"slices"
	"strings"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store/sqlcommon"
)

// The catalogue and the changes feed.
//
// The catalogue reads three tables kept as contributions are stored:
// catalogue_heads, one narrow row per lineage head, to filter and sort
// without reading envelopes; catalogue_votes, each voted root's vote sum;
// and catalogue_terms, an inverted index of every head's words with their
// relevance weight (3 × title count + body count), so a search reads the
// postings of its rarest word and probes the others'. store/sqlite keeps
// them by triggers calling a Go function; here AddContribution keeps them
// itself, in its transaction, with the same words (library.SearchWords)
// and weights, so both drivers rank a search the same.

// wordWeight is one distinct word of a contribution with its weight.
type wordWeight struct {
	word   string
	weight int
}

// catalogueWords returns each distinct word of title and text with its
// weight, 3 × its count in title + its count in text, ordered by word.
func catalogueWords(title, text string) []wordWeight {
	weights := map[string]int{}
	for i, t := range []string{title, text} {
		for _, w := range library.SearchWords(t) {
			weights[w] += 3 - 2*i
		}
	}
	out := make([]wordWeight, 0, len(weights))
	for w, n := range weights {
		out = append(out, wordWeight{w, n})
	}
	slices.SortFunc(out, func(a, b wordWeight) int { return strings.Compare(a.word, b.word) })
	return out
}

// catalogueHeadStored adds the head just stored at seq to the catalogue:
// its row, with its root's vote sum, and its words unless it is a vote.
func catalogueHeadStored(ctx context.Context, tx *txn, seq int64, c library.NewContribution) error {
	f := c.Facets
	if _, err := tx.ExecContext(ctx, `INSERT INTO catalogue_heads (seq, root, kind, author, node_type, method, verdict, votes)
		VALUES (?, ?, ?, ?, ?, ?, ?, coalesce((SELECT votes FROM catalogue_votes WHERE root = ?2), 0))`,
		seq, c.Root, c.Record.Kind, c.Record.Author, sqlcommon.NullString(f.NodeType), sqlcommon.NullString(f.Method), sqlcommon.NullString(f.Verdict)); err != nil {
		return err
	}
	if c.Record.Kind == "vote" {
		return nil
	}
	words := catalogueWords(c.Record.Title, f.Text)
	if len(words) == 0 {
		return nil
	}
	terms, weights := make([]string, len(words)), make([]int, len(words))
	for i, w := range words {
		terms[i], weights[i] = w.word, w.weight
	}
	t := jsonArray(terms)
	w := jsonArray(weights)
	_, err := tx.ExecContext(ctx, `INSERT INTO catalogue_terms (term, seq, weight)
		SELECT t.term, ?::bigint, t.weight FROM unnest(ARRAY(SELECT json_array_elements_text(?::json)), ARRAY(SELECT json_array_elements_text(?::json)::bigint)) AS t (term, weight)`,
		seq, t, w)
	return err
}

// catalogueHeadReplaced takes the head at seq, revised, out of the
// catalogue. Its terms are found by its words again, which catalogueWords
// gives deterministically, rather than by a second index every term would
// cost.
func catalogueHeadReplaced(ctx context.Context, tx *txn, id string) error {
	var seq int64
	var kind, title, text string
	if err := tx.QueryRowContext(ctx, `SELECT seq, kind, title, text FROM contributions WHERE id = ?`, id).Scan(&seq, &kind, &title, &text); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM catalogue_heads WHERE seq = ?`, seq); err != nil {
		return err
	}
	if kind == "vote" {
		return nil
	}
	words := catalogueWords(title, text)
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = w.word
	}
	t := jsonArray(terms)
	_, err := tx.ExecContext(ctx, `DELETE FROM catalogue_terms WHERE seq = ? AND term IN (SELECT json_array_elements_text(?::json))`, seq, t)
	return err
}

// catalogueVoteStored moves the vote sum of targetRoot by the change of
// the vote just stored at seq (its value less its previous revision's),
// and the heads of targetRoot with it.
func catalogueVoteStored(ctx context.Context, tx *txn, seq int64, targetRoot string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO catalogue_votes (root, votes)
		SELECT ?2, c.vote - coalesce(p.vote, 0)
		FROM contributions c LEFT JOIN contributions p ON p.id = c.previous
		WHERE c.seq = ?1 AND c.kind = 'vote'
		ON CONFLICT (root) DO UPDATE SET votes = catalogue_votes.votes + excluded.votes`, seq, targetRoot); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE catalogue_heads SET votes = coalesce((SELECT votes FROM catalogue_votes WHERE root = ?1), 0)
		WHERE root = ?1`, targetRoot)
	return err
}

// dfProbe bounds how many postings of each word a search counts to find
// its rarest word: past it, any word is as good a driver.
const dfProbe = 20000

// Catalogue implements library.Store.
func (s *Store) Catalogue(ctx context.Context, q library.CatalogueQuery) (library.CataloguePage, error) {
	var page library.CataloguePage
	err := s.read(ctx, func(tx *txn) error {
		words, err := rarestFirst(ctx, tx, q.Words)
		if err != nil || (len(q.Words) > 0 && words == nil) {
			return err // a word no head holds: nothing matches
		}
		var from []string
		var fromArgs, whereArgs []any
		var where []string
		seq, score := "h.seq", "0"
		heads := q.Kind != "" || q.NodeType != "" || q.Method != "" || q.Verdict != "" || q.Author != "" || q.Sort == library.CatalogueTop || len(words) == 0
		if len(words) > 0 {
			// Each word finds the terms it starts (search.Range), a range
			// of the (term, seq) key, summed per head, rarest word first.
			terms := make([]string, len(words))
			for i, w := range words {
				t := fmt.Sprintf("t%d", i)
				found := `(SELECT seq, sum(weight) AS weight FROM catalogue_terms WHERE term >= ? AND term < ? GROUP BY seq) ` + t
				if i > 0 {
					found = `JOIN ` + found + ` ON ` + t + `.seq = t0.seq`
				}
				lo, hi := search.Range(w)
				from = append(from, found)
				fromArgs = append(fromArgs, lo, hi)
				terms[i] = t + `.weight`
			}
			where = append(where, `TRUE`)
			seq, score = `t0.seq`, strings.Join(terms, ` + `)
			if heads {
				from = append(from, `JOIN catalogue_heads h ON h.seq = t0.seq`)
			}
		} else {
			from = append(from, `catalogue_heads h`)
		}
		if heads {
			if q.Kind == "" {
				where = append(where, `h.kind <> 'vote'`)
			} else {
				where = append(where, `h.kind = ?`)
				whereArgs = append(whereArgs, q.Kind)
			}
			for _, f := range []struct{ col, v string }{{"h.node_type", q.NodeType}, {"h.method", q.Method}, {"h.verdict", q.Verdict}, {"h.author", q.Author}} {
				if f.v != "" {
					where = append(where, f.col+` = ?`)
					whereArgs = append(whereArgs, f.v)
				}
			}
		}
		var order string
		switch q.Sort {
		case library.CatalogueTop:
			order = `h.votes DESC, ` + seq + ` DESC`
		case library.CatalogueRelevance:
			order = `score DESC, ` + seq + ` DESC`
		default:
			order = seq + ` DESC`
		}
		base := ` FROM ` + strings.Join(from, " ") + ` WHERE ` + strings.Join(where, " AND ")
		args := append(slices.Clip(fromArgs), whereArgs...)
		if err := tx.QueryRowContext(ctx, `SELECT count(*)`+base, args...).Scan(&page.Total); err != nil {
			return err
		}
		if q.Limit <= 0 || q.Offset >= page.Total {
			return nil
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+seq+`, `+score+` AS score`+base+` ORDER BY `+order+` LIMIT ? OFFSET ?`,
			append(args, q.Limit, max(q.Offset, 0))...)
		if err != nil {
			return err
		}
		var seqs []int64
		for rows.Next() {
			var s, score int64
			if err := rows.Scan(&s, &score); err != nil {
				rows.Close()
				return err
			}
			seqs = append(seqs, s)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		page.Items, err = contributionsBySeq(ctx, tx, seqs)
		return err
	})
	if err != nil {
		return library.CataloguePage{}, fmt.Errorf("postgres: catalogue: %w", err)
	}
	return page, nil
}

// rarestFirst returns the distinct words ordered by how many heads hold
// them, fewest first, or nil if a word is held by none.
func rarestFirst(ctx context.Context, tx *txn, words []string) ([]string, error) {
	if len(words) == 0 {
		return nil, nil
	}
	type word struct {
		w  string
		df int
	}
	var ws []word
	for _, w := range words {
		if slices.ContainsFunc(ws, func(x word) bool { return x.w == w }) {
			continue
		}
		var df int
		lo, hi := search.Range(w)
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM catalogue_terms WHERE term >= ? AND term < ? LIMIT ?) AS probe`, lo, hi, dfProbe).Scan(&df); err != nil {
			return nil, err
		}
		if df == 0 {
			return nil, nil
		}
		ws = append(ws, word{w, df})
	}
	slices.SortStableFunc(ws, func(a, b word) int { return a.df - b.df })
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.w
	}
	return out, nil
}

// contributionsBySeq reads the contributions seqs names, in that order.
func contributionsBySeq(ctx context.Context, tx *txn, seqs []int64) ([]library.Contribution, error) {
	if len(seqs) == 0 {
		return nil, nil
	}
	list := jsonArray(seqs)
	rows, err := tx.QueryContext(ctx, `SELECT `+sqlcommon.ContributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry
		WHERE c.seq IN (SELECT json_array_elements_text(?::json)::bigint)`, list)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	bySeq := make(map[int64]library.Contribution, len(seqs))
	for rows.Next() {
		c, err := sqlcommon.ScanContribution(rows)
		if err != nil {
			return nil, err
		}
		bySeq[c.Seq] = c
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]library.Contribution, 0, len(seqs))
	for _, s := range seqs {
		c, ok := bySeq[s]
		if !ok {
			return nil, fmt.Errorf("contribution %d vanished from its snapshot", s)
		}
		out = append(out, c)
	}
	return out, nil
}

// Changes implements library.Store.
func (s *Store) Changes(ctx context.Context, q library.ChangesQuery) (library.ChangesPage, error) {
	var page library.ChangesPage
	err := s.read(ctx, func(tx *txn) error {
		newest, err := sqlcommon.ChangesNewest(ctx, tx)
		if err != nil {
			return err
		}
		switch {
		case q.After < 0 || q.End < 0 || (q.End > 0 && q.After > q.End):
			return fmt.Errorf("changes position %d..%d is not a snapshot: %w", q.After, q.End, library.ErrResync)
		case q.End > newest || q.After > newest:
			return fmt.Errorf("changes position %d..%d is past the newest revision the feed holds, %d: %w", q.After, q.End, newest, library.ErrResync)
		}
		end := q.End
		if end == 0 {
			end = newest
		}
		// No feed carries votes: not even a vote's own, when the root
		// watched is a vote.
		member, memberArgs := `c.kind <> 'vote'`, []any(nil)
		if q.Root != "" {
			roots, err := changesLineages(ctx, tx, q.Root, end)
			if err != nil {
				return err
			}
			list := jsonArray(roots)
			member, memberArgs = `c.kind <> 'vote' AND c.root IN (SELECT json_array_elements_text(?::json))`, []any{list}
		}
		after := q.After
		if q.End == 0 {
			// A new snapshot: after the position given, or the history
			// the scan reaches; never more than MaxChangesScan long.
			var n int
			err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM contributions c WHERE `+member+` AND c.seq > ? AND c.seq <= ? LIMIT ?) AS scan`,
				append(slices.Clip(memberArgs), after, end, library.MaxChangesScan+1)...).Scan(&n)
			if err != nil {
				return err
			}
			if n > library.MaxChangesScan {
				if q.After > 0 {
					return fmt.Errorf("more than %d revisions of the feed were admitted after %d: %w", library.MaxChangesScan, q.After, library.ErrResync)
				}
				err := tx.QueryRowContext(ctx, `SELECT c.seq FROM contributions c WHERE `+member+` AND c.seq <= ? ORDER BY c.seq DESC LIMIT 1 OFFSET ?`,
					append(slices.Clip(memberArgs), end, library.MaxChangesScan)...).Scan(&after)
				if err != nil {
					return err
				}
			}
		}
		page.After, page.End = after, end
		limit := max(q.Limit, 0)
		rows, err := tx.QueryContext(ctx, `SELECT `+sqlcommon.ContributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry
			WHERE `+member+` AND c.seq > ? AND c.seq <= ? ORDER BY c.seq LIMIT ?`,
			append(slices.Clip(memberArgs), after, end, limit+1)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := sqlcommon.ScanContribution(rows)
			if err != nil {
				return err
			}
			page.Items = append(page.Items, c)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(page.Items) > limit {
			page.Items, page.More = page.Items[:limit], true
		}
		return nil
	})
	if err != nil {
		return library.ChangesPage{}, fmt.Errorf("postgres: changes: %w", err)
	}
	return page, nil
}

// The relations root's changes feed follows, from the links another
// lineage carries to a watched one. Containment, from any kind, and the
// discussion links, from discussions, make the linking lineage watched,
// its own backlinks followed in turn; the activity relations only list
// it.
var (
	containment       = "contained_in"
	discussionLinks   = []string{"replies_to", "answers", "branches_from", "about"}
	discussionKinds   = []string{"reply", "thread", "discussion"}
	activityRelations = []string{"evidence_for", "assesses", "proposes_for"}
)

// changesLineages returns the roots of the lineages root's feed lists, as
// of the snapshot ending at end (library.ChangesQuery says which).
func changesLineages(ctx context.Context, tx *txn, root string, end int64) ([]string, error) {
	watched := map[string]bool{root: true}
	frontier := []string{root}
	// What root's own revisions contain: a map's nodes, a space's
	// included knowledge.
	rows, err := tx.QueryContext(ctx, `SELECT c.envelope FROM contributions c WHERE c.root = ? AND c.seq <= ? AND c.kind = 'research-map'`, root, end)
	if err != nil {
		return nil, err
	}
	var nodes []string
	for rows.Next() {
		var envelope []byte
		if err := rows.Scan(&envelope); err != nil {
			rows.Close()
			return nil, err
		}
		env, err := library.ParseEnvelope(envelope)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("map revision of %s as kept: %w", root, err)
		}
		var body struct{ Nodes []string }
		if json.Unmarshal([]byte(env.Record.Body), &body) == nil {
			nodes = append(nodes, body.Nodes...)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	list := jsonArray(nodes)
	contained, err := sqlcommon.QueryStrings(ctx, tx, `SELECT root FROM contributions WHERE id IN (SELECT json_array_elements_text(?::json)) AND seq <= ?
		UNION SELECT l.target_root FROM contributions c JOIN contribution_links l ON l.source = c.seq
		WHERE c.root = ? AND c.seq <= ? AND l.relation = 'includes'`, list, end, root, end)
	if err != nil {
		return nil, err
	}
	for _, r := range contained {
		if !watched[r] {
			watched[r] = true
			frontier = append(frontier, r)
		}
	}
	relations := jsonArray(append(append([]string{containment}, discussionLinks...), activityRelations...))
	activity := map[string]bool{}
	for len(frontier) > 0 {
		list := jsonArray(frontier)
		frontier = nil
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT c.root, c.kind, l.relation FROM contribution_links l JOIN contributions c ON c.seq = l.source
			WHERE l.target_root IN (SELECT json_array_elements_text(?::json)) AND l.relation IN (SELECT json_array_elements_text(?::json)) AND c.seq <= ?`,
			list, relations, end)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var r, kind, relation string
			if err := rows.Scan(&r, &kind, &relation); err != nil {
				rows.Close()
				return nil, err
			}
			switch {
			case slices.Contains(activityRelations, relation):
				activity[r] = true
			case relation == containment || slices.Contains(discussionKinds, kind):
				if !watched[r] {
					watched[r] = true
					frontier = append(frontier, r)
				}
			}
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(watched)+len(activity))
	for r := range watched {
		out = append(out, r)
	}
	for r := range activity {
		if !watched[r] {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out, nil
}

// jsonArray is xs as a JSON array, "[]" for none, as
// json_array_elements_text takes a list.
func jsonArray[T any](xs []T) string {
	if len(xs) == 0 {
		return "[]"
	}
	b, err := json.Marshal(xs)
	if err != nil {
		panic("postgres: " + err.Error()) // only for values JSON can't hold
	}
	return string(b)
}
