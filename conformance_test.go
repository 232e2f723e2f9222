package agora_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
)

// conformanceSuites maps each vector file of the protocol's conformance suite
// to the test that runs every case in it. A vector file with no entry here
// fails the test, so new files are noticed, not skipped.
var conformanceSuites = map[string]func(t *testing.T, data []byte){
	"claim-id-vectors.json":  claimIDVectors,
	"bundle-vectors.json":    bundleVectors,
	"log-vectors.json":       logVectors,
	"signature-vectors.json": signatureVectors,
	"id-vectors.json":        idVectors,
}

// TestConformance runs every case of every vector file in
// testdata/conformance, a copy of the reference library's conformance suite.
// When a ../shared/conformance folder beside the checkout holds vector files
// testdata lacks, or another version of one, they run too, under shared/, so
// a newer suite is noticed; what the base pass reads never changes.
func TestConformance(t *testing.T) {
	dir := testvectors.ConformanceDir()
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no vector files in %s: %v", dir, err)
	}
	for _, path := range names {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) { runVectorFile(t, path) })
	}
	for _, path := range testvectors.SharedConformanceExtras() {
		t.Run("shared/"+strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) { runVectorFile(t, path) })
	}
}

func runVectorFile(t *testing.T, path string) {
	name := filepath.Base(path)
	suite, ok := conformanceSuites[name]
	if !ok {
		t.Fatalf("vector file %s has no test: add it to conformanceSuites", name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	suite(t, data)
}
