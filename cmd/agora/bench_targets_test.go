package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
)

// countingServer serves handler on loopback and counts the requests it
// answered 2xx, by route.
type countingServer struct {
	*httptest.Server
	mu sync.Mutex
	ok map[string]int // "POST /api/entries" and the like: requests answered 2xx
}

func newCountingServer(t *testing.T, handler http.Handler) *countingServer {
	s := &countingServer{ok: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		handler.ServeHTTP(rec, r)
		route := r.URL.Path
		if strings.HasPrefix(route, "/api/v1/log/entries/") {
			route = "/api/v1/log/entries/"
		}
		if rec.status/100 == 2 {
			s.mu.Lock()
			s.ok[r.Method+" "+route]++
			s.mu.Unlock()
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *countingServer) answered(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ok[route]
}

// statusRecorder keeps the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// TestBenchSeveralURLs runs bench append against one node served at two
// URLs, as two processes of one node are: each URL takes its share of
// every phase (operators registered through one are invited and publish
// through the other), and the table per URL counts exactly the requests
// each server answered.
func TestBenchSeveralURLs(t *testing.T) {
	srv, dataDir := nodetest.Start(t, node.Config{})
	one, two := newCountingServer(t, srv.Config.Handler), newCountingServer(t, srv.Config.Handler)

	agora(t, 2, "bench", "append", "--url", one.URL+","+two.URL, "--data", dataDir)
	agora(t, 2, "bench", "append", "--url", one.URL, "--data", dataDir, "--node-pid", "x")

	out, stderr := agora(t, 0, "bench", "append", "--url", one.URL, "--url", two.URL, "--data", dataDir,
		"--duration", "1s", "--read-duration", "300ms", "--concurrency", "4", "--operators", "120",
		"--publish-duration", "1s", "--authors", "3", "--contributions", "100", "--node-pid", strconv.Itoa(os.Getpid()))
	if !strings.Contains(stderr, "1 PIDs for 2 URLs") {
		t.Errorf("one PID for two URLs: no note that the CPU is not shared out:\n%s", stderr)
	}

	// Registrations come in groups of 40 from a loopback address each,
	// the groups dealt to the URLs in turn: 40 and 40 to the first, 40 to
	// the second.
	if a, b := one.answered("POST /api/v1/operators"), two.answered("POST /api/v1/operators"); a != 80 || b != 40 {
		t.Errorf("registrations answered: %d and %d, want 80 and 40", a, b)
	}
	perURL := regexp.MustCompile(`(?m)^\s*(append|publish|proof reads)\s+(http://\S+)\s+(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\d+)\s*$`)
	rows := perURL.FindAllStringSubmatch(out, -1)
	if len(rows) != 6 {
		t.Fatalf("want a row per URL for append, publish and proof reads:\n%s", out)
	}
	routes := map[string]string{"append": "POST /api/v1/admin/invitations", "publish": "POST /api/entries", "proof reads": "GET /api/v1/log/entries/"}
	servers := map[string]*countingServer{one.URL: one, two.URL: two}
	totals := map[string]int{}
	for _, m := range rows {
		phase, s, n := m[1], servers[m[2]], m[3]
		if s == nil {
			t.Fatalf("a row for a URL the bench was not given: %q\n%s", m[0], out)
		}
		got := s.answered(routes[phase])
		if strconv.Itoa(got) != n || got == 0 {
			t.Errorf("%s at %s: the table says %s answered, the server answered %d:\n%s", phase, m[2], n, got, out)
		}
		if m[4] != "-" {
			t.Errorf("%s at %s: a CPU share per URL (%s) from one PID for two URLs", phase, m[2], m[4])
		}
		totals[phase] += got
	}
	// The totals are both URLs' together, and the node's CPU (this
	// process's) is counted once for them.
	for phase, n := range totals {
		total := regexp.MustCompile(`(?m)^\s*` + phase + `\s+(\d+)\s+(?:\S+\s+){6}(\d+)\s`).FindStringSubmatch(out)
		if total == nil || total[1] != strconv.Itoa(n) {
			t.Errorf("%s: the total row does not count the %d requests both URLs answered:\n%s", phase, n, out)
		}
	}
}

// TestBenchNodeCPUSum reads two processes' CPU time as bench append reads
// two node processes': the node's is their sum, and with a PID for each
// URL each URL's share is its process's.
func TestBenchNodeCPUSum(t *testing.T) {
	var pids []int
	for range 2 {
		busy := exec.Command("sh", "-c", "while :; do :; done")
		if err := busy.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			busy.Process.Kill()
			busy.Wait()
		})
		pids = append(pids, busy.Process.Pid)
	}
	// Each runs until it has used 50 ms of CPU, then stops, so its CPU
	// time holds still while it is read.
	for _, pid := range pids {
		for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
			if cpu, err := processCPU(pid); err != nil {
				t.Fatal(err)
			} else if cpu >= 50*time.Millisecond {
				break
			}
			if time.Since(start) > 30*time.Second {
				t.Fatalf("process %d used under 50 ms of CPU in 30 s", pid)
			}
		}
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond) // a stop takes effect at the next tick
	var each []time.Duration
	for _, pid := range pids {
		cpu, err := processCPU(pid)
		if err != nil {
			t.Fatal(err)
		}
		each = append(each, cpu)
	}
	b := &bench{urls: []string{"http://127.0.0.1:1", "http://127.0.0.1:2"}, nodePIDs: pids}
	if sum, err := b.nodeCPU(); err != nil || sum != each[0]+each[1] {
		t.Errorf("node CPU of two processes: %s, %v; want %s + %s", sum, err, each[0], each[1])
	}
	p := &phase{byTarget: make([]perTarget, 2)}
	b.setNodeCPU(p, []time.Duration{each[0] - 40*time.Millisecond, each[1] - 30*time.Millisecond})
	if p.nodeCPU != 70*time.Millisecond || p.byTarget[0].nodeCPU != 40*time.Millisecond || p.byTarget[1].nodeCPU != 30*time.Millisecond {
		t.Errorf("over a phase: node %s, URLs %s and %s; want 70ms, 40ms and 30ms", p.nodeCPU, p.byTarget[0].nodeCPU, p.byTarget[1].nodeCPU)
	}
	if _, err := (&bench{nodePIDs: []int{pids[0], 1 << 30}}).nodeCPU(); err == nil {
		t.Error("a PID no process has, beside one that has, gave a CPU time")
	}
}
