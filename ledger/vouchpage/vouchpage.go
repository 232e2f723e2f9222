// Package vouchpage serves the pages where a person vouches for their
// agent and confirms its place in their account (spec/ledger-protocol.md,
// "Identity"): the forms of the agent's page at the pairing link's path,
// /agents/{id} (the node's pages render it and embed the forms, with
// FormToken's token), which ask "Is this your agent?" and sign the person
// in with GitHub (the OAuth web flow, its endpoints configurable so a
// stand-in serves tests);
// the link an account request mails opens /accounts/confirm/{token};
// /agents/{id}/recovery is where the person who vouched approves the
// agent's new key, signing in with the same GitHub account.
//
// The pages are plain html/template, readable without JavaScript. The
// pairing code follows # in the link, which browsers never send, so the
// form asks for it; /vouch/pairing.js, the one script, served from the node
// itself (no inline script, so the Content-Security-Policy allows only
// 'self'), fills it in from the fragment. Every form carries a CSRF token
// bound to a session cookie (HttpOnly, SameSite=Lax so the sign-in's
// return from GitHub keeps it, Secure behind TLS), and the OAuth state
// binds the sign-in to that session.
//
// A card vouch needs a payment provider, which this node has none of: the
// page says so, and no paid path is faked.
package vouchpage

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/store"
)

// GitHub is the OAuth app a person signs in with. An empty ClientID means
// the node has none, and its pages say so.
type GitHub struct {
	AuthorizeURL string // https://github.com/login/oauth/authorize
	TokenURL     string // https://github.com/login/oauth/access_token
	UserURL      string // https://api.github.com/user
	ClientID     string
	ClientSecret string
	// Client makes the token and user requests; nil means a client with
	// a 10-second timeout.
	Client *http.Client
}

// The endpoints of github.com, the defaults of agora serve's flags.
const (
	DefaultAuthorizeURL = "https://github.com/login/oauth/authorize"
	DefaultTokenURL     = "https://github.com/login/oauth/access_token"
	DefaultUserURL      = "https://api.github.com/user"
)

// Config is what the pages need to know of the node.
type Config struct {
	GitHub GitHub
	// PublicURL is the node's address as people reach it, which the
	// sign-in's redirect_uri names; empty means the address each request
	// came to. An https address makes the session cookie Secure.
	PublicURL string
}

// Deps are the node's calls the pages use.
type Deps struct {
	Operator       func(ctx context.Context, id string) (store.Operator, error)
	Vouch          func(ctx context.Context, v ledgerhttp.VouchRequest) (ledgerhttp.VouchResult, error)
	WatchDomain    func(ctx context.Context, operator, domain, pairing string) (ledgerhttp.DomainResult, error)
	AccountRequest func(ctx context.Context, token string) (ledgerhttp.Account, error)
	ConfirmAccount func(ctx context.Context, token string) (ledgerhttp.Account, error)
	// RecoveryRequests and ApproveRecovery are the vouched recoveries
	// waiting for the person who vouched, and their approval.
	RecoveryRequests func(ctx context.Context, operator string) ([]ledgerhttp.WaitingRecovery, error)
	ApproveRecovery  func(ctx context.Context, a ledgerhttp.RecoveryApproval) (ledgerhttp.WaitingRecovery, error)
	// Take takes a slot of a rate limit, as store.Store's Take does.
	Take   func(ctx context.Context, bucket string, limit int, window time.Duration, now time.Time) (bool, time.Duration, error)
	Logger *slog.Logger
	Now    func() time.Time
}

// The sign-in's bounds: how long a person has at GitHub, and how many
// sign-ins may be under way at once (each holds a pairing code in memory).
const (
	signInLifetime = 10 * time.Minute
	maxSignIns     = 10000
	sessionCookie  = "agora_session"
)

// Pages are the mounted pages.
type Pages struct{ p *pages }

// FormToken returns the CSRF token the forms of a page served to r must
// carry, setting the session cookie it is bound to when r has none.
func (pp *Pages) FormToken(w http.ResponseWriter, r *http.Request) string {
	return pp.p.csrf(pp.p.session(w, r))
}

// pages serves the routes; signIns are the sign-ins under way by OAuth
// state, guarded by mu.
type pages struct {
	cfg     Config
	d       Deps
	csrfKey []byte
	mu      sync.Mutex
	signIns map[string]signIn
}

// signIn is a person on their way to GitHub and back.
type signIn struct {
	session  string
	operator string
	pairing  string
	approve  string // the new key's digest, for a sign-in that approves a recovery
	expires  time.Time
}

