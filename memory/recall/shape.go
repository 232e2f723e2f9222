package recall

import (
	"slices"
	"strings"
)

// Shapes: what a kind of failure prints, with the names masked.
//
// The same failure about another thing (another module, port, crate,
// test) prints the same output with another name in it. The index groups
// the normalized outputs of its records by shape, the way log template
// miners such as Drain do: outputs with the same number of tokens that
// agree on at least shapeSim of them share a shape, and every position
// where the members of a shape disagree becomes a slot. A slot holds what
// the failure is about (the module, the port) or noise that normalization
// left (a generated identifier); the title tells them apart, since a
// record's title names what it is about. A record's key is the title terms
// its output prints in a slot that not every member of its shape prints
// there: its own name, not the kind's wording.
//
// A query whose output has the shape of a record, with another value in a
// key slot, is the same failure about another thing: another root cause.

// shapeSim is the share of positions two outputs must agree on to share a
// shape.
const shapeSim = 0.5

// shapeMinMembers is how many records a shape needs before its slots are
// trusted: with fewer, a slot may be chance.
const shapeMinMembers = 2

// Bounds on what is shaped: the first lines of an output say what failed.
const (
	shapeMaxLines  = 12
	shapeMaxTokens = 160
)

// lineBreak separates the lines of an output in its shape tokens.
const lineBreak = "⏎"

// shape is one mined output shape.
type shape struct {
	toks    []string // "" at a slot
	ids     []int32  // toks' ids (see stokIDs), 0 at a slot
	members int32
	// terms counts, per position, the members whose token there holds a
	// title term of theirs, by term. Only title terms are counted, so it
	// stays as small as the titles.
	terms []map[string]int32
	// titles counts the members whose title holds a term, by term: the
	// terms every member's title holds are the kind's own wording.
	titles map[string]int32
	// gen counts the shape's changes (members added or retired, slots
	// made), so a member's key worked out once serves until it changes.
	gen uint64
}

// shapeTokens splits normalized output into the tokens shapes compare:
// lower-case, whitespace-separated, lines marked, source file names
// masked (which file failed is where, not what).
func shapeTokens(norm string) []string {
	if norm == "" {
		return nil
	}
	var out []string
	for i, l := range strings.Split(strings.ToLower(norm), "\n") {
		if i >= shapeMaxLines {
			break
		}
		if i > 0 {
			out = append(out, lineBreak)
		}
		for _, t := range strings.Fields(l) {
			out = append(out, maskFile(t))
		}
		if len(out) >= shapeMaxTokens {
			return out[:shapeMaxTokens]
		}
	}
	return out
}

// maskFile replaces a source file name (handler.go:, './x.js';) with
// "<file>".
func maskFile(t string) string {
	core := strings.Trim(t, "'\"`()[]{},;:")
	if i := strings.LastIndexByte(core, '.'); i > 0 && sourceExts[core[i+1:]] {
		return "<file>"
	}
	return t
}

// similarity is the share of positions where s holds tok (slots do not
// count); -1 when the lengths differ.
// It compares the tokens by their ids (see stokIDs), and gives up, with
// -1, as soon as the positions left cannot bring it to least.
func (s *shape) similarity(ids []int32, least float64) float64 {
	if len(s.ids) != len(ids) {
		return -1
	}
	n := len(ids)
	need := least * float64(n)
	var eq int
	for i, id := range s.ids {
		if id != 0 && id == ids[i] {
			eq++
		} else if float64(eq+n-1-i) < need-1e-9 {
			return -1
		}
	}
	return float64(eq) / float64(n)
}

// findShape returns the shape toks fits best, or -1.
func (ix *Index) findShape(toks []string) int32 {
	if len(toks) == 0 {
		return -1
	}
	return ix.findShapeIDs(ix.stokIDs(toks, false))
}

