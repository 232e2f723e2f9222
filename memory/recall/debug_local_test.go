package recall_test

import (
	"strings"
	"testing"

	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/memory/recall/internal/gen"
)

func TestDebugGenMisses(t *testing.T) {
	c := gen.Generate(gen.Config{Seed: corpusSeed, Records: smallCorpusRecords})
	ix := buildIndex(t, c)
	titles := map[string]string{}
	errs := map[string]string{}
	for _, d := range c.Docs {
		titles[d.ID] = d.Title
		errs[d.ID] = d.ErrorText
	}
	for _, cs := range c.Cases {
		if cs.Want == "" || cs.Query.ErrorText == "" {
			continue
		}
		hits := ix.Search(cs.Query, recall.DefaultWeights(), 3)
		if len(hits) == 0 || hits[0].ID != cs.Want {
			l, _, _ := strings.Cut(strings.TrimSpace(cs.Query.ErrorText), "\n")
			t.Logf("MISS want %q\n  query: %s\n  rec: %.200q", titles[cs.Want], l, errs[cs.Want])
		}
	}
}
