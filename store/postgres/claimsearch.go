package postgres

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/agora-node/agora/internal/search"
	"github.com/agora-node/agora/store"
)

// The claims' full-text search.
//
// ledger.ClaimQuery.Words is an FTS5 query, as SQLite's index takes one and
// the HTTP layer writes it (ledgerhttp's ftsQuery, search.FTS5): phrases
// in double quotes, each word of a phrase followed by "*" finding the
// words it starts, bare words, AND (or none) between terms, OR, NOT and
// parentheses, NOT binding tightest, then AND, then OR, as in FTS5. Here
// it becomes one SQL condition on the claim c.seq, read from claim_terms:
// every claim's words (search.Words) at their positions, folded as
// SQLite's unicode61 tokenizer (remove_diacritics) folds them, so "cafe"
// finds "café" on either driver.

// claimWords is the words of text as claim_terms keeps them.
func claimWords(text string) []string {
	words := search.Words(text)
	for i, w := range words {
		words[i] = foldDiacritics(w)
	}
	return words
}

// foldDiacritics takes the combining marks off w's letters.
func foldDiacritics(w string) string {
	folded, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), w)
	if err != nil || folded == "" {
		return w
	}
	return folded
}

// ftsCondition is query as a SQL condition on c.seq, with its arguments.
func ftsCondition(query string) (string, []any, error) {
	p := &ftsParser{toks: ftsTokens(query)}
	cond, err := p.or()
	if err == nil && p.i < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.i].text)
	}
	if err != nil {
		return "", nil, fmt.Errorf("postgres: claim search %q: %w: %w", query, store.ErrInvalid, err)
	}
	return cond, p.args, nil
}

type ftsToken struct {
	text   string
	phrase bool // a quoted phrase, or a bare word
	prefix bool // followed by "*"
}

// ftsTokens splits an FTS5 query into phrases, words, operators and
// parentheses.
func ftsTokens(q string) []ftsToken {
	var out []ftsToken
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '(' || c == ')':
			out = append(out, ftsToken{text: string(c)})
			i++
		case c == '"':
			var b strings.Builder
			j := i + 1
			for j < len(q) {
				if q[j] == '"' {
					if j+1 < len(q) && q[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(q[j])
				j++
			}
			t := ftsToken{text: b.String(), phrase: true}
			i = j + 1
			if i < len(q) && q[i] == '*' {
				t.prefix = true
				i++
			}
			out = append(out, t)
		default:
			j := i
			for j < len(q) && !strings.ContainsRune(" \t\n()\"", rune(q[j])) {
				j++
			}
			t := ftsToken{text: q[i:j]}
			if strings.HasSuffix(t.text, "*") {
				t.text, t.prefix, t.phrase = strings.TrimSuffix(t.text, "*"), true, true
			} else if t.text != "AND" && t.text != "OR" && t.text != "NOT" {
				t.phrase = true
			}
			out = append(out, t)
			i = j
		}
	}
	return out
}

type ftsParser struct {
	toks []ftsToken
	i    int
	args []any
}

func (p *ftsParser) peek(op string) bool {
	return p.i < len(p.toks) && !p.toks[p.i].phrase && p.toks[p.i].text == op
}

func (p *ftsParser) or() (string, error) {
	left, err := p.and()
	for err == nil && p.peek("OR") {
		p.i++
		var right string
		if right, err = p.and(); err == nil {
			left = "(" + left + " OR " + right + ")"
		}
	}
	return left, err
}

// and reads terms joined by AND, or by nothing.
func (p *ftsParser) and() (string, error) {
	left, err := p.not()
	for err == nil && p.i < len(p.toks) && (p.peek("AND") || p.toks[p.i].phrase || p.peek("(")) {
		if p.peek("AND") {
			p.i++
		}
		var right string
		if right, err = p.not(); err == nil {
			left = "(" + left + " AND " + right + ")"
		}
	}
	return left, err
}

func (p *ftsParser) not() (string, error) {
	left, err := p.primary()
	for err == nil && p.peek("NOT") {
		p.i++
		var right string
		if right, err = p.primary(); err == nil {
			left = "(" + left + " AND NOT " + right + ")"
		}
	}
	return left, err
}

func (p *ftsParser) primary() (string, error) {
	if p.i >= len(p.toks) {
		return "", fmt.Errorf("a term is missing")
	}
	t := p.toks[p.i]
	p.i++
	switch {
	case t.phrase:
		return p.phrase(t), nil
	case t.text == "(":
		cond, err := p.or()
		if err != nil {
			return "", err
		}
		if !p.peek(")") {
			return "", fmt.Errorf("a ) is missing")
		}
		p.i++
		return cond, nil
	}
	return "", fmt.Errorf("unexpected %q", t.text)
}

// phrase is the condition that c holds t's words one after another, the
// last as a prefix if t is one. A phrase with no words finds nothing.
func (p *ftsParser) phrase(t ftsToken) string {
	words := claimWords(t.text)
	if len(words) == 0 {
		return "FALSE"
	}
	var from, where []string
	for i, w := range words {
		alias := fmt.Sprintf("w%d", i)
		from = append(from, "claim_terms "+alias)
		if i == len(words)-1 && t.prefix {
			lo, hi := search.Range(w)
			where = append(where, alias+".term >= ?", alias+".term < ?")
			p.args = append(p.args, lo, hi)
		} else {
			where = append(where, alias+".term = ?")
			p.args = append(p.args, w)
		}
		if i > 0 {
			where = append(where, fmt.Sprintf("%s.claim = w0.claim AND %s.position = w0.position + %d", alias, alias, i))
		}
	}
	return "c.seq IN (SELECT w0.claim FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ") + ")"
}
