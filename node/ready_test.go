package node

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/translog"
)

// getJSON answers GET url's status, Content-Type and JSON object.
func getJSON(t *testing.T, url string) (int, string, map[string]any) {
	t.Helper()
	resp, body := callResponse(t, "GET", url, nil)
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

// TestReadiness checks GET /readyz on a node serving on loopback: 200
// while its store answers and its log reads back its newest entry, 503
// not_ready in the spec's error shape once the store is closed, while GET
// /healthz, the process being up, stays 200.
func TestReadiness(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	if status, ctype, body := getJSON(t, srv.URL+"/readyz"); status != http.StatusOK || ctype != "application/json" || body["status"] != "ok" || len(body) != 1 {
		t.Fatalf("GET /readyz on a new node: %d %s %v", status, ctype, body)
	}
	// With entries in the log, readiness reads the newest back.
	op := registerOperator(t, srv.URL, "Ready")
	if status, v := call(t, "POST", srv.URL+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": op.id}), "Authorization", adminToken(t, n)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	if n.log.Size() == 0 {
		t.Fatal("an invitation logged nothing")
	}
	if status, _, body := getJSON(t, srv.URL+"/readyz"); status != http.StatusOK || body["status"] != "ok" {
		t.Fatalf("GET /readyz with %d entries: %d %v", n.log.Size(), status, body)
	}

	if err := n.store.Close(); err != nil {
		t.Fatal(err)
	}
	status, ctype, body := getJSON(t, srv.URL+"/readyz")
	msg, _ := body["error"].(string)
	if status != http.StatusServiceUnavailable || ctype != "application/json" || body["code"] != "not_ready" || !strings.Contains(msg, "store") || len(body) != 2 {
		t.Fatalf("GET /readyz with the store closed: %d %s %v", status, ctype, body)
	}
	if strings.Contains(msg, "closed") || strings.Contains(msg, "sql") {
		t.Errorf("GET /readyz tells the client the cause %q: it belongs in the log", msg)
	}
	if status, _, body := getJSON(t, srv.URL+"/healthz"); status != http.StatusOK || body["status"] != "ok" || body["log_id"] != n.LogID() {
		t.Fatalf("GET /healthz with the store closed: %d %v", status, body)
	}
}

// TestReadinessLogClosed checks that GET /readyz answers 503 not_ready
// once the log is closed, and GET /healthz still 200.
func TestReadinessLogClosed(t *testing.T) {
	t.Parallel()
	cfg := Config{DataDir: dataDir(t), CheckpointInterval: translog.MinCheckpointInterval}
	if os.Getenv(stateEnv) == "postgres" {
		cfg.State = pgtest.SchemaDSN(t)
	}
	n, err := New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		// As Close, but for the log this test closes.
		srv.Close()
		n.stopLoops()
		n.loops.Wait()
		if err := n.store.Close(); err != nil {
			t.Errorf("close the store: %v", err)
		}
	})
	if status, _, body := getJSON(t, srv.URL+"/readyz"); status != http.StatusOK {
		t.Fatalf("GET /readyz on a new node: %d %v", status, body)
	}
	if err := n.log.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if status, _, body := getJSON(t, srv.URL+"/readyz"); status != http.StatusServiceUnavailable || body["code"] != "not_ready" || !strings.Contains(body["error"].(string), "log") {
		t.Fatalf("GET /readyz with the log closed: %d %v", status, body)
	}
	if status, _, body := getJSON(t, srv.URL+"/healthz"); status != http.StatusOK || body["status"] != "ok" {
		t.Fatalf("GET /healthz with the log closed: %d %v", status, body)
	}
}
