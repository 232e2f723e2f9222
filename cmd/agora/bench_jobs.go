package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/translog"
	"github.com/agora-node/agora/vocabulary"
)

const benchJobsUsage = `usage: agora bench jobs [--url URL --data DIR] [--operators 1000] [--open-jobs 10000] [--runs 5]
                        [--concurrency 64] [--attest-concurrency 500] [--families claude,gpt,...]
                        [--checkpoint-interval 500ms] [--cpuprofile FILE]

Measures the verification loop the way verifiers use it: every request is
a signed HTTP request to the node. Without --url it runs a node of its
own on loopback, in a temporary folder it removes afterwards, with
--free-bundles all; with --url it drives that node (which needs
--free-bundles all, since the bench's authors have earned no credit) and
reads its admin token from --data or --token-file.

Setting up (timed, but not the figures asked for):
  register     --operators operators, each with a key entry naming one of
               --families, in turn
  invite       the node's admin invites each: an identity, in an
               organization of its own
  qualify      each takes the qualification test through POST /api/v1/jobs,
               answering every item as an honest verifier does
  seal         --open-jobs/2 bundles, 10 from each author (the spec's daily
               limit), each a small study that re-runs in minutes, so its
               sealed round opens with 2 reproductions: --open-jobs open
               jobs, and a canary's 2 more for about 1 in 20

Then --runs times, the figures:
  take         every operator asks for a job (a signed job_request),
               --concurrency at a time: jobs handed out a second; a job
               on a bundle of the operator's own (its organization) or of
               its family's counts as failed (rule broken)
  attest       every operator that got one does it as an honest verifier
               (re-running the total from the files) and sends the signed
               attestation, --attest-concurrency at a time: each is logged
               and answered once a checkpoint covers it, so its latency is
               at least the checkpoint interval

It prints each run and the medians over runs, with p50 and p95 latencies.
`

func benchJobsCommand() *command {
	c := newCommand("jobs", "agora bench jobs [--url URL --data DIR]", "jobs handed out and attestations admitted a second, through signed HTTP requests")
	c.doc, c.hint = benchJobsUsage, "run 'agora bench help'"
	nodeURL := c.flags.String("url", "", "the node to measure (default: one of its own on loopback)")
	dataDir := c.flags.String("data", "", "with --url: the node's data folder, which holds its admin token")
	tokenFile := c.flags.String("token-file", "", "with --url: the file holding the node's admin token (instead of --data)")
	operators := c.flags.Int("operators", 1000, "operators to register, invite and qualify")
	openJobs := c.flags.Int("open-jobs", 10000, "open jobs to make, two to a sealed bundle")
	runs := c.flags.Int("runs", 5, "take and attest rounds measured")
	concurrency := c.flags.Int("concurrency", 64, "requests in flight at once, but attestations'")
	attestConcurrency := c.flags.Int("attest-concurrency", 500, "attestations in flight at once (each waits for a checkpoint)")
	families := c.flags.String("families", "claude,gpt,gemini,llama,mistral", "the model families operators are of, in turn")
	checkpointEvery := c.flags.Duration("checkpoint-interval", translog.DefaultCheckpointInterval, "without --url: how often the node publishes a checkpoint")
	cpuProfile := c.flags.String("cpuprofile", "", "without --url: write a CPU profile of the measured runs (node and bench, one process) to FILE")
	c.run = func(ctx context.Context, e *env, args []string) int {
		fams := strings.Split(*families, ",")
		switch {
		case len(args) > 0:
			return c.noArgs(e, args)
		case *operators < 2 || *openJobs < 2 || *runs < 1 || *concurrency < 1 || *attestConcurrency < 1 || slices.Contains(fams, ""):
			return c.usageError(e, "--operators and --open-jobs must be at least 2, --runs and the concurrencies at least 1, and --families a list of names")
		case len(fams) < 2:
			return c.usageError(e, "--families needs two families at least: nobody verifies its own family's work")
		case *nodeURL != "" && *dataDir == "" && *tokenFile == "":
			return fail(e, 2, "give the node's data folder with --data DIR, or --token-file FILE",
				"the bench invites its operators through the admin route, which needs the node's admin token")
		case *nodeURL != "" && *cpuProfile != "":
			return c.usageError(e, "--cpuprofile profiles a node of the bench's own: leave out --url")
		}
		authors := (*openJobs/2 + vocabulary.BundlesPerDay - 1) / vocabulary.BundlesPerDay
		if authors > *operators {
			return c.usageError(e, "%d open jobs take %d bundles, from %d authors at %d a day each: give --operators %d at least",
				*openJobs, *openJobs/2, authors, vocabulary.BundlesPerDay, authors)
		}
		url, token := strings.TrimRight(*nodeURL, "/"), ""
		if url == "" {
			u, t, stop, err := startBenchNode(ctx, *checkpointEvery, e.stderr)
			if err != nil {
				return fail(e, 1, "", "starting a node to measure: %v", err)
			}
			defer stop()
			url, token = u, t
		} else {
			if *tokenFile == "" {
				*tokenFile = node.AdminTokenPath(*dataDir)
			}
			t, err := os.ReadFile(*tokenFile)
			if err != nil {
				return fail(e, 1, "point --data at the node's data folder", "reading the admin token: %v", err)
			}
			token = strings.TrimSpace(string(t))
		}
		conns := max(*concurrency, *attestConcurrency)
		jb := &jobsBench{
			bench: &bench{url: url, token: token, concurrency: *concurrency, out: e.stderr,
				hc: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{
					MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute}}},
			operators: *operators, openJobs: *openJobs, runs: *runs, attestConcurrency: *attestConcurrency,
			families: fams, cpuProfile: *cpuProfile,
		}
		setup, measured, err := jb.run(ctx)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		printJobsBench(e.stdout, jb, setup, measured)
		return 0
	}
	return c
}

