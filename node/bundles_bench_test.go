package node

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/protocol"
)

// The issue's goals for bundles, measured over loopback HTTP against an
// in-process node: the check of the reference's 200-file bundle (p99 at
// most 150 ms), submissions per second, and file reads.

// bundle200 is the reference's 200-file bundle, the same work every
// implementation is measured on (testdata/bench/README.md).
var bundle200 = filepath.Join(testvectors.BenchDir(), "inputs", "bundle-200")

// readBundle200 reads bundle-200's files but its placeholder signature.
func readBundle200(b *testing.B) map[string][]byte {
	b.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(bundle200, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(bundle200, p)
		if err != nil {
			return err
		}
		if rel != "signature" {
			files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		b.Fatalf("no bundle-200: %v", err)
	}
	if len(files) != 199 {
		b.Fatalf("bundle-200 holds %d files besides its signature, want 199", len(files))
	}
	return files
}

// validBundle200 is bundle-200 made ready to seal, its 200 paths kept and
// three of them rewritten: a manifest naming the author's key with every
// member a submission needs; claims.json's evidence pointed at files the
// bundle holds (the reference's names code/run_N.py, data/measure_N.csv and
// results it has not), the claims keeping their statements and
// dependencies; and paper.md's 9 KB of text moved from its Summary, past
// the spec's 300 tokens, to its Methods.
func validBundle200(b *testing.B, a author) map[string][]byte {
	b.Helper()
	files := readBundle200(b)
	text, ok := bytes.CutPrefix(files["paper.md"], []byte("# Summary\n\n"))
	if !ok {
		b.Fatal("bundle-200's paper.md does not start with its Summary")
	}
	files["paper.md"] = slices.Concat([]byte("# Bench study\n\n## Summary\n\nThe bench work, in short.\n\n## Methods\n\n"), text,
		[]byte("\n## Results\n\nAs claims.json says.\n\n## Discussion\n\nNone.\n\n## Limitations\n\nA bench.\n"))
	files["manifest.json"] = mustJSON(b, map[string]any{
		"operator_key_digest": protocol.KeyDigest(a.key.Public().String()),
		"fields":              []any{"mathematics"},
		"license":             map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
		"model_families":      []any{"claude"},
		"models":              []any{"claude-test-1"},
		"compute":             map[string]any{"minutes": 30, "gpu": false},
		"replication":         map[string]any{"needs": []any{map[string]any{"kind": "lab", "hours": 4}}, "days": 30},
		"hazard_screen":       map[string]any{"rubric": hazard.Digest(), "model": "claude-test-1"},
	})
	var claims []map[string]any
	if err := json.Unmarshal(files["claims.json"], &claims); err != nil {
		b.Fatal(err)
	}
	for i, c := range claims {
		c["type"] = "empirical"
		c["evidence"] = []any{map[string]any{"result": fmt.Sprintf("R%d.loss", i%10+1), "produced_by": fmt.Sprintf("code/module_%02d.py", i), "tolerance": 0.001}}
	}
	files["claims.json"] = mustJSON(b, claims)
	return files
}

// benchNode is a node with an author it invited, every bundle free and
// none opened by policy, and an allowance of checks no benchmark runs out
// of: they measure the check, not its admission.
func benchNode(b *testing.B) (*Node, string, author) {
	b.Helper()
	n, srv := testNodeWith(b, Config{FreeBundles: FreeAll, OpenAfter: -1, ChecksPerMinute: 1 << 20})
	return n, srv.URL, newAuthor(b, n, srv.URL)
}

// post sends body and returns the status and the answer's bytes; a
// request that fails is status 0 and its error.
func post(url string, body []byte) (int, []byte) {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, []byte(err.Error())
	}
	return resp.StatusCode, answer
}

// latencies records each iteration's time and reports percentiles.
type latencies []time.Duration

func (l latencies) report(b *testing.B, percentiles ...int) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	for _, p := range percentiles {
		i := max(0, min(len(l)-1, (len(l)*p+99)/100-1))
		b.ReportMetric(float64(l[i])/float64(time.Millisecond), fmt.Sprintf("p%d-ms", p))
	}
}

