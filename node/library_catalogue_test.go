package node

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library/libraryhttp"
)

// fetch is call for goroutines: it reports errors rather than failing the
// test from outside the test's goroutine.
func fetch(method, url string, body []byte) (int, any, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	v, err := canonical.Parse(data)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: %w: %s", method, url, err, data)
	}
	return resp.StatusCode, v, nil
}

// publish sends content by a, authored at at, and returns its revision ID.
func publish(t testing.TB, base string, a author, content map[string]any, at time.Time) string {
	t.Helper()
	wire, id := envelope(t, a, content, at)
	if status, v := call(t, "POST", base+"/api/entries", wire); status != http.StatusCreated {
		t.Fatalf("publish %v: %d %v", content["title"], status, v)
	}
	return id
}

func content(kind, title string, body any, previous string, links ...string) map[string]any {
	ls := []any{}
	for i := 0; i+1 < len(links); i += 2 {
		ls = append(ls, map[string]any{"relation": links[i], "target": links[i+1]})
	}
	return map[string]any{"kind": kind, "title": title, "body": body, "links": ls, "previous": previous}
}

// follower reads a changes feed page by page, as a client would.
type follower struct {
	base, root string
	limit      int
	cursor     string
	seen       []string
}

// page reads one page; it reports whether the snapshot has more.
func (f *follower) page() (bool, error) {
	u := fmt.Sprintf("%s/api/changes?limit=%d", f.base, f.limit)
	if f.root != "" {
		u += "&root=" + f.root
	}
	if f.cursor != "" {
		u += "&cursor=" + url.QueryEscape(f.cursor)
	}
	status, v, err := fetch("GET", u, nil)
	if err != nil {
		return false, err
	}
	if status != http.StatusOK {
		return false, fmt.Errorf("GET %s: %d %v", u, status, v)
	}
	page := v.(map[string]any)
	for _, it := range page["items"].([]any) {
		f.seen = append(f.seen, it.(map[string]any)["id"].(string))
	}
	f.cursor = page["cursor"].(string)
	return page["has_more"].(bool), nil
}

