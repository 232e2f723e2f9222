package recall

import (
	"regexp"
	"strings"
)

// Runs: what of a note's own words the failing output prints.
//
// A note quotes the output it was written about however its writer
// likes: a code span, a quoted message, a line pasted after a colon, or
// a fragment run into a sentence. Rules that find those pieces
// (NoteErrorText) miss the ways no rule foresaw. Whatever the way, a
// quote is words in the order the tool printed them, and narration is
// not: a run of three words or more that the note and the output share
// in the same order is the note quoting the output. The rarer the words
// of the shared runs (idf over the store), the more surely the note is
// about this output and not only about its kind of failure.

// runMinWords is how many words in a row a shared run needs: two words
// in a row (file not, not found) are language, three are a quote.
// runMinSrc is how many words of the note's text (between spaces) a
// run must span: one name read as several words (a host, an address,
// a package path: iam.gserviceaccount.com) is a name the note and the
// output share, not a message the note quotes.
const (
	runMinWords = 3
	runMinSrc   = 2
)

// runMass is how many of the rarest possible words (in idf²) the words
// of the shared runs must weigh to count in full, and runShare what a
// full match is worth against an exact signature: the note's words are
// evidence of the same failure as much as its quoted output is.
const (
	runMass  = 2.5
	runShare = 0.9
)

