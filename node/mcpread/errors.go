package mcpread

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

// argumentsHint adds, to the SDK's refusal of arguments its input schema
// does not take, where to read what to send.
func argumentsHint(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError && len(r.Content) == 1 {
			if t, ok := r.Content[0].(*mcp.TextContent); ok && strings.HasPrefix(t.Text, `validating "arguments"`) {
				t.Text += ": send the arguments the tool's inputSchema describes (tools/list)"
			}
		}
		return res, err
	}
}

// recovered turns a panic under a request, which the SDK would let take
// the node down, into an error of that request alone, logged with its
// stack.
func recovered(logger *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					logger.Error("mcp request panicked", "method", method, "panic", p, "stack", string(debug.Stack()))
					res, err = nil, errors.New("the node failed to answer; try again later")
				}
			}()
			return next(ctx, method, req)
		}
	}
}