func (ix *Index) findShapeIDs(ids []int32) int32 {
	best, bestSim := int32(-1), shapeSim
	for _, id := range ix.shapesByLen[len(ids)] {
		if sim := ix.shapes[id].similarity(ids, bestSim); sim >= bestSim {
			best, bestSim = id, sim
			if sim == 1 {
				break
			}
		}
	}
	return best
}

// stokIDs returns the ids of shape tokens, 0 for "": a token first met
// gets a new one when add is set, and -1 (equal to no shape's) when not.
func (ix *Index) stokIDs(toks []string, add bool) []int32 {
	ids := make([]int32, len(toks))
	for i, t := range toks {
		switch id, ok := ix.stoks[t]; {
		case t == "":
		case ok:
			ids[i] = id
		case add:
			ids[i] = int32(len(ix.stoks) + 1)
			ix.stoks[t] = ids[i]
		default:
			ids[i] = -1
		}
	}
	return ids
}

// addShape files toks, the shape tokens of a record with the given title
// terms, under the shape it fits, making slots where they disagree, or
// under a new shape. It returns the shape's id.
func (ix *Index) addShape(toks []string, title []string, inTitle func(string) bool) int32 {
	if len(toks) == 0 {
		return -1
	}
	ids := ix.stokIDs(toks, true)
	id := ix.findShapeIDs(ids)
	if id < 0 {
		id = int32(len(ix.shapes))
		ix.shapes = append(ix.shapes, &shape{
			toks:   append([]string(nil), toks...),
			ids:    ids,
			terms:  make([]map[string]int32, len(toks)),
			titles: make(map[string]int32),
		})
		ix.shapesByLen[len(toks)] = append(ix.shapesByLen[len(toks)], id)
	}
	s := ix.shapes[id]
	for i, t := range toks {
		if s.toks[i] != t {
			s.toks[i], s.ids[i] = "", 0
		}
	}
	s.members++
	s.gen++
	s.count(toks, inTitle, 1)
	for _, t := range title {
		s.titles[t]++
	}
	return id
}

// kindTerms returns the title terms every member of shape id holds: how
// the records that print this output name their kind of failure. It is
// empty when the shape has too few members to tell.
func (ix *Index) kindTerms(id int32) []string {
	if id < 0 || ix.shapes[id].members < shapeMinMembers {
		return nil
	}
	s := ix.shapes[id]
	var out []string
	for t, n := range s.titles {
		if n >= s.members {
			out = append(out, t)
		}
	}
	return out
}

// withoutFiller returns the kind terms that name a kind: two titles
// that both say "not" or "fails" share no kind by it, and a record whose
// title does not say it is of the same kind for all that.
func withoutFiller(kind []string) []string {
	out := kind[:0:0]
	for _, t := range kind {
		if !kindFiller[t] {
			out = append(out, t)
		}
	}
	return out
}

// kindFiller are title words that name no kind of failure.
var kindFiller = map[string]bool{"not": true, "no": true, "can": true, "cannot": true, "cant": true, "won": true, "wont": true,
	"does": true, "doesn": true, "isn": true, "don": true, "fails": true, "failed": true, "failing": true, "fail": true,
	"error": true, "errors": true, "broken": true, "breaks": true, "after": true, "with": true, "on": true, "in": true,
	"for": true, "the": true, "and": true, "from": true, "when": true, "of": true, "to": true, "is": true, "my": true}

// count adds d to the title-term counts of toks.
func (s *shape) count(toks []string, inTitle func(string) bool, d int32) {
	for i, t := range toks {
		for _, term := range uniq(Tokenize(t)) {
			if !inTitle(term) {
				continue
			}
			if s.terms[i] == nil {
				s.terms[i] = make(map[string]int32)
			}
			s.terms[i][term] += d
		}
	}
}

// keySlot is one slot of a record's key: where its output prints it and
// the key terms it holds there.
type keySlot struct {
	pos   int
	terms []string
	ids   []int32 // the terms' lex ids, so a search looks none up
}

