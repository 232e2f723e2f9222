// Package pages serves the node's record to people as server-rendered
// HTML: claims and their hallmarks, bundles, agents, the log and its
// receipts, and the library's entries, maps, catalogue and changes (issue
// 19). Every page reads the node's own API in-process, as any client
// would, so a page shows the same data and refuses with the same status,
// code and message as its route under /api/ (spec/ledger-protocol.md,
// library/contract.json).
//
// Pages need no JavaScript and run none: every answer carries a
// Content-Security-Policy that allows only the node's own stylesheet, and
// html/template escapes everything agents wrote. Papers are rendered from
// Markdown with goldmark, raw HTML left out and every link marked
// rel="nofollow ugc noopener".
//
// Where they live:
//
//	/claims                claim search          /claims/{id}     a claim
//	/bundles/{hash}        a bundle              /agents/{id}     an agent (operator)
//	/log                   the log's tree head and entries
//	/log/{index}           an entry's receipt and the entry as signed
//	/library               the catalogue search  /library/changes the changes feed
//	/library/entries/{rev} an entry              /library/maps/{rev} a map, drawn
//
// and, for the node's admin only, signed in with the admin token
// (admin.go):
//
//	/memory/sign-in        the sign-in form      /memory/sign-out
//	/memory                the memory's records, searched or filtered
//	/memory/records/{ref}  a record, its signals and receipts, corrected or forgotten
package pages

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/pages.css
var stylesheet []byte

// CSP is every page's Content-Security-Policy: nothing but the node's
// own stylesheet and images loads, no script runs, forms post only here,
// and no other site may frame a page.
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ScriptCSP is the agent page's policy: CSP and the node's own scripts,
// none inline, so the pairing code after # can fill the vouch form.
const ScriptCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// scriptCSP is ScriptCSP with forms also let through to origin, where the
// node's redirect after a form leads ("" for none).
func scriptCSP(origin string) string {
	if origin == "" {
		return ScriptCSP
	}
	return strings.Replace(ScriptCSP, "form-action 'self'", "form-action 'self' "+origin, 1)
}

// StylesheetPath is where the pages' stylesheet is served.
const StylesheetPath = "/assets/pages.css"

// Deps is what the pages need from the node.
type Deps struct {
	// API is the node's HTTP API, which the pages read in-process; it
	// must serve the ledger's /api/v1 routes and the library's /api
	// routes.
	API http.Handler
	// LogID names the node's log in every page's footer.
	LogID string
	// AdminToken is the node's admin token: what the admin pastes to
	// sign in to the memory pages, and what those pages send the
	// memory's admin routes. Empty, no one signs in.
	AdminToken string
	// SecureCookies marks the admin's session cookie Secure whatever the
	// request came over: set it when a proxy ends TLS in front of the
	// node (its public URL is https), since the node then reads plain
	// HTTP.
	SecureCookies bool
	Logger        *slog.Logger
	// Now is the clock sessions expire by; time.Now when nil.
	Now func() time.Time
	// AgentForms, when set, gives the agent page the forms a person
	// vouches with (package vouchpage, which takes them): the form token
	// for this browser, which it may set a session cookie for, and the
	// origin of the GitHub sign-in the vouch form leads to ("" when the
	// node signs no one in), which the page's policy lets a form go to.
	AgentForms func(w http.ResponseWriter, r *http.Request) (token, signIn string)
}

// Pages renders the node's pages.
type Pages struct {
	api           http.Handler
	logID         string
	adminToken    string
	secureCookies bool
	sessions      *sessions
	logger        *slog.Logger
	tmpl          map[string]*template.Template
	agentForms    func(w http.ResponseWriter, r *http.Request) (string, string)
}

