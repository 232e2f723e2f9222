// Package node wires the Agora node together: its data folder and keys, one
// store, one log and one journal (package journal) under the three faces,
// whose handlers it mounts: the ledger (ledger/ledgerhttp, spec/ledger-protocol.md),
// the library (library/libraryhttp, library/contract.json) and memory
// (memory/memoryhttp, memory/memory-agent-ingress-v1.schema.json), and
// across them the MCP read server (node/mcpread) and the instructions for
// agents (node/llms). After a crash it reconciles the store with the log
// before serving (recover.go).
package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/blobs"
	"github.com/agora-node/agora/internal/smtpmail"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/ledger/vouchpage"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/libraryhttp"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/memory/memoryhttp"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// Config configures a node. Its zero value, with DataDir set, is the
// embedded default.
type Config struct {
	// DataDir holds everything the node keeps: its keys, its state and its
	// log. It is created on first start.
	DataDir string

	// Origin is the C2SP checkpoint origin of the node's log. Empty means
	// "sciencejournal.ai/log/<hex of the log ID>", the only form the
	// protocol's reference monitor accepts.
	Origin string

	// MaxBodyBytes bounds every JSON request body but a bundle's; 0 means
	// 1 MiB.
	MaxBodyBytes int64

	// MaxBundleBodyBytes bounds the body of a bundle check or submission;
	// 0 means ledgerhttp.MaxBundleBody (10 MB of files in base64, and the
	// JSON around them), which is also the most it may be.
	MaxBundleBodyBytes int64

	// CheckTimeout bounds one bundle check; 0 means
	// ledgerhttp.DefaultCheckTimeout.
	CheckTimeout time.Duration

	// CheckWorkers, CheckQueue and CheckQueueWait size the pool bundle
	// checks run in, and ChecksPerMinute and SubmissionsPerMinute each
	// address's allowance of checks and submissions: see ledgerhttp.Config.
	// Zero means its default.
	CheckWorkers         int
	CheckQueue           int
	CheckQueueWait       time.Duration
	ChecksPerMinute      int
	SubmissionsPerMinute int

	// AdminToken lets its bearer use the /api/v1/admin routes (agora
	// admin ...). Empty means the token kept in <DataDir>/keys/admin.token,
	// made on first start. Either way it must carry MinAdminTokenBytes
	// random bytes (CheckAdminToken).
	AdminToken string

	// PublicURL is the node's address as agents reach it, such as
	// https://agora.example.org, for the instructions at /llms.txt to
	// name; empty means the address each request came to.
	PublicURL string

	// AllowSharedData lets the node start on a data folder other local
	// users can read (ErrSharedData otherwise).
	AllowSharedData bool

	// DNSResolver is the DNS server (host:port, port 53 if omitted) the
	// node asks for the TXT records that prove domains. Empty means the
	// servers /etc/resolv.conf names, as the system resolver asks.
	DNSResolver string

	// GitHubAPI is the base URL of the GitHub REST API, through which the
	// node reads the .sciencejournal files that prove repositories and the
	// accounts that own them. Empty means https://api.github.com.
	GitHubAPI string

	// GitHubClient makes the node's requests to GitHubAPI; nil means a
	// client with a 10-second timeout. The node sends no credentials, so
	// it sees public repositories only.
	GitHubClient *http.Client

	// Witnesses are asked to cosign the log's checkpoints (C2SP
	// tlog-witness), in the background; the checkpoint endpoint then
	// serves their cosignatures. See translog.Config.Witnesses.
	Witnesses []translog.Witness

	// FreeBundles says which bundles cost nothing while the node has no
	// verification economy: FreeSeed (the default: a new ledger's first
	// bundles, from operators the node invited), FreeAll or FreeNone.
	FreeBundles string

	// OpenAfter, a development switch, opens every sealed bundle this
	// long after it sealed, whatever its round. Zero or negative (the
	// default) never: a bundle opens when its sealed round completes.
	OpenAfter time.Duration

	// Qualification is the qualification test's mode: "enforce" (the
	// default, for ""), "observe" or "off" (spec/ledger-protocol.md,
	// "Qualification").
	Qualification string

	// CanaryRate is the share of quick sealed bundles that get a canary
	// (spec/ledger-protocol.md, "Verifying claims"): 0 means one in 20,
	// negative none.
	CanaryRate float64
	// HabitsEvery is how often rating habits are measured (ledgerhttp's
	// Config.HabitsEvery): 0 means every hour, as the spec has it.
	HabitsEvery time.Duration
	// JobFileInline and JobInline bound what a job carries inline, the
	// rest coming as download links (ledgerhttp.Config); zero means the
	// spec's 8 and 10 MB.
	JobFileInline, JobInline int64
	// SnapshotLinkAbove is the snapshot size past which a download
	// redirects to a short-lived link; zero means the ledger's default.
	SnapshotLinkAbove int64

	// MinTransferRate, in bytes a second, and TransferGrace size the
	// deadlines of the routes that move a file, an upload (PUT
	// /api/v1/uploads/{digest}) and a download (GET /api/v1/files/{digest}):
	// once the node knows the file's size, the request has TransferGrace
	// plus that size at MinTransferRate to finish, whatever the HTTP
	// server's own timeouts, which are sized for the JSON routes. Zero
	// means DefaultMinTransferRate (1 MB/s) and DefaultTransferGrace (one
	// minute); a negative value is refused.
	MinTransferRate int64
	TransferGrace   time.Duration

	// UnboundUploadQuota and OrgUnboundUploadQuota bound, in bytes, the
	// uploads no bundle holds that an operator, and its organization's
	// operators together, may keep on the node until they lapse (seven
	// days after they were asked for), so nobody fills the disk with files
	// no one submits. Zero means 20 GiB and 80 GiB; negative, no quota.
	// Uploading at all takes an identity.
	UnboundUploadQuota    int64
	OrgUnboundUploadQuota int64

	// State is where the node keeps its state beside the log: "" (the
	// default) for SQLite, state.db in DataDir; a postgres:// (or
	// postgresql://) URL for that PostgreSQL database (store/postgres),
	// whose search_path parameter, if given, names the schema. With
	// PostgreSQL and a log in MySQL (Log), several node processes may
	// share both, each with the same keys (DataDir's keys/): see
	// README.md, "Several processes".
	State string

	// Log is where the node keeps its log: "" (the default) for Tessera's
	// POSIX driver in DataDir/log; a mysql:// URL,
	// mysql://user:password@tcp(host:port)/database, for Tessera's MySQL
	// driver on that MySQL or MariaDB database (translog.Config.MySQL),
	// whose checkpoint interval is then at least a second. With State in
	// PostgreSQL the log is shared (translog.Config.Shared): other node
	// processes on the same two databases append to it too. With State in
	// SQLite it is this process's alone.
	Log string

	// RecoverGrace is, on a shared log, how long an unbound entry must
	// have been kept before this process settles it as another process's
	// leftover (recover.go); zero means DefaultRecoverGrace.
	RecoverGrace time.Duration

	// GitHubSignIn is the GitHub OAuth app people sign in with to vouch
	// for their agents on the agent's page (ledger/vouchpage). An empty
	// ClientID means none; empty endpoints mean github.com's.
	GitHubSignIn vouchpage.GitHub

	// SMTP is the mail server the node sends account requests' links
	// through. An empty Addr means none: account requests answer 503.
	SMTP smtpmail.Sender

	// Logger receives the node's operational log; nil means slog.Default().
	Logger *slog.Logger
	// CheckpointInterval is how often the log publishes a checkpoint, and
	// so about how long a write waits to be provable; zero means
	// translog.DefaultCheckpointInterval.
	CheckpointInterval time.Duration

	// wrapStore, when set, stands between the node and its store: tests
	// inject faults with it.
	wrapStore func(nodeStore) nodeStore
	// clock, when set, is the node's clock in place of time.Now: tests
	// run a node whose time differs from its peers'.
	clock func() time.Time
	// nectar, when set, is where teams' nectar comes from (see
	// ledgerhttp.Deps.Nectar): tests hand teams a history of nectar events.
	nectar ledgerhttp.NectarEvents
}

