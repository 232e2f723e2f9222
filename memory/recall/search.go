package recall

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// BM25 parameters: the usual ones; notes are short, so length
// normalization stays at the textbook strength.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// errOverlapShare caps what token overlap of error output can earn
// relative to an exact signature match: similar output is a hint, the same
// normalized output is evidence.
const errOverlapShare = 0.8

// Candidate generation only walks postings of terms that are rare enough to
// say something; a term in more than commonShare of the records (but at
// least commonFloor of them) is scored for candidates found through the
// rare ones. This keeps a query's cost bounded at 100k records.
const (
	commonShare = 0.10
	commonFloor = 1000
)

// maxCandidates bounds how many records get the full scoring pass, and
// maxPool how many are looked at, best estimate first, to find them:
// records the key and kind checks silence (see silenced) are passed over
// at a fraction of the cost. At 100k records a kind of failure has
// hundreds of records about other objects whose wording matches a query
// better than the record about its own object, printed by another tool
// version, does; the estimate cannot tell them apart, the checks can.
const (
	maxCandidates = 200
	maxPool       = 1000
)

// scratch holds a search's per-document accumulators; it is pooled
// because it is as long as the index.
type scratch struct {
	acc     []accum
	touched []int32
}

type accum struct {
	lex  float32 // BM25 over rare terms
	err  float32 // sum of idf² of shared rare error terms
	sym  float32 // sum of idf² of shared symbols
	sig  bool
	seen bool
}

// preparedQuery is a Query broken into the terms each index understands.
type preparedQuery struct {
	q        Query
	sigs     []string
	lexTerms []string
	errTerms []string
	syms     []string
	stoks    []string // shape tokens of the error output
	// nums are the numbers text and raw output print, before
	// normalization masks any (see entry.masked).
	nums []string
	now  time.Time
}

func prepare(q Query) preparedQuery {
	p := preparedQuery{q: q, now: q.Now}
	if p.now.IsZero() {
		p.now = time.Now()
	}
	norm := NormalizeError(q.ErrorText)
	p.sigs = uniq([]string{signatureOfNormalized(norm), q.ErrorSignature})
	skip := projectTerms(q.Project)
	p.errTerms = without(uniq(Tokenize(norm)), skip)
	p.stoks = shapeTokens(norm)
	for _, t := range append(Tokenize(q.Text), Tokenize(q.ErrorText)...) {
		if isDigits(t) {
			p.nums = append(p.nums, t)
		}
	}
	p.lexTerms = without(uniq(append(Tokenize(q.Text), p.errTerms...)), skip)
	syms := lowerAll(q.Symbols)
	syms = append(syms, symbolsOfNormalized(norm)...)
	syms = append(syms, CodeSymbols(q.Text)...)
	p.syms = withoutProject(uniq(syms), q.Project)
	return p
}

func without(terms []string, skip map[string]bool) []string {
	if len(skip) == 0 {
		return terms
	}
	out := terms[:0]
	for _, t := range terms {
		if !skip[t] {
			out = append(out, t)
		}
	}
	return out
}

