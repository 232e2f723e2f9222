package node

import (
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/libraryhttp"
)

// libGet calls GET base+path and fails the test unless the answer is 200.
func libGet(t *testing.T, base, path string) map[string]any {
	t.Helper()
	status, v := call(t, "GET", base+path, nil)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, status, v)
	}
	return v.(map[string]any)
}

// recordIDs are the ids of a list of signed records.
func recordIDs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, e := range list {
		out[i], _ = e.(map[string]any)["id"].(string)
	}
	return out
}

// libPublish signs content as a and posts it, failing the test unless it is
// admitted; it returns the revision ID.
func libPublish(t *testing.T, base string, a author, content map[string]any, at time.Time) string {
	t.Helper()
	wire, id := envelope(t, a, content, at)
	if status, v := call(t, "POST", base+"/api/entries", wire); status != http.StatusCreated {
		t.Errorf("publishing %s %q: %d %v", content["kind"], content["title"], status, v)
	}
	return id
}

// TestLibraryObjects runs both of the contract's example sequences through
// HTTP and reads them back through every object route.
func TestLibraryObjects(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	owner, peer := newAuthor(t, n, base), newAuthor(t, n, base)
	actors := map[string]author{"owner": owner, "peer": peer}
	doc := contractDocument(t)
	ids := map[string]string{}
	runExamples(t, base, doc["write_contract"].(map[string]any)["examples"].(map[string]any)["steps"].([]any), actors, ids, "")
	objects := map[string]string{}
	runExamples(t, base, doc["object_examples"].(map[string]any)["steps"].([]any), actors, objects, "")

	t.Run("map after merge", func(t *testing.T) {
		m := libGet(t, base, "/api/maps/"+ids["merge"])
		if m["map"].(map[string]any)["id"] != ids["merge"] || m["head"] != ids["merge"] || m["question"] != ids["question"] || m["forks_from"] != nil {
			t.Errorf("merged map: map %v head %v question %v forks_from %v", m["map"].(map[string]any)["id"], m["head"], m["question"], m["forks_from"])
		}
		if got := recordIDs(m["nodes"]); !slices.Equal(got, []string{ids["question"], ids["claim"]}) {
			t.Errorf("pinned nodes %v, want the question and the claim", got)
		}
		if got := recordIDs(m["assessments"]); !slices.Equal(got, []string{ids["assessment"]}) {
			t.Errorf("selected assessments %v, want the dispute %s", got, ids["assessment"])
		}
		verdict := m["assessments"].([]any)[0].(map[string]any)["record"].(map[string]any)["body"].(string)
		if !strings.Contains(verdict, `"verdict":"disputed"`) {
			t.Errorf("the selected assessment is not the dispute: %s", verdict)
		}
		if edges := m["edges"].([]any); len(edges) != 1 || edges[0].(map[string]any)["relation"] != "related_to" {
			t.Errorf("edges %v", edges)
		}
		// The map before the merge selected nothing; its head is the merge.
		before := libGet(t, base, "/api/maps/"+ids["map"])
		if len(before["assessments"].([]any)) != 0 || before["head"] != ids["merge"] {
			t.Errorf("the map before the merge: assessments %v head %v", recordIDs(before["assessments"]), before["head"])
		}
	})

	t.Run("fork origin", func(t *testing.T) {
		if m := libGet(t, base, "/api/maps/"+ids["fork"]); m["forks_from"] != ids["merge"] || m["head"] != ids["fork"] {
			t.Errorf("fork: forks_from %v head %v, want %s", m["forks_from"], m["head"], ids["merge"])
		}
		// The origin sees the fork among its backlinks, with the exact
		// revision forked.
		c := libGet(t, base, "/api/entries/"+ids["map"]+"/connections")
		if !hasBacklink(c["incoming"], ids["fork"], "forks_from", ids["merge"]) {
			t.Errorf("the map's incoming links lack the fork: %v", c["incoming"])
		}
		if !hasBacklink(c["incoming"], ids["child_map"], "contained_in", ids["map"]) || !hasBacklink(c["incoming"], ids["proposal"], "proposes_for", ids["map"]) {
			t.Errorf("the map's incoming links lack the child map or the proposal: %v", c["incoming"])
		}
	})

	t.Run("containment", func(t *testing.T) {
		children := libGet(t, base, "/api/objects/"+ids["map"]+"?section=children")
		if got := recordIDs(children["items"]); !slices.Equal(got, []string{ids["child_map"]}) {
			t.Errorf("the map's children %v, want the child map", got)
		}
		if children["item"].(map[string]any)["id"] != ids["merge"] || children["original"].(map[string]any)["id"] != ids["map"] || children["revisions"] != float64(2) {
			t.Errorf("the map object: item %v original %v revisions %v", children["item"].(map[string]any)["id"], children["original"].(map[string]any)["id"], children["revisions"])
		}
		if got := recordIDs(libGet(t, base, "/api/objects/"+ids["child_map"]+"?section=children")["items"]); !slices.Equal(got, []string{ids["child_thread"]}) {
			t.Errorf("the child map's children %v, want the thread", got)
		}
		// The thread's ancestors: the map (its head, the merge), then the
		// child map, root first.
		thread := libGet(t, base, "/api/objects/"+ids["child_thread"])
		if got := recordIDs(thread["ancestors"]); !slices.Equal(got, []string{ids["merge"], ids["child_map"]}) {
			t.Errorf("the thread's ancestors %v, want the map's head and the child map", got)
		}
		// The thread is the child map's discussion too.
		if got := recordIDs(libGet(t, base, "/api/entries/"+ids["child_map"]+"/discussion")["items"]); !slices.Equal(got, []string{ids["child_thread"]}) {
			t.Errorf("the child map's discussion %v", got)
		}
		// The object examples: the claim sits in the subspace, in the space.
		claim := libGet(t, base, "/api/objects/"+objects["claim"])
		if got := recordIDs(claim["ancestors"]); !slices.Equal(got, []string{objects["space"], objects["subspace"]}) {
			t.Errorf("the claim's ancestors %v, want the space and the subspace", got)
		}
		sub := libGet(t, base, "/api/objects/"+objects["subspace"]+"?section=children")
		if got := recordIDs(sub["items"]); !slices.Equal(got, []string{objects["merge"], objects["discussion"]}) {
			t.Errorf("the subspace's children %v, want the claim's head and the discussion", got)
		}
		if got := recordIDs(libGet(t, base, "/api/objects/"+objects["space"]+"?section=graph")["items"]); !slices.Equal(got, []string{objects["relationship"]}) {
			t.Errorf("the space's graph %v, want the relationship to its document", got)
		}
		if got := recordIDs(libGet(t, base, "/api/objects/"+objects["claim"]+"?section=discussions")["items"]); !slices.Equal(got, []string{objects["discussion"]}) {
			t.Errorf("the claim's discussions %v", got)
		}
		if got := recordIDs(libGet(t, base, "/api/objects/"+objects["subspace"]+"?section=knowledge")["items"]); !slices.Equal(got, []string{objects["merge"]}) {
			t.Errorf("the subspace's knowledge %v, want the claim's head", got)
		}
		if got := recordIDs(libGet(t, base, "/api/entries/"+objects["discussion"]+"/discussion?sort=old")["items"]); !slices.Equal(got, []string{objects["reply"], objects["branch"]}) {
			t.Errorf("the discussion's discussion %v, want the reply then the branch", got)
		}
	})

	t.Run("claim history", func(t *testing.T) {
		h := libGet(t, base, "/api/objects/"+objects["claim"]+"?section=history")
		if got := recordIDs(h["items"]); !slices.Equal(got, []string{objects["claim"], objects["merge"]}) || h["revisions"] != float64(2) {
			t.Errorf("the claim's history %v (%v revisions), want the claim and the merge", got, h["revisions"])
		}
		if h["item"].(map[string]any)["id"] != objects["merge"] || h["head"] != objects["merge"] || h["original"].(map[string]any)["id"] != objects["claim"] {
			t.Errorf("the claim object: item %v head %v original %v", h["item"].(map[string]any)["id"], h["head"], h["original"].(map[string]any)["id"])
		}
		if exact := libGet(t, base, "/api/objects/"+objects["claim"]+"?exact=true"); exact["item"].(map[string]any)["id"] != objects["claim"] || exact["head"] != objects["merge"] {
			t.Errorf("exact=true: item %v head %v", exact["item"].(map[string]any)["id"], exact["head"])
		}
		c := libGet(t, base, "/api/entries/"+objects["merge"]+"/connections")
		if !reflect.DeepEqual(c["history"], []any{objects["claim"], objects["merge"]}) || c["history_total"] != float64(2) || c["next_offset"] != nil {
			t.Errorf("connections: history %v total %v next %v", c["history"], c["history_total"], c["next_offset"])
		}
		if out := c["outgoing"].([]any); len(out) != 2 || out[1].(map[string]any)["relation"] != "merges" || out[1].(map[string]any)["target"] != objects["proposal"] {
			t.Errorf("the merge's outgoing links %v", out)
		}
	})

	t.Run("scores", func(t *testing.T) {
		s := libGet(t, base, "/api/scores")
		want := map[string]any{"score": float64(1), "up": float64(1), "down": float64(0)}
		if got := s["totals"].(map[string]any)[ids["thread"]]; !reflect.DeepEqual(got, want) {
			t.Errorf("the thread's total %v, want %v", got, want)
		}
		if _, ok := s["votes"]; ok {
			t.Errorf("votes without an author: %v", s["votes"])
		}
		mine := libGet(t, base, "/api/scores?author="+peer.id)["votes"].(map[string]any)
		if v, _ := mine[ids["thread"]].(map[string]any); v == nil || v["id"] != ids["vote"] || v["value"] != float64(1) {
			t.Errorf("the peer's votes %v, want the vote %s", mine, ids["vote"])
		}
		if theirs := libGet(t, base, "/api/scores?author="+strings.TrimPrefix(owner.id, "op:"))["votes"].(map[string]any); len(theirs) != 0 {
			t.Errorf("the owner's votes %v, want none", theirs)
		}
	})

	t.Run("activity", func(t *testing.T) {
		at := time.Now()
		support := libPublish(t, base, peer, map[string]any{"kind": "research-evidence", "title": "A pinned run", "body": map[string]any{
			"node": ids["claim"], "method": "example", "content": "Same outputs twice.", "sources": []any{}, "programs": []any{}},
			"links": []any{map[string]any{"relation": "evidence_for", "target": ids["claim"]}}, "previous": ""}, at)
		all := libGet(t, base, "/api/research/"+ids["claim"]+"/activity")
		if got := recordIDs(all["items"]); !slices.Equal(got, []string{support, ids["assessment"], ids["evidence"]}) || all["total"] != float64(3) {
			t.Errorf("the claim's activity %v (total %v)", got, all["total"])
		}
		ch := libGet(t, base, "/api/research/"+ids["claim"]+"/activity?challenges=true")
		if got := recordIDs(ch["items"]); !slices.Equal(got, []string{ids["assessment"], ids["evidence"]}) || ch["total"] != float64(2) {
			t.Errorf("the claim's challenges %v (total %v), want the dispute and the counterexample", got, ch["total"])
		}
		for _, item := range ch["items"].([]any) {
			body := item.(map[string]any)["record"].(map[string]any)["body"].(string)
			if !strings.Contains(body, `"method":"counterexample"`) && !strings.Contains(body, `"verdict":"disputed"`) && !strings.Contains(body, `"verdict":"refuted"`) {
				t.Errorf("a challenge that is none: %s", body)
			}
		}
		if got := recordIDs(libGet(t, base, "/api/research/"+ids["question"]+"/activity?challenges=true")["items"]); len(got) != 0 {
			t.Errorf("the question's challenges %v, want none", got)
		}
		// A map's activity is its proposals, made against any revision.
		if got := recordIDs(libGet(t, base, "/api/research/"+ids["merge"]+"/activity")["items"]); !slices.Equal(got, []string{ids["proposal"]}) {
			t.Errorf("the map's activity %v, want the proposal", got)
		}
		// The object model's claim has evidence and an assessment.
		if got := recordIDs(libGet(t, base, "/api/research/"+objects["claim"]+"/activity")["items"]); !slices.Equal(got, []string{objects["assessment"], objects["evidence"]}) {
			t.Errorf("the object claim's activity %v", got)
		}
	})

	t.Run("paging", func(t *testing.T) {
		// 52 more replies to the thread, sent at once, 53 in all.
		const more = 52
		at := time.Now()
		var wg sync.WaitGroup
		for i := range more {
			wg.Go(func() {
				libPublish(t, base, peer, map[string]any{"kind": "reply", "title": fmt.Sprintf("Reply %d", i), "body": "Agreed.",
					"links": []any{map[string]any{"relation": "replies_to", "target": ids["thread"]}}, "previous": ""}, at.Add(time.Duration(i)*time.Millisecond))
			})
		}
		wg.Wait()
		seen := map[string]bool{}
		offset := "0"
		for page := 0; ; page++ {
			d := libGet(t, base, "/api/entries/"+ids["thread"]+"/discussion?sort=old&offset="+offset)
			items := recordIDs(d["items"])
			if d["total"] != float64(more+1) {
				t.Fatalf("page %d: total %v, want %d", page, d["total"], more+1)
			}
			for _, id := range items {
				if seen[id] {
					t.Errorf("%s on two pages", id)
				}
				seen[id] = true
			}
			if page == 0 && (len(items) != libraryhttp.PageSize || d["next_offset"] != float64(libraryhttp.PageSize) || items[0] != ids["reply"]) {
				t.Fatalf("first page: %d items, next_offset %v, first %s", len(items), d["next_offset"], items[0])
			}
			if d["next_offset"] == nil {
				if page != 1 || len(items) != more+1-libraryhttp.PageSize {
					t.Errorf("last page %d has %d items", page, len(items))
				}
				break
			}
			offset = fmt.Sprint(d["next_offset"])
		}
		if len(seen) != more+1 {
			t.Errorf("%d replies read, want %d", len(seen), more+1)
		}
		// Past the end: nothing, and no next page.
		if d := libGet(t, base, "/api/entries/"+ids["thread"]+"/discussion?offset=500"); len(d["items"].([]any)) != 0 || d["next_offset"] != nil {
			t.Errorf("past the end: %v", d)
		}
		// The thread's backlinks page the same way.
		c := libGet(t, base, "/api/entries/"+ids["thread"]+"/connections")
		if len(c["incoming"].([]any)) != libraryhttp.PageSize || c["incoming_total"] != float64(more+1) || c["next_offset"] != float64(libraryhttp.PageSize) {
			t.Errorf("connections: %d incoming of %v, next %v", len(c["incoming"].([]any)), c["incoming_total"], c["next_offset"])
		}
	})

	t.Run("errors", func(t *testing.T) {
		unknown := strings.Repeat("ab", 32)
		thread := ids["thread"]
		for _, c := range []struct {
			path   string
			status int
		}{
			{"/api/entries/nothex/connections", 400},
			{"/api/entries/" + strings.ToUpper(thread) + "/discussion", 400},
			{"/api/maps/" + thread[:63], 400},
			{"/api/research/xyz/activity", 400},
			{"/api/objects/" + thread + "0", 400},
			{"/api/objects/" + thread + "?section=bogus", 400},
			{"/api/objects/" + thread + "?offset=-1", 400},
			{"/api/objects/" + thread + "?exact=yes", 400},
			{"/api/entries/" + thread + "/discussion?sort=best", 400},
			{"/api/entries/" + thread + "/discussion?offset=ten", 400},
			{"/api/entries/" + thread + "/connections?offset=1.5", 400},
			{"/api/research/" + ids["claim"] + "/activity?challenges=maybe", 400},
			{"/api/research/" + ids["map"] + "/activity?challenges=true", 400},
			{"/api/scores?author=someone", 400},
			{"/api/scores?colour=red", 400},
			{"/api/scores?author=" + strings.Repeat("0", 64) + "&author=" + strings.Repeat("1", 64), 400},
			{"/api/entries/" + unknown + "/connections", 404},
			{"/api/entries/" + unknown + "/discussion", 404},
			{"/api/maps/" + unknown, 404},
			{"/api/maps/" + thread, 404},
			{"/api/research/" + unknown + "/activity", 404},
			{"/api/research/" + thread + "/activity", 404},
			{"/api/objects/" + unknown, 404},
		} {
			status, v := call(t, "GET", base+c.path, nil)
			if status != c.status {
				t.Errorf("GET %s: %d %v, want %d", c.path, status, v, c.status)
			}
			if got, _ := v.(map[string]any); got["code"] == nil || got["error"] == nil {
				t.Errorf("GET %s: the error body is %v", c.path, v)
			}
		}
	})
}

