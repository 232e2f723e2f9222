// Package testvectors finds the protocol's conformance vectors and benchmark
// inputs for tests: the shared copies beside the checkout when they exist, so
// new vector files are picked up, and the copies in testdata/ otherwise.
package testvectors

import (
	"os"
	"path/filepath"
	"runtime"
)

// ModuleRoot is the directory holding go.mod.
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// ConformanceDir is ../shared/conformance when present, else testdata/conformance.
func ConformanceDir() string { return pick("conformance") }

// BenchDir is ../shared/bench when present, else testdata/bench.
func BenchDir() string { return pick("bench") }

func pick(name string) string {
	root := ModuleRoot()
	shared := filepath.Join(root, "..", "shared", name)
	if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
		return shared
	}
	return filepath.Join(root, "testdata", name)
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