// shapeKey returns the key of a record (see the comment at the top of
// this file) and whether its shape has enough members to tell.
func (ix *Index) shapeKey(e *entry) ([]keySlot, bool) {
	if e.shape < 0 {
		return nil, false
	}
	s := ix.shapes[e.shape]
	if s.members < shapeMinMembers {
		return nil, false
	}
	// Searches run under the read lock, side by side: the key is kept
	// through an atomic pointer, for the shape as it stood (gen).
	if k := e.key.Load(); k != nil && k.gen == s.gen {
		return k.slots, true
	}
	out := ix.workShapeKey(e, s)
	e.key.Store(&cachedKey{gen: s.gen, slots: out})
	return out, true
}

// cachedKey is a record's key (see shapeKey) as of its shape's gen.
type cachedKey struct {
	gen   uint64
	slots []keySlot
}

// workShapeKey works out the key of e, a member of shape s.
func (ix *Index) workShapeKey(e *entry, s *shape) []keySlot {
	var out []keySlot
	for i, t := range s.toks {
		if t != "" {
			continue
		}
		var terms []string
		var ids []int32
		for _, term := range uniq(Tokenize(e.stoks[i])) {
			if ix.inTitle(e, term) && s.terms[i][term] < s.members {
				id, ok := ix.lex.ids[term]
				if !ok {
					id = -1
				}
				terms, ids = append(terms, term), append(ids, id)
			}
		}
		if len(terms) > 0 {
			out = append(out, keySlot{i, terms, ids})
		}
	}
	return out
}

// inTitle reports whether term is one of e's title terms.
func (ix *Index) inTitle(e *entry, term string) bool {
	id, ok := ix.lex.ids[term]
	if !ok {
		return false
	}
	for _, t := range e.title {
		if t == id {
			return true
		}
	}
	return false
}

// queryKey returns what a query's output says it is about, read through
// the shape qShape it has: for each key slot of the shape, the terms the
// query prints there. A slot is a key slot when at least half the members print there a title
// term of their own (one that fewer than half the members' titles hold,
// so not the kind's wording). Terms that many members print in the slot
// (github, com, acme: the key's frame) are left out; what remains is the
// query's own object, which a record about the same thing names in its
// title. Slots where nothing remains are dropped.
func (ix *Index) queryKey(qShape int32, qToks []string) [][]string {
	if qShape < 0 {
		return nil
	}
	s := ix.shapes[qShape]
	if s.members < shapeMinMembers || len(qToks) != len(s.toks) {
		return nil
	}
	half := float64(s.members) / 2
	var out [][]string
	for i, t := range s.toks {
		if t != "" || s.terms[i] == nil {
			continue
		}
		var own float64
		for term, n := range s.terms[i] {
			if !s.frame(i, term) {
				own += float64(n)
			}
		}
		if own < half {
			continue
		}
		var terms []string
		for _, term := range uniq(Tokenize(qToks[i])) {
			if !s.frame(i, term) {
				terms = append(terms, term)
			}
		}
		if len(terms) > 0 {
			out = append(out, terms)
		}
	}
	return out
}

// frame reports whether term, printed at position i, is the kind's
// wording (half the members' titles hold it) or the frame every key in
// the slot shares (github, com, acme: a quarter of the members print it
// there), rather than a name of its own.
func (s *shape) frame(i int, term string) bool {
	if 2*s.titles[term] >= s.members {
		return true
	}
	n := s.terms[i][term]
	return n >= 2 && 4*n >= s.members
}

// lacksQueryKey reports whether e's title names none of the terms the
// query prints in one of its key slots (see queryKey), and those terms.
func (ix *Index) lacksQueryKey(qKey [][]string, e *entry) (bool, string) {
	for _, slot := range qKey {
		named := false
		for _, term := range slot {
			if id, ok := ix.lex.ids[term]; ok {
				if _, in := slices.BinarySearch(e.title, id); in {
					named = true
					break
				}
			}
		}
		if !named {
			return true, strings.Join(slot, " ")
		}
	}
	return false, ""
}
