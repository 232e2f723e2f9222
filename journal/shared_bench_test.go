package journal

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/translog/mysqltest"
)

// BenchmarkAppendMySQL appends from 512 goroutines to a MySQL log: one
// Journal on a Log of its own, one on a shared Log (taking the append
// turn), and two on two shared Logs of one database, as two processes
// would, half the goroutines each.
//
//	go test -run x -bench AppendMySQL -benchtime 4000x ./journal
func BenchmarkAppendMySQL(b *testing.B) {
	for _, c := range []struct {
		name   string
		shared bool
		logs   int
	}{{"alone", false, 1}, {"shared", true, 1}, {"two", true, 2}} {
		b.Run(c.name, func(b *testing.B) {
			open := mysqlJournals(b, mysqltest.DSN(b), c.shared, 8192)
			ctx := context.Background()
			var journals []*Journal
			for range c.logs {
				j, _ := open(time.Now)
				journals = append(journals, j)
			}
			var n atomic.Int64
			b.SetParallelism(256)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					j := journals[int(i)%len(journals)]
					entry := map[string]any{"type": "bench", "n": i}
					signed, err := canonical.Marshal(entry)
					if err != nil {
						b.Error(err)
						return
					}
					if _, err := j.Append(ctx, canonical.Digest(signed), signed, entry, nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
		})
	}
}
