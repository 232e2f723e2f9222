package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/node"
)

const benchUsage = `usage: agora bench append --url URL --data DIR [--duration 10s] [--concurrency 64] [--operators N] [--read-duration 5s]

Measures a running node under load, in three phases:

  register     registers --operators fresh operators, each a key entry signed
               with a key made before any timing (the node verifies and keeps
               it, and logs nothing yet)
  append       for --duration, has the node invite them over the admin route,
               --concurrency at a time: each invitation logs two signed
               entries, the operator's key entry and its identity, and is
               answered once both are in a published checkpoint, so its
               latency is request to published checkpoint
  proof reads  for --read-duration, reads receipts (GET
               /api/v1/log/entries/{i}: the entry and its inclusion proof
               against the newest tree head) at random, --concurrency at a time

The admin token is read from the node's data folder (--data, as 'agora admin'
reads it) or --token-file. The node allows an address 50 registrations a day,
so against a node on loopback each group of 40 registrations is sent from its
own address in 127.0.0.0/8; against another host the bench registers what the
node allows and stops at its first 429.
`

// perSourceAddress is how many registrations the bench sends from one
// loopback address, under the node's 50 a day.
const perSourceAddress = 40

func runBench(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(e.stdout, benchUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] != "append" {
		return fail(e, 2, "run 'agora bench help'", "unknown bench %q", args[0])
	}
	fs := flag.NewFlagSet("agora bench append", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nodeURL := fs.String("url", defaultURL, "the node's URL")
	dataDir := fs.String("data", "", "the node's data folder, which holds its admin token")
	tokenFile := fs.String("token-file", "", "the file holding the node's admin token (instead of --data)")
	duration := fs.Duration("duration", 10*time.Second, "how long to append")
	readDuration := fs.Duration("read-duration", 5*time.Second, "how long to read proofs (0 skips it)")
	concurrency := fs.Int("concurrency", 64, "requests in flight at once")
	operators := fs.Int("operators", 0, "operators to prepare (default enough for the duration: concurrency × 2 per second)")
	rest, err := parseArgs(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, benchUsage)
		return 0
	}
	switch {
	case err != nil:
		return fail(e, 2, "run 'agora bench help'", "%v", err)
	case len(rest) > 0:
		return fail(e, 2, "run 'agora bench help'", "bench append takes no arguments, but was given %q", rest[0])
	case *concurrency < 1 || *duration <= 0 || *readDuration < 0 || *operators < 0:
		return fail(e, 2, "run 'agora bench help'", "--concurrency, --duration and --operators must be positive")
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
	n := *operators
	if n == 0 {
		n = max(2, int(2*duration.Seconds())) * *concurrency
	}
	b := &bench{
		url:         strings.TrimRight(*nodeURL, "/"),
		token:       strings.TrimSpace(string(token)),
		concurrency: *concurrency,
		out:         e.stderr,
	}
	b.hc = &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		MaxIdleConns: *concurrency, MaxIdleConnsPerHost: *concurrency, IdleConnTimeout: time.Minute,
	}}
	results, err := b.run(ctx, n, *duration, *readDuration)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	printBench(e.stdout, results, *concurrency)
	return 0
}

type bench struct {
	url         string
	token       string
	concurrency int
	hc          *http.Client
	out         io.Writer // progress notes
}

// phase is what one phase measured.
type phase struct {
	name      string
	ops       int // requests answered 2xx
	appends   int // entries logged, for the append phase
	failed    map[string]int
	elapsed   time.Duration
	latencies []time.Duration
	note      string
}

// merge adds one worker's latencies and failures to the phase; mu guards
// the phase while workers run.
func (p *phase) merge(mu *sync.Mutex, lat []time.Duration, failed map[string]int) {
	mu.Lock()
	defer mu.Unlock()
	p.latencies = append(p.latencies, lat...)
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
	entries, err := makeKeyEntries(ctx, n)
	if err != nil {
		return nil, err
	}

	fmt.Fprintf(b.out, "agora: bench: registering %d operators\n", n)
	reg, ids, err := b.register(ctx, entries)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return []*phase{reg}, nil
	}

	fmt.Fprintf(b.out, "agora: bench: appending for %s, %d requests in flight\n", duration, b.concurrency)
	app := b.appendPhase(ctx, c, ids, duration)
	after, err := c.Log(ctx)
	if err != nil {
		return nil, err
	}
	if before.TreeHead != nil && after.TreeHead != nil {
		app.note = fmt.Sprintf("log %d → %d entries", before.TreeHead.Size, after.TreeHead.Size)
	}
	phases := []*phase{reg, app}
	if readDuration > 0 && after.TreeHead != nil && after.TreeHead.Size > 0 {
		fmt.Fprintf(b.out, "agora: bench: reading receipts for %s\n", readDuration)
		phases = append(phases, b.readPhase(ctx, after.TreeHead.Size, readDuration))
	}
	return phases, nil
}

// makeKeyEntries makes n keys and their signed key entries on every CPU.
func makeKeyEntries(ctx context.Context, n int) ([]map[string]any, error) {
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
				entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}, "model": "agora-bench"}
				if err := ledger.Sign(entry, key); err != nil {
					errs[w] = err
					return
				}
				entries[i] = entry
			}
		})
	}
	wg.Wait()
	if err := errors.Join(append(errs, ctx.Err())...); err != nil {
		return nil, err
	}
	return entries, nil
}