// nodeStore is the node's one store as the faces take it: the core
// (store.Store, which the journal and recovery use) with what each face
// keeps beside it. store/sqlite and store/postgres implement it all; each face is handed
// the interface it owns.
type nodeStore interface {
	ledger.Store
	library.Store
	engine.Store
}

// openState opens the store state names (Config.State), or the SQLite
// database at sqlitePath when state is "".
func openState(ctx context.Context, state, sqlitePath string) (nodeStore, error) {
	switch {
	case state == "":
		return sqlite.Open(ctx, sqlite.Config{Path: sqlitePath})
	case strings.HasPrefix(state, "postgres://"), strings.HasPrefix(state, "postgresql://"):
		return postgres.Open(ctx, postgres.Config{DSN: state})
	}
	return nil, fmt.Errorf("state %q is neither empty (SQLite in the data folder) nor a postgres:// URL", redactDSN(state))
}

// redactDSN is dsn without a password it holds, for errors.
func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	if strings.Contains(dsn, "password") {
		return "(a connection string with a password)"
	}
	return dsn
}

// DefaultOpenAfter is OpenAfter's default: off, so bundles open when their
// rounds complete.
const DefaultOpenAfter time.Duration = 0

// The deadlines of a file's transfer by default (see
// Config.MinTransferRate).
const (
	DefaultMinTransferRate = ledgerhttp.DefaultMinTransferRate
	DefaultTransferGrace   = ledgerhttp.DefaultTransferGrace
)

