package recall

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Errors returned by Index. They are sentinels so a caller can map them to
// its own status codes with errors.Is.
var (
	ErrNotFound  = errors.New("recall: record not found")
	ErrDuplicate = errors.New("recall: record already indexed")
	ErrEmptyID   = errors.New("recall: record has no ID")
)

// titleBoost is how many content occurrences one title occurrence is worth:
// a title is the record's own summary of what it is about.
const titleBoost = 2

// termTF is one term of a document with its (title-boosted) frequency.
type termTF struct {
	term int32
	tf   float32
}

// posting is one document in a term's postings list.
type posting struct {
	doc int32
	tf  float32
}

// dict maps terms to dense ids and keeps their postings and document
// frequencies. Postings of removed documents stay until compaction; df is
// exact at all times because it drives idf.
type dict struct {
	ids      map[string]int32
	postings [][]posting
	df       []int32
	names    []string // by id; shares the map keys' bytes
}

func newDict() dict { return dict{ids: make(map[string]int32)} }

func (d *dict) id(term string) int32 {
	if id, ok := d.ids[term]; ok {
		return id
	}
	id := int32(len(d.postings))
	d.ids[term] = id
	d.postings = append(d.postings, nil)
	d.df = append(d.df, 0)
	d.names = append(d.names, term)
	return id
}

// entry is the indexed form of one Doc.
type entry struct {
	doc      Doc
	lex      []termTF // sorted by term id
	lexLen   float32
	errTerms []int32 // unique, sorted
	sigs     []string
	syms     []int32 // unique, sorted ids in Index.syms
	tools    []string
	// title holds the unique, sorted lex ids of the title's terms: the
	// record's own summary of what it is about (see keyAgreement).
	title []int32
	// objects are the code symbols the record names that its title
	// names too (`config`, slices.Concat, 'eslint-plugin-import'): what
	// its failure is about when its output shape cannot tell (see
	// keyAgreement).
	objects []object
	// masked are the numbers the title names that the output prints but
	// normalization took for an id or a count (a key id of digits only,
	// a timeout): what the record is about, hidden from its shape.
	masked []string
	// shape is the id of the output shape the record files under (-1
	// without output) and stoks its shape tokens (see shape.go); key is
	// its key, once worked out (see shapeKey).
	shape int32
	stoks []string
	key   atomic.Pointer[cachedKey]
	// quoted are the names its output prints in quotes, with their
	// frames (see quoted.go).
	quoted []quotedName
	// said are the title's lex ids that the record's content or output
	// holds too: what the note names and talks about, of which the rare
	// ones are its object (see objectMiss).
	said []int32
	// names are the dotted names the title writes and the note's what,
	// why or where says too (hosts, bundle ids, image paths:
	// auth.acme.test, com.acme.Wallet), lower-case: one name each,
	// however common its parts (see objectMiss).
	names []string
	// prose is the lex ids of the record's words in order (see runs.go).
	prose prose
	// errLines are the error-term ids of its output, line by line (see
	// align.go).
	errLines [][]int32
	// codes are the lex ids of the error codes its words name (see
	// codes.go).
	codes []int32
}

// prose is a record's words in order, by segment (see proseWords).
type prose struct {
	ids   []int32
	marks []int16 // per word: markOwn, markQuote or a quoted name's number
	// src numbers, per word, the word of the text (between spaces) it
	// was read from: one name (iam.gserviceaccount.com) reads as several.
	src   []int32
	ends  []int // where each segment ends
	lines []int // where each line ends
	// errSeg says, per segment, whether it reads like an error line
	// rather than the writer's narration.
	errSeg []bool
}

// object is a code symbol a record is about, with the lex ids of the
// parts of it that its title holds.
type object struct {
	sym   int32
	terms []int32
}