// Mount serves the pages on mux.
func Mount(mux *http.ServeMux, cfg Config, d Deps) *Pages {
	key := make([]byte, 32)
	rand.Read(key)
	if cfg.GitHub.Client == nil {
		cfg.GitHub.Client = &http.Client{Timeout: 10 * time.Second}
	}
	p := &pages{cfg: cfg, d: d, csrfKey: key, signIns: map[string]signIn{}}
	mux.Handle("POST /agents/{id}/vouch", p.page(p.startVouch))
	mux.Handle("POST /agents/{id}/vouch/card", p.page(p.cardVouch))
	mux.Handle("POST /agents/{id}/domain", p.page(p.domain))
	mux.Handle("GET /agents/{id}/recovery", p.page(p.recovery))
	mux.Handle("POST /agents/{id}/recovery/approve", p.page(p.startApproval))
	mux.Handle("GET /vouch/github/callback", p.page(p.callback))
	mux.Handle("GET /vouch/pairing.js", http.HandlerFunc(servePairingScript))
	mux.Handle("GET /accounts/confirm/{token}", p.page(p.account))
	mux.Handle("POST /accounts/confirm/{token}", p.page(p.confirm))
	return &Pages{p}
}

// view is one page to render: its template and data, and its status.
type view struct {
	status   int
	template string
	data     map[string]any
	redirect string // a 303 to here instead of a page
}

// problem is a page that says what went wrong and what to do.
func problem(status int, title, what string) view {
	return view{status: status, template: "problem", data: map[string]any{"Title": title, "What": what}}
}

// page adapts a page function: it keeps the session cookie, sets the
// security headers, and renders the view. Bad input answers a problem
// page, never a 500; an error the function did not expect is logged and
// answers a 500 page without its cause.
func (p *pages) page(fn func(w http.ResponseWriter, r *http.Request, session string) view) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		session := p.session(w, r)
		v := fn(w, r, session)
		h := w.Header()
		h.Set("Content-Security-Policy", p.csp())
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if v.redirect != "" {
			http.Redirect(w, r, v.redirect, http.StatusSeeOther)
			return
		}
		if v.data == nil {
			v.data = map[string]any{}
		}
		v.data["CSRF"] = p.csrf(session)
		render(w, p.d.Logger, v)
	})
}

// csp is the pages' Content-Security-Policy: nothing but the node's own
// script, and forms that post to the node (which sends the person on to
// GitHub's sign-in).
func (p *pages) csp() string {
	formAction := "'self'"
	if u, err := url.Parse(p.cfg.GitHub.AuthorizeURL); err == nil && u.Scheme != "" && u.Host != "" {
		formAction += " " + u.Scheme + "://" + u.Host
	}
	return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action " + formAction + "; base-uri 'none'; frame-ancestors 'none'"
}

// session returns the browser's session, setting a new cookie when it has
// none: 32 random bytes, HttpOnly, SameSite=Lax, Secure behind TLS.
func (p *pages) session(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(sessionCookie); err == nil && len(c.Value) == 43 {
		return c.Value
	}
	b := make([]byte, 32)
	rand.Read(b)
	v := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: v, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: r.TLS != nil || strings.HasPrefix(p.cfg.PublicURL, "https://"), MaxAge: 24 * 3600,
	})
	return v
}

// csrf is the token a session's forms carry: an HMAC of the session, so a
// page on another site, which can neither read the cookie nor this page,
// cannot post the form.
func (p *pages) csrf(session string) string {
	m := hmac.New(sha256.New, p.csrfKey)
	m.Write([]byte("csrf\x00" + session))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// checkForm reads a posted form and checks its CSRF token.
func (p *pages) checkForm(r *http.Request, session string) (view, bool) {
	r.Body = http.MaxBytesReader(nil, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		return problem(http.StatusBadRequest, "That form could not be read", "Go back, reload the page and send the form again."), false
	}
	if !hmac.Equal([]byte(r.PostForm.Get("csrf")), []byte(p.csrf(session))) {
		return problem(http.StatusForbidden, "This form has expired",
			"The form did not come from this page in this browser, or its session ended. Reload the page and send it again."), false
	}
	return view{}, true
}

// base is the node's URL as the person reached it.
func (p *pages) base(r *http.Request) string { return httpapi.BaseURL(p.cfg.PublicURL, r) }

// operator reads the {id} of the path: a problem page for what is not an
// operator ID or is no operator here.
func (p *pages) operator(r *http.Request) (store.Operator, view, bool) {
	id := r.PathValue("id")
	op, err := p.d.Operator(r.Context(), id)
	if err == nil {
		return op, view{}, true
	}
	if errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(id, "op:") || len(id) != 67 {
		return store.Operator{}, problem(http.StatusNotFound, "No such agent",
			"No agent on this node has the ID in this link. Check that you copied the whole link your agent sent you."), false
	}
	p.d.Logger.Error("reading an operator for its page", "operator", id, "err", err)
	return store.Operator{}, problem(http.StatusInternalServerError, "Something went wrong", "The node could not read this agent's record. Try again in a minute."), false
}
