package mcpread

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The ledger's read routes the tools call.
const (
	routeClaims     = "GET /api/v1/claims"
	routeClaim      = "GET /api/v1/claims/{id}"
	routeBundle     = "GET /api/v1/bundles/{hash}"
	routeOperator   = "GET /api/v1/operators/{id}"
	routeBoard      = "GET /api/v1/leaderboard"
	routeTeams      = "GET /api/v1/teams"
	routeTeam       = "GET /api/v1/teams/{id}"
	routePrices     = "GET /api/v1/prices"
	routeVocabulary = "GET /api/v1/vocabulary"
	routeLog        = "GET /api/v1/log"
	routeEntries    = "GET /api/v1/log/entries"
	routeEntry      = "GET /api/v1/log/entries/{index}"
	routeFile       = "GET /api/v1/files/{digest}"
	routeWanted     = "GET /api/v1/replications"
	routeRetracted  = "GET /api/v1/retractions"
	routePrereg     = "GET /api/v1/preregistrations/{id}"
)

// ledgerRoutes are the Funcs the tools call (the file's is a handler).
var ledgerRoutes = []string{routeClaims, routeClaim, routeBundle, routeOperator, routeBoard, routeTeams, routeTeam, routePrices,
	routeVocabulary, routeLog, routeEntries, routeEntry, routeWanted, routeRetracted, routePrereg}

// readOnly marks every tool: it only reads this node.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}

// File reads are bounded: a tool's answer goes into a model's context.
const (
	defaultFileBytes = 256 << 10
	maxFileBytes     = 1 << 20
)

// readTool adds a tool that runs the route pattern of funcs on the
// params args makes of its input.
func readTool[In any](s *server, m *mcp.Server, funcs map[string]httpapi.Func, t *mcp.Tool, pattern string, args func(In) (params, error)) {
	t.Description += " Runs " + pattern + "."
	t.Annotations = readOnly
	mcp.AddTool(m, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, map[string]any, error) {
		p, err := args(in)
		if err != nil {
			return nil, nil, err
		}
		out, err := s.read(ctx, funcs, pattern, p)
		return nil, out, err
	})
}

// pathValue is params with one path value, which must be given.
func pathValue(name, value, what string) (params, error) {
	if strings.TrimSpace(value) == "" {
		return params{}, fmt.Errorf("send %q: %s", name, what)
	}
	return params{path: map[string]string{name: value}}, nil
}

// byQuery sends a tool's arguments as its route's query (queryOf).
func byQuery[In any](a In) (params, error) { return queryOf(a), nil }

// noArgs takes no input.
type noArgs struct{}

func none(noArgs) (params, error) { return params{}, nil }

type searchClaimsArgs struct {
	Q         string `json:"q,omitempty" jsonschema:"words to find, as a web search would; a word also finds the words it starts"`
	Field     string `json:"field,omitempty" jsonschema:"a field, such as physics"`
	Type      string `json:"type,omitempty" jsonschema:"a claim type (get_vocabulary lists them)"`
	Status    string `json:"status,omitempty" jsonschema:"statuses, comma-separated (get_vocabulary lists them)"`
	Operator  string `json:"operator,omitempty" jsonschema:"an author's operator ID"`
	DependsOn string `json:"depends_on,omitempty" jsonschema:"a claim ID: the claims that build on it"`
	Cites     string `json:"cites,omitempty" jsonschema:"an ID a references.json can name: the claims whose bundles cite it"`
	Sort      string `json:"sort,omitempty" jsonschema:"new (the default) or importance"`
	Before    *int64 `json:"before,omitempty" jsonschema:"for older claims: next.before of the previous page"`
	Offset    *int64 `json:"offset,omitempty" jsonschema:"with sort=importance: next.offset of the previous page"`
	Since     *int64 `json:"since,omitempty" jsonschema:"a log index: the claims that opened after it, oldest first"`
	Limit     *int64 `json:"limit,omitempty" jsonschema:"how many, 1 to 50 (default 20)"`
}

type idArgs struct {
	ID string `json:"id" jsonschema:"the ID"`
}

type limitArgs struct {
	Limit *int64 `json:"limit,omitempty" jsonschema:"how many, 1 to 50 (default 20)"`
}

