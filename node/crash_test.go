package node

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// This file tests crash safety: recover (recover.go) on the store and log
// states a crash leaves between a logged entry's steps, made with a
// fault-injecting store, and the whole node killed with SIGKILL mid-burst.

// faultStore is the node's store failing, on demand, at the two points a
// crash splits a logged entry's steps:
//
//   - failBind: BindIndex fails and writes nothing, as if the process died
//     after the log's Append returned and before the binding;
//   - failLeafPut: PutSigned with a leaf writes, then fails, as if the
//     process died after keeping the entry and before appending it.
type faultStore struct {
	nodeStore
	failBind    atomic.Bool
	failLeafPut atomic.Bool
}

var errInjected = errors.New("injected fault")

func (f *faultStore) BindIndex(ctx context.Context, index int64, digest string) error {
	if f.failBind.Load() {
		return fmt.Errorf("bind %d: %w", index, errInjected)
	}
	return f.nodeStore.BindIndex(ctx, index, digest)
}

func (f *faultStore) PutSigned(ctx context.Context, digest string, signed, leaf []byte) error {
	if err := f.nodeStore.PutSigned(ctx, digest, signed, leaf); err != nil || leaf == nil || !f.failLeafPut.Load() {
		return err
	}
	return fmt.Errorf("put %s: %w", digest, errInjected)
}

// lockedBuffer collects a node's log from many goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// client calls a node's API from a test: unlike call it returns errors
// rather than failing, so it can be used while the node is being killed.
type client struct {
	url   string
	http  *http.Client
	token string
}

// newClient returns a client for the node at url whose connections come
// from the loopback address from (nil for any): the node's per-address
// limits then count each client apart.
func newClient(url string, from net.IP, token string) *client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if from != nil {
		d.LocalAddr = &net.TCPAddr{IP: from}
	}
	return &client{url: url, token: token, http: &http.Client{
		Timeout:   20 * time.Second,
		Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4},
	}}
}

func (c *client) do(method, path string, body any) (int, any, error) {
	var rd io.Reader
	if wire, ok := body.([]byte); ok { // sent as it is, such as a signed envelope
		rd = bytes.NewReader(wire)
	} else if body != nil {
		b, err := canonical.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %d %q is not I-JSON: %w", method, path, resp.StatusCode, data, err)
	}
	return resp.StatusCode, v, nil
}

// newKeyEntry makes a key and its signed key entry.
func newKeyEntry() (*hybrid.PrivateKey, map[string]any, error) {
	key, err := hybrid.GenerateKey()
	if err != nil {
		return nil, nil, err
	}
	entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}, "model": "claude-test-1"}
	return key, entry, protocol.Sign(entry, key)
}

func (c *client) register(name string) (*hybrid.PrivateKey, string, int, error) {
	key, entry, err := newKeyEntry()
	if err != nil {
		return nil, "", 0, err
	}
	status, _, err := c.do("POST", "/api/v1/operators", map[string]any{"entry": entry, "name": name})
	return key, protocol.OperatorID(key.Public().String()), status, err
}

func (c *client) invite(op string) (int, any, error) {
	return c.do("POST", "/api/v1/admin/invitations", map[string]any{"operator": op})
}

func (c *client) rotate(op string, from *hybrid.PrivateKey) (*hybrid.PrivateKey, int, any, error) {
	to, err := hybrid.GenerateKey()
	if err != nil {
		return nil, 0, nil, err
	}
	entry, err := protocol.SignKeyRotation(op, to, from)
	if err != nil {
		return nil, 0, nil, err
	}
	status, v, err := c.do("POST", "/api/v1/operators/"+op+"/key", map[string]any{"entry": entry})
	return to, status, v, err
}

// answerIndex reads "index" from an answer.
func answerIndex(v any) (int64, bool) {
	obj, _ := v.(map[string]any)
	f, ok := obj["index"].(float64)
	return int64(f), ok
}

// openNode opens the node in dir with its log going to buf.
func openNode(t *testing.T, dir string, buf io.Writer) *Node {
	t.Helper()
	return openNodeWith(t, dir, buf, nil)
}

// openNodeWith is openNode with wrap between the node and its store.
func openNodeWith(t *testing.T, dir string, buf io.Writer, wrap func(nodeStore) nodeStore) *Node {
	t.Helper()
	n, err := New(context.Background(), Config{DataDir: dir, Logger: slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), wrapStore: wrap})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// keysOf and identitiesOf show a record's keys and identities briefly.
