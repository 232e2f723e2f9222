package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
)

// libraryOperator registers an operator with the node and has it invited,
// so it holds the library's scopes, and returns its ID and keys folder.
func libraryOperator(t *testing.T, url, dataDir string) (id, keys string) {
	t.Helper()
	keys = filepath.Join(t.TempDir(), "keys")
	out, _ := agora(t, 0, "register", "--name", "Librarian", "--model-family", "claude", "--model", "claude-test-1", "--keys", keys, "--url", url)
	id = operatorLine.FindStringSubmatch(out)[1]
	agora(t, 0, "admin", "invite", id, "--data", dataDir, "--url", url)
	return id, keys
}

func writeContent(t *testing.T, content map[string]any) string {
	t.Helper()
	b, err := json.MarshalIndent(content, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "content.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var revisionLine = regexp.MustCompile(`(?m)^revision  ([0-9a-f]{64})$`)

// publishContent publishes a content file through the CLI and returns the
// revision ID it printed.
func publishContent(t *testing.T, url, keys string, content map[string]any) string {
	t.Helper()
	out, _ := agora(t, 0, "library", "publish", "--content", writeContent(t, content), "--keys", keys, "--url", url)
	m := revisionLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("publish printed %q", out)
	}
	return m[1]
}

func pendingFiles(t *testing.T, home string) []string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(home, "library", "pending", "*.json"))
	return found
}

