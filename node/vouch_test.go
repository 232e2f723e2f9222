package node

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/internal/smtpmail"
	"github.com/agora-node/agora/internal/standins"
	"github.com/agora-node/agora/ledger/vouchpage"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// person is a browser: it keeps cookies and follows redirects.
type person struct {
	t *testing.T
	c *http.Client
}

func newPerson(t *testing.T) *person {
	jar, _ := cookiejar.New(nil)
	return &person{t: t, c: &http.Client{Jar: jar}}
}

func (p *person) get(u string) (*http.Response, string) {
	p.t.Helper()
	resp, err := p.c.Get(u)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (p *person) post(u string, form url.Values) (*http.Response, string) {
	p.t.Helper()
	resp, err := p.c.PostForm(u, form)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func formToken(t *testing.T, page string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the page:\n%s", page)
	}
	return m[1]
}

// vouchNode starts a node whose pages sign people in through the GitHub
// stand-in, and whose mail goes to a loopback SMTP server.
func vouchNode(t *testing.T) (*httptest.Server, *standins.GitHub, *standins.SMTP) {
	t.Helper()
	g, mail := standins.StartGitHub(t), standins.StartSMTP(t)
	authorize, token, user := g.Endpoints()
	_, srv := testNodeWith(t, Config{
		GitHubSignIn: vouchpage.GitHub{AuthorizeURL: authorize, TokenURL: token, UserURL: user, ClientID: standins.ClientID, ClientSecret: standins.ClientSecret},
		SMTP:         smtpmail.Sender{Addr: mail.Addr(), From: "agora@node.test"},
	})
	return srv, g, mail
}

// TestVouchFromPairingLink runs the spec's pairing flow end to end: the
// agent consents in advance to its pairing code; its person opens the
// agent's page, signs in with the GitHub stand-in and brings the code; the
// node logs the paired vouch at once, and the agent's record shows the
// identity. The entry on the log verifies: voucher_sig by the log's key,
// consent_sig by the agent's.
func TestVouchFromPairingLink(t *testing.T) {
	t.Parallel()
	srv, g, _ := vouchNode(t)
	o := registerOperator(t, srv.URL, "Paired Agent")
	code, _ := operators.NewPairingCode()
	consent := o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(code)})
	status, body := o.post(t, srv.URL, "vouch-consents", consent)
	wantAnswer(t, "a consent", status, body, 201, "")
	if body["state"] != "open" || body["pairing"] != operators.PairingDigest(code) {
		t.Fatalf("consent answer %v", body)
	}
	status, body = o.post(t, srv.URL, "vouch-consents", consent)
	wantAnswer(t, "the same consent again", status, body, 200, "")

	// The person follows the link: the page, its headers and its cookie.
	p := newPerson(t)
	resp, page := p.get(srv.URL + "/agents/" + o.id + "#" + code)
	if resp.StatusCode != 200 || !strings.Contains(page, "Is this your agent?") || !strings.Contains(page, "Paired Agent") {
		t.Fatalf("agent page: %d\n%s", resp.StatusCode, page)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if strings.Contains(page, "<script>") || !strings.Contains(page, `<script src="/vouch/pairing.js" defer></script>`) {
		t.Errorf("the page's scripts:\n%s", page)
	}
	cookie := resp.Header.Get("Set-Cookie")
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || strings.Contains(cookie, "Secure") {
		t.Errorf("session cookie over plain HTTP: %q", cookie)
	}
	if _, js := p.get(srv.URL + "/vouch/pairing.js"); !strings.Contains(js, "location.hash") {
		t.Errorf("pairing.js:\n%s", js)
	}

	// Claim with GitHub, with the code the page's field holds.
	g.SignInAs(standins.Account{ID: 9001, Login: "octo-person", Created: time.Now().AddDate(-2, 0, 0)})
	resp, page = p.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}, "pairing": {code}})
	if resp.StatusCode != 200 || !strings.Contains(page, "Done") || !strings.Contains(page, "github:9001") {
		t.Fatalf("after signing in: %d\n%s", resp.StatusCode, page)
	}

	// The agent's record shows the identity, logged.
	_, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil)
	id, _ := v.(map[string]any)["identity"].(map[string]any)
	if id["kind"] != "vouched" || id["organization"] != "github:9001" {
		t.Fatalf("record after the vouch: %v", v)
	}
	index := int64(id["index"].(float64))
	_, lv := call(t, "GET", srv.URL+"/api/v1/log", nil)
	logKey := lv.(map[string]any)["public_key"].(string)
	_, rv := call(t, "GET", srv.URL+"/api/v1/log/entries/"+itoa(uint64(index)), nil)
	receipt, err := tlog.ParseReceipt(mustJSON(t, rv))
	if err != nil || tlog.VerifyReceipt(receipt, logKey) != nil {
		t.Fatalf("receipt of the vouch: %v", err)
	}
	_, sv := call(t, "GET", srv.URL+"/api/v1/log/entries/"+itoa(uint64(index))+"/signed", nil)
	signed := sv.(map[string]any)["entry"].(map[string]any)
	if signed["pairing"] != operators.PairingDigest(code) || signed["consent_sig"] != consent["sig"] || signed["sig"] != nil {
		t.Fatalf("the logged vouch: %v", signed)
	}
	e, err := operators.CheckIdentityEntry(signed, o.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := operators.VerifyIdentityEntry(signed, e, operators.IdentityKeys{Operator: o.key.Public().String(), Log: logKey}); err != nil {
		t.Fatalf("the logged vouch does not verify: %v", err)
	}
	if receipt.Leaf["organization"] != "github:9001" || !protocol.MatchesLeafEntry(signed, receipt.Leaf["entry"].(map[string]any)) {
		t.Errorf("the vouch's leaf %v", receipt.Leaf)
	}

	// The code completed one identity: a second vouch with it waits.
	q := newPerson(t)
	_, page = q.get(srv.URL + "/agents/" + o.id)
	g.SignInAs(standins.Account{ID: 9002, Login: "someone-else", Created: time.Now().AddDate(-1, 0, 0)})
	_, page = q.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}, "pairing": {code}})
	if !strings.Contains(page, "waits for your agent") || !strings.Contains(page, "is used") {
		t.Errorf("a second vouch with a used code:\n%s", page)
	}
}

