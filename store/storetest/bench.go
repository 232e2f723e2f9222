package storetest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/store"
)

// Benchmarks every driver runs, so their figures compare.

// BenchPutAndBind is the store's share of one append: the signed entry
// put before, its index bound after, each commit durable.
func BenchPutAndBind(b *testing.B, s store.Store) {
	entry := []byte(`{"type":"key","sig":"x"}`)
	var i int64
	for b.Loop() {
		digest := fmt.Sprintf("sha256:%064d", i)
		if err := s.PutSigned(b.Context(), digest, entry, entry); err != nil {
			b.Fatal(err)
		}
		if err := s.BindIndex(b.Context(), i, digest); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchPutAndBindParallel is BenchPutAndBind from 64 goroutines, as a
// node's request handlers call it: a driver may share their commits.
func BenchPutAndBindParallel(b *testing.B, s store.Store) {
	entry := []byte(`{"type":"key","sig":"x"}`)
	var next atomic.Int64
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1) - 1
			digest := fmt.Sprintf("sha256:%064d", i)
			if err := s.PutSigned(b.Context(), digest, entry, entry); err != nil {
				b.Error(err)
				return
			}
			if err := s.BindIndex(b.Context(), i, digest); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchTake is one rate-limit take, which need not be durable.
func BenchTake(b *testing.B, s store.Store) {
	now := time.Now()
	var i int
	for b.Loop() {
		if _, _, err := s.Take(b.Context(), fmt.Sprintf("ip:%d", i%1000), 50, 24*time.Hour, now.Add(time.Duration(i))); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
