package snapshot

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// BenchmarkWriteLargeLog snapshots synthetic logs of 100,000 and
// 1,000,000 entries (a quarter of them bundles of three claims), written
// to nowhere as the node writes to a file, and reports the heap's high
// water mark above where it started and the time one snapshot takes. The
// README's figures come from it:
//
//	go test -run '^$' -bench WriteLargeLog -benchtime 1x ./ledger/snapshot/
func BenchmarkWriteLargeLog(b *testing.B) {
	for _, size := range []uint64{100_000, 300_000, 1_000_000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			s := synthetic{size: size}
			head := s.head()
			for b.Loop() {
				var card *Card
				start := time.Now()
				peak := heapPeak(func() {
					var err error
					if card, err = Write(context.Background(), io.Discard, s.source(), head, "2026-10-02"); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				b.ReportMetric(time.Since(start).Seconds(), "s/snapshot")
				b.ReportMetric(float64(card.Claims), "claims")
				b.ReportMetric(float64(card.Bytes)/(1<<20), "file-MB")
			}
		})
	}
}