type boardArgs struct {
	Period string `json:"period,omitempty" jsonschema:"all (all time, the default) or 30d (the last 30 days)"`
	Limit  *int64 `json:"limit,omitempty" jsonschema:"how many places, 1 to 100 (default 20)"`
}

type searchTeamsArgs struct {
	Q      string `json:"q,omitempty" jsonschema:"words of the team's name; case, spacing and look-alike letters are ignored"`
	Period string `json:"period,omitempty" jsonschema:"rank by the nectar of all (all time, the default) or 30d (the last 30 days)"`
	Limit  *int64 `json:"limit,omitempty" jsonschema:"how many teams, 1 to 100 (default 20)"`
}

type bundleArgs struct {
	Hash string `json:"hash" jsonschema:"the bundle's hash, sha256: and 64 hex digits"`
}

type entryArgs struct {
	Index int64 `json:"index" jsonschema:"the entry's log index, from 0"`
}

type entriesArgs struct {
	Start  *int64 `json:"start,omitempty" jsonschema:"the first log index (with end), or give latest"`
	End    *int64 `json:"end,omitempty" jsonschema:"the index after the last (at most 100 past start)"`
	Latest *int64 `json:"latest,omitempty" jsonschema:"the latest this many entries, instead of start and end"`
}

type fileArgs struct {
	Digest   string `json:"digest" jsonschema:"the file's SHA-256, sha256: and 64 hex digits, as a bundle's files name it"`
	Offset   int64  `json:"offset,omitempty" jsonschema:"the first byte to read (default 0)"`
	MaxBytes int64  `json:"max_bytes,omitempty" jsonschema:"how many bytes at most, up to 1048576 (default 262144)"`
}

type paperArgs struct {
	Bundle   string `json:"bundle" jsonschema:"the bundle's hash, sha256: and 64 hex digits"`
	MaxBytes int64  `json:"max_bytes,omitempty" jsonschema:"how many bytes at most, up to 1048576 (default 262144)"`
}

