// Package standins runs, on loopback, the outside services a person's
// side of identity needs (spec/ledger-protocol.md, "Identity"), for tests:
// GitHub's OAuth web flow with the API's GET /user, and an SMTP server
// that keeps the mail it receives. They speak the real protocols, so the
// node's own code (its OAuth client, net/smtp) talks to them as it would
// to GitHub and a mail server.
package standins

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The OAuth app the GitHub stand-in knows.
const (
	ClientID     = "Iv1.agora-test"
	ClientSecret = "test-secret-0123456789"
)

// GitHub stands in for github.com's OAuth web flow and the API's GET /user:
// the authorize page signs in the account SignInAs named and sends the
// browser back with a code, the token endpoint trades the code (once, with
// the app's secret) for a token, and /user reads the token's account.
type GitHub struct {
	*httptest.Server
	mu     sync.Mutex // guards what follows
	next   Account
	codes  map[string]Account
	tokens map[string]Account
	n      int
}

// Account is a GitHub account as /user shows it.
type Account struct {
	ID      int64
	Login   string
	Created time.Time
}

// StartGitHub starts the stand-in, closed when the test ends.
func StartGitHub(t testing.TB) *GitHub {
	t.Helper()
	g := &GitHub{codes: map[string]Account{}, tokens: map[string]Account{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login/oauth/authorize", g.authorize)
	mux.HandleFunc("POST /login/oauth/access_token", g.token)
	mux.HandleFunc("GET /user", g.user)
	g.Server = httptest.NewServer(mux)
	t.Cleanup(g.Close)
	return g
}

// SignInAs makes the next sign-in the account's.
func (g *GitHub) SignInAs(a Account) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.next = a
}

// Endpoints returns the authorize, token and user URLs.
func (g *GitHub) Endpoints() (authorize, token, user string) {
	return g.URL + "/login/oauth/authorize", g.URL + "/login/oauth/access_token", g.URL + "/user"
}

func (g *GitHub) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != ClientID || q.Get("state") == "" || q.Get("redirect_uri") == "" {
		http.Error(w, "bad authorize request", http.StatusBadRequest)
		return
	}
	g.mu.Lock()
	g.n++
	code := "code" + strconv.Itoa(g.n)
	g.codes[code] = g.next
	g.mu.Unlock()
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+url.Values{"code": {code}, "state": {q.Get("state")}}.Encode(), http.StatusFound)
}

func (g *GitHub) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	g.mu.Lock()
	defer g.mu.Unlock()
	who, ok := g.codes[r.PostForm.Get("code")]
	delete(g.codes, r.PostForm.Get("code"))
	w.Header().Set("Content-Type", "application/json")
	if r.PostForm.Get("client_id") != ClientID || r.PostForm.Get("client_secret") != ClientSecret || !ok {
		io.WriteString(w, `{"error":"bad_verification_code"}`)
		return
	}
	g.n++
	token := "gho_" + strconv.Itoa(g.n)
	g.tokens[token] = who
	fmt.Fprintf(w, `{"access_token":%q,"token_type":"bearer","scope":""}`, token)
}

func (g *GitHub) user(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	who, ok := g.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
	g.mu.Unlock()
	if !ok {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	body, _ := json.Marshal(map[string]any{"login": who.Login, "id": who.ID, "type": "User", "created_at": who.Created.UTC().Format(time.RFC3339)})
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// SMTP is a loopback SMTP server (RFC 5321's minimum: no extensions) that
// keeps what it receives.
type SMTP struct {
	ln   net.Listener
	msgs chan Mail
}

// Mail is one message the server received.
type Mail struct {
	From, To, Data string
}

// StartSMTP starts the server, closed when the test ends.
func StartSMTP(t testing.TB) *SMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SMTP{ln: ln, msgs: make(chan Mail, 16)}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { s.serve(conn) })
		}
	})
	return s
}

// Addr is the server's host:port.
func (s *SMTP) Addr() string { return s.ln.Addr().String() }

func (s *SMTP) serve(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReader(conn)
	reply := func(line string) { io.WriteString(conn, line+"\r\n") }
	reply("220 sink.test ESMTP")
	var m Mail
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			reply("250 sink.test")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			m.From = strings.Trim(strings.TrimSpace(line)[len("MAIL FROM:"):], "<>")
			reply("250 OK")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			m.To = strings.Trim(strings.TrimSpace(line)[len("RCPT TO:"):], "<>")
			reply("250 OK")
		case cmd == "DATA":
			reply("354 go ahead")
			data, ok := readData(r)
			if !ok {
				return
			}
			m.Data = data
			s.msgs <- m
			m = Mail{}
			reply("250 queued")
		case cmd == "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not here")
		}
	}
}

// readData reads a message up to its lone ".", undoing dot-stuffing.
func readData(r *bufio.Reader) (string, bool) {
	var b strings.Builder
	for {
		l, err := r.ReadString('\n')
		if err != nil {
			return "", false
		}
		if l == ".\r\n" {
			return b.String(), true
		}
		b.WriteString(strings.TrimPrefix(l, "."))
	}
}

// Next returns the next message the server received, failing the test if
// none comes within a minute (a hang guard, not a measure of speed).
func (s *SMTP) Next(t testing.TB) Mail {
	t.Helper()
	select {
	case m := <-s.msgs:
		return m
	case <-time.After(time.Minute):
		t.Fatal("no mail reached the SMTP server")
		return Mail{}
	}
}