// Node is a running node. Use Handler to serve it and Close to stop it.
type Node struct {
	cfg     Config
	logger  *slog.Logger
	keys    *nodeKeys
	logID   string
	log     *translog.Log
	store   nodeStore
	journal *journal.Journal
	files   *blobs.Store // bundle files and uploads, by digest
	ledger  *ledgerhttp.Server
	library *libraryhttp.Server
	memory  *engine.Engine
	mux     *http.ServeMux
	handler http.Handler // mux, with what it does not route answered as the faces' errors
	now     func() time.Time
	// agentForms gives the agent page the vouch forms (vouchpage).
	agentForms func(w http.ResponseWriter, r *http.Request) (token, signIn string)

	stopLoops context.CancelFunc
	loops     sync.WaitGroup
	// waiting holds the digests of unbound entries recover found waiting
	// by design (registered operators' key entries), which a shared log's
	// recoverLoop need not claim and settle again every round.
	waiting sync.Map
}

// DefaultGitHubAPI is where GitHub proofs are read when Config.GitHubAPI is
// empty.
const DefaultGitHubAPI = ledgerhttp.DefaultGitHubAPI

// The values Config.FreeBundles takes (see ledgerhttp.FreeSeed).
const (
	FreeSeed = ledgerhttp.FreeSeed
	FreeAll  = ledgerhttp.FreeAll
	FreeNone = ledgerhttp.FreeNone
)

