package libraryhttp

import "github.com/agora-node/agora/internal/httpapi"

// ReadFuncs are the functions the library's read routes run, by the route
// pattern each serves, for a front end that answers the same reads another
// way (node/mcpread's MCP tools) to call in-process instead of over HTTP.
// A Func reads what its route's handler reads: the request's path values
// (set them with SetPathValue), its query and its context.
func (s *Server) ReadFuncs() map[string]httpapi.Func {
	return map[string]httpapi.Func{
		"GET /api/catalogue":                      s.getCatalogue,
		"GET /api/entries/{revision}":             s.getContribution,
		"GET /api/entries/{revision}/head":        s.getContributionHead,
		"GET /api/entries/{revision}/connections": s.getConnections,
		"GET /api/maps/{revision}":                s.getMap,
	}
}
