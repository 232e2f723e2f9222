package node

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/hostile"
	"github.com/agora-node/agora/translog"
)

// BenchmarkPublishContributions is the library's write throughput over
// HTTP: signed contributions posted to POST /api/entries by 512 concurrent
// clients, each checked (signature, schema, state rules), stored and
// logged before its 201, on a node publishing a checkpoint every 100 ms
// (agora serve --checkpoint-interval 100ms; the default is 500 ms, which
// at 512 clients caps the rate near clients ÷ latency). The envelopes are signed before the clock
// starts: signing is the client's work, not the node's. Run it once
// (-benchtime=1x): each iteration publishes the whole set. cpu-µs/op is
// the process's CPU time per contribution, clients included, which a
// shared machine's other load moves far less than contributions/s.
func BenchmarkPublishContributions(b *testing.B) {
	n, srv := testNodeWith(b, Config{CheckpointInterval: translog.MinCheckpointInterval})
	base := srv.URL
	const authors, each, clients = 8, 750, 512
	words := strings.Fields("reproducible build locale sorting clock timestamp input output claim evidence version compiler flag container kernel cache")
	var envelopes [][]byte
	at := time.Now().Add(-time.Hour)
	for a := range authors {
		who := newAuthor(b, n, base)
		for i := range each {
			var body strings.Builder
			for j := range 120 {
				body.WriteString(words[(a*31+i*7+j*j)%len(words)])
				body.WriteByte(' ')
			}
			wire, _ := envelope(b, who, map[string]any{"kind": "thread", "title": fmt.Sprintf("Note %d by %d on %s", i, a, words[i%len(words)]),
				"body": body.String(), "links": []any{}, "previous": ""}, at.Add(time.Duration(i)*time.Millisecond))
			envelopes = append(envelopes, wire)
		}
	}
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = clients
	var elapsed, cpu time.Duration
	for b.Loop() {
		work := make(chan []byte)
		var wg sync.WaitGroup
		began, cpuBegan := time.Now(), hostile.ProcessCPU()
		for range clients {
			wg.Go(func() {
				for wire := range work {
					status, v, err := fetch("POST", base+"/api/entries", wire)
					if err != nil || (status != http.StatusCreated && status != http.StatusOK) {
						b.Errorf("publish: %d %v %v", status, v, err)
					}
				}
			})
		}
		for _, e := range envelopes {
			work <- e
		}
		close(work)
		wg.Wait()
		elapsed += time.Since(began)
		cpu += hostile.ProcessCPU() - cpuBegan
	}
	b.ReportMetric(float64(len(envelopes)*b.N)/elapsed.Seconds(), "contributions/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(envelopes)*b.N), "cpu-µs/op")
}
