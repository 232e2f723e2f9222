package recall

import (
	"container/heap"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

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
	maxCandidates = 120
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
	// norm is the normalized error output, lower-case, and quoted its
	// quoted names (see quoted.go).
	norm   string
	quoted []quotedName
	// nums are the numbers text and raw output print, before
	// normalization masks any (see entry.masked).
	nums []string
	now  time.Time
}

func prepare(q Query) preparedQuery {
	q.Environment = lowerMap(q.Environment)
	p := preparedQuery{q: q, now: q.Now}
	if p.now.IsZero() {
		p.now = time.Now()
	}
	norm := NormalizeError(q.ErrorText)
	p.sigs = uniq([]string{signatureOfNormalized(norm), q.ErrorSignature})
	skip := projectTerms(q.Project)
	p.errTerms = without(uniq(Tokenize(norm)), skip)
	p.stoks = shapeTokens(norm)
	p.norm, p.quoted = strings.ToLower(norm), append(quotedNames(norm), dependencyNames(q.ErrorText)...)
	for _, t := range append(Tokenize(q.Text), Tokenize(q.ErrorText)...) {
		if isDigits(t) {
			p.nums = append(p.nums, t)
		}
	}
	p.nums = append(p.nums, reTitleVersion.FindAllString(q.Text+"\n"+q.ErrorText, -1)...)
	p.nums = append(p.nums, normPorts(norm)...)
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

// Search returns up to limit records that fit q, best first, each with the
// reasons for its score. Records scoring below w.MinScore are not
// returned, so a query for something the index does not know returns
// nothing; the one exception is the lead rule (see leads), for a failing
// tool result that leaves every record below the floor. Invalid weights
// (see Weights.Validate) return nothing.
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

	in := scoreInputs{avgLen: ix.avgLexLen()}
	in.lexMax, in.lexCommon = ix.collectLexical(sc, p.lexTerms, in.avgLen)
	ix.collectSignatures(sc, p.sigs)
	in.errQNorm, in.errCommon = ix.collectOutput(sc, p.errTerms)
	in.symQNorm = ix.collectSymbols(sc, p.syms)
	in.qIDs, in.unknownTerm = ix.lexIDs(p.lexTerms)
	in.cmdIDs, _ = ix.lexIDs(Tokenize(q.Command))
	in.qText = strings.ToLower(q.Text + "\n" + q.Command + "\n" + q.ErrorText)
	in.qSyms = ix.symbolIDs(p.syms)
	in.qBigrams, in.qWords = ix.queryBigrams(p.norm)
	in.qLines = newQueryLines(&ix.errs, p.norm, projectTerms(q.Project))
	in.offered = contentOffer{
		err: len(p.sigs) > 0 || len(p.errTerms) > 0,
		lex: len(p.lexTerms) > 0,
		sym: len(p.syms) > 0,
	}
	in.scale = in.offered.scale(w)
	if in.scale == 0 {
		return nil
	}

	if q.Allow != nil {
		// Records the asker may not read are no candidates at all, so they
		// take no place in the pool another record could have had.
		in.denied = func(d int32) bool { return !q.Allow(ix.entries[d].doc.ID) }
	}
	pool := ix.allowedPool(sc, w, in)
	in = ix.queryInputs(p, pool[:min(len(pool), maxCandidates)], in)
	hits, below, lead, runnerUp := ix.scorePool(p, w, sc, pool, in)
	if len(hits) == 0 && in.offered.err && leads(w, lead, runnerUp) && ix.namesTool(lead.ID, q.Command) {
		hits = append(hits, lead)
	}
	if in.offered.err {
		hits = boundTwin(hits, below, p.q.Environment["os"], w)
	}
	hits = osRivals(hits, p.q.Environment["os"], w.MinScore)
	return rank(hits, limit)
}

// twinShare is how much of the best hit's error signal a note for the
// query's system needs to be its twin: the same output, quoted about as
// well.
const twinShare = 0.5

