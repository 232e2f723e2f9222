package mcpread

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"

	"github.com/agora-node/agora/internal/httpapi"
)

// transportCodes are the codes of the refusals the MCP transport answers
// itself, by status.
var transportCodes = map[int]string{
	http.StatusBadRequest:            "bad_request",
	http.StatusNotFound:              "not_found",
	http.StatusMethodNotAllowed:      "method_not_allowed",
	http.StatusNotAcceptable:         "not_acceptable",
	http.StatusRequestEntityTooLarge: "too_large",
	http.StatusUnsupportedMediaType:  "unsupported_media_type",
}

// jsonErrors answers the transport's own refusals (a body that is not
// JSON-RPC, one over the bound, a wrong Content-Type or Accept), which the
// SDK writes as plain text, in the node's {"error", "code"}, as every
// route answers. Tool errors are not among them: they are JSON-RPC
// results.
func jsonErrors(logger *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ew := &errorWriter{ResponseWriter: w}
		h.ServeHTTP(ew, r)
		if ew.status == 0 {
			return
		}
		code, ok := transportCodes[ew.status]
		if !ok {
			code = "internal"
		}
		httpapi.WriteError(logger, w, r, &httpapi.Error{Status: ew.status, Code: code, Message: "MCP: " + strings.TrimSpace(ew.body.String())})
	})
}

// errorWriter passes a response through unless it is a plain-text
// refusal, which it keeps (status and up to 1 KiB of text) for jsonErrors.
type errorWriter struct {
	http.ResponseWriter
	status int // the refusal's; 0 while passing through
	body   bytes.Buffer
}

func (w *errorWriter) WriteHeader(status int) {
	if status >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.status = status
		w.Header().Del("Content-Length")
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *errorWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		return w.ResponseWriter.Write(b)
	}
	if room := 1024 - w.body.Len(); room > 0 {
		w.body.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

// Unwrap lets http.ResponseController reach the connection (flushes and
// deadlines).
func (w *errorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *errorWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.status == 0 {
		f.Flush()
	}
}
