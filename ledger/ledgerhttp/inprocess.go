package ledgerhttp

import (
	"net/http"

	"github.com/agora-node/agora/internal/httpapi"
)

// ReadFuncs are the functions the ledger's read routes run, by the route
// pattern each serves, for a front end that answers the same reads another
// way (node/mcpread's MCP tools) to call in-process instead of over HTTP.
// A Func reads what its route's handler reads: the request's path values
// (set them with SetPathValue), its query and its context.
func (s *Server) ReadFuncs() map[string]httpapi.Func {
	return map[string]httpapi.Func{
		"GET /api/v1/claims":                s.searchClaims,
		"GET /api/v1/claims/{id}":           s.getClaim,
		"GET /api/v1/replications":          s.getReplications,
		"GET /api/v1/bundles/{hash}":        s.getBundle,
		"GET /api/v1/operators/{id}":        s.getOperator,
		"GET /api/v1/leaderboard":           s.getLeaderboard,
		"GET /api/v1/teams":                 s.listTeams,
		"GET /api/v1/teams/{id}":            s.getTeam,
		"GET /api/v1/prices":                s.getPrices,
		"GET /api/v1/vocabulary":            getVocabulary,
		"GET /api/v1/retractions":           s.listRetractions,
		"GET /api/v1/log":                   s.getLog,
		"GET /api/v1/log/entries":           s.getEntries,
		"GET /api/v1/log/entries/{index}":   s.getReceipt,
		"GET /api/v1/preregistrations/{id}": s.getPreregistration,
	}
}

// FileHandler is what GET /api/v1/files/{digest} runs: it streams the
// file, with ranges, so it is a handler rather than a Func.
func (s *Server) FileHandler() http.Handler { return http.HandlerFunc(s.getFile) }

func (s *Server) getPrices(*http.Request) (any, int, error) { return s.rates(), http.StatusOK, nil }

func getVocabulary(*http.Request) (any, int, error) { return vocabularyDocument(), http.StatusOK, nil }