// bm25IDF is the non-negative BM25 idf. A term no record has gets the
// largest idf, so words only the query knows lower its normalized score.
func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Search returns up to limit records that fit q, best first, each with the
// reasons for its score. Records scoring below w.MinScore are never
// returned, so a query for something the index does not know returns
// nothing. Invalid weights (see Weights.Validate) return nothing.
func (ix *Index) Search(q Query, w Weights, limit int) []Hit {
	if limit <= 0 || w.Validate() != nil {
		return nil
	}
	p := prepare(q)

	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 {
		return nil
	}
	sc := ix.getScratch()
	defer ix.putScratch(sc)

	rareCap := max(int(commonShare*float64(ix.live)), commonFloor)
	avgLen := float32(ix.lexTotal / float64(max(ix.live, 1)))
	if avgLen == 0 {
		avgLen = 1
	}

	touch := func(d int32) *accum {
		a := &sc.acc[d]
		if !a.seen {
			a.seen = true
			sc.touched = append(sc.touched, d)
		}
		return a
	}

	// Lexical: BM25 over the rare query terms.
	var lexMax float64 // the BM25 bound: every query term, saturated
	var lexCommon []int32
	for _, t := range p.lexTerms {
		id, ok := ix.lex.ids[t]
		df := 0
		if ok {
			df = int(ix.lex.df[id])
		}
		idf := bm25IDF(ix.live, df)
		lexMax += idf * (bm25K1 + 1)
		if !ok || df == 0 {
			continue
		}
		if df > rareCap {
			lexCommon = append(lexCommon, id)
			continue
		}
		fidf := float32(idf)
		for _, ps := range ix.lex.postings[id] {
			if ix.entries[ps.doc] == nil {
				continue
			}
			e := ix.entries[ps.doc]
			norm := bm25K1 * (1 - bm25B + bm25B*e.lexLen/avgLen)
			touch(ps.doc).lex += fidf * ps.tf * (bm25K1 + 1) / (ps.tf + norm)
		}
	}

	// Error output: exact signatures, then shared normalized tokens.
	for _, s := range p.sigs {
		for _, d := range ix.sigs[s] {
			if ix.entries[d] != nil {
				touch(d).sig = true
			}
		}
	}
	var errQNorm float64
	var errCommon []int32
	errCap := max(int(commonShare*float64(ix.errDocs)), commonFloor)
	for _, t := range p.errTerms {
		id, ok := ix.errs.ids[t]
		df := 0
		if ok {
			df = int(ix.errs.df[id])
		}
		idf := bm25IDF(ix.errDocs, df)
		errQNorm += idf * idf
		if !ok || df == 0 {
			continue
		}
		if df > errCap {
			errCommon = append(errCommon, id)
			continue
		}
		for _, ps := range ix.errs.postings[id] {
			if ix.entries[ps.doc] != nil {
				touch(ps.doc).err += float32(idf * idf)
			}
		}
	}
	errQNorm = math.Sqrt(errQNorm)

	// Code symbols.
	var symQNorm float64
	for _, s := range p.syms {
		id, ok := ix.syms.ids[s]
		df := 0
		if ok {
			df = int(ix.syms.df[id])
		}
		idf := bm25IDF(ix.symDocs, df)
		symQNorm += idf * idf
		if !ok || df == 0 {
			continue
		}
		for _, ps := range ix.syms.postings[id] {
			if ix.entries[ps.doc] != nil {
				touch(ps.doc).sym += float32(idf * idf)
			}
		}
	}
	symQNorm = math.Sqrt(symQNorm)

	// The query's terms as lex ids, for key agreement.
	qIDs := make([]int32, 0, len(p.lexTerms))
	var unknownTerm bool
	for _, t := range p.lexTerms {
		if id, ok := ix.lex.ids[t]; ok && ix.lex.df[id] > 0 {
			qIDs = append(qIDs, id)
		} else {
			unknownTerm = true
		}
	}
	slices.Sort(qIDs)

	qSyms := make([]int32, 0, len(p.syms))
	for _, s := range p.syms {
		id, ok := ix.syms.ids[s]
		if !ok {
			id = -1
		}
		qSyms = append(qSyms, id)
	}

	offered := contentOffer{
		err: len(p.sigs) > 0 || len(p.errTerms) > 0,
		lex: len(p.lexTerms) > 0,
		sym: len(p.syms) > 0,
	}
	scale := offered.scale(w)
	if scale == 0 {
		return nil
	}

	// Preselect by a cheap content estimate, then score the best fully
	// (see maxPool).
	top := &candHeap{}
	for _, d := range sc.touched {
		a := sc.acc[d]
		est := 0.0
		if offered.lex && lexMax > 0 {
			est += w.Lexical * float64(a.lex) / lexMax
		}
		if a.sig {
			est += w.ErrorSignature
		} else if errQNorm > 0 {
			est += w.ErrorSignature * errOverlapShare * float64(a.err) / (errQNorm * errQNorm)
		}
		// est over-rates exact signatures on purpose: they are few and
		// must all reach the full pass.
		if symQNorm > 0 {
			est += w.CodeSymbol * float64(a.sym) / (symQNorm * symQNorm)
		}
		if top.Len() < maxPool {
			heap.Push(top, cand{d, est})
		} else if est > (*top)[0].est {
			(*top)[0] = cand{d, est}
			heap.Fix(top, 0)
		}
	}

	pool := *top
	slices.SortFunc(pool, func(a, b cand) int {
		if a.est != b.est {
			if a.est > b.est {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	})
	in := ix.queryInputs(p, pool[:min(len(pool), maxCandidates)], scoreInputs{
		avgLen: avgLen, lexMax: lexMax, lexCommon: lexCommon,
		errQNorm: errQNorm, errCommon: errCommon, symQNorm: symQNorm,
		offered: offered, scale: scale, qIDs: qIDs, qSyms: qSyms,
		unknownTerm: unknownTerm,
	})
	var hits []Hit
	// The best and second best below the floor, for the lead rule.
	var lead, runnerUp Hit
	scored := 0
	for _, c := range pool {
		if scored >= maxCandidates {
			break
		}
		h, v := ix.score(p, w, c.doc, sc.acc[c.doc], in)
		if v != silent {
			scored++
		}
		if v != matched {
			continue
		}
		if h.Score >= w.MinScore {
			hits = append(hits, h)
			continue
		}
		if h.Score > lead.Score {
			lead, runnerUp = h, lead
		} else if h.Score > runnerUp.Score {
			runnerUp = h
		}
	}
	if len(hits) == 0 && offered.err && leads(w, lead, runnerUp) {
		hits = append(hits, lead)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// queryInputs adds to in what the query's output shape and words say
// about it: its shape, kind and key, or, for a query without output, the
// kinds its words name among the candidates cands.
func (ix *Index) queryInputs(p preparedQuery, cands []cand, in scoreInputs) scoreInputs {
	in.qShape = ix.findShape(p.stoks)
	in.qKind = ix.kindTerms(in.qShape)
	in.qKey = ix.queryKey(in.qShape, p.stoks)
	if len(in.qKind) == 0 && !in.offered.err {
		in.named = ix.namedKinds(cands, in.qIDs)
	}
	return in
}

// leads reports whether a hit below the floor is still the answer to a
// failing tool result: it scores at least w.LeadFloor, w.Lead times the
// next record, its output overlaps the query's, and neither the key nor
// the kind check took anything from it. A failure stored once and printed
// in other words by another tool version finds its record this way: the
// output shares little with it, but with nothing else at all. A
// never-stored failure whose output resembles a stored one loosely
// resembles many, or is about another object or kind.
func leads(w Weights, h, next Hit) bool {
	if w.Lead <= 0 || h.ID == "" || h.Score < w.LeadFloor || h.Score < w.Lead*next.Score {
		return false
	}
	var output bool
	for _, r := range h.Reasons {
		switch {
		case r.Signal == SignalErrorSignature && r.Contribution > 0:
			output = true
		case r.Signal == SignalCodeSymbol && r.Contribution < 0:
			return false
		}
	}
	return output
}

// contentOffer records which content signals a query can feed.
type contentOffer struct{ err, lex, sym bool }

// scale spreads the weight of content signals the query cannot use over
// those it can, so a prompt without error output reaches the same score
// range as a failing tool result and one floor serves both.
func (o contentOffer) scale(w Weights) float64 {
	total := w.contentTotal()
	used := w.Key
	if o.err {
		used += w.ErrorSignature
	}
	if o.lex {
		used += w.Lexical
	}
	if o.sym {
		used += w.CodeSymbol
	}
	if used == 0 {
		return 0
	}
	return total / used
}

type scoreInputs struct {
	avgLen    float32
	lexMax    float64
	lexCommon []int32
	errQNorm  float64
	errCommon []int32
	symQNorm  float64
	offered   contentOffer
	scale     float64
	qIDs      []int32     // the query's lex ids, sorted
	qSyms     []int32     // the query's symbol ids (-1 for unknown symbols)
	qShape    int32       // the shape of the query's output, or -1
	qKind     []string    // see kindTerms
	qKey      [][]string  // see queryKey
	named     []namedKind // see namedKinds
	// unknownTerm is set when the query holds a term no record holds:
	// often the name of something the memory has never seen.
	unknownTerm bool
}

// verdict says what score made of a record.
type verdict int

const (
	matched   verdict = iota // the hit has content
	unmatched                // no content score: nothing in common
	silent                   // the key and kind checks silence it (see silenced)
)

// score computes the full score of doc number d with its reasons. A
// record the key and kind checks silence is not scored: its hit only
// names the check.
func (ix *Index) score(p preparedQuery, w Weights, d int32, a accum, in scoreInputs) (Hit, verdict) {
	e := ix.entries[d]
	ka, kaOK, foreign, why := ix.silenced(p, w, in, e)
	if why != "" {
		return Hit{ID: e.doc.ID, Title: e.doc.Title, Reasons: []Reason{{Signal: SignalCodeSymbol, Value: why}}}, silent
	}
	var reasons []Reason
	add := func(s Signal, v string, c float64) {
		if c != 0 {
			reasons = append(reasons, Reason{Signal: s, Value: clip(v), Contribution: c})
		}
	}

	// Content signals, each 0..1.
	var sLex float64
	if in.offered.lex && in.lexMax > 0 {
		bm := float64(a.lex)
		for _, id := range in.lexCommon {
			if tf, ok := lookupTF(e.lex, id); ok {
				idf := bm25IDF(ix.live, int(ix.lex.df[id]))
				norm := bm25K1 * (1 - bm25B + bm25B*float64(e.lexLen/in.avgLen))
				bm += idf * float64(tf) * (bm25K1 + 1) / (float64(tf) + norm)
			}
		}
		sLex = bm / in.lexMax
	}
	var sErr float64
	var errValue string
	if in.errQNorm > 0 && len(e.errTerms) > 0 {
		dot := float64(a.err)
		for _, id := range in.errCommon {
			if _, ok := slices.BinarySearch(e.errTerms, id); ok {
				idf := bm25IDF(ix.errDocs, int(ix.errs.df[id]))
				dot += idf * idf
			}
		}
		var dn float64
		for _, id := range e.errTerms {
			idf := bm25IDF(ix.errDocs, int(ix.errs.df[id]))
			dn += idf * idf
		}
		if dot > 0 && dn > 0 {
			sErr = errOverlapShare * dot / (in.errQNorm * math.Sqrt(dn))
			errValue = "similar output: " + ix.sharedErrTerms(p.errTerms, e.errTerms, 6)
		}
	}
	if a.sig {
		// An exact signature shared by many records names a kind of
		// failure rather than a cause, so it counts by its rarity.
		for _, s := range e.sigs {
			if !slices.Contains(p.sigs, s) {
				continue
			}
			n := max(ix.errDocs, ix.sigDF[s])
			spec := bm25IDF(n, ix.sigDF[s]) / bm25IDF(n, 1)
			if spec >= sErr {
				sErr, errValue = spec, s
			}
		}
	}
	var sSym float64
	var symValue string
	if in.symQNorm > 0 && a.sym > 0 {
		var dn float64
		var matched []string
		for _, id := range e.syms {
			idf := bm25IDF(ix.symDocs, int(ix.syms.df[id]))
			dn += idf * idf
		}
		for _, s := range p.syms {
			if id, ok := ix.syms.ids[s]; ok {
				if _, found := slices.BinarySearch(e.syms, id); found {
					matched = append(matched, s)
				}
			}
		}
		sSym = float64(a.sym) / (in.symQNorm * math.Sqrt(dn))
		symValue = strings.Join(matched, ", ")
	}

	cErr := w.ErrorSignature * sErr * in.scale
	cLex := w.Lexical * sLex * in.scale
	cSym := w.CodeSymbol * sSym * in.scale
	if cErr+cLex+cSym <= 0 {
		return Hit{}, unmatched
	}
	add(SignalErrorSignature, errValue, cErr)
	add(SignalLexical, ix.topLexTerms(p.lexTerms, e.lex, 6), cLex)
	add(SignalCodeSymbol, symValue, cSym)
	// Key agreement: a record is about what its title names. The same
	// failure about another thing (another module, test, crate or
	// package) is another root cause: the wording matches, the object
	// does not. The record loses KeyMiss (at most all) of its content
	// score times the share of its key the query does not name (the
	// whole of it was taken above; see silenced).
	if kaOK {
		if c := w.Key * ka.cov * in.scale; c > 0 {
			add(SignalCodeSymbol, "names "+ka.matched, c)
			cSym += c
		}
		if share := keyMissShare(w, ka, foreign); share > 0 {
			total := cErr + cLex + cSym
			add(SignalCodeSymbol, "record is about "+ka.missing+", which the query does not name", -share*total)
			// Keep content equal to the sum of the reasons.
			cErr, cLex, cSym = cErr*(1-share), cLex*(1-share), cSym*(1-share)
		}
	}
	content := cErr + cLex + cSym
	if content <= 0 {
		return Hit{}, unmatched
	}

	// Context signals scale with how well the content matched, so context
	// alone can reorder matches but never make one.
	gate := content / w.contentTotal()
	doc := e.doc
	if p.q.ToolName != "" && slices.Contains(e.tools, strings.ToLower(p.q.ToolName)) {
		add(SignalToolName, p.q.ToolName, w.ToolName*gate)
	}
	if p.q.Project != "" && strings.EqualFold(p.q.Project, doc.Project) {
		add(SignalSameProject, doc.Project, w.SameProject*gate)
	}
	if s, v := envMatch(p.q.Environment, doc.Environment); s > 0 {
		add(SignalEnvironment, v, w.Environment*s*gate)
	}
	if qo, do := strings.ToLower(p.q.Environment["os"]), doc.Environment["os"]; qo != "" && do != "" && qo != do {
		// The same message on another OS often has another fix.
		add(SignalEnvironment, "record is from os="+do+", query from os="+qo, -w.Environment*osMissShare*gate)
	}
	if p.q.Phase != "" && strings.EqualFold(p.q.Phase, doc.Phase) {
		add(SignalPhase, doc.Phase, w.Phase*gate)
	}
	if len(p.q.Dimensions) > 0 {
		names := sortedKeys(p.q.Dimensions)
		per := w.Dimension * gate / float64(len(names))
		for _, name := range names {
			if v, ok := dimMatch(p.q.Dimensions[name], doc.Dimensions[name]); ok {
				add(SignalDimension, name+"="+v, per)
			}
		}
	}
	if !doc.UpdatedAt.IsZero() && w.RecencyHalfLife > 0 {
		age := p.now.Sub(doc.UpdatedAt)
		if age < 0 {
			age = 0
		}
		r := math.Exp2(-float64(age) / float64(w.RecencyHalfLife))
		add(SignalRecency, doc.UpdatedAt.UTC().Format("2006-01-02"), w.Recency*r*gate)
	}
	if t := trustLevel(doc.Trust); t > 0 {
		add(SignalTrust, string(doc.Trust), w.Trust*t*gate)
	}
	if n := doc.EvidenceCount + doc.Marks.UsedThenPassed; n > 0 {
		add(SignalEvidence, fmt.Sprintf("evidence=%d", n), w.Evidence*float64(n)/float64(n+1)*gate)
	}
	if s, v := negative(doc); s > 0 {
		add(SignalNegative, v, -w.Negative*s)
	}

	var total float64
	for _, r := range reasons {
		total += r.Contribution
	}
	trust := doc.Trust
	if trust == "" {
		trust = TrustRaw
	}
	return Hit{
		ID: doc.ID, Title: doc.Title, Trust: trust, Score: total, Reasons: reasons,
		Marks: doc.Marks.names(doc.Superseded), Project: doc.Project, UpdatedAt: doc.UpdatedAt,
	}, matched
}

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
			for _, t := range k.terms {
				if same {
					found = found && slices.Contains(qTerms, t)
				} else if id, ok := ix.lex.ids[t]; ok {
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
			if allIn(o.terms, q) {
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

// negative scores 0..1 how strongly receipts argue against a record.
// Superseded is final; contradictions weigh more than a failed task, and a
// later pass cancels a failure.
func negative(d Doc) (float64, string) {
	var s float64
	var why []string
	if d.Superseded || d.Marks.Superseded > 0 {
		s += 1
		why = append(why, "superseded")
	}
	if d.Marks.Contradicted > 0 {
		s += 0.4 * float64(d.Marks.Contradicted)
		why = append(why, fmt.Sprintf("contradicted×%d", d.Marks.Contradicted))
	}
	if f := d.Marks.TaskFailed - d.Marks.UsedThenPassed; f > 0 {
		s += 0.25 * float64(f)
		why = append(why, fmt.Sprintf("task_failed×%d", d.Marks.TaskFailed))
	}
	if d.ConflictsWith {
		s += 0.3
		why = append(why, "conflicts_with")
	}
	return math.Min(1, s), strings.Join(why, ", ")
}

// osMissShare is the share of the environment weight a record loses when
// it was written on another operating system than the query's.
const osMissShare = 0.5

// envWeight makes the operating system count double: the same message on
// another OS often has another fix.
func envWeight(key string) float64 {
	if key == "os" {
		return 2
	}
	return 1
}

// envMatch scores 0..1 how well a record's environment fits the query's:
// each query key the record states counts as a match or a miss; keys the
// record does not state count half, as it may apply anywhere.
func envMatch(q, d map[string]string) (float64, string) {
	if len(q) == 0 {
		return 0, ""
	}
	var got, total float64
	var matched []string
	for _, k := range sortedKeys(q) {
		wt := envWeight(k)
		total += wt
		qv := strings.ToLower(strings.TrimSpace(q[k]))
		dv, ok := d[k]
		switch {
		case !ok || dv == "":
			got += wt / 2
		case sameEnvValue(qv, dv):
			got += wt
			matched = append(matched, k+"="+dv)
		}
	}
	if len(matched) == 0 {
		return 0, ""
	}
	return got / total, strings.Join(matched, ", ")
}

// sameEnvValue compares versions by major number ("20.11.1" fits "20.3")
// and everything else exactly.
func sameEnvValue(a, b string) bool {
	if a == b {
		return true
	}
	ma, okA := majorVersion(a)
	mb, okB := majorVersion(b)
	return okA && okB && ma == mb
}

func majorVersion(v string) (string, bool) {
	v = strings.TrimPrefix(v, "v")
	i := strings.IndexByte(v, '.')
	if i <= 0 || !isDigits(v[:i]) {
		return "", false
	}
	// Go and Python break compatibility on the minor number.
	if v[:i] == "1" || v[:i] == "3" || v[:i] == "0" {
		j := strings.IndexByte(v[i+1:], '.')
		if j < 0 {
			return v, true
		}
		return v[:i+1+j], true
	}
	return v[:i], true
}

func dimMatch(q, d []string) (string, bool) {
	for _, a := range q {
		for _, b := range d {
			if strings.EqualFold(a, b) {
				return a, true
			}
		}
	}
	return "", false
}

func lookupTF(terms []termTF, id int32) (float32, bool) {
	i, ok := slices.BinarySearchFunc(terms, id, func(t termTF, id int32) int { return int(t.term - id) })
	if !ok {
		return 0, false
	}
	return terms[i].tf, true
}

// topLexTerms names the query terms the record holds, rarest first.
func (ix *Index) topLexTerms(q []string, terms []termTF, n int) string {
	type tw struct {
		t  string
		df int32
	}
	var found []tw
	for _, t := range q {
		if id, ok := ix.lex.ids[t]; ok {
			if _, ok := lookupTF(terms, id); ok {
				found = append(found, tw{t, ix.lex.df[id]})
			}
		}
	}
	slices.SortStableFunc(found, func(a, b tw) int { return int(a.df - b.df) })
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].t)
	}
	return strings.Join(out, " ")
}

// sharedErrTerms names the error tokens query and record share, rarest first.
func (ix *Index) sharedErrTerms(q []string, terms []int32, n int) string {
	type tw struct {
		t  string
		df int32
	}
	var found []tw
	for _, t := range q {
		if id, ok := ix.errs.ids[t]; ok {
			if _, ok := slices.BinarySearch(terms, id); ok {
				found = append(found, tw{t, ix.errs.df[id]})
			}
		}
	}
	slices.SortStableFunc(found, func(a, b tw) int { return int(a.df - b.df) })
	var out []string
	for i := 0; i < len(found) && i < n; i++ {
		out = append(out, found[i].t)
	}
	return strings.Join(out, " ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// clip keeps a reason value within the schema's 512 characters.
func clip(s string) string {
	if len(s) <= 512 {
		return s
	}
	s = s[:509]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	return s + "..."
}

func (ix *Index) getScratch() *scratch {
	sc, _ := ix.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if len(sc.acc) < len(ix.entries) {
		sc.acc = make([]accum, len(ix.entries)+len(ix.entries)/4)
	}
	return sc
}

// putScratch clears only the touched accumulators, so a search costs what
// it touched, not the index size.
func (ix *Index) putScratch(sc *scratch) {
	for _, d := range sc.touched {
		sc.acc[d] = accum{}
	}
	sc.touched = sc.touched[:0]
	ix.scratch.Put(sc)
}

type cand struct {
	doc int32
	est float64
}

// candHeap is a min-heap on est: its root is the weakest kept candidate.
type candHeap []cand

func (h candHeap) Len() int           { return len(h) }
func (h candHeap) Less(i, j int) bool { return h[i].est < h[j].est }
func (h candHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)        { *h = append(*h, x.(cand)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
