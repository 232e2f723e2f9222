package recall_test

import (
	"fmt"
	"testing"

	"github.com/agora-node/agora/memory/recall"
)

// shapeIndex holds one kind of failure about several modules, and another
// kind about one of the same modules.
func shapeIndex(t *testing.T) *recall.Index {
	t.Helper()
	ix := recall.NewIndex()
	for i, mod := range []string{"chalk", "nanoid", "got", "execa"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("esm-%d", i),
			Title:     "ERR_REQUIRE_ESM: require() of ES module " + mod,
			Content:   "Pin the last CommonJS major of " + mod + " or switch to import().",
			ErrorText: "Error [ERR_REQUIRE_ESM]: require() of ES Module /srv/app/node_modules/" + mod + "/index.js not supported.",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, mod := range []string{"express", "lodash", "react"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("ts-%d", i),
			Title:     "TS2307 cannot find module '" + mod + "'",
			Content:   "Install @types for " + mod + " or map the path alias.",
			ErrorText: "src/app.ts(3,1): error TS2307: Cannot find module '" + mod + "' or its corresponding type declarations.",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, mod := range []string{"dotenv", "sharp", "bcrypt"} {
		err := ix.Add(recall.Doc{
			ID:        fmt.Sprintf("node-%d", i),
			Title:     "node: Error: Cannot find module '" + mod + "'",
			Content:   "Run npm ci after the lockfile change.",
			ErrorText: "Error: Cannot find module '" + mod + "'\nRequire stack:\n- /srv/app/src/server.js",
			Project:   "shop",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ix
}

func TestShapeKeyTellsObjectsApart(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	q := recall.Query{ErrorText: "Error [ERR_REQUIRE_ESM]: require() of ES Module /home/bob/x/node_modules/nanoid/index.js not supported.", Now: now}
	hits := ix.Search(q, w, 3)
	if len(hits) == 0 || hits[0].ID != "esm-1" {
		t.Fatalf("nanoid query: hits = %v, want esm-1 first", ids(hits))
	}
	if len(hits) > 1 {
		t.Errorf("nanoid query: hits = %v, want only esm-1: the others are about another module", ids(hits))
	}
	q.ErrorText = "Error [ERR_REQUIRE_ESM]: require() of ES Module /home/bob/x/node_modules/p-limit/index.js not supported."
	if hits := ix.Search(q, w, 3); len(hits) > 0 {
		t.Errorf("p-limit is not stored, got %v", ids(hits))
	}
}

func TestShapeKindSilencesAnotherKindAboutTheSameObject(t *testing.T) {
	ix := shapeIndex(t)
	w := recall.DefaultWeights()
	// node cannot find express at run time: a TS2307 record about
	// express is another root cause.
	q := recall.Query{ErrorText: "Error: Cannot find module 'express'\nRequire stack:\n- /home/bob/app/src/index.js", Now: now}
	for _, h := range ix.Search(q, w, 5) {
		if h.ID == "ts-0" {
			t.Errorf("runtime query found the TS2307 record: %+v", h.Reasons)
		}
	}
	// The TS2307 output itself still finds it.
	q = recall.Query{ErrorText: "lib/x.ts(9,4): error TS2307: Cannot find module 'express' or its corresponding type declarations.", Now: now}
	if hits := ix.Search(q, w, 3); len(hits) == 0 || hits[0].ID != "ts-0" {
		t.Errorf("TS2307 query: hits = %v, want ts-0 first", ids(hits))
	}
}

func ids(hits []recall.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
