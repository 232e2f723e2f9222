package translog

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// benchAppenders is how many appends BenchmarkAppend keeps in flight: an
// append waits for its checkpoint (up to CheckpointInterval), so
// throughput is about appenders / latency.
const benchAppenders = 4096

// benchLeaf is a leaf of a typical size (about 400 bytes), unique for n.
func benchLeaf(b testing.TB, n int64) []byte {
	leaf, err := canonical.Marshal(map[string]any{
		"timestamp": "2026-10-02T12:00:00.000Z",
		"operator":  "op:" + strings.Repeat("ab", 32),
		"entry": map[string]any{
			"type":     "attestation",
			"n":        n,
			"bundle":   "sha256:" + strings.Repeat("12", 32),
			"claim":    "claim:" + strings.Repeat("0f", 32),
			"verdict":  "reproduced",
			"evidence": []any{"sha256:" + strings.Repeat("34", 32), "sha256:" + strings.Repeat("56", 32)},
			"time":     "2026-10-02T12:00:00.000Z",
			"sig":      "sha256:" + strings.Repeat("cd", 32),
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	return leaf
}

// BenchmarkAppend appends from benchAppenders goroutines at once on the
// default configuration, and reports appends per second and the p50 and
// p99 of the time from the Append call to its return, which is the time
// to a published checkpoint and tree head covering the entry. Run it
// with a fixed count for a sustained figure:
//
//	go test -run x -bench Append -benchtime 30000x ./translog
func BenchmarkAppend(b *testing.B) {
	cfg := testConfig(b, b.TempDir())
	cfg.CheckpointInterval = 0 // the defaults
	cfg.BatchMaxAge = 0
	l, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close(context.Background())
	var seq atomic.Int64
	var mu sync.Mutex
	latencies := make([]time.Duration, 0, b.N)
	b.SetParallelism(max(1, benchAppenders/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			leaf := benchLeaf(b, seq.Add(1))
			t0 := time.Now()
			if _, err := l.Append(context.Background(), leaf); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "appends/s")
	b.ReportMetric(ms(percentile(latencies, 0.50)), "p50_ms")
	b.ReportMetric(ms(percentile(latencies, 0.99)), "p99_ms")
	b.ReportMetric(0, "ns/op") // meaningless here: appends overlap
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchLogSize is the size of the log the read benchmarks read.
const benchLogSize = 20000

var (
	benchOnce sync.Once
	benchLog  *Log
	benchDir  string
	benchErr  error
)

// sharedLog returns a log of benchLogSize entries, built once for all the
// read benchmarks and closed by TestMain.
func sharedLog(b *testing.B) *Log {
	b.Helper()
	benchOnce.Do(func() {
		if benchDir, benchErr = os.MkdirTemp("", "translog-bench-"); benchErr != nil {
			return
		}
		cfg := testConfig(b, benchDir)
		if benchLog, benchErr = Open(context.Background(), cfg); benchErr != nil {
			return
		}
		var wg sync.WaitGroup
		var next atomic.Int64
		errs := make(chan error, benchAppenders)
		for range benchAppenders {
			wg.Go(func() {
				for n := next.Add(1); n <= benchLogSize; n = next.Add(1) {
					if _, err := benchLog.Append(context.Background(), benchLeaf(b, n)); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		benchErr = <-errs
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchLog
}

func closeBenchLog() {
	if benchLog != nil {
		benchLog.Close(context.Background())
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
}

// BenchmarkInclusionProof builds inclusion proofs of random leaves in the
// latest tree of a 20,000-entry log from its tiles, from every core.
func BenchmarkInclusionProof(b *testing.B) {
	l := sharedLog(b)
	size := l.Size()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 0))
		for pb.Next() {
			if _, err := l.InclusionProof(context.Background(), r.Uint64N(size), size); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "proofs/s")
}

// BenchmarkConsistencyProof builds consistency proofs from random earlier
// sizes to the latest tree of a 20,000-entry log, from every core.
func BenchmarkConsistencyProof(b *testing.B) {
	l := sharedLog(b)
	size := l.Size()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 0))
		for pb.Next() {
			if _, err := l.ConsistencyProof(context.Background(), 1+r.Uint64N(size-1), size); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "proofs/s")
}

// BenchmarkReceiptRead does what serving one receipt takes of the log: the
// leaf and its inclusion proof against the latest tree head, checked with
// the protocol core, for random leaves.
func BenchmarkReceiptRead(b *testing.B) {
	l := sharedLog(b)
	head, err := l.TreeHead()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 0))
		ctx := context.Background()
		for pb.Next() {
			index := r.Uint64N(head.Size)
			leaf, err := l.Leaf(ctx, index)
			if err != nil {
				b.Error(err)
				return
			}
			proof, err := l.InclusionProof(ctx, index, head.Size)
			if err == nil {
				err = tlog.VerifyInclusion(index, head.Size, tlog.LeafHash(leaf), proof, head.Root)
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "receipts/s")
}

// BenchmarkLeaves reads pages of 100 leaves, as the entries endpoint serves
// them, at random offsets.
func BenchmarkLeaves(b *testing.B) {
	l := sharedLog(b)
	size := l.Size()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(rand.Uint64(), 0))
		for pb.Next() {
			start := r.Uint64N(size - 100)
			if _, err := l.Leaves(context.Background(), start, start+100); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