func keysOf(rec store.Operator) string {
	var b strings.Builder
	for _, k := range rec.Keys {
		fmt.Fprintf(&b, "[%s from %s at %d, retired at %d] ", k.Digest, k.Entry, k.Since, k.Until)
	}
	return b.String()
}

func identitiesOf(rec store.Operator) string {
	var b strings.Builder
	for _, id := range rec.Identities {
		fmt.Fprintf(&b, "[%s from %s at %d] ", id.Kind, id.Entry, id.Index)
	}
	return b.String()
}

// TestRecover makes the store disagree with the log as a crash would, at
// each point between a logged entry's steps, restarts the node, and checks
// that recovery bound what the log holds, dropped what it never got with
// the records it made, kept registrations, and changes nothing when run
// again.
func TestRecover(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	var faults *faultStore
	n := openNodeWith(t, dir, io.Discard, func(st nodeStore) nodeStore { faults = &faultStore{nodeStore: st}; return faults })
	srv := httptest.NewServer(n.Handler())
	closed := false
	t.Cleanup(func() {
		if !closed {
			srv.Close()
			n.Close(context.Background())
		}
	})
	token, err := os.ReadFile(AdminTokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(srv.URL, nil, string(token))
	must := func(status int, v any, err error) any {
		t.Helper()
		if err != nil || status/100 != 2 {
			t.Fatalf("%d %v %v", status, v, err)
		}
		return v
	}
	fails := func(status int, v any, err error) {
		t.Helper()
		if err != nil || status != http.StatusInternalServerError {
			t.Fatalf("the injected fault answered %d %v %v, want 500", status, v, err)
		}
	}
	register := func(name string) (*hybrid.PrivateKey, string) {
		t.Helper()
		key, op, status, err := c.register(name)
		must(status, nil, err)
		return key, op
	}
	ctx := context.Background()
	record := func(n *Node, op string) store.Operator {
		t.Helper()
		rec, err := n.store.Operator(ctx, op)
		if err != nil {
			t.Fatalf("operator %s: %v", op, err)
		}
		return rec
	}

	// A: key entry and a rotation logged (0, 1); then its identity is
	// appended (2) and the process "dies" before binding it.
	keyA, opA := register("A")
	newA, status, v, err := c.rotate(opA, keyA)
	must(status, v, err)
	faults.failBind.Store(true)
	fails(c.invite(opA))
	faults.failBind.Store(false)
	identityA := record(n, opA).Identities[0].Entry

	// B: a rotation is kept, then B's key entry is appended (3) and the
	// process dies before binding it, and before the rotation was
	// recorded or appended.
	keyB, opB := register("B")
	faults.failBind.Store(true)
	_, status, v, err = c.rotate(opB, keyB)
	fails(status, v, err)
	faults.failBind.Store(false)
	unbound, err := n.store.Unbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rotationB string
	for _, s := range unbound {
		if entryType(s.Entry) == protocol.KeyRotationType {
			rotationB = s.Digest
		}
	}

	// D: logged and bound after the unbound entries (4, 5).
	_, opD := register("D")
	must(c.invite(opD))

	// C: its invitation is recorded, then its key entry is kept with a
	// leaf and the process dies before appending it.
	_, opC := register("C")
	faults.failLeafPut.Store(true)
	fails(c.invite(opC))
	faults.failLeafPut.Store(false)
	identityC := record(n, opC).Identities[0].Entry

	// E: invited (6, 7); then a rotation is recorded and kept with its
	// leaf, and the process dies before appending it.
	keyE, opE := register("E")
	must(c.invite(opE))
	faults.failLeafPut.Store(true)
	_, status, v, err = c.rotate(opE, keyE)
	fails(status, v, err)
	faults.failLeafPut.Store(false)
	recE := record(n, opE)
	rotationE := recE.Key().Entry

	// F: invited (8, 9); then two rotations, F to F2 and F2 to F3, are
	// recorded and neither is appended, the second kept first.
	keyF, opF := register("F")
	must(c.invite(opF))
	keyF2, _ := hybrid.GenerateKey()
	keyF3, _ := hybrid.GenerateKey()
	var rotationsF []string
	for _, r := range []struct{ from, to *hybrid.PrivateKey }{{keyF2, keyF3}, {keyF, keyF2}} {
		entry, err := protocol.SignKeyRotation(opF, r.to, r.from)
		if err != nil {
			t.Fatal(err)
		}
		b := mustJSON(t, entry)
		rotationsF = append(rotationsF, canonical.Digest(b))
		if err := n.store.PutSigned(ctx, canonical.Digest(b), b, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range []struct{ from, to *hybrid.PrivateKey }{{keyF, keyF2}, {keyF2, keyF3}} {
		if _, err := n.store.RotateKey(ctx, store.Rotation{Operator: opF, From: protocol.KeyDigest(r.from.Public().String()),
			Key: r.to.Public().String(), Entry: rotationsF[1-i], At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}

	// An orphan key entry: kept, and the process died before the
	// operator was recorded.
	_, orphan, err := newKeyEntry()
	if err != nil {
		t.Fatal(err)
	}
	orphanBytes := mustJSON(t, orphan)
	orphanDigest := canonical.Digest(orphanBytes)
	if err := n.store.PutSigned(ctx, orphanDigest, orphanBytes, nil); err != nil {
		t.Fatal(err)
	}

	// The gap recovery closes: a logged entry that is not served.
	if status, _, _ := c.do("GET", "/api/v1/log/entries/2/signed", nil); status != http.StatusNotFound {
		t.Fatalf("before recovery, entry 2 as signed answered %d; the test no longer makes the gap", status)
	}
	if size := n.log.Size(); size != 10 {
		t.Fatalf("the log holds %d entries before the restart, want 10", size)
	}
	srv.Close()
	closed = true
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}

	var logged lockedBuffer
	n = openNode(t, dir, &logged)
	srv = httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	c.url = srv.URL
	t.Logf("recovery logged:\n%s", logged.String())

	auditLog(t, c, n.keys.log.Public().String())

	if rec := record(n, opA); len(rec.Identities) != 1 || rec.Identities[0].Index != 2 || rec.Identities[0].Entry != identityA || rec.Key().Key != newA.Public().String() {
		t.Errorf("A after recovery: identities %s, keys %s", identitiesOf(rec), keysOf(rec))
	}
	if rec := record(n, opB); rec.Keys[0].Since != 3 || len(rec.Keys) != 1 || rec.Key().Key != keyB.Public().String() {
		t.Errorf("B after recovery: keys %s", keysOf(rec))
	}
	if rec := record(n, opC); len(rec.Identities) != 0 || rec.Keys[0].Since != store.Unlogged {
		t.Errorf("C after recovery: identities %s, keys %s; want its registration kept and its identity dropped", identitiesOf(rec), keysOf(rec))
	}
	if rec := record(n, opE); len(rec.Keys) != 1 || !rec.Keys[0].Current() || rec.Key().Key != keyE.Public().String() || rec.Identities[0].Index != 7 {
		t.Errorf("E after recovery: keys %s; want its unlogged rotation undone", keysOf(rec))
	}
	if rec := record(n, opF); len(rec.Keys) != 1 || rec.Key().Key != keyF.Public().String() {
		t.Errorf("F after recovery: keys %s; want both unlogged rotations undone", keysOf(rec))
	}
	for what, d := range map[string]string{"F's first rotation": rotationsF[1], "F's second rotation": rotationsF[0], "B's rotation": rotationB, "C's identity": identityC, "E's rotation": rotationE, "the orphan key entry": orphanDigest} {
		if _, err := n.store.SignedByDigest(ctx, d); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s (%s) after recovery: %v, want it dropped", what, d, err)
		}
	}
	after, err := n.store.Unbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 1 || after[0].Digest != record(n, opC).Keys[0].Entry {
		t.Errorf("unbound after recovery: %d entries, want only C's key entry", len(after))
	}
	for _, want := range []string{"index=2", "index=3", "dropped", "had_leaf=true", "had_leaf=false"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the recovery log does not say %q", want)
		}
	}

	// Again: nothing to do.
	mark := len(logged.String())
	if err := n.recover(ctx); err != nil {
		t.Fatal(err)
	}
	if again, _ := n.store.Unbound(ctx); len(again) != 1 || n.log.Size() != 10 {
		t.Errorf("recovering again changed the store: %d unbound, log %d", len(again), n.log.Size())
	}
	if more := logged.String()[mark:]; strings.Contains(more, "bound an entry") || strings.Contains(more, "dropped") {
		t.Errorf("recovering again repaired something:\n%s", more)
	}

	// C's kept registration is logged with its next action, and E can
	// rotate with the key it holds again.
	must(c.invite(opC))
	_, status, v, err = c.rotate(opE, keyE)
	must(status, v, err)
	auditLog(t, c, n.keys.log.Public().String())
	if rec := record(n, opC); rec.Keys[0].Since == store.Unlogged || len(rec.Identities) != 1 {
		t.Errorf("C after its invitation: identities %s, keys %s", identitiesOf(rec), keysOf(rec))
	}
}

// auditLog checks the node's log as a reader would, with the protocol
// core's verifiers: every entry's receipt verifies against the log key,
// and every entry below the size is served as signed and matches its
// leaf. It returns the leaves and the tree head.
func auditLog(t *testing.T, c *client, pub string) ([]map[string]any, tlog.TreeHead) {
	t.Helper()
	status, v, err := c.do("GET", "/api/v1/log", nil)
	if err != nil || status != http.StatusOK {
		t.Fatalf("GET /api/v1/log: %d %v", status, err)
	}
	info := v.(map[string]any)
	if info["public_key"] != pub {
		t.Fatalf("the log's key changed")
	}
	head, err := tlog.ParseTreeHead(mustJSON(t, info["tree_head"]))
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.VerifyTreeHead(head, pub); err != nil {
		t.Fatalf("tree head: %v", err)
	}
	var leaves []map[string]any
	for i := range head.Size {
		path := "/api/v1/log/entries/" + itoa(i)
		status, v, err := c.do("GET", path, nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("receipt %d: %d %v %v", i, status, v, err)
		}
		receipt, err := tlog.ParseReceipt(mustJSON(t, v))
		if err != nil {
			t.Fatalf("receipt %d: %v", i, err)
		}
		if err := tlog.VerifyReceipt(receipt, pub); err != nil {
			t.Fatalf("receipt %d does not verify: %v", i, err)
		}
		leaf := v.(map[string]any)["leaf"].(map[string]any)
		status, sv, err := c.do("GET", path+"/signed", nil)
		if err != nil || status != http.StatusOK {
			t.Errorf("entry %d as signed: %d %v %v", i, status, sv, err)
			leaves = append(leaves, leaf)
			continue
		}
		signed := sv.(map[string]any)["entry"].(map[string]any)
		if !protocol.MatchesLeafEntry(signed, leaf["entry"].(map[string]any)) {
			t.Errorf("entry %d as signed does not match its leaf", i)
		}
		leaves = append(leaves, leaf)
	}
	return leaves, head
}

// crashChildEnv names the data folder a child process serves a node from
// until it is killed (see TestCrashChild).
const crashChildEnv = "AGORA_NODE_CRASH_CHILD_DIR"

// crashChildStateEnv and crashChildLogEnv, when set, are the child node's
// Config.State and Config.Log, for TestSharedCrash.
const (
	crashChildStateEnv = "AGORA_NODE_CRASH_CHILD_STATE"
	crashChildLogEnv   = "AGORA_NODE_CRASH_CHILD_LOG"
)

// sharedTestGrace is the RecoverGrace of the nodes TestSharedCrash runs:
// short, so that the test need not wait a minute for a killed process's
// leftovers to be settled.
const sharedTestGrace = 2 * time.Second

// crashChildOpenAfterEnv, when it holds a duration, has the child node
// make every bundle free and open sealed bundles after that duration, for
// TestBundleCrash.
const crashChildOpenAfterEnv = "AGORA_NODE_CRASH_CHILD_OPEN_AFTER"

// TestCrashChild is the child process of TestCrash and TestBundleCrash: it
// starts the node in $AGORA_NODE_CRASH_CHILD_DIR (with bundles free and
// opening as $AGORA_NODE_CRASH_CHILD_OPEN_AFTER says, if set), serves it on
// loopback, prints "url <URL>" and serves until it is killed, its log going
// to stderr. Its store binds entries slowly (slowBindStore). It is skipped
// when the variable is not set.
func TestCrashChild(t *testing.T) {
	t.Parallel()
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		t.Skip("only run as TestCrash's child process")
	}
	cfg := Config{DataDir: dir, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)),
		State: os.Getenv(crashChildStateEnv), Log: os.Getenv(crashChildLogEnv), RecoverGrace: sharedTestGrace}
	if d, err := time.ParseDuration(os.Getenv(crashChildOpenAfterEnv)); err == nil {
		cfg.FreeBundles, cfg.OpenAfter = FreeAll, d
	}
	if os.Getenv(crashChildJobsEnv) != "" {
		cfg.FreeBundles, cfg.Qualification, cfg.CanaryRate = FreeAll, "off", -1
	}
	// A slow disk: bindings lag the log by a little, so a kill soon
	// after a tree head is published finds appends not yet bound.
	cfg.wrapStore = func(st nodeStore) nodeStore { return slowBindStore{st} }
	n, err := New(context.Background(), cfg)
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("url http://%s\n", ln.Addr())
	http.Serve(ln, n.Handler())
}

