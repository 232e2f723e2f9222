// Package ledgerhttp serves the ledger, the sciencejournal protocol's HTTP
// API (spec/ledger-protocol.md): the log and its proofs, operators, names, keys and
// identities, bundles from check to seal to open, their files and claims,
// uploads, and the node admin's invitations. It takes the node's store, its
// journal (every entry it logs goes through journal.Journal) and its log for
// reads; package node mounts it.
package ledgerhttp

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/agora-node/agora/blobs"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/translog"
)

// Config is what the ledger's handlers need to know of the node.
type Config struct {
	// MaxBodyBytes bounds every JSON request body.
	MaxBodyBytes int64
	// AdminToken lets its bearer use the admin routes.
	AdminToken string
	// DNSResolver and GitHubAPI, GitHubClient are where domain and
	// repository proofs are read: see node.Config.
	DNSResolver  string
	GitHubAPI    string
	GitHubClient *http.Client
	// FreeBundles is FreeSeed, FreeAll or FreeNone.
	FreeBundles string
	// OpenAfter is how long a sealed bundle stays sealed; negative, never.
	OpenAfter time.Duration
	// TransferGrace and MinTransferRate size the deadlines of the routes
	// that move a file: see node.Config. Zero means
	// DefaultTransferGrace and DefaultMinTransferRate.
	TransferGrace   time.Duration
	MinTransferRate int64
	// Qualification is the qualification test's mode: jobs.ModeEnforce
	// (the default, for ""), jobs.ModeObserve or jobs.ModeOff.
	Qualification string
	// CanaryRate is the share of quick sealed bundles that get a canary:
	// 0 means DefaultCanaryRate, negative none.
	CanaryRate float64
}

// Deps are the node's parts the ledger's handlers use.
type Deps struct {
	Store   ledger.Store // the node's store, with what the ledger keeps
	Journal *journal.Journal
	Log     *translog.Log
	Blobs   *blobs.Store // bundle files and uploads, by digest
	// LogKey is the log's hybrid key: it signs the entries the node logs
	// itself (invitations, seals, withdrawals).
	LogKey *hybrid.PrivateKey
	LogID  string
	// CheckpointKeys is the signed checkpoint_keys object GET /api/v1/log
	// serves.
	CheckpointKeys map[string]any
	UploadKey      []byte // signs upload links
	Logger         *slog.Logger
	Now            func() time.Time
}

// Server is the ledger's HTTP API. Its background loops (opening due
// bundles, sweeping lapsed uploads) run in Run.
type Server struct {
	cfg       Config
	logger    *slog.Logger
	store     ledger.Store
	journal   *journal.Journal
	log       *translog.Log
	blobs     *blobs.Store
	logKey    *hybrid.PrivateKey
	logID     string
	ckeys     map[string]any
	uploadKey []byte
	now       func() time.Time
	mux       *http.ServeMux

	// submitting holds the operators whose submission is being stored;
	// submitMu guards it.
	submitMu   sync.Mutex
	submitting map[string]bool
	seedMu     sync.Mutex // held while a free seed bundle is counted and sealed

	waits *waiters // the long polls waiting

	verify *verification // the verification loop's state (jobs.go)
}

// New returns the ledger's handlers, mounted on mux.
func New(mux *http.ServeMux, cfg Config, d Deps) *Server {
	s := &Server{cfg: cfg, logger: d.Logger, store: d.Store, journal: d.Journal, log: d.Log, blobs: d.Blobs,
		logKey: d.LogKey, logID: d.LogID, ckeys: d.CheckpointKeys, uploadKey: d.UploadKey, now: d.Now,
		mux: mux, submitting: map[string]bool{}, waits: newWaiters(), verify: newVerification()}
	s.routeLog()
	s.routeOperators()
	s.routeAdmin()
	s.routeIdentity()
	s.routeBundles()
	s.routeReads()
	s.routeUploads()
	s.routeJobs()
	return s
}

// Run runs the ledger's background loops until ctx is done.
func (s *Server) Run(ctx context.Context) {
	var loops sync.WaitGroup
	if s.cfg.OpenAfter > 0 {
		loops.Go(func() { s.openDue(ctx) })
	}
	loops.Go(func() { s.sweepUploads(ctx) })
	loops.Go(func() { s.sweepRounds(ctx) })
	loops.Wait()
}

func (s *Server) serve(fn httpapi.Func) http.Handler { return httpapi.Serve(s.logger, fn) }

func (s *Server) admin(fn httpapi.Func) httpapi.Func { return httpapi.Admin(s.cfg.AdminToken, fn) }
