package node

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// TestBundleBadInput sends every bundle, upload, sealed and reading route
// malformed, oversized, unsigned, wrongly signed, not anonymous and
// over-limit requests, and checks each gets the spec's status and code.
func TestBundleBadInput(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1})
	base := srv.URL
	a := newAuthor(t, n, base)
	files, _ := realisticBundle(t, a)
	variant := func(change func(f map[string][]byte)) map[string][]byte {
		f := map[string][]byte{}
		for p, d := range files {
			f[p] = d
		}
		change(f)
		return f
	}
	body := func(f map[string][]byte) []byte {
		b, _ := signedBody(t, a.key, f, nil)
		return b
	}
	wire := func(f map[string][]byte) []byte {
		m := map[string]any{}
		for p, d := range f {
			m[p] = base64.StdEncoding.EncodeToString(d)
		}
		return mustJSON(t, map[string]any{"files": m})
	}
	// A stranger's key, never registered, and a registered one with no
	// identity.
	stranger, _ := hybrid.GenerateKey()
	unidentified, _ := hybrid.GenerateKey()
	if status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, unidentified), "name": "Loner"})); status != 201 {
		t.Fatalf("register: %d %v", status, v)
	}
	withKey := func(k *hybrid.PrivateKey) []byte {
		f := variant(func(f map[string][]byte) {
			f["manifest.json"] = bytes.Replace(f["manifest.json"], []byte(protocol.KeyDigest(a.key.Public().String())), []byte(protocol.KeyDigest(k.Public().String())), 1)
		})
		b, _ := signedBody(t, k, f, nil)
		return b
	}
	manyFiles := variant(func(f map[string][]byte) {
		for i := range 1000 {
			f[fmt.Sprintf("data/f%04d.csv", i)] = []byte("x\n")
		}
	})
	tooBig := variant(func(f map[string][]byte) { f["data/big.bin"] = bytes.Repeat([]byte{1}, 10<<20) })
	longSummary := variant(func(f map[string][]byte) {
		f["paper.md"] = bytes.Replace(f["paper.md"], []byte("## Claims"), []byte(strings.Repeat("word ", 400)+"\n\n## Claims"), 1)
	})
	named := variant(func(f map[string][]byte) {
		f["code/run.py"] = []byte("# written by " + a.id + "\nprint('drift')\n")
	})
	noScreen := variant(func(f map[string][]byte) {
		m, _ := canonical.Parse(f["manifest.json"])
		delete(m.(map[string]any), "hazard_screen")
		f["manifest.json"] = mustJSON(t, m)
	})
	unsigned := variant(func(f map[string][]byte) {})
	wronglySigned := body(files)
	wronglySigned = bytes.Replace(wronglySigned, []byte(`"signature":"`), []byte(`"signature":"AAAA`), 1)
	badPath := variant(func(f map[string][]byte) { f["notes.txt"] = []byte("not allowed at the top") })
	badJSON := variant(func(f map[string][]byte) { f["materials.json"] = []byte(`[{"kind": "antibody", "kind": "x"}]`) })
	badSchema := variant(func(f map[string][]byte) { f["materials.json"] = []byte(`[{"kind": "spaceship", "name": "x"}]`) })

	// A sealed bundle to void and read.
	status, v := call(t, "POST", base+"/api/v1/bundles", body(files))
	if status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, v)
	}
	sealedIndex := uint64(v.(map[string]any)["sealed"].(float64))
	sealedHash := v.(map[string]any)["bundle"].(string)
	voidEntry := func(k *hybrid.PrivateKey, author string, index uint64) []byte {
		e := map[string]any{"type": "void", "author": author, "sealed": index}
		if err := protocol.Sign(e, k); err != nil {
			t.Fatal(err)
		}
		return mustJSON(t, map[string]any{"entry": e})
	}
	uploadRequest := func(k *hybrid.PrivateKey, at time.Time, files []any) []byte {
		r := map[string]any{"type": "upload_request", "operator": a.id, "time": tlog.FormatTimestamp(at), "files": files}
		if err := protocol.Sign(r, k); err != nil {
			t.Fatal(err)
		}
		return mustJSON(t, r)
	}
	oneFile := []any{map[string]any{"digest": sha([]byte("x")), "bytes": 1}}
	var hundredOne []any
	for i := range 101 {
		hundredOne = append(hundredOne, map[string]any{"digest": sha([]byte{byte(i)}), "bytes": 1})
	}
	huge := []any{map[string]any{"digest": sha([]byte("y")), "bytes": 6 << 30}}
	zero := strings.Repeat("0", 64)

	for _, tc := range []struct {
		name, method, path string
		body               []byte
		status             int
		code               string
	}{
		{"check: malformed JSON", "POST", "/api/v1/bundles/check", []byte(`{"files":`), 400, "invalid_json"},
		{"check: not an object", "POST", "/api/v1/bundles/check", []byte(`[]`), 400, "bad_request"},
		{"check: unknown member", "POST", "/api/v1/bundles/check", []byte(`{"files":{},"extra":1}`), 400, "bad_request"},
		{"check: not base64", "POST", "/api/v1/bundles/check", []byte(`{"files":{"paper.md":"%%%"}}`), 400, "bad_request"},
		{"check: oversized body", "POST", "/api/v1/bundles/check", bytes.Repeat([]byte(" "), ledgerhttp.MaxBundleBody+1), 413, "too_large"},
		{"check: over 1000 files", "POST", "/api/v1/bundles/check", wire(manyFiles), 413, "too_large"},
		{"check: over 10 MB", "POST", "/api/v1/bundles/check", wire(tooBig), 413, "too_large"},
		{"check: a path the rules refuse", "POST", "/api/v1/bundles/check", wire(badPath), 422, "invalid_bundle"},
		{"check: an upload never sent", "POST", "/api/v1/bundles/check", []byte(`{"files":{},"uploaded":{"data/x.bin":"sha256:` + zero + `"}}`), 422, "invalid_bundle"},
		{"submit: unknown key", "POST", "/api/v1/bundles", withKey(stranger), 403, "unknown_key"},
		{"submit: no identity", "POST", "/api/v1/bundles", withKey(unidentified), 403, "no_identity"},
		{"submit: unsigned", "POST", "/api/v1/bundles", wire(unsigned), 422, "invalid_bundle"},
		{"submit: wrongly signed", "POST", "/api/v1/bundles", wronglySigned, 422, "invalid_bundle"},
		{"submit: not anonymous", "POST", "/api/v1/bundles", body(named), 422, "invalid_bundle"},
		{"submit: no hazard screen", "POST", "/api/v1/bundles", body(noScreen), 422, "invalid_bundle"},
		{"submit: Summary over 300 tokens", "POST", "/api/v1/bundles", body(longSummary), 422, "invalid_bundle"},
		{"submit: a JSON file not I-JSON", "POST", "/api/v1/bundles", body(badJSON), 422, "invalid_bundle"},
		{"submit: a file against its schema", "POST", "/api/v1/bundles", body(badSchema), 422, "invalid_bundle"},
		{"submit: over 10 MB", "POST", "/api/v1/bundles", wire(tooBig), 413, "too_large"},
		{"uploads: unsigned", "POST", "/api/v1/uploads", mustJSON(t, map[string]any{"type": "upload_request", "operator": a.id, "time": tlog.FormatTimestamp(time.Now()), "files": oneFile}), 400, "bad_request"},
		{"uploads: wrongly signed", "POST", "/api/v1/uploads", uploadRequest(stranger, time.Now(), oneFile), 401, "bad_signature"},
		{"uploads: stale", "POST", "/api/v1/uploads", uploadRequest(a.key, time.Now().Add(-time.Hour), oneFile), 400, "stale"},
		{"uploads: over 100 files", "POST", "/api/v1/uploads", uploadRequest(a.key, time.Now(), hundredOne), 400, "bad_request"},
		{"uploads: over 5 GB", "POST", "/api/v1/uploads", uploadRequest(a.key, time.Now(), huge), 413, "too_large"},
		{"upload PUT: not a link the node gave", "PUT", "/api/v1/uploads/sha256:" + zero + "?operator=" + a.id + "&bytes=1&expires=9999999999&sig=00", []byte("x"), 403, "bad_link"},
		{"sealed: not an index", "GET", "/api/v1/sealed/x", nil, 400, "bad_request"},
		{"sealed: no sealed entry there", "GET", "/api/v1/sealed/0", nil, 404, "not_found"},
		{"void: not the author", "POST", "/api/v1/sealed/" + itoa(sealedIndex) + "/void", voidEntry(unidentified, protocol.OperatorID(unidentified.Public().String()), sealedIndex), 403, "not_author"},
		{"void: wrongly signed", "POST", "/api/v1/sealed/" + itoa(sealedIndex) + "/void", voidEntry(stranger, a.id, sealedIndex), 401, "bad_signature"},
		{"void: another index", "POST", "/api/v1/sealed/" + itoa(sealedIndex) + "/void", voidEntry(a.key, a.id, sealedIndex+1), 400, "bad_request"},
		{"bundle: sealed, not readable", "GET", "/api/v1/bundles/" + sealedHash, nil, 404, "not_found"},
		{"bundle: unknown", "GET", "/api/v1/bundles/sha256:" + zero, nil, 404, "not_found"},
		{"file: not a digest", "GET", "/api/v1/files/abc", nil, 400, "bad_request"},
		{"file: of no open bundle", "GET", "/api/v1/files/sha256:" + zero, nil, 404, "not_found"},
		{"files: no start", "GET", "/api/v1/files", nil, 400, "bad_request"},
		{"claims: limit over 50", "GET", "/api/v1/claims?limit=51", nil, 400, "bad_request"},
		{"claims: unknown parameter", "GET", "/api/v1/claims?colour=red", nil, 400, "bad_request"},
		{"claims: unknown status", "GET", "/api/v1/claims?status=famous", nil, 400, "bad_request"},
		{"claims: only words left out", "GET", "/api/v1/claims?q=-drift", nil, 400, "bad_request"},
		{"claims: offset without sort=importance", "GET", "/api/v1/claims?offset=20", nil, 400, "bad_request"},
		{"claim: not an ID", "GET", "/api/v1/claims/claim:1", nil, 400, "bad_request"},
		{"claim: unknown", "GET", "/api/v1/claims/claim:" + zero, nil, 404, "not_found"},
		{"validate: not JSON", "POST", "/api/v1/claims/validate", []byte(`claims`), 400, "invalid_json"},
		{"validate: not the object", "POST", "/api/v1/claims/validate", []byte(`[]`), 400, "bad_request"},
		{"validate: over 256 KB", "POST", "/api/v1/claims/validate", bytes.Repeat([]byte(" "), 257<<10), 413, "too_large"},
		{"schema: unknown", "GET", "/api/v1/schemas/nope.json", nil, 404, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, v := call(t, tc.method, base+tc.path, tc.body)
			body, _ := v.(map[string]any)
			if status != tc.status || body["code"] != tc.code {
				t.Fatalf("%s %s: %d %v; want %d %q", tc.method, tc.path, status, short(v), tc.status, tc.code)
			}
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("no error message: %v", v)
			}
			if status == 422 && strings.HasPrefix(tc.name, "submit") {
				if issues, _ := body["issues"].([]any); len(issues) == 0 {
					t.Errorf("a 422 without issues: %v", v)
				}
			}
		})
	}

	// Invalid claims are a 422 in the validation shape, valid ones a 200.
	status, v = call(t, "POST", base+"/api/v1/claims/validate", []byte(`{"claims": [{"local_id": "C1"}]}`))
	if status != 422 || v.(map[string]any)["valid"] != false || len(v.(map[string]any)["issues"].([]any)) == 0 {
		t.Errorf("invalid claims: %d %v", status, v)
	}
	status, v = call(t, "POST", base+"/api/v1/claims/validate", []byte(`{"claims": `+string(files["claims.json"])+`}`))
	if status != 200 || v.(map[string]any)["valid"] != true {
		t.Errorf("valid claims: %d %v", status, v)
	}
	if status, v := call(t, "GET", base+"/api/v1/schemas/materials.json", nil); status != 200 || !strings.Contains(fmt.Sprint(v), "antibody") {
		t.Errorf("materials schema: %d", status)
	}
	if status, v := call(t, "GET", base+"/api/v1/hazard-rubric", nil); status != 200 || !strings.HasPrefix(v.(map[string]any)["digest"].(string), "sha256:") {
		t.Errorf("hazard rubric: %d %v", status, v)
	}

	// The author voids its sealed bundle: withdrawn, and it never opens.
	status, v = call(t, "POST", base+"/api/v1/sealed/"+itoa(sealedIndex)+"/void", voidEntry(a.key, a.id, sealedIndex))
	if status != 200 || v.(map[string]any)["state"] != "withdrawn" {
		t.Fatalf("void: %d %v", status, v)
	}
	status, v = call(t, "GET", base+"/api/v1/sealed/"+itoa(sealedIndex), nil)
	if status != 200 || v.(map[string]any)["state"] != "withdrawn" || v.(map[string]any)["reason"] != "voided" {
		t.Errorf("sealed after void: %d %v", status, v)
	}
	withdrawal := mustSigned(t, base, uint64(v.(map[string]any)["withdrawn_in"].(float64)))
	if withdrawal["type"] != "withdrawal" || withdrawal["reason"] != "voided" || withdrawal["bundle"] != sealedHash {
		t.Errorf("withdrawal entry %v", withdrawal)
	}
	if _, err := n.ledger.OpenBundle(t.Context(), mustBundle(t, n, sealedHash)); err == nil {
		t.Error("a voided bundle opened")
	}

	// Uploads no bundle holds are swept a week on; a bundle's files stay.
	unused := upload(t, base, a, bytes.Repeat([]byte("unused "), 1000))
	held := sha(files["paper.md"])
	n.ledger.SweepUploadsOnce(t.Context(), time.Now())
	if !n.files.Has(unused) {
		t.Error("an upload was swept before its week was up")
	}
	n.ledger.SweepUploadsOnce(t.Context(), time.Now().Add(8*24*time.Hour))
	if n.files.Has(unused) || !n.files.Has(held) {
		t.Errorf("after a week: unused upload kept %v, a bundle's file kept %v", n.files.Has(unused), n.files.Has(held))
	}

	// One submission of an operator at a time.
	release, ok, err := n.ledger.StartSubmission(t.Context(), a.id)
	if err != nil || !ok {
		t.Fatalf("startSubmission refused the first: %v", err)
	}
	status, v = call(t, "POST", base+"/api/v1/bundles", body(variant(func(f map[string][]byte) { f["code/extra.py"] = []byte("1\n") })))
	release()
	if status != 409 || v.(map[string]any)["code"] != "in_progress" {
		t.Errorf("a second submission while one is stored: %d %v", status, short(v))
	}
}

