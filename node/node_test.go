package node

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/translog"

	"golang.org/x/mod/sumdb/note"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog/mysqltest"
)

// testNode starts a node on loopback with its data in a temporary folder.
func testNode(t *testing.T) (*Node, *httptest.Server) {
	return testNodeWith(t, Config{})
}

// stateEnv, set to "postgres", has testNodeWith keep every node's state
// in PostgreSQL, in a schema of its own (pgtest), so the package's tests
// run on store/postgres:
//
//	AGORA_TEST_NODE_STATE=postgres AGORA_TEST_POSTGRES=postgres://... go test ./node
const stateEnv = "AGORA_TEST_NODE_STATE"

// logEnv, set to "mysql", has testNodeWith keep every node's log in MySQL,
// in a database of its own (mysqltest), so the package's tests run on
// Tessera's MySQL driver:
//
//	AGORA_TEST_NODE_LOG=mysql AGORA_TEST_MYSQL=mysql://... go test ./node
const logEnv = "AGORA_TEST_NODE_LOG"

// testNodeWith is testNode with more of the Config set.
func testNodeWith(t testing.TB, cfg Config) (*Node, *httptest.Server) {
	t.Helper()
	if cfg.State == "" && os.Getenv(stateEnv) == "postgres" {
		cfg.State = pgtest.SchemaDSN(t)
	}
	if cfg.Log == "" && os.Getenv(logEnv) == "mysql" {
		cfg.Log = mysqltest.URL(t)
	}
	return testNodeOn(t, cfg)
}

// testNodeOn is testNodeWith keeping the state cfg says, whatever
// AGORA_TEST_NODE_STATE says: for tests that read state.db's bytes.
func testNodeOn(t testing.TB, cfg Config) (*Node, *httptest.Server) {
	t.Helper()
	cfg.DataDir = dataDir(t)
	if cfg.CheckpointInterval == 0 && cfg.Log == "" {
		// Tests wait for checkpoints far more than for anything else.
		cfg.CheckpointInterval = translog.MinCheckpointInterval
	}
	return serveNode(t, cfg)
}

// serveNode starts the node cfg says, data folder and all, on loopback,
// closed when the test ends.
func serveNode(t testing.TB, cfg Config) (*Node, *httptest.Server) {
	t.Helper()
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	t.Cleanup(func() {
		srv.Close()
		if err := n.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return n, srv
}

// call sends a request and returns the status and the body parsed strictly.
func call(t testing.TB, method, url string, body []byte, header ...string) (int, any) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp.StatusCode, string(data)
	}
	v, err := canonical.Parse(data)
	if err != nil {
		t.Fatalf("%s %s answered with something other than I-JSON: %v\n%s", method, url, err, data)
	}
	return resp.StatusCode, v
}

