package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/hostile"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/store/sqlite"
)

// BenchmarkAddContribution is the store's share of a library
// contribution's CPU: threads like agora bench append's (a title and 120
// words of 16), each a new lineage, written by 256 goroutines so commits
// are shared as a busy node's are. cpu-µs/op is the process's CPU per
// contribution, which the store's writer and its fsyncs are most of; a
// change to the write path that costs CPU shows here first.
func BenchmarkAddContribution(b *testing.B) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(b.TempDir(), "agora.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	author, signature := benchAuthor(b)
	words := strings.Fields("reproducible build locale sorting clock timestamp input output claim evidence version compiler flag container kernel cache")
	const n, writers = 4000, 256
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	batch := func(round int) []library.NewContribution {
		cs := make([]library.NewContribution, n)
		for i := range cs {
			var body strings.Builder
			for j := range 120 {
				body.WriteString(words[(i*7+j*j)%len(words)])
				body.WriteByte(' ')
			}
			rec, err := library.NewRecord(library.Content{Kind: "thread", Title: fmt.Sprintf("Bench note %d on %s", i, words[i%len(words)]),
				Body: body.String(), Links: []library.Link{}}, author, start.Add(time.Duration(round*n+i)*time.Millisecond))
			if err != nil {
				b.Fatal(err)
			}
			cs[i] = storedAs(b, rec, signature, start)
		}
		return cs
	}
	noCheck := func(context.Context, library.Graph) error { return nil }
	var cpu time.Duration
	round := 0
	for b.Loop() {
		b.StopTimer()
		cs := batch(round)
		round++
		b.StartTimer()
		began := hostile.ProcessCPU()
		work := make(chan library.NewContribution)
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				for c := range work {
					if _, err := s.AddContribution(ctx, c, noCheck); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for _, c := range cs {
			work <- c
		}
		close(work)
		wg.Wait()
		cpu += hostile.ProcessCPU() - began
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(n*b.N), "cpu-µs/op")
	b.ReportMetric(0, "ns/op")
}
