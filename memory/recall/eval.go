package recall

import (
	"slices"
	"time"
)

// Case is one evaluation query with the record that should answer it.
// Want is empty for a query about something never stored: the right answer
// is silence.
type Case struct {
	Query Query
	Want  string
	// RootCause names what the query is about, stored or not; it is only
	// used to break reports down.
	RootCause string
}

// Report summarizes an evaluation run.
type Report struct {
	Queries     int // cases with a stored answer
	NeverStored int // cases whose answer is silence
	RecallAt1   float64
	RecallAt3   float64
	MRR         float64 // mean reciprocal rank over the first evalDepth hits
	// FalseInjection is the share of never-stored cases that got any hit
	// above the floor.
	FalseInjection float64
	P50, P95       time.Duration // per-query search latency over all cases
	// Tool and Prompt break the figures down by query kind: a query with
	// error output (a failing tool result) or one with text only.
	Tool, Prompt KindReport
}

// KindReport is the part of a Report for one kind of query.
type KindReport struct {
	Queries, NeverStored int
	RecallAt1, RecallAt3 float64
	FalseInjection       float64
}

type kindCount struct{ q, ns, at1, at3, injected int }

func (k kindCount) report() KindReport {
	r := KindReport{Queries: k.q, NeverStored: k.ns}
	if k.q > 0 {
		r.RecallAt1 = float64(k.at1) / float64(k.q)
		r.RecallAt3 = float64(k.at3) / float64(k.q)
	}
	if k.ns > 0 {
		r.FalseInjection = float64(k.injected) / float64(k.ns)
	}
	return r
}

// evalDepth is how many hits an evaluation asks for; MRR counts a record
// found below it as not found.
const evalDepth = 10

// Evaluate runs every case against ix with weights w and measures ranking
// quality, silence and latency. Queries run one at a time so the latency is
// that of a single query on an otherwise idle index.
func Evaluate(ix *Index, cases []Case, w Weights) Report {
	var r Report
	var at1, at3 int
	var rr float64
	var injected int
	var tool, prompt kindCount
	lat := make([]time.Duration, 0, len(cases))
	for _, c := range cases {
		start := time.Now()
		hits := ix.Search(c.Query, w, evalDepth)
		lat = append(lat, time.Since(start))
		kind := &prompt
		if c.Query.ErrorText != "" || c.Query.ErrorSignature != "" {
			kind = &tool
		}
		if c.Want == "" {
			r.NeverStored++
			kind.ns++
			if len(hits) > 0 {
				injected++
				kind.injected++
			}
			continue
		}
		r.Queries++
		kind.q++
		for i, h := range hits {
			if h.ID != c.Want {
				continue
			}
			if i == 0 {
				at1++
				kind.at1++
			}
			if i < 3 {
				at3++
				kind.at3++
			}
			rr += 1 / float64(i+1)
			break
		}
	}
	if r.Queries > 0 {
		r.RecallAt1 = float64(at1) / float64(r.Queries)
		r.RecallAt3 = float64(at3) / float64(r.Queries)
		r.MRR = rr / float64(r.Queries)
	}
	if r.NeverStored > 0 {
		r.FalseInjection = float64(injected) / float64(r.NeverStored)
	}
	r.P50, r.P95 = percentile(lat, 0.50), percentile(lat, 0.95)
	r.Tool, r.Prompt = tool.report(), prompt.report()
	return r
}

// percentile returns the nearest-rank percentile of d; d is reordered.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	i := int(p*float64(len(d))+0.999999) - 1
	return d[min(max(i, 0), len(d)-1)]
}