// boundTwin lets a note whose words tie its fix to the query's system
// (Doc.PlatformBound) take the place of the best match when that match
// was written on another system and the two match the output alike: the
// writer met the same failure there and said its fix is another. Such a
// twin often quotes less than the note it follows ("Same toolchain
// error on my Windows box"), so it may sit below the floor, and its
// title often names its system's cause (pinentry-mac, Homebrew), an
// object the output does not print; matched alike, the system decides
// between them, as a platform-bound hit on another system loses to its
// twin (osBoundShare). The best match is the best hit, or with none the
// best record below the floor, when the twin reaches the lead rule's
// floor. The other system's note loses osBoundShare of its content
// score, and is dropped if that takes it below the floor.
func boundTwin(hits, below []Hit, qOS string, w Weights) []Hit {
	if qOS == "" {
		return hits
	}
	top, from := -1, hits
	if len(hits) == 0 {
		from = below
	}
	for i, h := range from {
		if top < 0 || h.Score > from[top].Score {
			top = i
		}
	}
	if top < 0 || from[top].os == "" || from[top].os == qOS {
		return hits
	}
	a := from[top]
	twin := -1
	cands := append(slices.Clone(hits), below...)
	for i, b := range cands {
		if b.ID == a.ID || !b.bound || b.os != qOS || len(hits) == 0 && b.Score < w.LeadFloor {
			continue
		}
		alike := b.errShare >= twinShare*a.errShare && b.content >= osRivalShare*a.content && !b.objMissed
		if !alike && !(b.objMissed && b.errShare >= a.errShare) {
			continue
		}
		if twin < 0 || b.Score > cands[twin].Score {
			twin = i
		}
	}
	if twin < 0 {
		return hits
	}
	b := cands[twin]
	c := -osBoundShare * a.content
	a.Reasons = append(a.Reasons, Reason{Signal: SignalEnvironment, Value: clip("written on os=" + a.os + ", where " + b.Title + " is for os=" + qOS), Contribution: c})
	a.Score += c
	out := make([]Hit, 0, len(hits)+1)
	for _, h := range hits {
		switch {
		case h.ID == a.ID && a.Score >= w.MinScore:
			out = append(out, a)
		case h.ID != a.ID && h.ID != b.ID:
			out = append(out, h)
		}
	}
	if b.Score <= a.Score {
		// The twin ranks first: what it is pushed for is its own system.
		b.Score = a.Score + 1e-6
	}
	return append(out, b)
}

// osRivals takes osOtherShare of its content score from each hit
// written on another operating system than the query's when another hit,
// with at least osRivalShare of its content score, was written on the
// query's: the same output on two systems usually has two fixes, and the
// one written where the failure happens now is the one that applies.
// Alone, a note from another system keeps its score: most failures read
// and mend alike everywhere. A hit the penalty takes below floor is
// dropped.
func osRivals(hits []Hit, qOS string, floor float64) []Hit {
	if qOS == "" {
		return hits
	}
	kept := hits[:0]
	for i := range hits {
		h := hits[i]
		if rival := osRival(hits, h, qOS); rival != "" {
			c := -osOtherShare * h.content
			h.Reasons = append(h.Reasons, Reason{Signal: SignalEnvironment, Value: clip("written on os=" + h.os + ", where " + rival + " was written on os=" + qOS), Contribution: c})
			h.Score += c
			if h.Score < floor {
				continue
			}
		}
		kept = append(kept, h)
	}
	return kept
}

// osRival returns the title of a hit written on the query's system qOS
// that rivals h, written on another (see osRivals), or "".
func osRival(hits []Hit, h Hit, qOS string) string {
	if h.os == "" || h.os == qOS || h.bound {
		return ""
	}
	for _, r := range hits {
		if r.os == qOS && r.content >= osRivalShare*h.content {
			return r.Title
		}
	}
	return ""
}

// avgLexLen is the mean lexical length BM25 normalizes by; never 0,
// since it divides.
func (ix *Index) avgLexLen() float32 {
	avg := float32(ix.lexTotal / float64(max(ix.live, 1)))
	if avg == 0 {
		return 1
	}
	return avg
}

// rareCap is the document frequency, among n records, above which a term
// is too common to walk the postings of (see commonShare).
func rareCap(n int) int {
	return max(int(commonShare*float64(n)), commonFloor)
}

// collectLexical adds BM25 over the query's rare terms to the records
// that hold them. It returns the BM25 bound for the query (every term,
// saturated), so scores compare across queries, and the common terms,
// which score later goes over for the candidates only.
func (ix *Index) collectLexical(sc *scratch, terms []string, avgLen float32) (lexMax float64, common []int32) {
	limit := rareCap(ix.live)
	for _, t := range terms {
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
		if df > limit {
			common = append(common, id)
			continue
		}
		fidf := float32(idf)
		for _, ps := range ix.lex.postings[id] {
			if ix.entries[ps.doc] == nil {
				continue
			}
			e := ix.entries[ps.doc]
			norm := bm25K1 * (1 - bm25B + bm25B*e.lexLen/avgLen)
			sc.touch(ps.doc).lex += fidf * ps.tf * (bm25K1 + 1) / (ps.tf + norm)
		}
	}
	return lexMax, common
}