// TestLibraryChangesFollowers has writers publish, revise and reply
// through POST /api/entries while two followers page through the changes
// feed with cursors, a few revisions a page: the library's and one root's.
// Each must see every revision it follows exactly once, in admission
// order, and nothing else.
func TestLibraryChangesFollowers(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	const writers, rounds = 4, 6
	authors := make([]author, writers)
	for i := range authors {
		authors[i] = newAuthor(t, n, base)
	}
	now := time.Now().Add(-time.Hour)
	root := publish(t, base, authors[0], content("thread", "Followed", "Watch this thread", ""), now)

	var mu sync.Mutex
	var published, underRoot []string // what the followers must see
	published, underRoot = append(published, root), append(underRoot, root)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w, a := range authors {
		wg.Go(func() {
			head := ""
			for i := range rounds {
				at := now.Add(time.Duration(w*rounds+i+1) * time.Second)
				var c map[string]any
				watched := false
				switch i % 3 {
				case 0:
					c = content("thread", fmt.Sprintf("Writer %d thread %d", w, i), "Words", "")
				case 1:
					c = content("thread", fmt.Sprintf("Writer %d thread %d, revised", w, i), "More words", head)
				case 2:
					c, watched = content("reply", fmt.Sprintf("Writer %d reply %d", w, i), "A reply", "", "replies_to", root), true
				}
				wire, id := envelope(t, a, c, at)
				status, v, err := fetch("POST", base+"/api/entries", wire)
				if err != nil || status != http.StatusCreated {
					t.Errorf("writer %d: %d %v %v", w, status, v, err)
					return
				}
				if i%3 == 0 {
					head = id
				}
				mu.Lock()
				published = append(published, id)
				if watched {
					underRoot = append(underRoot, id)
				}
				mu.Unlock()
				if i == 2 {
					// A vote is admitted but followed by neither feed.
					wire, _ := envelope(t, a, content("vote", "Vote", "1", "", "votes_on", root), at)
					if status, v, err := fetch("POST", base+"/api/entries", wire); err != nil || status != http.StatusCreated {
						t.Errorf("writer %d vote: %d %v %v", w, status, v, err)
					}
				}
			}
		})
	}
	followers := []*follower{{base: base, limit: 3}, {base: base, root: root, limit: 2}}
	var fwg sync.WaitGroup
	for _, f := range followers {
		fwg.Go(func() {
			// A snapshot begun once the writers are done holds the last
			// of what they wrote: when it ends, the follower has it all.
			more, last := false, false
			for {
				if !more {
					select {
					case <-done:
						last = true
					default:
					}
				}
				var err error
				if more, err = f.page(); err != nil {
					t.Error(err)
					return
				}
				if !more && last {
					return
				}
				if !more {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	close(done)
	fwg.Wait()
	if t.Failed() {
		return
	}
	for i, want := range [][]string{published, underRoot} {
		f := followers[i]
		seq := make(map[string]int64, len(f.seen))
		for _, id := range f.seen {
			if _, dup := seq[id]; dup {
				t.Errorf("follower %d saw %s twice", i, id)
			}
			c, err := n.store.Contribution(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			seq[id] = c.Seq
		}
		if !slices.IsSortedFunc(f.seen, func(a, b string) int { return int(seq[a] - seq[b]) }) {
			t.Errorf("follower %d saw revisions out of admission order", i)
		}
		got, wantSorted := slices.Sorted(slices.Values(f.seen)), slices.Sorted(slices.Values(want))
		if !slices.Equal(got, wantSorted) {
			t.Errorf("follower %d saw %d revisions, want the %d published it follows", i, len(got), len(wantSorted))
		}
	}
}

// TestLibraryChangesResync checks the cursors the node cannot honour (409
// resync_required) and the parameters it refuses (400).
func TestLibraryChangesResync(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a := newAuthor(t, n, base)
	now := time.Now().Add(-time.Minute)
	root := publish(t, base, a, content("thread", "Root", "Body", ""), now)
	rev := publish(t, base, a, content("thread", "Root, revised", "Body", root), now.Add(time.Second))
	other := publish(t, base, a, content("thread", "Other", "Body", ""), now.Add(2*time.Second))

	status, v := call(t, "GET", base+"/api/changes?root="+root, nil)
	if status != http.StatusOK {
		t.Fatalf("changes of root: %d %v", status, v)
	}
	page := v.(map[string]any)
	if len(page["items"].([]any)) != 2 || page["has_more"] != false {
		t.Fatalf("changes of root: %v", page)
	}
	rootCursor := page["cursor"].(string)
	_, v = call(t, "GET", base+"/api/changes?limit=1", nil)
	libraryCursor := v.(map[string]any)["cursor"].(string)
	mangled := []byte(rootCursor)
	mangled[len(mangled)/2] ^= 1

	for _, c := range []struct{ name, query string }{
		{"not base64", "root=" + root + "&cursor=%25%25%25"},
		{"mangled", "root=" + root + "&cursor=" + url.QueryEscape(string(mangled))},
		{"another root's", "root=" + other + "&cursor=" + url.QueryEscape(rootCursor)},
		{"a root's, for the library", "cursor=" + url.QueryEscape(rootCursor)},
		{"the library's, for a root", "root=" + root + "&cursor=" + url.QueryEscape(libraryCursor)},
		{"past the newest revision", "cursor=" + url.QueryEscape(libraryhttp.EncodeCursor("", 1000, 0))},
		{"a snapshot past the newest", "cursor=" + url.QueryEscape(libraryhttp.EncodeCursor("", 1, 1000))},
	} {
		status, v := call(t, "GET", base+"/api/changes?"+c.query, nil)
		body, _ := v.(map[string]any)
		if status != http.StatusConflict || body["code"] != "resync_required" || body["resync_required"] != true || body["error"] == "" {
			t.Errorf("%s cursor: %d %v, want 409 resync_required", c.name, status, v)
		}
	}
	// The root's own cursor still works: nothing new.
	if status, v := call(t, "GET", base+"/api/changes?root="+root+"&cursor="+url.QueryEscape(rootCursor), nil); status != http.StatusOK || len(v.(map[string]any)["items"].([]any)) != 0 {
		t.Errorf("the root's cursor: %d %v", status, v)
	}

	for _, c := range []struct {
		query  string
		status int
	}{
		{"limit=0", 400}, {"limit=51", 400}, {"limit=x", 400},
		{"root=xyz", 400}, {"root=" + strings.Repeat("0", 64), 404}, {"root=" + rev, 400},
		{"since=1", 400}, {"limit=1&limit=2", 400},
	} {
		if status, v := call(t, "GET", base+"/api/changes?"+c.query, nil); status != c.status {
			t.Errorf("changes?%s: %d %v, want %d", c.query, status, v, c.status)
		}
	}
}

// TestLibraryChangesNoVotes checks the contract's "No votes" in every
// feed: the library's, a voted-on root's, and a vote's own, when the vote
// is the root watched.
func TestLibraryChangesNoVotes(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a := newAuthor(t, n, base)
	now := time.Now().Add(-time.Minute)
	root := publish(t, base, a, content("thread", "Root", "Body", ""), now)
	vote := publish(t, base, a, content("vote", "Vote", "1", "", "votes_on", root), now.Add(time.Second))
	voteRev := publish(t, base, a, content("vote", "Vote", "-1", vote, "votes_on", root), now.Add(2*time.Second))

	for _, c := range []struct {
		name, query string
		want        []string
	}{
		{"the library's feed", "", []string{root}},
		{"the voted-on root's feed", "root=" + root, []string{root}},
		{"the vote's feed", "root=" + vote, []string{}},
	} {
		status, v := call(t, "GET", base+"/api/changes?"+c.query, nil)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %v", c.name, status, v)
		}
		got := itemIDs(v.(map[string]any))
		if got == nil {
			got = []string{}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v: the feed carries no votes (vote %s, revised %s)", c.name, got, c.want, vote, voteRev)
		}
	}
}

// catalogue GETs /api/catalogue?query and returns the page.
func catalogue(t *testing.T, base, query string) map[string]any {
	t.Helper()
	status, v := call(t, "GET", base+"/api/catalogue?"+query, nil)
	if status != http.StatusOK {
		t.Fatalf("catalogue?%s: %d %v", query, status, v)
	}
	return v.(map[string]any)
}

func itemIDs(page map[string]any) []string {
	var out []string
	for _, it := range page["items"].([]any) {
		out = append(out, it.(map[string]any)["id"].(string))
	}
	return out
}

// TestLibraryCatalogue publishes a corpus over HTTP and checks the
// catalogue's relevance rule, projections, filters, vote ranking, pages
// and refusals.
func TestLibraryCatalogue(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a, b, c := newAuthor(t, n, base), newAuthor(t, n, base), newAuthor(t, n, base)
	at := time.Now().Add(-time.Hour)
	next := func() time.Time { at = at.Add(time.Second); return at }

	// For q="reproducible build": strong scores title 3+3 + body 1+1 = 8;
	// tied (title 3, body 1) and newer (body 2+2) score 4, newer first;
	// partial lacks "build"; stale matched only before its revision.
	strong := publish(t, base, a, content("thread", "Reproducible build", "A build is reproducible when builds agree.", ""), next())
	tied := publish(t, base, b, content("thread", "Build", "Is it reproducible?", ""), next())
	stale := publish(t, base, a, content("thread", "Reproducible build build", "reproducible build", ""), next())
	partial := publish(t, base, c, content("thread", "Reproducible", "Only one of the words", ""), next())
	newer := publish(t, base, c, content("article", "Notes", "REPRODUCIBLE: build, reproducible; build!", ""), next())
	revision := publish(t, base, a, content("thread", "Changed", "Nothing left to find", stale), next())
	page := catalogue(t, base, "q="+url.QueryEscape("  reproducible   BUILD "))
	if got, want := itemIDs(page), []string{strong, newer, tied}; !slices.Equal(got, want) || page["total"] != 3.0 || page["next_offset"] != nil {
		t.Errorf("relevance: %v total %v next %v; want %v, total 3", got, page["total"], page["next_offset"], want)
	}
	if page["library"] != n.log.Origin() {
		t.Errorf("library %v, want the node's origin %s", page["library"], n.log.Origin())
	}
	if got := itemIDs(catalogue(t, base, "q=reproducible+build&sort=new")); !slices.Equal(got, []string{newer, tied, strong}) {
		t.Errorf("search, newest first: %v", got)
	}
	if got := itemIDs(catalogue(t, base, "q=changed")); !slices.Equal(got, []string{revision}) {
		t.Errorf("a revised lineage is found by its head: %v", got)
	}
	full := catalogue(t, base, "q=notes")["items"].([]any)[0].(map[string]any)
	if full["id"] != newer || full["record"].(map[string]any)["body"] != "REPRODUCIBLE: build, reproducible; build!" || full["signature"] == "" {
		t.Errorf("full projection: %v", full)
	}

	// The summary's snippet is the first 280 characters of the body.
	long := strings.Repeat("é", 150) + strings.Repeat("x", 200)
	longID := publish(t, base, b, content("article", "Long body", long, ""), next())
	summary := catalogue(t, base, "q=long&projection=summary")["items"].([]any)[0].(map[string]any)
	wantSummary := map[string]any{"id": longID, "root": longID, "title": "Long body", "kind": "article",
		"author": strings.TrimPrefix(b.id, "op:"), "authored_at": at.UTC().Format(time.RFC3339Nano),
		"snippet": strings.Repeat("é", 150) + strings.Repeat("x", 130)}
	if !mapsEqual(summary, wantSummary) {
		t.Errorf("summary:\n%v\nwant\n%v", summary, wantSummary)
	}

	// Research objects, for the filters.
	node := func(who author, typ, statement string) string {
		return publish(t, base, who, content("research-node", statement, map[string]any{"type": typ, "statement": statement,
			"scope": "Here", "assumptions": []any{}, "sources": []any{}, "programs": []any{}}, ""), next())
	}
	question := node(a, "question", "What makes a build reproducible?")
	claim := node(b, "claim", "Pinned inputs suffice")
	counter := publish(t, base, c, content("research-evidence", "Clock counterexample", map[string]any{"node": claim, "method": "counterexample",
		"content": "Timestamps differ", "sources": []any{}, "programs": []any{}}, "", "evidence_for", claim), next())
	disputed := publish(t, base, c, content("research-assessment", "Disputed", map[string]any{"node": claim, "verdict": "disputed",
		"rationale": "Clocks", "scope": "This claim", "assumptions": []any{}, "evidence": []any{counter}}, "", "assesses", claim), next())
	for _, f := range []struct {
		query string
		want  []string
	}{
		{"kind=research-node", []string{claim, question}},
		{"kind=research-node&node_type=question", []string{question}},
		{"method=counterexample", []string{counter}},
		{"verdict=disputed", []string{disputed}},
		{"verdict=refuted", nil},
		{"author=" + strings.TrimPrefix(c.id, "op:"), []string{disputed, counter, newer, partial}},
		{"author=" + strings.TrimPrefix(c.id, "op:") + "&q=reproducible", []string{partial, newer}},
		{"kind=thread", []string{revision, partial, tied, strong}},
	} {
		if got := itemIDs(catalogue(t, base, f.query)); !slices.Equal(got, f.want) {
			t.Errorf("catalogue?%s: %v, want %v", f.query, got, f.want)
		}
	}

	// Votes rank sort=top: tied +2, partial +1, the rest 0 newest first,
	// strong -1 last. The question matches the search too, with 0.
	for _, v := range []struct {
		who    author
		target string
		value  string
	}{{a, tied, "1"}, {c, tied, "1"}, {b, partial, "1"}, {b, strong, "-1"}} {
		publish(t, base, v.who, content("vote", "Vote", v.value, "", "votes_on", v.target), next())
	}
	if got := itemIDs(catalogue(t, base, "kind=thread&sort=top")); !slices.Equal(got, []string{tied, partial, revision, strong}) {
		t.Errorf("sort=top: %v", got)
	}
	if got := itemIDs(catalogue(t, base, "q=reproducible+build&sort=top")); !slices.Equal(got, []string{tied, question, newer, strong}) {
		t.Errorf("search, sort=top: %v", got)
	}

	// Pages of 50: publish enough to need a second.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 13 {
				wire, _ := envelope(t, a, content("article", fmt.Sprintf("Filler %d-%d", w, i), "Filler text", ""), next2(at, w*13+i))
				if status, v, err := fetch("POST", base+"/api/entries", wire); err != nil || status != http.StatusCreated {
					t.Errorf("filler: %d %v %v", status, v, err)
				}
			}
		})
	}
	wg.Wait()
	first := catalogue(t, base, "kind=article")
	second := catalogue(t, base, "kind=article&offset=50")
	if len(first["items"].([]any)) != 50 || first["total"] != 54.0 || first["next_offset"] != 50.0 ||
		len(second["items"].([]any)) != 4 || second["next_offset"] != nil {
		t.Errorf("pages: %d items, total %v, next %v; then %d, next %v", len(first["items"].([]any)), first["total"], first["next_offset"],
			len(second["items"].([]any)), second["next_offset"])
	}
	if !slices.Contains(itemIDs(second), newer) {
		t.Error("the oldest article is not on the last page")
	}

	for _, q := range []string{
		"sort=best", "sort=relevance", "projection=compact", "offset=-1", "offset=x", "author=op:" + strings.Repeat("a", 64),
		"author=ABC", "kind=poem", "node_type=lemma", "method=guess", "verdict=maybe", "q=%E2%80%94", "page=2", "kind=thread&kind=claim",
		"q=" + strings.Repeat("w+", 17),
	} {
		status, v := call(t, "GET", base+"/api/catalogue?"+q, nil)
		body, _ := v.(map[string]any)
		if msg, _ := body["error"].(string); status != http.StatusBadRequest || !strings.Contains(msg, "send") {
			t.Errorf("catalogue?%s: %d %v, want 400 saying what to send", q, status, v)
		}
	}
}

// next2 is the authored time of the i-th filler, after at.
func next2(at time.Time, i int) time.Time { return at.Add(time.Duration(i+1) * time.Millisecond) }

func mapsEqual(a, b map[string]any) bool {
	x, _ := canonical.Marshal(a)
	y, _ := canonical.Marshal(b)
	return bytes.Equal(x, y)
}
