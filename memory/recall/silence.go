package recall

import (
	"math"
	"slices"
	"strings"
)

// silenced returns why e has nothing to say to the query, or "": the
// checks that take all of a record's content score. They ask what the
// record is about, not how well its words match, so they run before
// its content is scored. It also returns the key agreement (when the
// record has a title) and whether the query names an object of its own
// where the record names another (foreign), for the score.
func (ix *Index) silenced(p preparedQuery, w Weights, in scoreInputs, e *entry) (ka keyResult, kaOK, foreign bool, why string) {
	// The checks that need no key agreement come first: they are the
	// cheap ones.
	if lacks, what := ix.lacksQueryKey(in.qKey, e); lacks {
		// The query's output prints its own object where its kind of
		// failure prints what it is about, and the record does not name
		// it: the same failure about another thing, even when the
		// record's own key turns up elsewhere in the query.
		return ka, false, false, "query is about " + what + ", which the record does not name"
	}
	if other, qName, rName := otherQuotedName(p.quoted, p.norm, e.quoted); other && !namesWord(e.doc.Content, qName) {
		// The query prints the record's message about another name, one
		// the note's own words do not name ('flakes' gives the same error
		// otherwise): the same message about another thing.
		return ka, false, false, "query is about " + qName + " where the record is about " + rName
	}
	if e.shape != in.qShape && len(in.qKind) > 0 {
		// The query prints the output of a kind of failure whose
		// records all name it the same way; a record that does not is
		// about another kind, even when it names the same object.
		if miss, missing := ix.kindMiss(in.qKind, e); miss >= kindMissShare {
			return ka, false, false, "query output is of the kind named " + missing + ", which the record does not name"
		}
	}
	if len(in.named) > 0 {
		// The query's words name a kind of failure (all but a little of
		// the wording every record of that kind has in its title); a
		// record of none of the kinds it names is about another failure.
		if ok, missing := ix.ofNamedKind(in.named, e); !ok {
			return ka, false, false, "query names the kind " + missing + ", which the record does not name"
		}
	}
	ka, kaOK = ix.keyAgreement(in.qIDs, in.qShape, p.stoks, p.nums, e)
	if !kaOK {
		return ka, false, false, ""
	}
	// The query names an object of its own where the record names
	// another.
	foreign = ka.objMiss && (in.unknownTerm || ix.foreignSymbol(in.qSyms, e.syms))
	if keyMissShare(w, ka, foreign) >= 1 {
		// The query names an object of its own where the record names
		// another, or none of the record's: the same failure about
		// another thing.
		return ka, kaOK, foreign, "record is about " + ka.missing + ", which the query does not name"
	}
	if len(ka.named) > 0 && ix.sharesOnly(in.qIDs, e, ka.named) {
		// The query shares nothing with the record but what the record
		// is about (express, 8080): the same object in another failure.
		return ka, kaOK, foreign, "query shares only " + strings.Join(ka.named, " ") + " with the record, what it is about"
	}
	return ka, kaOK, foreign, ""
}

// keyMissShare is the share of its content score a record loses for
// the part of its key the query lacks (see keyAgreement): KeyMiss times
// that part, or all of KeyMiss when the query is definitely about
// another thing (foreign: it names an object of its own). At most 1.
func keyMissShare(w Weights, ka keyResult, foreign bool) float64 {
	if ka.miss <= 0 || w.KeyMiss <= 0 {
		return 0
	}
	if ka.definite || ka.miss >= 1 || foreign {
		return math.Min(1, w.KeyMiss)
	}
	return math.Min(1, w.KeyMiss*ka.miss)
}

// keyResult is what keyAgreement found.
type keyResult struct {
	cov     float64 // idf-weighted share of the title's terms the query names
	matched string  // those terms
	miss    float64 // 0..1: the share of the key the query lacks
	missing string  // the key terms the query lacks
	objMiss bool    // the query lacks a term of the record's object
	// definite is set when the query prints the record's output shape
	// with another value where the record prints its key.
	definite bool
	named    []string // the key terms the query names
}

