package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"github.com/agora-node/agora/internal/search"
	"maps"
	"slices"
	"strconv"
	"strings"

	"modernc.org/sqlite"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store/sqlcommon"
)

// The catalogue and the changes feed.
//
// The catalogue reads three tables kept as contributions are stored, by
// triggers but for a new head's terms, which AddContribution inserts
// itself (catalogueTerms): catalogue_heads, one narrow row per lineage head, to filter and sort
// without reading envelopes; catalogue_votes, each voted root's vote sum;
// and catalogue_terms, an inverted index of every head's words with their
// relevance weight (3 × title count + body count), so a search reads the
// postings of its rarest word and probes the others', and a one-word
// search ordered by weight reads only its page.
//
// The words are made by catalogueWeights (library.SearchWords), which
// catalogue_words, a Go function registered with the driver, gives the
// SQL triggers, so every writer and the queries split text the same way. A database with this migration can only be written
// by a program that registers it.

// catalogueMigration is migration 4's SQL: the catalogue's tables, their
// triggers, and their rows for the contributions stored before it.
const catalogueMigration = `
CREATE TABLE catalogue_heads (
	seq       INTEGER PRIMARY KEY,
	root      TEXT NOT NULL,
	kind      TEXT NOT NULL,
	author    TEXT NOT NULL,
	node_type TEXT,
	method    TEXT,
	verdict   TEXT,
	votes     INTEGER NOT NULL
);
CREATE INDEX catalogue_heads_root ON catalogue_heads (root);
CREATE INDEX catalogue_heads_kind ON catalogue_heads (kind, seq);
CREATE INDEX catalogue_heads_author ON catalogue_heads (author, seq);
CREATE INDEX catalogue_heads_votes ON catalogue_heads (votes, seq);

CREATE TABLE catalogue_votes (
	root  TEXT PRIMARY KEY,
	votes INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE catalogue_terms (
	term   TEXT NOT NULL,
	seq    INTEGER NOT NULL,
	weight INTEGER NOT NULL,
	PRIMARY KEY (term, seq)
) WITHOUT ROWID;

-- AddContribution marks the replaced head (is_head = 0) before it stores
-- the new one, and stores a contribution before its links.
CREATE TRIGGER catalogue_head_stored AFTER INSERT ON contributions WHEN NEW.is_head = 1 BEGIN
	INSERT INTO catalogue_heads (seq, root, kind, author, node_type, method, verdict, votes)
	VALUES (NEW.seq, NEW.root, NEW.kind, NEW.author, NEW.node_type, NEW.method, NEW.verdict,
		coalesce((SELECT votes FROM catalogue_votes WHERE root = NEW.root), 0));
	INSERT INTO catalogue_terms (term, seq, weight)
	SELECT value ->> 0, NEW.seq, value ->> 1 FROM json_each(catalogue_words(NEW.title, NEW.text))
	WHERE NEW.kind <> 'vote';
END;

-- The terms of a replaced head are found by its words again, which
-- catalogue_words gives deterministically, rather than by a second index
-- every term would cost.
CREATE TRIGGER catalogue_head_replaced AFTER UPDATE OF is_head ON contributions WHEN OLD.is_head = 1 AND NEW.is_head = 0 BEGIN
	DELETE FROM catalogue_heads WHERE seq = OLD.seq;
	DELETE FROM catalogue_terms WHERE OLD.kind <> 'vote' AND seq = OLD.seq
		AND term IN (SELECT value ->> 0 FROM json_each(catalogue_words(OLD.title, OLD.text)));
END;

-- A vote's link is stored after the vote; a revised vote moves its
-- target's sum by the change of its value.
CREATE TRIGGER catalogue_vote_stored AFTER INSERT ON contribution_links WHEN NEW.relation = 'votes_on' BEGIN
	INSERT INTO catalogue_votes (root, votes)
	SELECT NEW.target_root, c.vote - coalesce(p.vote, 0)
	FROM contributions c LEFT JOIN contributions p ON p.id = c.previous
	WHERE c.seq = NEW.source AND c.kind = 'vote'
	ON CONFLICT (root) DO UPDATE SET votes = votes + excluded.votes;
	UPDATE catalogue_heads SET votes = coalesce((SELECT votes FROM catalogue_votes WHERE root = NEW.target_root), 0)
	WHERE root = NEW.target_root;
END;

INSERT INTO catalogue_votes (root, votes)
SELECT l.target_root, sum(c.vote) FROM contributions c
JOIN contribution_links l ON l.source = c.seq AND l.relation = 'votes_on'
WHERE c.kind = 'vote' AND c.is_head = 1 GROUP BY l.target_root;

INSERT INTO catalogue_heads (seq, root, kind, author, node_type, method, verdict, votes)
SELECT c.seq, c.root, c.kind, c.author, c.node_type, c.method, c.verdict, coalesce(v.votes, 0)
FROM contributions c LEFT JOIN catalogue_votes v ON v.root = c.root WHERE c.is_head = 1;

INSERT INTO catalogue_terms (term, seq, weight)
SELECT w.value ->> 0, c.seq, w.value ->> 1 FROM contributions c, json_each(catalogue_words(c.title, c.text)) w
WHERE c.is_head = 1 AND c.kind <> 'vote';
`

