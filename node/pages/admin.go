package pages

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sync"
	"time"
)

// The admin's sign-in: the memory pages are the node's admin's only. A
// person signs in by pasting the admin token (the one agora admin reads
// from the data folder), which starts a session kept in the node's memory
// for sessionTTL: a cookie, HttpOnly, SameSite=Strict, Secure when the
// request came over TLS and sent only under /memory, and a CSRF token of
// the session's own that every form carries and every POST must return.
// The sign-in form itself carries a token that must match a cookie the
// form's page set, so no other site can sign a browser in. A restart of
// the node ends every session.

const (
	sessionCookie = "agora_admin"
	signInCookie  = "agora_signin"
	cookiePath    = "/memory"
	sessionTTL    = 12 * time.Hour
	maxSessions   = 64
	maxFormBytes  = 64 << 10
)

// adminSession is one signed-in browser.
type adminSession struct {
	csrf    string
	expires time.Time
}

// sessions are the signed-in browsers, by the SHA-256 of their cookie, so
// the map holds no cookie a memory dump would give away.
type sessions struct {
	mu   sync.Mutex
	byID map[[32]byte]adminSession
	now  func() time.Time
}

// randomToken is 32 random bytes in hex.
func randomToken() string {
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// start makes a session and returns its cookie value.
func (s *sessions) start() (string, adminSession) {
	id := randomToken()
	sess := adminSession{csrf: randomToken(), expires: s.now().Add(sessionTTL)}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var oldest [32]byte
	var oldestAt time.Time
	for k, v := range s.byID {
		if now.After(v.expires) {
			delete(s.byID, k)
		} else if oldestAt.IsZero() || v.expires.Before(oldestAt) {
			oldest, oldestAt = k, v.expires
		}
	}
	if len(s.byID) >= maxSessions {
		delete(s.byID, oldest)
	}
	s.byID[sha256.Sum256([]byte(id))] = sess
	return id, sess
}

// of returns the session r's cookie names, if it is live.
func (s *sessions) of(r *http.Request) (adminSession, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return adminSession{}, false
	}
	key := sha256.Sum256([]byte(c.Value))
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.byID[key]
	if ok && s.now().After(sess.expires) {
		delete(s.byID, key)
		return adminSession{}, false
	}
	return sess, ok
}

// end forgets the session r's cookie names.
func (s *sessions) end(r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		s.mu.Lock()
		delete(s.byID, sha256.Sum256([]byte(c.Value)))
		s.mu.Unlock()
	}
}

// sameToken compares two secrets in constant time, whatever their lengths.
func sameToken(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1 && a != ""
}

// cookie is a cookie of the admin's pages: HttpOnly, SameSite=Strict,
// under /memory, Secure when r came over TLS or the node's public URL is
// https; maxAge < 0 deletes it.
func (p *Pages) cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: cookiePath, MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || p.secureCookies}
}

// The refusals of the admin's pages, which have no API route of their
// own to answer as: each is made anew, so no caller changes another's.
func errSignIn() error {
	return &pageError{Status: http.StatusUnauthorized, Code: "unauthorized", Local: true,
		Message: "Sign in first: the memory pages are the node's admin's only", Hint: "Sign in at /memory/sign-in with the node's admin token."}
}

func errCSRF() error {
	return &pageError{Status: http.StatusForbidden, Code: "csrf", Local: true,
		Message: "This form is stale or was sent from another page: its CSRF token does not match your session",
		Hint:    "Reload the page the form is on and send it again."}
}

func errToken() error {
	return &pageError{Status: http.StatusUnauthorized, Code: "unauthorized", Local: true,
		Message: "That is not the node's admin token",
		Hint:    "Paste the token the node keeps in its data folder as keys/admin.token, the one agora admin reads."}
}

func errForm() error {
	return &pageError{Status: http.StatusBadRequest, Code: "bad_request", Local: true,
		Message: "The form could not be read: send it from its page, up to 64 KiB",
		Hint:    "Reload the page the form is on and send it again."}
}

// form parses r's form, bounded, or refuses.
func form(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		return errForm()
	}
	return nil
}

// signInForm is GET /memory/sign-in: the form, with a token that must
// come back with the cookie it sets.
func (p *Pages) signInForm(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.sessions.of(r); ok {
		p.render(w, r, page{redirect: "/memory"}, nil)
		return
	}
	token := randomToken()
	w.Header().Set("Cache-Control", "no-store")
	http.SetCookie(w, p.cookie(r, signInCookie, token, 600))
	p.render(w, r, page{template: "signin", title: "Sign in", data: obj{"csrf": token}}, nil)
}

// signIn is POST /memory/sign-in: the admin token, checked in constant
// time, starts a session.
func (p *Pages) signIn(w http.ResponseWriter, r *http.Request) {
	if err := form(w, r); err != nil {
		p.render(w, r, page{}, err)
		return
	}
	c, err := r.Cookie(signInCookie)
	if err != nil || !sameToken(c.Value, r.PostForm.Get("csrf")) {
		p.render(w, r, page{}, errCSRF())
		return
	}
	if p.adminToken == "" || !sameToken(p.adminToken, r.PostForm.Get("token")) {
		p.logger.Info("admin sign-in refused", "remote", r.RemoteAddr)
		p.render(w, r, page{}, errToken())
		return
	}
	id, _ := p.sessions.start()
	http.SetCookie(w, p.cookie(r, signInCookie, "", -1))
	http.SetCookie(w, p.cookie(r, sessionCookie, id, int(sessionTTL/time.Second)))
	p.logger.Info("admin signed in", "remote", r.RemoteAddr)
	p.render(w, r, page{redirect: "/memory"}, nil)
}

// signOut is POST /memory/sign-out.
func (p *Pages) signOut(w http.ResponseWriter, r *http.Request, _ adminSession) (page, error) {
	p.sessions.end(r)
	http.SetCookie(w, p.cookie(r, sessionCookie, "", -1))
	return page{redirect: "/memory/sign-in"}, nil
}

// adminFunc computes one of the admin's pages for a live session.
type adminFunc func(w http.ResponseWriter, r *http.Request, s adminSession) (page, error)

// admin serves fn to a signed-in browser only. Without a session a GET
// goes to the sign-in page and a POST is refused (401); a POST must carry
// the session's CSRF token (else 403).
func (p *Pages) admin(fn adminFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		s, ok := p.sessions.of(r)
		switch {
		case !ok && r.Method == http.MethodGet:
			p.render(w, r, page{redirect: "/memory/sign-in"}, nil)
			return
		case !ok:
			p.render(w, r, page{}, errSignIn())
			return
		case r.Method == http.MethodPost:
			if err := form(w, r); err != nil {
				p.render(w, r, page{}, err)
				return
			}
			if !sameToken(s.csrf, r.PostForm.Get("csrf")) {
				p.render(w, r, page{}, errCSRF())
				return
			}
		}
		pg, err := fn(w, r, s)
		p.render(w, r, pg, err)
	})
}
