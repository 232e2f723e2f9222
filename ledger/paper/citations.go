package paper

import (
	"math"
	"regexp"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/yuin/goldmark/ast"
)

// Citations. The paper cites a source where it uses it, as a link to the
// source's reference ID, such as [Klebanoff (2001)](doi:10.1142/S0218348X01000828),
// and references.json lists every source it cites. A reference the paper
// never cites, or a citation of an ID references.json doesn't list, is
// flagged, since a reader can't tell what supports what.

// externalID is an ID of a source outside the ledger: a DOI, a new- or
// old-style arXiv identifier with an optional version, or a PubMed ID.
var externalID = regexp.MustCompile(`^(?:doi:10\.[0-9]{4,9}/[^` + jsSpaceClass + `]+|arxiv:(?:[0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})(?:v[1-9][0-9]*)?|pmid:[1-9][0-9]{0,9})$`)

// ledgerIDPrefixes are the kinds of record on a ledger a reference can name,
// each written as its prefix and a SHA-256 in lowercase hex.
var ledgerIDPrefixes = []string{"claim:", "task:", "idea:", "prereg:", "thread:", "post:"}

// IsReferenceID reports whether s is an ID references.json can list: a claim,
// field task, idea, pre-registration, forum thread or post on the ledger, or
// a DOI, arXiv ID or PubMed ID.
func IsReferenceID(s string) bool {
	return isLedgerID(s) || externalID.MatchString(s)
}

func isLedgerID(s string) bool {
	for _, prefix := range ledgerIDPrefixes {
		if len(s) == len(prefix)+64 && s[:len(prefix)] == prefix && isLowerHex(s[len(prefix):]) {
			return true
		}
	}
	return false
}

func isPreregistrationID(s string) bool {
	return len(s) == len("prereg:")+64 && s[:len("prereg:")] == "prereg:" && isLowerHex(s[len("prereg:"):])
}

func isLowerHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Citations returns the reference IDs a paper cites, once each, in the order
// it first cites them: every link whose target is a reference ID, inline
// ([text](doi:…)), automatic (<claim:…>) or a link reference definition
// ([label]: arxiv:…), which a citation by reference ([text][label]) uses.
func Citations(markdown string) []string {
	return citations(parseMarkdown(markdown))
}

func citations(doc *document) []string {
	src := doc.src
	seen := map[string]bool{}
	cited := []string{}
	_ = ast.Walk(doc.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		url, ok := linkURL(n, src)
		if !ok {
			url, ok = definitionURL(n)
		}
		if ok && !seen[url] && IsReferenceID(url) {
			seen[url] = true
			cited = append(cited, url)
		}
		return ast.WalkContinue, nil
	})
	return cited
}

// parseReferences reads references.json as the reference's
// ReferencesFileSchema does, returning the IDs it lists in order, or false
// when it isn't a valid references file, which the bundle check refuses
// before anything here matters.
func parseReferences(text string) ([]string, bool) {
	v, err := canonical.Parse([]byte(text))
	if err != nil {
		return nil, false
	}
	list, ok := v.([]any)
	if !ok || len(list) > 1000 {
		return nil, false
	}
	ids := make([]string, 0, len(list))
	seen := map[string]bool{}
	for _, item := range list {
		ref, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		id, ok := ref["id"].(string)
		if !ok || seen[id] || !validReference(ref, id) {
			return nil, false
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, true
}

// validReference checks one entry of references.json: a source on the ledger
// ({id, claims?}) or outside it ({id, title, authors, year, claims?}), each
// a strict object.
func validReference(ref map[string]any, id string) bool {
	if claims, ok := ref["claims"]; ok && !validSupports(claims) {
		return false
	}
	if isLedgerID(id) {
		return onlyKeys(ref, "id", "claims")
	}
	if !externalID.MatchString(id) || !onlyKeys(ref, "id", "title", "authors", "year", "claims") {
		return false
	}
	title, ok := ref["title"].(string)
	if !ok || !lengthWithin(title, 1, 500) {
		return false
	}
	authors, ok := ref["authors"].([]any)
	if !ok || len(authors) < 1 || len(authors) > 100 {
		return false
	}
	for _, a := range authors {
		if name, ok := a.(string); !ok || !lengthWithin(name, 1, 200) {
			return false
		}
	}
	year, ok := ref["year"].(float64)
	return ok && year == math.Trunc(year) && year >= 1 && year <= 9999
}

// validSupports checks a reference's claims: one to 30 local claim IDs.
func validSupports(v any) bool {
	list, ok := v.([]any)
	if !ok || len(list) < 1 || len(list) > 30 {
		return false
	}
	for _, item := range list {
		if id, ok := item.(string); !ok || !isLocalClaimID(id) {
			return false
		}
	}
	return true
}

// isLocalClaimID reports whether s is a bundle-scoped claim label such as C3.
func isLocalClaimID(s string) bool {
	for i, c := range []byte(s) {
		letter := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
		if i == 0 && !letter || !(letter || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

func onlyKeys(m map[string]any, keys ...string) bool {
	allowed := 0
	for _, k := range keys {
		if _, ok := m[k]; ok {
			allowed++
		}
	}
	return allowed == len(m)
}

// lengthWithin bounds a string's length in code points, as the reference's
// schema measures it (zod's .min and .max on a string count code points).
func lengthWithin(s string, least, most int) bool {
	n := utf8.RuneCountInString(s)
	return n >= least && n <= most
}