// Index is an in-memory recall index. It is safe for concurrent use: Search
// takes a read lock, Add, Replace and Remove take the write lock, so a
// search never sees half a record.
type Index struct {
	mu sync.RWMutex // guards every field below

	entries []*entry // by internal doc number; nil once removed
	byID    map[string]int32
	lex     dict // title+content terms
	errs    dict // normalized error-output terms
	syms    dict // code symbols
	sigs    map[string][]int32
	sigDF   map[string]int // live records per signature

	live     int     // entries that are not nil
	dead     int     // removed entries still referenced by postings
	lexTotal float64 // sum of lexLen over live entries
	errDocs  int     // live entries with error terms
	symDocs  int     // live entries with symbols

	// titleDF counts live records whose title holds a lex term, by lex
	// id; titles is the number of live records with a title.
	titleDF []int32
	titles  int
	// nameDF counts live records whose title writes a dotted name (see
	// entry.names).
	nameDF map[string]int

	// shapes are the mined output shapes, by id; shapesByLen lists their
	// ids by token count (see shape.go).
	shapes      []*shape
	shapesByLen map[int][]int32
	stoks       map[string]int32 // shape tokens' ids (see stokIDs)

	scratch sync.Pool // *scratch, reused across searches
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		byID:  make(map[string]int32),
		lex:   newDict(),
		errs:  newDict(),
		syms:  newDict(),
		sigs:  make(map[string][]int32),
		sigDF: make(map[string]int),

		nameDF:      make(map[string]int),
		shapesByLen: make(map[int][]int32),
		stoks:       make(map[string]int32),
	}
}

