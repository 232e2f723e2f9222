package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

const benchUsage = `usage: agora bench append --url URL [--url URL ...] --data DIR [--duration 10s] [--concurrency 64] [--operators N]
                          [--publish-duration 10s] [--authors 64] [--contributions N] [--read-duration 5s]
                          [--node-pid PID ...]

Measures a running node under load, in four phases:

  register     registers --operators fresh operators, each a key entry signed
               with a key made before any timing (the node verifies and keeps
               it, and logs nothing yet)
  append       for --duration, has the node invite them over the admin route,
               --concurrency at a time: each invitation logs two signed
               entries, the operator's key entry and its identity, and is
               answered once both are in a published checkpoint, so its
               latency is request to published checkpoint
  publish      for --publish-duration (default --duration), posts library
               contributions (POST /api/entries), --concurrency at a time: each
               is one entry the client signed with its author's key (--authors
               of the operators invited above) and the node verifies, checks,
               stores and logs, answering once it is in a published
               checkpoint. The envelopes are signed before the clock starts
               (--contributions of them, default 4,000 a second of the phase):
               signing is the client's work, not the node's
  proof reads  for --read-duration, reads receipts (GET
               /api/v1/log/entries/{i}: the entry and its inclusion proof
               against the newest tree head) at random, --concurrency at a time

The admin token is read from the node's data folder (--data, as 'agora admin'
reads it) or --token-file. The node allows an address 50 registrations a day,
so against a node on loopback each group of 40 registrations is sent from its
own address in 127.0.0.0/8; against another host the bench registers what the
node allows and stops at its first 429.

--node-pid names the node's process on this machine, and the table gives the
node's CPU time per entry logged (user and system, from /proc/PID/stat).

Several processes of one node: repeat --url, once for each 'agora serve' on
the same state database and log (and the same keys), and the bench deals its
workers to them in turn (worker w sends to URL w mod the number of URLs),
registration groups too. An operator registered through one process is
invited and publishes through another, so the URLs must be one node's: of
independent nodes the invitations fail. Repeat --node-pid in the order of
--url, and the node's CPU is the sum of the processes'. The table then counts
every URL together, and a second one gives each URL's requests, rate,
latencies and (with a PID for each URL) its process's CPU per entry.
`

// perSourceAddress is how many registrations the bench sends from one
// loopback address, under the node's 50 a day.
const perSourceAddress = 40

// benchGroup is "agora bench append" and "agora bench jobs".
func benchGroup() *command {
	return group("bench", "measure a node: bench append (appends/s, latency to checkpoint, proof reads/s), bench jobs (jobs handed out/s, attestations admitted/s)", "",
		func() []*command { return []*command{benchAppendCommand(), benchJobsCommand()} })
}

