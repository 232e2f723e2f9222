package node

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// author is a registered operator the node invited, so its bundles go free
// under the seeding rule.
type author struct {
	id  string
	key *hybrid.PrivateKey
}

func newAuthor(t testing.TB, n *Node, base string) author {
	t.Helper()
	token, err := os.ReadFile(AdminTokenPath(n.cfg.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	return newAuthorWith(t, base, string(token))
}

// newAuthorWith is newAuthor for a node served at base whose admin token
// is token (one running in a child process).
func newAuthorWith(t testing.TB, base, token string) author {
	t.Helper()
	key, _ := hybrid.GenerateKey()
	status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": "Author"}))
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	id := v.(map[string]any)["operator"].(string)
	status, v = call(t, "POST", base+"/api/v1/admin/invitations", mustJSON(t, map[string]any{"operator": id}), "Authorization", "Bearer "+token)
	if status != http.StatusCreated {
		t.Fatalf("invite: %d %v", status, v)
	}
	return author{id, key}
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// realisticBundle is a study with every part the spec describes: a paper
// with every section but Provenance, placeholders and numbers the
// integrity check flags and exempts, claims with a computation, a
// measurement and a proof, results, references (one never cited),
// materials, a data table with a repeated row, a large file sent through
// uploads, and an external pointer.
func realisticBundle(t *testing.T, a author) (files map[string][]byte, big []byte) {
	t.Helper()
	big = bytes.Repeat([]byte("large data, sent ahead of the bundle\n"), 30000)
	files = map[string][]byte{
		"paper.md": []byte(`# Thermal drift in bench thermometers

## Summary

We measured drift over 42 days and found a loss of {{R1.loss}}; twenty-seven sensors failed.
Two methods agree, as Table 1 shows, in work begun in 2024.

## Claims

The drift is {{R2.value}} per week (C2), and the bound in Eq. (1) holds:

$$
d \le k t \tag{1}
$$

## Methods

We sampled 120 sensors at 0.5 Hz with code in [the run](code/run.py).

## Results

Inline math $x = 3.5$ and code ` + "`n = 7`" + ` are not prose. See [Klebanoff (2001)](doi:10.1142/S0218348X01000828).

**Table 1.** Drift per week.

| quantity | value |
|---|---|
| drift | {{R2.value}} |

## Discussion

Earlier work reported 13 sensors.

## Limitations

One lab.
`),
		"claims.json": []byte(`[
 {"local_id": "C1", "type": "empirical", "core": true, "statement": "Thermometer drift loss is bounded by the model", "evidence": [{"result": "R1.loss", "produced_by": "code/run.py", "tolerance": 0.01}], "depends_on": [], "confidence": 0.8},
 {"local_id": "C2", "type": "empirical", "core": true, "statement": "Bench thermometers drift weekly", "evidence": [{"result": "R2.value", "measured": "data/measure.csv", "tolerance": 0.5}], "depends_on": [], "confidence": 0.7},
 {"local_id": "C3", "type": "theoretical", "core": false, "statement": "The drift bound follows from the sensor model", "evidence": [{"proof": "proofs/Drift.lean", "theorem": "Drift.bound", "checker": "lean4"}], "depends_on": ["C1"], "confidence": 0.9}
]`),
		"results/R1.json":   []byte(`{"loss": 0.25}`),
		"results/R2.json":   []byte(`{"value": 12.5}`),
		"code/run.py":       []byte("print('drift')\n"),
		"proofs/Drift.lean": []byte("theorem bound : True := trivial\n"),
		"data/measure.csv":  []byte("sensor,drift\n1,12.1\n2,12.9\n"),
		"data/table.csv":    []byte("a,b\n1,2\n3,4\n1,2\n"),
		"references.json": []byte(`[
 {"id": "doi:10.1142/S0218348X01000828", "title": "Fractal dimension of some sets", "authors": ["Klebanoff, A."], "year": 2001, "claims": ["C1"]},
 {"id": "arxiv:2101.00001", "title": "A paper never cited", "authors": ["Doe, J."], "year": 2021}
]`),
		"materials.json":     []byte(`[{"kind": "instrument", "name": "Bench thermometer", "source": "the work itself"}]`),
		"data/external.json": []byte(`[{"path": "data/public/stations.csv", "url": "https://example.org/stations.csv", "sha256": "sha256:` + strings.Repeat("ab", 32) + `", "bytes": 1000, "license": "CC0-1.0"}]`),
	}
	manifest := map[string]any{
		"operator_key_digest": protocol.KeyDigest(a.key.Public().String()),
		"fields":              []any{"metrology", "physics"},
		"license":             map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
		"model_families":      []any{"claude"},
		"models":              []any{"claude-test-1"},
		"compute":             map[string]any{"minutes": 30, "gpu": false},
		"replication":         map[string]any{"needs": []any{map[string]any{"kind": "lab", "hours": 40}}, "days": 30},
		"hazard_screen":       map[string]any{"rubric": hazard.Digest(), "model": "claude-test-1"},
	}
	files["manifest.json"] = mustJSON(t, manifest)
	return files, big
}

// signedBody is a check's or submission's body: the files, the uploaded
// ones by digest, and the signature over the bundle hash.
func signedBody(t testing.TB, key *hybrid.PrivateKey, files map[string][]byte, uploaded map[string]string) ([]byte, string) {
	t.Helper()
	digests, err := bundle.DigestWithUploads(files, uploaded)
	if err != nil {
		t.Fatal(err)
	}
	payload := mustJSON(t, map[string]any{"type": "bundle", "bundle": digests.Bundle})
	wire := map[string]any{}
	for p, data := range files {
		wire[p] = base64.StdEncoding.EncodeToString(data)
	}
	wire["signature"] = base64.StdEncoding.EncodeToString([]byte(key.Sign(payload)))
	body := map[string]any{"files": wire}
	if len(uploaded) > 0 {
		up := map[string]any{}
		for p, d := range uploaded {
			up[p] = d
		}
		body["uploaded"] = up
	}
	return mustJSON(t, body), digests.Bundle
}

// upload asks for a link for data and PUTs it.
func upload(t *testing.T, base string, a author, data []byte) string {
	t.Helper()
	d := sha(data)
	req := map[string]any{"type": "upload_request", "operator": a.id, "time": tlog.FormatTimestamp(time.Now()),
		"files": []any{map[string]any{"digest": d, "bytes": len(data)}}}
	if err := protocol.Sign(req, a.key); err != nil {
		t.Fatal(err)
	}
	status, v := call(t, "POST", base+"/api/v1/uploads", mustJSON(t, req))
	if status != http.StatusOK {
		t.Fatalf("upload request: %d %v", status, v)
	}
	file := v.(map[string]any)["files"].([]any)[0].(map[string]any)
	link := file["upload"].(map[string]any)
	// Wrong bytes of the right size are refused and keep nothing.
	wrong := bytes.Clone(data)
	wrong[0] ^= 1
	if status, v := call(t, "PUT", base+link["url"].(string), wrong); status != http.StatusBadRequest || v.(map[string]any)["code"] != "digest_mismatch" {
		t.Fatalf("PUT of wrong bytes: %d %v", status, v)
	}
	if status, v := call(t, "PUT", base+link["url"].(string), data[:len(data)-1]); status != http.StatusBadRequest {
		t.Fatalf("PUT of too few bytes: %d %v", status, v)
	}
	if status, v := call(t, "PUT", base+link["url"].(string), data); status != http.StatusCreated {
		t.Fatalf("PUT: %d %v", status, v)
	}
	// Asking again answers that the node has it.
	if status, v := call(t, "POST", base+"/api/v1/uploads", mustJSON(t, req)); status != http.StatusOK ||
		v.(map[string]any)["files"].([]any)[0].(map[string]any)["present"] != true {
		t.Fatalf("upload request again: %d %v", status, v)
	}
	return d
}

// TestBundleEndToEnd takes a realistic bundle from check to seal to open,
// reads everything back, and audits the log with the protocol core.
func TestBundleEndToEnd(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: 200 * time.Millisecond})
	base := srv.URL
	a := newAuthor(t, n, base)
	files, big := realisticBundle(t, a)
	bigDigest := upload(t, base, a, big)
	uploaded := map[string]string{"data/big.csv": bigDigest}
	body, hash := signedBody(t, a.key, files, uploaded)

	// The check: ready, free under the seeding rule, with exactly the
	// integrity flags the paper and data earn.
	status, v := call(t, "POST", base+"/api/v1/bundles/check", body)
	if status != http.StatusOK {
		t.Fatalf("check: %d %v", status, v)
	}
	check := v.(map[string]any)
	if check["ready"] != true || check["bundle"] != hash {
		t.Fatalf("check not ready: issues %v, publishing %v", check["issues"], check["publishing"])
	}
	price := check["price"].(map[string]any)
	if price["free"] != "seed" || price["charged"] != 0.0 {
		t.Errorf("price = %v", price)
	}
	integrity := check["integrity"].(map[string]any)
	var orphans []string
	for _, o := range integrity["orphan_numbers"].([]any) {
		o := o.(map[string]any)
		orphans = append(orphans, fmt.Sprintf("%v:%v:%v %v", o["section"], o["line"], o["column"], o["number"]))
	}
	wantOrphans := []string{"Summary:5:24 42", "Summary:5:65 twenty-seven"}
	if !slices.Equal(orphans, wantOrphans) {
		t.Errorf("orphan numbers = %v, want %v", orphans, wantOrphans)
	}
	for name, want := range map[string]string{
		"missing_sections":   `["Provenance"]`,
		"missing_files":      `[]`,
		"uncited_references": `["arxiv:2101.00001"]`,
		"unlisted_citations": `[]`,
		"skipped":            fmt.Sprintf(`[{"bytes":%d,"path":"data/big.csv"}]`, len(big)),
	} {
		if got := string(mustJSON(t, integrity[name])); got != want {
			t.Errorf("integrity %s = %s, want %s", name, got, want)
		}
	}
	data := integrity["data"].([]any)
	if len(data) != 1 || data[0].(map[string]any)["kind"] != "duplicate_rows" || data[0].(map[string]any)["path"] != "data/table.csv" {
		t.Errorf("data flags = %v", data)
	}
	var claimIDs []any
	for _, c := range check["claims"].([]any) {
		claimIDs = append(claimIDs, c.(map[string]any)["claim_id"])
	}

	// Submit seals it; again answers where it stands.
	status, v = call(t, "POST", base+"/api/v1/bundles", body)
	if status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, v)
	}
	sub := v.(map[string]any)
	if sub["bundle"] != hash || sub["state"] != "sealed" || sub["entry"] != nil {
		t.Fatalf("submit answered %v", sub)
	}
	sealedIndex := uint64(sub["sealed"].(float64))
	status, v = call(t, "POST", base+"/api/v1/bundles", body)
	if status != http.StatusOK || v.(map[string]any)["sealed"] != sub["sealed"] {
		t.Fatalf("submit again: %d %v", status, v)
	}

	// It opens under the node's policy.
	var revealed uint64
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, v = call(t, "GET", base+"/api/v1/sealed/"+itoa(sealedIndex), nil)
		if status != http.StatusOK {
			t.Fatalf("sealed: %d %v", status, v)
		}
		if v.(map[string]any)["state"] == "open" {
			revealed = uint64(v.(map[string]any)["revealed_in"].(float64))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bundle did not open: %v", v)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The opened entry's commitment opens, and every receipt verifies.
	_, v = call(t, "GET", base+"/api/v1/log", nil)
	pub := v.(map[string]any)["public_key"].(string)
	head := v.(map[string]any)["tree_head"].(map[string]any)
	size := uint64(head["size"].(float64))
	leaves := map[uint64]map[string]any{}
	for i := range size {
		status, v := call(t, "GET", base+"/api/v1/log/entries/"+itoa(i), nil)
		if status != http.StatusOK {
			t.Fatalf("receipt %d: %d %v", i, status, v)
		}
		r, err := tlog.ParseReceipt(mustJSON(t, v))
		if err != nil {
			t.Fatal(err)
		}
		if err := tlog.VerifyReceipt(r, pub); err != nil {
			t.Fatalf("receipt %d: %v", i, err)
		}
		leaves[i] = v.(map[string]any)["leaf"].(map[string]any)
	}
	sealedLeaf, openLeaf := leaves[sealedIndex], leaves[revealed]
	seal := openLeaf["sealed"].(map[string]any)
	if uint64(seal["index"].(float64)) != sealedIndex {
		t.Fatalf("the opened leaf names sealed index %v, want %d", seal["index"], sealedIndex)
	}
	commitment, err := protocol.SealCommitment(openLeaf["entry"].(map[string]any), seal["salt"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if commitment != sealedLeaf["entry"].(map[string]any)["commitment"] {
		t.Fatalf("the opened entry does not open the commitment")
	}
	if !protocol.Verify(mustSigned(t, base, sealedIndex), pub) {
		t.Errorf("the sealed entry is not signed by the log")
	}
	if got := string(mustJSON(t, openLeaf["claims"])); got != string(mustJSON(t, claimIDs)) {
		t.Errorf("opened leaf claims %s, want %s", got, mustJSON(t, claimIDs))
	}
	if got := string(mustJSON(t, openLeaf["fields"])); got != `["metrology","physics"]` {
		t.Errorf("opened leaf fields %s", got)
	}
	signedBundle := mustSigned(t, base, revealed)
	if !protocol.Verify(map[string]any{"type": "bundle", "bundle": hash, "sig": signedBundle["sig"]}, a.key.Public().String()) {
		t.Errorf("the opened bundle entry is not the author's signature")
	}

	// The bundle and every file read back byte-identical.
	status, v = call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
	if status != http.StatusOK {
		t.Fatalf("bundle: %d %v", status, v)
	}
	read := v.(map[string]any)
	readFiles := read["files"].(map[string]any)
	files["data/big.csv"] = big
	files["signature"] = []byte(signedBundle["sig"].(string))
	if len(readFiles) != len(files) {
		t.Errorf("the bundle lists %d files, want %d", len(readFiles), len(files))
	}
	for p, want := range files {
		resp, err := http.Get(base + "/api/v1/files/" + readFiles[p].(string))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
			t.Errorf("file %s read back %d, %d bytes, want %d", p, resp.StatusCode, len(got), len(want))
		}
		if !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("file %s: Cache-Control %q", p, resp.Header.Get("Cache-Control"))
		}
	}
	req, _ := http.NewRequest("GET", base+"/api/v1/files/"+bigDigest, nil)
	req.Header.Set("Range", "bytes=10-19")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(part, big[10:20]) {
		t.Errorf("range read: %d %q", resp.StatusCode, part)
	}
	_, v = call(t, "GET", base+"/api/v1/files?start=0&end=100", nil)
	listed := v.(map[string]any)["entries"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["bundle"] != hash {
		t.Errorf("files listing = %v", listed)
	}
	mirrorFiles := map[string]string{}
	for p, d := range listed[0].(map[string]any)["files"].(map[string]any) {
		mirrorFiles[p] = d.(string)
	}
	if d, err := canonical.CanonicalDigest(anyMap(mirrorFiles)); err != nil || d != hash {
		t.Errorf("the listed files hash to %s, not the bundle hash %s", d, hash)
	}

	// Its claims are found by a prefix word, by field, by depends_on.
	found := func(query string) []any {
		t.Helper()
		status, v := call(t, "GET", base+"/api/v1/claims?"+query, nil)
		if status != http.StatusOK {
			t.Fatalf("claims?%s: %d %v", query, status, v)
		}
		var ids []any
		for _, c := range v.(map[string]any)["claims"].([]any) {
			ids = append(ids, c.(map[string]any)["claim_id"])
		}
		return ids
	}
	if got := found("q=thermom"); !slices.Equal(got, claimIDs[:2]) {
		t.Errorf("q=thermom found %v", got)
	}
	if got := found("q=drift+-weekly"); !slices.Equal(got, []any{claimIDs[0], claimIDs[2]}) {
		t.Errorf("q=drift -weekly found %v", got)
	}
	if got := found("field=metrology"); !slices.Equal(got, claimIDs) {
		t.Errorf("field found %v", got)
	}
	if got := found("cites=arxiv:2101.00001"); !slices.Equal(got, claimIDs) {
		t.Errorf("cites of a reference supporting the whole work found %v", got)
	}
	if got := found("depends_on=" + claimIDs[0].(string)); !slices.Equal(got, claimIDs[2:]) {
		t.Errorf("depends_on found %v", got)
	}
	if got := found("cites=doi:10.1142/S0218348X01000828"); !slices.Equal(got, claimIDs[:1]) {
		t.Errorf("cites found %v", got)
	}
	// The feed delivers them once.
	status, v = call(t, "GET", base+"/api/v1/claims?since=0&wait=1", nil)
	feed := v.(map[string]any)
	if status != http.StatusOK || len(feed["claims"].([]any)) != 3 {
		t.Fatalf("feed: %d %v", status, v)
	}
	next := feed["next"].(map[string]any)["since"].(float64)
	start := time.Now()
	status, v = call(t, "GET", base+"/api/v1/claims?since="+itoa(uint64(next))+"&wait=1", nil)
	if status != http.StatusOK || len(v.(map[string]any)["claims"].([]any)) != 0 || time.Since(start) < 900*time.Millisecond {
		t.Errorf("feed after the last: %d %v after %s", status, v, time.Since(start))
	}
	// A claim's record.
	status, v = call(t, "GET", base+"/api/v1/claims/"+claimIDs[0].(string), nil)
	if status != http.StatusOK || !slices.Equal(v.(map[string]any)["depended_on_by"].([]any), claimIDs[2:]) {
		t.Errorf("claim: %d %v", status, v)
	}
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mustSigned(t *testing.T, base string, index uint64) map[string]any {
	t.Helper()
	status, v := call(t, "GET", base+"/api/v1/log/entries/"+itoa(index)+"/signed", nil)
	if status != http.StatusOK {
		t.Fatalf("signed %d: %d %v", index, status, v)
	}
	return v.(map[string]any)["entry"].(map[string]any)
}
