package recall_test

import (
	"reflect"
	"testing"

	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/memory/recall/internal/gen"
)

// TestPrepareIndexesTheSame: documents prepared beforehand (as a node's
// start prepares them on every core) give every query the same hits as
// the same documents added as they are, and a prepared document whose
// texts changed since is read again.
func TestPrepareIndexesTheSame(t *testing.T) {
	c := gen.Generate(gen.Config{Seed: corpusSeed, Records: 1500})
	plain, prepared := recall.NewIndex(), recall.NewIndex()
	for i, d := range c.Docs {
		p := recall.Prepare(d)
		if i%10 == 0 {
			// Changed after Prepare: what the index reads must be the
			// document as added.
			d.ErrorText += "\nerror: one more line"
			p.ErrorText = d.ErrorText
		}
		if err := plain.Add(d); err != nil {
			t.Fatal(err)
		}
		if err := prepared.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	w := recall.DefaultWeights()
	for _, cs := range c.Cases {
		want, got := plain.Search(cs.Query, w, 5), prepared.Search(cs.Query, w, 5)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("query %q: prepared documents gave %v, as they are %v", cs.Query.ErrorText, got, want)
		}
	}
}
