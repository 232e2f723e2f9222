package node

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/memory"
)

// TestUnroutedAnswers sends paths no route serves and methods a route does
// not take: each is answered in the error shape of the face its path
// belongs to, never as Go's plain text. Under /api/ and everywhere else
// that is the spec's {"error", "code"} (spec/ledger-protocol.md), 404
// not_found or 405 method_not_allowed with the Allow the routes give;
// under /v1/agent-ingress/ it is the memory contract's {"ok": false,
// "error": {"code", "message", "retryable"}}
// (memory/memory-agent-ingress-v1.schema.json), whose closed list of
// codes has not_found and, for a method, bad_request.
func TestUnroutedAnswers(t *testing.T) {
	t.Parallel()
	_, srv := testNode(t)
	digest := "sha256:" + strings.Repeat("ab", 32)
	for _, c := range []struct {
		method, path string
		status       int
		allow        string // for a 405
		memory       bool   // answered in the memory contract's envelope
	}{
		{"POST", "/", 405, "GET, HEAD", false},
		{"GET", "/index.html", 404, "", false},
		{"POST", "/healthz", 405, "GET, HEAD", false},
		{"GET", "/favicon.ico", 404, "", false},
		{"GET", "/api", 404, "", false},
		{"GET", "/api/", 404, "", false},
		{"GET", "/api/v1", 404, "", false},
		{"GET", "/api/v1/nothing", 404, "", false},
		{"GET", "/api/v2/log", 404, "", false},
		{"GET", "/api/entries/" + strings.Repeat("0", 64) + "/nothing", 404, "", false},
		{"GET", "/api/v1/operators/op:x/identity/more", 404, "", false},
		{"POST", "/api/v1/nothing", 404, "", false},
		{"GET", "/v1", 404, "", false},
		{"DELETE", "/api/v1/log", 405, "GET, HEAD", false},
		{"POST", "/api/v1/log/checkpoint", 405, "GET, HEAD", false},
		{"PUT", "/api/entries", 405, "POST", false},
		{"GET", "/api/entries", 405, "POST", false},
		{"DELETE", "/api/entries/" + strings.Repeat("0", 64), 405, "GET, HEAD", false},
		{"GET", "/api/v1/uploads/" + digest, 405, "PUT", false},
		{"POST", "/api/v1/files/" + digest, 405, "GET, HEAD", false},
		{"PATCH", "/api/v1/bundles", 405, "POST", false},
		{"GET", "/api/v1/admin/invitations", 405, "POST", false},
		{"POST", "/tlog/checkpoint", 405, "GET, HEAD", false},
		{"POST", "/claims", 405, "GET, HEAD", false},
		{"DELETE", "/library/entries/" + strings.Repeat("0", 64), 405, "GET, HEAD", false},
		{"GET", "/claims/claim:x/more", 404, "", false},
		{"GET", "/library/nothing", 404, "", false},
		{"GET", "/v1/agent-ingress/", 404, "", true},
		{"POST", "/v1/agent-ingress/claude-code", 404, "", true},
		{"POST", "/v1/agent-ingress/claude-code/events", 404, "", true},
		{"POST", "/v1/agent-ingress/claude-code/events/note/more", 404, "", true},
		{"GET", "/v1/agent-ingress/claude-code/events/note", 405, "POST", true},
		{"PUT", "/v1/agent-ingress/claude-code/events/note", 405, "POST", true},
	} {
		req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		what := c.method + " " + c.path
		if resp.StatusCode != c.status || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s: %d Allow %q, want %d Allow %q", what, resp.StatusCode, resp.Header.Get("Allow"), c.status, c.allow)
		}
		v, err := canonical.Parse(data)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || err != nil {
			t.Errorf("%s: %s %q is not JSON: %v", what, resp.Header.Get("Content-Type"), data, err)
			continue
		}
		body, _ := v.(map[string]any)
		if c.memory {
			e, _ := body["error"].(map[string]any)
			code := memory.CodeNotFound
			if c.status == 405 {
				code = memory.CodeBadRequest
			}
			if len(body) != 2 || body["ok"] != false || len(e) != 3 || e["code"] != code || e["retryable"] != false || e["message"] == "" {
				t.Errorf("%s: %s, want the memory contract's error %s", what, data, code)
			}
			continue
		}
		code := "not_found"
		if c.status == 405 {
			code = "method_not_allowed"
		}
		if msg, _ := body["error"].(string); len(body) != 2 || body["code"] != code || msg == "" {
			t.Errorf("%s: %s, want {\"error\", \"code\": %q}", what, data, code)
		}
	}

	// The routes themselves still answer, a redirect to a cleaned path
	// included.
	for path, want := range map[string]int{"/api/v1/log": 200, "/api/v1/log/checkpoint": 200, "/tlog/checkpoint": 200, "/api/contract": 200} {
		if status, v := call(t, "GET", srv.URL+path, nil); status != want {
			t.Errorf("GET %s: %d %v", path, status, v)
		}
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(srv.URL + "/api/v1//log")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != "/api/v1/log" {
		t.Errorf("GET /api/v1//log: %d to %q, want the mux's redirect to /api/v1/log", resp.StatusCode, resp.Header.Get("Location"))
	}
}