// slowBindStore is a store whose BindIndex takes 50 ms longer.
type slowBindStore struct{ nodeStore }

func (s slowBindStore) BindIndex(ctx context.Context, index int64, digest string) error {
	time.Sleep(50 * time.Millisecond)
	return s.nodeStore.BindIndex(ctx, index, digest)
}

// child is a node running in a child process.
type child struct {
	cmd    *exec.Cmd
	url    string
	stderr *lockedBuffer
}

// startChild runs TestCrashChild on dir, with env (NAME=value) added to
// its environment, and waits for its URL. The child gets its settings
// through its own environment, not this process's, so crash tests can run
// in parallel.
func startChild(t *testing.T, dir string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(append(os.Environ(), crashChildEnv+"="+dir), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() }) // a child a failed test left running
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "url ")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child node did not start: %q %v\n%s", line, err, c.stderr)
	}
	c.url = url
	go io.Copy(io.Discard, stdout)
	return c
}

// kill SIGKILLs the child and waits for it to die.
func (c *child) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := c.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child node ended with %v, not SIGKILL\n%s", err, c.stderr)
	}
}

// recoveryLines returns the summaries recovery logged in a node's log, and
// fails the test for any error it logged.
func recoveryLines(t *testing.T, log string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(log, "\n") {
		switch {
		case !strings.Contains(line, "recovery:"):
		case strings.Contains(line, "level=ERROR"):
			t.Errorf("recovery: %s", line)
		case strings.Contains(line, "reconciled"):
			out = append(out, line)
		}
	}
	return out
}

