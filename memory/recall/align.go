package recall

import (
	"slices"
	"strings"
)

// Aligned lines: how much of each line a note quotes the failing output
// prints on one line of its own.
//
// A note quotes output line by line: a message, a line of a stack, the
// summary. The words of a quoted line are the words of one line the tool
// printed (or of two, when a terminal wrapped it). Counted over the
// whole output, the words of one quoted line are found scattered over
// lines about other things (code, command, found, error), and a note
// about one failure matches the output of another. Counted line by line
// against the output line that prints most of it, a quoted line matches
// only output that prints it.

// alignWindow is how many consecutive output lines one quoted line may
// be found in: a message wrapped by the terminal or the tool spans two.
const alignWindow = 2

// errLineIDs splits normalized output into lines of unique error-term
// ids, in the dictionary d (which grows when add is set), without the
// terms in skip. Lines without terms are left out.
func errLineIDs(d *dict, norm string, skip map[string]bool, add bool) [][]int32 {
	var out [][]int32
	for _, l := range strings.Split(norm, "\n") {
		var ids []int32
		seen := map[int32]bool{}
		for _, t := range Tokenize(l) {
			if skip[t] {
				continue
			}
			var id int32
			if add {
				id = d.id(t)
			} else if known, ok := d.ids[t]; ok {
				id = known
			} else {
				continue
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			out = append(out, ids)
		}
	}
	return out
}

// queryLines indexes the query's output lines by the error terms on
// them: for each term, the lines (in order) that print it.
type queryLines struct {
	n     int
	lines map[int32][]int32
	acc   []float64 // scratch of n, for one search's scoring (one goroutine)
}

func newQueryLines(d *dict, norm string, skip map[string]bool) queryLines {
	var q queryLines
	q.lines = map[int32][]int32{}
	for _, l := range strings.Split(norm, "\n") {
		found := false
		for _, t := range uniq(Tokenize(l)) {
			if skip[t] {
				continue
			}
			if id, ok := d.ids[t]; ok {
				q.lines[id] = append(q.lines[id], int32(q.n))
				found = true
			}
		}
		if found {
			q.n++
		}
	}
	q.acc = make([]float64, q.n)
	return q
}

// aligned returns the idf²-weighted share of the record's quoted lines
// (lines) that the query prints line by line (each quoted line against
// the window of alignWindow output lines that prints most of it), the
// idf² mass of what it prints so, and the terms it prints.
func (ix *Index) aligned(q queryLines, lines [][]int32) (share, mass float64, shared []int32) {
	if q.n == 0 || len(lines) == 0 {
		return 0, 0, nil
	}
	acc := q.acc
	if len(acc) < q.n {
		acc = make([]float64, q.n)
	}
	weight := func(id int32) float64 {
		idf := bm25IDF(ix.errDocs, int(ix.errs.df[id]))
		return idf * idf
	}
	var total float64
	for _, line := range lines {
		best, at, lineMass := q.bestWindow(line, weight, acc)
		total += lineMass
		mass += best
		shared = q.onWindow(line, at, shared)
	}
	if total <= 0 {
		return 0, 0, nil
	}
	return mass / total, mass, shared
}

// bestWindow finds the window of alignWindow output lines that prints
// the most of ids (by weight), with what it prints, where it starts (-1
// for none) and the weight of all of ids. acc is scratch of q.n.
func (q queryLines) bestWindow(ids []int32, weight func(int32) float64, acc []float64) (best float64, at int, all float64) {
	clear(acc)
	for _, id := range ids {
		w := weight(id)
		all += w
		prev := int32(-alignWindow)
		for _, l := range q.lines[id] {
			// A term printed on several lines of a window counts once
			// in it.
			for k := max(l-alignWindow+1, prev+1); k <= l; k++ {
				if k >= 0 {
					acc[k] += w
				}
			}
			prev = l
		}
	}
	at = -1
	for k, v := range acc {
		if v > best {
			best, at = v, k
		}
	}
	return best, at, all
}

// onWindow appends to out the ids printed on the window that starts at
// line at.
func (q queryLines) onWindow(ids []int32, at int, out []int32) []int32 {
	if at < 0 {
		return out
	}
	for _, id := range ids {
		for _, l := range q.lines[id] {
			if l >= int32(at) && l < int32(at+alignWindow) {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// errTermNames names error terms, rarest first, at most n, each once.
func (ix *Index) errTermNames(ids []int32, n int) string {
	seen := map[int32]bool{}
	var u []int32
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			u = append(u, id)
		}
	}
	sortByDF(u, ix.errs.df)
	var out []string
	for i := 0; i < len(u) && i < n; i++ {
		out = append(out, ix.errs.names[u[i]])
	}
	return strings.Join(out, " ")
}

// sortByDF orders ids by their document frequency in df, rarest first;
// equal ones keep their order.
func sortByDF(ids []int32, df []int32) {
	slices.SortStableFunc(ids, func(a, b int32) int { return int(df[a] - df[b]) })
}