// TestVouchWaitsForAcceptance vouches without the pairing code: the vouch
// waits at GET .../vouches with the account's login until the agent
// countersigns it at the identity endpoint (accept_vouch). A GitHub
// account under 90 days old is refused.
func TestVouchWaitsForAcceptance(t *testing.T) {
	t.Parallel()
	srv, g, _ := vouchNode(t)
	o := registerOperator(t, srv.URL, "Waiting Agent")
	p := newPerson(t)

	_, page := p.get(srv.URL + "/agents/" + o.id)
	g.SignInAs(standins.Account{ID: 77, Login: "fresh-account", Created: time.Now().AddDate(0, 0, -10)})
	resp, refused := p.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}})
	if resp.StatusCode != 403 || !strings.Contains(refused, "90 days") {
		t.Fatalf("a 10-day-old account: %d\n%s", resp.StatusCode, refused)
	}

	g.SignInAs(standins.Account{ID: 4242, Login: "octo-later", Created: time.Now().AddDate(-3, 0, 0)})
	resp, page = p.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}})
	if resp.StatusCode != 200 || !strings.Contains(page, "octo-later") || !strings.Contains(page, "accept_vouch") {
		t.Fatalf("a vouch without the code: %d\n%s", resp.StatusCode, page)
	}
	_, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil)
	if v.(map[string]any)["identity"] != nil {
		t.Fatalf("a vouch without the code gave an identity at once: %v", v)
	}

	// The agent finds it by its person's login and countersigns it.
	_, v = call(t, "GET", srv.URL+"/api/v1/operators/"+o.id+"/vouches", nil)
	list := v.(map[string]any)["vouches"].([]any)
	if len(list) != 1 {
		t.Fatalf("vouches: %v", v)
	}
	waiting := list[0].(map[string]any)
	vouch := waiting["entry"].(map[string]any)
	if waiting["login"] != "octo-later" || vouch["voucher"] != "github:4242" || vouch["operator"] != o.id || vouch["sig"] != nil {
		t.Fatalf("the waiting vouch: %v", waiting)
	}
	forged := o.sign(t, map[string]any{"type": "identity", "kind": "vouched", "operator": o.id, "voucher": "github:1", "voucher_sig": vouch["voucher_sig"]})
	status, body := o.post(t, srv.URL, "identity", forged)
	wantAnswer(t, "a vouch the log did not attest", status, body, 422, "bad_signature")
	status, body = o.post(t, srv.URL, "identity", o.sign(t, vouch))
	wantAnswer(t, "accept_vouch", status, body, 201, "")
	if body["kind"] != "vouched" || body["organization"] != "github:4242" {
		t.Fatalf("accept_vouch answered %v", body)
	}
	status, body = o.post(t, srv.URL, "identity", o.sign(t, vouch))
	wantAnswer(t, "accept_vouch again", status, body, 200, "")
	_, v = call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil)
	if id, _ := v.(map[string]any)["identity"].(map[string]any); id["organization"] != "github:4242" {
		t.Fatalf("record after accept_vouch: %v", v)
	}
}

