package node

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// BenchmarkPages measures the main pages over HTTP on a node holding
// 100,000 claims (seedStatusBundles: 5,000 opened bundles of 20), each
// request a page as a browser asks for it, with its size. (The seeded
// bundles are in the store, not the log, so no receipt is measured.)
//
//	go test -run '^$' -bench BenchmarkPages -benchtime 300x ./node/
func BenchmarkPages(b *testing.B) {
	srv, author := seededNode(b, 5000)
	code, v := call(b, "GET", srv.URL+"/api/v1/claims?limit=1", nil)
	if code != http.StatusOK {
		b.Fatalf("claims: %d %v", code, v)
	}
	c := v.(map[string]any)["claims"].([]any)[0].(map[string]any)
	pages := []struct{ name, path string }{
		{"claim", "/claims/" + c["claim_id"].(string)},
		{"bundle", "/bundles/" + c["bundle"].(string)},
		{"agent", "/agents/" + author.id},
		{"search", "/claims?q=claim"},
		{"log", "/log"},
		// What the agent's and the search's pages read, alone: most of
		// their time is the API's.
		{"api-operator", "/api/v1/operators/" + author.id},
		{"api-agent-claims", "/api/v1/claims?limit=50&operator=" + author.id},
		{"api-search", "/api/v1/claims?q=claim"},
	}
	get := func(path string) int {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, body)
		}
		return len(body)
	}
	for _, p := range pages {
		b.Logf("%-8s %6d bytes", p.name, get(p.path))
	}
	times := make([][]time.Duration, len(pages))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := i % len(pages)
		t0 := time.Now()
		get(pages[q].path)
		times[q] = append(times[q], time.Since(t0))
	}
	b.StopTimer()
	for q, ts := range times {
		reportPercentiles(b, pages[q].name, ts)
	}
}

// BenchmarkOperatorRecordAfterGrowth is what BenchmarkPages does not show:
// on a live node the log grows between reads, and the first operator
// record after each new entry reads a standing sheet made again for it.
// Each iteration logs one entry (a new operator's key) and then reads the
// author's record, on the same 100,000 claims.
//
//	go test -run '^$' -bench BenchmarkOperatorRecordAfterGrowth -benchtime 20x ./node/
func BenchmarkOperatorRecordAfterGrowth(b *testing.B) {
	srv, author := seededNode(b, 5000)
	// The first record read makes the first sheet, which a node does
	// once; what is measured is each read after the log grew.
	if code, v := call(b, "GET", srv.URL+"/api/v1/operators/"+author.id, nil); code != http.StatusOK {
		b.Fatalf("operator record: %d %v", code, v)
	}
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		registerOperator(b, srv.URL, fmt.Sprintf("Newcomer %d", i))
		b.StartTimer()
		t0 := time.Now()
		if code, v := call(b, "GET", srv.URL+"/api/v1/operators/"+author.id, nil); code != http.StatusOK {
			b.Fatalf("operator record: %d %v", code, v)
		}
		times = append(times, time.Since(t0))
	}
	reportPercentiles(b, "record-after-growth", times)
}
