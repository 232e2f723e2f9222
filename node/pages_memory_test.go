package node

import (
	"crypto/tls"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	htmlpages "github.com/agora-node/agora/node/pages"
	"github.com/chromedp/chromedp"
)

// memoryPagesNode is a node whose memory holds one note, written by a
// session of project shop after its npm test failed, with injected
// markup in its title and words, then pushed into a failing tool result
// of a session of project blog, which applied its fix and passed. It
// returns the node's address, its admin token, the record's ref and the
// second session's handle.
func memoryPagesNode(t *testing.T) (base, admin, ref, pushedTo string) {
	t.Helper()
	n, srv := testNode(t)
	admin = memoryAdminToken(t, n)
	a := &agent{t: t, url: srv.URL, id: "claude", token: issueAdapter(t, srv.URL, admin, "claude")}
	fail := func(h string) map[string]any {
		return map[string]any{"session_handle": h, "tool_name": "Bash", "ok": false, "exit_code": 1, "error_tail": npmFailure, "command": "npm test"}
	}
	h1 := a.start("shop", nil)
	a.must("tool.result", fail(h1))
	note := goodNote(h1)
	note["title"] = "npm test fails with ERESOLVE " + injected
	note["content"].(map[string]any)["learned"] = "run npm install --legacy-peer-deps before the tests " + injected
	ref = a.must("note", note)["record_ref"].(string)
	a.must("tool.result", map[string]any{"session_handle": h1, "tool_name": "Bash", "ok": true, "command": "npm test"})
	a.must("session.end", map[string]any{"session_handle": h1, "reason": "exit"})

	pushedTo = a.start("blog", nil)
	if inj, _ := a.must("tool.result", fail(pushedTo))["inject"].(map[string]any); inj == nil {
		t.Fatal("the failure in project blog pushed nothing")
	}
	a.must("tool.result", map[string]any{"session_handle": pushedTo, "tool_name": "Bash", "ok": true, "command": "npm install --legacy-peer-deps"})
	a.must("tool.result", map[string]any{"session_handle": pushedTo, "tool_name": "Bash", "ok": true, "command": "npm test"})
	a.must("session.end", map[string]any{"session_handle": pushedTo, "reason": "exit"})
	return srv.URL, admin, ref, pushedTo
}