func (cfg *Config) validate() error {
	if cfg.DataDir == "" {
		return errors.New("node: Config.DataDir: a data folder is needed")
	}
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return fmt.Errorf("node: Config.PublicURL: %q is not an http(s) address such as https://agora.example.org", cfg.PublicURL)
		}
	}
	if cfg.SMTP.Addr != "" {
		if err := cfg.SMTP.Check(); err != nil {
			return fmt.Errorf("node: Config.SMTP: %w", err)
		}
	}
	gh := &cfg.GitHubSignIn
	gh.AuthorizeURL = cmp.Or(gh.AuthorizeURL, vouchpage.DefaultAuthorizeURL)
	gh.TokenURL = cmp.Or(gh.TokenURL, vouchpage.DefaultTokenURL)
	gh.UserURL = cmp.Or(gh.UserURL, vouchpage.DefaultUserURL)
	for _, u := range []string{gh.AuthorizeURL, gh.TokenURL, gh.UserURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("node: Config.GitHubSignIn: %q is not an http(s) address", u)
		}
	}
	if gh.ClientID != "" && gh.ClientSecret == "" {
		return errors.New("node: Config.GitHubSignIn: a client ID needs its client secret")
	}
	if cfg.MaxBodyBytes < 0 {
		return fmt.Errorf("node: Config.MaxBodyBytes: %d is negative", cfg.MaxBodyBytes)
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.AdminToken != "" {
		if err := CheckAdminToken(cfg.AdminToken); err != nil {
			return fmt.Errorf("node: Config.AdminToken: %w", err)
		}
	}
	if cfg.MaxBundleBodyBytes < 0 || cfg.MaxBundleBodyBytes > ledgerhttp.MaxBundleBody {
		return fmt.Errorf("node: Config.MaxBundleBodyBytes: %d is not from 0 to %d", cfg.MaxBundleBodyBytes, ledgerhttp.MaxBundleBody)
	}
	if cfg.MinTransferRate < 0 {
		return fmt.Errorf("node: Config.MinTransferRate: %d is negative", cfg.MinTransferRate)
	}
	if cfg.TransferGrace < 0 {
		return fmt.Errorf("node: Config.TransferGrace: %v is negative", cfg.TransferGrace)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	switch cfg.FreeBundles {
	case "":
		cfg.FreeBundles = FreeSeed
	case FreeSeed, FreeAll, FreeNone:
	default:
		return fmt.Errorf("node: Config.FreeBundles: %q is none of %s, %s, %s", cfg.FreeBundles, FreeSeed, FreeAll, FreeNone)
	}
	return nil
}

// New opens (or, on first start, makes) the node kept in cfg.DataDir: its
// keys, its SQLite state and its Tessera log.
func New(ctx context.Context, cfg Config) (_ *Node, err error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := prepareDataDir(cfg.DataDir, cfg.AllowSharedData); err != nil {
		return nil, err
	}
	keys, err := loadOrCreateKeys(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	if cfg.AdminToken == "" {
		if cfg.AdminToken, err = loadOrCreateAdminToken(cfg.DataDir); err != nil {
			return nil, fmt.Errorf("node: admin token: %w", err)
		}
	}
	n := &Node{cfg: cfg, logger: cfg.Logger, keys: keys, mux: http.NewServeMux(), now: time.Now}
	if cfg.clock != nil {
		n.now = cfg.clock
	}
	if n.files, err = blobs.Open(filepath.Join(cfg.DataDir, "files")); err != nil {
		return nil, fmt.Errorf("node: file store: %w", err)
	}
	uploadKey, err := loadOrCreateSeed(filepath.Join(cfg.DataDir, "keys", "upload.key"))
	if err != nil {
		return nil, fmt.Errorf("node: upload key: %w", err)
	}
	n.logID = protocol.LogID(keys.log.Public().String())
	origin := cfg.Origin
	if origin == "" {
		if origin, err = tlog.CheckpointOrigin(n.logID); err != nil {
			return nil, fmt.Errorf("node: %w", err)
		}
	}
	statePath := filepath.Join(cfg.DataDir, "state.db")
	if cfg.State == "" {
		if err := createPrivate(statePath); err != nil {
			return nil, fmt.Errorf("node: state: %w", err)
		}
	}
	st, err := openState(ctx, cfg.State, statePath)
	if err != nil {
		return nil, fmt.Errorf("node: state: %w", err)
	}
	n.store = st
	if cfg.wrapStore != nil {
		n.store = cfg.wrapStore(st)
	}
	defer func() {
		if err != nil {
			st.Close()
		}
	}()
	logCfg := translog.Config{Dir: filepath.Join(cfg.DataDir, "log")}
	if cfg.Log != "" {
		dsn, err := translog.ParseMySQLURL(cfg.Log)
		if err != nil {
			return nil, fmt.Errorf("node: log %s is neither empty (the log in the data folder) nor a mysql:// URL: %w", translog.RedactMySQL(cfg.Log), err)
		}
		// Several processes may share a PostgreSQL state, and so the
		// log beside it; a SQLite state is one process's.
		logCfg = translog.Config{MySQL: dsn, Shared: cfg.State != ""}
	}
	n.log, err = translog.Open(ctx, translog.Config{
		Dir:           logCfg.Dir,
		MySQL:         logCfg.MySQL,
		Shared:        logCfg.Shared,
		Origin:        origin,
		LogKey:        keys.log,
		CheckpointKey: keys.checkpoint,
		Witnesses:     cfg.Witnesses,

		CheckpointInterval: cfg.CheckpointInterval,
	})
	if err != nil {
		return nil, fmt.Errorf("node: log: %w", err)
	}
	ck, err := tlog.SignCheckpointKeys(keys.log, origin, []string{n.log.VerifierKey()})
	if err != nil {
		n.log.Close(ctx)
		return nil, fmt.Errorf("node: checkpoint_keys: %w", err)
	}
	n.journal = journal.New(n.store, n.log, n.now)
	if err := n.recover(ctx); err != nil {
		n.log.Close(ctx)
		return nil, fmt.Errorf("node: recovering from a crash: %w", err)
	}
	if n.memory, err = engine.New(ctx, n.store, engine.Config{Now: n.now}); err != nil {
		n.log.Close(ctx)
		return nil, fmt.Errorf("node: memory: %w", err)
	}
	n.ledger = ledgerhttp.New(n.mux, ledgerhttp.Config{
		MaxBodyBytes: cfg.MaxBodyBytes, AdminToken: cfg.AdminToken,
		DNSResolver: cfg.DNSResolver, GitHubAPI: cfg.GitHubAPI, GitHubClient: cfg.GitHubClient,
		FreeBundles: cfg.FreeBundles, OpenAfter: cfg.OpenAfter,
		TransferGrace: cfg.TransferGrace, MinTransferRate: cfg.MinTransferRate,
		UnboundUploadQuota: cfg.UnboundUploadQuota, OrgUnboundUploadQuota: cfg.OrgUnboundUploadQuota,
		MaxBundleBodyBytes: cfg.MaxBundleBodyBytes,
		CheckTimeout:       cfg.CheckTimeout, CheckWorkers: cfg.CheckWorkers, CheckQueue: cfg.CheckQueue,
		CheckQueueWait: cfg.CheckQueueWait, ChecksPerMinute: cfg.ChecksPerMinute, SubmissionsPerMinute: cfg.SubmissionsPerMinute,
		Qualification: cfg.Qualification, CanaryRate: cfg.CanaryRate, HabitsEvery: cfg.HabitsEvery,
		JobFileInline: cfg.JobFileInline, JobInline: cfg.JobInline,
		SnapshotDir: filepath.Join(cfg.DataDir, "snapshots"), SnapshotLinkAbove: cfg.SnapshotLinkAbove,
		PublicURL: cfg.PublicURL, SendMail: sendMail(cfg.SMTP),
	}, ledgerhttp.Deps{
		Store: n.store, Journal: n.journal, Log: n.log, Blobs: n.files, LogKey: keys.log, LogID: n.logID,
		CheckpointKeys: ck.Object(), UploadKey: uploadKey, Logger: n.logger, Now: n.now, Nectar: cfg.nectar,
	})
	n.library = libraryhttp.New(n.mux, libraryhttp.Config{MaxBodyBytes: cfg.MaxBodyBytes, AdminToken: cfg.AdminToken, Origin: origin},
		libraryhttp.Deps{Store: n.store, Journal: n.journal, Log: n.log, Logger: n.logger, Now: n.now})
	memoryhttp.New(n.mux, n.memory, cfg.AdminToken, cfg.MaxBodyBytes, n.logger)
	// The agent page is the pages' (readers.go); it embeds the vouch
	// forms this package takes.
	vouches := vouchpage.Mount(n.mux, vouchpage.Config{GitHub: cfg.GitHubSignIn, PublicURL: cfg.PublicURL}, vouchpage.Deps{
		Operator: n.store.Operator, Vouch: n.ledger.Vouch, WatchDomain: n.ledger.WatchDomain, AccountRequest: n.ledger.AccountRequest,
		ConfirmAccount: n.ledger.ConfirmAccount, RecoveryRequests: n.ledger.RecoveryRequests, ApproveRecovery: n.ledger.ApproveRecovery,
		Take: n.store.Take, Logger: n.logger, Now: n.now,
	})
	signIn := ""
	if u, err := url.Parse(cfg.GitHubSignIn.AuthorizeURL); err == nil && cfg.GitHubSignIn.ClientID != "" {
		signIn = u.Scheme + "://" + u.Host
	}
	n.agentForms = func(w http.ResponseWriter, r *http.Request) (string, string) {
		return vouches.FormToken(w, r), signIn
	}
	loops, stop := context.WithCancel(context.Background())
	n.stopLoops = stop
	if n.log.Shared() {
		// The ledger's loops (sweeps, rounds, openings, snapshots) run in
		// one process of those sharing the log at a time.
		n.loops.Go(func() { n.lead(loops, "ledger", n.ledger.Run) })
		n.loops.Go(func() { n.recoverLoop(loops) })
	} else {
		n.loops.Go(func() { n.ledger.Run(loops) })
	}
	n.mountLanding()
	if err := n.mountReaders(); err != nil {
		stop()
		n.loops.Wait()
		n.log.Close(ctx)
		return nil, err
	}
	n.handler = unrouted(n.mux, n.logger)
	return n, nil
}

// sendMail is the node's mail through server, nil without one.
func sendMail(server smtpmail.Sender) ledgerhttp.SendMailFn {
	if server.Addr == "" {
		return nil
	}
	return server.Send
}

// Close stops the node gracefully: appends in flight finish and are
// published, then the log and the store close.
func (n *Node) Close(ctx context.Context) error {
	n.stopLoops()
	n.loops.Wait()
	return errors.Join(n.log.Close(ctx), n.store.Close())
}

// LogID is the ID of the node's log, "log:" and the hex SHA-256 of its key.
func (n *Node) LogID() string { return n.logID }

// Handler returns the node's HTTP API. What it has no route for is
// answered in the error shape of the face the path belongs to (see
// unrouted).
func (n *Node) Handler() http.Handler { return n.handler }
