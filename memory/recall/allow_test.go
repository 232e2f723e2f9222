package recall_test

import (
	"fmt"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

// TestSearchAllow checks Query.Allow: records the asker may not read are
// never hits, and never take the candidates' places either, so a readable
// record behind a thousand unreadable ones that match as well is found.
func TestSearchAllow(t *testing.T) {
	const text = "Error: Cannot find module 'lodash'\nRequire stack:\n- /srv/app/index.js"
	var docs []recall.Doc
	for i := range 1200 {
		docs = append(docs, doc(fmt.Sprintf("foreign-%04d", i), "Cannot find module 'lodash'", text))
	}
	docs = append(docs, doc("own", "Cannot find module 'lodash'", text))
	ix := smallIndex(t, docs...)
	q := recall.Query{ErrorText: text, Now: now, Allow: func(id string) bool { return id == "own" }}
	hits := ix.Search(q, recall.DefaultWeights(), 3)
	if len(hits) != 1 || hits[0].ID != "own" {
		t.Fatalf("hits = %+v, want only own", hits)
	}
	q.Allow = func(string) bool { return false }
	if hits := ix.Search(q, recall.DefaultWeights(), 3); len(hits) != 0 {
		t.Errorf("nothing allowed, yet hits = %+v", hits)
	}
}