// TestMemoryPagesInBrowser drives headless Chromium through the memory
// pages: without a session they send the browser to the sign-in form;
// signed in with the admin token, the list shows the record, and the
// record's page its words as text (the injected markup never runs), its
// signals, and the receipts of the session it was pushed to, which read
// pushed, applied, used with success, and that the step passed. A
// correction is the record's next revision on the page and through the
// API; forgetting removes it from both; signing out ends the session.
func TestMemoryPagesInBrowser(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	base, admin, ref, pushedTo := memoryPagesNode(t)
	dir := artifacts(t)
	at := func() string { return eval[string](t, ctx, `location.pathname + location.search`) }
	safe := func(title string, pwned bool) {
		t.Helper()
		if pwned || title == "pwned" {
			t.Errorf("%s: injected markup ran (title %q, agoraPwned set %v)", at(), title, pwned)
		}
	}
	// submit runs actions that end by sending a form, and waits for the
	// page the form's answer loads.
	submit := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		resp, err := chromedp.RunResponse(ctx, actions...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if resp.Status != 200 {
			t.Fatalf("%s: the page answered %d", what, resp.Status)
		}
	}

	// The pages' sizes, for the report.
	c, _ := signedIn(t, base, admin)
	for _, path := range []string{"/memory", "/memory/records/" + ref} {
		resp, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-50s %d %6d bytes", path, resp.StatusCode, len(readAll(t, resp)))
	}

	visit(t, ctx, dir, "memory-signin", base+"/memory/records/"+ref)
	if p := at(); p != "/memory/sign-in" {
		t.Fatalf("a record's page without a session went to %s, want the sign-in form", p)
	}
	if text := eval[string](t, ctx, `document.body.textContent`); strings.Contains(text, "ERESOLVE") {
		t.Errorf("the sign-in page shows the record")
	}
	submit("signing in", chromedp.SendKeys(chromedp.CSS(`input[name=token]`), admin), chromedp.Click(chromedp.CSS(`form.stack button`)))
	if p := at(); p != "/memory" {
		t.Fatalf("signing in went to %s, want /memory", p)
	}
	safe(screenshot(t, ctx, dir, "memory"))
	if links := eval[[]string](t, ctx, `[...document.querySelectorAll('ol.items a')].map(a => a.getAttribute('href'))`); len(links) != 1 || links[0] != "/memory/records/"+ref {
		t.Errorf("the memory list links %v, want the one record", links)
	}

	safe(visit(t, ctx, dir, "memory-record", base+"/memory/records/"+ref))
	if h1 := eval[string](t, ctx, `document.querySelector('h1').textContent`); !strings.Contains(h1, injected) {
		t.Errorf("the record's title is not shown as the text it is: %q", h1)
	}
	if learned := eval[string](t, ctx, `document.querySelector('dl.words').textContent`); !strings.Contains(learned, injected) {
		t.Errorf("the record's words are not shown as the text they are: %q", learned)
	}
	runs := eval[[]string](t, ctx, `[...document.querySelectorAll('section.run')].map(s => s.textContent)`)
	var pushed string
	for _, r := range runs {
		if strings.Contains(r, pushedTo) {
			pushed = r
		}
	}
	if !strings.Contains(pushed, "pushed → applied → used success") || !strings.Contains(pushed, "the step passed after the fix was applied") ||
		!strings.Contains(pushed, "error signature") {
		t.Errorf("the receipts of the session the record was pushed to read %q, want its push (and why), the fix applied and the step passing", pushed)
	}
	if marks := eval[string](t, ctx, `document.querySelector('ul.marks').textContent`); !strings.Contains(marks, "used then passed: 1") {
		t.Errorf("the record's signals read %q", marks)
	}

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	visit(t, ctx, dir, "memory-record-phone", base+"/memory/records/"+ref)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 400 {
		t.Errorf("on a phone 390 wide the record's page is %d wide", w)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 900)); err != nil {
		t.Fatal(err)
	}

	corrected := "Install with --legacy-peer-deps, then rerun the tests; pin react 17 once react-dom 18 lands"
	submit("correcting", chromedp.SetValue(chromedp.CSS(`textarea[name=learned]`), corrected),
		chromedp.Click(chromedp.CSS(`form[action$="/correct"] button`)))
	safe(screenshot(t, ctx, dir, "memory-corrected"))
	if text := eval[string](t, ctx, `document.querySelector('dl.words').textContent`); !strings.Contains(text, corrected) {
		t.Errorf("the corrected record's page reads %q", text)
	}
	status, v := call(t, "GET", base+"/api/v1/admin/memory/records/"+ref, nil, "Authorization", "Bearer "+admin)
	if rec, _ := v.(map[string]any)["record"].(map[string]any); status != 200 || rec["revision"] != float64(2) || rec["content"].(map[string]any)["learned"] != corrected {
		t.Errorf("the API reads the corrected record as %d %v", status, v)
	}

	submit("forgetting", chromedp.Click(chromedp.CSS(`button.danger`)))
	if p := at(); !strings.HasPrefix(p, "/memory?forgot=") {
		t.Errorf("forgetting went to %s", p)
	}
	safe(screenshot(t, ctx, dir, "memory-forgot"))
	if n := eval[int](t, ctx, `document.querySelectorAll('ol.items a').length`); n != 0 {
		t.Errorf("the list still shows %d records after the forgetting", n)
	}
	if status, v := call(t, "GET", base+"/api/v1/admin/memory/records/"+ref, nil, "Authorization", "Bearer "+admin); status != 404 {
		t.Errorf("the API still reads the forgotten record: %d %v", status, v)
	}

	submit("signing out", chromedp.Click(chromedp.CSS(`form.signout button`)))
	visit(t, ctx, dir, "memory-signed-out", base+"/memory")
	if p := at(); p != "/memory/sign-in" {
		t.Errorf("after signing out /memory went to %s", p)
	}
}