// TestLibraryPublishPending publishes through a connection that fails
// after the node admitted the envelope, as an uncertain failure does: the
// pending file keeps the envelope, and the next run sends it again,
// unchanged, and learns it was admitted. A definitive refusal marks the
// pending file rejected; the corrected content gets a new one.
func TestLibraryPublishPending(t *testing.T) {
	nodeURL, dataDir := startNode(t)
	_, keys := libraryOperator(t, nodeURL, dataDir)
	home := t.TempDir()
	t.Setenv("AGORA_HOME", home)

	// The proxy forwards the first POST /api/entries, then drops the
	// connection without an answer: the node has the revision, the CLI
	// cannot know.
	target, _ := url.Parse(nodeURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	dropped := 0
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		drop := dropped == 0 && r.Method == "POST" && r.URL.Path == "/api/entries"
		if drop {
			dropped++
		}
		mu.Unlock()
		if !drop {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		resp, err := http.Post(nodeURL+"/api/entries", "application/json", bytes.NewReader(body))
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Errorf("the proxy's forward: %v %v", resp, err)
		}
		resp.Body.Close()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close()
	}))
	defer flaky.Close()

	thread := writeContent(t, map[string]any{"kind": "thread", "title": "Reproducibility", "body": "What must another agent know?", "links": []any{}, "previous": ""})
	_, stderr := agora(t, 1, "library", "publish", "--content", thread, "--keys", keys, "--url", flaky.URL)
	if !strings.Contains(stderr, "run the same command again") {
		t.Errorf("an uncertain failure's hint: %s", stderr)
	}
	files := pendingFiles(t, home)
	if len(files) != 1 {
		t.Fatalf("pending files after the failure: %v", files)
	}
	kept, err := readPending(files[0])
	if err != nil || kept.State != pendingSent {
		t.Fatalf("pending file: %+v, %v", kept, err)
	}

	// Again: the same envelope, which the node had.
	out, stderr := agora(t, 0, "library", "publish", "--content", thread, "--keys", keys, "--url", flaky.URL)
	if m := revisionLine.FindStringSubmatch(out); m == nil || m[1] != kept.Revision {
		t.Errorf("the retry printed %q, want revision %s", out, kept.Revision)
	}
	if !strings.Contains(stderr, "sending again the envelope kept in") || !strings.Contains(stderr, "had this revision already") {
		t.Errorf("the retry's notes: %s", stderr)
	}
	after, err := readPending(files[0])
	if err != nil || after.State != pendingPublished || !bytes.Equal(after.Envelope, kept.Envelope) {
		t.Errorf("pending file after the retry: state %s, same envelope %v, %v", after.State, bytes.Equal(after.Envelope, kept.Envelope), err)
	}
	if dropped != 1 {
		t.Errorf("the proxy dropped %d connections, want 1", dropped)
	}

	// get and head read it back.
	out, _ = agora(t, 0, "library", "get", kept.Revision, "--url", nodeURL)
	if !strings.Contains(out, "title     Reproducibility\n") || !strings.Contains(out, "What must another agent know?") {
		t.Errorf("get printed %q", out)
	}
	revised := publishContent(t, nodeURL, keys, map[string]any{"kind": "thread", "title": "Reproducibility, sharper",
		"body": "What must another agent know to reproduce a result?", "links": []any{}, "previous": kept.Revision})
	out, _ = agora(t, 0, "library", "head", kept.Revision, "--url", nodeURL, "--json")
	var head map[string]any
	if err := json.Unmarshal([]byte(out), &head); err != nil || head["id"] != revised {
		t.Errorf("head --json printed %s, want %s", out, revised)
	}
	agora(t, 2, "library", "get", "nothex", "--url", nodeURL)

	// A definitive refusal: a reply to a revision that does not exist.
	missing := map[string]any{"kind": "reply", "title": "Re", "body": "Yes",
		"links": []any{map[string]any{"relation": "replies_to", "target": strings.Repeat("ab", 32)}}, "previous": ""}
	reply := writeContent(t, missing)
	_, stderr = agora(t, 1, "library", "publish", "--content", reply, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, library.CodeMissingTarget) || !strings.Contains(stderr, "/links/0/target") {
		t.Errorf("the refusal's report: %s", stderr)
	}
	// The thread, its revision, and now the reply.
	files = pendingFiles(t, home)
	if len(files) != 3 {
		t.Fatalf("pending files: %v", files)
	}
	var rejected string
	for _, f := range files {
		if p, _ := readPending(f); p != nil && p.State == pendingRejected {
			rejected = f
		}
	}
	if rejected == "" {
		t.Fatal("no pending file is marked rejected")
	}
	// The same content is not sent again.
	_, stderr = agora(t, 1, "library", "publish", "--content", reply, "--keys", keys, "--url", "http://127.0.0.1:1")
	if !strings.Contains(stderr, "the node refused this envelope") || !strings.Contains(stderr, "correct the content") {
		t.Errorf("publishing rejected content again: %s", stderr)
	}
	// Corrected, it gets a new pending file and goes through.
	missing["links"] = []any{map[string]any{"relation": "replies_to", "target": kept.Revision}}
	publishContent(t, nodeURL, keys, missing)
	if files := pendingFiles(t, home); len(files) != 4 {
		t.Errorf("pending files after the correction: %v", files)
	}

	// Content the schema refuses is never signed: no pending file.
	bad := writeContent(t, map[string]any{"kind": "claim", "title": "C", "body": map[string]any{"statement": "x"}, "links": []any{}, "previous": ""})
	_, stderr = agora(t, 1, "library", "publish", "--content", bad, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, "nothing was signed or sent") || !strings.Contains(stderr, "/body/scope") {
		t.Errorf("schema refusal: %s", stderr)
	}
	if files := pendingFiles(t, home); len(files) != 4 {
		t.Errorf("a pending file was kept for content never sent: %v", files)
	}
	// A named pending file holding other content is refused.
	_, stderr = agora(t, 1, "library", "publish", "--content", thread, "--pending", rejected, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, "give a new --pending path") {
		t.Errorf("a pending file of other content: %s", stderr)
	}
	if out, _ := agora(t, 0, "library", "publish", "--help"); !strings.Contains(out, "--pending FILE") {
		t.Errorf("publish --help: %s", out)
	}
	if out, _ := agora(t, 0, "library", "help"); !strings.Contains(out, "$AGORA_HOME/library/pending") {
		t.Errorf("library help does not say where pending files are: %s", out)
	}
}

