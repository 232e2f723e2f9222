package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"golang.org/x/net/netutil"
	"k8s.io/klog/v2"

	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/translog"
)

// Tessera logs through klog, a process-wide logger; its lines go to the
// log of the node serving, so the node speaks in one format. klog's logger
// is set once, before anything runs, to one that forwards to tesseraLog,
// which each serve sets: setting klog's own while a log (another node in
// the same test process) reads it would race.
var tesseraLog atomic.Pointer[slog.Logger]

func init() {
	klog.SetLogger(logr.FromSlogHandler(toServeLog{}))
}

// toServeLog is a slog.Handler that writes to the logger in tesseraLog,
// and nowhere before a serve set one.
type toServeLog struct{ attrs []slog.Attr }

func (h toServeLog) current() slog.Handler {
	l := tesseraLog.Load()
	if l == nil {
		return slog.DiscardHandler
	}
	return l.Handler().WithAttrs(h.attrs)
}

func (h toServeLog) Enabled(ctx context.Context, level slog.Level) bool {
	return h.current().Enabled(ctx, level)
}

// Handle writes Tessera's informational lines at debug level: they
// narrate its normal work, first starts included ("Failed to fetch old
// checkpoint: file does not exist"), and would read as alarms beside the
// node's own. Its warnings and errors stay as they are, but for those
// saying its context was cancelled: the node stops Tessera's goroutines
// by cancelling it when it closes the log, and one caught mid-read says
// so as an error.
func (h toServeLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn || strings.HasSuffix(r.Message, context.Canceled.Error()) {
		r.Level = slog.LevelDebug
	}
	if !h.current().Enabled(ctx, r.Level) {
		return nil
	}
	return h.current().Handle(ctx, r)
}

func (h toServeLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return toServeLog{attrs: append(slices.Clone(h.attrs), attrs...)}
}

// WithGroup flattens: klog's lines carry few attributes, and a group
// would outlive the logger it was made for.
func (h toServeLog) WithGroup(string) slog.Handler { return h }

const serveUsage = "agora serve [--data DIR] [--state postgres://...] [--log mysql://...] [--listen ADDR] [--origin ORIGIN] [--public-url URL] [--dns-resolver ADDR] [--github-api URL] [--max-body BYTES] [--max-bundle-body BYTES] [--checkpoint-interval 500ms] [--open-after DURATION] [--free-bundles seed|all|none] [--admin-token-file FILE] [--allow-shared-data] [--witness VKEY@URL ...] [--pprof 127.0.0.1:PORT] [--github-client-id ID --github-client-secret-file FILE] [--github-oauth-authorize URL] [--github-oauth-token URL] [--github-user-api URL] [--smtp HOST:PORT --smtp-from ADDR]"

// defaultDataDir is where the node keeps everything unless --data says
// otherwise: a folder in the directory it starts in.
// AGORA_DATA, when set, takes its place.
func defaultDataDir() string {
	if d := os.Getenv("AGORA_DATA"); d != "" {
		return d
	}
	return "agora-data"
}