// acked is what the node acknowledged before it was killed.
type acked struct {
	mu         sync.Mutex
	attempted  []string           // every operator a registration was sent for
	registered map[string]bool    // operators whose registration was acknowledged
	identities map[string]int64   // operator → index of its acknowledged invitation
	rotations  map[string][]int64 // operator → indexes of its acknowledged rotations
	keys       map[string]string  // operator → digest of the key its last acknowledged rotation gave
	heads      []tlog.TreeHead    // every tree head the node served
}

// burst drives registrations, invitations and rotations at the node from
// workers, each from its own loopback address, while polling its tree
// head; after d it SIGKILLs the node the moment it sees a new tree head
// published (when appends are returning and binding), and returns once
// every worker stopped.
//
// With others, the URLs of other processes of the node, the workers take
// turns between the child and them, and every worker stops once the child
// is killed.
func burst(t *testing.T, ch *child, token, pub string, round int, d time.Duration, ack *acked, others ...string) {
	const workers = 12
	urls := append([]string{ch.url}, others...)
	var killed atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(urls[w%len(urls)], net.IPv4(127, 0, byte(round+1), byte(w+2)), token)
			for i := 0; !killed.Load(); i++ {
				key, op, status, err := c.register(fmt.Sprintf("Crash %d %d", w, i))
				ack.mu.Lock()
				ack.attempted = append(ack.attempted, op)
				ack.mu.Unlock()
				if err != nil {
					return
				}
				if status != http.StatusCreated {
					t.Errorf("register: %d", status)
					return
				}
				ack.mu.Lock()
				ack.registered[op] = true
				ack.mu.Unlock()
				status, v, err := c.invite(op)
				if err != nil {
					return
				}
				index, ok := answerIndex(v)
				if status != http.StatusCreated || !ok {
					t.Errorf("invite: %d %v", status, v)
					return
				}
				ack.mu.Lock()
				ack.identities[op] = index
				ack.mu.Unlock()
				for range (w + i) % 3 { // some operators rotate, once or twice
					next, status, v, err := c.rotate(op, key)
					if err != nil {
						return
					}
					index, ok := answerIndex(v)
					if status != http.StatusOK || !ok {
						t.Errorf("rotate: %d %v", status, v)
						return
					}
					key = next
					ack.mu.Lock()
					ack.rotations[op] = append(ack.rotations[op], index)
					ack.keys[op] = protocol.KeyDigest(next.Public().String())
					ack.mu.Unlock()
				}
			}
		}()
	}

	poll := newClient(ch.url, nil, "")
	start := time.Now()
	var last uint64
	for {
		status, v, err := poll.do("GET", "/api/v1/log", nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("GET /api/v1/log during the burst: %d %v", status, err)
		}
		head, err := tlog.ParseTreeHead(mustJSON(t, v.(map[string]any)["tree_head"]))
		if err != nil {
			t.Fatal(err)
		}
		grew := head.Size > last
		if grew {
			last = head.Size
			ack.mu.Lock()
			ack.heads = append(ack.heads, head)
			ack.mu.Unlock()
		}
		if elapsed := time.Since(start); elapsed > d && grew || elapsed > 3*d {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	ch.kill(t)
	killed.Store(true)
	wg.Wait()
}

// crashTest marks t as a parallel test that kills child nodes and binds
// client sockets to 127.0.0.x: skipped in -short and off Linux.
func crashTest(t *testing.T) {
	t.Helper()
	t.Parallel()
	if testing.Short() {
		t.Skip("kills and restarts a node: not in -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("binds client sockets to 127.0.0.x, which needs Linux's loopback")
	}
}

// restartHere opens the node on dir in this process, after child nodes
// crashed on it, and serves it on loopback: it returns the node, a client
// of it, and the summaries its recovery logged (recoveryLines).
func restartHere(t *testing.T, dir string) (*Node, *client, []string) {
	t.Helper()
	var logged lockedBuffer
	n := openNode(t, dir, &logged)
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		n.Close(context.Background())
	})
	return n, newClient(srv.URL, nil, ""), recoveryLines(t, logged.String())
}