func init() {
	sqlite.MustRegisterDeterministicScalarFunction("catalogue_words", 2, catalogueWords)
}

// catalogueWords is the SQL function catalogue_words(title, text): a JSON
// array of [word, weight] pairs, one for each distinct word of title and
// text, weight 3 × its count in title + its count in text, ordered by
// word.
func catalogueWords(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	weights, err := catalogueWeights(args)
	if err != nil {
		return nil, err
	}
	words := slices.Sorted(maps.Keys(weights))
	// Written by hand, as json.Marshal would write it, at a fraction of
	// its cost on every stored head: a word is letters, marks and digits
	// only (search.Words), valid UTF-8 that JSON strings hold unescaped.
	b := make([]byte, 0, 2+len(words)*16)
	b = append(b, '[')
	for i, w := range words {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `["`...)
		b = append(b, w...)
		b = append(b, `",`...)
		b = strconv.AppendInt(b, int64(weights[w]), 10)
		b = append(b, ']')
	}
	return string(append(b, ']')), nil
}

// catalogueWeights is each distinct word of catalogue_words' arguments
// (title, text) with its weight, 3 × its count in title + its count in
// text.
func catalogueWeights(args []driver.Value) (map[string]int, error) {
	weights := map[string]int{}
	for i, weight := range []int{3, 1} {
		var text string
		switch v := args[i].(type) {
		case string:
			text = v
		case []byte:
			text = string(v)
		case nil:
		default:
			return nil, fmt.Errorf("catalogue_words: argument %d is %T, not text", i+1, v)
		}
		for _, w := range library.SearchWords(text) {
			weights[w] += weight
		}
	}
	return weights, nil
}

// catalogueTermsMigration moves the insert of a stored head's terms out
// of catalogue_head_stored into AddContribution (catalogueTerms): the
// trigger wrote each head's words as JSON in Go for SQLite to parse back
// with json_each, a third of a contribution's write. The terms are the
// same rows, in the same transaction, so a search right after the write
// finds the head as before.
const catalogueTermsMigration = `
DROP TRIGGER catalogue_head_stored;
CREATE TRIGGER catalogue_head_stored AFTER INSERT ON contributions WHEN NEW.is_head = 1 BEGIN
	INSERT INTO catalogue_heads (seq, root, kind, author, node_type, method, verdict, votes)
	VALUES (NEW.seq, NEW.root, NEW.kind, NEW.author, NEW.node_type, NEW.method, NEW.verdict,
		coalesce((SELECT votes FROM catalogue_votes WHERE root = NEW.root), 0));
END;
`

// termsPerInsert bounds the rows of catalogueTerms' multi-row inserts: a
// head's words go in termsPerInsert at a time, the rest in one statement
// of their count, so most heads take one statement and the statement
// cache keeps at most termsPerInsert texts of it.
const termsPerInsert = 16

// termsInsert is the multi-row insert of n terms, by n up to termsPerInsert.
var termsInsert = func() (q [termsPerInsert + 1]string) {
	for n := 1; n <= termsPerInsert; n++ {
		q[n] = "INSERT INTO catalogue_terms (term, seq, weight) VALUES " + strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", n), ", ")
	}
	return q
}()

// catalogueTerms inserts the terms of the head just stored at seq, a
// contribution of kind with title and text: catalogue_words' rows, in
// word order, as the trigger made them before catalogueTermsMigration.
// A vote has none.
func catalogueTerms(ctx context.Context, tx *sql.Tx, seq int64, kind, title, text string) error {
	if kind == "vote" {
		return nil
	}
	weights, err := catalogueWeights([]driver.Value{title, text})
	if err != nil {
		return err
	}
	words := slices.Sorted(maps.Keys(weights))
	args := make([]any, 0, 3*min(len(words), termsPerInsert))
	for len(words) > 0 {
		n := min(len(words), termsPerInsert)
		args = args[:0]
		for _, w := range words[:n] {
			args = append(args, w, seq, weights[w])
		}
		if _, err := tx.ExecContext(ctx, termsInsert[n], args...); err != nil {
			return err
		}
		words = words[n:]
	}
	return nil
}

