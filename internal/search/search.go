// Package search is the one word rule both of the node's searches follow:
// the ledger's claims (GET /api/v1/claims?q=) and the library's catalogue
// (GET /api/catalogue?q=). Text is split into words the same way for both,
// and a word searched for finds every word it starts, so "boil" finds
// "boils" and "boiling" in either. spec/ledger-protocol.md gives the claims
// search its web-search syntax ("every word must appear, in any form");
// library/contract.json's catalogue relevance rule has every query token
// match, which a word matching the words it starts keeps.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Words splits text into words: maximal runs of letters, marks and digits
// (Unicode categories L, M and N), in NFKC form, lowercased. Everything
// else separates words, so "Peano-style" is two words and "1+1" is "1"
// twice.
func Words(text string) []string {
	text = strings.ToLower(norm.NFKC.String(text))
	return strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r)
	})
}

// Finds reports whether the searched word finds the indexed word: whether
// it starts it.
func Finds(searched, indexed string) bool { return strings.HasPrefix(indexed, searched) }

// Range is the range of indexed words the searched word finds, for an
// index ordered by bytes (SQLite's BINARY collation): every word w with
// lo <= w < hi. No word a word starts sorts at or past hi, since no valid
// UTF-8 sorts after the largest code point.
func Range(searched string) (lo, hi string) {
	return searched, searched + string(rune(utf8.MaxRune))
}

// FTS5 is the FTS5 query term that finds the words the searched word
// starts: the word quoted, as a prefix.
func FTS5(searched string) string { return `"` + strings.ReplaceAll(searched, `"`, `""`) + `"*` }
