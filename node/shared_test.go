package node

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog/mysqltest"
	"github.com/agora-node/agora/vocabulary"
)

// TestSharedCrash runs one node as two processes on one PostgreSQL state
// and one MySQL log, as agora serve does behind a load balancer: a child
// process and this one, with the same keys. Registrations, invitations
// and rotations go through both at once; the child is SIGKILLed mid-burst.
// This process keeps serving; once its recovery has settled what the
// child left, the log is audited through it: every acknowledged entry,
// whichever process acknowledged it, is at its index and provable, every
// entry the log holds is served as signed, the tree extends every head
// either served, and the operators' records rest only on logged entries.
func TestSharedCrash(t *testing.T) {
	crashTest(t)
	dir := dataDir(t)
	state, logURL := pgtest.SchemaDSN(t), mysqltest.URL(t)
	env := []string{crashChildStateEnv + "=" + state, crashChildLogEnv + "=" + logURL}
	ch := startChild(t, dir, env...) // makes the node's keys in dir
	var logged lockedBuffer
	here, srv := serveNode(t, Config{DataDir: dir, State: state, Log: logURL, RecoverGrace: sharedTestGrace,
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if !here.log.Shared() {
		t.Fatal("a node on PostgreSQL and a MySQL log does not share its log")
	}
	token, err := os.ReadFile(AdminTokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(srv.URL, nil, string(token))
	_, v, err := c.do("GET", "/api/v1/log", nil)
	if err != nil {
		t.Fatal(err)
	}
	pub := v.(map[string]any)["public_key"].(string)

	ack := &acked{registered: map[string]bool{}, identities: map[string]int64{}, rotations: map[string][]int64{}, keys: map[string]string{}}
	burst(t, ch, string(token), pub, 0, 2500*time.Millisecond, ack, srv.URL)

	// This process keeps serving once the other is gone.
	for i := range 3 {
		_, op, status, err := c.register(fmt.Sprintf("After %d", i))
		if err != nil || status != http.StatusCreated {
			t.Fatalf("registering through the process left: %d %v", status, err)
		}
		status, v, err := c.invite(op)
		index, ok := answerIndex(v)
		if err != nil || status != http.StatusCreated || !ok {
			t.Fatalf("inviting through the process left: %d %v %v", status, v, err)
		}
		ack.registered[op], ack.identities[op] = true, index
		ack.attempted = append(ack.attempted, op)
	}

	// Its recovery settles what the child left, once the grace passed.
	deadline := time.Now().Add(2*sharedRecoverEvery + 4*sharedTestGrace)
	for {
		unbound, err := here.store.Unbound(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		left := 0
		for _, s := range unbound {
			if entryType(s.Entry) != "key" {
				left++
			}
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d entries the killed process left are still unbound after %s\n%s", left, 2*sharedRecoverEvery+4*sharedTestGrace, logged.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	leaves, head := auditLog(t, c, pub)
	var settled []string
	for _, line := range strings.Split(logged.String(), "\n") {
		if strings.Contains(line, "recovery:") && !strings.Contains(line, "kept an unlogged") {
			settled = append(settled, line)
		}
	}
	t.Logf("%d operators attempted, %d registered, %d invited, %d rotated; %d tree heads seen; the log holds %d entries; recovery here said:\n%s",
		len(ack.attempted), len(ack.registered), len(ack.identities), len(ack.rotations), len(ack.heads), head.Size, strings.Join(settled, "\n"))
	if len(ack.identities) < 4 {
		t.Fatal("hardly an invitation was acknowledged: the burst did nothing")
	}
	checkAcked(t, here, c, pub, ack, leaves, head)
}

// sharedPair starts two nodes, A and B, as two processes of one node
// would run: one data folder (keys), one PostgreSQL state, one MySQL log,
// each served on loopback.
func sharedPair(t *testing.T, cfg Config) (a, b *Node, urlA, urlB string) {
	t.Helper()
	cfg.DataDir, cfg.State, cfg.Log = dataDir(t), pgtest.SchemaDSN(t), mysqltest.URL(t)
	cfg.RecoverGrace, cfg.Logger = sharedTestGrace, slog.New(slog.DiscardHandler)
	var nodes [2]*Node
	var urls [2]string
	for i := range nodes {
		n, srv := serveNode(t, cfg)
		nodes[i], urls[i] = n, srv.URL
	}
	return nodes[0], nodes[1], urls[0], urls[1]
}

// TestSharedLibraryRacing races library writers across two processes of
// one node: revisions of one head sent to both at once, of which exactly
// one may win (a head's single successor holds across processes), and
// one contribution sent to both at once, many times, which is stored and
// logged once, every answer naming its one index.
func TestSharedLibraryRacing(t *testing.T) {
	t.Parallel()
	a, b, urlA, urlB := sharedPair(t, Config{})
	urls := []string{urlA, urlB}
	owner := newAuthor(t, a, urlA)
	now := time.Now().Add(-time.Minute)
	root, rootID := envelope(t, owner, map[string]any{"kind": "thread", "title": "Raced", "body": "Two processes", "links": []any{}, "previous": ""}, now)
	if status, v := call(t, "POST", urlA+"/api/entries", root); status != http.StatusCreated {
		t.Fatalf("the thread: %d %v", status, v)
	}

	const racers = 8
	statuses := make([]int, racers)
	codes := make([]any, racers)
	var wg sync.WaitGroup
	for i := range racers {
		rev, _ := envelope(t, owner, map[string]any{"kind": "thread", "title": fmt.Sprintf("Raced, revision %d", i), "body": "One wins",
			"links": []any{}, "previous": rootID}, now.Add(time.Duration(i+1)*time.Millisecond))
		wg.Go(func() {
			status, v := call(t, "POST", urls[i%2]+"/api/entries", rev)
			statuses[i] = status
			if m, ok := v.(map[string]any); ok {
				codes[i] = m["code"]
			}
		})
	}
	wg.Wait()
	won := 0
	for i, status := range statuses {
		switch {
		case status == http.StatusCreated:
			won++
		case status != http.StatusConflict || codes[i] != "stale_head":
			t.Errorf("racer %d: %d %v, want 201 or 409 stale_head", i, status, codes[i])
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d revisions of one head were stored, want exactly 1 (statuses %v)", won, racers, statuses)
	}

	same, sameID := envelope(t, owner, map[string]any{"kind": "thread", "title": "Sent twice", "body": "To both", "links": []any{}, "previous": ""}, now.Add(time.Second))
	indices := make([]any, 2*racers)
	for i := range 2 * racers {
		wg.Go(func() {
			status, v := call(t, "POST", urls[i%2]+"/api/entries", same)
			if status != http.StatusCreated && status != http.StatusOK {
				t.Errorf("the same contribution, sent again: %d %v", status, v)
				return
			}
			admission, _ := v.(map[string]any)["admission"].(map[string]any)
			indices[i] = admission["log_index"]
		})
	}
	wg.Wait()
	for i, index := range indices {
		if index == nil || index != indices[0] {
			t.Fatalf("the same contribution got log indices %v, want one (answer %d)", indices, i)
		}
	}
	if _, err := a.log.WaitForSize(t.Context(), b.log.Size()); err != nil {
		t.Fatal(err)
	}
	if leaves := leavesOf(t, a, sameID); len(leaves) != 1 {
		t.Fatalf("the contribution sent %d times to two processes is on the log at %v, want once", 2*racers, leaves)
	}
}

// balancer serves a round-robin load balancer over urls on loopback, as
// one sends requests to the processes of a node: each request to the next.
func balancer(t *testing.T, urls ...string) string {
	t.Helper()
	var backends []*url.URL
	for _, u := range urls {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		backends = append(backends, parsed)
	}
	var next atomic.Uint64
	srv := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[next.Add(1)%uint64(len(backends))])
		r.Out.Host = r.In.Host
	}})
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSharedVerificationLoop runs TestVerificationLoop's whole economy
// (qualification, bundles, jobs, attestations, credit, rounds, opening,
// and the log audited with the protocol core) through a balancer over two
// processes of one node, each request going to the next.
func TestSharedVerificationLoop(t *testing.T) {
	t.Parallel()
	d, g := startDNS(t), startGitHub(t)
	a, b, urlA, urlB := sharedPair(t, Config{DNSResolver: d.addr, GitHubAPI: g.URL, OpenAfter: -1, CanaryRate: -1})
	// Audited through A once A has followed every tree head B published.
	verificationLoop(t, a, balancer(t, urlA, urlB), func() string {
		if _, err := a.log.WaitForSize(t.Context(), b.log.Size()); err != nil {
			t.Fatal(err)
		}
		return urlA
	}, d)
}

// TestSharedLongPollAndHeads: a long-poll for the next entry held by one
// process (GET /api/v1/log/entries?start=N&wait=) ends with the entry
// another process logged, and the tree heads the two serve are one tree:
// each is consistent with the other, proved by either process.
func TestSharedLongPollAndHeads(t *testing.T) {
	t.Parallel()
	a, _, urlA, urlB := sharedPair(t, Config{})
	owner := newAuthor(t, a, urlA)
	head := func(base string) tlog.TreeHead {
		t.Helper()
		status, v := call(t, "GET", base+"/api/v1/log", nil)
		if status != http.StatusOK {
			t.Fatalf("GET %s/api/v1/log: %d %v", base, status, v)
		}
		h, err := tlog.ParseTreeHead(mustJSON(t, v.(map[string]any)["tree_head"]))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// A's head covers everything the author's setup logged through A;
	// B's may not have followed it yet.
	size := head(urlA).Size
	polled := make(chan any, 1)
	go func() {
		status, v := call(t, "GET", urlB+"/api/v1/log/entries?start="+itoa(size)+"&wait=20", nil)
		if status != http.StatusOK {
			t.Errorf("the long-poll on B: %d %v", status, v)
		}
		polled <- v
	}()
	time.Sleep(300 * time.Millisecond) // the poll is waiting
	wire, id := envelope(t, owner, map[string]any{"kind": "thread", "title": "Through A", "body": "Seen by B's poll", "links": []any{}, "previous": ""}, time.Now())
	began := time.Now()
	if status, v := call(t, "POST", urlA+"/api/entries", wire); status != http.StatusCreated {
		t.Fatalf("the contribution through A: %d %v", status, v)
	}
	select {
	case v := <-polled:
		entries, _ := v.(map[string]any)["entries"].([]any)
		if len(entries) == 0 {
			t.Fatalf("B's long-poll ended with no entry: %v", v)
		}
		leaf, _ := entries[0].(map[string]any)["leaf"].(map[string]any)
		entry, _ := leaf["entry"].(map[string]any)
		if entry["revision"] != id {
			t.Fatalf("B's long-poll gave %v, want the contribution %s logged through A", entries[0], id)
		}
		t.Logf("B's long-poll answered %s after A acknowledged", time.Since(began).Round(time.Millisecond))
	case <-time.After(25 * time.Second):
		t.Fatal("B's long-poll never answered")
	}

	// Each process's head is consistent with the other's, proved by each.
	ha, hb := head(urlA), head(urlB)
	pub := a.keys.log.Public().String()
	for _, prover := range []string{urlA, urlB} {
		first, second := ha, hb
		if first.Size > second.Size {
			first, second = second, first
		}
		if err := treeGrowth(t, prover, first, second, pub); err != nil {
			t.Fatalf("the heads of A (%d) and B (%d) are not one tree: %v", ha.Size, hb.Size, err)
		}
	}
}

// TestSharedSeedBundles submits, at once through two processes of one
// node, more free seed bundles than a new ledger gives: exactly
// vocabulary.SeedBundles are sealed free, and the rest are told to earn
// credit first. (The seeding rule counts the ledger's bundles under a
// lock both processes take, journal.Lock; that two processes never hold
// one together is journal's TestLockAcrossProcesses. Here the timing of
// real submissions did not overlap the counts enough to break the rule
// without it, so this shows the rule, not the lock.)
func TestSharedSeedBundles(t *testing.T) {
	t.Parallel()
	a, _, urlA, urlB := sharedPair(t, Config{})
	urls := []string{urlA, urlB}
	const authors = vocabulary.SeedBundles + 4
	var bodies [][]byte
	for i := range authors {
		who := newAuthor(t, a, urlA)
		body, _ := signedBody(t, who.key, sumBundle(t, protocol.KeyDigest(who.key.Public().String()), "claude", fmt.Sprintf("seed sample %d", i), true), nil)
		status, check := call(t, "POST", urls[i%2]+"/api/v1/bundles/check", body)
		if status != http.StatusOK || check.(map[string]any)["ready"] != true {
			t.Fatalf("check %d: %d %v", i, status, check)
		}
		if free := check.(map[string]any)["price"].(map[string]any)["free"]; free != "seed" {
			t.Fatalf("author %d's bundle is not free before any was sealed: %v", i, free)
		}
		bodies = append(bodies, body)
	}
	// One is sealed first, so that the race starts from an odd count:
	// two processes counting in step from an even one would stop at the
	// limit by chance.
	if status, v := call(t, "POST", urlA+"/api/v1/bundles", bodies[0]); status != http.StatusAccepted {
		t.Fatalf("the first submission: %d %v", status, v)
	}
	statuses := make([]int, authors)
	statuses[0] = http.StatusAccepted
	var wg sync.WaitGroup
	for i, body := range bodies[1:] {
		i++
		wg.Go(func() {
			status, v := call(t, "POST", urls[i%2]+"/api/v1/bundles", body)
			statuses[i] = status
			if status != http.StatusAccepted && (status != http.StatusForbidden || v.(map[string]any)["code"] != "verify_first") {
				t.Errorf("submission %d: %d %v, want 202 or 403 verify_first", i, status, v)
			}
		})
	}
	wg.Wait()
	sealed := 0
	for _, status := range statuses {
		if status == http.StatusAccepted {
			sealed++
		}
	}
	if sealed != vocabulary.SeedBundles {
		t.Fatalf("%d free seed bundles were sealed through two processes, want %d (statuses %v)", sealed, vocabulary.SeedBundles, statuses)
	}
}