func keyEntry(t testing.TB, key *hybrid.PrivateKey) map[string]any {
	t.Helper()
	entry := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}, "model": "claude-test-1"}
	if err := protocol.Sign(entry, key); err != nil {
		t.Fatal(err)
	}
	return entry
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := canonical.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRegisterInviteAndAudit registers operators, has the node invite them,
// and then audits the log as the reference monitor does, with the protocol
// core's verifiers rather than the node's code: the log ID, the tree head's
// signature, every receipt, every entry as signed against its leaf and its
// signer's key, a consistency proof from the first head to the last, and the
// checkpoint against the vkey the log published.
func TestRegisterInviteAndAudit(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	auth := []string{"Authorization", "Bearer " + string(token)}

	var ops []string
	var opKeys []*hybrid.PrivateKey
	var firstHead *tlog.TreeHead
	for i := range 3 {
		key, _ := hybrid.GenerateKey()
		body := mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": "Scout"})
		status, v := call(t, "POST", srv.URL+"/api/v1/operators", body)
		if status != http.StatusCreated {
			t.Fatalf("register: %d %v", status, v)
		}
		reg := v.(map[string]any)
		want := "Scout"
		if i > 0 {
			want = "Scout #" + string(rune('1'+i))
		}
		if reg["name"] != want || reg["status"] != "pending" || reg["operator"] != protocol.OperatorID(key.Public().String()) {
			t.Fatalf("registration %d answered %v, want name %q", i, reg, want)
		}
		// Registering again answers where the operator stands.
		if status, v := call(t, "POST", srv.URL+"/api/v1/operators", body); status != http.StatusOK || v.(map[string]any)["name"] != want {
			t.Fatalf("re-register: %d %v", status, v)
		}
		id := reg["operator"].(string)
		ops = append(ops, id)
		opKeys = append(opKeys, key)
		status, v = call(t, "POST", srv.URL+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": id}), auth...)
		if status != http.StatusCreated {
			t.Fatalf("invite: %d %v", status, v)
		}
		if firstHead == nil {
			h, err := n.log.TreeHead()
			if err != nil {
				t.Fatal(err)
			}
			firstHead = &h
		}
	}
	// Rename the first: names are kept by the node, not logged.
	rename := func(name string) (int, any) {
		entry := map[string]any{"type": "operator_name", "operator": ops[0], "name": name,
			"time": tlog.FormatTimestamp(time.Now()), "model_family": "claude", "model": "claude-test-1"}
		if err := protocol.Sign(entry, opKeys[0]); err != nil {
			t.Fatal(err)
		}
		return call(t, "POST", srv.URL+"/api/v1/operators/"+ops[0]+"/name", mustJSON(t, map[string]any{"entry": entry}))
	}
	if status, v := rename("Ada Lovelace"); status != http.StatusOK || v.(map[string]any)["name"] != "Ada Lovelace" || v.(map[string]any)["changed"] != true {
		t.Fatalf("rename: %d %v", status, v)
	}
	if status, v := rename("ada  lovelace"); status != http.StatusOK || v.(map[string]any)["name"] != "ada  lovelace" {
		t.Fatalf("rename by case and spacing keeps the number: %d %v", status, v)
	}
	// Rotate the second's key: the old key is retired for good.
	newKey, _ := hybrid.GenerateKey()
	rotation, err := protocol.SignKeyRotation(ops[1], newKey, opKeys[1])
	if err != nil {
		t.Fatal(err)
	}
	if status, v := call(t, "POST", srv.URL+"/api/v1/operators/"+ops[1]+"/key", mustJSON(t, map[string]any{"entry": rotation})); status != http.StatusOK {
		t.Fatalf("rotate: %d %v", status, v)
	}
	again, _ := protocol.SignKeyRotation(ops[1], opKeys[2], opKeys[1])
	if status, v := call(t, "POST", srv.URL+"/api/v1/operators/"+ops[1]+"/key", mustJSON(t, map[string]any{"entry": again})); status/100 != 4 {
		t.Fatalf("a rotation signed by the retired key was accepted: %d %v", status, v)
	}

	for _, id := range ops {
		status, v := call(t, "GET", srv.URL+"/api/v1/operators/"+id, nil)
		if status != http.StatusOK {
			t.Fatalf("operator: %d %v", status, v)
		}
		rec := v.(map[string]any)
		identity, _ := rec["identity"].(map[string]any)
		if rec["status"] != "active" || identity["kind"] != "invited" || identity["organization"] != id {
			t.Errorf("operator %s record: %v", id, rec)
		}
		if id == ops[1] && rec["key_digest"] != protocol.KeyDigest(newKey.Public().String()) {
			t.Errorf("after rotation the record names key %v", rec["key_digest"])
		}
		if id == ops[0] && rec["name"] != "ada  lovelace" {
			t.Errorf("after renames the record names %v", rec["name"])
		}
	}

	// The log as a monitor reads it.
	_, v := call(t, "GET", srv.URL+"/api/v1/log", nil)
	info := v.(map[string]any)
	pub := info["public_key"].(string)
	if info["log"] != protocol.LogID(pub) {
		t.Fatalf("log ID %v is not the key's, %s", info["log"], protocol.LogID(pub))
	}
	head, err := tlog.ParseTreeHead(mustJSON(t, info["tree_head"]))
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.VerifyTreeHead(head, pub); err != nil {
		t.Fatalf("tree head: %v", err)
	}
	if head.Size != 7 { // three key entries, three identities, a rotation
		t.Fatalf("tree head size %d, want 7", head.Size)
	}
	_, v = call(t, "GET", srv.URL+"/api/v1/log/entries?start=0&end=100", nil)
	entries := v.(map[string]any)["entries"].([]any)
	if len(entries) != 7 {
		t.Fatalf("%d entries listed, want 7", len(entries))
	}
	keys := map[string]string{} // operator → key, as the log has shown it
	for i := range head.Size {
		url := srv.URL + "/api/v1/log/entries/" + itoa(i)
		status, v := call(t, "GET", url, nil)
		if status != http.StatusOK {
			t.Fatalf("receipt %d: %d %v", i, status, v)
		}
		receipt, err := tlog.ParseReceipt(mustJSON(t, v))
		if err != nil {
			t.Fatalf("receipt %d: %v", i, err)
		}
		if err := tlog.VerifyReceipt(receipt, pub); err != nil {
			t.Fatalf("receipt %d does not verify: %v", i, err)
		}
		leaf := v.(map[string]any)["leaf"].(map[string]any)
		_, sv := call(t, "GET", url+"/signed", nil)
		signed := sv.(map[string]any)["entry"].(map[string]any)
		if !protocol.MatchesLeafEntry(signed, leaf["entry"].(map[string]any)) {
			t.Fatalf("entry %d as signed does not match its leaf", i)
		}
		switch signed["type"] {
		case "key":
			keys[leaf["operator"].(string)] = signed["key"].(string)
			if !protocol.Verify(signed, signed["key"].(string)) {
				t.Errorf("key entry %d: signature does not verify", i)
			}
		case "key_rotation":
			op := leaf["operator"].(string)
			if !protocol.VerifyKeyRotation(signed, keys[op]) {
				t.Errorf("rotation %d does not verify against the key %s held", i, op)
			}
			keys[op] = signed["key"].(string)
		case "identity":
			if _, ok := keys[leaf["operator"].(string)]; !ok {
				t.Errorf("identity %d logged before its operator's key", i)
			}
			if !protocol.Verify(signed, pub) {
				t.Errorf("invitation %d: not signed by the log", i)
			}
		default:
			t.Errorf("entry %d: unexpected type %v", i, signed["type"])
		}
	}
	// The last head extends the first.
	_, v = call(t, "GET", srv.URL+"/api/v1/log/proofs/consistency?first="+itoa(firstHead.Size)+"&second="+itoa(head.Size), nil)
	var proof []tlog.Hash
	for _, h := range v.(map[string]any)["proof"].([]any) {
		hash, err := tlog.ParseHash(h.(string))
		if err != nil {
			t.Fatal(err)
		}
		proof = append(proof, hash)
	}
	if err := tlog.VerifyTreeGrowth(*firstHead, head, proof, pub); err != nil {
		t.Fatalf("consistency from %d to %d: %v", firstHead.Size, head.Size, err)
	}
	// The checkpoint verifies, with sumdb's note package, against the vkey
	// the log key vouches for in checkpoint_keys.
	ck, err := tlog.ParseCheckpointKeys(mustJSON(t, info["checkpoint_keys"]))
	if err != nil {
		t.Fatal(err)
	}
	verifiers, err := tlog.VerifyCheckpointKeys(ck, pub, ck.Origin)
	if err != nil {
		t.Fatal(err)
	}
	_, text := call(t, "GET", srv.URL+"/api/v1/log/checkpoint?size="+itoa(head.Size), nil)
	msg, err := note.Open([]byte(text.(string)), note.VerifierList(verifiers...))
	if err != nil {
		t.Fatalf("checkpoint: %v\n%s", err, text)
	}
	if !strings.HasPrefix(msg.Text, ck.Origin+"\n"+itoa(head.Size)+"\n") {
		t.Errorf("checkpoint body %q is not of size %d", msg.Text, head.Size)
	}
}

func itoa(i uint64) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestBadInput checks that every route answers bad input with the spec's
// error body and status, never a 500.
func TestBadInput(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	key, _ := hybrid.GenerateKey()
	good := keyEntry(t, key)
	tampered := keyEntry(t, key)
	tampered["model"] = "claude-other"
	noModel := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"claude"}}
	protocol.Sign(noModel, key)
	badFamily := map[string]any{"type": "key", "key": key.Public().String(), "model_families": []any{"nonesuch"}, "model": "x-1"}
	protocol.Sign(badFamily, key)
	reg := func(entry map[string]any, name string) []byte {
		return mustJSON(t, map[string]any{"entry": entry, "name": name})
	}
	zeros := strings.Repeat("0", 64)
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
		// api, for a page (package node/pages), is the route it reads,
		// whose refusal the page must show with the same status.
		api string
	}{
		{"malformed JSON", "POST", "/api/v1/operators", []byte(`{"entry":`), 400, "invalid_json", ""},
		{"duplicate names", "POST", "/api/v1/operators", []byte(`{"entry":{},"entry":{}}`), 400, "invalid_json", ""},
		{"not an object", "POST", "/api/v1/operators", []byte(`[1]`), 400, "bad_request", ""},
		{"entry of the wrong type", "POST", "/api/v1/operators", []byte(`{"entry":"key","name":"x"}`), 400, "bad_request", ""},
		{"bad signature", "POST", "/api/v1/operators", reg(tampered, "Ada"), 422, "bad_signature", ""},
		{"no model", "POST", "/api/v1/operators", reg(noModel, "Ada"), 422, "model_missing", ""},
		{"unknown family", "POST", "/api/v1/operators", reg(badFamily, "Ada"), 422, "unknown_model_family", ""},
		{"name with a URL", "POST", "/api/v1/operators", reg(good, "see https://example.com"), 422, "invalid_name", ""},
		{"oversized body", "POST", "/api/v1/operators", bytes.Repeat([]byte(" "), 2<<20), 413, "too_large", ""},
		{"unknown operator", "GET", "/api/v1/operators/op:" + strings.Repeat("0", 64), nil, 404, "not_found", ""},
		{"bad operator ID", "GET", "/api/v1/operators/op:1", nil, 400, "bad_request", ""},
		{"entry past the log", "GET", "/api/v1/log/entries/7", nil, 404, "not_found", ""},
		{"bad index", "GET", "/api/v1/log/entries/x", nil, 400, "bad_request", ""},
		{"negative start", "GET", "/api/v1/log/entries?start=-1", nil, 400, "bad_request", ""},
		{"no start", "GET", "/api/v1/log/entries", nil, 400, "bad_request", ""},
		{"proof past the log", "GET", "/api/v1/log/proofs/inclusion?index=0&size=9", nil, 400, "bad_request", ""},
		{"shrinking consistency", "GET", "/api/v1/log/proofs/consistency?first=2&second=1", nil, 400, "bad_request", ""},
		{"checkpoint never published", "GET", "/api/v1/log/checkpoint?size=99", nil, 404, "not_found", ""},
		{"admin without token", "POST", "/api/v1/admin/invitations", []byte(`{"operator":"x"}`), 401, "unauthorized", ""},
		{"page: unknown claim", "GET", "/claims/claim:" + zeros, nil, 404, "not_found", "/api/v1/claims/claim:" + zeros},
		{"page: bad claim ID", "GET", "/claims/nope", nil, 400, "bad_request", "/api/v1/claims/nope"},
		{"page: claim ID with a slash", "GET", "/claims/claim:a%2Fb", nil, 400, "bad_request", "/api/v1/claims/claim:a%2Fb"},
		{"page: bad search sort", "GET", "/claims?sort=oldest", nil, 400, "bad_request", "/api/v1/claims?sort=oldest"},
		{"page: bad search limit", "GET", "/claims?limit=0", nil, 400, "bad_request", "/api/v1/claims?limit=0"},
		{"page: unknown bundle", "GET", "/bundles/sha256:" + zeros, nil, 404, "not_found", "/api/v1/bundles/sha256:" + zeros},
		{"page: bad bundle hash", "GET", "/bundles/x", nil, 404, "not_found", "/api/v1/bundles/x"},
		{"page: unknown agent", "GET", "/agents/op:" + zeros, nil, 404, "not_found", "/api/v1/operators/op:" + zeros},
		{"page: bad agent ID", "GET", "/agents/op:1", nil, 400, "bad_request", "/api/v1/operators/op:1"},
		{"page: entry past the log", "GET", "/log/7", nil, 404, "not_found", "/api/v1/log/entries/7"},
		{"page: bad index", "GET", "/log/x", nil, 400, "bad_request", "/api/v1/log/entries/x"},
		{"page: log from a negative start", "GET", "/log?start=-1&end=3", nil, 400, "bad_request", "/api/v1/log/entries?start=-1&end=3"},
		{"page: unknown library entry", "GET", "/library/entries/" + zeros, nil, 404, "not_found", "/api/entries/" + zeros},
		{"page: bad revision", "GET", "/library/entries/nope", nil, 400, "bad_request", "/api/entries/nope"},
		{"page: unknown map", "GET", "/library/maps/" + zeros, nil, 404, "not_found", "/api/maps/" + zeros},
		{"page: bad map revision", "GET", "/library/maps/x", nil, 400, "bad_request", "/api/maps/x"},
		{"page: catalogue of an unknown kind", "GET", "/library?kind=poem", nil, 400, "bad_request", "/api/catalogue?kind=poem"},
		{"page: catalogue with an unknown parameter", "GET", "/library?colour=red", nil, 400, "bad_request", "/api/catalogue?colour=red"},
		{"page: catalogue at a bad offset", "GET", "/library?offset=-4", nil, 400, "bad_request", "/api/catalogue?offset=-4"},
		{"page: changes from a forged cursor", "GET", "/library/changes?cursor=forged", nil, 409, "resync_required", "/api/changes?cursor=forged"},
		{"page: changes of a bad root", "GET", "/library/changes?root=x", nil, 400, "bad_request", "/api/changes?root=x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.api != "" {
				badPage(t, srv.URL, tc.path, tc.api, tc.status, tc.code)
				return
			}
			status, v := call(t, tc.method, srv.URL+tc.path, tc.body)
			body, _ := v.(map[string]any)
			if status != tc.status || body["code"] != tc.code {
				t.Fatalf("%s %s: %d %v; want %d %q", tc.method, tc.path, status, v, tc.status, tc.code)
			}
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("no error message: %v", v)
			}
		})
	}
	// The memory pages are the admin's: their rows sign in first, or
	// not (pages_memory_test.go).
	memoryBadPages(t, srv.URL, memoryAdminToken(t, n))
}

// badPage checks a page's answer to bad input against its API route's:
// the same status, and an HTML page (never JSON, never a 500) that shows
// the route's code and message, so a person reads what to send instead.
func badPage(t *testing.T, base, path, api string, status int, code string) {
	t.Helper()
	apiStatus, v := call(t, "GET", base+api, nil)
	want, _ := v.(map[string]any)
	if apiStatus != status || want["code"] != code {
		t.Fatalf("GET %s (what the page reads): %d %v; want %d %q", api, apiStatus, v, status, code)
	}
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := html.UnescapeString(string(data))
	if resp.StatusCode != status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET %s: %d %s; want %d and a page", path, resp.StatusCode, resp.Header.Get("Content-Type"), status)
	}
	if !strings.Contains(page, code) || !strings.Contains(page, want["error"].(string)) {
		t.Errorf("GET %s does not show the API's refusal %q (%s):\n%s", path, want["error"], code, page)
	}
}