// startBenchNode runs a node in a new temporary folder on loopback until
// stop, which also removes the folder.
func startBenchNode(ctx context.Context, checkpoint time.Duration, logTo io.Writer) (url, token string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "agora-bench-")
	if err != nil {
		return "", "", nil, err
	}
	data := filepath.Join(dir, "data")
	n, err := node.New(ctx, node.Config{DataDir: data, FreeBundles: node.FreeAll, CheckpointInterval: checkpoint,
		Logger: slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		n.Close(context.Background())
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	srv := &http.Server{Handler: n.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go srv.Serve(ln)
	stop = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		n.Close(sctx)
		os.RemoveAll(dir)
	}
	t, err := os.ReadFile(node.AdminTokenPath(data))
	if err != nil {
		stop()
		return "", "", nil, err
	}
	return "http://" + ln.Addr().String(), strings.TrimSpace(string(t)), stop, nil
}

type jobsBench struct {
	*bench
	operators, openJobs, runs, attestConcurrency int
	families                                     []string
	cpuProfile                                   string
	sealed                                       int // bundles sealed
	// authorOf is the verifier (by index) that sealed each bundle, by
	// hash: the take phase checks nobody gets its own organization's or
	// family's work.
	authorOf map[string]int
}

// errNoJob is a job request answered {"job": null}; errRuleBroken a job
// handed to its author's organization or family.
var (
	errNoJob      = errors.New("no job")
	errRuleBroken = errors.New("own organization's or family's work")
)

func (b *jobsBench) run(ctx context.Context) (setup, measured []*phase, err error) {
	c := client.New(b.url, b.hc)
	familyOf := func(i int) string { return b.families[i%len(b.families)] }
	fmt.Fprintf(b.out, "agora: bench: making %d keys and signing their key entries (not timed)\n", b.operators)
	keys, entries, err := makeKeyEntries(ctx, b.operators, familyOf)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(b.out, "agora: bench: registering and inviting %d operators\n", b.operators)
	reg, ids, entryOf, err := b.register(ctx, entries)
	if err != nil {
		return nil, nil, err
	}
	inv, invited := b.appendPhase(ctx, ids, time.Hour)
	inv.name, inv.note = "invite", ""
	setup = []*phase{reg, inv}
	var vs []benchVerifier
	for _, i := range invited {
		f := familyOf(entryOf[i])
		vs = append(vs, benchVerifier{id: ids[i], key: keys[entryOf[i]], family: f, model: f + "-bench-1"})
	}
	if len(vs) < 2 {
		return setup, nil, fmt.Errorf("only %d operators were registered and invited", len(vs))
	}

	fmt.Fprintf(b.out, "agora: bench: %d operators take the qualification test\n", len(vs))
	qual, _ := b.timedAt(ctx, "qualify", b.concurrency, len(vs), time.Hour, func(ctx context.Context, i int) error {
		_, err := vs[i].qualify(ctx, c)
		return err
	})
	setup = append(setup, qual)
	if qual.ops < len(vs) {
		return setup, nil, fmt.Errorf("%d of %d operators did not pass the qualification test: %v (first: %v)", len(vs)-qual.ops, len(vs), qual.failed, qual.firstErr)
	}

	seal, err := b.sealBundles(ctx, vs)
	setup = append(setup, seal)
	if err != nil {
		return setup, nil, err
	}

	if b.cpuProfile != "" {
		f, err := os.Create(b.cpuProfile)
		if err != nil {
			return setup, nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return setup, nil, err
		}
		defer pprof.StopCPUProfile()
	}
	for r := range b.runs {
		fmt.Fprintf(b.out, "agora: bench: run %d of %d: %d operators take jobs, then answer them\n", r+1, b.runs, len(vs))
		jobsOf := make([]map[string]any, len(vs))
		take, _ := b.timedAt(ctx, "take "+strconv.Itoa(r+1), b.concurrency, len(vs), time.Hour, func(ctx context.Context, i int) error {
			req, err := vs[i].jobRequest()
			if err != nil {
				return err
			}
			job, err := c.RequestJob(ctx, req)
			switch {
			case err != nil:
				return err
			case job["qualification"] != nil:
				return fmt.Errorf("%s: a qualification item after the test: %v", vs[i].id, job["qualification"])
			case job["job"] == nil:
				return errNoJob
			}
			// A canary's bundle is not among those sealed: its source's
			// author is not known here.
			hash, _ := job["bundle"].(string)
			if a, ok := b.authorOf[hash]; ok && (a == i || vs[a].family == vs[i].family) {
				return fmt.Errorf("%w: %s (%s) was handed %v, work of %s (%s)", errRuleBroken, vs[i].id, vs[i].family, job["job"], vs[a].id, vs[a].family)
			}
			jobsOf[i] = job
			return nil
		})
		var held []int
		for i, j := range jobsOf {
			if j != nil {
				held = append(held, i)
			}
		}
		att, _ := b.timedAt(ctx, "attest "+strconv.Itoa(r+1), b.attestConcurrency, len(held), time.Hour, func(ctx context.Context, k int) error {
			_, err := vs[held[k]].answer(ctx, c, jobsOf[held[k]])
			return err
		})
		measured = append(measured, take, att)
		if ctx.Err() != nil {
			return setup, measured, ctx.Err()
		}
	}
	return setup, measured, nil
}

// sealBundles has the verifiers, as authors, seal b.openJobs/2 bundles,
// vocabulary.BundlesPerDay each at most. The bodies are signed before the
// clock starts; on loopback each group of perSourceAddress submissions
// comes from its own address, under the node's allowance per address.
func (b *jobsBench) sealBundles(ctx context.Context, vs []benchVerifier) (*phase, error) {
	n := b.openJobs / 2
	authors := (n + vocabulary.BundlesPerDay - 1) / vocabulary.BundlesPerDay
	fmt.Fprintf(b.out, "agora: bench: signing %d bundles by %d authors (not timed)\n", n, authors)
	bodies, hashes := make([]client.BundleBody, n), make([]string, n)
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Go(func() {
			for i := w; i < n; i += len(errs) {
				a := vs[i%authors]
				bodies[i], hashes[i], errs[w] = signStudy(sumStudy(i, a.family, protocol.KeyDigest(a.key.Public().String())), a.key)
				if errs[w] != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	b.authorOf = make(map[string]int, n)
	for i, h := range hashes {
		b.authorOf[h] = i % authors
	}
	fmt.Fprintf(b.out, "agora: bench: sealing %d bundles\n", n)
	// 10 to an address leaves room under its 60 a minute for the busy
	// node's retries.
	clientFor, closeAll, _ := b.registrationClients(n, 10)
	defer closeAll()
	// A busy node (503) is asked again after the 2 s its Retry-After
	// says, not the minute an author's client waits, for as long as it
	// stays busy: sealing is the fixture, and a bundle it could not seal
	// would leave the backlog short.
	retry := client.RetryDelay
	client.RetryDelay = 2 * time.Second
	defer func() { client.RetryDelay = retry }()
	// Bundle i is author i%authors's, and an author sends one at a time
	// (else 409 in_progress).
	turns := make([]sync.Mutex, authors)
	p, _ := b.timedAt(ctx, "seal", b.sealConcurrency(), n, time.Hour, func(ctx context.Context, i int) error {
		turns[i%authors].Lock()
		defer turns[i%authors].Unlock()
		for {
			answer, status, err := clientFor(i).SubmitBundle(ctx, bodies[i])
			switch {
			case client.IsCode(err, "busy") && ctx.Err() == nil:
				continue
			case err == nil && status != http.StatusAccepted:
				err = fmt.Errorf("bundle %d: answered %d %v, not 202 sealed", i, status, answer)
			}
			return err
		}
	})
	b.sealed = p.ops
	p.appends = p.ops
	if p.ops < n {
		return p, fmt.Errorf("%d of %d bundles were not sealed: %v (first: %v)", n-p.ops, n, p.failed, p.firstErr)
	}
	return p, nil
}

// sealConcurrency is how many submissions are in flight at once: at most
// one an author, and 4 a CPU here at most, since checks run on the node's
// few workers (one a CPU by default) and more in flight would only fill
// its queue (503 busy).
func (b *jobsBench) sealConcurrency() int {
	return min(b.concurrency, 4*runtime.NumCPU(), (b.openJobs/2+vocabulary.BundlesPerDay-1)/vocabulary.BundlesPerDay)
}

// rate is n over elapsed, a second.
func rate(n int, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(n) / elapsed.Seconds()
}

func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printJobsBench(w io.Writer, b *jobsBench, setup, measured []*phase) {
	fmt.Fprintf(w, "%d operators (%d families, an organization each), %d bundles sealed (%d open jobs before the first run), %d CPUs here\n",
		b.operators, len(b.families), b.sealed, 2*b.sealed, runtime.NumCPU())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tin flight\trequests\tseconds\trequests/s\tp50\tp95\tmax\tfailed\t")
	row := func(p *phase, inFlight int) {
		slices.Sort(p.latencies)
		var failed []string
		for code, n := range p.failed {
			failed = append(failed, fmt.Sprintf("%d %s", n, code))
		}
		slices.Sort(failed)
		if len(failed) == 0 {
			failed = []string{"0"}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.0f\t%s\t%s\t%s\t%s\t\n", p.name, inFlight, p.ops, p.elapsed.Seconds(), rate(p.ops, p.elapsed),
			ms(percentile(p.latencies, 0.50)), ms(percentile(p.latencies, 0.95)), ms(percentile(p.latencies, 1)), strings.Join(failed, ", "))
	}
	for _, p := range setup {
		in := b.concurrency
		if p.name == "seal" {
			in = b.sealConcurrency()
		}
		row(p, in)
	}
	var takeRates, attestRates []float64
	var takeLat, attestLat []time.Duration
	for _, p := range measured {
		if strings.HasPrefix(p.name, "take") {
			row(p, b.concurrency)
			takeRates, takeLat = append(takeRates, rate(p.ops, p.elapsed)), append(takeLat, p.latencies...)
		} else {
			row(p, b.attestConcurrency)
			attestRates, attestLat = append(attestRates, rate(p.ops, p.elapsed)), append(attestLat, p.latencies...)
		}
	}
	tw.Flush()
	for _, p := range append(slices.Clone(setup), measured...) {
		if p.firstErr != nil {
			fmt.Fprintf(w, "%s: first failure: %v\n", p.name, p.firstErr)
		}
	}
	slices.Sort(takeLat)
	slices.Sort(attestLat)
	fmt.Fprintf(w, "jobs handed out: median %.0f/s over %d runs (p50 %s, p95 %s over all)\n",
		median(takeRates), len(takeRates), ms(percentile(takeLat, 0.5)), ms(percentile(takeLat, 0.95)))
	fmt.Fprintf(w, "attestations admitted: median %.0f/s over %d runs (p50 %s, p95 %s over all, each answered once a checkpoint covers it)\n",
		median(attestRates), len(attestRates), ms(percentile(attestLat, 0.5)), ms(percentile(attestLat, 0.95)))
}