// TestBundleLimits checks the daily bundle limit and that a bundle needs
// credit when the node makes none free.
func TestBundleLimits(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("seals ten bundles")
	}
	n, srv := testNodeWith(t, Config{OpenAfter: -1, FreeBundles: FreeAll})
	a := newAuthor(t, n, srv.URL)
	files, _ := realisticBundle(t, a)
	claimsJSON := string(files["claims.json"])
	for i := range 11 {
		files["code/n.py"] = []byte(fmt.Sprintf("n = %d\n", i))
		// Each a study of its own: one repeating another's claims is its
		// correction (409 new_version).
		files["claims.json"] = []byte(strings.ReplaceAll(claimsJSON, `"statement": "`, fmt.Sprintf(`"statement": "In run %d, `, i)))
		b, _ := signedBody(t, a.key, files, nil)
		status, v := call(t, "POST", srv.URL+"/api/v1/bundles", b)
		switch {
		case i < 10 && status != http.StatusAccepted:
			t.Fatalf("bundle %d: %d %v", i, status, short(v))
		case i == 10 && (status != http.StatusTooManyRequests || v.(map[string]any)["code"] != "rate_limited"):
			t.Fatalf("the 11th bundle in a day: %d %v", status, short(v))
		}
	}

	n2, srv2 := testNodeWith(t, Config{OpenAfter: -1, FreeBundles: FreeNone})
	a2 := newAuthor(t, n2, srv2.URL)
	files2, _ := realisticBundle(t, a2)
	b, _ := signedBody(t, a2.key, files2, nil)
	status, v := call(t, "POST", srv2.URL+"/api/v1/bundles/check", b)
	if status != 200 || v.(map[string]any)["ready"] != false || v.(map[string]any)["publishing"].(map[string]any)["needs"] != "credit" {
		t.Fatalf("check without credit: %d %v", status, short(v))
	}
	if status, v := call(t, "POST", srv2.URL+"/api/v1/bundles", b); status != 403 || v.(map[string]any)["code"] != "verify_first" {
		t.Fatalf("submit without credit: %d %v", status, short(v))
	}
}

func mustBundle(t *testing.T, n *Node, hash string) ledger.Bundle {
	t.Helper()
	b, err := n.store.Bundle(t.Context(), hash)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// short keeps a failure message readable.
func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
