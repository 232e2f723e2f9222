package translog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
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
//
// It runs on each driver (Append/posix, Append/mysql), and reports the CPU
// time of this process per append, and on MySQL that of the database
// server (mariadbd or mysqld on this machine) too.
func BenchmarkAppend(b *testing.B) {
	for _, d := range testDrivers {
		b.Run(d.name, func(b *testing.B) { benchmarkAppend(b, d) })
	}
}

func benchmarkAppend(b *testing.B, d testDriver) {
	cfg := d.config(b)
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
	server := serverPID(cfg)
	b.ResetTimer()
	start, cpu, serverCPU := time.Now(), processCPU(os.Getpid()), processCPU(server)
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
	cpu, serverCPU = processCPU(os.Getpid())-cpu, processCPU(server)-serverCPU
	b.StopTimer()
	if n := len(latencies); n > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu_us/append")
		if server != 0 {
			b.ReportMetric(float64(serverCPU.Microseconds())/float64(n), "server_cpu_us/append")
		}
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "appends/s")
	b.ReportMetric(ms(percentile(latencies, 0.50)), "p50_ms")
	b.ReportMetric(ms(percentile(latencies, 0.99)), "p99_ms")
	b.ReportMetric(0, "ns/op") // meaningless here: appends overlap
}

// serverPID returns the process ID of the MySQL or MariaDB server on this
// machine when cfg's log is in MySQL; 0 otherwise or if there is none.
func serverPID(cfg Config) int {
	if cfg.MySQL == "" {
		return 0
	}
	comms, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, comm := range comms {
		name, err := os.ReadFile(comm)
		if n := strings.TrimSpace(string(name)); err == nil && (n == "mariadbd" || n == "mysqld") {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(comm)))
			return pid
		}
	}
	return 0
}

// processCPU is the user and system CPU time process pid has used, from
// /proc/<pid>/stat; 0 for pid 0 or if it cannot be read.
func processCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and
	// stime are the 14th and 15th of the line, in clock ticks (100 a
	// second on Linux).
	_, rest, _ := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