func serveCommand() *command {
	c := newCommand("serve", serveUsage, "run the node (SQLite and an on-disk log in --data, no other service)")
	dataDir := c.flags.String("data", defaultDataDir(), "the folder the node keeps its keys, state and log in (or set AGORA_DATA)")
	state := c.flags.String("state", os.Getenv("AGORA_STATE"), "where the node keeps its state: empty for SQLite in --data, or a postgres:// URL (or set AGORA_STATE)")
	logAt := c.flags.String("log", os.Getenv("AGORA_LOG"), "where the node keeps its log: empty for Tessera's POSIX driver in --data, or a mysql://user:password@tcp(host:3306)/database URL for Tessera's MySQL driver on MySQL or MariaDB (or set AGORA_LOG)")
	listen := c.flags.String("listen", "127.0.0.1:8080", "the address to serve HTTP on")
	origin := c.flags.String("origin", "", "the log's checkpoint origin (default sciencejournal.ai/log/<log ID hex>)")
	publicURL := c.flags.String("public-url", "", "the node's address as agents reach it, such as https://agora.example.org, for /llms.txt to name (default the address each request came to)")
	dnsResolver := c.flags.String("dns-resolver", "", "the DNS server (host:port) asked for the TXT records that prove domains (default the servers in /etc/resolv.conf)")
	githubAPI := c.flags.String("github-api", node.DefaultGitHubAPI, "the base URL of the GitHub API, through which repositories are proven")
	maxBody := c.flags.Int64("max-body", 1<<20, "the largest JSON request body accepted, in bytes, but a bundle's")
	maxBundleBody := c.flags.Int64("max-bundle-body", ledgerhttp.MaxBundleBody, "the largest bundle check or submission body accepted, in bytes (at most the default: 10 MB of files in base64)")
	openAfter := c.flags.Duration("open-after", node.DefaultOpenAfter, "a development switch: open every sealed bundle this long after it sealed, whatever its round (default off: a bundle opens when its round completes)")
	freeBundles := c.flags.String("free-bundles", node.FreeSeed, "which bundles cost nothing: seed (a new ledger's first 10, from operators the node invited), all, or none")
	checkpointEvery := c.flags.Duration("checkpoint-interval", translog.DefaultCheckpointInterval, "how often the log publishes a checkpoint: about how long a write waits to be provable ("+translog.MinCheckpointInterval.String()+" to "+translog.MaxCheckpointInterval.String()+"; with --log mysql://, "+translog.MinMySQLCheckpointInterval.String()+" at least and by default)")
	allowShared := c.flags.Bool("allow-shared-data", false, "start even when other local users can read --data (it holds the node's keys, state and sealed files)")
	tokenFile := c.flags.String("admin-token-file", "", "a file holding the admin token (default <data>/keys/admin.token, made on first start)")
	profiles := c.flags.String("pprof", "", "serve Go's runtime profiles (/debug/pprof/) on this loopback address, such as 127.0.0.1:6060 (default off)")
	people := addPeopleFlags(c.flags)
	var witnesses witnessFlag
	c.flags.Var(&witnesses, "witness", "a witness asked to cosign the log's checkpoints, as its vkey@the URL of its add-checkpoint endpoint (repeatable)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		minInterval := translog.MinCheckpointInterval
		if *logAt != "" {
			if _, err := translog.ParseMySQLURL(*logAt); err != nil {
				return c.usageError(e, "--log must be empty (the log in --data) or a URL such as mysql://agora:PASSWORD@tcp(127.0.0.1:3306)/agora, not %s", translog.RedactMySQL(*logAt))
			}
			// Tessera's MySQL driver publishes at most once a second.
			minInterval = translog.MinMySQLCheckpointInterval
			if !flagGiven(c.flags, "checkpoint-interval") {
				*checkpointEvery = minInterval
			}
		}
		if *checkpointEvery < minInterval || *checkpointEvery > translog.MaxCheckpointInterval {
			return c.usageError(e, "--checkpoint-interval must be from %s to %s, not %s", minInterval, translog.MaxCheckpointInterval, *checkpointEvery)
		}
		if *maxBody <= 0 {
			return c.usageError(e, "--max-body must be a positive number of bytes")
		}
		if *maxBundleBody <= 0 || *maxBundleBody > ledgerhttp.MaxBundleBody {
			return c.usageError(e, "--max-bundle-body must be from 1 to %d bytes", ledgerhttp.MaxBundleBody)
		}
		gh, mail, err := people.config()
		if err != nil {
			return c.usageError(e, "%v", err)
		}
		token, code := serveAdminToken(e, *tokenFile)
		if code != 0 {
			return code
		}
		if *profiles != "" {
			addr, stop, err := listenProfiles(*profiles)
			if err != nil {
				return c.usageError(e, "%v", err)
			}
			defer stop()
			fmt.Fprintf(e.stderr, "profiles: go tool pprof http://%s/debug/pprof/profile?seconds=30\n", addr)
		}
		return serve(ctx, e, *listen, node.Config{DataDir: *dataDir, State: *state, Log: *logAt, Origin: *origin, PublicURL: *publicURL, DNSResolver: *dnsResolver, GitHubAPI: *githubAPI,
			MaxBodyBytes: *maxBody, MaxBundleBodyBytes: *maxBundleBody, AdminToken: token, AllowSharedData: *allowShared, Witnesses: witnesses,
			OpenAfter: *openAfter, FreeBundles: *freeBundles, CheckpointInterval: *checkpointEvery,
			GitHubSignIn: gh, SMTP: mail}, serveTimeouts)
	}
	return c
}

// serveAdminToken reads --admin-token-file, when given.
func serveAdminToken(e *env, path string) (string, int) {
	if path == "" {
		return "", 0
	}
	token, err := node.ReadAdminTokenFile(path)
	if err != nil {
		return "", fail(e, 1, "make one with: (umask 077; openssl rand -hex 32 > FILE)", "reading the admin token: %v", err)
	}
	return token, 0
}

// httpTimeouts are the HTTP server's deadlines for each request.
type httpTimeouts struct {
	readHeader, read, write, idle time.Duration
}

