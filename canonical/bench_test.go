package canonical

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
)

// The benchmarks do the exact work of testdata/bench (its README lists the
// reference library's figures) and first check they produce its expected
// outputs.

type benchExpected struct {
	Canonical1kBytes    int    `json:"canonical_1k_bytes"`
	Canonical1kSHA256   string `json:"canonical_1k_sha256"`
	Canonical100kBytes  int    `json:"canonical_100k_bytes"`
	Canonical100kSHA256 string `json:"canonical_100k_sha256"`
}

func loadBench(b *testing.B, input string) (any, benchExpected) {
	dir := testvectors.BenchDir()
	var want benchExpected
	if err := json.Unmarshal(testvectors.Read(b, dir, "expected-outputs.json"), &want); err != nil {
		b.Fatal(err)
	}
	v, err := Parse(testvectors.Read(b, dir, "inputs", input))
	if err != nil {
		b.Fatal(err)
	}
	return v, want
}

func checkCanonical(b *testing.B, out []byte, size int, sum string) {
	h := sha256.Sum256(out)
	if len(out) != size || hex.EncodeToString(h[:]) != sum {
		b.Fatalf("canonical output: %d bytes, sha256 %x; want %d bytes, %s", len(out), h, size, sum)
	}
}

func benchMarshal(b *testing.B, input string, size func(benchExpected) (int, string)) {
	v, want := loadBench(b, input)
	n, sum := size(want)
	out, err := Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	checkCanonical(b, out, n, sum)
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if _, err := Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
	testvectors.ReportCPU(b, start)
}

// Reference: 78,344.7 ops/s.
func BenchmarkCanonical1K(b *testing.B) {
	benchMarshal(b, "obj-1k.json", func(e benchExpected) (int, string) { return e.Canonical1kBytes, e.Canonical1kSHA256 })
}

// Reference: 488.5 ops/s.
func BenchmarkCanonical100K(b *testing.B) {
	benchMarshal(b, "obj-100k.json", func(e benchExpected) (int, string) { return e.Canonical100kBytes, e.Canonical100kSHA256 })
}

// Reference: 358.4 ops/s.
func BenchmarkStrictParse100K(b *testing.B) {
	_, want := loadBench(b, "obj-100k.json")
	text := testvectors.Read(b, testvectors.BenchDir(), "inputs", "doc-100k.json")
	v, err := Parse(text)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := Marshal(v)
	checkCanonical(b, out, want.Canonical100kBytes, want.Canonical100kSHA256)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	start := testvectors.ProcessCPU()
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
	testvectors.ReportCPU(b, start)
}