// Len reports the number of records in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Add indexes d. It fails with ErrDuplicate if a record with the same ID is
// already indexed; use Replace to update one.
func (ix *Index) Add(d Doc) error {
	if d.ID == "" {
		return ErrEmptyID
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.byID[d.ID]; ok {
		return fmt.Errorf("add %q: %w", d.ID, ErrDuplicate)
	}
	ix.insert(d)
	return nil
}

// Replace indexes d, replacing the record with the same ID if there is one.
func (ix *Index) Replace(d Doc) error {
	if d.ID == "" {
		return ErrEmptyID
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if n, ok := ix.byID[d.ID]; ok {
		ix.delete(n)
	}
	ix.insert(d)
	ix.maybeCompact()
	return nil
}

// Remove drops the record with the given ID; it fails with ErrNotFound if
// there is none.
func (ix *Index) Remove(id string) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	n, ok := ix.byID[id]
	if !ok {
		return fmt.Errorf("remove %q: %w", id, ErrNotFound)
	}
	ix.delete(n)
	ix.maybeCompact()
	return nil
}

// insert indexes d under a new doc number. The caller holds the write lock.
func (ix *Index) insert(d Doc) {
	d.Environment = lowerMap(d.Environment)
	read := d.texts()
	norm := read.norm
	d.prepared = nil // the entry keeps what it needs of them
	e := &entry{doc: d}
	n := int32(len(ix.entries))

	// The record's own project name says where it happened, not what
	// happened; same_project covers it, so it is not a search term.
	skip := projectTerms(d.Project)
	counts := make(map[int32]float32)
	var length float32
	for _, t := range Tokenize(d.Title) {
		if !skip[t] {
			counts[ix.lex.id(t)] += titleBoost
			length += titleBoost
		}
	}
	for _, t := range uniq(Tokenize(d.Title)) {
		if !skip[t] {
			e.title = append(e.title, ix.lex.id(t))
		}
	}
	slices.Sort(e.title)
	for _, id := range e.title {
		for int(id) >= len(ix.titleDF) {
			ix.titleDF = append(ix.titleDF, 0)
		}
		ix.titleDF[id]++
	}
	if len(e.title) > 0 {
		ix.titles++
	}
	about := strings.ToLower(d.About)
	for _, nm := range dottedNames(d.Title) {
		// Only a name the note's words talk about: a title may name the
		// context (python.org Python) with a name the output never prints.
		if strings.Contains(about, nm) {
			e.names = append(e.names, nm)
			ix.nameDF[nm]++
		}
	}
	for _, t := range Tokenize(d.Content) {
		if !skip[t] {
			counts[ix.lex.id(t)]++
			length++
		}
	}
	if d.About != "" {
		about := map[string]bool{}
		// Only what the output prints, a code span names, or the prose
		// names in code (npx jest accountService): a title in the
		// writer's words (won't start locally, package.json script)
		// repeats the prose of its what and why, and plain words and
		// file names name no object.
		for _, t := range append(append(Tokenize(strings.Join(d.CodeSymbols, " ")), codeTerms(d.About+"\n"+d.Content)...), codeTerms(d.ErrorText)...) {
			about[t] = true
		}
		// The title's own code words name the object only when the
		// failure the note quotes prints them, or when they are a name
		// (a host, a package path): a title also says when and where
		// (500s after deploy, ubuntu-latest, after the macOS update),
		// and the same failure met elsewhere is not another failure.
		printed := map[string]bool{}
		for _, t := range append(Tokenize(d.ErrorText), Tokenize(norm)...) {
			printed[t] = true
		}
		for _, t := range titleCodeTerms(d.Title) {
			about[t] = about[t] || printed[t]
		}
		for _, nm := range dottedNames(d.Title) {
			for _, t := range Tokenize(nm) {
				about[t] = true
			}
		}
		context := titleContext(d.Title)
		for _, id := range e.title {
			if name := ix.lex.names[id]; about[name] && (!context[name] || printed[name]) {
				e.said = append(e.said, id)
			}
		}
	}
	// The failing output is part of what the record says; prompts often
	// quote it.
	for _, t := range Tokenize(norm) {
		if !skip[t] {
			counts[ix.lex.id(t)]++
			length++
		}
	}
	e.lexLen = length
	e.prose = ix.proseOf(read.prose)
	// A code inside the output the note quotes is judged with the rest
	// of its line (outputSignal); one named only in the prose is the
	// note's whole quote.
	quoted := map[string]bool{}
	for _, t := range Tokenize(norm) {
		quoted[t] = true
	}
	for _, c := range read.codes {
		if !quoted[c] {
			e.codes = append(e.codes, ix.lex.id(c))
		}
	}
	e.lex = make([]termTF, 0, len(counts))
	for id, tf := range counts {
		e.lex = append(e.lex, termTF{id, tf})
	}
	slices.SortFunc(e.lex, func(a, b termTF) int { return int(a.term - b.term) })
	for _, t := range e.lex {
		ix.lex.postings[t.term] = append(ix.lex.postings[t.term], posting{n, t.tf})
		ix.lex.df[t.term]++
	}

	for _, t := range uniq(Tokenize(norm)) {
		if !skip[t] {
			e.errTerms = append(e.errTerms, ix.errs.id(t))
		}
	}
	slices.Sort(e.errTerms)
	e.errLines = errLineIDs(&ix.errs, norm, skip, true)
	for _, id := range e.errTerms {
		ix.errs.postings[id] = append(ix.errs.postings[id], posting{n, 1})
		ix.errs.df[id]++
	}

	sigs := append([]string(nil), d.ErrorSignatures...)
	if s := read.signature; s != "" {
		sigs = append(sigs, s)
	}
	e.sigs = uniq(sigs)
	for _, s := range e.sigs {
		ix.sigs[s] = append(ix.sigs[s], n)
		ix.sigDF[s]++
	}

	syms := lowerAll(d.CodeSymbols)
	syms = append(syms, read.symbols...)
	syms = withoutProject(uniq(syms), d.Project)
	for _, s := range syms {
		e.syms = append(e.syms, ix.syms.id(s))
	}
	e.tools = uniq(lowerAll(d.ToolNames))
	e.objects = ix.titleObjects(e.title, syms, e.tools)
	e.masked = maskedNumbers(d.Title, d.ErrorText, norm, skip)
	e.stoks = shapeTokens(norm)
	e.quoted = ownQuotedNames(read.quoted, d.Title, d.Content)
	titleTerms := make([]string, len(e.title))
	for i, id := range e.title {
		titleTerms[i] = ix.lex.names[id]
	}
	e.shape = ix.addShape(e.stoks, titleTerms, func(t string) bool { return ix.inTitle(e, t) })
	slices.Sort(e.syms)
	for _, id := range e.syms {
		ix.syms.postings[id] = append(ix.syms.postings[id], posting{n, 1})
		ix.syms.df[id]++
	}

	ix.entries = append(ix.entries, e)
	ix.byID[d.ID] = n
	ix.live++
	ix.lexTotal += float64(length)
	if len(e.errTerms) > 0 {
		ix.errDocs++
	}
	if len(e.syms) > 0 {
		ix.symDocs++
	}
}

// maskedNumbers returns the numbers of title (see entry.masked) that raw
// prints and its normalized form norm does not.
func maskedNumbers(title, raw, norm string, skip map[string]bool) []string {
	var nums []string
	for _, t := range uniq(Tokenize(title)) {
		if isDigits(t) && !skip[t] {
			nums = append(nums, t)
		}
	}
	rawTerms, normTerms := Tokenize(raw), Tokenize(norm)
	var out []string
	for _, n := range nums {
		if slices.Contains(rawTerms, n) && !slices.Contains(normTerms, n) {
			out = append(out, n)
		}
	}
	// A version the title names and the output quotes ("The version
	// '3.7' ... was not found") is what the message is about, as a
	// quoted name is; normalization masks it as a tool's release.
	for _, v := range uniq(reTitleVersion.FindAllString(title, -1)) {
		if strings.Contains(raw, "'"+v+"'") || strings.Contains(raw, `"`+v+`"`) || strings.Contains(raw, "`"+v+"`") {
			out = append(out, v)
		}
	}
	// A port the title names ("port 80 in use") that the output prints
	// is which service is in the way; too short for Tokenize to keep.
	ports := normPorts(norm)
	for _, n := range uniq(reTitleNumber.FindAllString(title, -1)) {
		if len(n) < minNumberLen && slices.Contains(ports, n) {
			out = append(out, n)
		}
	}
	return out
}

// reTitleVersion finds a dotted version (3.7, 1.24.2); reTitleNumber a
// number that could be a port.
var (
	reTitleVersion = regexp.MustCompile(`\b\d+(?:\.\d+)+\b`)
	reTitleNumber  = regexp.MustCompile(`\b\d{2,5}\b`)
	reNormPort     = regexp.MustCompile(`(?i)\bport (\d{2,5})\b`)
)

// normPorts returns the ports normalized output prints ("port 80").
func normPorts(norm string) []string {
	var out []string
	for _, m := range reNormPort.FindAllStringSubmatch(norm, -1) {
		out = append(out, m[1])
	}
	return out
}

// titleObjects finds the objects of a record: the symbols its title
// names. See entry.objects. The name of the tool that failed is not
// one: a title names its tool to say which tool failed (git push
// rejected), and a remote of that tool's (acme/app.git) is where, not
// what; tool_name weighs the tool.
func (ix *Index) titleObjects(title []int32, syms, tools []string) (objs []object) {
	if len(title) == 0 {
		return nil
	}
	toolTerms := make(map[string]bool)
	for _, t := range tools {
		for _, term := range Tokenize(t) {
			toolTerms[term] = true
		}
	}
	inTitle := make(map[string]int32, len(title))
	for _, id := range title {
		if name := ix.lex.names[id]; !toolTerms[name] {
			inTitle[name] = id
		}
	}
	for _, s := range syms {
		var terms []int32
		for _, t := range uniq(Tokenize(s)) {
			if id, ok := inTitle[t]; ok && !releaseTerm(t) {
				// github.com/jackc/pgx/v5 is about pgx; its v5 says
				// which release.
				terms = append(terms, id)
			}
		}
		if len(terms) > 0 {
			objs = append(objs, object{sym: ix.syms.ids[s], terms: terms})
		}
	}
	return objs
}

// delete retires doc number n. Its postings stay behind (searches skip nil
// entries) until maybeCompact rebuilds them; document frequencies are
// corrected at once. The caller holds the write lock.
func (ix *Index) delete(n int32) {
	e := ix.entries[n]
	for _, t := range e.lex {
		ix.lex.df[t.term]--
	}
	for _, id := range e.errTerms {
		ix.errs.df[id]--
	}
	if e.shape >= 0 {
		s := ix.shapes[e.shape]
		s.members--
		s.gen++
		s.count(e.stoks, func(t string) bool { return ix.inTitle(e, t) }, -1)
		for _, id := range e.title {
			s.titles[ix.lex.names[id]]--
		}
	}
	for _, id := range e.title {
		ix.titleDF[id]--
	}
	if len(e.title) > 0 {
		ix.titles--
	}
	for _, nm := range e.names {
		if ix.nameDF[nm]--; ix.nameDF[nm] <= 0 {
			delete(ix.nameDF, nm)
		}
	}
	for _, id := range e.syms {
		ix.syms.df[id]--
	}
	for _, s := range e.sigs {
		if ix.sigDF[s]--; ix.sigDF[s] <= 0 {
			delete(ix.sigDF, s)
		}
	}
	ix.entries[n] = nil
	delete(ix.byID, e.doc.ID)
	ix.live--
	ix.dead++
	ix.lexTotal -= float64(e.lexLen)
	if len(e.errTerms) > 0 {
		ix.errDocs--
	}
	if len(e.syms) > 0 {
		ix.symDocs--
	}
}

// maybeCompact rebuilds the index from its live records once removed ones
// make up a quarter of the postings, so search cost tracks the live size.
// The caller holds the write lock.
func (ix *Index) maybeCompact() {
	if ix.dead < 1024 || ix.dead < ix.live/3 {
		return
	}
	live := make([]Doc, 0, ix.live)
	for _, e := range ix.entries {
		if e != nil {
			live = append(live, e.doc)
		}
	}
	fresh := NewIndex()
	for _, d := range live {
		fresh.insert(d)
	}
	ix.entries, ix.byID = fresh.entries, fresh.byID
	ix.lex, ix.errs, ix.syms, ix.sigs, ix.sigDF = fresh.lex, fresh.errs, fresh.syms, fresh.sigs, fresh.sigDF
	ix.live, ix.dead, ix.lexTotal = fresh.live, 0, fresh.lexTotal
	ix.errDocs, ix.symDocs = fresh.errDocs, fresh.symDocs
	ix.titleDF, ix.titles, ix.nameDF = fresh.titleDF, fresh.titles, fresh.nameDF
	ix.shapes, ix.shapesByLen, ix.stoks = fresh.shapes, fresh.shapesByLen, fresh.stoks
}

// projectTerms returns the search terms of a project name.
func projectTerms(project string) map[string]bool {
	if project == "" {
		return nil
	}
	out := make(map[string]bool)
	for _, t := range Tokenize(project) {
		out[t] = true
	}
	return out
}

// withoutProject drops symbols that name the project's own packages
// (github.com/acme/<project>/...): they say where, not what.
func withoutProject(syms []string, project string) []string {
	if project == "" {
		return syms
	}
	p := "/" + strings.ToLower(project)
	out := syms[:0]
	for _, s := range syms {
		if !strings.Contains(s+"/", p+"/") {
			out = append(out, s)
		}
	}
	return out
}

func uniq(in []string) []string {
	out := in[:0:0]
	if len(in) <= uniqScan {
		// A few words: looking back costs less than a map.
		for _, s := range in {
			if s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	seen := make(map[string]bool, len(in))
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// uniqScan is how many strings uniq dedupes by scanning what it kept.
const uniqScan = 24

func lowerAll(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		out = append(out, strings.ToLower(strings.TrimSpace(s)))
	}
	return out
}

func lowerMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "os" {
			out[k] = canonOS(v)
			continue
		}
		out[k] = strings.ToLower(strings.TrimSpace(v))
	}
	return out
}
