package node

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// askUpload sends a signed upload request for one file as a and returns
// the status and the answer: the file's entry on 200, the error otherwise.
func askUpload(t *testing.T, base string, a author, digest string, size int) (int, map[string]any) {
	t.Helper()
	req := map[string]any{"type": "upload_request", "operator": a.id, "time": tlog.FormatTimestamp(time.Now()),
		"files": []any{map[string]any{"digest": digest, "bytes": size}}}
	if err := protocol.Sign(req, a.key); err != nil {
		t.Fatal(err)
	}
	status, v := call(t, "POST", base+"/api/v1/uploads", mustJSON(t, req))
	answer := v.(map[string]any)
	if status == http.StatusOK {
		return status, answer["files"].([]any)[0].(map[string]any)
	}
	return status, answer
}

// linkOf is the upload link's path in a file's entry, failing the test
// when the entry says present instead.
func linkOf(t *testing.T, file map[string]any) string {
	t.Helper()
	up, ok := file["upload"].(map[string]any)
	if file["present"] != false || !ok {
		t.Fatalf("want an upload link, got %v", file)
	}
	return up["url"].(string)
}

// registered registers an operator and proves nothing: it has no identity.
func registered(t *testing.T, base string) author {
	t.Helper()
	key, _ := hybrid.GenerateKey()
	status, v := call(t, "POST", base+"/api/v1/operators", mustJSON(t, map[string]any{"entry": keyEntry(t, key), "name": "Newcomer"}))
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, v)
	}
	return author{v.(map[string]any)["operator"].(string), key}
}

// TestUploadsNeedAnIdentity: an operator with no identity gets no upload
// link (403 no_identity, the spec's code), and gets them once it has one.
func TestUploadsNeedAnIdentity(t *testing.T) {
	t.Parallel()
	n, srv := testNode(t)
	base := srv.URL
	a := registered(t, base)
	data := []byte("data no bundle holds")
	status, v := askUpload(t, base, a, sha(data), len(data))
	if status != http.StatusForbidden || v["code"] != "no_identity" {
		t.Fatalf("upload request without an identity: %d %v", status, v)
	}
	invited := newAuthor(t, n, base)
	status, v = askUpload(t, base, invited, sha(data), len(data))
	if status != http.StatusOK {
		t.Fatalf("upload request with an identity: %d %v", status, v)
	}
	linkOf(t, v)
}

// TestUploadQuotaOfUnboundFiles: the bytes of uploads no bundle holds
// count against a per-operator quota, links asked for and not yet used
// included, and a request past it is refused naming the quota; a request
// that refreshes one already counted is not counted again.
func TestUploadQuotaOfUnboundFiles(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{UnboundUploadQuota: 1000, OrgUnboundUploadQuota: 5000})
	base := srv.URL
	a := newAuthor(t, n, base)
	first, second := bytes.Repeat([]byte("a"), 600), bytes.Repeat([]byte("b"), 600)
	status, v := askUpload(t, base, a, sha(first), len(first))
	if status != http.StatusOK {
		t.Fatalf("first request: %d %v", status, v)
	}
	link := linkOf(t, v)
	if status, v := askUpload(t, base, a, sha(first), len(first)); status != http.StatusOK {
		t.Fatalf("the same request again: %d %v", status, v)
	}
	status, v = askUpload(t, base, a, sha(second), len(second))
	if status != http.StatusTooManyRequests || v["code"] != "rate_limited" || !strings.Contains(v["error"].(string), "no bundle holds") {
		t.Fatalf("past the quota: %d %v", status, v)
	}
	// Sending the file does not free the quota: it is stored, for nobody.
	if status, v := call(t, "PUT", base+link, first); status != http.StatusCreated {
		t.Fatalf("PUT: %d %v", status, v)
	}
	if status, v := askUpload(t, base, a, sha(second), len(second)); status != http.StatusTooManyRequests {
		t.Fatalf("past the quota after the PUT: %d %v", status, v)
	}
	// Another operator has a quota of its own.
	b := newAuthor(t, n, base)
	if status, v := askUpload(t, base, b, sha(second), len(second)); status != http.StatusOK {
		t.Fatalf("another operator: %d %v", status, v)
	}
}

