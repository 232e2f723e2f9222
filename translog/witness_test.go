package translog

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
	"golang.org/x/mod/sumdb/note"
)

// fakeWitness is a C2SP tlog-witness for one log: it checks the log's
// signature, the old size it is sent against the size it last cosigned
// (409 with that size if they differ), and the consistency proof from it,
// then cosigns.
type fakeWitness struct {
	t        testing.TB
	cosigner *tlog.Cosigner
	logVKey  string

	mu        sync.Mutex
	size      uint64
	root      tlog.Hash
	down      bool           // answer 503
	conflicts int            // 409s answered
	proofs    int            // non-empty consistency proofs checked
	asked     map[uint64]int // requests by checkpoint size
}

func newFakeWitness(t testing.TB, name string, logVKey string) (*fakeWitness, Witness) {
	t.Helper()
	seed := sha256.Sum256([]byte("translog test witness " + name))
	c, err := tlog.NewCosigner(name, ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeWitness{t: t, cosigner: c, logVKey: logVKey}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, Witness{VerifierKey: c.VerifierKey(), URL: srv.URL + "/add-checkpoint"}
}

func (f *fakeWitness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/add-checkpoint" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	rd := bufio.NewReader(bytes.NewReader(body))
	first, _ := rd.ReadString('\n')
	old, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(first, "old "), "\n"), 10, 64)
	if err != nil || !strings.HasPrefix(first, "old ") {
		http.Error(w, "bad old line", http.StatusBadRequest)
		return
	}
	var proof []tlog.Hash
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			http.Error(w, "no blank line", http.StatusBadRequest)
			return
		}
		if line == "\n" {
			break
		}
		h, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(line, "\n"))
		if err != nil || len(h) != tlog.HashSize {
			http.Error(w, "bad proof line", http.StatusBadRequest)
			return
		}
		proof = append(proof, tlog.Hash(h))
	}
	cpText, _ := io.ReadAll(rd)
	cp, err := tlog.VerifyCheckpoint(cpText, f.logVKey)
	if err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	if f.asked == nil {
		f.asked = map[uint64]int{}
	}
	f.asked[cp.Size]++
	switch {
	case f.down:
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	case old != f.size:
		f.conflicts++
		w.Header().Set("Content-Type", "text/x.tlog.size")
		w.WriteHeader(http.StatusConflict)
		fmt.Fprintf(w, "%d\n", f.size)
		return
	case old > cp.Size:
		http.Error(w, "old beyond the checkpoint", http.StatusBadRequest)
		return
	case old == cp.Size:
		if cp.Root != f.root || len(proof) > 0 {
			http.Error(w, "a different tree", http.StatusConflict)
			return
		}
	case old == 0:
		if len(proof) > 0 {
			http.Error(w, "a proof from nothing", http.StatusUnprocessableEntity)
			return
		}
	default:
		if err := tlog.VerifyConsistency(old, cp.Size, f.root, cp.Root, proof); err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		f.proofs++
	}
	signed, err := f.cosigner.Cosign(cpText, time.Now())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	f.size, f.root = cp.Size, cp.Root
	lines := strings.SplitAfter(strings.TrimSuffix(string(signed), "\n"), "\n")
	io.WriteString(w, lines[len(lines)-1]+"\n") // the cosignature is the last line
}

func (f *fakeWitness) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

func (f *fakeWitness) state() (size uint64, conflicts, proofs int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.size, f.conflicts, f.proofs
}

// fastBackoff makes failed witnesses be asked again within moments.
func fastBackoff(t testing.TB) {
	minB, maxB := witnessBackoffMin, witnessBackoffMax
	witnessBackoffMin, witnessBackoffMax = 20*time.Millisecond, 100*time.Millisecond
	t.Cleanup(func() { witnessBackoffMin, witnessBackoffMax = minB, maxB })
}

// logVKey returns the vkey of the checkpoint key testConfig uses.
func logVKey(t testing.TB, cfg Config) string {
	t.Helper()
	s, err := tlog.NewCheckpointSigner(cfg.Origin, cfg.CheckpointKey)
	if err != nil {
		t.Fatal(err)
	}
	return s.VerifierKey()
}