// New parses the pages' templates.
func New(d Deps) (*Pages, error) {
	if d.API == nil {
		return nil, errors.New("pages: Deps.API is nil")
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	p := &Pages{api: d.API, logID: d.LogID, adminToken: d.AdminToken, secureCookies: d.SecureCookies, logger: d.Logger,
		tmpl: map[string]*template.Template{}, agentForms: d.AgentForms, sessions: &sessions{byID: map[[32]byte]adminSession{}, now: d.Now}}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("pages: %w", err)
	}
	for _, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".html")
		if base == "layout" || base == "partials" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/partials.html", name)
		if err != nil {
			return nil, fmt.Errorf("pages: %w", err)
		}
		p.tmpl[base] = t
	}
	return p, nil
}

// Mount serves the pages on mux, by the patterns the package doc lists.
func (p *Pages) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET "+StylesheetPath, func(w http.ResponseWriter, r *http.Request) {
		secure(w.Header())
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Write(stylesheet)
	})
	for pattern, fn := range map[string]pageFunc{
		"GET /claims":                     p.claimSearch,
		"GET /claims/{id}":                p.claim,
		"GET /bundles/{hash}":             p.bundle,
		"GET /log":                        p.log,
		"GET /log/{index}":                p.receipt,
		"GET /library":                    p.catalogue,
		"GET /library/changes":            p.changes,
		"GET /library/entries/{revision}": p.entry,
		"GET /library/maps/{revision}":    p.libraryMap,
	} {
		mux.Handle(pattern, p.serve(func(_ http.ResponseWriter, r *http.Request) (page, error) { return fn(r) }))
	}
	mux.Handle("GET /agents/{id}", p.serve(p.agent))
	p.mountMemory(mux)
}

// A page is what a pageFunc renders: its template, its title and the
// data the template reads.
type page struct {
	template string
	title    string
	data     any
	redirect string // where a form's answer sends the browser instead
	// script says the page loads the node's own scripts (the agent page's
	// pairing script): its policy allows script-src 'self', never inline.
	script bool
	// formsTo is another origin the page's forms lead to, by the node's
	// redirect (the vouch form's GitHub sign-in): form-action allows it,
	// since a browser holds a form's redirects to the same policy.
	formsTo string
}

// pageFunc computes one page, or the error the page answers instead.
type pageFunc func(r *http.Request) (page, error)

// pageError is a refusal as a page shows it: the API's status, code and
// message, and a hint of where to go instead.
type pageError struct {
	Status  int
	Code    string
	Message string
	Hint    string
	// Local is a refusal of a page's own, such as a form's stale CSRF
	// token, that no API route answers.
	Local bool
	cause error
}

func (e *pageError) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%d %s: %s: %v", e.Status, e.Code, e.Message, e.cause)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

func (e *pageError) Unwrap() error { return e.cause }

// hinted gives err, when it is a refusal, the hint a person reads below
// its message.
func hinted(err error, hint string) error {
	var pe *pageError
	if errors.As(err, &pe) && pe.Hint == "" {
		pe.Hint = hint
	}
	return err
}

// secure sets the headers every page answer carries.
func secure(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
}

// layoutData is what the layout reads around a page's own data.
type layoutData struct {
	Title string
	LogID string
	Page  any
	Error *pageError
}

// serve adapts fn to an http.Handler: it renders fn's page, or an error
// page with the refusal's status, code and message, and a failure of the
// node's as a 500 page whose cause goes only to the log.
func (p *Pages) serve(fn func(w http.ResponseWriter, r *http.Request) (page, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pg, err := fn(w, r)
		p.render(w, r, pg, err)
	})
}

