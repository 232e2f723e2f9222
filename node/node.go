// Package node is the Agora node: it serves the sciencejournal ledger
// protocol's HTTP API (and, later, the library and memory contracts) over
// one store and one tamper-evident log.
//
// Handlers compute (response, status, error) and one wrapper writes the
// answer or maps the error to the spec's {"error", "code"} body, so status
// codes are chosen in one place.
package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agora-node/agora/blobs"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
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

	// MaxBodyBytes bounds every JSON request body; 0 means 1 MiB.
	MaxBodyBytes int64

	// AdminToken lets its bearer use the /api/v1/admin routes (agora
	// admin ...). Empty means the token kept in <DataDir>/keys/admin.token,
	// made on first start.
	AdminToken string

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

	// OpenAfter is how long a sealed bundle stays sealed before the node
	// opens it, its policy until the verification round exists. Zero
	// means DefaultOpenAfter; negative, never.
	OpenAfter time.Duration

	// Logger receives the node's operational log; nil means slog.Default().
	Logger *slog.Logger
	// CheckpointInterval is how often the log publishes a checkpoint, and
	// so about how long a write waits to be provable; zero means
	// translog.DefaultCheckpointInterval.
	CheckpointInterval time.Duration
}

// DefaultOpenAfter is how long a bundle stays sealed by default.
const DefaultOpenAfter = time.Hour

// Node is a running node. Use Handler to serve it and Close to stop it.
type Node struct {
	cfg    Config
	logger *slog.Logger
	keys   *nodeKeys
	logID  string
	log    *translog.Log
	store  store.Store
	ckeys  map[string]any // the signed checkpoint_keys object
	mux    *http.ServeMux
	now    func() time.Time

	// publishing holds, for each operator whose key entry publishKey is
	// logging, a channel closed when it is done; publishMu guards it.
	publishMu  sync.Mutex
	publishing map[string]chan struct{}

	blobs *blobs.Store // bundle files and uploads, by digest
	// submitting holds the operators whose submission is being stored;
	// submitMu guards it.
	submitMu   sync.Mutex
	submitting map[string]bool
	seedMu     sync.Mutex // held while a free seed bundle is counted and sealed
	uploadKey  []byte     // signs upload links
	stopLoops  context.CancelFunc
	loops      sync.WaitGroup

	memory *engine.Engine // the memory (memory.go)
}

// maxEntriesPage is the most entries one GET /api/v1/log/entries returns.
const maxEntriesPage = 100

// maxWait bounds how long GET /api/v1/log/entries holds a request.
const maxWait = 25 * time.Second

func (cfg *Config) validate() error {
	if cfg.DataDir == "" {
		return errors.New("node: Config.DataDir: a data folder is needed")
	}
	if cfg.MaxBodyBytes < 0 {
		return fmt.Errorf("node: Config.MaxBodyBytes: %d is negative", cfg.MaxBodyBytes)
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
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
	if cfg.OpenAfter == 0 {
		cfg.OpenAfter = DefaultOpenAfter
	}
	return nil
}

// New opens (or, on first start, makes) the node kept in cfg.DataDir: its
// keys, its SQLite state and its Tessera log.
func New(ctx context.Context, cfg Config) (_ *Node, err error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("node: data folder: %w", err)
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
	n := &Node{cfg: cfg, logger: cfg.Logger, keys: keys, mux: http.NewServeMux(), now: time.Now,
		publishing: map[string]chan struct{}{}, submitting: map[string]bool{}}
	if n.blobs, err = blobs.Open(filepath.Join(cfg.DataDir, "files")); err != nil {
		return nil, fmt.Errorf("node: file store: %w", err)
	}
	if n.uploadKey, err = loadOrCreateSeed(filepath.Join(cfg.DataDir, "keys", "upload.key")); err != nil {
		return nil, fmt.Errorf("node: upload key: %w", err)
	}
	n.logID = protocol.LogID(keys.log.Public().String())
	origin := cfg.Origin
	if origin == "" {
		if origin, err = tlog.CheckpointOrigin(n.logID); err != nil {
			return nil, fmt.Errorf("node: %w", err)
		}
	}
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(cfg.DataDir, "state.db")})
	if err != nil {
		return nil, fmt.Errorf("node: state: %w", err)
	}
	n.store = st
	defer func() {
		if err != nil {
			st.Close()
		}
	}()
	n.log, err = translog.Open(ctx, translog.Config{
		Dir:           filepath.Join(cfg.DataDir, "log"),
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
	n.ckeys = ck.Object()
	if err := n.recover(ctx); err != nil {
		n.log.Close(ctx)
		return nil, fmt.Errorf("node: recovering from a crash: %w", err)
	}
	if n.memory, err = engine.New(ctx, st, engine.Config{Now: n.now}); err != nil {
		n.log.Close(ctx)
		return nil, fmt.Errorf("node: memory: %w", err)
	}
	n.routeLog()
	n.routeOperators()
	n.routeAdmin()
	n.routeIdentity()
	n.routeBundles()
	n.routeReads()
	n.routeUploads()
	n.routeLibrary()
	n.routeLibraryCatalogue()
	n.routeLibraryBundles()
	n.routeLibraryObjects()
	n.routeLibraryPersonal()
	n.routeMemory()
	loops, stop := context.WithCancel(context.Background())
	n.stopLoops = stop
	if cfg.OpenAfter > 0 {
		n.loops.Go(func() { n.openDue(loops) })
	}
	n.loops.Go(func() { n.sweepUploads(loops) })
	return n, nil
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

// Handler returns the node's HTTP API.
func (n *Node) Handler() http.Handler { return n.mux }
