package node

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/tlog"
)

// BenchmarkClaimsByStatus measures GET /api/v1/claims with a status
// filter over HTTP on a node holding 100,000 claims (5,000 opened bundles
// of 20), their statuses derived from their leaves: contested, which 1 in
// 100 bundles' first claim holds (a challenge logged against it), alone
// and with a field; and published, which every claim holds. The bundles
// go into the node's store as its handlers would leave them, each with
// its leaves, so the timed requests take the path a reader's do.
//
//	go test -run '^$' -bench BenchmarkClaimsByStatus -benchtime 300x ./node/
func BenchmarkClaimsByStatus(b *testing.B) {
	const bundles = 5000
	srv, _ := seededNode(b, bundles)
	queries := []struct{ name, query string }{
		{"contested", "status=contested"},
		{"contested-field", "status=contested&field=field20"},
		{"published", "status=published"},
		{"no-filter", "limit=20"},
	}
	// The first read catches the node's statuses up with the log.
	start := time.Now()
	if code, v := call(b, "GET", srv.URL+"/api/v1/claims?status=contested", nil); code != http.StatusOK || len(v.(map[string]any)["claims"].([]any)) != 20 {
		b.Fatalf("the first read: %d %v", code, v)
	}
	b.Logf("derived the statuses of %d leaves in %s", 3*bundles, time.Since(start).Round(time.Millisecond))
	times := make([][]time.Duration, len(queries))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := i % len(queries)
		t0 := time.Now()
		code, v := call(b, "GET", srv.URL+"/api/v1/claims?"+queries[q].query, nil)
		times[q] = append(times[q], time.Since(t0))
		if code != http.StatusOK || len(v.(map[string]any)["claims"].([]any)) == 0 {
			b.Fatalf("%s: %d %v", queries[q].name, code, v)
		}
	}
	b.StopTimer()
	for q, ts := range times {
		reportPercentiles(b, queries[q].name, ts)
	}
}

// reportPercentiles reports the median and the 95th percentile of ts, in
// milliseconds, as name-p50-ms and name-p95-ms.
func reportPercentiles(b *testing.B, name string, ts []time.Duration) {
	if len(ts) == 0 {
		return
	}
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/2].Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64(ts[len(ts)*95/100].Microseconds())/1000, name+"-p95-ms")
}

// seededNode is a node holding bundles opened bundles of 20 claims by
// one author (seedStatusBundles), and that author.
func seededNode(b *testing.B, bundles int) (*httptest.Server, testOperator) {
	n, srv := testNodeWith(b, Config{OpenAfter: -1, Qualification: "off", CanaryRate: -1})
	author := registerOperator(b, srv.URL, "Author")
	base, err := n.store.LatestIndex(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	const perBundle = 20
	start := time.Now()
	seedStatusBundles(b, n, author.id, base+1, bundles, perBundle)
	b.Logf("seeded %d claims in %s", bundles*perBundle, time.Since(start).Round(time.Millisecond))
	return srv, author
}

// seedStatusBundles stores bundles of perBundle claims by author from
// index first on: bundle i sealed at first+3i, opened at first+3i+1, and
// at first+3i+2 a challenge to its first claim for one bundle in 100 (a
// leaf of no status's concern for the others).
func seedStatusBundles(b *testing.B, n *Node, author string, first int64, bundles, perBundle int) {
	ctx := context.Background()
	stamp := tlog.FormatTimestamp(time.Now())
	put := func(at int64, digest string, signed []byte, leaf map[string]any) error {
		leaf["timestamp"] = stamp
		data, err := canonical.Marshal(leaf)
		if err != nil {
			return err
		}
		if err := n.store.PutSigned(ctx, digest, signed, data); err != nil {
			return err
		}
		return n.store.BindIndex(ctx, at, digest)
	}
	hexOf := func(parts ...any) string { return canonical.Digest([]byte(fmt.Sprint(parts...)))[len("sha256:"):] }
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= bundles || failed.Load() != nil {
					return
				}
				if err := func() error {
					at := first + int64(3*i)
					hash := "sha256:" + hexOf("bundle", i)
					entry := map[string]any{"type": "bundle", "bundle": hash, "sig": "x"}
					entryJSON, _ := canonical.Marshal(entry)
					sealed := map[string]any{"type": "sealed", "commitment": "sha256:" + hexOf("commitment", i), "sig": "x"}
					sealedJSON, _ := canonical.Marshal(sealed)
					nb := ledger.NewBundle{Hash: hash, Operator: author, KeyDigest: "sha256:" + hexOf("key"), Entry: entryJSON,
						EntryDigest: canonical.Digest(entryJSON), Sealed: canonical.Digest(sealedJSON), Salt: hexOf("salt", i),
						Fields: []string{fmt.Sprintf("field%d", i%40)}, WrittenBy: "agent", At: time.Now(),
						Files: []ledger.File{{Path: "paper.md", Digest: "sha256:" + hexOf("paper", i), Size: 100}}}
					var ids []any
					for j := range perBundle {
						id := "claim:" + hexOf("claim", i, j)
						st := fmt.Sprintf("Claim %d of study %d holds", j, i)
						raw, _ := canonical.Marshal(map[string]any{"local_id": fmt.Sprintf("C%d", j+1), "type": "empirical", "statement": st})
						nb.Claims = append(nb.Claims, ledger.Claim{ID: id, LocalID: fmt.Sprintf("C%d", j+1), Type: "empirical", Statement: st,
							Assertion: "sha256:" + hexOf("assertion", i, j), JSON: raw})
						ids = append(ids, id)
					}
					if err := n.store.PutSigned(ctx, nb.Sealed, sealedJSON, nil); err != nil {
						return err
					}
					if _, err := n.store.CreateBundle(ctx, nb); err != nil {
						return err
					}
					if err := put(at, nb.Sealed, sealedJSON, map[string]any{"entry": sealed}); err != nil {
						return err
					}
					if err := n.store.PutSigned(ctx, nb.EntryDigest, entryJSON, nil); err != nil {
						return err
					}
					if err := n.store.OpenBundle(ctx, hash, nb.EntryDigest); err != nil {
						return err
					}
					if err := put(at+1, nb.EntryDigest, entryJSON, map[string]any{"entry": entry, "operator": author, "claims": ids,
						"fields": []any{nb.Fields[0]}, "sealed": map[string]any{"index": at, "salt": nb.Salt}}); err != nil {
						return err
					}
					third := map[string]any{"type": "filler", "n": i}
					if i%100 == 0 {
						third = map[string]any{"type": "challenge", "challenger": "op:" + hexOf("challenger"), "claim": ids[0],
							"ground": "data", "evidence": "sha256:" + hexOf("evidence", i), "sig": "x"}
					}
					thirdJSON, _ := canonical.Marshal(third)
					return put(at+2, canonical.Digest(thirdJSON), thirdJSON, map[string]any{"entry": third})
				}(); err != nil {
					failed.Store(fmt.Errorf("bundle %d: %w", i, err))
				}
			}
		})
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
}
