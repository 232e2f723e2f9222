package node

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
)

// TestBundleCheckDeadline gives the bundle check a deadline it can't meet:
// the check stops between stages and answers the spec's 503 busy with
// Retry-After, rather than running on.
func TestBundleCheckDeadline(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, CheckTimeout: time.Nanosecond})
	a := newAuthor(t, n, srv.URL)
	files, _ := realisticBundle(t, a)
	body, _ := signedBody(t, a.key, files, nil)
	for _, route := range []string{"/api/v1/bundles/check", "/api/v1/bundles"} {
		resp, v := callResponse(t, "POST", srv.URL+route, body)
		if resp.StatusCode != http.StatusServiceUnavailable || v["code"] != "busy" || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s past its deadline: %d %v (Retry-After %q); want 503 busy with Retry-After", route, resp.StatusCode, v, resp.Header.Get("Retry-After"))
		}
	}
}

// callResponse is call with the response's headers: the status, the headers
// and the JSON body as an object (nil when it is not one).
func callResponse(t testing.TB, method, url string, body []byte) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := canonical.Parse(data)
	obj, _ := v.(map[string]any)
	return resp, obj
}
