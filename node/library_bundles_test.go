package node

import (
	"bytes"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/library/libraryhttp"
)

// examplesNode is a node on loopback that ran both of the contract's
// example sequences, with the revision IDs each step got ("o." before the
// object examples' names) and the actors.
func examplesNode(t *testing.T) (*Node, string, map[string]string, map[string]author) {
	t.Helper()
	n, srv := testNode(t)
	actors := map[string]author{"owner": newAuthor(t, n, srv.URL), "peer": newAuthor(t, n, srv.URL)}
	doc := contractDocument(t)
	ids, objects := map[string]string{}, map[string]string{}
	runExamples(t, srv.URL, doc["write_contract"].(map[string]any)["examples"].(map[string]any)["steps"].([]any), actors, ids, "")
	runExamples(t, srv.URL, doc["object_examples"].(map[string]any)["steps"].([]any), actors, objects, "")
	for name, id := range objects {
		ids["o."+name] = id
	}
	return n, srv.URL, ids, actors
}

func adminToken(t *testing.T, n *Node) string {
	t.Helper()
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + string(token)
}

// getBundle exports a bundle and returns it parsed and as sent.
func getBundle(t *testing.T, url string) (map[string]any, []byte) {
	t.Helper()
	status, v := call(t, "GET", url, nil)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, status, v)
	}
	b := v.(map[string]any)
	return b, mustJSON(t, b)
}

func bundleIDs(b map[string]any) []string {
	var ids []string
	for _, r := range b["records"].([]any) {
		ids = append(ids, r.(map[string]any)["id"].(string))
	}
	return ids
}

func named(ids map[string]string, names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, ids[n])
	}
	return out
}