// TestCrash kills the node process (SIGKILL) during bursts of
// registrations, invitations and rotations, restarts it on the same data
// folder, and checks what it acknowledged and served before each crash:
// every acknowledged entry is at its index and provable, every entry the
// log holds is served as signed and matches its leaf, the tree extends
// every tree head served before, and operator records rest only on logged
// entries.
func TestCrash(t *testing.T) {
	crashTest(t)
	dir := dataDir(t)
	ack := &acked{registered: map[string]bool{}, identities: map[string]int64{}, rotations: map[string][]int64{}, keys: map[string]string{}}
	var pub, token string
	var recovered []string
	const rounds = 3
	for round := range rounds {
		ch := startChild(t, dir)
		if round == 0 {
			b, err := os.ReadFile(AdminTokenPath(dir))
			if err != nil {
				t.Fatal(err)
			}
			token = string(b)
			_, v, err := newClient(ch.url, nil, "").do("GET", "/api/v1/log", nil)
			if err != nil {
				t.Fatal(err)
			}
			pub = v.(map[string]any)["public_key"].(string)
		}
		burst(t, ch, token, pub, round, 2500*time.Millisecond, ack)
		recovered = append(recovered, recoveryLines(t, ch.stderr.String())...)
	}

	// Restart in this process, to read the store too.
	n, c, lines := restartHere(t, dir)
	recovered = append(recovered, lines...)
	leaves, head := auditLog(t, c, pub)
	t.Logf("%d crashes; %d operators attempted, %d registered, %d invited, %d rotated; %d tree heads seen; the log holds %d entries",
		rounds, len(ack.attempted), len(ack.registered), len(ack.identities), len(ack.rotations), len(ack.heads), head.Size)
	t.Logf("recovery said:\n%s", strings.Join(recovered, "\n"))
	if len(ack.identities) == 0 {
		t.Fatal("no invitation was acknowledged: the burst did nothing")
	}
	checkAcked(t, n, c, pub, ack, leaves, head)
}