func benchAppendCommand() *command {
	c := newCommand("append", "agora bench append --url URL --data DIR", "appends a second, latency to a covering checkpoint, proof reads a second")
	c.doc, c.hint = benchUsage, "run 'agora bench help'"
	var urls urlsFlag
	c.flags.Var(&urls, "url", "the node's URL (or set AGORA_URL); repeat it for each process of one node, and the bench deals its workers to them in turn")
	dataDir := c.flags.String("data", "", "the node's data folder, which holds its admin token")
	tokenFile := c.flags.String("token-file", "", "the file holding the node's admin token (instead of --data)")
	duration := c.flags.Duration("duration", 10*time.Second, "how long to append")
	readDuration := c.flags.Duration("read-duration", 5*time.Second, "how long to read proofs (0 skips it)")
	concurrency := c.flags.Int("concurrency", 64, "requests in flight at once")
	operators := c.flags.Int("operators", 0, "operators to prepare (default enough for the duration: concurrency × 2 per second)")
	publishDuration := c.flags.Duration("publish-duration", -1, "how long to publish contributions (default --duration; 0 skips it)")
	authors := c.flags.Int("authors", 64, "invited operators who sign the contributions")
	contributions := c.flags.Int("contributions", 0, "contributions to sign before publishing (default 4,000 a second of --publish-duration)")
	var nodePIDs pidsFlag
	c.flags.Var(&nodePIDs, "node-pid", "the node's process ID on this machine, to report the node's CPU per entry (Linux); repeat it for each process, in the order of --url")
	c.run = func(ctx context.Context, e *env, args []string) int {
		switch {
		case len(args) > 0:
			return c.noArgs(e, args)
		case *concurrency < 1 || *duration <= 0 || *readDuration < 0 || *operators < 0 || *authors < 1 || *contributions < 0:
			return c.usageError(e, "--concurrency, --duration, --operators, --authors and --contributions must be positive")
		case *dataDir == "" && *tokenFile == "":
			return fail(e, 2, "give the node's data folder with --data DIR, or --token-file FILE",
				"the bench logs entries through the admin route, which needs the node's admin token")
		}
		if *tokenFile == "" {
			*tokenFile = node.AdminTokenPath(*dataDir)
		}
		token, err := os.ReadFile(*tokenFile)
		if err != nil {
			return fail(e, 1, "point --data at the node's data folder", "reading the admin token: %v", err)
		}
		if len(urls) == 0 {
			urls = urlsFlag{strings.TrimRight(defaultURL(), "/")}
		}
		n := *operators
		if n == 0 {
			n = max(2, int(2*duration.Seconds())) * *concurrency
		}
		if *publishDuration < 0 {
			*publishDuration = *duration
		}
		if *contributions == 0 {
			*contributions = max(1, int(4000*publishDuration.Seconds()))
		}
		b := &bench{
			url:             urls[0],
			urls:            urls,
			token:           strings.TrimSpace(string(token)),
			concurrency:     *concurrency,
			publishDuration: *publishDuration,
			authors:         *authors,
			contributions:   *contributions,
			nodePIDs:        nodePIDs,
			out:             e.stderr,
		}
		if _, err := b.nodeCPU(); err != nil {
			return fail(e, 2, "give --node-pid the PID of each 'agora serve' on this machine (pgrep -f 'agora serve')", "%v", err)
		}
		b.hc = &http.Client{Timeout: time.Minute, Transport: &http.Transport{
			MaxIdleConns: *concurrency, MaxIdleConnsPerHost: *concurrency, IdleConnTimeout: time.Minute,
		}}
		if len(nodePIDs) > 0 && len(nodePIDs) != len(urls) {
			fmt.Fprintf(e.stderr, "agora: bench: %d PIDs for %d URLs: the node's CPU is their sum, with no share per URL\n", len(nodePIDs), len(urls))
		}
		results, err := b.run(ctx, n, *duration, *readDuration)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		printBench(e.stdout, results, *concurrency)
		printPerTarget(e.stdout, results, urls)
		return 0
	}
	return c
}

type bench struct {
	url             string   // the node's first URL, which the bench reads the log's size from
	urls            []string // every process's URL, url first; empty means url alone
	token           string
	concurrency     int
	publishDuration time.Duration
	authors         int   // operators who sign contributions
	contributions   int   // contributions signed for the publish phase
	nodePIDs        []int // the node's processes, to read their CPU time
	hc              *http.Client
	out             io.Writer // progress notes
}

// phase is what one phase measured.
type phase struct {
	name      string
	ops       int // requests answered 2xx
	appends   int // entries logged, for the append phase
	failed    map[string]int
	elapsed   time.Duration
	latencies []time.Duration
	nodeCPU   time.Duration // the node's CPU time over the phase, when its PID is known
	byTarget  []perTarget   // each URL's share, for timed phases
	note      string
	firstErr  error // the first failure, to say what failed
}

// merge adds one worker's latencies and failures, sent to target, to the
// phase; mu guards the phase while workers run.
func (p *phase) merge(mu *sync.Mutex, target int, lat []time.Duration, failed map[string]int, firstErr error) {
	mu.Lock()
	defer mu.Unlock()
	p.latencies = append(p.latencies, lat...)
	t := &p.byTarget[target]
	t.latencies = append(t.latencies, lat...)
	for _, v := range failed {
		t.failed += v
	}
	if p.firstErr == nil {
		p.firstErr = firstErr
	}
	for k, v := range failed {
		p.failed[k] += v
	}
}