// hasBacklink reports whether incoming holds a link from source by relation
// to the exact revision target.
func hasBacklink(incoming any, source, relation, target string) bool {
	for _, e := range incoming.([]any) {
		l := e.(map[string]any)
		if l["source"] == source && l["relation"] == relation && l["target"] == target {
			return true
		}
	}
	return false
}

// TestLibraryContract checks GET /api/contract against the contract it
// starts from: every member and route is there, what the library package
// holds is the package's, the examples are the contract's, and origin is
// where the request went.
func TestLibraryContract(t *testing.T) {
	t.Parallel()
	_, srv := testNode(t)
	got := libGet(t, srv.URL, "/api/contract")
	want := contractDocument(t)
	for name := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("the contract lacks %s", name)
		}
	}
	if got["format"] != want["format"] || got["origin"] != srv.URL {
		t.Errorf("format %v origin %v, want %v and %s", got["format"], got["origin"], want["format"], srv.URL)
	}
	var paths []string
	for _, r := range got["routes"].([]any) {
		paths = append(paths, r.(map[string]any)["path"].(string))
	}
	for _, r := range want["routes"].([]any) {
		if p := r.(map[string]any)["path"].(string); !slices.Contains(paths, p) {
			t.Errorf("the contract lacks the route %s", p)
		}
	}
	wc, wwc := got["write_contract"].(map[string]any), want["write_contract"].(map[string]any)
	schema, _ := canonical.Parse(library.ContentSchema())
	if !reflect.DeepEqual(wc["content_schema"], schema) {
		t.Error("content_schema is not library.ContentSchema()")
	}
	for _, name := range []string{"examples", "scopes", "state_rules", "format", "endpoint"} {
		if !reflect.DeepEqual(wc[name], wwc[name]) {
			t.Errorf("write_contract.%s differs from the contract's", name)
		}
	}
	for _, name := range []string{"object_examples", "object_model", "revision", "research_source", "research_evidence_reproducibility"} {
		if !reflect.DeepEqual(got[name], want[name]) {
			t.Errorf("%s differs from the contract's", name)
		}
	}
	if wc["record"].(map[string]any)["format"] != library.Format {
		t.Errorf("write_contract.record.format %v, want %s", wc["record"].(map[string]any)["format"], library.Format)
	}
	limits := got["limits"].(map[string]any)
	if limits["page_size"] != float64(libraryhttp.PageSize) || limits["envelope_bytes"] != float64(library.MaxEnvelopeBytes) || limits["body_characters"] != float64(library.MaxBodyChars) {
		t.Errorf("limits %v", limits)
	}
}
