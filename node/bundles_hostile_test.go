package node

import (
	"bytes"
	"errors"
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

// TestBundleCheckAdmission checks what happens before a check reads its
// body: the pool (a check waits in the queue while the one worker is held,
// and past the queue the answer is 503 busy with Retry-After), and each
// address's allowance (429 with Retry-After past it, and the submissions'
// own allowance untouched by checks).
func TestBundleCheckAdmission(t *testing.T) {
	n, srv := testNodeWith(t, Config{OpenAfter: -1, ChecksPerMinute: 3, CheckWorkers: 1, CheckQueue: 1, CheckQueueWait: 5 * time.Second})
	a := newAuthor(t, n, srv.URL)
	files, _ := realisticBundle(t, a)
	body, _ := signedBody(t, a.key, files, nil)

	// The one worker is held by a check whose body has not all arrived.
	held, w := io.Pipe()
	t.Cleanup(func() { w.CloseWithError(errors.New("test over")) })
	heldDone := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", srv.URL+"/api/v1/bundles/check", held)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			heldDone <- 0
			return
		}
		resp.Body.Close()
		heldDone <- resp.StatusCode
	}()
	if _, err := w.Write(body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}
	// A second check waits in the queue for it; then a submission finds
	// the queue full.
	queued := make(chan int, 1)
	go func() {
		resp, _ := callResponse(t, "POST", srv.URL+"/api/v1/bundles/check", body)
		queued <- resp.StatusCode
	}()
	time.Sleep(300 * time.Millisecond) // for the queued check to reach the queue first
	resp, v := callResponse(t, "POST", srv.URL+"/api/v1/bundles", body)
	if resp.StatusCode != http.StatusServiceUnavailable || v["code"] != "busy" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("with the worker held and a check queued, a submission answered %d %v (Retry-After %q); want 503 busy with Retry-After",
			resp.StatusCode, v, resp.Header.Get("Retry-After"))
	}
	// The held check finishes; the queued one then runs.
	if _, err := w.Write(body[len(body)/2:]); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if status := <-heldDone; status != http.StatusOK {
		t.Errorf("the held check answered %d", status)
	}
	if status := <-queued; status != http.StatusOK {
		t.Errorf("the queued check answered %d; want 200 once the worker came free", status)
	}

	// Three checks a minute from this address: the two above and one more.
	if resp, v := callResponse(t, "POST", srv.URL+"/api/v1/bundles/check", body); resp.StatusCode != http.StatusOK {
		t.Fatalf("the third check: %d %v", resp.StatusCode, v)
	}
	resp, v = callResponse(t, "POST", srv.URL+"/api/v1/bundles/check", body)
	if resp.StatusCode != http.StatusTooManyRequests || v["code"] != "rate_limited" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the fourth check in a minute: %d %v (Retry-After %q); want 429 rate_limited with Retry-After", resp.StatusCode, v, resp.Header.Get("Retry-After"))
	}
	// Submissions have their own allowance.
	if resp, v := callResponse(t, "POST", srv.URL+"/api/v1/bundles", body); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("a submission after the checks ran out: %d %v; want 202", resp.StatusCode, v)
	}
}
