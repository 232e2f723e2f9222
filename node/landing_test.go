package node

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
)

// TestLandingAndHealth checks GET /, a plain page naming the node's log
// and the next commands, and GET /healthz, which answers the log's size
// and grows with it.
func TestLandingAndHealth(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{n.LogID(), "agora register", srv.URL + "/api/v1/log", "/healthz"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("GET / does not say %q:\n%s", want, page)
		}
	}

	size := func() float64 {
		resp, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		v, err := canonical.Parse(data)
		body, _ := v.(map[string]any)
		if resp.StatusCode != 200 || err != nil || body["status"] != "ok" || body["log_id"] != n.LogID() {
			t.Fatalf("GET /healthz: %d %s", resp.StatusCode, data)
		}
		return body["tree_size"].(float64)
	}
	before := size()
	op := registerOperator(t, srv.URL, "Health")
	// An invitation logs two entries: the operator's key, then its identity.
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": op.id}), "Authorization", adminToken(t, n)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	if after := size(); after != before+2 {
		t.Fatalf("tree_size %v after two entries, was %v", after, before)
	}
}