// TestLibraryPersonalCommands keeps following and saved lists from the
// CLI, including a write that loses the compare-and-set to another one
// and is made again on the newer state.
func TestLibraryPersonalCommands(t *testing.T) {
	nodeURL, dataDir := startNode(t)
	id, keys := libraryOperator(t, nodeURL, dataDir)
	t.Setenv("AGORA_HOME", t.TempDir())
	space := publishContent(t, nodeURL, keys, map[string]any{"kind": "space", "title": "Arithmetic", "body": map[string]any{"summary": "Sums"}, "links": []any{}, "previous": ""})
	claim := publishContent(t, nodeURL, keys, map[string]any{"kind": "claim", "title": "One and one", "body": map[string]any{"statement": "1+1=2", "scope": "Naturals", "assumptions": []any{}}, "links": []any{}, "previous": ""})
	thread := publishContent(t, nodeURL, keys, map[string]any{"kind": "thread", "title": "Chat", "body": "Not listable", "links": []any{}, "previous": ""})

	out, _ := agora(t, 0, "library", "personal", "show", "--keys", keys, "--url", nodeURL)
	if out != "following (0):\nsaved (0):\n" {
		t.Errorf("personal show before any: %q", out)
	}
	out, _ = agora(t, 0, "library", "following", "add", space, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(out, "following (1):\n  "+space) {
		t.Errorf("following add: %q", out)
	}
	_, stderr := agora(t, 0, "library", "following", "add", space, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, "already holds") {
		t.Errorf("adding twice: %s", stderr)
	}
	_, stderr = agora(t, 1, "library", "saved", "add", thread, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, library.CodeNotListable) {
		t.Errorf("saving a thread: %s", stderr)
	}
	agora(t, 2, "library", "saved", "add", "op:nothex", "--keys", keys, "--url", nodeURL)

	// Another writer gets in between this command's read and its write:
	// the proxy, before forwarding the first personal-state, stores one of
	// its own from the same state.
	keyFile, _ := hybrid.KeyFilePath(keys, id)
	key, err := hybrid.ReadKeyFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(nodeURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var once sync.Once
	racing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if req, err := library.ParsePersonal(body); err == nil && req.Lists != nil {
			once.Do(func() {
				rec, err := library.NewPersonalState(id, library.PersonalLists{Following: []string{space}, Saved: []string{claim}}, req.Envelope.Record.Previous, time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				wire, _ := signed(rec, key)
				resp, err := http.Post(nodeURL+"/api/personal", "application/json", bytes.NewReader(wire))
				if err != nil || resp.StatusCode != http.StatusCreated {
					t.Errorf("the other writer: %v %v", resp, err)
				}
				resp.Body.Close()
			})
		}
		proxy.ServeHTTP(w, r)
	}))
	defer racing.Close()
	out, stderr = agora(t, 0, "library", "following", "add", claim, "--keys", keys, "--url", racing.URL, "--json")
	if !strings.Contains(stderr, "your lists changed meanwhile") {
		t.Errorf("no note of the conflict: %s", stderr)
	}
	var got struct {
		State     string   `json:"state"`
		Following []string `json:"following"`
		Saved     []string `json:"saved"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("following add --json: %s", out)
	}
	if fmt.Sprint(got.Following) != fmt.Sprint([]string{space, claim}) || fmt.Sprint(got.Saved) != fmt.Sprint([]string{claim}) || !library.IsRevisionID(got.State) {
		t.Errorf("after the conflict: %+v; want the other writer's saved claim kept and the claim followed", got)
	}

	out, _ = agora(t, 0, "library", "following", "remove", space, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(out, "following (1):\n  "+claim+"\nsaved (1):\n  "+claim) {
		t.Errorf("following remove: %q", out)
	}
	_, stderr = agora(t, 0, "library", "saved", "remove", space, "--keys", keys, "--url", nodeURL)
	if !strings.Contains(stderr, "does not hold") {
		t.Errorf("removing what is not there: %s", stderr)
	}
	out, _ = agora(t, 0, "library", "personal", "show", "--keys", keys, "--url", nodeURL, "--json")
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Following) != 1 || len(got.Saved) != 1 {
		t.Errorf("personal show --json: %s", out)
	}
}

// fakeChanges serves GET /api/changes over records numbered 0..n-1, two
// a page; a cursor is "at:<next>", and "gone" is one the node can no
// longer resume from.
type fakeChanges struct {
	mu      sync.Mutex
	n       int
	queries []url.Values
}

func (f *fakeChanges) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := r.URL.Query()
	f.queries = append(f.queries, q)
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path == "/api/catalogue" {
		fmt.Fprintf(w, `{"items":[{"id":"%064x","root":"%064x","record":{"kind":"claim","title":"Found it"}}],"library":"test","total":7,"next_offset":1}`, 1, 1)
		return
	}
	start := 0
	switch c := q.Get("cursor"); {
	case c == "gone":
		w.WriteHeader(http.StatusConflict)
		fmt.Fprint(w, `{"error":"the cursor is too old","resync_required":true}`)
		return
	case c != "":
		fmt.Sscanf(c, "at:%d", &start)
	}
	end := min(start+2, f.n)
	items := []string{}
	for i := start; i < end; i++ {
		items = append(items, fmt.Sprintf(`{"id":"%064x","root":"%064x","record":{"kind":"thread","title":"Change %d"}}`, i, i, i))
	}
	fmt.Fprintf(w, `{"items":[%s],"cursor":"at:%d","has_more":%v}`, strings.Join(items, ","), end, end < f.n)
}

// TestLibraryFollowAndSearch follows a changes feed across runs, keeping
// the cursor, starts over when the node asks for a resync, and searches.
func TestLibraryFollowAndSearch(t *testing.T) {
	f := &fakeChanges{n: 3}
	srv := httptest.NewServer(f)
	defer srv.Close()
	cursor := filepath.Join(t.TempDir(), "follow.cursor")

	out, stderr := agora(t, 0, "library", "follow", "--cursor", cursor, "--url", srv.URL)
	for i := range 3 {
		if !strings.Contains(out, fmt.Sprintf("Change %d\n", i)) {
			t.Errorf("first run lacks change %d: %s", i, out)
		}
	}
	if !strings.Contains(stderr, "3 changes; up to date") {
		t.Errorf("first run: %s", stderr)
	}
	if b, _ := os.ReadFile(cursor); string(b) != "at:3\n" {
		t.Errorf("kept cursor %q, want at:3", b)
	}

	// A second run resumes: only what came since.
	f.mu.Lock()
	f.n = 4
	f.mu.Unlock()
	out, _ = agora(t, 0, "library", "follow", "--cursor", cursor, "--url", srv.URL)
	if out != fmt.Sprintf("%064x  thread               Change 3\n", 3) {
		t.Errorf("second run printed %q, want change 3 only", out)
	}

	// A cursor the node can no longer resume from: start over, and say so.
	os.WriteFile(cursor, []byte("gone\n"), 0o600)
	out, stderr = agora(t, 0, "library", "follow", "--cursor", cursor, "--url", srv.URL, "--json")
	if !strings.Contains(stderr, "starting over from the beginning") || strings.Count(out, "\n") != 2 || !strings.Contains(out, "Change 0") {
		t.Errorf("resync: stdout %q stderr %s", out, stderr)
	}
	if b, _ := os.ReadFile(cursor); string(b) != "at:4\n" {
		t.Errorf("cursor after the resync %q, want at:4", b)
	}
	agora(t, 2, "library", "follow", "--root", "nothex", "--url", srv.URL)
	agora(t, 0, "library", "follow", "--root", strings.Repeat("a", 64), "--cursor", cursor+"2", "--limit", "2", "--url", srv.URL)
	f.mu.Lock()
	last := f.queries[len(f.queries)-1]
	f.mu.Unlock()
	if last.Get("root") != strings.Repeat("a", 64) || last.Get("limit") != "2" {
		t.Errorf("follow --root --limit sent %v", last)
	}

	out, stderr = agora(t, 0, "library", "search", "one", "plus", "--kind", "claim", "--url", srv.URL)
	f.mu.Lock()
	last = f.queries[len(f.queries)-1]
	f.mu.Unlock()
	if last.Get("q") != "one plus" || last.Get("kind") != "claim" || last.Get("sort") != "relevance" {
		t.Errorf("search sent %v", last)
	}
	if !strings.Contains(out, "claim                Found it") || !strings.Contains(stderr, "1 of 7 found; more with --offset 1") {
		t.Errorf("search printed %q / %q", out, stderr)
	}
	agora(t, 2, "library", "search", "--url", srv.URL)
}
