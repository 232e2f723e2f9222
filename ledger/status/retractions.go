package status

import (
	"slices"
	"time"
)

// Retraction is a paper's retraction on the log ("Retracting a paper"):
// it covers every version of the paper, and its claims are Retracted.
type Retraction struct {
	Index  uint64
	At     time.Time
	Author string
	Bundle string // the version it named
	Reason string
	Notice string // the digest of the notice's words
}

// retract reads a retraction entry: only the paper's author retracts it,
// once.
func (d *Deriver) retract(index uint64, at time.Time, entry map[string]any) {
	hash, _ := entry["bundle"].(string)
	b := d.bundles[hash]
	author, _ := entry["author"].(string)
	if b == nil || author != b.author || d.retractions[b.paper] != nil {
		return
	}
	r := &Retraction{Index: index, At: at, Author: author, Bundle: hash}
	r.Reason, _ = entry["reason"].(string)
	r.Notice, _ = entry["notice"].(string)
	d.retractions[b.paper] = r
	d.retractionOrder = append(d.retractionOrder, b.paper)
	d.touchPaper(b.paper)
}

// RetractionOf returns the retraction of the paper bundle is a version
// of, false when it was not retracted.
func (d *Deriver) RetractionOf(bundle string) (Retraction, bool) {
	b := d.bundles[bundle]
	if b == nil {
		return Retraction{}, false
	}
	r := d.retractions[b.paper]
	if r == nil {
		return Retraction{}, false
	}
	return *r, true
}

// Retractions lists every retraction, newest first.
func (d *Deriver) Retractions() []Retraction {
	out := make([]Retraction, 0, len(d.retractionOrder))
	for _, paper := range slices.Backward(d.retractionOrder) {
		out = append(out, *d.retractions[paper])
	}
	return out
}

// retractedBy returns the retraction covering one of c's bundles.
func (d *Deriver) retractedBy(c *claimState) *Retraction {
	for _, b := range c.bundles {
		if r := d.retractions[b.paper]; r != nil {
			return r
		}
	}
	return nil
}