func sameIDs(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestLibraryBundleExportImport exports the merged map of the write
// contract's example from one node and imports it into another, where
// neither author is registered: the second node then serves the same
// records, with the same IDs, roots and signatures, as the first, logged
// as imported, and can export them again.
func TestLibraryBundleExportImport(t *testing.T) {
	t.Parallel()
	a, baseA, ids, _ := examplesNode(t)
	b, srvB := testNode(t)
	baseB := srvB.URL

	bundle, data := getBundle(t, baseA+"/api/bundles/"+ids["merge"])
	want := named(ids, "map", "question", "claim", "evidence", "assessment", "proposal", "merge")
	if got := bundleIDs(bundle); !sameIDs(got, want) || got[len(got)-1] != ids["merge"] {
		t.Fatalf("the merge's bundle holds %v, want %v, the merge last", got, want)
	}
	if bundle["format"] != library.BundleFormat || bundle["origin"] != a.log.Origin() || bundle["map"] != ids["merge"] {
		t.Errorf("bundle head: %v %v %v", bundle["format"], bundle["origin"], bundle["map"])
	}

	// Only the node's operator imports.
	if status, v := call(t, "POST", baseB+"/api/bundles/import", data); status != http.StatusUnauthorized {
		t.Fatalf("import without the admin token: %d %v", status, v)
	}
	status, v := call(t, "POST", baseB+"/api/bundles/import", data, "Authorization", adminToken(t, b))
	if status != http.StatusCreated {
		t.Fatalf("import: %d %v", status, v)
	}
	got := v.(map[string]any)
	if got["imported"] != float64(len(want)) || got["skipped"] != float64(0) || !slices.Equal(toStrings(got["records"]), bundleIDs(bundle)) {
		t.Errorf("import answered %v", got)
	}

	// The second node's reads agree with the first's on everything but
	// its own admission.
	for _, id := range want {
		_, va := call(t, "GET", baseA+"/api/entries/"+id, nil)
		status, vb := call(t, "GET", baseB+"/api/entries/"+id, nil)
		if status != http.StatusOK {
			t.Fatalf("GET %s from the importer: %d %v", id, status, vb)
		}
		ra, rb := va.(map[string]any), vb.(map[string]any)
		for _, m := range []string{"id", "root", "record", "signature"} {
			if !bytes.Equal(mustJSON(t, ra[m]), mustJSON(t, rb[m])) {
				t.Errorf("%s: %s differs: %v, imported %v", id, m, ra[m], rb[m])
			}
		}
		adm, _ := rb["admission"].(map[string]any)
		if adm["imported_from"] != a.log.Origin() || adm["bundle"] != bundle["digest"] || adm["key"] == "" {
			t.Errorf("%s: imported admission %v", id, adm)
		}
		// The entry on the importer's log says where the record came from.
		index, ok := rb["admission"].(map[string]any)["log_index"].(float64)
		if !ok {
			t.Fatalf("%s is not logged on the importer: %v", id, rb["admission"])
		}
		entry := mustSigned(t, baseB, uint64(index))
		if entry["type"] != library.ContributionType || entry["revision"] != id || entry["imported"].(map[string]any)["from"] != a.log.Origin() {
			t.Errorf("%s: entry %v", id, entry)
		}
	}
	for _, base := range []string{baseA, baseB} {
		if status, v := call(t, "GET", base+"/api/entries/"+ids["map"]+"/head", nil); status != http.StatusOK || v.(map[string]any)["id"] != ids["merge"] {
			t.Errorf("%s: head of the map: %d %v", base, status, v)
		}
	}

	// Again: every record is held.
	status, v = call(t, "POST", baseB+"/api/bundles/import", data, "Authorization", adminToken(t, b))
	if got := v.(map[string]any); status != http.StatusOK || got["imported"] != float64(0) || got["skipped"] != float64(len(want)) {
		t.Errorf("import again: %d %v", status, v)
	}

	// The importer exports what it imported, with the keys the import
	// recorded, though neither author is registered there; the fork
	// brings one record more.
	again, _ := getBundle(t, baseB+"/api/bundles/"+ids["merge"])
	if !slices.Equal(bundleIDs(again), bundleIDs(bundle)) || again["origin"] != b.log.Origin() {
		t.Errorf("export from the importer: %v from %v", bundleIDs(again), again["origin"])
	}
	_, fork := getBundle(t, baseA+"/api/bundles/"+ids["fork"])
	status, v = call(t, "POST", baseB+"/api/bundles/import", fork, "Authorization", adminToken(t, b))
	if got := v.(map[string]any); status != http.StatusCreated || got["imported"] != float64(1) || got["skipped"] != float64(len(want)) {
		t.Errorf("import the fork: %d %v", status, v)
	}
}

// TestLibraryImportOldRecords: a node refuses a new contribution authored
// more than library.MaxAuthoredAge ago, but imports records that old from
// another node's bundle, since they were admitted there.
func TestLibraryImportOldRecords(t *testing.T) {
	t.Parallel()
	_, baseA, ids, actors := examplesNode(t)
	later := func() time.Time { return time.Now().Add(library.MaxAuthoredAge + time.Hour) }
	b, srvB := testNodeWith(t, Config{clock: later})
	_, data := getBundle(t, baseA+"/api/bundles/"+ids["merge"])
	if status, v := call(t, "POST", srvB.URL+"/api/bundles/import", data, "Authorization", adminToken(t, b)); status != http.StatusCreated {
		t.Fatalf("import of records authored %s before the importer's clock: %d %v", library.MaxAuthoredAge+time.Hour, status, v)
	}
	registerAs(t, b, srvB.URL, actors["owner"])
	old, _ := envelope(t, actors["owner"], map[string]any{"kind": "thread", "title": "Late", "body": "Signed a day ago by B's clock", "links": []any{}, "previous": ""}, time.Now())
	if status, v := call(t, "POST", srvB.URL+"/api/entries", old); status != http.StatusUnprocessableEntity || v.(map[string]any)["code"] != library.CodeAuthoredTooLongAgo {
		t.Errorf("a new contribution authored a day before the clock: %d %v; want 422 %s", status, v, library.CodeAuthoredTooLongAgo)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

// TestLibraryReviewBundle: a review bundle of the example's claim node is
// exactly the node, its evidence and its assessment, observed now; one of
// a map is refused.
func TestLibraryReviewBundle(t *testing.T) {
	t.Parallel()
	_, base, ids, _ := examplesNode(t)
	before := time.Now().Add(-time.Second)
	b, _ := getBundle(t, base+"/api/review-bundles/"+ids["claim"])
	if got, want := bundleIDs(b), named(ids, "claim", "evidence", "assessment"); !sameIDs(got, want) {
		t.Errorf("review of the claim holds %v, want %v", got, want)
	}
	observed, err := time.Parse(time.RFC3339Nano, b["observed_at"].(string))
	if b["format"] != library.ReviewBundleFormat || b["node"] != ids["claim"] || err != nil || observed.Before(before) {
		t.Errorf("review bundle head: %v %v %v", b["format"], b["node"], b["observed_at"])
	}
	// The question has no evidence: its bundle is the node alone.
	if q, _ := getBundle(t, base+"/api/review-bundles/"+ids["question"]); !slices.Equal(bundleIDs(q), named(ids, "question")) {
		t.Errorf("review of the question holds %v", bundleIDs(q))
	}
	// The object examples' claim kind, in its spaces.
	o, _ := getBundle(t, base+"/api/review-bundles/"+ids["o.claim"])
	if got, want := bundleIDs(o), named(ids, "o.space", "o.subspace", "o.claim", "o.evidence", "o.assessment"); !sameIDs(got, want) {
		t.Errorf("review of the object claim holds %v, want %v", got, want)
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/api/review-bundles/" + ids["map"], 422},
		{"/api/bundles/" + ids["claim"], 422},
		{"/api/bundles/nothex", 400},
		{"/api/review-bundles/" + zeroID, 404},
	} {
		if status, v := call(t, "GET", base+c.path, nil); status != c.status {
			t.Errorf("GET %s: %d %v, want %d", c.path, status, v, c.status)
		}
	}
}

const zeroID = "0000000000000000000000000000000000000000000000000000000000000000"

// redigest makes a tampered bundle's digest match again, as a forger
// would: the digest authenticates nothing.
func redigest(t *testing.T, b map[string]any) []byte {
	t.Helper()
	delete(b, "digest")
	b["digest"] = canonical.Digest(mustJSON(t, b))
	return mustJSON(t, b)
}

// TestLibraryBundleRefused: a forged, altered or incomplete bundle, or one
// a state rule refuses on this node, is refused whole, naming the record,
// with nothing written.
func TestLibraryBundleRefused(t *testing.T) {
	t.Parallel()
	_, baseA, ids, actors := examplesNode(t)
	c, srvC := testNode(t)
	baseC := srvC.URL
	_, data := getBundle(t, baseA+"/api/bundles/"+ids["merge"])
	fresh := func() map[string]any {
		v, err := canonical.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	order := bundleIDs(fresh())
	ev := slices.Index(order, ids["evidence"])
	record := func(b map[string]any, i int) map[string]any { return b["records"].([]any)[i].(map[string]any) }
	stranger, _ := hybrid.GenerateKey()

	for _, tc := range []struct {
		name   string
		body   []byte
		status int
		code   string
		record string
	}{
		{"changed title", func() []byte {
			b := fresh()
			record(b, ev)["record"].(map[string]any)["title"] = "Not what the peer wrote"
			return redigest(t, b)
		}(), 403, "bad_signature", ids["evidence"]},
		{"swapped key", func() []byte {
			b := fresh()
			peer := actors["peer"].id[len("op:"):]
			b["authors"].(map[string]any)[peer].(map[string]any)["key"] = stranger.Public().String()
			return redigest(t, b)
		}(), 403, "bad_signature", ""},
		{"wrong signature", func() []byte {
			b := fresh()
			record(b, ev)["signature"] = record(b, ev+1)["signature"]
			return redigest(t, b)
		}(), 403, "bad_signature", ids["evidence"]},
		{"altered after its digest", func() []byte {
			b := fresh()
			b["origin"] = "elsewhere.example/log"
			return mustJSON(t, b)
		}(), 403, "bad_signature", ""},
		{"missing dependency", func() []byte {
			b := fresh()
			b["records"] = slices.Delete(b["records"].([]any), ev, ev+1)
			return redigest(t, b)
		}(), 422, "incomplete_bundle", ids["assessment"]},
		{"not JSON", []byte(`{"format":`), 400, "malformed", ""},
	} {
		status, v := call(t, "POST", baseC+"/api/bundles/import", tc.body, "Authorization", adminToken(t, c))
		got, _ := v.(map[string]any)
		if status != tc.status || got["code"] != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, v, tc.status, tc.code)
			continue
		}
		if tc.record != "" {
			issues, _ := got["issues"].([]any)
			if len(issues) != 1 || issues[0].(map[string]any)["record"] != tc.record {
				t.Errorf("%s: issues %v do not name %s", tc.name, issues, tc.record)
			}
		}
	}
	// A record whose signature does not verify is one answer, sent alone
	// to POST /api/entries (where its author is registered) or in a bundle.
	withForgery := fresh()
	forged := record(withForgery, ev)
	forged["record"].(map[string]any)["title"] = "Not what the peer wrote"
	entryStatus, entryAnswer := call(t, "POST", baseA+"/api/entries", mustJSON(t, map[string]any{"record": forged["record"], "signature": forged["signature"]}))
	importStatus, importAnswer := call(t, "POST", baseC+"/api/bundles/import", redigest(t, withForgery), "Authorization", adminToken(t, c))
	if entryStatus != importStatus || entryAnswer.(map[string]any)["code"] != importAnswer.(map[string]any)["code"] {
		t.Errorf("a bad signature: POST /api/entries %d %v, but an import %d %v", entryStatus, entryAnswer, importStatus, importAnswer)
	}
	nothingWritten := func(what string) {
		t.Helper()
		for _, id := range order {
			if status, _ := call(t, "GET", baseC+"/api/entries/"+id, nil); status != http.StatusNotFound {
				t.Errorf("%s: %s is held: %d", what, id, status)
			}
		}
	}
	nothingWritten("after the forgeries")

	// A state rule: on this node the owner revised the first map another
	// way, so the proposal's base and the merge's previous are stale. The
	// evidence and assessment, which would pass, are not written either.
	owner := actors["owner"]
	registerAs(t, c, baseC, owner)
	b := fresh()
	for _, name := range []string{"question", "claim", "map"} {
		r := record(b, slices.Index(order, ids[name]))
		if status, v := call(t, "POST", baseC+"/api/entries", mustJSON(t, map[string]any{"record": r["record"], "signature": r["signature"]})); status != http.StatusCreated {
			t.Fatalf("publishing %s on the importer: %d %v", name, status, v)
		}
	}
	mapContent := contractStep(t, "map")
	mapContent["title"], mapContent["previous"] = "Reproducibility map, revised here", ids["map"]
	wire, _ := envelope(t, owner, substituteIDs(t, mapContent, ids), time.Now())
	if status, v := call(t, "POST", baseC+"/api/entries", wire); status != http.StatusCreated {
		t.Fatalf("revising the map on the importer: %d %v", status, v)
	}
	size := c.log.Size()
	status, v := call(t, "POST", baseC+"/api/bundles/import", data, "Authorization", adminToken(t, c))
	got, _ := v.(map[string]any)
	issues, _ := got["issues"].([]any)
	if status != http.StatusConflict || got["code"] != library.CodeStaleBase || len(issues) != 1 || issues[0].(map[string]any)["record"] != ids["proposal"] {
		t.Errorf("import over a diverged map: %d %v, want 409 stale_base naming the proposal", status, v)
	}
	for _, name := range []string{"evidence", "assessment", "proposal", "merge"} {
		if status, _ := call(t, "GET", baseC+"/api/entries/"+ids[name], nil); status != http.StatusNotFound {
			t.Errorf("the refused import wrote %s: %d", name, status)
		}
	}
	if after := c.log.Size(); after != size {
		t.Errorf("the refused import logged %d entries", after-size)
	}
}

// contractStep is the content of the write contract's example step name,
// with its $names.
func contractStep(t *testing.T, name string) map[string]any {
	t.Helper()
	for _, s := range contractDocument(t)["write_contract"].(map[string]any)["examples"].(map[string]any)["steps"].([]any) {
		if step := s.(map[string]any); step["name"] == name {
			return step["content"].(map[string]any)
		}
	}
	t.Fatalf("no step %s", name)
	return nil
}

// registerAs registers a's key on node n, with an invitation, as newAuthor
// does for a new key.
func registerAs(t *testing.T, n *Node, base string, a author) {
	t.Helper()
	if status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, a.key), "name": "Owner"})); status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	if status, v := call(t, "POST", base+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": a.id}), "Authorization", adminToken(t, n)); status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
}

