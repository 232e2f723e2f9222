package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/internal/search"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store/sqlcommon"
)

// The claims search (SearchClaims) and the full-text index it reads.

// openedWordsMigration is the claims' full-text index keyed
// by where each claim stands in page order (wordsKey), holding the claims
// that opened, so that a search by words reads the index newest first and
// stops at the page's end instead of collecting every claim a common word
// matches; opened_terms lists its words (expandPrefixes). It replaces claim_words, keyed by the claims' seq, which only
// the claims that opened were ever found by.
const openedWordsMigration = `
CREATE VIRTUAL TABLE opened_words USING fts5 (statement, content = '', contentless_delete = 1, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE opened_terms USING fts5vocab (opened_words, 'row');
INSERT INTO opened_words (rowid, statement) SELECT ` + wordsKey + `, c.statement FROM claims c WHERE c.opened IS NOT NULL;
DROP TABLE claim_words;
`

// wordsKey is a claim's rowid in opened_words: its bundle's opening
// index and its place in the bundle, which is below claims.MaxClaims, so
// that rowid order is page order. wordsSpan is the keys one opening
// spans.
const (
	wordsSpan = 1024
	wordsKey  = `(c.opened * 1024 + c.position)`
)

// SearchClaims implements ledger.Store. The words are matched by the
// FTS5 index, every word as a prefix; the other filters by claim_tags and
// the claims' own columns. A page that ends partway through a bundle is
// completed with the rest of that bundle's claims.
//
// A search runs in two steps, so its cost follows the page, not the number
// of claims that match: pageQuery.claims reads the page's claims in page order
// from an index that holds them so and stops at the page's end:
// claim_tags_opened when a tag filter is given; opened_words, keyed in page
// order, when words are; else the claims' own (opened, position) indexes.
// queryClaims then reads the columns of those claims alone.
func (s *Store) SearchClaims(ctx context.Context, q ledger.ClaimQuery) ([]ledger.FoundClaim, error) {
	page := pageQuery{from: `claims c`, opened: `c.opened`, desc: !q.Follow}
	var tags [][2]string
	for _, t := range [][2]string{{"field", q.Field}, {"depends_on", q.DependsOn}, {"cites", q.Cites}} {
		if t[1] != "" {
			tags = append(tags, t)
		}
	}
	words := q.Words
	switch {
	case len(tags) > 0:
		page.from, page.opened = `claim_tags t JOIN claims c ON c.seq = t.claim`, `t.opened`
		page.and(`t.kind = ? AND t.value = ? AND t.opened IS NOT NULL AND c.withdrawn = 0`, tags[0][0], tags[0][1])
		tags = tags[1:]
	case words != "" && q.Only == nil:
		// The words drive: opened_words gives the claims they match in
		// page order, each joined to its row.
		page.from = `opened_words w CROSS JOIN claims c ON c.opened = w.rowid / ` + strconv.Itoa(wordsSpan) +
			` AND c.position = w.rowid % ` + strconv.Itoa(wordsSpan)
		page.key = true
		page.and(`opened_words MATCH ? AND c.opened IS NOT NULL AND c.withdrawn = 0`, ftsWords(words))
		words = ""
	default:
		page.and(`c.opened IS NOT NULL AND c.withdrawn = 0`)
	}
	// The unary + keeps SQLite from driving the search by these sets
	// (looking up and sorting every claim that matches, 100 ms for a
	// common word in 100,000 claims): it reads claims in page order and
	// probes the sets, each made once.
	if words != "" {
		page.and(`+`+wordsKey+` IN (SELECT rowid FROM opened_words WHERE opened_words MATCH ?)`, ftsWords(words))
	}
	for _, t := range tags {
		page.and(`+c.seq IN (SELECT claim FROM claim_tags WHERE kind = ? AND value = ?)`, t[0], t[1])
	}
	if q.Only != nil {
		if len(q.Only) == 0 {
			return nil, nil
		}
		args := make([]any, len(q.Only))
		for i, id := range q.Only {
			args[i] = id
		}
		page.and(`c.id IN (`+sqlcommon.Placeholders(len(q.Only))+`)`, args...)
	}
	if q.Type != "" {
		page.and(`c.type = ?`, q.Type)
	}
	if q.Operator != "" {
		page.and(`c.operator = ?`, q.Operator)
	}
	if q.Follow {
		page.after(q.Since)
	} else if q.Before > 0 {
		page.before(q.Before)
	}
	limit := max(q.Limit, 1)
	var out []ledger.FoundClaim
	err := s.read(ctx, func(tx *sql.Tx) error {
		for i, arg := range page.args {
			if w, ok := arg.(ftsWords); ok {
				expanded, err := expandPrefixes(ctx, tx, string(w))
				if err != nil {
					return err
				}
				page.args[i] = expanded
			}
		}
		seqs, err := page.claims(ctx, tx, limit)
		if err != nil || len(seqs) == 0 {
			return err
		}
		order := `c.opened DESC, c.position`
		if q.Follow {
			order = `c.opened, c.position`
		}
		out, err = dialect.QueryClaims(ctx, tx, `c.seq IN (`+sqlcommon.Placeholders(len(seqs))+`) ORDER BY `+order, seqs...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: search claims: %w", err)
	}
	return out, nil
}

// ftsWords marks a search's FTS5 query among a pageQuery's arguments, for
// expandPrefixes.
type ftsWords string

// maxExpansion is how many indexed words a searched prefix may stand for
// in expandPrefixes.
const maxExpansion = 64

// prefixTerm is a prefix term as search.FTS5 writes it, of a word the
// tokenizer indexes as it is written: lowercase ASCII letters and digits,
// four or more (opened_words indexes prefixes of up to 3).
var prefixTerm = regexp.MustCompile(`"([a-z0-9]{4,})"\*`)

// implicitAnd is two terms side by side, the second a phrase or a group:
// FTS5 takes the implicit AND between phrases but not before a group,
// which an expanded prefix becomes, so the AND is written out.
var implicitAnd = regexp.MustCompile(`(\)|"\*?)\s+(["(])`)

// expandPrefixes rewrites each prefix term of an FTS5 query, "claim"*,
// as the indexed words it finds, ("claim" OR "claims"), read from
// opened_terms, when they are at most maxExpansion: FTS5 gathers every
// claim a prefix finds before it answers the first, but reads whole words
// lazily, newest first, so a page of a common word costs the page. It
// finds what the prefix finds: every word the index holds that the prefix
// starts. A prefix that starts no word, or too many, is left as it is.
func expandPrefixes(ctx context.Context, tx *sql.Tx, words string) (string, error) {
	var failed error
	out := prefixTerm.ReplaceAllStringFunc(words, func(term string) string {
		if failed != nil {
			return term
		}
		lo, hi := search.Range(prefixTerm.FindStringSubmatch(term)[1])
		rows, err := tx.QueryContext(ctx, `SELECT term FROM opened_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`, lo, hi, maxExpansion+1)
		if err != nil {
			failed = err
			return term
		}
		found, err := sqlcommon.Strings1(rows)
		if err != nil {
			failed = err
			return term
		}
		if len(found) == 0 || len(found) > maxExpansion {
			return term
		}
		for i, w := range found {
			found[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		}
		return "(" + strings.Join(found, " OR ") + ")"
	})
	if out != words {
		out = implicitAnd.ReplaceAllString(out, "$1 AND $2")
	}
	return out, failed
}

// pageQuery finds the claims of a page of search results.
type pageQuery struct {
	from   string // the claims, c, and what drives the search
	opened string // the column of the claims' opened index to order by
	// key: opened_words, w, drives, and its rowid (wordsKey) orders the
	// page.
	key   bool
	where []string
	args  []any
	desc  bool // newest first
}

// and adds a condition and its arguments.
func (p *pageQuery) and(cond string, args ...any) {
	p.where = append(p.where, cond)
	p.args = append(p.args, args...)
}

// before keeps the claims opened before index; after those opened after
// it. On opened_words they bound its rowid, so the index seeks to them.
func (p *pageQuery) before(index int64) {
	if p.key {
		p.and(`w.rowid < ?`, index*wordsSpan)
		return
	}
	p.and(p.opened+` < ?`, index)
}

func (p *pageQuery) after(index int64) {
	if p.key {
		p.and(`w.rowid >= ?`, (index+1)*wordsSpan)
		return
	}
	p.and(p.opened+` > ?`, index)
}

// order is the page's order.
func (p pageQuery) order() string {
	switch {
	case p.key && p.desc:
		return `w.rowid DESC`
	case p.key:
		return `w.rowid`
	case p.desc:
		return p.opened + ` DESC, c.position`
	}
	return p.opened + `, c.position`
}

// bundleSlack is how many claims past the page pageQuery.claims reads to
// complete the page's last bundle in the same query: a claims.json holds at
// most 30. A bundle that goes on past them is completed by a second query.
const bundleSlack = 32

// pageRow is a claim found for a page, with where it stands in page order.
type pageRow struct{ seq, opened, position int64 }

// claims returns the seqs of the first limit claims that match, with the
// rest of the last one's bundle, in page order.
func (p pageQuery) claims(ctx context.Context, tx *sql.Tx, limit int) ([]any, error) {
	read := func(q pageQuery, tail string, args ...any) ([]pageRow, error) {
		rows, err := tx.QueryContext(ctx, `SELECT c.seq, c.opened, c.position FROM `+q.from+
			` WHERE `+strings.Join(q.where, " AND ")+` ORDER BY `+q.order()+tail, append(slices.Clip(q.args), args...)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []pageRow
		for rows.Next() {
			var r pageRow
			if err := rows.Scan(&r.seq, &r.opened, &r.position); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, rows.Err()
	}
	rows, err := read(p, ` LIMIT ?`, limit+bundleSlack)
	if err != nil {
		return nil, err
	}
	end := min(limit, len(rows))
	if end > 0 {
		// The page ends with the bundle its last claim is in.
		last := rows[end-1].opened
		for end < len(rows) && rows[end].opened == last {
			end++
		}
		if end == limit+bundleSlack {
			rest := p
			rest.where, rest.args = slices.Clip(p.where), slices.Clip(p.args)
			switch pos := rows[end-1].position; {
			case p.key && p.desc:
				// opened_words reads a bundle's claims last first.
				rest.and(`w.rowid >= ? AND w.rowid < ?`, last*wordsSpan, last*wordsSpan+pos)
			case p.key:
				rest.and(`w.rowid > ? AND w.rowid < ?`, last*wordsSpan+pos, (last+1)*wordsSpan)
			default:
				rest.and(p.opened+` = ? AND c.position > ?`, last, pos)
			}
			more, err := read(rest, "")
			if err != nil {
				return nil, err
			}
			rows, end = append(rows, more...), end+len(more)
		}
	}
	seqs := make([]any, end)
	for i, r := range rows[:end] {
		seqs[i] = r.seq
	}
	return seqs, nil
}