// TestAccountByMail asks to be listed in a person's account: the mail
// reaches the loopback SMTP server, its link shows the request without
// changing anything, and its form confirms it; the account then lists
// the person's agents.
func TestAccountByMail(t *testing.T) {
	t.Parallel()
	srv, _, mail := vouchNode(t)
	a := registerOperator(t, srv.URL, "Mailed Agent")
	b := registerOperator(t, srv.URL, "Second Agent")
	ask := func(o testOperator, email string) (int, map[string]any) {
		entry := o.sign(t, map[string]any{"type": "account_request", "operator": o.id, "email": email, "model_family": "claude", "model": "claude-test-1"})
		return o.post(t, srv.URL, "account", map[string]any{"entry": entry})
	}
	confirm := func(msg string) string {
		t.Helper()
		link := regexp.MustCompile(`http://\S+/accounts/confirm/[A-Za-z0-9_-]{43}`).FindString(msg)
		if link == "" {
			t.Fatalf("no link in the mail:\n%s", msg)
		}
		p := newPerson(t)
		resp, page := p.get(link)
		if resp.StatusCode != 200 || !strings.Contains(page, "List this agent in your account?") {
			t.Fatalf("the link's page: %d\n%s", resp.StatusCode, page)
		}
		resp, page = p.post(link, url.Values{"csrf": {formToken(t, page)}})
		if resp.StatusCode != 200 || !strings.Contains(page, "Your agents") {
			t.Fatalf("confirming: %d\n%s", resp.StatusCode, page)
		}
		return page
	}

	status, body := ask(a, "Person@Example.org")
	wantAnswer(t, "an account request", status, body, 202, "")
	if body["requested"] != true {
		t.Fatalf("account answer %v", body)
	}
	msg := mail.Next(t)
	if msg.To != "Person@Example.org" || !strings.Contains(msg.Data, "Subject: An agent asks to join your account") || !strings.Contains(msg.Data, a.id) {
		t.Fatalf("the mail: %+v", msg)
	}
	page := confirm(msg.Data)
	if !strings.Contains(page, a.id) || strings.Contains(page, b.id) {
		t.Errorf("the account after one agent:\n%s", page)
	}
	status, body = ask(b, "person@example.org")
	wantAnswer(t, "a second agent's request", status, body, 202, "")
	page = confirm(mail.Next(t).Data)
	if !strings.Contains(page, a.id) || !strings.Contains(page, b.id) || !strings.Contains(page, "Second Agent") {
		t.Errorf("the account after two agents:\n%s", page)
	}

	// At most 5 requests a day.
	for i := range 4 {
		status, body = ask(a, "person@example.org")
		wantAnswer(t, "request "+strconv.Itoa(i+2), status, body, 202, "")
		mail.Next(t)
	}
	status, body = ask(a, "person@example.org")
	wantAnswer(t, "a sixth request", status, body, 429, "rate_limited")
}