// keyAgreement measures how much of what a record says it is about (its
// title) the query names. cov is the share of the title's terms found
// among the query's terms, each weighted by its idf among titles, so a
// record's object (config, tokio) counts more than the wording its kind
// of failure shares with every record of that kind (borrow, moved).
//
// The key is what the record is about. When its output shape has enough
// members, it is the title terms the record prints in a slot of its shape
// (see shape.go); a query of the same shape must print them in the same
// slot, any other query must name them somewhere. Otherwise the key is
// the parts of the code symbols its output names that its title names too
// (its object). miss is the share of the key the query does not name.
func (ix *Index) keyAgreement(q []int32, qShape int32, qToks, qNums []string, e *entry) (keyResult, bool) {
	var r keyResult
	var have, total float64
	var names []string
	for _, id := range e.title {
		df := ix.titleDF[id]
		if df <= 0 {
			continue
		}
		idf := bm25IDF(ix.titles, int(df))
		total += idf
		if _, found := slices.BinarySearch(q, id); found {
			have += idf
			names = append(names, ix.lex.names[id])
		}
	}
	if total == 0 {
		return r, false
	}
	r.cov, r.matched = have/total, strings.Join(names, " ")

	var keys, missed int
	var missing []string
	if key, ok := ix.shapeKey(e); ok {
		same := qShape >= 0 && qShape == e.shape
		for _, k := range key {
			keys++
			found := true
			var qTerms []string
			if same {
				qTerms = Tokenize(qToks[k.pos])
			}
			for j, t := range k.terms {
				if same {
					found = found && slices.Contains(qTerms, t)
				} else if id := k.ids[j]; id >= 0 {
					_, in := slices.BinarySearch(q, id)
					found = found && in
				} else {
					found = false
				}
			}
			if !found {
				missed++
				missing = append(missing, k.terms...)
				r.objMiss = true
				r.definite = r.definite || same
			} else {
				r.named = append(r.named, k.terms...)
			}
		}
	} else {
		for _, o := range e.objects {
			keys++
			if allIn(o.terms, q) || ix.allPrefixed(o.terms, q) {
				for _, id := range o.terms {
					r.named = append(r.named, ix.lex.names[id])
				}
				continue
			}
			missed++
			r.objMiss = true
			for _, id := range o.terms {
				missing = append(missing, ix.lex.names[id])
			}
		}
	}
	// A number the record's output printed where normalization saw an id
	// is a key the shape cannot show; the query must print it too.
	for _, n := range e.masked {
		keys++
		if !slices.Contains(qNums, n) {
			missed++
			r.objMiss = true
			missing = append(missing, n)
		} else {
			r.named = append(r.named, n)
		}
	}
	if missed > 0 {
		r.miss, r.missing = float64(missed)/float64(keys), strings.Join(uniq(missing), " ")
	}
	return r, true
}

// kindMissShare is the idf-weighted share of a query kind's title terms
// a record may lack and still be of that kind (see kindTerms). Recall and
// silence on the tuning corpora are the same from 0.1 to 0.34; the
// larger value forgives most a record titled in its own words.
const kindMissShare = 0.34

// kindMiss returns the idf-weighted share of the kind terms that e's
// title lacks, and those terms.
func (ix *Index) kindMiss(kind []string, e *entry) (float64, string) {
	var miss, total float64
	var missing []string
	for _, t := range kind {
		id, ok := ix.lex.ids[t]
		if !ok || int(id) >= len(ix.titleDF) {
			continue
		}
		idf := bm25IDF(ix.titles, int(ix.titleDF[id]))
		total += idf
		if !slices.Contains(e.title, id) {
			miss += idf
			missing = append(missing, t)
		}
	}
	if total == 0 {
		return 0, ""
	}
	slices.Sort(missing)
	return miss / total, strings.Join(missing, " ")
}

// A query without output names a kind when it holds all but
// namedKindMissShare (idf-weighted among titles) of the kind's terms, and
// the kind has at least namedKindMinTerms of them: a tool name and a verb
// (pip fails) say too little about which failure it is. On the tuning
// corpora (gen seeds 1, 4, 5) 0.15 keeps recall where it is without the
// check; 0.25 and 0.34 cost 0.2 to 1.2 points of recall@1 for no more
// silence.
const (
	namedKindMinTerms  = 3
	namedKindMissShare = 0.15
)

// namedKind is a kind of failure a query without output names: the
// shape whose kind terms it holds, and those terms.
type namedKind struct {
	shape int32
	terms []string
}

