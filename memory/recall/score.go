package recall

import (
	"fmt"
	"math"
	"slices"
	"strings"
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

// quoteShare caps what a record's quoted output, printed whole by the
// query, can earn: below an exact signature, above loose overlap.
// quoteMass is how many of the rarest possible words (in idf²) the
// shared part must weigh to count in full.
// alignMix is the share of the quote's evidence counted line by line
// (see align.go), the rest counted over the whole output.
const (
	quoteShare = 0.95
	quoteMass  = 1.5
	alignMix   = 0.5
)

// bm25IDF is the non-negative BM25 idf. A term no record has gets the
// largest idf, so words only the query knows lower its normalized score.
func bm25IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// scoreInputs is what Search works out about the query once, for score
// to use on every candidate.
type scoreInputs struct {
	denied    func(doc int32) bool // records the query may not see (Query.Allow); nil for none
	avgLen    float32
	lexMax    float64
	lexCommon []int32
	errQNorm  float64
	errCommon []int32
	symQNorm  float64
	offered   contentOffer
	scale     float64
	qIDs      []int32         // the query's lex ids, sorted
	qSyms     []int32         // the query's symbol ids (-1 for unknown symbols)
	cmdIDs    []int32         // the lex ids of the failed command's terms, sorted (see objectMiss)
	qText     string          // the query's text, command and output, lower-case (see objectMiss)
	qShape    int32           // the shape of the query's output, or -1
	qBigrams  map[uint64]bool // adjacent words of the query's output (see runs.go)
	qWords    map[int32]bool  // the words of the query's output
	qLines    queryLines      // the query's output lines (see align.go)
	qKind     []string        // see kindTerms
	qKey      [][]string      // see queryKey
	named     []namedKind     // see namedKinds
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
func (ix *Index) score(p preparedQuery, w Weights, d int32, a accum, in scoreInputs, lone bool) (Hit, verdict) {
	e := ix.entries[d]
	ka, kaOK, foreign, why := ix.silenced(p, w, in, e)
	if why != "" {
		return Hit{ID: e.doc.ID, Title: e.doc.Title, Reasons: []Reason{{Signal: SignalCodeSymbol, Value: why}}}, silent
	}
	sLex := ix.lexicalSignal(a, in, e)
	sErr, errValue := ix.errSignal(p, a, in, e)
	sSym, symValue := ix.symbolSignal(p, a, in, e)
	c := contentScore{
		err: w.ErrorSignature * sErr * in.scale,
		lex: w.Lexical * sLex * in.scale,
		sym: w.CodeSymbol * sSym * in.scale,
	}
	if c.err+c.lex+c.sym <= 0 {
		return Hit{}, unmatched
	}
	var rs reasonList
	rs.add(SignalErrorSignature, errValue, c.err)
	rs.add(SignalLexical, ix.topLexTerms(p.lexTerms, e.lex, 6), c.lex)
	rs.add(SignalCodeSymbol, symValue, c.sym)
	if kaOK {
		c = rs.addKeyAgreement(w, ka, foreign, in.scale, c)
	}
	var objMissed bool
	if miss, obj := ix.objectMiss(in.qIDs, in.cmdIDs, in.qText, e); miss {
		objMissed = true
		share, why := objectMissShare, "record is about "+obj+", which the query does not name"
		if lone {
			share, why = loneMissShare, why+" (no other record matches this output as well)"
		}
		total := c.err + c.lex + c.sym
		rs.add(SignalCodeSymbol, why, -share*total)
		c.err, c.lex, c.sym = c.err*(1-share), c.lex*(1-share), c.sym*(1-share)
	}
	content := c.err + c.lex + c.sym
	if content <= 0 {
		return Hit{}, unmatched
	}
	// Context signals scale with how well the content matched, so context
	// alone can reorder matches but never make one.
	rs.addContext(p, w, e, content/w.contentTotal())
	if qo, do := p.q.Environment["os"], e.doc.Environment["os"]; e.doc.PlatformBound && qo != "" && do != "" && qo != do {
		// The note ties its fix to another system: the same output here
		// has another cause or another fix.
		rs.add(SignalEnvironment, "the record's fix is for os="+do+", the query is on os="+qo, -osBoundShare*content)
	}
	if s, v := negative(e.doc); s > 0 {
		rs.add(SignalNegative, v, -w.Negative*s)
	}
	h := rs.hit(e.doc)
	h.content, h.os, h.bound = content, e.doc.Environment["os"], e.doc.PlatformBound
	h.errShare, h.objMissed = sErr, objMissed
	return h, matched
}

// errSignal is the record's error_signature signal, 0..1, with what
// matched: the output's or the note's words', whichever fits better.
func (ix *Index) errSignal(p preparedQuery, a accum, in scoreInputs, e *entry) (float64, string) {
	sErr, errValue := ix.outputSignal(p, a, in, e)
	if s, v := ix.runSignal(in.qBigrams, in.qWords, e); s > sErr {
		sErr, errValue = s, "the note's words: "+v
	}
	if s, v := ix.codeSignal(in.qWords, e); s > sErr {
		sErr, errValue = s, "the error code: "+v
	}
	return sErr, errValue
}

// errShare is errSignal without its explanation.
func (ix *Index) errShare(p preparedQuery, a accum, in scoreInputs, e *entry) float64 {
	s, _ := ix.errSignal(p, a, in, e)
	return s
}

// contentScore holds a record's content contributions apart, so the key
// miss can take its share of each and the reasons still sum to the score.
type contentScore struct{ err, lex, sym float64 }

// reasonList is the reasons of a hit being scored.
type reasonList []Reason

// add leaves out signals that contribute nothing: a reason says why a
// record scores, and a zero says nothing.
func (rs *reasonList) add(s Signal, v string, c float64) {
	if c != 0 {
		*rs = append(*rs, Reason{Signal: s, Value: clip(v), Contribution: c})
	}
}

// hit makes the score the sum of the reasons, so every point of it is
// explained.
func (rs reasonList) hit(doc Doc) Hit {
	var total float64
	for _, r := range rs {
		total += r.Contribution
	}
	trust := doc.Trust
	if trust == "" {
		trust = TrustRaw
	}
	return Hit{
		ID: doc.ID, Title: doc.Title, Trust: trust, Score: total, Reasons: rs,
		Marks: doc.Marks.names(doc.Superseded), Project: doc.Project, UpdatedAt: doc.UpdatedAt,
	}
}

// lexicalSignal is BM25 over the query's terms divided by its bound for
// the query, 0..1. The common terms were left out of candidate
// generation to bound its cost; they count here, for the candidates only.
func (ix *Index) lexicalSignal(a accum, in scoreInputs, e *entry) float64 {
	if in.offered.lex && in.lexMax > 0 {
		bm := float64(a.lex)
		for _, id := range in.lexCommon {
			if tf, ok := lookupTF(e.lex, id); ok {
				idf := bm25IDF(ix.live, int(ix.lex.df[id]))
				norm := bm25K1 * (1 - bm25B + bm25B*float64(e.lexLen/in.avgLen))
				bm += idf * float64(tf) * (bm25K1 + 1) / (float64(tf) + norm)
			}
		}
		return bm / in.lexMax
	}
	return 0
}

// outputSignal scores 0..1 how well the record's error output fits the
// query's, with what fits: the overlap of the normalized output or, when
// it is worth at least as much, an exact signature.
func (ix *Index) outputSignal(p preparedQuery, a accum, in scoreInputs, e *entry) (float64, string) {
	var s float64
	var value string
	if in.errQNorm > 0 && len(e.errTerms) > 0 {
		s, value = ix.outputOverlap(p, a, in, e)
	}
	if a.sig {
		// An exact signature shared by many records names a kind of
		// failure rather than a cause, so it counts by its rarity.
		for _, sig := range e.sigs {
			if !slices.Contains(p.sigs, sig) {
				continue
			}
			n := max(ix.errDocs, ix.sigDF[sig])
			spec := bm25IDF(n, ix.sigDF[sig]) / bm25IDF(n, 1)
			if spec >= s {
				s, value = spec, sig
			}
		}
	}
	return s, value
}

// outputOverlap is the idf-weighted cosine of the normalized output
// tokens, capped at errOverlapShare: similar output is a hint, not the
// evidence the same output is. The common tokens count here, for the
// candidates only (see lexicalSignal).
func (ix *Index) outputOverlap(p preparedQuery, a accum, in scoreInputs, e *entry) (float64, string) {
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
	if dot <= 0 || dn <= 0 {
		return 0, ""
	}
	s := errOverlapShare * dot / (in.errQNorm * math.Sqrt(dn))
	// A note quotes a line or two of what the tool printed; the tool's
	// whole output holds them. The share of the record's quoted output
	// that the query prints (idf-weighted, so the name in it counts more
	// than the kind's wording) is the evidence then, if it adds up to
	// enough specific words that a short quote cannot match everything.
	idfMax := bm25IDF(ix.errDocs, 1)
	// Counted over the whole output, a quoted line's words are found on
	// lines about other things; counted line by line (align.go), output
	// printed in another tool version's words, one quoted line over
	// several, is missed. Half of each.
	aligned, am, shared := ix.aligned(in.qLines, e.errLines)
	share := alignMix*aligned + (1-alignMix)*dot/dn
	mass := math.Min(1, (alignMix*am+(1-alignMix)*dot)/(quoteMass*idfMax*idfMax))
	if c := quoteShare * share * mass; c > s {
		return c, "quoted output: " + ix.errTermNames(shared, 6) + " (line by line), " + ix.sharedErrTerms(p.errTerms, e.errTerms, 6) + " (in all)"
	}
	return s, "similar output: " + ix.sharedErrTerms(p.errTerms, e.errTerms, 6)
}

// symbolSignal is the idf-weighted cosine of the code symbols, 0..1, with
// the symbols the record shares with the query.
func (ix *Index) symbolSignal(p preparedQuery, a accum, in scoreInputs, e *entry) (float64, string) {
	if in.symQNorm > 0 && a.sym > 0 {
		var dn float64
		var shared []string
		for _, id := range e.syms {
			idf := bm25IDF(ix.symDocs, int(ix.syms.df[id]))
			dn += idf * idf
		}
		for _, s := range p.syms {
			if id, ok := ix.syms.ids[s]; ok {
				if _, found := slices.BinarySearch(e.syms, id); found {
					shared = append(shared, s)
				}
			}
		}
		return float64(a.sym) / (in.symQNorm * math.Sqrt(dn)) * ix.symbolSpecificity(shared), strings.Join(shared, ", ")
	}
	return 0, ""
}

// addKeyAgreement credits the share of the record's title the query
// names, and takes back KeyMiss (at most all) of the content score times
// the share of the record's key the query does not name. A record is
// about what its title names; the same failure about another thing
// (another module, test, crate or package) is another root cause: the
// wording matches, the object does not. When all of the score would go,
// silenced has already silenced the record. It returns the content less
// what it took, so the reasons still sum to the score.
func (rs *reasonList) addKeyAgreement(w Weights, ka keyResult, foreign bool, scale float64, c contentScore) contentScore {
	if k := w.Key * ka.cov * scale; k > 0 {
		rs.add(SignalCodeSymbol, "names "+ka.matched, k)
		c.sym += k
	}
	if share := keyMissShare(w, ka, foreign); share > 0 {
		total := c.err + c.lex + c.sym
		rs.add(SignalCodeSymbol, "record is about "+ka.missing+", which the query does not name", -share*total)
		c.err, c.lex, c.sym = c.err*(1-share), c.lex*(1-share), c.sym*(1-share)
	}
	return c
}

// addContext adds the context signals, each scaled by gate, the content
// match (0..1).
func (rs *reasonList) addContext(p preparedQuery, w Weights, e *entry, gate float64) {
	doc := e.doc
	if p.q.ToolName != "" && slices.Contains(e.tools, strings.ToLower(p.q.ToolName)) {
		rs.add(SignalToolName, p.q.ToolName, w.ToolName*gate)
	}
	if p.q.Project != "" && strings.EqualFold(p.q.Project, doc.Project) {
		rs.add(SignalSameProject, doc.Project, w.SameProject*gate)
	}
	if s, v := envMatch(p.q.Environment, doc.Environment); s > 0 {
		rs.add(SignalEnvironment, v, w.Environment*s*gate)
	}
	if qo, do := p.q.Environment["os"], doc.Environment["os"]; qo != "" && do != "" && qo != do && !doc.PlatformBound {
		// The same message on another OS often has another fix.
		rs.add(SignalEnvironment, "record is from os="+do+", query from os="+qo, -w.Environment*osMissShare*gate)
	}
	if p.q.Phase != "" && strings.EqualFold(p.q.Phase, doc.Phase) {
		rs.add(SignalPhase, doc.Phase, w.Phase*gate)
	}
	if len(p.q.Dimensions) > 0 {
		names := sortedKeys(p.q.Dimensions)
		per := w.Dimension * gate / float64(len(names))
		for _, name := range names {
			if v, ok := dimMatch(p.q.Dimensions[name], doc.Dimensions[name]); ok {
				rs.add(SignalDimension, name+"="+v, per)
			}
		}
	}
	if !doc.UpdatedAt.IsZero() && w.RecencyHalfLife > 0 {
		age := p.now.Sub(doc.UpdatedAt)
		if age < 0 {
			age = 0
		}
		r := math.Exp2(-float64(age) / float64(w.RecencyHalfLife))
		rs.add(SignalRecency, doc.UpdatedAt.UTC().Format("2006-01-02"), w.Recency*r*gate)
	}
	if t := trustLevel(doc.Trust); t > 0 {
		rs.add(SignalTrust, string(doc.Trust), w.Trust*t*gate)
	}
	if n := doc.EvidenceCount + doc.Marks.UsedThenPassed; n > 0 {
		rs.add(SignalEvidence, fmt.Sprintf("evidence=%d", n), w.Evidence*float64(n)/float64(n+1)*gate)
	}
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

// osBoundShare is the share of its content score a platform-bound record
// (Doc.PlatformBound) loses on another operating system: enough that its
// twin for the query's system, with the same output, ranks above it, and
// that alone it rarely reaches a push floor.
const osBoundShare = 0.6

// osOtherShare is the share of its content score a hit written on
// another system loses to a rival written on the query's, and
// osRivalShare how much of its content score the rival needs (see
// osRivals).
const (
	osOtherShare = 0.15
	osRivalShare = 0.5
)

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

// genericSymbols are names nearly every project has: a manifest, a lock
// file, a build file. Sharing one says where a failure was noticed, not
// which failure it was.
var genericSymbols = map[string]bool{
	"package.json": true, "package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "tsconfig.json": true,
	"cargo.toml": true, "cargo.lock": true, "go.mod": true, "go.sum": true, "pyproject.toml": true, "requirements.txt": true,
	"setup.py": true, "setup.cfg": true, "pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "gemfile": true,
	"gemfile.lock": true, "makefile": true, "dockerfile": true, "docker-compose.yml": true, "compose.yaml": true,
	".env": true, "main": true, "index": true, "src": true, "app": true, "test": true, "tests": true, "lib": true,
	"config": true, "node_modules": true, "npm": true, "pip": true, "cargo": true, "go": true, "python": true, "node": true,
}

// symbolSpecificity scales the symbol signal by how specific the most
// specific shared symbol is across the store (its idf over the largest
// idf): a match carried by names many records share, or by a generic
// file name, is not the match a rare module name is.
func (ix *Index) symbolSpecificity(shared []string) float64 {
	best := 0.0
	idfMax := bm25IDF(ix.symDocs, 1)
	if idfMax <= 0 {
		return 0
	}
	for _, s := range shared {
		id := ix.syms.ids[s]
		spec := bm25IDF(ix.symDocs, int(ix.syms.df[id])) / idfMax
		if genericSymbols[s] || genericSymbols[s[strings.LastIndexByte(s, '/')+1:]] {
			spec *= 0.25
		}
		best = max(best, spec)
	}
	return best
}

// objectMissShare is the share of its content score a record loses when
// the query names none of its object: the same message about another
// module, port, test or image is another failure, with another fix.
//
// A record that no other record looked at rivals on the query's output
// (none matches it loneRatio as well, see lone) loses loneMissShare
// instead: when the store holds several notes of one message about
// different objects, the object is what tells their fixes apart; when
// it holds one, nothing says that its object, rather than the message,
// is what its fix is for, and a strong match of the message survives.
const (
	objectMissShare = 0.8
	loneMissShare   = 0.4
	loneRatio       = 0.7
)

// objectMaxTitles is how many titles at most (or a 5000th of them in a
// large store) may hold a term for it to name an object rather than a
// kind of failure.
const objectMaxTitles = 3

// objectMinTitles is how many titles the store needs before the object
// check runs.
const objectMinTitles = 20

// objectMiss reports whether the record names an object (title terms
// its note also says in its what, why or where, or its output prints,
// held by few titles: the module, the port, the test) and the query
// lacks most of it (by idf among titles: "client" in @prisma/client is
// not the part that says which module), with the part it lacks.
func (ix *Index) objectMiss(q, cmd []int32, qText string, e *entry) (bool, string) {
	if ix.titles < objectMinTitles {
		// Among a few titles every word is rare: which name an object
		// and which the wording of a kind of failure cannot be told.
		return false, ""
	}
	limit := int32(max(objectMaxTitles, ix.titles/5000))
	var obj []string
	var all, missing float64
	for _, id := range e.said {
		df := ix.titleDF[id]
		if df > limit || df <= 0 {
			continue
		}
		if releaseTerm(ix.lex.names[id]) {
			// v4, v5: which release, not what failed.
			continue
		}
		if _, tool := slices.BinarySearch(cmd, id); tool {
			// The title names the tool that failed (pytest, jest): that
			// says which tool, not what it failed on.
			continue
		}
		idf := bm25IDF(ix.titles, int(df))
		all += idf
		if !ix.allPrefixed([]int32{id}, q) {
			// Not printed, nor as the start of a longer name (sqlite3).
			missing += idf
			obj = append(obj, ix.lex.names[id])
		}
	}
	var names, named []string
	for _, nm := range e.names {
		// A dotted name is one name: api.vendor.example is not named by a
		// query that prints another host of .example.
		if df := ix.nameDF[nm]; df > 0 && df <= int(limit) {
			names = append(names, nm)
			if strings.Contains(qText, nm) {
				named = append(named, nm)
			}
		}
	}
	if len(names) > 0 && len(named) == 0 {
		// The record's names say what it is about more surely than its
		// title's words, which in a large store the kind's other records
		// share (kind cluster ImagePullBackOff ghcr 401).
		return true, strings.Join(names, " ")
	}
	return all > 0 && 2*missing > all, strings.Join(obj, " ")
}

// fileExts are the extensions of the files builds and tools name; a
// dotted name ending in one is a file's name (where), not a host or an
// id (what).
var fileExts = map[string]bool{}

func init() {
	for _, x := range strings.Fields(`js mjs cjs ts tsx jsx json json5 yml yaml toml ini cfg conf env lock txt md rst py pyi go mod sum rs rb
		java kt kts gradle xml properties sh bash zsh ps1 bat cmd c h cc cpp hpp cs csproj sln fs php ex exs erl swift m mm
		tf tfvars hcl sql html htm css scss sass less vue svelte crt pem key log csv tsv zip tar gz tgz whl jar war so dll
		dylib exe a o wasm proto graphql gql plist pbxproj xcodeproj xcworkspace storyboard dart lua r pl scala clj`) {
		fileExts[x] = true
	}
}

// dottedNames returns the names a title writes with dots between words
// (hosts, bundle ids, package paths: pypi.org, com.acme.Wallet,
// ghcr.io/acme/api) and the last part of a path it writes (api),
// lower-case, without file names (go.mod, vite.config.ts) and versions
// (1.22.0), which say where or which release, not what.
func dottedNames(title string) []string {
	var out []string
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, f := range strings.Fields(title) {
		f = strings.ToLower(strings.TrimSuffix(strings.Trim(f, "`'\"()[]{},;:!?"), "."))
		if i := strings.LastIndexByte(f, '/'); i >= 0 && i < len(f)-1 && !strings.HasPrefix(f, "@") {
			// The last part of an image or module path is its name
			// (ghcr.io/acme/billing-worker).
			if last, _, _ := strings.Cut(f[i+1:], ":"); len(last) >= 3 && !isDigits(last) && !fileExts[last[strings.LastIndexByte(last, '.')+1:]] {
				add(last)
			}
		}
		if !strings.Contains(f, ".") || fileExts[f[strings.LastIndexByte(f, '.')+1:]] || strings.ContainsAny(f, ":=") {
			continue
		}
		letters := false
		for _, part := range strings.Split(f, ".") {
			if part == "" {
				letters = false
				break
			}
			if !isDigits(part) {
				letters = true
			}
		}
		if letters {
			add(f)
		}
	}
	return out
}

// releaseTerm reports whether a term names a release (v4, v12), not a
// thing.
func releaseTerm(t string) bool {
	return len(t) >= 2 && t[0] == 'v' && isDigits(t[1:])
}