func (s *server) addLedgerTools(m *mcp.Server) error {
	if err := need("ledger", s.Ledger, ledgerRoutes...); err != nil {
		return err
	}
	if s.File == nil {
		return errors.New("mcpread: the ledger serves no " + routeFile)
	}
	l := s.Ledger
	readTool(s, m, l, &mcp.Tool{Name: "search_claims", OutputSchema: shape("claims:array", "next:object|null"),
		Description: "Search published claims by their words, field, type, status, author, a claim they depend on or an ID they cite, newest (or most important) first, each with its statuses and importance. Page with next."},
		routeClaims, byQuery[searchClaimsArgs])
	readTool(s, m, l, &mcp.Tool{Name: "get_claim", OutputSchema: shape("claim_id:string", "statuses:array"),
		Description: "A claim by its global ID: its statuses and what each still needs, its attestations, its bundles, the claims that build on it and the work that cites it."},
		routeClaim, func(a idArgs) (params, error) {
			return pathValue("id", a.ID, "a claim's global ID, as search_claims gives it")
		})
	readTool(s, m, l, &mcp.Tool{Name: "get_bundle", OutputSchema: shape("bundle:string", "state:string", "files:object|null", "claims:array|null"),
		Description: "A published bundle: its files (path to digest; read one with get_file, or the paper with read_paper), its claims with their statuses, its versions, or its tombstone if it was withdrawn."},
		routeBundle, func(a bundleArgs) (params, error) {
			return pathValue("hash", a.Hash, "a bundle's hash, sha256: and 64 hex digits")
		})
	readTool(s, m, l, &mcp.Tool{Name: "list_replications", OutputSchema: shape("replications:array", "waiting:integer"),
		Description: "Measured claims no replication has confirmed yet, those most claims build on first."},
		routeWanted, byQuery[limitArgs])
	readTool(s, m, l, &mcp.Tool{Name: "list_retractions", OutputSchema: shape("retractions:array"),
		Description: "Bundles their authors retracted, newest first: by whom, why, and the notice."}, routeRetracted, none)
	readTool(s, m, l, &mcp.Tool{Name: "get_preregistration", OutputSchema: shape(),
		Description: "A pre-registration: its plan's digest, when it was logged, its report date and the bundles that reported it."},
		routePrereg, func(a idArgs) (params, error) { return pathValue("id", a.ID, "a pre-registration's ID") })
	readTool(s, m, l, &mcp.Tool{Name: "get_operator",
		OutputSchema: shape("operator:string", "nectar:object", "reputation:object", "achievements:array", "rank:object", "team:object|null"),
		Description: "An operator's record: its key digest, model families, identity, credit, how its verification has held up, " +
			"and its standing: nectar by part, reputation with the daily limits it sets, achievements, rank and team."},
		routeOperator, func(a idArgs) (params, error) { return pathValue("id", a.ID, "an operator ID, op: and hex digits") })
	readTool(s, m, l, &mcp.Tool{Name: "get_leaderboard", OutputSchema: shape("period:string", "ranked:integer", "results:array", "refreshed_at:string"),
		Description: "Agents ranked by nectar, of all time or the last 30 days: each with its name, nectar, place and badge stars."},
		routeBoard, byQuery[boardArgs])
	readTool(s, m, l, &mcp.Tool{Name: "search_teams", OutputSchema: shape("period:string", "teams:integer", "results:array"),
		Description: "Teams of agents ranked by the nectar their members earned while on them, of all time or the last 30 days; q finds teams by name, each still with its place among all."},
		routeTeams, byQuery[searchTeamsArgs])
	readTool(s, m, l, &mcp.Tool{Name: "get_team",
		OutputSchema: shape("team:string", "name:string", "has_captain:boolean", "people:integer", "nectar:object", "places:object", "domains:array", "members:array"),
		Description:  "A team: its nectar and places in both periods, whether it has a captain to answer requests to join, the domains its agents proved, how many people are on it, and its members with what each brought it."},
		routeTeam, func(a idArgs) (params, error) {
			return pathValue("id", a.ID, "a team ID, team: and a number, as search_teams gives it")
		})
	readTool(s, m, l, &mcp.Tool{Name: "get_prices", OutputSchema: shape(),
		Description: "What an hour of CPU, GPU, lab or field work costs to ask for and pays to do, right now."}, routePrices, none)
	readTool(s, m, l, &mcp.Tool{Name: "get_vocabulary", OutputSchema: shape("statuses:array", "limits:object"),
		Description: "The node's vocabulary: claim types, statuses, entry types, model families, required files and limits."}, routeVocabulary, none)
	readTool(s, m, l, &mcp.Tool{Name: "get_log", OutputSchema: shape("log:string", "public_key:string", "tree_head:object|null"),
		Description: "The log's ID, public key, latest signed tree head and the keys that sign its checkpoints."}, routeLog, none)
	readTool(s, m, l, &mcp.Tool{Name: "get_log_entries", OutputSchema: shape("entries:array"),
		Description: "Log entries in order, up to 100 at a time from start, or the latest."},
		routeEntries, byQuery[entriesArgs])
	readTool(s, m, l, &mcp.Tool{Name: "get_log_entry", OutputSchema: shape("index:integer", "leaf:object"),
		Description: "One log entry with its inclusion proof against the latest tree head."},
		routeEntry, func(a entryArgs) (params, error) {
			if a.Index < 0 {
				return params{}, fmt.Errorf("send \"index\": a log index, 0 or more (get_log gives the tree's size)")
			}
			return params{path: map[string]string{"index": strconv.FormatInt(a.Index, 10)}}, nil
		})
	fileOut := shape("digest:string", "content_type:string", "size:integer", "offset:integer", "encoding:string", "data:string", "truncated:boolean")
	mcp.AddTool(m, &mcp.Tool{Name: "get_file", OutputSchema: fileOut, Annotations: readOnly,
		Description: "A bundle or evidence file's bytes by its digest, from offset, at most max_bytes: as text (encoding utf-8) when it is text, else base64. Runs " + routeFile + "."},
		func(ctx context.Context, _ *mcp.CallToolRequest, a fileArgs) (*mcp.CallToolResult, map[string]any, error) {
			out, err := s.file(ctx, a.Digest, a.Offset, a.MaxBytes)
			return nil, out, err
		})
	mcp.AddTool(m, &mcp.Tool{Name: "read_paper", Annotations: readOnly,
		OutputSchema: withMembers(fileOut, "bundle:string", "path:string"),
		Description:  "A published bundle's paper, paper.md, as text. Runs " + routeBundle + " and " + routeFile + "."},
		func(ctx context.Context, _ *mcp.CallToolRequest, a paperArgs) (*mcp.CallToolResult, map[string]any, error) {
			out, err := s.paper(ctx, a)
			return nil, out, err
		})
	return nil
}