// dfProbe bounds how many postings of each word a search counts to find
// its rarest word: past it, any word is as good a driver.
const dfProbe = 20000

// Catalogue implements library.Store.
func (s *Store) Catalogue(ctx context.Context, q library.CatalogueQuery) (library.CataloguePage, error) {
	var page library.CataloguePage
	err := s.read(ctx, func(tx *sql.Tx) error {
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
			// of the (term, seq) key, summed per head. The CROSS JOINs
			// keep SQLite on the plan the words' order was chosen for:
			// read the rarest word's postings first.
			terms := make([]string, len(words))
			for i, w := range words {
				t := fmt.Sprintf("t%d", i)
				found := `(SELECT seq, sum(weight) AS weight FROM catalogue_terms WHERE term >= ? AND term < ? GROUP BY seq) ` + t
				if i > 0 {
					found = `CROSS JOIN ` + found + ` ON ` + t + `.seq = t0.seq`
				}
				lo, hi := search.Range(w)
				from = append(from, found)
				fromArgs = append(fromArgs, lo, hi)
				terms[i] = t + `.weight`
			}
			where = append(where, `1`)
			seq, score = `t0.seq`, strings.Join(terms, ` + `)
			if heads {
				from = append(from, `CROSS JOIN catalogue_heads h ON h.seq = t0.seq`)
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
		return library.CataloguePage{}, fmt.Errorf("sqlite: catalogue: %w", err)
	}
	return page, nil
}

// rarestFirst returns the distinct words ordered by how many heads hold
// them, fewest first, or nil if a word is held by none.
func rarestFirst(ctx context.Context, tx *sql.Tx, words []string) ([]string, error) {
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
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM catalogue_terms WHERE term >= ? AND term < ? LIMIT ?)`, lo, hi, dfProbe).Scan(&df); err != nil {
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
func contributionsBySeq(ctx context.Context, tx *sql.Tx, seqs []int64) ([]library.Contribution, error) {
	if len(seqs) == 0 {
		return nil, nil
	}
	list, _ := json.Marshal(seqs)
	rows, err := tx.QueryContext(ctx, `SELECT `+sqlcommon.ContributionColumns+` FROM contributions c LEFT JOIN signed s ON s.digest = c.entry
		WHERE c.seq IN (SELECT value FROM json_each(?))`, string(list))
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
	err := s.read(ctx, func(tx *sql.Tx) error {
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
			list, _ := json.Marshal(roots)
			member, memberArgs = `c.kind <> 'vote' AND c.root IN (SELECT value FROM json_each(?))`, []any{string(list)}
		}
		after := q.After
		if q.End == 0 {
			// A new snapshot: after the position given, or the history
			// the scan reaches; never more than MaxChangesScan long.
			var n int
			err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM contributions c WHERE `+member+` AND c.seq > ? AND c.seq <= ? LIMIT ?)`,
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
		return library.ChangesPage{}, fmt.Errorf("sqlite: changes: %w", err)
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
func changesLineages(ctx context.Context, tx *sql.Tx, root string, end int64) ([]string, error) {
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
	list, _ := json.Marshal(nodes)
	contained, err := sqlcommon.QueryStrings(ctx, tx, `SELECT root FROM contributions WHERE id IN (SELECT value FROM json_each(?)) AND seq <= ?
		UNION SELECT l.target_root FROM contributions c JOIN contribution_links l ON l.source = c.seq
		WHERE c.root = ? AND c.seq <= ? AND l.relation = 'includes'`, string(list), end, root, end)
	if err != nil {
		return nil, err
	}
	for _, r := range contained {
		if !watched[r] {
			watched[r] = true
			frontier = append(frontier, r)
		}
	}
	relations, _ := json.Marshal(append(append([]string{containment}, discussionLinks...), activityRelations...))
	activity := map[string]bool{}
	for len(frontier) > 0 {
		list, _ := json.Marshal(frontier)
		frontier = nil
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT c.root, c.kind, l.relation FROM contribution_links l JOIN contributions c ON c.seq = l.source
			WHERE l.target_root IN (SELECT value FROM json_each(?)) AND l.relation IN (SELECT value FROM json_each(?)) AND c.seq <= ?`,
			string(list), string(relations), end)
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