// TestVouchPagesBadInput sends the pages what a person, a stale tab or
// another site might: each gets a page that says what to do, with a 4xx
// status (501 for a card's vouch, which needs a payment provider), never
// a 500.
func TestVouchPagesBadInput(t *testing.T) {
	t.Parallel()
	srv, _, _ := vouchNode(t)
	o := registerOperator(t, srv.URL, "Guarded Agent")
	p := newPerson(t)
	_, page := p.get(srv.URL + "/agents/" + o.id)
	csrf := formToken(t, page)
	stranger := "op:" + strings.Repeat("ab", 32)
	token := strings.Repeat("A", 43)
	for _, tc := range []struct {
		name, method, path string
		form               url.Values
		raw                string // a body sent as is, for a form that can't be read
		status             int
		says               string
	}{
		{"not an operator ID", "GET", "/agents/op:1", nil, "", 400, "op: and 64 lowercase hex digits"},
		{"an unknown agent", "GET", "/agents/" + stranger, nil, "", 404, "Not found"},
		{"a vouch without the form's token", "POST", "/agents/" + o.id + "/vouch", url.Values{"pairing": {""}}, "", 403, "expired"},
		{"a vouch with another session's token", "POST", "/agents/" + o.id + "/vouch", url.Values{"csrf": {strings.Repeat("x", 43)}}, "", 403, "expired"},
		{"a vouch with a bad pairing code", "POST", "/agents/" + o.id + "/vouch", url.Values{"csrf": {csrf}, "pairing": {"pair:ABC"}}, "", 400, "not a pairing code"},
		{"a vouch for an unknown agent", "POST", "/agents/" + stranger + "/vouch", url.Values{"csrf": {csrf}}, "", 404, "No such agent"},
		{"a form that can't be read", "POST", "/agents/" + o.id + "/vouch", nil, "csrf=%zz", 400, "could not be read"},
		{"an oversized form", "POST", "/agents/" + o.id + "/vouch", nil, "csrf=" + strings.Repeat("a", 32<<10), 400, "could not be read"},
		{"a domain without the form's token", "POST", "/agents/" + o.id + "/domain", url.Values{"domain": {"example.org"}}, "", 403, "expired"},
		{"a domain that is no domain", "POST", "/agents/" + o.id + "/domain", url.Values{"csrf": {csrf}, "domain": {"not a domain"}, "pairing": {"pair:" + strings.Repeat("a", 32)}}, "", 422, "lowercase name"},
		{"a domain with a bad pairing code", "POST", "/agents/" + o.id + "/domain", url.Values{"csrf": {csrf}, "domain": {"example.org"}, "pairing": {"pair:1"}}, "", 400, "pairing code"},
		{"a card's vouch", "POST", "/agents/" + o.id + "/vouch/card", url.Values{"csrf": {csrf}}, "", 501, "payment provider"},
		{"a recovery page with a bad key", "GET", "/agents/" + o.id + "/recovery?key=sha256:XYZ", nil, "", 400, "not a key&#39;s digest"},
		{"a recovery page of an unknown agent", "GET", "/agents/" + stranger + "/recovery", nil, "", 404, "No such agent"},
		{"a recovery page with none waiting", "GET", "/agents/" + o.id + "/recovery", nil, "", 200, "No recovery of this agent waits"},
		{"a recovery page for a key none asked for", "GET", "/agents/" + o.id + "/recovery?key=sha256:" + strings.Repeat("0", 64), nil, "", 200, "has not sent it yet"},
		{"an approval without the form's token", "POST", "/agents/" + o.id + "/recovery/approve", url.Values{"key": {"sha256:" + strings.Repeat("0", 64)}}, "", 403, "expired"},
		{"an approval of no key", "POST", "/agents/" + o.id + "/recovery/approve", url.Values{"csrf": {csrf}, "key": {"abc"}}, "", 400, "not a key&#39;s digest"},
		{"an approval for an unknown agent", "POST", "/agents/" + stranger + "/recovery/approve", url.Values{"csrf": {csrf}, "key": {"sha256:" + strings.Repeat("0", 64)}}, "", 404, "No such agent"},
		{"a sign-in that never started", "GET", "/vouch/github/callback?state=nonesuch&code=abc", nil, "", 400, "expired"},
		{"a sign-in GitHub refused", "GET", "/vouch/github/callback?error=access_denied&state=x", nil, "", 400, "did not sign you in"},
		{"a cut account link", "GET", "/accounts/confirm/abc", nil, "", 404, "not one the node sent"},
		{"an unknown account link", "GET", "/accounts/confirm/" + token, nil, "", 404, "No such request"},
		{"confirming an unknown request", "POST", "/accounts/confirm/" + token, url.Values{"csrf": {csrf}}, "", 404, "No such request"},
		{"confirming without the form's token", "POST", "/accounts/confirm/" + token, url.Values{}, "", 403, "expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp *http.Response
			var body string
			switch {
			case tc.method == "GET":
				resp, body = p.get(srv.URL + tc.path)
			case tc.raw != "":
				r, err := p.c.Post(srv.URL+tc.path, "application/x-www-form-urlencoded", strings.NewReader(tc.raw))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(r.Body)
				r.Body.Close()
				resp, body = r, string(b)
			default:
				resp, body = p.post(srv.URL+tc.path, tc.form)
			}
			if resp.StatusCode != tc.status || !strings.Contains(body, tc.says) {
				t.Fatalf("%s %s: %d\n%s\nwant %d saying %q", tc.method, tc.path, resp.StatusCode, body, tc.status, tc.says)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" || resp.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}

	// Sign-ins count against the address: at most 60 an hour.
	p.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	limited := false
	for i := 0; i <= 60 && !limited; i++ {
		resp, body := p.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {csrf}})
		switch {
		case resp.StatusCode == 429 && strings.Contains(body, "Too many sign-ins"):
			limited = true
		case resp.StatusCode != 303:
			t.Fatalf("sign-in %d: %d\n%s", i, resp.StatusCode, body)
		}
	}
	if !limited {
		t.Error("61 sign-ins from one address in an hour were all let through")
	}

	// A node without a GitHub app says so, and refuses the vouch.
	_, bare := testNode(t)
	q := newPerson(t)
	b := registerOperator(t, bare.URL, "Unpaired Agent")
	_, page = q.get(bare.URL + "/agents/" + b.id)
	if !strings.Contains(page, "no GitHub sign-in set up") {
		t.Errorf("a page without GitHub:\n%s", page)
	}
	resp, page := q.post(bare.URL+"/agents/"+b.id+"/vouch", url.Values{"pairing": {""}})
	if resp.StatusCode != 503 || !strings.Contains(page, "not set up") {
		t.Errorf("a vouch without GitHub: %d\n%s", resp.StatusCode, page)
	}
}

// TestVouchCookieBehindTLS checks that the pages' session cookie is
// Secure when the node is reached over TLS.
func TestVouchCookieBehindTLS(t *testing.T) {
	t.Parallel()
	n, plain := testNodeWith(t, Config{})
	o := registerOperator(t, plain.URL, "Agent Behind TLS")
	srv := httptest.NewTLSServer(n.Handler())
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Get(srv.URL + "/agents/" + o.id)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookie := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != 200 || !strings.Contains(cookie, "; Secure") || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
		t.Errorf("over TLS: %d, cookie %q", resp.StatusCode, cookie)
	}
}

