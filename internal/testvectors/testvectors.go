// Package testvectors finds the protocol's conformance vectors and benchmark
// inputs for tests: the copies in testdata/conformance and testdata/bench,
// always, so a clean clone tests the same as any other checkout.
//
// SharedConformanceExtras offers one optional addition: vector files in a
// ../shared/conformance folder beside the checkout that testdata lacks, or
// holds in another version, for a pass of their own. It never changes what
// ConformanceDir and BenchDir give.
//
// Where the copies came from: testdata/conformance and spec/README.md.
package testvectors

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
)

// ModuleRoot is the directory holding go.mod.
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// ConformanceDir is testdata/conformance, the conformance vectors.
func ConformanceDir() string { return filepath.Join(ModuleRoot(), "testdata", "conformance") }

// BenchDir is testdata/bench, the benchmark inputs and expected outputs.
func BenchDir() string { return filepath.Join(ModuleRoot(), "testdata", "bench") }

// SharedConformanceExtras returns the paths of the *.json vector files in
// ../shared/conformance beside the checkout that testdata/conformance lacks
// or holds with other bytes, or nil when there is no such folder or nothing
// in it adds to testdata.
func SharedConformanceExtras() []string {
	shared := filepath.Join(ModuleRoot(), "..", "shared", "conformance")
	paths, _ := filepath.Glob(filepath.Join(shared, "*.json"))
	var extras []string
	for _, path := range paths {
		theirs, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		ours, err := os.ReadFile(filepath.Join(ConformanceDir(), filepath.Base(path)))
		if err == nil && bytes.Equal(ours, theirs) {
			continue
		}
		extras = append(extras, path)
	}
	return extras
}

// Read reads a file under dir, failing the test on error.
func Read(t interface {
	Helper()
	Fatal(...any)
}, dir string, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