// checkAcked checks, on node n (a client c of it) after crashes, what
// was acknowledged and served before them (ack), against the log as
// auditLog read it (leaves, head): the tree extends every tree head
// served, every acknowledged entry is at its index, operator records rest
// only on logged entries and keep what was acknowledged, and nothing but
// registered operators' key entries waits unbound.
func checkAcked(t *testing.T, n *Node, c *client, pub string, ack *acked, leaves []map[string]any, head tlog.TreeHead) {
	t.Helper()
	// The tree extends every tree head served before a crash.
	for _, old := range ack.heads {
		if old.Size > head.Size {
			t.Fatalf("a tree head of %d entries was served, but the log now holds %d", old.Size, head.Size)
		}
		status, v, err := c.do("GET", "/api/v1/log/proofs/consistency?first="+itoa(old.Size)+"&second="+itoa(head.Size), nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("consistency %d to %d: %d %v", old.Size, head.Size, status, err)
		}
		var proof []tlog.Hash
		for _, h := range v.(map[string]any)["proof"].([]any) {
			hash, err := tlog.ParseHash(h.(string))
			if err != nil {
				t.Fatal(err)
			}
			proof = append(proof, hash)
		}
		if err := tlog.VerifyTreeGrowth(old, head, proof, pub); err != nil {
			t.Errorf("the tree of %d does not extend the head of %d served before a crash: %v", head.Size, old.Size, err)
		}
	}

	// leafAt checks that index holds an entry of type typ for op.
	leafAt := func(index int64, typ, op string) map[string]any {
		t.Helper()
		if index < 0 || index >= int64(len(leaves)) {
			t.Errorf("%s of %s at %d: the log holds %d entries", typ, op, index, len(leaves))
			return nil
		}
		leaf := leaves[index]
		entry := leaf["entry"].(map[string]any)
		if leaf["operator"] != op || entry["type"] != typ {
			t.Errorf("entry %d is a %v of %v, want a %s of %s", index, entry["type"], leaf["operator"], typ, op)
			return nil
		}
		return entry
	}
	// Every acknowledged entry is at its index (provable: auditLog
	// verified every receipt).
	for op, index := range ack.identities {
		leafAt(index, "identity", op)
	}
	for op, indexes := range ack.rotations {
		for _, index := range indexes {
			leafAt(index, protocol.KeyRotationType, op)
		}
	}
	// Records rest on logged entries, and keep what was acknowledged.
	ctx := context.Background()
	for _, op := range ack.attempted {
		rec, err := n.store.Operator(ctx, op)
		if errors.Is(err, store.ErrNotFound) {
			if ack.registered[op] {
				t.Errorf("acknowledged registration of %s lost", op)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range rec.Identities {
			leafAt(id.Index, "identity", op)
		}
		if want, ok := ack.identities[op]; ok && (len(rec.Identities) == 0 || rec.Identities[0].Index != want) {
			t.Errorf("%s: acknowledged identity at %d, record %s", op, want, identitiesOf(rec))
		}
		for j, k := range rec.Keys {
			if j == 0 && k.Since == store.Unlogged {
				if len(rec.Keys) > 1 || len(rec.Identities) > 0 {
					t.Errorf("%s holds records resting on its unlogged key entry: identities %s, keys %s", op, identitiesOf(rec), keysOf(rec))
				}
				continue
			}
			typ := "key"
			if j > 0 {
				typ = protocol.KeyRotationType
			}
			if entry := leafAt(k.Since, typ, op); entry != nil && protocol.KeyDigest(entry["key"].(string)) != k.Digest {
				t.Errorf("%s: key %d rests on entry %d, which gives another key", op, j, k.Since)
			}
			if !k.Current() && (j+1 >= len(rec.Keys) || k.Until != rec.Keys[j+1].Since) {
				t.Errorf("%s: key %d retired at %d, not where the next was given", op, j, k.Until)
			}
		}
		if want, ok := ack.keys[op]; ok {
			held := false
			for _, k := range rec.Keys {
				held = held || k.Digest == want
			}
			if !held {
				t.Errorf("%s: the key its acknowledged rotation gave is gone", op)
			}
		}
	}
	// Nothing half-written is left: only registered operators' key
	// entries wait unbound.
	unbound, err := n.store.Unbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range unbound {
		if entryType(s.Entry) != "key" {
			t.Errorf("a %s entry is still unbound after recovery", entryType(s.Entry))
		}
	}
}
