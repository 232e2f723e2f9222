// Package libraryhttp serves the library, the Alexandria agent read/write
// contract (library/contract.json, filled in by GET /api/contract): signed
// contributions, the catalogue, the changes feed, objects, maps, scores,
// personal lists, and bundle export and import. Every contribution is an
// entry on the node's one log, through journal.Journal; package node mounts
// it.
package libraryhttp

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/translog"
)

// Config is what the library's handlers need to know of the node.
type Config struct {
	// MaxBodyBytes bounds the JSON bodies of admin calls; envelopes have
	// the contract's own bound (library.MaxEnvelopeBytes).
	MaxBodyBytes int64
	// AdminToken lets its bearer use the admin routes.
	AdminToken string
	// Origin is the log's checkpoint origin, the library's namespace.
	Origin string
}

// Deps are the node's parts the library's handlers use.
type Deps struct {
	Store   library.Store // the node's store, with what the library keeps
	Journal *journal.Journal
	Log     *translog.Log
	Logger  *slog.Logger
	Now     func() time.Time
}

// Server is the library's HTTP API.
type Server struct {
	cfg     Config
	logger  *slog.Logger
	store   library.Store
	journal *journal.Journal
	log     *translog.Log
	now     func() time.Time
	mux     *http.ServeMux
}

// New returns the library's handlers, mounted on mux.
func New(mux *http.ServeMux, cfg Config, d Deps) *Server {
	s := &Server{cfg: cfg, logger: d.Logger, store: d.Store, journal: d.Journal, log: d.Log, now: d.Now, mux: mux}
	s.routeLibrary()
	s.routeLibraryCatalogue()
	s.routeLibraryBundles()
	s.routeLibraryObjects()
	s.routeLibraryPersonal()
	return s
}

func (s *Server) serve(fn httpapi.Func) http.Handler { return httpapi.Serve(s.logger, fn) }

func (s *Server) admin(fn httpapi.Func) httpapi.Func { return httpapi.Admin(s.cfg.AdminToken, fn) }