// namedKinds returns the kinds the query's words name, among the shapes
// of the candidates: those whose kind terms (see kindTerms) the query
// holds all of but less than kindMissShare of their idf among titles. A
// query with output has its kind from its shape or none: the words of
// an output are the tool's, not the query's naming of a kind.
func (ix *Index) namedKinds(cands []cand, q []int32) []namedKind {
	var out []namedKind
	seen := make(map[int32]bool)
	for _, c := range cands {
		sh := ix.entries[c.doc].shape
		if sh < 0 || seen[sh] {
			continue
		}
		seen[sh] = true
		kind := ix.kindTerms(sh)
		if len(kind) < namedKindMinTerms {
			continue
		}
		var miss, total float64
		for _, t := range kind {
			id, ok := ix.lex.ids[t]
			if !ok || int(id) >= len(ix.titleDF) {
				continue
			}
			idf := bm25IDF(ix.titles, int(ix.titleDF[id]))
			total += idf
			if _, in := slices.BinarySearch(q, id); !in {
				miss += idf
			}
		}
		if total > 0 && miss/total < namedKindMissShare {
			out = append(out, namedKind{sh, kind})
		}
	}
	return out
}

// ofNamedKind reports whether e is of one of the named kinds: it files
// under one of their shapes or its title holds enough of one's terms.
// Otherwise it returns the first kind's terms.
func (ix *Index) ofNamedKind(named []namedKind, e *entry) (bool, string) {
	for _, k := range named {
		if e.shape == k.shape {
			return true, ""
		}
		if miss, _ := ix.kindMiss(k.terms, e); miss < kindMissShare {
			return true, ""
		}
	}
	terms := slices.Clone(named[0].terms)
	slices.Sort(terms)
	return false, strings.Join(terms, " ")
}

// sharesOnly reports whether every query term e holds is one of the
// key terms named.
func (ix *Index) sharesOnly(q []int32, e *entry, named []string) bool {
	for _, id := range q {
		if _, ok := lookupTF(e.lex, id); ok && !slices.Contains(named, ix.lex.names[id]) {
			return false
		}
	}
	return true
}

// anyIn reports whether any id is in the sorted set.
func anyIn(ids, set []int32) bool {
	for _, id := range ids {
		if _, ok := slices.BinarySearch(set, id); ok {
			return true
		}
	}
	return false
}

// allIn reports whether every id is in the sorted set.
// allPrefixed reports whether each of ids the query does not hold starts
// a longer word it does hold, as a package's name starts its parts'
// (pgx in pgxpool.ConnectConfig, sqlite in go-sqlite3): the query names
// the object in its own spelling. Names shorter than objectPrefixMin
// start too many words to say so.
func (ix *Index) allPrefixed(ids, q []int32) bool {
	for _, id := range ids {
		if _, ok := slices.BinarySearch(q, id); ok {
			continue
		}
		name := ix.lex.names[id]
		if len(name) < objectPrefixMin || !slices.ContainsFunc(q, func(w int32) bool {
			n := ix.lex.names[w]
			return len(n) > len(name) && strings.HasPrefix(n, name) && !englishSuffix[n[len(name):]]
		}) {
			return false
		}
	}
	return true
}

// englishSuffix are the endings that make a word of another word
// (mock, mocker): what they start is that word, not a package's name.
var englishSuffix = map[string]bool{"s": true, "es": true, "er": true, "ers": true, "ed": true, "ing": true, "ings": true, "ly": true,
	"able": true, "ation": true, "ations": true, "ment": true, "ments": true, "ness": true, "y": true, "ies": true, "ery": true, "al": true}

// objectPrefixMin is the shortest object name allPrefixed takes as the
// start of a longer word.
const objectPrefixMin = 3

func allIn(ids, set []int32) bool {
	for _, id := range ids {
		if _, ok := slices.BinarySearch(set, id); !ok {
			return false
		}
	}
	return true
}

// foreignSymbol reports whether the query names a code symbol the record
// does not (a symbol no record has counts too).
func (ix *Index) foreignSymbol(q, rec []int32) bool {
	for _, id := range q {
		if id < 0 {
			return true
		}
		if _, ok := slices.BinarySearch(rec, id); !ok {
			return true
		}
	}
	return false
}
