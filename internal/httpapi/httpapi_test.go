package httpapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/translog"
)

// TestWriteErrorStatuses checks the statuses WriteError chooses for the
// errors no handler classified: the log's pushback is the spec's 503 busy
// with Retry-After (spec/ledger-protocol.md, "Common problems": "Only 503
// with "code": "busy" asks for nothing but patience"), not a 500.
func TestWriteErrorStatuses(t *testing.T) {
	for _, c := range []struct {
		name       string
		err        error
		status     int
		code       string
		retryAfter string
	}{
		{"pushback", fmt.Errorf("appending: %w", translog.ErrPushback), http.StatusServiceUnavailable, "busy", "1"},
		{"not found", fmt.Errorf("reading: %w", translog.ErrNotFound), http.StatusNotFound, "not_found", ""},
		{"anything else", errors.New("disk on fire"), http.StatusInternalServerError, "internal", ""},
		{"classified", &Error{Status: http.StatusTeapot, Code: "teapot", Message: "short and stout", Err: translog.ErrPushback}, http.StatusTeapot, "teapot", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			WriteError(slog.New(slog.NewTextHandler(io.Discard, nil)), w, httptest.NewRequest("POST", "/api/entries", nil), c.err)
			v, err := canonical.Parse(w.Body.Bytes())
			if err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			body := v.(map[string]any)
			if w.Code != c.status || body["code"] != c.code || w.Header().Get("Retry-After") != c.retryAfter {
				t.Errorf("%d %v Retry-After %q, want %d %s %q", w.Code, body, w.Header().Get("Retry-After"), c.status, c.code, c.retryAfter)
			}
			if msg, _ := body["error"].(string); msg == "" {
				t.Errorf("no message: %v", body)
			}
			if c.retryAfter != "" && body["retry_after_seconds"] != 1.0 {
				t.Errorf("retry_after_seconds %v, want 1", body["retry_after_seconds"])
			}
		})
	}
}

// TestReadBodyDeclaredSize reads bodies of declared sizes around the
// buffer's steps whole, and refuses one shorter than it declared.
func TestReadBodyDeclaredSize(t *testing.T) {
	for _, size := range []int{1, 64<<10 - 1, 64 << 10, 64<<10 + 1, 300 << 10} {
		want := bytes.Repeat([]byte("abc"), size/3+1)[:size]
		r := httptest.NewRequest("POST", "/", bytes.NewReader(want))
		got, err := ReadBody(r, "The body", 1<<20)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: got %d bytes, %v", size, len(got), err)
		}
	}
	r := httptest.NewRequest("POST", "/", bytes.NewReader(make([]byte, 10)))
	r.ContentLength = 100
	if _, err := ReadBody(r, "The body", 1<<20); err == nil {
		t.Error("a body shorter than its Content-Length was read")
	}
}

// TestServeSendsLength checks that an answer larger than net/http's
// buffer goes out whole with its Content-Length, not chunked, over a real
// connection, and that a Text answer does too.
func TestServeSendsLength(t *testing.T) {
	big := strings.Repeat("x", 10_000)
	mux := http.NewServeMux()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux.Handle("/json", Serve(logger, func(*http.Request) (any, int, error) {
		return map[string]any{"body": big}, http.StatusCreated, nil
	}))
	mux.Handle("/text", Serve(logger, func(*http.Request) (any, int, error) {
		return Text{ContentType: "text/plain", Body: []byte(big)}, http.StatusOK, nil
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for path, want := range map[string]string{"/json": `{"body":"` + big + `"}`, "/text": big} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != want {
			t.Errorf("%s: body of %d bytes, want %d", path, len(body), len(want))
		}
		if resp.ContentLength != int64(len(want)) || len(resp.TransferEncoding) > 0 {
			t.Errorf("%s: Content-Length %d, Transfer-Encoding %v; want %d, none", path, resp.ContentLength, resp.TransferEncoding, len(want))
		}
	}
}