func (b *bench) run(ctx context.Context, n int, duration, readDuration time.Duration) ([]*phase, error) {
	c := client.New(b.url, b.hc)
	before, err := c.Log(ctx)
	if err != nil {
		return nil, err
	}

	fmt.Fprintf(b.out, "agora: bench: making %d keys and signing their key entries (not timed)\n", n)
	keys, entries, err := makeKeyEntries(ctx, n, func(int) string { return "claude" })
	if err != nil {
		return nil, err
	}

	fmt.Fprintf(b.out, "agora: bench: registering %d operators\n", n)
	reg, ids, keyOf, err := b.register(ctx, entries)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return []*phase{reg}, nil
	}

	fmt.Fprintf(b.out, "agora: bench: appending for %s, %d requests in flight\n", duration, b.concurrency)
	app, invited := b.appendPhase(ctx, ids, duration)
	after, err := c.Log(ctx)
	if err != nil {
		return nil, err
	}
	if before.TreeHead != nil && after.TreeHead != nil {
		app.note = fmt.Sprintf("log %d → %d entries", before.TreeHead.Size, after.TreeHead.Size)
	}
	phases := []*phase{reg, app}

	if b.publishDuration > 0 && len(invited) > 0 {
		var authors []author
		for _, i := range invited[:min(b.authors, len(invited))] {
			authors = append(authors, author{id: ids[i], key: keys[keyOf[i]]})
		}
		fmt.Fprintf(b.out, "agora: bench: signing %d contributions by %d authors (not timed)\n", b.contributions, len(authors))
		envelopes, err := signContributions(ctx, authors, b.contributions)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(b.out, "agora: bench: publishing for %s, %d requests in flight\n", b.publishDuration, b.concurrency)
		pub := b.publishPhase(ctx, envelopes, b.publishDuration)
		phases = append(phases, pub)
		before := after
		if after, err = c.Log(ctx); err != nil {
			return nil, err
		}
		if before.TreeHead != nil && after.TreeHead != nil && pub.note == "" {
			pub.note = fmt.Sprintf("log %d → %d entries", before.TreeHead.Size, after.TreeHead.Size)
		}
	}
	if readDuration > 0 && after.TreeHead != nil && after.TreeHead.Size > 0 {
		fmt.Fprintf(b.out, "agora: bench: reading receipts for %s\n", readDuration)
		phases = append(phases, b.readPhase(ctx, after.TreeHead.Size, readDuration))
	}
	return phases, nil
}

// makeKeyEntries makes n keys and their signed key entries on every CPU,
// the i-th naming the model family familyOf(i).
func makeKeyEntries(ctx context.Context, n int, familyOf func(int) string) ([]*hybrid.PrivateKey, []map[string]any, error) {
	keys := make([]*hybrid.PrivateKey, n)
	entries := make([]map[string]any, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				key, err := hybrid.GenerateKey()
				if err != nil {
					errs[w] = err
					return
				}
				entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{familyOf(i)}, "model": "agora-bench"}
				if err := protocol.Sign(entry, key); err != nil {
					errs[w] = err
					return
				}
				keys[i], entries[i] = key, entry
			}
		})
	}
	wg.Wait()
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return nil, nil, err
	}
	return keys, entries, nil
}