// TestLibraryBundleSize: a bundle over the limit is refused both ways,
// 413, before anything is written.
//
// It changes libraryhttp.BundleLimit, which every node in the process
// reads, so it runs alone, never in parallel with other tests.
func TestLibraryBundleSize(t *testing.T) {
	_, baseA, ids, _ := examplesNode(t)
	c, srvC := testNode(t)
	_, data := getBundle(t, baseA+"/api/bundles/"+ids["merge"])

	limit := libraryhttp.BundleLimit
	t.Cleanup(func() { libraryhttp.BundleLimit = limit })
	libraryhttp.BundleLimit = 1000
	for _, path := range []string{"/api/bundles/" + ids["merge"], "/api/review-bundles/" + ids["o.claim"]} {
		if status, v := call(t, "GET", baseA+path, nil); status != http.StatusRequestEntityTooLarge {
			t.Errorf("GET %s over the limit: %d %v", path, status, v)
		}
	}
	libraryhttp.BundleLimit = len(data) - 1
	if status, v := call(t, "POST", srvC.URL+"/api/bundles/import", data, "Authorization", adminToken(t, c)); status != http.StatusRequestEntityTooLarge {
		t.Errorf("import over the limit: %d %v", status, v)
	}
	if status, _ := call(t, "GET", srvC.URL+"/api/entries/"+ids["merge"], nil); status != http.StatusNotFound {
		t.Errorf("the refused import wrote the merge: %d", status)
	}
	libraryhttp.BundleLimit = len(data)
	if status, v := call(t, "POST", srvC.URL+"/api/bundles/import", data, "Authorization", adminToken(t, c)); status != http.StatusCreated {
		t.Errorf("import within the limit: %d %v", status, v)
	}
	// The contract's own limit.
	libraryhttp.BundleLimit = limit
	big := bytes.Repeat([]byte(" "), library.MaxBundleBytes+1)
	if status, v := call(t, "POST", srvC.URL+"/api/bundles/import", big, "Authorization", adminToken(t, c)); status != http.StatusRequestEntityTooLarge {
		t.Errorf("import of %d bytes: %d %v", len(big), status, v)
	}
}
