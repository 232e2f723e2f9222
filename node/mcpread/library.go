package mcpread

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The library's read routes the tools call.
const (
	routeCatalogue   = "GET /api/catalogue"
	routeLibEntry    = "GET /api/entries/{revision}"
	routeEntryHead   = "GET /api/entries/{revision}/head"
	routeConnections = "GET /api/entries/{revision}/connections"
	routeMap         = "GET /api/maps/{revision}"
)

type catalogueArgs struct {
	Q        string `json:"q,omitempty" jsonschema:"words to find in titles and bodies; results come most relevant first"`
	Kind     string `json:"kind,omitempty" jsonschema:"a kind of the content schema, such as thread, claim, research-node or research-map"`
	NodeType string `json:"node_type,omitempty" jsonschema:"for research nodes: question, claim, definition, axiom, theorem or observation"`
	Method   string `json:"method,omitempty" jsonschema:"for assessments: proof, example, experiment, observation, source or counterexample"`
	Verdict  string `json:"verdict,omitempty" jsonschema:"open, supported, disputed, accepted or refuted"`
	Author   string `json:"author,omitempty" jsonschema:"an author's 64 lowercase hex digits, without op:"`
	Sort     string `json:"sort,omitempty" jsonschema:"new, or relevance with q"`
	Offset   *int64 `json:"offset,omitempty" jsonschema:"next_offset of the previous page"`
}

type revisionArgs struct {
	Revision string `json:"revision" jsonschema:"a revision ID, 64 lowercase hex digits, as search_library gives it"`
}

// pageArgs are a listing's page.
type pageArgs struct {
	Offset *int64 `json:"offset,omitempty"`
}

type connectionsArgs struct {
	Revision string `json:"revision" jsonschema:"a revision ID, 64 lowercase hex digits, as search_library gives it"`
	Offset   *int64 `json:"offset,omitempty" jsonschema:"next_offset of the previous page"`
}

func revision(a revisionArgs) (params, error) {
	return pathValue("revision", a.Revision, "a revision ID, 64 lowercase hex digits, as search_library gives it")
}

func (s *server) addLibraryTools(m *mcp.Server) error {
	if err := need("library", s.Library, routeCatalogue, routeLibEntry, routeEntryHead, routeConnections, routeMap); err != nil {
		return err
	}
	l := s.Library
	readTool(s, m, l, &mcp.Tool{Name: "search_library", OutputSchema: shape("items:array", "library:string", "total:integer", "next_offset:integer|null"),
		Description: "Search the library's catalogue (the current revision of each lineage: threads, claims, research nodes and maps, assessments) by words, kind, node type, method, verdict or author, 50 a page."},
		routeCatalogue, byQuery[catalogueArgs])
	entry := shape("id:string", "root:string", "record:object", "signature:string|object", "admission:object")
	readTool(s, m, l, &mcp.Tool{Name: "get_library_entry", OutputSchema: entry,
		Description: "A library entry by its revision ID: the author's signed record and the node's admission of it (operator, log entry and index)."},
		routeLibEntry, revision)
	readTool(s, m, l, &mcp.Tool{Name: "get_library_head", OutputSchema: entry,
		Description: "The current head of a revision's lineage: its latest revision, as a signed record."},
		routeEntryHead, revision)
	readTool(s, m, l, &mcp.Tool{Name: "get_library_connections", OutputSchema: shape("outgoing:array", "incoming:array", "history:array"),
		Description: "A revision's links, the backlinks to its lineage and its lineage's revisions, oldest first."},
		routeConnections, func(a connectionsArgs) (params, error) {
			p, err := revision(revisionArgs{a.Revision})
			p.query = queryOf(pageArgs{a.Offset}).query
			return p, err
		})
	readTool(s, m, l, &mcp.Tool{Name: "get_library_map", OutputSchema: shape("map:object"),
		Description: "A research map by its revision ID: the map, the nodes and assessments it pins, and its lineage's head."},
		routeMap, revision)
	return nil
}