// register registers every entry, concurrency at a time, and returns the
// operators registered and, for each, the index of its entry. On loopback
// each group of perSourceAddress is sent from its own source address.
func (b *bench) register(ctx context.Context, entries []map[string]any) (*phase, []string, []int, error) {
	p := &phase{name: "register", failed: map[string]int{}}
	clientFor, closeAll, spread := b.registrationClients(len(entries), perSourceAddress)
	defer closeAll()
	if spread > 0 {
		p.note = fmt.Sprintf("from %d loopback addresses", spread)
	}
	ids := make([]string, len(entries))
	lat := make([]time.Duration, len(entries))
	var next atomic.Int64
	var stop atomic.Bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range b.concurrency {
		wg.Go(func() {
			for !stop.Load() && ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(entries) {
					return
				}
				t := time.Now()
				reg, err := clientFor(i).Register(ctx, entries[i], "Bench "+strconv.Itoa(i))
				lat[i] = time.Since(t)
				if err != nil {
					mu.Lock()
					p.failed[failureCode(err)]++
					mu.Unlock()
					if client.IsCode(err, "rate_limited") && spread == 0 {
						stop.Store(true)
					}
					continue
				}
				ids[i] = reg.Operator
			}
		})
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	var got []string
	var entryOf []int
	for i, id := range ids {
		if id != "" {
			got, entryOf = append(got, id), append(entryOf, i)
			p.latencies = append(p.latencies, lat[i])
		}
	}
	p.ops = len(got)
	return p, got, entryOf, ctx.Err()
}

// registrationClients returns a client for the i-th registration. Against
// a node on loopback, each group of per requests shares a source
// address of its own, picked at random in 127.0.0.0/8 so runs against one
// node do not reuse one another's.
func (b *bench) registrationClients(n, per int) (clientFor func(int) *client.Client, closeAll func(), spread int) {
	urls := b.targetURLs()
	if slices.ContainsFunc(urls, offLoopback) {
		return b.sharedClients(urls)
	}
	groups := (n + per - 1) / per
	base := uint32(127)<<24 | (1+rand.Uint32N(250))<<16 | rand.Uint32N(256)<<8 | 1
	// Only some systems (Linux) route all of 127.0.0.0/8 to loopback.
	probe := net.IPv4(byte(base>>24), byte(base>>16), byte(base>>8), byte(base))
	ln, err := net.Listen("tcp", net.JoinHostPort(probe.String(), "0"))
	if err != nil {
		return b.sharedClients(urls)
	}
	ln.Close()
	clients := make([]*client.Client, groups)
	transports := make([]*http.Transport, groups)
	addr := base
	for g := range groups {
		for addr&0xff == 0 || addr&0xff == 0xff {
			addr++
		}
		src := &net.TCPAddr{IP: net.IPv4(byte(addr>>24), byte(addr>>16), byte(addr>>8), byte(addr))}
		addr++
		dialer := &net.Dialer{LocalAddr: src, Timeout: 10 * time.Second}
		// Each address is used for a few registrations only: keep few idle
		// connections, or hundreds of transports' idle connections fill
		// the node's connection limit.
		transports[g] = &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: 5 * time.Second}
		// The groups are dealt out to the node's URLs in turn.
		clients[g] = client.New(urls[g%len(urls)], &http.Client{Timeout: time.Minute, Transport: transports[g]})
	}
	closeAll = func() {
		for _, t := range transports {
			t.CloseIdleConnections()
		}
	}
	return func(i int) *client.Client { return clients[i/per] }, closeAll, groups
}

// appendPhase invites the registered operators, concurrency at a time,
// until duration is over or every operator is invited, and returns the
// indices in ids of those it invited.
func (b *bench) appendPhase(ctx context.Context, ids []string, duration time.Duration) (*phase, []int) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var clients []*client.Client
	for _, u := range b.targetURLs() {
		clients = append(clients, client.New(u, b.hc))
	}
	invited := make([]bool, len(ids))
	p, ranOut := b.timedOn(ctx, "append", b.concurrency, len(ids), duration, func(ctx context.Context, target, i int) error {
		_, err := clients[target].Invite(ctx, b.token, ids[i])
		if client.IsCode(err, "unauthorized") {
			cancel()
		}
		if err == nil {
			invited[i] = true
		}
		return err
	})
	p.appends = 2 * p.ops
	if ranOut {
		p.note = "ran out of operators early; give more with --operators"
	}
	var done []int
	for i, ok := range invited {
		if ok {
			done = append(done, i)
		}
	}
	return p, done
}

