package ledgerhttp

import (
	"cmp"
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
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/ledger/snapshot"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/translog"
	lru "github.com/hashicorp/golang-lru/v2"
)

// JobFlagsCached is how many bundles' integrity checks job views keep.
const JobFlagsCached = 1024

// mustLRU is an LRU cache of size entries; size is a positive constant.
func mustLRU[V any](size int) *lru.Cache[string, V] {
	c, err := lru.New[string, V](size)
	if err != nil {
		panic(err)
	}
	return c
}

// Config is what the ledger's handlers need to know of the node.
type Config struct {
	// MaxBodyBytes bounds every JSON request body but a bundle's.
	MaxBodyBytes int64
	// MaxBundleBodyBytes bounds the body of a bundle check or submission,
	// which carries up to 10 MB of files in base64; zero means
	// MaxBundleBody, the most the spec's bundle limit needs.
	MaxBundleBodyBytes int64
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
	// UnboundUploadQuota and OrgUnboundUploadQuota bound the bytes of
	// uploads no bundle holds that an operator, and its organization's
	// operators together, may have asked for within vocabulary.UploadKeep:
	// files the node keeps for nobody until the sweep removes them. Zero
	// means DefaultUnboundUploadQuota and DefaultOrgUnboundUploadQuota;
	// negative, no quota.
	UnboundUploadQuota    int64
	OrgUnboundUploadQuota int64
	// CheckTimeout bounds one bundle check (POST /api/v1/bundles/check and
	// the checks of POST /api/v1/bundles); zero means DefaultCheckTimeout.
	CheckTimeout time.Duration
	// CheckWorkers bounds the bundle checks run at once, signed
	// submissions' included; zero means GOMAXPROCS. CheckQueue bounds those
	// waiting for a worker (zero: 8 times CheckWorkers, since a queued
	// check holds only its connection, not yet its body), each for at most
	// CheckQueueWait (zero: DefaultCheckQueueWait); past either, 503 busy.
	CheckWorkers   int
	CheckQueue     int
	CheckQueueWait time.Duration
	// ChecksPerMinute and SubmissionsPerMinute are each client address's
	// allowance of POST /api/v1/bundles/check and POST /api/v1/bundles, as
	// a token bucket that holds a minute's worth; zero means
	// DefaultChecksPerMinute and DefaultSubmissionsPerMinute. Past it, 429.
	ChecksPerMinute      int
	SubmissionsPerMinute int
	// Qualification is the qualification test's mode: jobs.ModeEnforce
	// (the default, for ""), jobs.ModeObserve or jobs.ModeOff.
	Qualification string
	// CanaryRate is the share of quick sealed bundles that get a canary:
	// 0 means DefaultCanaryRate, negative none.
	CanaryRate float64
	// HabitsEvery is how often rating habits are measured: the habits a
	// score uses are those measured at the last multiple of it, from the
	// ratings before then. 0 means every hour.
	HabitsEvery time.Duration
	// JobFileInline and JobInline bound what a job carries inline: a file
	// larger than JobFileInline, and the largest files under data/ once
	// the rest pass JobInline, come as downloads; zero means
	// DefaultJobFileInline and DefaultJobInline, the spec's 8 and 10 MB.
	JobFileInline, JobInline int64
	// SnapshotDir is where the daily bulk snapshots are kept
	// (snapshots.go); "" keeps none.
	SnapshotDir string
	// SnapshotLinkAbove is the size past which GET /api/v1/snapshots/{date}
	// redirects to a short-lived link; zero means DefaultSnapshotLinkAbove.
	SnapshotLinkAbove int64
	// PublicURL is the node's address as people reach it, which the links
	// it mails name; empty means the address the request came to.
	PublicURL string
	// SendMail sends the mail that confirms an account request; nil means
	// the node sends none, and account requests answer 503.
	SendMail SendMailFn
	// DomainWatchEvery is how often the node looks for the records of the
	// domains people named from pairing links; zero means
	// DefaultDomainWatchEvery.
	DomainWatchEvery time.Duration
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
	// Nectar, when set, replaces where teams' nectar comes from; without
	// it, the node's standing sheet, derived from the log.
	Nectar NectarEvents
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
	nectar    NectarEvents // teams.go

	// submitting holds the operators whose submission is being stored;
	// submitMu guards it.
	submitMu   sync.Mutex
	submitting map[string]bool
	seedMu     sync.Mutex // held while a free seed bundle is counted and sealed
	// settleMu is held while an opened bundle is settled (settle), so the
	// sweep and the answer that opened a round never log its reveals twice.
	settleMu sync.Mutex

	waits *waiters // the long polls waiting
	// checks runs bundle checks; checkLimit and submitLimit are the
	// allowances per address of unsigned checks and of submissions.
	checks      *checkPool
	checkLimit  *addressLimiter
	submitLimit *addressLimiter

	verify     *verification // the verification loop's state (jobs.go)
	status     statuses      // what the log says of claims (statuses.go)
	challenges challengeBook // challenges.go
	addenda    addendumBook  // addenda.go
	habits     habitBook     // rating habits by the hour (importance.go)
	standing   standingBook  // operators' standing (standing.go)
	// jobFlags holds the integrity checks of the bundles jobs were served
	// from, by bundle hash (a canary's by its own): a bundle's files never
	// change, and checking a large table takes up to half a second, which
	// a job re-served on every request of its holder would spend again.
	jobFlags *lru.Cache[string, paper.Integrity]
	// snapshots keeps the bulk snapshots; nil without Config.SnapshotDir.
	snapshots *snapshot.Dir
	reissues  reissues    // snapshots.go
	reports   reportBook  // transparency.go
	ids       *identities // the identity routes, which Vouch and the account calls share
}