// serveTimeouts are agora serve's, sized for the JSON routes: the routes
// that move a file (uploads and file downloads) set their own deadlines
// by the file's size (node.Config.MinTransferRate), so even the spec's
// largest finish.
var serveTimeouts = httpTimeouts{
	readHeader: 10 * time.Second,
	read:       60 * time.Second,
	write:      60 * time.Second, // entries may be held 25 s
	idle:       2 * time.Minute,
}

// serve runs the node cfg describes on listen, with the server's timeouts
// tm, until ctx ends, then shuts it down: requests in flight finish, then
// the log and the store close.
func serve(ctx context.Context, e *env, listen string, cfg node.Config, tm httpTimeouts) int {
	// Whatever the node creates is its own alone, also the files of
	// libraries that choose their modes themselves (Tessera's tiles are
	// 0644): the data folder holds keys and sealed files.
	syscall.Umask(0o077)
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))
	tesseraLog.Store(logger.With("from", "tessera"))
	cfg.Logger = logger
	n, err := node.New(ctx, cfg)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		n.Close(context.Background())
		return fail(e, 1, "choose another address with --listen", "%v", err)
	}
	// Each connection holds a file descriptor, and so do the store and the
	// log: past the process's limit, accepting one more connection would
	// make the node fail to open its own files. Half the limit is for
	// connections; the listener waits for one to close beyond that.
	ln = netutil.LimitListener(ln, maxConnections())
	srv := &http.Server{
		Handler:           n.Handler(),
		ReadHeaderTimeout: tm.readHeader,
		ReadTimeout:       tm.read,
		WriteTimeout:      tm.write,
		IdleTimeout:       tm.idle,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("agora node serving", "url", "http://"+ln.Addr().String(), "log", n.LogID(), "data", cfg.DataDir)
	printNextSteps(e, "http://"+ln.Addr().String(), cfg)

	select {
	case <-ctx.Done():
	case err = <-served:
		logger.Error("server stopped", "err", err)
	}
	// Stop taking requests, let those in flight finish, then close the log
	// and the store: everything acknowledged is already durable.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	serr := srv.Shutdown(shutdownCtx)
	cerr := n.Close(shutdownCtx)
	if err := errors.Join(serr, cerr); err != nil {
		return fail(e, 1, "", "shutting down: %v", err)
	}
	logger.Info("agora node stopped")
	return 0
}

// printNextSteps says where the node keeps what a user needs and what to
// run next, once it serves.
func printNextSteps(e *env, url string, cfg node.Config) {
	token := filepath.Join(cfg.DataDir, "keys", "admin.token")
	if cfg.AdminToken != "" {
		token = "the file --admin-token-file named"
	}
	// The data folder holds what no outside service does.
	held, elsewhere := "", ""
	if cfg.State == "" {
		held += "state.db, "
	} else {
		elsewhere += "\n  state       PostgreSQL (--state)"
	}
	if cfg.Log == "" {
		held += "log/, "
	} else {
		elsewhere += "\n  log         " + translog.RedactMySQL(cfg.Log) + "   (--log)"
	}
	fmt.Fprintf(e.stderr, `
  node        %[1]s   (GET %[1]s/healthz and /readyz for monitoring)
  data        %[2]s   (%[4]sfiles/, keys/; 0700)%[5]s
  admin token %[3]s
  log key     GET %[1]s/api/v1/log   (public_key, checkpoint_keys)
  pages       %[1]s/claims   (the record in a browser: claims, the log, the library)

  next: agora register --name NAME --model-family FAMILY --model MODEL --url %[1]s
        agora admin invite <op-id> --data %[2]s   (an identity for an operator you run)
        agora help                                 (every command)

`, url, cfg.DataDir, token, held, elsewhere)
}

// witnessFlag gathers the --witness flags: each a witness's cosignature/v1
// vkey, "@", and the URL of its add-checkpoint endpoint (a vkey holds no
// "@"). translog checks both when the log opens.
type witnessFlag []translog.Witness

func (f *witnessFlag) String() string { return "" }

func (f *witnessFlag) Set(s string) error {
	vkey, u, ok := strings.Cut(s, "@")
	if !ok || vkey == "" || u == "" {
		return fmt.Errorf("a witness is vkey@https://witness.example/add-checkpoint, not %q", s)
	}
	*f = append(*f, translog.Witness{VerifierKey: vkey, URL: u})
	return nil
}

// maxConnections is how many connections the node serves at once: half
// the open-file limit, at least 64.
func maxConnections() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<20 {
		return 4096
	}
	return max(64, int(lim.Cur/2))
}