// bigram packs two lex ids into one map key.
func bigram(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// proseOf is a record's prose as the index keeps it: the words
// proseWords read, by their lex ids. A word the dictionary does not hold
// yet is added (the record is being indexed).
func (ix *Index) proseOf(w proseText) prose {
	p := prose{ids: make([]int32, len(w.toks)), marks: w.marks, src: w.src, ends: w.ends, lines: w.lines, errSeg: w.errSeg}
	for i, t := range w.toks {
		p.ids[i] = ix.lex.id(t)
	}
	return p
}

// proseText is prose with its words as text: the part of reading a
// record's words that needs no index, so that it can run anywhere
// beforehand (see Prepare).
type proseText struct {
	toks   []string
	marks  []int16
	src    []int32
	ends   []int
	lines  []int
	errSeg []bool
}

// proseWords reads a record's words in order, normalized the way output
// is so that paths and versions read alike, by segment: a sentence or a
// line, the unit a writer quotes output in. Each word is marked as the
// writer's own, part of a quoted message (a code span or quoted text of
// several words) or part of a quoted name (one word in quotes: 'Save',
// "@/lib/api").
func proseWords(text string) proseText {
	var p proseText
	name := int16(0)
	var seg strings.Builder
	closeSeg := func() {
		if n := len(p.toks); n > 0 && (len(p.ends) == 0 || p.ends[len(p.ends)-1] != n) {
			p.ends = append(p.ends, n)
			l := strings.ToLower(seg.String())
			p.errSeg = append(p.errSeg, keyLine.MatchString(l) && !reNarration.MatchString(l))
		}
		seg.Reset()
	}
	src := int32(0)
	addWords := func(s string, mark int16) {
		seg.WriteString(s)
		seg.WriteByte(' ')
		for _, f := range strings.Fields(NormalizeError(s)) {
			src++
			for _, t := range Tokenize(f) {
				p.toks = append(p.toks, t)
				p.marks = append(p.marks, mark)
				p.src = append(p.src, src)
			}
		}
	}
	narration := func(s string) {
		for {
			loc := reSentenceEnd.FindStringIndex(s)
			if loc == nil {
				addWords(s, markOwn)
				return
			}
			addWords(s[:loc[0]], markOwn)
			closeSeg()
			s = s[loc[1]:]
		}
	}
	for _, line := range strings.Split(text, "\n") {
		last := 0
		for _, m := range reProseQuote.FindAllStringSubmatchIndex(line, -1) {
			narration(line[last:m[0]])
			last = m[1]
			var q string
			for g := 2; g < len(m); g += 2 {
				if m[g] >= 0 {
					q = line[m[g]:m[g+1]]
				}
			}
			switch {
			case strings.ContainsAny(strings.TrimSpace(q), " \t"):
				addWords(q, markQuote)
			case quotedPlace(q):
				// A file is where a failure was met, not what it is
				// about: the same failure happens in every file.
				addWords(q, markQuote)
			default:
				name++
				addWords(q, name)
			}
		}
		narration(line[last:])
		closeSeg()
		p.lines = append(p.lines, len(p.toks))
	}
	return p
}

// The marks of prose words: the writer's own, in a quoted message, or
// (markName and up) in the quoted name of that number.
const (
	markOwn   int16 = 0
	markQuote int16 = -1
)

// reProseQuote finds what a writer quotes: a code span, a quoted
// message, a name in single quotes, or a message in single quotes
// between spaces (an apostrophe inside a word is not a quote).
var reProseQuote = regexp.MustCompile("`([^`\n]+)`|\"([^\"\n]+)\"|“([^”\n]+)”|‘([^’\n]+)’|'([^'\\s]+)'|(?:^|[\\s(])'([^'\n]+)'(?:[\\s,.;:)]|$)")

// reSentenceEnd ends a sentence: a full stop, colon, semicolon or mark
// before a space or the end (not the dot of a file name or a version).
var reSentenceEnd = regexp.MustCompile(`[.;!?](?:\s+|$)`)

// quotedPlace reports whether a quoted name is a file or a path with a
// file's extension.
func quotedPlace(q string) bool {
	i := strings.LastIndexByte(q, '.')
	return i > 0 && fileExts[strings.ToLower(q[i+1:])]
}

// queryBigrams are the pairs of adjacent words of the query's
// normalized output that the dictionary holds, and the words.
func (ix *Index) queryBigrams(norm string) (map[uint64]bool, map[int32]bool) {
	toks := Tokenize(norm)
	pairs := make(map[uint64]bool, len(toks))
	words := make(map[int32]bool, len(toks))
	prev := int32(-1)
	for _, t := range toks {
		id, ok := ix.lex.ids[t]
		if !ok {
			prev = -1
			continue
		}
		words[id] = true
		if prev >= 0 {
			pairs[bigram(prev, id)] = true
		}
		prev = id
	}
	return pairs, words
}

// runSignal scores 0..1 how much of what the record's words quote the
// query's output prints, with the runs it found. A segment of the note
// that shares a run of runMinWords words or more with the output quotes
// it. Its quote is what it marks as quoted, when a run goes through a
// quoted message, or the whole segment; it counts by the share of its
// words (idf-weighted) that the output prints anywhere: the words it
// quotes that the output does not print say the output is another
// failure of the kind. A quoted name of the segment that the output does
// not print at all ('Save', "@/lib/api") is what the note's failure was
// about, and the output is about something else: that segment counts
// for nothing. The shared words must also weigh runMass of the rarest
// words for the match to count in full: a short quote of a kind's
// wording matches every failure of the kind.
func (ix *Index) runSignal(qb map[uint64]bool, qw map[int32]bool, e *entry) (float64, string) {
	p := &e.prose
	if len(qb) == 0 || len(p.ids) < runMinWords {
		return 0, ""
	}
	idfMax := bm25IDF(ix.live, 1)
	if idfMax <= 0 {
		return 0, ""
	}
	var have, total, mass float64
	var runs []string
	counted := map[int32]bool{}
	from := 0
	var unquoted []int
	for n, end := range p.ends {
		lo, hi := from, end
		from = end
		var words []string
		quoteRun := false
		for i := lo; i < hi-1; {
			j := i
			for j < hi-1 && qb[bigram(p.ids[j], p.ids[j+1])] {
				j++
			}
			if j-i+1 >= runMinWords && int(p.src[j]-p.src[i])+1 >= runMinSrc {
				for k := i; k <= j; k++ {
					words = append(words, ix.lex.names[p.ids[k]])
					quoteRun = quoteRun || p.marks[k] == markQuote
				}
			}
			i = j + 1
		}
		if len(words) == 0 {
			if p.errSeg[n] {
				unquoted = append(unquoted, n)
			}
			continue
		}
		if p.missingName(p.lineOf(lo, hi), qw) {
			continue
		}
		runs = append(runs, strings.Join(words, " "))
		for k := lo; k < hi; k++ {
			id := p.ids[k]
			if counted[id] || quoteRun && p.marks[k] == markOwn {
				continue
			}
			counted[id] = true
			idf := bm25IDF(ix.live, int(ix.lex.df[id]))
			total += idf
			if qw[id] {
				have += idf
				mass += idf * idf
			}
		}
	}
	if have == 0 {
		return 0, ""
	}
	for _, n := range unquoted {
		// A line of the note shaped like an error that the output does
		// not quote: the note's failure printed more than this output.
		lo := 0
		if n > 0 {
			lo = p.ends[n-1]
		}
		for _, id := range p.ids[lo:p.ends[n]] {
			if !counted[id] {
				counted[id] = true
				idf := bm25IDF(ix.live, int(ix.lex.df[id]))
				total += idf
				if qw[id] {
					have += idf
				}
			}
		}
	}
	return runShare * (have / total) * min(1, mass/(runMass*idfMax*idfMax)), strings.Join(runs, " / ")
}

// lineOf returns the bounds of the line words lo..hi lie in: a quoted
// name is about the failure its line quotes, whichever sentence of the
// pasted output holds it.
func (p *prose) lineOf(lo, hi int) [2]int {
	start := 0
	for _, end := range p.lines {
		if hi <= end {
			return [2]int{start, end}
		}
		start = end
	}
	return [2]int{lo, hi}
}

// missingName reports whether a quoted name among the words in line has
// none of its words in qw.
func (p *prose) missingName(line [2]int, qw map[int32]bool) bool {
	seen := map[int16]bool{}
	for k := line[0]; k < line[1]; k++ {
		if m := p.marks[k]; m > 0 {
			seen[m] = seen[m] || qw[p.ids[k]]
		}
	}
	for _, found := range seen {
		if !found {
			return true
		}
	}
	return false
}