// register registers every entry, concurrency at a time, and returns the
// operators registered. On loopback each group of perSourceAddress is
// sent from its own source address.
func (b *bench) register(ctx context.Context, entries []map[string]any) (*phase, []string, error) {
	p := &phase{name: "register", failed: map[string]int{}}
	clientFor, closeAll, spread := b.registrationClients(len(entries))
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
	for i, id := range ids {
		if id != "" {
			got = append(got, id)
			p.latencies = append(p.latencies, lat[i])
		}
	}
	p.ops = len(got)
	return p, got, ctx.Err()
}

// registrationClients returns a client for the i-th registration. Against
// a node on loopback, each group of perSourceAddress shares a source
// address of its own, picked at random in 127.0.0.0/8 so runs against one
// node do not reuse one another's.
func (b *bench) registrationClients(n int) (clientFor func(int) *client.Client, closeAll func(), spread int) {
	u, err := url.Parse(b.url)
	host := ""
	if err == nil {
		host = u.Hostname()
	}
	ip := net.ParseIP(host)
	if host == "localhost" {
		ip = net.IPv4(127, 0, 0, 1)
	}
	if ip == nil || ip.To4() == nil || !ip.IsLoopback() {
		c := client.New(b.url, b.hc)
		return func(int) *client.Client { return c }, func() {}, 0
	}
	groups := (n + perSourceAddress - 1) / perSourceAddress
	base := uint32(127)<<24 | (1+rand.Uint32N(250))<<16 | rand.Uint32N(256)<<8 | 1
	// Only some systems (Linux) route all of 127.0.0.0/8 to loopback.
	probe := net.IPv4(byte(base>>24), byte(base>>16), byte(base>>8), byte(base))
	ln, err := net.Listen("tcp", net.JoinHostPort(probe.String(), "0"))
	if err != nil {
		c := client.New(b.url, b.hc)
		return func(int) *client.Client { return c }, func() {}, 0
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
		clients[g] = client.New(b.url, &http.Client{Timeout: time.Minute, Transport: transports[g]})
	}
	closeAll = func() {
		for _, t := range transports {
			t.CloseIdleConnections()
		}
	}
	return func(i int) *client.Client { return clients[i/perSourceAddress] }, closeAll, groups
}

// appendPhase invites the registered operators, concurrency at a time,
// until duration is over or every operator is invited.
func (b *bench) appendPhase(ctx context.Context, c *client.Client, ids []string, duration time.Duration) *phase {
	p := &phase{name: "append", failed: map[string]int{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deadline := time.Now().Add(duration)
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range b.concurrency {
		wg.Go(func() {
			var lat []time.Duration
			failed := map[string]int{}
			for ctx.Err() == nil && time.Now().Before(deadline) {
				i := int(next.Add(1) - 1)
				if i >= len(ids) {
					break
				}
				t := time.Now()
				_, err := c.Invite(ctx, b.token, ids[i])
				if err != nil {
					failed[failureCode(err)]++
					if client.IsCode(err, "unauthorized") {
						cancel()
					}
					continue
				}
				lat = append(lat, time.Since(t))
			}
			p.merge(&mu, lat, failed)
		})
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	p.ops = len(p.latencies)
	p.appends = 2 * p.ops
	if int(next.Load()) >= len(ids) && p.elapsed < duration {
		p.note = "ran out of operators early; give more with --operators"
	}
	return p
}

// readPhase reads receipts of random entries below size.
func (b *bench) readPhase(ctx context.Context, size uint64, duration time.Duration) *phase {
	p := &phase{name: "proof reads", failed: map[string]int{}}
	deadline := time.Now().Add(duration)
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range b.concurrency {
		wg.Go(func() {
			var lat []time.Duration
			failed := map[string]int{}
			for ctx.Err() == nil && time.Now().Before(deadline) {
				i := rand.Uint64N(size)
				t := time.Now()
				if err := b.getReceipt(ctx, i); err != nil {
					failed[failureCode(err)]++
					continue
				}
				lat = append(lat, time.Since(t))
			}
			p.merge(&mu, lat, failed)
		})
	}
	wg.Wait()
	p.elapsed = time.Since(start)
	p.ops = len(p.latencies)
	p.note = "receipts read whole, not verified"
	return p
}

// getReceipt reads one receipt's bytes without parsing them: the phase
// measures the node, and the bench shares its CPUs.
func (b *bench) getReceipt(ctx context.Context, i uint64) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.url+"/api/v1/log/entries/"+strconv.FormatUint(i, 10), nil)
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
	fmt.Fprintln(tw, "phase\trequests\tseconds\trequests/s\tentries/s\tp50\tp99\tmax\tfailed\t")
	for _, p := range phases {
		slices.Sort(p.latencies)
		secs := p.elapsed.Seconds()
		perSec := func(n int) string {
			if n == 0 || secs == 0 {
				return "-"
			}
			return strconv.FormatFloat(float64(n)/secs, 'f', 0, 64)
		}
		var failed []string
		for code, n := range p.failed {
			failed = append(failed, fmt.Sprintf("%d %s", n, code))
		}
		slices.Sort(failed)
		if len(failed) == 0 {
			failed = []string{"0"}
		}
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.name, p.ops, secs, perSec(p.ops), perSec(p.appends),
			ms(percentile(p.latencies, 0.50)), ms(percentile(p.latencies, 0.99)), ms(percentile(p.latencies, 1)), strings.Join(failed, ", "))
	}
	tw.Flush()
	for _, p := range phases {
		if p.note != "" {
			fmt.Fprintf(w, "%s: %s\n", p.name, p.note)
		}
	}
	fmt.Fprintln(w, "append: each request is one invitation, which logs 2 entries (the key entry and the identity) and is answered once both are in a published checkpoint")
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + "ms"
}