// collectSignatures marks the records whose output has one of the
// query's signatures. However common a signature is, all its records are
// collected; score discounts a shared one by its rarity.
func (ix *Index) collectSignatures(sc *scratch, sigs []string) {
	for _, s := range sigs {
		for _, d := range ix.sigs[s] {
			if ix.entries[d] != nil {
				sc.touch(d).sig = true
			}
		}
	}
}

// collectOutput adds the idf² of the rare normalized output tokens a
// record shares with the query. It returns the query's norm for the
// cosine and the common tokens, which score goes over for the candidates
// only.
func (ix *Index) collectOutput(sc *scratch, terms []string) (qNorm float64, common []int32) {
	limit := rareCap(ix.errDocs)
	for _, t := range terms {
		id, ok := ix.errs.ids[t]
		df := 0
		if ok {
			df = int(ix.errs.df[id])
		}
		idf := bm25IDF(ix.errDocs, df)
		qNorm += idf * idf
		if !ok || df == 0 {
			continue
		}
		if df > limit {
			common = append(common, id)
			continue
		}
		for _, ps := range ix.errs.postings[id] {
			if ix.entries[ps.doc] != nil {
				sc.touch(ps.doc).err += float32(idf * idf)
			}
		}
	}
	return math.Sqrt(qNorm), common
}

// collectSymbols adds the idf² of the code symbols a record shares with
// the query and returns the query's norm for the cosine.
func (ix *Index) collectSymbols(sc *scratch, syms []string) (qNorm float64) {
	for _, s := range syms {
		id, ok := ix.syms.ids[s]
		df := 0
		if ok {
			df = int(ix.syms.df[id])
		}
		idf := bm25IDF(ix.symDocs, df)
		qNorm += idf * idf
		if !ok || df == 0 {
			continue
		}
		for _, ps := range ix.syms.postings[id] {
			if ix.entries[ps.doc] != nil {
				sc.touch(ps.doc).sym += float32(idf * idf)
			}
		}
	}
	return math.Sqrt(qNorm)
}

// lexIDs returns the query's terms as sorted lex ids, for key agreement,
// and whether some term is held by no record: often the name of
// something the memory has never seen.
func (ix *Index) lexIDs(terms []string) (ids []int32, unknown bool) {
	ids = make([]int32, 0, len(terms))
	for _, t := range terms {
		if id, ok := ix.lex.ids[t]; ok && ix.lex.df[id] > 0 {
			ids = append(ids, id)
		} else {
			unknown = true
		}
	}
	slices.Sort(ids)
	return ids, unknown
}