// TestDomainFromPairingLink has the person name a domain of theirs from
// the pairing link: the page shows the TXT record to add, the node watches
// for it and, once it appears, logs the domain as the agent's identity,
// completing the consent; the entry's voucher_sig and consent_sig verify.
// A record there already is logged at once.
func TestDomainFromPairingLink(t *testing.T) {
	t.Parallel()
	d := startDNS(t)
	n, srv := testNodeWith(t, Config{DNSResolver: d.addr})
	consented := func(name string) (testOperator, string, map[string]any) {
		o := registerOperator(t, srv.URL, name)
		code, _ := operators.NewPairingCode()
		consent := o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(code)})
		status, body := o.post(t, srv.URL, "vouch-consents", consent)
		wantAnswer(t, "a consent", status, body, 201, "")
		return o, code, consent
	}
	name := func(o testOperator, domain, code string) (int, string) {
		p := newPerson(t)
		_, page := p.get(srv.URL + "/agents/" + o.id)
		resp, page := p.post(srv.URL+"/agents/"+o.id+"/domain", url.Values{"csrf": {formToken(t, page)}, "domain": {domain}, "pairing": {code}})
		return resp.StatusCode, page
	}

	o, code, consent := consented("Domain Paired")
	if status, page := name(o, "lab.example.org", ""); status != 400 || !strings.Contains(page, "pairing code is needed") {
		t.Errorf("a domain without the code: %d\n%s", status, page)
	}
	if status, page := name(o, "co.uk", code); status != 422 || !strings.Contains(page, "public suffix") {
		t.Errorf("a public suffix: %d\n%s", status, page)
	}
	other, _ := operators.NewPairingCode()
	if status, page := name(o, "lab.example.org", other); status != 404 || !strings.Contains(page, "no consent") {
		t.Errorf("a code the agent never consented to: %d\n%s", status, page)
	}
	status, page := name(o, "lab.example.org", code)
	want := operators.ProofLine(o.keyDigest())
	if status != 200 || !strings.Contains(page, "_sciencejournal.lab.example.org") || !strings.Contains(page, want) {
		t.Fatalf("naming a domain: %d\n%s", status, page)
	}
	n.ledger.CheckDomainWatches(context.Background())
	if _, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil); v.(map[string]any)["identity"] != nil {
		t.Fatalf("an identity before the record appeared: %v", v)
	}
	d.set("_sciencejournal.lab.example.org", want)
	n.ledger.CheckDomainWatches(context.Background())
	_, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil)
	id, _ := v.(map[string]any)["identity"].(map[string]any)
	if id["kind"] != "domain" || id["organization"] != "example.org" {
		t.Fatalf("the record once the TXT record appeared: %v", v)
	}
	index := uint64(id["index"].(float64))
	_, lv := call(t, "GET", srv.URL+"/api/v1/log", nil)
	logKey := lv.(map[string]any)["public_key"].(string)
	_, sv := call(t, "GET", srv.URL+"/api/v1/log/entries/"+itoa(index)+"/signed", nil)
	signed := sv.(map[string]any)["entry"].(map[string]any)
	e, err := operators.CheckIdentityEntry(signed, o.id)
	if err != nil || e.Pairing != operators.PairingDigest(code) || signed["consent_sig"] != consent["sig"] || signed["sig"] != nil {
		t.Fatalf("the logged domain %v: %v", signed, err)
	}
	if err := operators.VerifyIdentityEntry(signed, e, operators.IdentityKeys{Operator: o.key.Public().String(), Log: logKey}); err != nil {
		t.Fatalf("the logged domain does not verify: %v", err)
	}
	// The consent is used: the same code again is refused.
	if status, page := name(o, "lab.example.org", code); status != 409 || !strings.Contains(page, "used") {
		t.Errorf("the code once used: %d\n%s", status, page)
	}

	// A record there already: logged at once.
	b, bcode, _ := consented("Domain Ready")
	d.set("_sciencejournal.ready.example.net", operators.ProofLine(b.keyDigest()))
	if status, page := name(b, "ready.example.net", bcode); status != 200 || !strings.Contains(page, "now counts as <strong>ready.example.net</strong>") {
		t.Fatalf("a domain whose record is there: %d\n%s", status, page)
	}
}

