package claims_test

import (
	"encoding/json"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/ledger/claims"
)

// The reference library's speed on the same work (Node 20, one thread, on a
// 2-vCPU EPYC machine like ours), from bench/README.md.
const (
	referenceIDsOnly = 937.5 // assignClaimIds, 30 claims, pre-validated
	referenceFull    = 459.9 // parseJson + ClaimsFileSchema.parse + assignClaimIds
)

// benchClaims reads claims-30.json, its inputs and the expected IDs, and
// checks the IDs before anything is timed, so a benchmark never reports the
// speed of wrong work.
func benchClaims(b *testing.B) (text []byte, inputs string, results map[string]any) {
	dir := testvectors.BenchDir()
	text = testvectors.Read(b, dir, "inputs", "claims-30.json")
	v, err := canonical.Parse(testvectors.Read(b, dir, "inputs", "claims-30-inputs.json"))
	if err != nil {
		b.Fatal(err)
	}
	in := v.(map[string]any)
	inputs, results = in["verification_inputs"].(string), in["results"].(map[string]any)

	var expected struct {
		ClaimIDs map[string]string `json:"claim_ids"`
	}
	if err := json.Unmarshal(testvectors.Read(b, dir, "expected-outputs.json"), &expected); err != nil {
		b.Fatal(err)
	}
	cs, issues, err := claims.ParseFile(text)
	if err != nil || issues != nil {
		b.Fatal(err, issues)
	}
	ids, err := claims.AssignIDs(cs, inputs, results)
	if err != nil {
		b.Fatal(err)
	}
	if len(ids) != len(expected.ClaimIDs) || len(ids) != 30 {
		b.Fatalf("%d IDs, want %d", len(ids), len(expected.ClaimIDs))
	}
	for i, c := range cs {
		if ids[i] != expected.ClaimIDs[c.LocalID] {
			b.Fatalf("%s: %s, want %s", c.LocalID, ids[i], expected.ClaimIDs[c.LocalID])
		}
	}
	return text, inputs, results
}

// reportAgainst adds ops/s and the ratio to the reference's ops/s.
func reportAgainst(b *testing.B, reference float64) {
	ops := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(ops, "ops/s")
	b.ReportMetric(ops/reference, "x-reference")
}

// BenchmarkClaimIDs is the row "claim IDs (IDs only)": the 30 IDs of
// claims-30.json, already parsed and validated.
func BenchmarkClaimIDs(b *testing.B) {
	text, inputs, results := benchClaims(b)
	cs, _, _ := claims.ParseFile(text)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := claims.AssignIDs(cs, inputs, results); err != nil {
			b.Fatal(err)
		}
	}
	reportAgainst(b, referenceIDsOnly)
}

// BenchmarkClaimIDsFull is the row "claim IDs (full)": from the text of
// claims-30.json, strict parse, schema validation and the IDs.
func BenchmarkClaimIDsFull(b *testing.B) {
	text, inputs, results := benchClaims(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		cs, issues, err := claims.ParseFile(text)
		if err != nil || issues != nil {
			b.Fatal(err, issues)
		}
		if _, err := claims.AssignIDs(cs, inputs, results); err != nil {
			b.Fatal(err)
		}
	}
	reportAgainst(b, referenceFull)
}