func appendN(t testing.TB, l *Log, tag string, n int) {
	t.Helper()
	for i := range n {
		if _, err := l.Append(context.Background(), testLeaf(t, tag, i)); err != nil {
			t.Fatalf("Append: %v", err)
		}
	}
}

// waitCosigned waits until the checkpoint of size carries a cosignature
// of vkey and returns it.
func waitCosigned(t testing.TB, l *Log, size uint64, vkey string) []byte {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cp, err := l.Checkpoint(size)
		if err != nil {
			t.Fatalf("Checkpoint(%d): %v", size, err)
		}
		if _, err := tlog.VerifyCosignature(cp, vkey); err == nil {
			return cp
		}
		if time.Now().After(deadline) {
			t.Fatalf("the checkpoint of %d was not cosigned in time:\n%s", size, cp)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkCosigned checks a cosigned checkpoint as a client would: with
// sumdb/note and both keys, and with tlog.VerifyCosignature.
func checkCosigned(t testing.TB, l *Log, cp []byte, size uint64, witnessVKey string) {
	t.Helper()
	head, err := l.TreeHeadAt(size)
	if err != nil {
		t.Fatal(err)
	}
	checkHead(t, l, head, cp)
	logV, err := note.NewVerifier(l.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	witV, err := tlog.NewNoteVerifier(witnessVKey)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Open(cp, note.VerifierList(logV, witV))
	if err != nil {
		t.Fatalf("note.Open of the cosigned checkpoint of %d: %v\n%s", size, err, cp)
	}
	if len(n.Sigs) != 2 || n.Sigs[0].Name != l.Origin() || n.Sigs[1].Name != witV.Name() {
		t.Fatalf("the checkpoint of %d has signatures %+v; want the log's, then the witness's", size, n.Sigs)
	}
	if _, err := tlog.VerifyCosignature(cp, witnessVKey); err != nil {
		t.Fatalf("VerifyCosignature: %v", err)
	}
	if c, err := tlog.ParseCheckpoint(cp); err != nil || c.Size != size {
		t.Fatalf("the cosigned checkpoint is of %d (%v), want %d", c.Size, err, size)
	}
}

func TestWitnessCosigns(t *testing.T) { forEachDriver(t, testWitnessCosigns) }

func testWitnessCosigns(t *testing.T, d testDriver) {
	fastBackoff(t)
	cfg := d.config(t)
	wit, w := newFakeWitness(t, "witness.example/w1", logVKey(t, cfg))
	cfg.Witnesses = []Witness{w}
	l := openLog(t, cfg)

	appendN(t, l, "a", 3)
	first := l.Size()
	checkCosigned(t, l, waitCosigned(t, l, first, w.VerifierKey), first, w.VerifierKey)
	appendN(t, l, "b", 4)
	second := l.Size()
	checkCosigned(t, l, waitCosigned(t, l, second, w.VerifierKey), second, w.VerifierKey)
	if _, _, proofs := wit.state(); proofs == 0 {
		t.Fatal("the witness was never sent a consistency proof")
	}
	latest, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	checkCosigned(t, l, latest, second, w.VerifierKey)

	// While the witness is down the log goes on, and LatestCheckpoint
	// answers the newest checkpoint it cosigned.
	wit.setDown(true)
	appendN(t, l, "c", 3)
	third := l.Size()
	latest, err = l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	checkCosigned(t, l, latest, second, w.VerifierKey)
	cp, err := l.Checkpoint(third)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tlog.VerifyCosignature(cp, w.VerifierKey); err == nil {
		t.Fatal("a checkpoint the witness never saw carries its cosignature")
	}
	checkHead(t, l, mustHeadAt(t, l, third), cp)

	// Back up, it is asked again (with backoff) and catches up.
	wit.setDown(false)
	checkCosigned(t, l, waitCosigned(t, l, third, w.VerifierKey), third, w.VerifierKey)
	waitLatest(t, l, third)

	// Reopened, the log keeps its cosignatures and sends the witness
	// the size it last cosigned, so no 409 is needed.
	closeLog(t, l)
	l = openLog(t, cfg)
	for _, size := range []uint64{first, second, third} {
		cp, err := l.Checkpoint(size)
		if err != nil {
			t.Fatal(err)
		}
		checkCosigned(t, l, cp, size, w.VerifierKey)
	}
	latest, err = l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	checkCosigned(t, l, latest, third, w.VerifierKey)
	_, conflicts, _ := wit.state()
	appendN(t, l, "d", 2)
	fourth := l.Size()
	waitCosigned(t, l, fourth, w.VerifierKey)
	if _, after, _ := wit.state(); after != conflicts {
		t.Fatalf("the reopened log sent the witness a wrong old size (%d 409s, %d before)", after, conflicts)
	}
	closeLog(t, l)
}

func mustHeadAt(t testing.TB, l *Log, size uint64) tlog.TreeHead {
	t.Helper()
	h, err := l.TreeHeadAt(size)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// waitLatest waits until LatestCheckpoint answers the checkpoint of size.
func waitLatest(t testing.TB, l *Log, size uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cp, err := l.LatestCheckpoint()
		if err != nil {
			t.Fatal(err)
		}
		if c, err := tlog.ParseCheckpoint(cp); err == nil && c.Size == size {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("LatestCheckpoint is not of %d in time:\n%s", size, cp)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestWitnessConflict: a witness that cosigned the log before (the
// cosignature file lost, say) answers the log's "old 0" with 409 and its
// size; the log asks again from that size, with a consistency proof.
func TestWitnessConflict(t *testing.T) { forEachDriver(t, testWitnessConflict) }

func testWitnessConflict(t *testing.T, d testDriver) {
	fastBackoff(t)
	cfg := d.config(t)
	l := openLog(t, cfg)
	appendN(t, l, "a", 3)
	known := l.Size()
	head := mustHeadAt(t, l, known)
	closeLog(t, l)

	wit, w := newFakeWitness(t, "witness.example/w1", logVKey(t, cfg))
	wit.size, wit.root = known, head.Root
	cfg.Witnesses = []Witness{w}
	l = openLog(t, cfg)
	appendN(t, l, "b", 2)
	size := l.Size()
	checkCosigned(t, l, waitCosigned(t, l, size, w.VerifierKey), size, w.VerifierKey)
	if _, conflicts, proofs := wit.state(); conflicts != 1 || proofs == 0 {
		t.Fatalf("the witness answered %d 409s and checked %d proofs; want 1 and some", conflicts, proofs)
	}
	closeLog(t, l)
}

// TestWitnessQuorum: with a quorum of 2, a checkpoint one witness cosigned
// carries its cosignature, but LatestCheckpoint waits for both.
func TestWitnessQuorum(t *testing.T) { forEachDriver(t, testWitnessQuorum) }

func testWitnessQuorum(t *testing.T, d testDriver) {
	fastBackoff(t)
	cfg := d.config(t)
	w1f, w1 := newFakeWitness(t, "witness.example/w1", logVKey(t, cfg))
	w2f, w2 := newFakeWitness(t, "witness.example/w2", logVKey(t, cfg))
	cfg.Witnesses, cfg.WitnessQuorum = []Witness{w1, w2}, 2
	l := openLog(t, cfg)
	appendN(t, l, "a", 2)
	both := l.Size()
	waitCosigned(t, l, both, w1.VerifierKey)
	waitCosigned(t, l, both, w2.VerifierKey)
	waitLatest(t, l, both)

	w2f.setDown(true)
	appendN(t, l, "b", 2)
	one := l.Size()
	cp := waitCosigned(t, l, one, w1.VerifierKey)
	if _, err := tlog.VerifyCosignature(cp, w2.VerifierKey); err == nil {
		t.Fatal("a witness that was down cosigned")
	}
	latest, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := tlog.ParseCheckpoint(latest); c.Size != both {
		t.Fatalf("LatestCheckpoint is of %d with one cosignature; want %d, which both cosigned", c.Size, both)
	}

	// The second witness catches up on the same checkpoint: its
	// cosignature joins the first's.
	w2f.setDown(false)
	cp = waitCosigned(t, l, one, w2.VerifierKey)
	if _, err := tlog.VerifyCosignature(cp, w1.VerifierKey); err != nil {
		t.Fatalf("the first witness's cosignature was lost: %v", err)
	}
	waitLatest(t, l, one)
	_ = w1f
	closeLog(t, l)
}

// TestWitnessDead: a witness that never answers, and one that is not
// there, slow no append, and Close stops the cosigning goroutine at once.
func TestWitnessDead(t *testing.T) {
	fastBackoff(t)
	hung := make(chan struct{})
	var asked sync.Once
	askedCh := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Do(func() { close(askedCh) })
		select {
		case <-hung:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	var unhang sync.Once
	release := func() { unhang.Do(func() { close(hung) }) }
	t.Cleanup(release)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	goneURL := "http://" + ln.Addr().String() + "/add-checkpoint"
	ln.Close()

	cfg := testConfig(t, t.TempDir())
	_, w1 := newFakeWitness(t, "witness.example/hung", logVKey(t, cfg))
	_, w2 := newFakeWitness(t, "witness.example/gone", logVKey(t, cfg))
	w1.URL, w2.URL = slow.URL+"/add-checkpoint", goneURL
	cfg.Witnesses, cfg.WitnessTimeout = []Witness{w1, w2}, time.Hour

	before := measureAppends(t, testConfig(t, t.TempDir()))
	goroutines := runtime.NumGoroutine()
	l := openLog(t, cfg)
	appendN(t, l, "warm", 1)
	select {
	case <-askedCh:
	case <-time.After(10 * time.Second):
		t.Fatal("the hung witness was never asked")
	}
	start := time.Now()
	appendN(t, l, "a", 20)
	took := time.Since(start)
	if took > 2*before+2*time.Second {
		t.Fatalf("20 appends took %v with a dead witness, %v without", took, before)
	}
	latest, err := l.LatestCheckpoint()
	if err != nil {
		t.Fatal(err)
	}
	checkHead(t, l, mustHeadAt(t, l, l.Size()), latest)
	if c, _ := tlog.ParseCheckpoint(latest); c.Size != l.Size() {
		t.Fatalf("with no cosigned checkpoint LatestCheckpoint is of %d, want the newest, %d", c.Size, l.Size())
	}
	start = time.Now()
	closeLog(t, l)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v with a witness request hanging", d)
	}
	// The hung witness's own handler may not have seen the log hang up
	// yet; it is the test's goroutine, not the log's, so let it go before
	// counting what outlives Close.
	release()
	waitGoroutines(t, goroutines)
}

// measureAppends returns how long 20 appends take on a log without
// witnesses.
func measureAppends(t testing.TB, cfg Config) time.Duration {
	l := openLog(t, cfg)
	appendN(t, l, "warm", 1)
	start := time.Now()
	appendN(t, l, "a", 20)
	d := time.Since(start)
	closeLog(t, l)
	return d
}

func TestWitnessConfig(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	_, w := newFakeWitness(t, "witness.example/w1", logVKey(t, cfg))
	for name, tc := range map[string]struct {
		edit  func(*Config)
		field string
	}{
		"checkpoint key, not a witness key": {func(c *Config) { c.Witnesses = []Witness{{VerifierKey: logVKey(t, cfg), URL: w.URL}} }, "Witnesses[0].VerifierKey"},
		"not a vkey":                        {func(c *Config) { c.Witnesses = []Witness{{VerifierKey: "nope", URL: w.URL}} }, "Witnesses[0].VerifierKey"},
		"twice":                             {func(c *Config) { c.Witnesses = []Witness{w, w} }, "Witnesses[1].VerifierKey"},
		"no scheme":                         {func(c *Config) { c.Witnesses = []Witness{{VerifierKey: w.VerifierKey, URL: "witness.example/add"}} }, "Witnesses[0].URL"},
		"quorum beyond":                     {func(c *Config) { c.Witnesses, c.WitnessQuorum = []Witness{w}, 2 }, "WitnessQuorum"},
	} {
		t.Run(name, func(t *testing.T) {
			c := cfg
			tc.edit(&c)
			var ce *ConfigError
			if err := c.Validate(); !errors.As(err, &ce) || ce.Field != tc.field {
				t.Fatalf("Validate = %v; want a ConfigError for %s", err, tc.field)
			}
		})
	}
	c := cfg
	c.Witnesses = []Witness{w}
	if err := c.Validate(); err != nil {
		t.Fatalf("a good witness: %v", err)
	}
}
