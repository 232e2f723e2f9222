// Package llms serves the node's instructions for agents: GET /llms.txt,
// the pages it lists at GET /llms/{page} and all of them at once at GET
// /llms-full.txt (spec/ledger-protocol.md, "Endpoints": Instructions), so
// an agent told only the node's address finds everything: what the node
// is, its three faces and their main endpoints, how to register, the MCP
// server and the CLI.
//
// The text is embedded Markdown (pages/*.md), Go templates filled in at
// serve time with this node's URL (Config.PublicURL, or the request's own
// scheme and host), its log ID and its limits, read from the vocabulary
// document the node serves, so the instructions cannot drift from what
// the node enforces.
package llms

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"text/template"

	"github.com/agora-node/agora/internal/httpapi"
)

//go:embed pages/*.md
var files embed.FS

// Page is one topic of the instructions.
type Page struct {
	Name    string // its file name under /llms/
	Title   string
	Summary string
}

// Pages are the topics /llms.txt lists, in its order.
var Pages = []Page{
	{"ledger.md", "The ledger", "reading claims and bundles, publishing, verifying, the log"},
	{"register.md", "Registering", "your key, your operator ID and proving an identity"},
	{"library.md", "The library", "the research library's contract, catalogue, entries and maps"},
	{"memory.md", "Memory for coding agents", "adapters, their tokens and the ingress events"},
	{"mcp.md", "The MCP server", "the read tools at /mcp over all three faces"},
	{"cli.md", "The agora command", "every command, with this node's URL"},
}

// index is the page /llms.txt serves.
const index = "index.md"

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	// limit is only a placeholder at parse time; Handler binds it to the
	// node's limits.
	"limit": func(string) (any, error) { return nil, nil },
}).Option("missingkey=error").ParseFS(files, "pages/*.md"))

// Deps are what the pages are filled in with.
type Deps struct {
	// PublicURL is the node's address as agents reach it; empty means
	// the request's scheme and host.
	PublicURL string
	LogID     string
	// Vocabulary is what GET /api/v1/vocabulary runs; its "limits" fill
	// the pages' {{limit "name"}}.
	Vocabulary httpapi.Func
	Logger     *slog.Logger
}

type server struct{ Deps }

// Mount serves the instructions on mux.
func Mount(mux *http.ServeMux, d Deps) {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	s := &server{d}
	mux.Handle("GET /llms.txt", httpapi.Serve(d.Logger, func(r *http.Request) (any, int, error) { return s.render(r, index) }))
	mux.Handle("GET /llms-full.txt", httpapi.Serve(d.Logger, s.full))
	mux.Handle("GET /llms/{page}", httpapi.Serve(d.Logger, func(r *http.Request) (any, int, error) {
		name := r.PathValue("page")
		for _, p := range Pages {
			if p.Name == name {
				return s.render(r, name)
			}
		}
		names := make([]string, len(Pages))
		for i, p := range Pages {
			names[i] = p.Name
		}
		return nil, 0, httpapi.NotFound("No instructions page %q: the pages are %s (GET /llms.txt lists them)", name, strings.Join(names, ", "))
	}))
}

// data is what a page is filled in with.
type data struct {
	Base  string
	LogID string
	Pages []Page
}

// base is the node's URL as the request reached it, unless configured.
func (s *server) base(r *http.Request) string { return httpapi.BaseURL(s.PublicURL, r) }

// limits are the node's limits as its vocabulary serves them.
func (s *server) limits(r *http.Request) (map[string]any, error) {
	v, _, err := s.Vocabulary(r)
	if err != nil {
		return nil, fmt.Errorf("llms: the vocabulary: %w", err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("llms: the vocabulary: %w", err)
	}
	var doc struct {
		Limits map[string]any `json:"limits"`
	}
	// Numbers as written: a float64 would print 10485760 as 1.048576e+07.
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("llms: the vocabulary: %w", err)
	}
	return doc.Limits, nil
}

// execute fills in the named pages, one after another.
func (s *server) execute(r *http.Request, names ...string) ([]byte, error) {
	limits, err := s.limits(r)
	if err != nil {
		return nil, err
	}
	t, err := pages.Clone()
	if err != nil {
		return nil, fmt.Errorf("llms: %w", err)
	}
	t.Funcs(template.FuncMap{"limit": func(name string) (any, error) {
		v, ok := limits[name]
		if !ok {
			return nil, fmt.Errorf("the vocabulary has no limit %q", name)
		}
		return v, nil
	}})
	d := data{Base: s.base(r), LogID: s.LogID, Pages: Pages}
	var b bytes.Buffer
	for i, name := range names {
		if i > 0 {
			b.WriteString("\n\n")
		}
		if err := t.ExecuteTemplate(&b, name, d); err != nil {
			return nil, fmt.Errorf("llms: page %s: %w", name, err)
		}
	}
	return b.Bytes(), nil
}

func (s *server) render(r *http.Request, names ...string) (any, int, error) {
	body, err := s.execute(r, names...)
	if err != nil {
		return nil, 0, err
	}
	return httpapi.Text{ContentType: "text/markdown; charset=utf-8", Body: body}, http.StatusOK, nil
}

// full is every page in one document: the index, then each page it lists.
func (s *server) full(r *http.Request) (any, int, error) {
	names := []string{index}
	for _, p := range Pages {
		names = append(names, p.Name)
	}
	return s.render(r, names...)
}
