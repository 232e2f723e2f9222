package testvectors

import (
	"testing"
	"time"
)

// ReportCPU reports, as "cpu-ns/op", the CPU time the whole process used
// (every thread, the collector's too) per iteration since start, a
// ProcessCPU reading taken just before the benchmark's loop. On a machine
// other work shares, a benchmark's wall time counts the time it waited for
// a core; its CPU time mostly does not, so scripts/side-by-side compares
// both. Where the platform does not say, nothing is reported.
func ReportCPU(b *testing.B, start time.Duration) {
	end := ProcessCPU()
	if end == 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
}
