package node

import (
	"bytes"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/hostile"
	"github.com/agora-node/agora/protocol"
)

// The budget of one hostile input, sent whole through the HTTP route: the
// CPU time of the process (client and server), and the heap it grows by.
// The CPU bound tells bounded work from a blow-up (before the limits, the
// probe's inputs took from ten seconds to minutes each), not a speed goal:
// it leaves room for a machine busy with other work, and the benchmarks
// measure speed.
const (
	corpusCPUBudget    = 4 * time.Second
	corpusMemoryBudget = 64 << 20
	corpusAnswerBudget = 1 << 20 // the answer's bytes
)

// TestBundleCheckHostileCorpus sends every case of the hostile corpus
// (ledger/paper/testdata/hostile: the inputs the security probe of issue 12
// sent, and more of their families) through POST /api/v1/bundles/check of a
// node on loopback, each in an otherwise realistic bundle, one at a time:
// each gets the status its case names, within 4 s of CPU, 64 MB of
// extra heap and a 1 MB answer. Each is also submitted signed by a key no
// operator holds, which is refused before its content is read.
//
// It measures the whole process's CPU and heap, so it runs alone, never
// in parallel with other tests.
func TestBundleCheckHostileCorpus(t *testing.T) {
	cases, err := hostile.Load("../ledger/paper/testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	n, srv := testNodeWith(t, Config{OpenAfter: -1, ChecksPerMinute: 100000, SubmissionsPerMinute: 100000})
	a := newAuthor(t, n, srv.URL)
	base, _ := realisticBundle(t, a)
	stranger, _ := hybrid.GenerateKey()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			files := map[string][]byte{}
			for p, d := range base {
				files[p] = d
			}
			files[c.File] = c.Input()
			body, _ := signedBody(t, a.key, files, nil)
			status, code, answer, cpu, heap := measureCall(t, srv.URL+"/api/v1/bundles/check", body)
			t.Logf("%s (%d bytes in %s): %d %s, %d-byte answer, %.3f s CPU, %.1f MB heap", c.Why, len(files[c.File]), c.File, status, code, len(answer), cpu.Seconds(), float64(heap)/(1<<20))
			if status != c.Status || (c.Code != "" && code != c.Code) {
				t.Errorf("answered %d %q; want %d %q: %.300s", status, code, c.Status, c.Code, answer)
			}
			if status >= 400 && !strings.Contains(string(answer), "at most") {
				t.Errorf("a refusal that names no limit: %.300s", answer)
			}
			if cpu > corpusCPUBudget {
				t.Errorf("took %s of CPU; the budget is %s", cpu, corpusCPUBudget)
			}
			if heap > corpusMemoryBudget {
				t.Errorf("grew the heap by %d MB; the budget is %d MB", heap>>20, corpusMemoryBudget>>20)
			}
			if len(answer) > corpusAnswerBudget {
				t.Errorf("a %d-byte answer; the budget is %d", len(answer), corpusAnswerBudget)
			}

			// Signed by a stranger: refused for the key, whatever it holds.
			if c.File == "manifest.json" {
				return // a hostile manifest names no key
			}
			files["manifest.json"] = bytes.Replace(base["manifest.json"], []byte(protocol.KeyDigest(a.key.Public().String())), []byte(protocol.KeyDigest(stranger.Public().String())), 1)
			body, _ = signedBody(t, stranger, files, nil)
			status, code, answer, cpu, heap = measureCall(t, srv.URL+"/api/v1/bundles", body)
			if want := http.StatusForbidden; status != want || cpu > corpusCPUBudget || heap > corpusMemoryBudget {
				t.Errorf("submitted by a stranger: %d %q in %s of CPU, %d MB heap; want %d within budget: %.200s", status, code, cpu, heap>>20, want, answer)
			}
		})
	}
}

// measureCall POSTs body to url and measures the process while it is
// answered: CPU time, and the peak of the heap's live and unswept objects
// over what they were before, sampled every millisecond.
func measureCall(t *testing.T, url string, body []byte) (status int, code string, answer []byte, cpu time.Duration, heap uint64) {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	before := read()
	var peak uint64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	start := hostile.ProcessCPU()
	resp, v := callResponseBody(t, url, body)
	cpu = hostile.ProcessCPU() - start
	close(stop)
	sampler.Wait()
	peak = max(peak, read())
	code, _ = v["code"].(string)
	if peak > before {
		heap = peak - before
	}
	return resp.StatusCode, code, resp.body, cpu, heap
}

// rawResponse is a response with its body read.
type rawResponse struct {
	StatusCode int
	body       []byte
}

// callResponseBody POSTs body to url and reads the answer whole.
func callResponseBody(t *testing.T, url string, body []byte) (rawResponse, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	parsed, _ := canonical.Parse(b.Bytes())
	v, _ := parsed.(map[string]any)
	return rawResponse{resp.StatusCode, b.Bytes()}, v
}
