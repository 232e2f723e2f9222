package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// TestBundleCheckDeadline gives the bundle check a deadline it can't meet:
// the check stops between stages and answers the spec's 503 busy with
// Retry-After, rather than running on.
func TestBundleCheckDeadline(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestBundleBodyLimit checks that Config.MaxBundleBodyBytes holds for both
// bundle routes, by Content-Length and, without one, as the body is read.
func TestBundleBodyLimit(t *testing.T) {
	t.Parallel()
	_, srv := testNodeWith(t, Config{MaxBundleBodyBytes: 1 << 20})
	body := append([]byte(`{"files":{"data/x.bin":"`), bytes.Repeat([]byte("A"), 1<<20)...)
	body = append(body, `"}}`...)
	for _, route := range []string{"/api/v1/bundles/check", "/api/v1/bundles"} {
		if resp, v := callResponse(t, "POST", srv.URL+route, body); resp.StatusCode != http.StatusRequestEntityTooLarge || v["code"] != "too_large" {
			t.Errorf("%s with a body over the limit: %d %v; want 413 too_large", route, resp.StatusCode, v)
		}
		req, _ := http.NewRequest("POST", srv.URL+route, io.MultiReader(bytes.NewReader(body))) // no Content-Length
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s with a body over the limit and no Content-Length: %d; want 413", route, resp.StatusCode)
		}
	}
}

// TestSubmissionSignatureFirst sends submissions whose paper would be
// refused for its structure: who signed them is checked first, so a
// stranger's gets 403 and a bad signature 422 naming only the signature,
// and only the author's own, signed, hears about the paper.
func TestSubmissionSignatureFirst(t *testing.T) {
	t.Parallel()
	n, srv := testNodeWith(t, Config{OpenAfter: -1})
	a := newAuthor(t, n, srv.URL)
	files, _ := realisticBundle(t, a)
	files["paper.md"] = bytes.Repeat([]byte(">"), 150000)
	stranger, _ := hybrid.GenerateKey()
	strangers := map[string][]byte{}
	for p, d := range files {
		strangers[p] = d
	}
	strangers["manifest.json"] = bytes.Replace(files["manifest.json"], []byte(protocol.KeyDigest(a.key.Public().String())), []byte(protocol.KeyDigest(stranger.Public().String())), 1)
	strangerBody, _ := signedBody(t, stranger, strangers, nil)
	wrongKey, _ := signedBody(t, stranger, files, nil)
	own, _ := signedBody(t, a.key, files, nil)
	unsigned := mustJSON(t, map[string]any{"files": map[string]any{
		"paper.md": base64.StdEncoding.EncodeToString(files["paper.md"]), "manifest.json": base64.StdEncoding.EncodeToString(files["manifest.json"])}})
	for _, tc := range []struct {
		name   string
		body   []byte
		status int
		code   string
		issue  string // in the only issue's message
	}{
		{"a stranger's key", strangerBody, 403, "unknown_key", ""},
		{"signed by another key", wrongKey, 422, "invalid_bundle", "the signature does not verify"},
		{"unsigned", unsigned, 422, "invalid_bundle", "no signature"},
		{"the author's own", own, 422, "invalid_bundle", "MaxNestingDepth"},
	} {
		resp, v := callResponse(t, "POST", srv.URL+"/api/v1/bundles", tc.body)
		if resp.StatusCode != tc.status || v["code"] != tc.code {
			t.Errorf("%s: %d %v; want %d %s", tc.name, resp.StatusCode, v, tc.status, tc.code)
			continue
		}
		if tc.issue == "" {
			continue
		}
		issues, _ := v["issues"].([]any)
		if len(issues) != 1 || !strings.Contains(fmt.Sprint(issues[0]), tc.issue) {
			t.Errorf("%s: issues %v; want one about %q", tc.name, issues, tc.issue)
		}
	}
}

// TestBundleCheckClientGone checks that a check whose client leaves once
// its body is sent stops at its next stage instead of running to the end:
// the handler sees the canceled context (logged as "request canceled")
// within a stage of the client leaving, rather than at the end, or writing
// an answer no one reads.
//
// It measures how soon a check stops, so it runs alone, never in
// parallel with other tests.
func TestBundleCheckClientGone(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	n, srv := testNodeWith(t, Config{OpenAfter: -1, Logger: logger})
	a := newAuthor(t, n, srv.URL)
	files, _ := realisticBundle(t, a)
	// Eight data files of a million numbers each: about a second of
	// validation, in eight stages.
	numbers := []byte("[" + strings.Repeat("1.5,", 250000) + "1]")
	for i := range 8 {
		files[fmt.Sprintf("data/n%d.json", i)] = numbers
	}
	body, _ := signedBody(t, a.key, files, nil)

	// The whole check, left to run: what a check that ignored its client
	// leaving would take.
	began := time.Now()
	if status, v := call(t, "POST", srv.URL+"/api/v1/bundles/check", body); status != http.StatusOK {
		t.Fatalf("the check: %d %v", status, v)
	}
	whole := time.Since(began)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan struct{})
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/api/v1/bundles/check", &signalAtEOF{r: bytes.NewReader(body), eof: sent})
	req.ContentLength = int64(len(body))
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	<-sent
	time.Sleep(100 * time.Millisecond) // the check is under way
	cancel()
	left := time.Now()
	if err := <-answered; err == nil {
		t.Fatal("the check was answered before its client left; make it longer")
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "request canceled") {
		if time.Now().After(deadline) {
			t.Fatalf("the check never saw its client leave; the log says:\n%s", logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The client left 100 ms in: running on would take the rest of the
	// whole check; stopping at the next stage (one of eight) far less.
	// Both scale with how busy the machine is.
	if stopped := time.Since(left); stopped > whole/2 {
		t.Errorf("the check stopped %s after its client left; the whole check takes %s", stopped, whole)
	} else {
		t.Logf("the check stopped %s after its client left; the whole check takes %s", stopped, whole)
	}
}

// signalAtEOF is a reader that closes eof when it is read to its end.
type signalAtEOF struct {
	r    io.Reader
	eof  chan struct{}
	once sync.Once
}

func (s *signalAtEOF) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err == io.EOF {
		s.once.Do(func() { close(s.eof) })
	}
	return n, err
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
