package bundle_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/ledger/bundle"
)

// referenceDigest is the reference library's digestBundle on bundle-200
// (Node 20, one thread, a 2-vCPU EPYC machine like ours), from
// bench/README.md.
const referenceDigest = 82.6

// BenchmarkDigest is the row "bundle digest": per-file digests, bundle hash
// and verification inputs of bundle-200, its 200 files (1,952,873 bytes)
// read into memory first. The digests are checked against
// expected-outputs.json before anything is timed.
func BenchmarkDigest(b *testing.B) {
	dir := testvectors.BenchDir()
	files, err := bundle.ReadDir(filepath.Join(dir, "inputs", "bundle-200"))
	if err != nil {
		b.Fatal(err)
	}
	var expected struct {
		Bundle             string `json:"bundle"`
		VerificationInputs string `json:"verification_inputs"`
	}
	if err := json.Unmarshal(testvectors.Read(b, dir, "expected-outputs.json"), &expected); err != nil {
		b.Fatal(err)
	}
	got, err := bundle.Digest(files)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, data := range files {
		size += len(data)
	}
	if len(files) != 200 || size != 1_952_873 || got.Bundle != expected.Bundle || got.VerificationInputs != expected.VerificationInputs {
		b.Fatalf("%d files, %d bytes, bundle %s, inputs %s; want 200 files, 1952873 bytes, %s, %s",
			len(files), size, got.Bundle, got.VerificationInputs, expected.Bundle, expected.VerificationInputs)
	}

	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bundle.Digest(files); err != nil {
			b.Fatal(err)
		}
	}
	ops := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(ops, "ops/s")
	b.ReportMetric(ops/referenceDigest, "x-reference")
}