// symbolIDs returns the query's symbols as symbol ids, -1 for one no
// record has, so foreignSymbol still sees it.
func (ix *Index) symbolIDs(syms []string) []int32 {
	ids := make([]int32, 0, len(syms))
	for _, s := range syms {
		id, ok := ix.syms.ids[s]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	}
	return ids
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

// allowedPool is preselect over the records the asker may read. The
// asker's check is dearer than the estimate and a query at 100k records
// touches tens of thousands of records, so the pool is first chosen
// without it and the records the asker may not read are dropped from it.
// Only when that leaves less than half a pool (the asker may read little
// of what matches) is it chosen again, asking of every record that would
// enter it.
func (ix *Index) allowedPool(sc *scratch, w Weights, in scoreInputs) []cand {
	if in.denied == nil {
		return preselect(sc, w, in)
	}
	denied := in.denied
	in.denied = nil
	pool := preselect(sc, w, in)
	kept := pool[:0]
	for _, c := range pool {
		if !denied(c.doc) {
			kept = append(kept, c)
		}
	}
	if len(kept) == len(pool) || 2*len(kept) >= maxPool {
		return kept
	}
	in.denied = denied
	return preselect(sc, w, in)
}

// preselect keeps the maxPool records with the best cheap content
// estimate, best first: the full score is too dear for every touched
// record (see maxPool). Ties go by doc number, so the pool does not
// depend on the heap's order.
func preselect(sc *scratch, w Weights, in scoreInputs) []cand {
	top := &candHeap{}
	for _, d := range sc.touched {
		a := sc.acc[d]
		est := 0.0
		if in.offered.lex && in.lexMax > 0 {
			est += w.Lexical * float64(a.lex) / in.lexMax
		}
		if a.sig {
			est += w.ErrorSignature
		} else if in.errQNorm > 0 {
			est += w.ErrorSignature * errOverlapShare * float64(a.err) / (in.errQNorm * in.errQNorm)
		}
		// est over-rates exact signatures on purpose: they are few and
		// must all reach the full pass.
		if in.symQNorm > 0 {
			est += w.CodeSymbol * float64(a.sym) / (in.symQNorm * in.symQNorm)
		}
		full := top.Len() >= maxPool
		if full && est <= (*top)[0].est {
			continue
		}
		// Whether the asker may read a record is asked only of the
		// records that would enter the pool: a query at 100k records
		// touches tens of thousands, and the caller's check is dearer
		// than the estimate.
		if in.denied != nil && in.denied(d) {
			continue
		}
		if !full {
			heap.Push(top, cand{d, est})
		} else {
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
	return pool
}

// queryInputs adds to in what the query's output shape and words say
// about it: its shape, kind and key, or, for a query without output, the
// kinds its words name among the candidates cands.
func (ix *Index) queryInputs(p preparedQuery, cands []cand, in scoreInputs) scoreInputs {
	in.qShape = ix.findShape(p.stoks)
	in.qKind = withoutFiller(ix.kindTerms(in.qShape))
	in.qKey = ix.queryKey(in.qShape, p.stoks)
	if len(in.qKind) == 0 && !in.offered.err {
		in.named = ix.namedKinds(cands, in.qIDs)
	}
	return in
}

// scorePool scores the pool in order until maxCandidates records have
// been scored. Silenced records do not count, so the many records about
// other objects that the estimate rates high cannot crowd out the answer.
// It returns the hits that reach the floor, and the best and second best
// below it, for the lead rule.
func (ix *Index) scorePool(p preparedQuery, w Weights, sc *scratch, pool []cand, in scoreInputs) (hits, below []Hit, lead, runnerUp Hit) {
	scored := 0
	var all []Hit
	var docs, silenced []int32
	for _, c := range pool {
		if scored >= maxCandidates {
			break
		}
		h, v := ix.score(p, w, c.doc, sc.acc[c.doc], in, false)
		switch v {
		case matched:
			all = append(all, h)
			docs = append(docs, c.doc)
		case silent:
			silenced = append(silenced, c.doc)
			continue
		}
		scored++
	}
	rivals := rivalShares{ix: ix, p: p, in: in, sc: sc, matched: all, silenced: silenced}
	for i, h := range all {
		// A lone record loses less for its object (see loneMissShare);
		// asked only of the records that could then reach a score that
		// counts.
		if h.objMissed && h.content/(1-objectMissShare)*(1-loneMissShare) >= min(w.LeadFloor, w.MinScore) && rivals.lone(h) {
			if nh, v := ix.score(p, w, docs[i], sc.acc[docs[i]], in, true); v == matched {
				h = nh
			}
		}
		if h.Score >= w.MinScore || p.q.Successors && ix.entries[docs[i]].doc.Superseded && h.Score+w.Negative >= w.MinScore {
			hits = append(hits, h)
			continue
		}
		below = append(below, h)
	}
	lead, runnerUp = leadOf(below, p.q.Environment["os"])
	return hits, below, lead, runnerUp
}

// leadOf returns the best of the hits below the floor and the best of
// the others that rivals it, for the lead rule. A record written on
// another system than the query's is no rival of one written on the
// query's: the same output on two systems has two fixes (see osRivals),
// and a note found on its system's side alone is the answer there.
func leadOf(below []Hit, qOS string) (lead, runnerUp Hit) {
	for _, h := range below {
		if h.Score > lead.Score {
			lead = h
		}
	}
	for _, h := range below {
		if h.ID == lead.ID || h.Score <= runnerUp.Score {
			continue
		}
		if qOS != "" && lead.os == qOS && h.os != "" && h.os != qOS {
			continue
		}
		runnerUp = h
	}
	return lead, runnerUp
}

// rivalShares says whether a record looked at is lone: no other record
// looked at, scored or silenced, matches the query's output loneRatio
// as well as it does. The silenced ones' error signal is worked out only
// when asked, once each.
type rivalShares struct {
	ix       *Index
	p        preparedQuery
	in       scoreInputs
	sc       *scratch
	matched  []Hit
	silenced []int32
	shares   []float64 // of silenced, once worked out
}

func (r *rivalShares) lone(h Hit) bool {
	bar := loneRatio * h.errShare
	for _, o := range r.matched {
		if o.ID != h.ID && o.errShare >= bar {
			return false
		}
	}
	if r.shares == nil {
		r.shares = make([]float64, len(r.silenced))
		for i, d := range r.silenced {
			r.shares[i] = r.ix.errShare(r.p, r.sc.acc[d], r.in, r.ix.entries[d])
		}
	}
	for _, s := range r.shares {
		if s >= bar {
			return false
		}
	}
	return true
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

// launchers run the tool that failed rather than being it.
var launchers = map[string]bool{"sudo": true, "env": true, "npx": true, "time": true, "bash": true, "sh": true, "exec": true, "bunx": true, "pnpx": true, "uv": true, "poetry": true, "pipenv": true, "run": true}

// viewers print what another program wrote (its log, a CI run's, a
// remote shell's) rather than failing themselves: the failure in their
// output is not theirs.
var viewers = [][]string{{"kubectl", "logs"}, {"docker", "logs"}, {"docker", "compose", "logs"}, {"docker-compose", "logs"}, {"podman", "logs"},
	{"journalctl"}, {"gh", "run", "view"}, {"ssh"}, {"tail"}, {"cat"}, {"less"}, {"grep"}, {"srun"}, {"heroku", "logs"}, {"fly", "logs"}}

// commandTools returns the tools a failed command ran, one per part of
// it (a && b, a; b, a | b): each part's first word that is no launcher.
// A part that changes directory runs nothing, and one that runs the
// project's own script or only shows another program's output names no
// tool.
func commandTools(command string) (tools []string) {
	// A quoted argument (python -c '...; ...') is one word, not parts.
	command = reQuotedArg.ReplaceAllString(command, "q")
	for _, part := range reCommandSep.Split(command, -1) {
		words := strings.Fields(part)
		for len(words) > 0 && (launchers[words[0]] || strings.Contains(words[0], "=")) {
			words = words[1:]
		}
		if len(words) == 0 || words[0] == "cd" || words[0] == "pushd" || words[0] == "export" {
			continue
		}
		if slices.ContainsFunc(viewers, func(v []string) bool { return len(words) >= len(v) && slices.Equal(words[:len(v)], v) }) {
			continue
		}
		prog := words[0][strings.LastIndexAny(words[0], "/\\")+1:] // ./gradlew, /usr/bin/make
		if ext := filepath.Ext(prog); prog != words[0] && (ext == ".sh" || ext == ".py" || ext == ".ps1" || ext == ".rb" || ext == ".js" || ext == ".bat") {
			// The project's own script (./scripts/integration.sh): what
			// failed inside it is some other tool's.
			continue
		}
		if interpreters[prog] && len(words) > 1 && scriptExt[filepath.Ext(words[1])] {
			// node scripts/deploy.js, python manage.py migrate: the
			// project's own script run by its interpreter.
			continue
		}
		if t := Tokenize(prog); len(t) > 0 {
			tools = append(tools, t[0])
		}
	}
	return tools
}

// interpreters run a script named after them; scriptExt are the
// extensions of the scripts they run.
var (
	interpreters = map[string]bool{"node": true, "python": true, "python3": true, "ruby": true, "perl": true, "php": true, "deno": true, "bun": true, "tsx": true, "ts-node": true, "pwsh": true, "powershell": true}
	scriptExt    = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".py": true, ".rb": true, ".pl": true, ".php": true, ".ps1": true}
)

var (
	reCommandSep = regexp.MustCompile(`&&|\|\||[;|]`)
	reQuotedArg  = regexp.MustCompile(`'[^']*'|"[^"]*"`)
)

// namesTool reports whether the record's words name a tool the failed
// command ran (see commandTools), or the command names none it can
// check. The lead rule trusts a record on little shared output; the
// same tool is what says the little is about the same failure.
func (ix *Index) namesTool(id, command string) bool {
	tools := commandTools(command)
	n, ok := ix.byID[id]
	if !ok {
		return false
	}
	if len(tools) == 0 {
		return true
	}
	for _, tool := range tools {
		if tid, ok := ix.lex.ids[tool]; ok {
			if _, found := lookupTF(ix.entries[n].lex, tid); found {
				return true
			}
		}
	}
	return false
}

// rank orders hits best first and keeps limit of them; equal scores go
// by id, so the same query always gets the same answer.
func rank(hits []Hit, limit int) []Hit {
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

// touch returns d's accumulator and notes d, so putScratch clears it.
func (sc *scratch) touch(d int32) *accum {
	a := &sc.acc[d]
	if !a.seen {
		a.seen = true
		sc.touched = append(sc.touched, d)
	}
	return a
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