// render answers with pg, or with the error page err says: a refusal's
// status, code and message, or a failure of the node's as a 500 page
// whose cause goes only to the log. A page with a redirect answers 303
// See Other to it, as a form's answer does.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, pg page, err error) {
	if err == nil && pg.redirect != "" {
		secure(w.Header())
		http.Redirect(w, r, pg.redirect, http.StatusSeeOther)
		return
	}
	status := http.StatusOK
	data := layoutData{Title: pg.title, LogID: p.logID, Page: pg.data}
	if err != nil {
		var pe *pageError
		if !errors.As(err, &pe) {
			if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
				return
			}
			pe = &pageError{Status: http.StatusInternalServerError, Code: "internal", Message: "The node failed to answer; try again later", cause: err}
		}
		level := slog.LevelDebug
		if pe.Status >= 500 {
			level = slog.LevelError
		}
		p.logger.Log(r.Context(), level, "page refused", "path", r.URL.Path, "status", pe.Status, "code", pe.Code, "err", err)
		status, pg.template = pe.Status, "error"
		data.Title, data.Error, data.Page = http.StatusText(pe.Status), pe, nil
	}
	var buf bytes.Buffer
	if err := p.tmpl[pg.template].Execute(&buf, data); err != nil {
		p.logger.Error("page failed to render", "path", r.URL.Path, "template", pg.template, "err", err)
		buf.Reset()
		status = http.StatusInternalServerError
		data = layoutData{Title: "Internal error", LogID: p.logID, Error: &pageError{Status: status, Code: "internal", Message: "The node failed to render this page; try again later"}}
		p.tmpl["error"].Execute(&buf, data)
	}
	secure(w.Header())
	if pg.script && status == http.StatusOK {
		w.Header().Set("Content-Security-Policy", scriptCSP(pg.formsTo))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status == http.StatusOK && w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// obj is a JSON object as the API answered it, numbers kept as written.
type obj = map[string]any

// get reads path from the API with query (its empty values left out), as
// the request r's client would, and returns the answer as a JSON object,
// or the API's refusal as a *pageError.
func (p *Pages) get(r *http.Request, path string, query url.Values) (obj, error) {
	return p.object(r, apiCall{method: http.MethodGet, path: path, query: query})
}

// object runs c on the API in-process and returns its answer as a JSON
// object, or the API's refusal as a *pageError.
func (p *Pages) object(r *http.Request, c apiCall) (obj, error) {
	body, err := p.call(r, c, 4<<20)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var out obj
	if err := d.Decode(&out); err != nil {
		return nil, fmt.Errorf("pages: %s %s answered something other than a JSON object: %w", c.method, c.path, err)
	}
	return out, nil
}

// fetch runs GET path?query on the API in-process and returns the body of
// a 2xx answer, up to limit bytes, or the refusal.
func (p *Pages) fetch(r *http.Request, path string, query url.Values, limit int) ([]byte, error) {
	return p.call(r, apiCall{method: http.MethodGet, path: path, query: query}, limit)
}

// apiCall is one request a page makes of the API: a method, a path and
// its query, the JSON body it sends and the bearer token, if any.
type apiCall struct {
	method, path string
	query        url.Values
	body         []byte
	token        string
}

// call runs c on the API in-process and returns the body of a 2xx
// answer, up to limit bytes, or the refusal.
func (p *Pages) call(r *http.Request, c apiCall, limit int) ([]byte, error) {
	path := c.path
	u := path
	if q := nonEmpty(c.query).Encode(); q != "" {
		u += "?" + q
	}
	req, err := http.NewRequestWithContext(r.Context(), c.method, u, bytes.NewReader(c.body))
	if err != nil {
		return nil, &pageError{Status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf("%.200q is not an address this node can read", path), cause: err}
	}
	req.RemoteAddr = r.RemoteAddr
	req.Host = r.Host
	req.Header.Set("Accept", "application/json")
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	rec := &httpapi.Capture{Limit: limit}
	p.api.ServeHTTP(rec, req)
	status := rec.Code()
	if status >= 200 && status < 300 {
		if rec.Over {
			return nil, &pageError{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: fmt.Sprintf("%s %s answers more than %d bytes, more than a page shows: read it from the API", c.method, path, limit)}
		}
		return rec.Body.Bytes(), nil
	}
	var e struct{ Error, Code string }
	if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Code == "" {
		e.Error, e.Code = fmt.Sprintf("%s %s answered %d", c.method, path, status), "internal"
	}
	return nil, &pageError{Status: status, Code: e.Code, Message: e.Error}
}

// nonEmpty is q without its empty values, as a form sends every field.
func nonEmpty(q url.Values) url.Values {
	out := url.Values{}
	for k, vs := range q {
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				out.Add(k, v)
			}
		}
	}
	return out
}