// New returns the ledger's handlers, mounted on mux.
func New(mux *http.ServeMux, cfg Config, d Deps) *Server {
	s := &Server{cfg: cfg, logger: d.Logger, store: d.Store, journal: d.Journal, log: d.Log, blobs: d.Blobs,
		logKey: d.LogKey, logID: d.LogID, ckeys: d.CheckpointKeys, uploadKey: d.UploadKey, now: d.Now, nectar: d.Nectar,
		mux: mux, submitting: map[string]bool{}, waits: newWaiters(),
		checks:      newCheckPool(cfg.CheckWorkers, cfg.CheckQueue, cfg.CheckQueueWait),
		checkLimit:  newAddressLimiter(cmp.Or(cfg.ChecksPerMinute, DefaultChecksPerMinute)),
		submitLimit: newAddressLimiter(cmp.Or(cfg.SubmissionsPerMinute, DefaultSubmissionsPerMinute)),
		verify:      newVerification(),
		jobFlags:    mustLRU[paper.Integrity](JobFlagsCached),
		reissues:    reissues{stale: map[string]bool{}, due: make(chan struct{}, 1), take: make(chan takeRequest)},
	}
	s.routeLog()
	s.routeOperators()
	s.routeStanding()
	s.routeAdmin()
	s.routeIdentity()
	s.routeBundles()
	s.routeReads()
	s.routeUploads()
	s.routeJobs()
	s.routeChecks()
	s.routeChallenges()
	s.routeRetractions()
	s.routeAddenda()
	s.routePreregistrations()
	s.routeTeams()
	if cfg.SnapshotDir != "" {
		var err error
		if s.snapshots, err = snapshot.OpenDir(cfg.SnapshotDir); err != nil {
			s.logger.Error("opening the snapshots' folder; no snapshots will be taken", "err", err)
		}
	}
	s.routeSnapshots()
	s.routeTransparency()
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
	loops.Go(func() { s.watchDomains(ctx) })
	if s.snapshots != nil {
		loops.Go(func() { s.snapshotDaily(ctx) })
	}
	// Read the log's statuses once at the start, so the first reader does
	// not wait for a whole log to be derived.
	loops.Go(func() {
		if err := s.derived(ctx, func(d *status.Deriver) error { d.CountWithStatus(s.now(), "published"); return nil }); err != nil && ctx.Err() == nil {
			s.logger.Error("deriving the log's statuses", "err", err)
		}
	})
	loops.Wait()
}

func (s *Server) serve(fn httpapi.Func) http.Handler { return httpapi.Serve(s.logger, fn) }

func (s *Server) admin(fn httpapi.Func) httpapi.Func { return httpapi.Admin(s.cfg.AdminToken, fn) }

// acrossProcesses takes the lock of the check name in every process
// sharing the node's log (journal.Lock), beside the mutex the caller holds
// in this one: a check of the store or the log and the entry it allows
// stay one step whichever process takes them.
func (s *Server) acrossProcesses(ctx context.Context, name string) (func(), error) {
	return s.journal.Lock(ctx, "ledger."+name)
}