// TestUploadsAnswerNoOneElsesFiles: "present" is answered only to the
// operator that uploaded a file, or for a file an open bundle serves. A
// file another operator uploaded, or a sealed bundle's, is answered as
// absent: the link is given, the PUT takes and checks the whole body, and
// the answers are those of a file the node never had.
func TestUploadsAnswerNoOneElsesFiles(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: time.Hour})
	base := srv.URL
	a, b, c := newAuthor(t, n, base), newAuthor(t, n, base), newAuthor(t, n, base)
	secret := bytes.Repeat([]byte("a guess worth testing\n"), 100)
	d := upload(t, base, a, secret) // a's own request again answers present (upload checks it)

	// c asks and never sends: no answer changes when a or b send theirs.
	status, v := askUpload(t, base, c, d, len(secret))
	if status != http.StatusOK {
		t.Fatalf("c's request: %d %v", status, v)
	}
	linkOf(t, v)

	status, v = askUpload(t, base, b, d, len(secret))
	if status != http.StatusOK {
		t.Fatalf("b's request: %d %v", status, v)
	}
	link := linkOf(t, v)
	// The PUT reads the body and checks it as for a new file: wrong bytes
	// are refused, the right ones answer 201, as they would on a node
	// without the file.
	wrong := bytes.Clone(secret)
	wrong[0] ^= 1
	if status, v := call(t, "PUT", base+link, wrong); status != http.StatusBadRequest || v.(map[string]any)["code"] != "digest_mismatch" {
		t.Fatalf("b's PUT of wrong bytes: %d %v", status, v)
	}
	if status, v := call(t, "PUT", base+link, secret); status != http.StatusCreated {
		t.Fatalf("b's PUT: %d %v", status, v)
	}
	// Now b uploaded it: b is told; c, who never sent it, is not.
	if status, v := askUpload(t, base, b, d, len(secret)); status != http.StatusOK || v["present"] != true {
		t.Fatalf("b's request after its PUT: %d %v", status, v)
	}
	if status, v := askUpload(t, base, c, d, len(secret)); status != http.StatusOK || v["present"] != false {
		t.Fatalf("c's request after a's and b's PUTs: %d %v", status, v)
	}
	if data := fetchBlob(t, n, d); !bytes.Equal(data, secret) {
		t.Errorf("the stored file changed")
	}

	// A sealed bundle's file, sent inline, is not told to anyone.
	files, big := realisticBundle(t, a)
	body, _ := signedBody(t, a.key, files, map[string]string{"data/big.csv": upload(t, base, a, big)})
	if status, v := call(t, "POST", base+"/api/v1/bundles", body); status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, v)
	}
	paper := files["paper.md"]
	if status, v := askUpload(t, base, b, sha(paper), len(paper)); status != http.StatusOK || v["present"] != false {
		t.Fatalf("a sealed bundle's paper: %d %v", status, v)
	}
}

// fetchBlob reads a stored file straight from the node's blob store.
func fetchBlob(t *testing.T, n *Node, digest string) []byte {
	t.Helper()
	f, err := n.files.Open(digest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.ReadFrom(f)
	return buf.Bytes()
}

// TestUploadsAnswerPublicFiles: a file an open bundle serves is public,
// so anyone asking to upload it is told the node has it.
func TestUploadsAnswerPublicFiles(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: 100 * time.Millisecond})
	base := srv.URL
	a, b := newAuthor(t, n, base), newAuthor(t, n, base)
	files, big := realisticBundle(t, a)
	body, hash := signedBody(t, a.key, files, map[string]string{"data/big.csv": upload(t, base, a, big)})
	if status, v := call(t, "POST", base+"/api/v1/bundles", body); status != http.StatusAccepted {
		t.Fatalf("submit: %d %v", status, v)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if status, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil); status == http.StatusOK && v.(map[string]any)["state"] == "open" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bundle did not open")
		}
		time.Sleep(50 * time.Millisecond)
	}
	paper := files["paper.md"]
	if status, v := askUpload(t, base, b, sha(paper), len(paper)); status != http.StatusOK || v["present"] != true {
		t.Fatalf("an open bundle's paper: %d %v", status, v)
	}
	if status, v := askUpload(t, base, b, sha(big), len(big)); status != http.StatusOK || v["present"] != true {
		t.Fatalf("an open bundle's uploaded file: %d %v", status, v)
	}
}

// TestBundleCheckNamesNoOneElsesUploads: a bundle check naming an upload
// tells whether the file is there only to the check its uploader signed;
// unsigned, or signed by anyone else, the answer for a file another
// operator uploaded is word for word the answer for one nobody sent.
func TestBundleCheckNamesNoOneElsesUploads(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: time.Hour})
	base := srv.URL
	a, b := newAuthor(t, n, base), newAuthor(t, n, base)
	files, big := realisticBundle(t, a)
	uploaded := upload(t, base, a, big)
	never := "sha256:" + strings.Repeat("0", 64)

	answer := func(key *hybrid.PrivateKey, digest string, signed bool) (int, string) {
		t.Helper()
		body, _ := signedBody(t, key, files, map[string]string{"data/big.csv": digest})
		if !signed {
			var v map[string]any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatal(err)
			}
			delete(v["files"].(map[string]any), "signature")
			body = mustJSON(t, v)
		}
		status, v := call(t, "POST", base+"/api/v1/bundles/check", body)
		m, _ := v.(map[string]any)
		msg, _ := m["error"].(string)
		return status, strings.ReplaceAll(msg, digest, "DIGEST")
	}
	for _, c := range []struct {
		name   string
		key    *hybrid.PrivateKey
		signed bool
	}{{"unsigned", a.key, false}, {"signed by another operator", b.key, true}} {
		s1, m1 := answer(c.key, uploaded, c.signed)
		s2, m2 := answer(c.key, never, c.signed)
		if s1 != http.StatusUnprocessableEntity || s1 != s2 || m1 != m2 {
			t.Errorf("%s: a's upload answers %d %q, a file never sent %d %q; want the same 422", c.name, s1, m1, s2, m2)
		}
	}
	if status, msg := answer(a.key, uploaded, true); status != http.StatusOK {
		t.Errorf("the uploader's own signed check: %d %q; want 200", status, msg)
	}
}
