package node

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/library"
)

// TestLibraryExamplesFolder publishes examples/library, the body of every
// kind the README points newcomers to, in the order of the files' names,
// each "$name" in a file standing for the revision ID the file NN-name.json
// got. Every kind of the contract is there, and the node admits each one.
func TestLibraryExamplesFolder(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../examples/library/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	slices.Sort(files)
	var steps []any
	kinds := map[string]bool{}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var content map[string]any
		if err := json.Unmarshal(text, &content); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		kinds[content["kind"].(string)] = true
		_, name, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".json"), "-")
		// Votes and proposals are someone else's word on the work.
		actor := "owner"
		if k := content["kind"].(string); k == "vote" || strings.HasSuffix(k, "proposal") {
			actor = "peer"
		}
		steps = append(steps, map[string]any{"name": name, "actor": actor, "content": content})
	}
	for _, k := range library.Kinds() {
		if !kinds[k] {
			t.Errorf("examples/library has no %s", k)
		}
	}
	n, srv := testNode(t)
	actors := map[string]author{"owner": newAuthor(t, n, srv.URL), "peer": newAuthor(t, n, srv.URL)}
	runExamples(t, srv.URL, steps, actors, map[string]string{}, "")
}