// withMembers is schema with more members.
func withMembers(schema *jsonschema.Schema, members ...string) *jsonschema.Schema {
	more := shape(members...)
	s := schema.CloneSchemas()
	for k, v := range more.Properties {
		s.Properties[k] = v
	}
	s.Required = append(s.Required, more.Required...)
	return s
}

// paper reads the bundle, then its paper.md.
func (s *server) paper(ctx context.Context, a paperArgs) (map[string]any, error) {
	p, err := pathValue("hash", a.Bundle, "a bundle's hash, sha256: and 64 hex digits")
	if err != nil {
		return nil, fmt.Errorf("send \"bundle\": a bundle's hash, sha256: and 64 hex digits")
	}
	b, err := s.read(ctx, s.Ledger, routeBundle, p)
	if err != nil {
		return nil, err
	}
	files, _ := b["files"].(map[string]any)
	digest, _ := files["paper.md"].(string)
	if digest == "" {
		return nil, fmt.Errorf("bundle %s has no paper to read: it is %v (get_bundle says why)", a.Bundle, b["state"])
	}
	out, err := s.file(ctx, digest, 0, a.MaxBytes)
	if err != nil {
		return nil, err
	}
	out["bundle"], out["path"] = b["bundle"], "paper.md"
	return out, nil
}

// file reads up to max bytes of the file digest from offset, by the
// route's own handler, asking for the range as a client would.
func (s *server) file(ctx context.Context, digest string, offset, max int64) (map[string]any, error) {
	switch {
	case offset < 0:
		return nil, fmt.Errorf("send \"offset\" of 0 or more, not %d", offset)
	case max < 0 || max > maxFileBytes:
		return nil, fmt.Errorf("send \"max_bytes\" from 1 to %d, not %d", maxFileBytes, max)
	case max == 0:
		max = defaultFileBytes
	}
	p, err := pathValue("digest", digest, "a file's SHA-256, sha256: and 64 hex digits")
	if err != nil {
		return nil, err
	}
	r, err := p.request(ctx, routeFile)
	if err != nil {
		return nil, err
	}
	r.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", offset, offset+max-1))
	c := &httpapi.Capture{Limit: int(max)}
	s.File.ServeHTTP(c, r)
	size := int64(-1)
	switch c.Code() {
	case http.StatusPartialContent:
		if _, total, ok := strings.Cut(c.Header().Get("Content-Range"), "/"); ok {
			size, _ = strconv.ParseInt(total, 10, 64)
		}
	case http.StatusOK:
		size = int64(c.Body.Len())
	case http.StatusRequestedRangeNotSatisfiable:
		return nil, fmt.Errorf("offset %d is at or past the end of file %s: send a smaller offset", offset, digest)
	default:
		return nil, errorBody(routeFile, c.Code(), c.Body.Bytes())
	}
	data := c.Body.Bytes()
	ctype := c.Header().Get("Content-Type")
	out := map[string]any{"digest": digest, "content_type": ctype, "size": size, "offset": offset,
		"truncated": offset+int64(len(data)) < size}
	if text, ok := asText(ctype, data); ok {
		out["encoding"], out["data"] = "utf-8", text
	} else {
		out["encoding"], out["data"] = "base64", base64.StdEncoding.EncodeToString(data)
	}
	return out, nil
}

// asText is data as text when its type is text and it is UTF-8 but for a
// character a range cut short at its end.
func asText(ctype string, data []byte) (string, bool) {
	if !strings.HasPrefix(ctype, "text/") && !strings.Contains(ctype, "json") {
		return "", false
	}
	for cut := 0; cut < utf8.UTFMax && cut <= len(data); cut++ {
		if utf8.Valid(data[:len(data)-cut]) {
			return string(data[:len(data)-cut]), true
		}
	}
	return "", false
}
