package node

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/translog"
	"github.com/agora-node/agora/vocabulary"
)

// TestServedStatusesAreTheLogs runs a randomized history through a real
// node: eight verifiers of eight organizations and three families publish
// studies and answer their rounds with seeded random verdicts (mismatches,
// unfavourable and idle ones among them), the node restarts halfway, and
// corrections follow, some carrying a claim over and some changing it,
// then disputes (challenges with random panel verdicts, a retraction, a
// void) and a second restart. Then every claim's statuses as the node serves them must equal those
// derived from its log alone, read over HTTP with each bundle's files, and
// so must every operator's nectar, reputation, limits, badges and place,
// with claims' importance as the node serves it (ratings are not logged).
func TestServedStatusesAreTheLogs(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	cfg := Config{DataDir: dir, OpenAfter: -1, Qualification: "off", CanaryRate: -1, FreeBundles: FreeAll,
		CheckpointInterval: translog.MinCheckpointInterval}
	n, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(n.Handler())
	r := rand.New(rand.NewPCG(15, 15))
	var mu sync.Mutex
	random := func(kind, honest string) string {
		mu.Lock()
		defer mu.Unlock()
		verdicts, ok := jobVerdicts(kind)
		if !ok || r.IntN(2) > 0 {
			return honest
		}
		return verdicts[r.IntN(len(verdicts))]
	}
	var vs []verifier
	// Raters score importance differently, from their own seed so the
	// verdicts' draws stay as they were.
	scores := rand.New(rand.NewPCG(18, 18))
	for i, family := range []string{"gpt", "gemini", "llama", "gpt", "gemini", "llama", "gpt", "gemini"} {
		v := invitedVerifier(t, n, srv.URL, fmt.Sprintf("V%d", i), family)
		v.verdictFor = random
		v.importance = 20 + scores.IntN(71)
		vs = append(vs, v)
	}
	var published []struct {
		by    verifier
		files map[string][]byte
		hash  string
	}
	publish := func(base string, by verifier, files map[string][]byte) {
		hash, _ := by.submit(t, base, files)
		published = append(published, struct {
			by    verifier
			files map[string][]byte
			hash  string
		}{by, files, hash})
	}
	for i := range 8 {
		by := vs[i%len(vs)]
		publish(srv.URL, by, sumBundle(t, by.keyDigest(), by.family, fmt.Sprintf("study %d", i), i%3 != 2))
	}
	hashesOf := func() []string {
		var hs []string
		for _, p := range published {
			hs = append(hs, p.hash)
		}
		return hs
	}
	workUntilOpen(t, srv.URL, vs, hashesOf())

	srv.Close()
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n, err = New(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(n.Handler())

	for i, p := range published[:4] {
		files := maps.Clone(p.files)
		if i%2 == 0 {
			// The same claims with a clearer paper: the claim carries over.
			files["paper.md"] = append(bytes.Clone(files["paper.md"]), "\nA clearer word.\n"...)
		} else {
			files = sumBundle(t, p.by.keyDigest(), p.by.family, fmt.Sprintf("study %d, corrected", i), true)
		}
		manifest := map[string]any{}
		if v, err := canonical.Parse(files["manifest.json"]); err == nil {
			manifest = v.(map[string]any)
		}
		manifest["replaces"] = p.hash
		files["manifest.json"] = mustJSON(t, manifest)
		publish(srv.URL, p.by, files)
	}
	workUntilOpen(t, srv.URL, vs, hashesOf())

	var studies []studyRef
	for _, p := range published {
		studies = append(studies, studyRef{p.by, p.hash})
	}
	made := disputeHistory(t, n, srv.URL, vs, studies, r)
	if made["challenge"] == 0 || made["retraction"] == 0 || made["void"] == 0 {
		t.Errorf("the disputes phase made too little: %v", made)
	}
	// Restarted again: what the node serves after its store is reread
	// must still be what the log gives.
	srv.Close()
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n, err = New(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	srv = httptest.NewServer(n.Handler())
	defer srv.Close()

	leaves, _, _ := loggedEntries(t, n, srv.URL, vs)
	raw := make([][]byte, len(leaves))
	for i, leaf := range leaves {
		if raw[i], err = canonical.Marshal(leaf); err != nil {
			t.Fatal(err)
		}
	}
	derived, err := status.Derive(raw, httpFiles(t, srv.URL), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]int{}
	for id, want := range derived {
		code, v := call(t, "GET", srv.URL+"/api/v1/claims/"+id, nil)
		if code != http.StatusOK {
			t.Fatalf("GET claim %s: %d %v", id, code, v)
		}
		var served []string
		for _, s := range v.(map[string]any)["statuses"].([]any) {
			served = append(served, s.(string))
		}
		if !slices.Equal(served, want.Statuses) {
			t.Errorf("claim %s: the node serves %v, its log gives %v", id, served, want.Statuses)
		}
		for _, s := range want.Statuses {
			held[s]++
		}
	}
	t.Logf("%d claims from %d entries: %v; disputes %v", len(derived), len(raw), held, made)
	// And every operator's nectar, reputation, limits, badges and place.
	sheet := servedStandingIsTheLogs(t, srv.URL, raw)
	earned, scored := 0, 0
	for _, op := range sheet.Operators() {
		st := sheet.Of(op)
		if st.Nectar.Total != 0 {
			earned++
		}
		if st.Reputation.Score != 0 {
			scored++
		}
	}
	t.Logf("standing: %d operators, %d nectar events, %d with nectar, %d with reputation", len(sheet.Operators()), len(sheet.Events), earned, scored)
	if earned == 0 || scored == 0 {
		t.Errorf("the history earned too little: %d operators with nectar, %d with reputation", earned, scored)
	}
	if len(derived) < 8 || held["reproduced"] == 0 || held["reviewed"] == 0 || held["retracted"] == 0 {
		t.Errorf("the history tested too little: %d claims, %v", len(derived), held)
	}
}

func jobVerdicts(kind string) ([]string, bool) {
	for _, j := range vocabulary.AttestationJobs {
		if j.Job == kind {
			return j.Verdicts, true
		}
	}
	return nil, false
}

// httpFiles reads an opened bundle's files from the node, as agora status
// does.
func httpFiles(t *testing.T, base string) status.Files {
	return func(hash, path string) ([]byte, error) {
		code, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
		if code != http.StatusOK {
			return nil, fmt.Errorf("bundle %s: %d", hash, code)
		}
		files, _ := v.(map[string]any)["files"].(map[string]any)
		digest, _ := files[path].(string)
		resp, err := http.Get(base + "/api/v1/files/" + digest)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("file %s: %d", digest, resp.StatusCode)
		}
		return data, nil
	}
}