// BenchmarkBundleCheck is POST /api/v1/bundles/check of bundle-200, signed
// by a registered author:
//
//   - as-is: the reference's files; its manifest names no key, so the
//     check stops before the author's part (signature, anonymity, quota,
//     price) and reports the manifest's and claims.json's problems.
//   - manifest: a full manifest naming the author's key; claims.json's
//     evidence still names files the bundle lacks, so claims get no IDs.
//   - valid: the manifest and claims.json's evidence pointed at the
//     bundle's own files: ready to seal, every step of the check run.
func BenchmarkBundleCheck(b *testing.B) {
	_, base, a := benchNode(b)
	variants := []struct {
		name  string
		files func() map[string][]byte
	}{
		{"as-is", func() map[string][]byte { return readBundle200(b) }},
		{"manifest", func() map[string][]byte {
			files := readBundle200(b)
			files["manifest.json"] = validBundle200(b, a)["manifest.json"]
			return files
		}},
		{"valid", func() map[string][]byte { return validBundle200(b, a) }},
	}
	for _, v := range variants {
		body, _ := signedBody(b, a.key, v.files(), nil)
		b.Run(v.name, func(b *testing.B) {
			status, answer := post(base+"/api/v1/bundles/check", body)
			var check struct {
				Ready  bool  `json:"ready"`
				Issues []any `json:"issues"`
			}
			if err := json.Unmarshal(answer, &check); status != http.StatusOK || err != nil {
				b.Fatalf("check: %d %s", status, answer)
			}
			if v.name == "valid" && !check.Ready {
				b.Fatalf("the valid variant is not ready: %s", answer)
			}
			var lat latencies
			for b.Loop() {
				start := time.Now()
				status, answer := post(base+"/api/v1/bundles/check", body)
				lat = append(lat, time.Since(start))
				if status != http.StatusOK {
					b.Fatalf("check: %d %s", status, answer)
				}
			}
			lat.report(b, 50, 99)
			b.ReportMetric(float64(len(check.Issues)), "issues")
			b.ReportMetric(float64(len(body))/1e6, "body-MB")
		})
	}
}

// BenchmarkBundleSubmit is POST /api/v1/bundles of distinct bundle-200s:
// each is checked, its 200 files are put in the blob store (two fsyncs
// each), it is recorded (a commit), and its sealed entry is appended to
// the log, which answers once a checkpoint covers it (batches of up to
// 50 ms, a checkpoint every 500 ms); the answer waits for all of it. With
// authors=1 one author submits one bundle after another, so bundles/s is
// one over the latency; with authors=4, four authors submit one bundle
// each at once, per round, and share the log's checkpoints. The node's
// clock moves 3 hours each time it is read, so no author's 10 a day run
// out.
func BenchmarkBundleSubmit(b *testing.B) {
	for _, k := range []int{1, 4} {
		b.Run(fmt.Sprintf("authors=%d", k), func(b *testing.B) { benchSubmit(b, k) })
	}
}

func benchSubmit(b *testing.B, k int) {
	n, srv := testNodeWith(b, Config{FreeBundles: FreeAll, OpenAfter: -1})
	authors := make([]author, k)
	files := make([]map[string][]byte, k)
	for i := range authors {
		authors[i] = newAuthor(b, n, srv.URL)
		files[i] = validBundle200(b, authors[i])
	}
	var ticks atomic.Int64
	start := time.Now()
	n.now = func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * 3 * time.Hour) }
	bodies := make([][]byte, k)
	statuses := make([]int, k)
	answers := make([][]byte, k)
	var elapsed time.Duration
	submitted := 0
	for b.Loop() {
		b.StopTimer()
		for i := range bodies {
			files[i]["data/shard_000.bin"] = fmt.Appendf(nil, "submission %d of %s", submitted+i, start)
			bodies[i], _ = signedBody(b, authors[i].key, files[i], nil)
		}
		b.StartTimer()
		t := time.Now()
		var wg sync.WaitGroup
		for i := range bodies {
			wg.Go(func() { statuses[i], answers[i] = post(srv.URL+"/api/v1/bundles", bodies[i]) })
		}
		wg.Wait()
		elapsed += time.Since(t)
		for i, status := range statuses {
			if status != http.StatusAccepted {
				b.Fatalf("submit: %d %s", status, answers[i])
			}
		}
		submitted += k
	}
	b.ReportMetric(float64(submitted)/elapsed.Seconds(), "bundles/s")
}

// BenchmarkFileRead is GET /api/v1/files/{digest} of an open bundle's
// files: bundle-200 with a 1 MB file added, sealed and opened.
func BenchmarkFileRead(b *testing.B) {
	n, base, a := benchNode(b)
	files := validBundle200(b, a)
	files["data/large.bin"] = bytes.Repeat([]byte("one megabyte of data, read back whole\n"), 1<<20/38+1)[:1<<20]
	body, hash := signedBody(b, a.key, files, nil)
	if status, answer := post(base+"/api/v1/bundles", body); status != http.StatusAccepted {
		b.Fatalf("submit: %d %s", status, answer)
	}
	bundle, err := n.store.Bundle(b.Context(), hash)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := n.ledger.OpenBundle(b.Context(), bundle); err != nil {
		b.Fatal(err)
	}
	for _, f := range []struct{ name, path string }{{"1MB", "data/large.bin"}, {"12.8KB", "data/shard_001.bin"}} {
		url := base + "/api/v1/files/" + sha(files[f.path])
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(files[f.path])))
			for b.Loop() {
				resp, err := http.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK || n != int64(len(files[f.path])) {
					b.Fatalf("GET %s: %d, %d bytes, %v", f.path, resp.StatusCode, n, err)
				}
			}
		})
	}
}