// TestConsentLimits checks the spec's limits on consents: only an
// operator's newest 10 stay open, and changing its key voids them; a vouch
// with such a code waits for the agent instead, and the page says why.
func TestConsentLimits(t *testing.T) {
	t.Parallel()
	srv, g, _ := vouchNode(t)
	o := registerOperator(t, srv.URL, "Many Links")
	var codes []string
	for range 11 {
		code, _ := operators.NewPairingCode()
		status, body := o.post(t, srv.URL, "vouch-consents", o.sign(t, map[string]any{"type": "vouch_consent", "operator": o.id, "pairing": operators.PairingDigest(code)}))
		wantAnswer(t, "a consent", status, body, 201, "")
		codes = append(codes, code)
	}
	vouchWith := func(code string, id int64) string {
		p := newPerson(t)
		_, page := p.get(srv.URL + "/agents/" + o.id)
		g.SignInAs(standins.Account{ID: id, Login: "person-" + strconv.FormatInt(id, 10), Created: time.Now().AddDate(-1, 0, 0)})
		_, page = p.post(srv.URL+"/agents/"+o.id+"/vouch", url.Values{"csrf": {formToken(t, page)}, "pairing": {code}})
		return page
	}
	if page := vouchWith(codes[0], 501); !strings.Contains(page, "waits for your agent") || !strings.Contains(page, "newest 10") {
		t.Errorf("the eleventh-newest code:\n%s", page)
	}

	// A new key voids the open consents.
	newKey, _ := hybrid.GenerateKey()
	rotation, _ := protocol.SignKeyRotation(o.id, newKey, o.key)
	if status, v := call(t, "POST", srv.URL+"/api/v1/operators/"+o.id+"/key", mustJSON(t, map[string]any{"entry": rotation})); status != http.StatusOK {
		t.Fatalf("rotate: %d %v", status, v)
	}
	if page := vouchWith(codes[10], 502); !strings.Contains(page, "waits for your agent") || !strings.Contains(page, "is void") {
		t.Errorf("a code consented to by the old key:\n%s", page)
	}
	if _, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id, nil); v.(map[string]any)["identity"] != nil {
		t.Errorf("a void consent gave an identity: %v", v)
	}
	_, v := call(t, "GET", srv.URL+"/api/v1/operators/"+o.id+"/vouches", nil)
	if n := len(v.(map[string]any)["vouches"].([]any)); n != 2 {
		t.Errorf("%d vouches wait, want the 2 whose codes did not count", n)
	}
}