// signedIn is an HTTP client signed in to base's memory pages with the
// admin token, and its session's CSRF token.
func signedIn(t *testing.T, base, admin string) (*http.Client, string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(base + "/memory/sign-in")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(base + "/memory")
	var login string
	for _, k := range jar.Cookies(u) {
		if k.Name == "agora_signin" {
			login = k.Value
		}
	}
	resp, err = c.PostForm(base+"/memory/sign-in", url.Values{"csrf": {login}, "token": {admin}})
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, resp)
	_, after, ok := strings.Cut(body, `name="csrf" value="`)
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/memory" || !ok {
		t.Fatalf("signing in: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	csrf, _, _ := strings.Cut(after, `"`)
	return c, csrf
}

// TestMemoryPagesSession checks the admin's session on the wire: the
// cookie is HttpOnly, SameSite=Strict, sent only under /memory and Secure
// over TLS; a wrong admin token or a sign-in form from another page
// starts no session.
func TestMemoryPagesSession(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	admin := memoryAdminToken(t, n)
	behindProxy, _ := testNodeWith(t, Config{PublicURL: "https://agora.example.org"})
	signIn := func(n *Node, tlsOn bool, login, form, token string) *http.Response {
		req := httptest.NewRequest("POST", "/memory/sign-in", strings.NewReader(url.Values{"csrf": {form}, "token": {token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "agora_signin", Value: login})
		if tlsOn {
			req.TLS = &tls.ConnectionState{}
		}
		rec := httptest.NewRecorder()
		n.Handler().ServeHTTP(rec, req)
		return rec.Result()
	}
	for _, tc := range []struct {
		name        string
		n           *Node
		tls, secure bool
	}{{"over HTTP", n, false, false}, {"over TLS", n, true, true}, {"behind an https proxy", behindProxy, false, true}} {
		resp := signIn(tc.n, tc.tls, "abc", "abc", memoryAdminToken(t, tc.n))
		var session *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == "agora_admin" {
				session = c
			}
		}
		if resp.StatusCode != http.StatusSeeOther || session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode ||
			session.Path != "/memory" || session.Secure != tc.secure {
			t.Errorf("signing in %s: %d with session cookie %+v", tc.name, resp.StatusCode, session)
		}
	}
	for _, tc := range []struct {
		name               string
		login, form, token string
		status             int
	}{
		{"a wrong token", "abc", "abc", strings.Repeat("0", 64), http.StatusUnauthorized},
		{"the form from another page", "abc", "abd", admin, http.StatusForbidden},
		{"no sign-in token", "", "", admin, http.StatusForbidden},
	} {
		resp := signIn(n, false, tc.login, tc.form, tc.token)
		if resp.StatusCode != tc.status || len(resp.Cookies()) != 0 && resp.Cookies()[0].Name == "agora_admin" {
			t.Errorf("signing in with %s: %d, cookies %v; want %d and no session", tc.name, resp.StatusCode, resp.Cookies(), tc.status)
		}
	}

	// The admin's pages answer with the pages' CSP, run no script and
	// are never cached.
	c, _ := signedIn(t, srv.URL, admin)
	for i, path := range []string{"/memory/sign-in", "/memory", "/memory?q=npm", "/memory/records/lr_" + strings.Repeat("a", 26)} {
		client := c
		if i == 0 {
			client = http.DefaultClient // the form, before a session
		}
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp)
		h := resp.Header
		if h.Get("Content-Security-Policy") != htmlpages.CSP || h.Get("X-Frame-Options") != "DENY" || h.Get("Cache-Control") != "no-store" ||
			strings.Contains(body, "<script") || strings.Contains(body, "style=") {
			t.Errorf("GET %s: %d, CSP %q, frames %q, cache %q, or a script or inline style", path, resp.StatusCode,
				h.Get("Content-Security-Policy"), h.Get("X-Frame-Options"), h.Get("Cache-Control"))
		}
	}
}

// readAll reads and closes resp's body.
func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// memoryPageCase is a bad request to a memory page: made signed in or
// not, with the form it posts (its csrf the session's unless the form
// sets one), and the status and code the page answers with. A page that
// writes through an admin route (api, apiBody) must show that route's
// refusal, as badPage checks for the pages that read.
type memoryPageCase struct {
	name, method, path string
	signedIn           bool
	form               url.Values
	status             int
	code               string // for a 303, where it sends the browser
	api                string
	apiBody            []byte
}

// memoryBadPages runs the memory pages' rows of TestBadInput on base.
func memoryBadPages(t *testing.T, base, admin string) {
	zeros := "lr_" + strings.Repeat("a", 26)
	emptyWhat := url.Values{"title": {"a title"}, "what": {" "}, "why": {"w"}, "where": {"w"}, "learned": {"l"}}
	for _, tc := range []memoryPageCase{
		{"page: the memory without a session", "GET", "/memory", false, nil, 303, "/memory/sign-in", "", nil},
		{"page: a memory record without a session", "GET", "/memory/records/" + zeros, false, nil, 303, "/memory/sign-in", "", nil},
		{"page: forgetting without a session", "POST", "/memory/records/" + zeros + "/forget", false, url.Values{"csrf": {"x"}}, 401, "unauthorized", "", nil},
		{"page: forgetting with a bad CSRF token", "POST", "/memory/records/" + zeros + "/forget", true, url.Values{"csrf": {"forged"}}, 403, "csrf", "", nil},
		{"page: correcting with no CSRF token", "POST", "/memory/records/" + zeros + "/correct", true, url.Values{"csrf": {""}}, 403, "csrf", "", nil},
		{"page: signing out with a bad CSRF token", "POST", "/memory/sign-out", true, url.Values{"csrf": {"forged"}}, 403, "csrf", "", nil},
		{"page: an unknown memory record", "GET", "/memory/records/" + zeros, true, nil, 404, "not_found", "/api/v1/admin/memory/records/" + zeros, nil},
		{"page: forgetting an unknown record", "POST", "/memory/records/" + zeros + "/forget", true, url.Values{}, 404, "not_found", "/api/v1/admin/memory/records/" + zeros, nil},
		{"page: correcting with an empty what", "POST", "/memory/records/" + zeros + "/correct", true, emptyWhat, 422, "schema_invalid",
			"/api/v1/admin/memory/records/" + zeros + "/correct", mustJSON(t, map[string]any{"title": "a title", "content": map[string]any{"what": " ", "why": "w", "where": "w", "learned": "l"}})},
	} {
		t.Run(tc.name, func(t *testing.T) { memoryBadPage(t, base, admin, tc) })
	}
}

func memoryBadPage(t *testing.T, base, admin string, tc memoryPageCase) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{}
	if tc.signedIn {
		var csrf string
		c, csrf = signedIn(t, base, admin)
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		form.Set("csrf", csrf)
	}
	for k, v := range tc.form {
		form[k] = v
	}
	var resp *http.Response
	var err error
	if tc.method == "GET" {
		resp, err = c.Get(base + tc.path)
	} else {
		resp, err = c.PostForm(base+tc.path, form)
	}
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(readAll(t, resp))
	if resp.StatusCode != tc.status {
		t.Fatalf("%s %s: %d, want %d\n%s", tc.method, tc.path, resp.StatusCode, tc.status, page)
	}
	if tc.status == http.StatusSeeOther {
		if loc := resp.Header.Get("Location"); loc != tc.code {
			t.Errorf("%s %s: to %q, want %q", tc.method, tc.path, loc, tc.code)
		}
		return
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(page, tc.code) || strings.Contains(page, "ERESOLVE") {
		t.Errorf("%s %s: %s without the code %q:\n%s", tc.method, tc.path, resp.Header.Get("Content-Type"), tc.code, page)
	}
	if tc.api == "" && strings.Contains(page, "The API answers") {
		t.Errorf("%s %s: a refusal of the page's own says the API answers it too:\n%s", tc.method, tc.path, page)
	}
	if tc.api != "" {
		method := "GET"
		switch {
		case tc.apiBody != nil:
			method = "POST"
		case tc.method == "POST":
			method = "DELETE"
		}
		status, v := call(t, method, base+tc.api, tc.apiBody, "Authorization", "Bearer "+admin)
		want, _ := v.(map[string]any)
		if status != tc.status || want["code"] != tc.code || !strings.Contains(page, want["error"].(string)) {
			t.Errorf("%s %s: the API answers %d %v, which the page (%d) does not show:\n%s", method, tc.api, status, v, resp.StatusCode, page)
		}
	}
}
