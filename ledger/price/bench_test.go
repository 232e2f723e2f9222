package price

import "testing"

func BenchmarkCompute(b *testing.B) {
	bu := Needs{
		Minutes: 90, Computations: true, Proofs: true, Citations: 12, Measurements: true,
		Replication: []WorkHours{{Kind: "lab", Hours: 40}, {Kind: "compute", Hours: 2}},
	}
	r := Rates{CPU: 2, GPU: 3, Lab: 4, Field: 1, Commons: 10}
	for b.Loop() {
		if _, err := Compute(bu, r, Paid); err != nil {
			b.Fatal(err)
		}
	}
}