// timedAt runs do, concurrency calls at a time, for duration or until it
// was called for each of n items (n < 0: no end but duration), and returns
// the phase's latencies and failures by code, and whether it ran out of
// items before the duration was over. do's i is the item; each i is given
// once.
func (b *bench) timedAt(ctx context.Context, name string, concurrency, n int, duration time.Duration, do func(ctx context.Context, i int) error) (*phase, bool) {
	return b.timedOn(ctx, name, concurrency, n, duration, func(ctx context.Context, _, i int) error { return do(ctx, i) })
}

// timedOn is timedAt whose calls are each told the target, the index of
// the node's URL its worker sends to (see targetOf), and which counts
// each target's share.
func (b *bench) timedOn(ctx context.Context, name string, concurrency, n int, duration time.Duration, do func(ctx context.Context, target, i int) error) (*phase, bool) {
	p := &phase{name: name, failed: map[string]int{}, byTarget: make([]perTarget, len(b.targetURLs()))}
	deadline := time.Now().Add(duration)
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpuBefore, cpuErr := b.nodeCPUs()
	start := time.Now()
	for w := range concurrency {
		target := b.targetOf(w)
		wg.Go(func() {
			var lat []time.Duration
			var firstErr error
			failed := map[string]int{}
			for ctx.Err() == nil && time.Now().Before(deadline) {
				i := int(next.Add(1) - 1)
				if n >= 0 && i >= n {
					break
				}
				t := time.Now()
				if err := do(ctx, target, i); err != nil {
					failed[failureCode(err)]++
					if firstErr == nil && !errors.Is(err, errNoJob) {
						firstErr = err
					}
					continue
				}
				lat = append(lat, time.Since(t))
			}
			p.merge(&mu, target, lat, failed, firstErr)
		})
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	if cpuErr == nil {
		b.setNodeCPU(p, cpuBefore)
	}
	p.ops = len(p.latencies)
	return p, n >= 0 && int(next.Load()) >= n && p.elapsed < duration
}

// An author signs contributions: an operator the bench invited, so it
// holds the library's scopes.
type author struct {
	id  string
	key *hybrid.PrivateKey
}

// benchWords make up the contributions' bodies, so the node indexes words
// as it would a real thread's.
var benchWords = strings.Fields("reproducible build locale sorting clock timestamp input output claim evidence version compiler flag container kernel cache")

// signContributions signs n threads, each a new lineage, by the authors in
// turn, on every CPU, and returns their envelopes as sent.
func signContributions(ctx context.Context, authors []author, n int) ([][]byte, error) {
	envelopes := make([][]byte, n)
	at := time.Now().Add(-time.Minute)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				a := authors[i%len(authors)]
				var body strings.Builder
				for j := range 120 {
					body.WriteString(benchWords[(i*7+j*j)%len(benchWords)])
					body.WriteByte(' ')
				}
				content, err := library.ParseContent(mustJSON(map[string]any{"kind": "thread",
					"title": fmt.Sprintf("Bench note %d on %s", i, benchWords[i%len(benchWords)]),
					"body":  body.String(), "links": []any{}, "previous": ""}))
				if err != nil {
					errs[w] = err
					return
				}
				rec, err := library.NewRecord(content, a.id, at.Add(time.Duration(i)*time.Microsecond))
				if err != nil {
					errs[w] = err
					return
				}
				env, err := library.Sign(rec, a.key)
				if err != nil {
					errs[w] = err
					return
				}
				if envelopes[i], err = env.Marshal(); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return nil, err
	}
	return envelopes, nil
}

