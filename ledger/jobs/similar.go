package jobs

import (
	"strings"
	"unicode"
)

// Duplicate candidates ("Duplicate checks"): the node finds claims that
// may restate earlier ones by the words their statements share, and
// checkers judge each pair. Exact restatements (the same assertion
// digest) are linked without judgment, so they are not candidates.

// SharedWordsAtLeast is the share of words two statements must have in
// common to be a candidate pair: most of the words of the longer one.
const SharedWordsAtLeast = 0.6

// MaxPairsPerClaim bounds the earlier claims a claim is paired with.
const MaxPairsPerClaim = 5

// stopWords carry no meaning of their own.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "that": true, "with": true, "are": true, "was": true, "were": true, "this": true,
	"from": true, "its": true, "than": true, "into": true, "over": true, "not": true, "but": true, "has": true, "have": true,
	"all": true, "any": true, "each": true, "which": true, "their": true, "our": true, "per": true, "more": true, "less": true,
}

// Words are a statement's distinct words: lowercase letters and digits,
// of at least three characters, leaving out stop words.
func Words(statement string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(statement), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// SharedWords is the share of the longer statement's words the two have
// in common, from 0 to 1.
func SharedWords(a, b string) float64 {
	wa, wb := Words(a), Words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, w := range wa {
		in[w] = true
	}
	common := 0
	for _, w := range wb {
		if in[w] {
			common++
		}
	}
	return float64(common) / float64(max(len(wa), len(wb)))
}

// Distinctive are up to n of a statement's words to search earlier claims
// by, the longest first (ties in the statement's order).
func Distinctive(statement string, n int) []string {
	ws := Words(statement)
	out := make([]string, 0, n)
	for len(out) < n && len(ws) > 0 {
		best := 0
		for i, w := range ws {
			if len(w) > len(ws[best]) {
				best = i
			}
		}
		out = append(out, ws[best])
		ws = append(ws[:best], ws[best+1:]...)
	}
	return out
}