func mustJSON(v any) []byte {
	b, err := canonical.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// publishPhase posts the envelopes, concurrency at a time, until duration
// is over or every one is sent. A 201 counts; anything else is a failure.
func (b *bench) publishPhase(ctx context.Context, envelopes [][]byte, duration time.Duration) *phase {
	p, ranOut := b.timedOn(ctx, "publish", b.concurrency, len(envelopes), duration, func(ctx context.Context, target, i int) error {
		return b.post(ctx, b.urlOf(target)+"/api/entries", envelopes[i], http.StatusCreated)
	})
	p.appends = p.ops
	if ranOut {
		p.note = "ran out of contributions early; sign more with --contributions"
	}
	return p
}

// post sends body to url and reads the answer whole without parsing it,
// as getReceipt does: the phase measures the node, and the bench shares
// its CPUs.
func (b *bench) post(ctx context.Context, url string, body []byte, want int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		var e struct {
			Code string `json:"code"`
		}
		json.Unmarshal(data, &e)
		return &client.Error{Status: resp.StatusCode, Code: cmp.Or(e.Code, strconv.Itoa(resp.StatusCode))}
	}
	return nil
}

// readPhase reads receipts of random entries below size.
func (b *bench) readPhase(ctx context.Context, size uint64, duration time.Duration) *phase {
	p, _ := b.timedOn(ctx, "proof reads", b.concurrency, -1, duration, func(ctx context.Context, target, _ int) error {
		return b.getReceipt(ctx, b.urlOf(target), rand.Uint64N(size))
	})
	p.note = "receipts read whole, not verified"
	return p
}

// getReceipt reads one receipt's bytes from the node at url without
// parsing them: the phase measures the node, and the bench shares its
// CPUs.
func (b *bench) getReceipt(ctx context.Context, url string, i uint64) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/v1/log/entries/"+strconv.FormatUint(i, 10), nil)
	if err != nil {
		return err
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &client.Error{Status: resp.StatusCode, Code: strconv.Itoa(resp.StatusCode)}
	}
	return nil
}

func failureCode(err error) string {
	var ce *client.Error
	if errors.As(err, &ce) {
		if ce.Code != "" {
			return ce.Code
		}
		return strconv.Itoa(ce.Status)
	}
	if errors.Is(err, context.Canceled) {
		return "canceled"
	}
	if errors.Is(err, errNoJob) {
		return "no job"
	}
	if errors.Is(err, errRuleBroken) {
		return "rule broken"
	}
	return "transport"
}

func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

func printBench(w io.Writer, phases []*phase, concurrency int) {
	fmt.Fprintf(w, "concurrency %d, %d CPUs here\n", concurrency, runtime.NumCPU())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\trequests\tseconds\trequests/s\tentries/s\tp50\tp99\tmax\tnode CPU µs/entry\tfailed\t")
	for _, p := range phases {
		slices.Sort(p.latencies)
		// The append phase logs two entries a request; the others are
		// per request (a contribution is one entry).
		cpu := cpuPerEntry(p.nodeCPU, max(p.appends, p.ops))
		secs := p.elapsed.Seconds()
		perSec := func(n int) string { return perSecond(n, p.elapsed) }
		var failed []string
		for code, n := range p.failed {
			failed = append(failed, fmt.Sprintf("%d %s", n, code))
		}
		slices.Sort(failed)
		if len(failed) == 0 {
			failed = []string{"0"}
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.name, p.ops, secs, perSec(p.ops), perSec(p.appends),
			ms(percentile(p.latencies, 0.50)), ms(percentile(p.latencies, 0.99)), ms(percentile(p.latencies, 1)), cpu, strings.Join(failed, ", "))
	}
	tw.Flush()
	for _, p := range phases {
		if p.note != "" {
			fmt.Fprintf(w, "%s: %s\n", p.name, p.note)
		}
	}
	fmt.Fprintln(w, "append: each request is one invitation, which logs 2 entries (the operator's key entry, verified at registration, and the identity, signed by the node) and is answered once both are in a published checkpoint")
	fmt.Fprintln(w, "publish: each request is one library contribution, one entry signed by its author (signed before timing) that the node verifies, checks, stores and logs, answered once it is in a published checkpoint")
}

// perSecond is n over d, whole, or "-" when either is zero.
func perSecond(n int, d time.Duration) string {
	if n == 0 || d <= 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(n)/d.Seconds(), 'f', 0, 64)
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + "ms"
}
