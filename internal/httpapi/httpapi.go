// Package httpapi is the HTTP boundary every face of the node shares: a
// handler computes (response, status, error), and Serve writes the answer or
// maps the error to the ledger spec's {"error", "code"} body (spec/ledger-protocol.md,
// "Errors"), so status codes are chosen in one place and causes go only to
// the log.
package httpapi

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/translog"
)

// Error is an error with the answer the client gets: the HTTP status and
// the spec's {"error", "code"} body. The wrapped Err is logged, never sent.
type Error struct {
	Status  int
	Code    string // the spec's machine-readable code, such as "not_found"
	Message string // what the client reads
	Err     error  // the cause, for the log
	// RetryAfter, when set, is sent as Retry-After and retry_after_seconds.
	RetryAfter int
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// BadRequest is a 400 with the given code and message.
func BadRequest(code, format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound is a 404 not_found with the given message.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: "not_found", Message: fmt.Sprintf(format, args...)}
}

// IssuesError is an Error whose body also lists issues, each a JSON value
// (the spec's {"file", "path", "message"} objects, or a contract's own).
type IssuesError struct {
	Err    Error
	Issues []any
}

func (e *IssuesError) Error() string { return e.Err.Error() }

func (e *IssuesError) Unwrap() error { return &e.Err }

// Func computes one answer: the response value (encoded as canonical JSON
// unless it is a Text), its status, or an error.
type Func func(r *http.Request) (any, int, error)

// Text is an answer sent as is, such as a checkpoint.
type Text struct {
	ContentType string
	Body        []byte
}

// Serve adapts fn to http.Handler: it writes the answer, or maps the error
// to the spec's error body (see WriteError).
func Serve(logger *slog.Logger, fn Func) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, status, err := fn(r)
		if err != nil {
			WriteError(logger, w, r, err)
			return
		}
		if t, ok := v.(Text); ok {
			writeBody(w, status, t.ContentType, t.Body)
			return
		}
		body, err := canonical.Marshal(v)
		if err != nil {
			WriteError(logger, w, r, fmt.Errorf("encoding the answer: %w", err))
			return
		}
		writeBody(w, status, "application/json", body)
	})
}

// writeBody sends a whole answer with its length, so that one of more
// than net/http's 2 KB buffer (a library contribution's, a receipt) goes
// out in one piece, not chunked.
func writeBody(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h["Content-Type"] = []string{contentType}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

// WriteError answers err as the spec's error body. Errors that are not
// *Error are answered as 404 when they wrap fs.ErrNotExist, as the spec's
// 503 busy with Retry-After when the log pushes back (translog.ErrPushback:
// too many appends in flight, nothing added), else 500; their cause goes
// only to the log.
func WriteError(logger *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	ae := Classify(r.Context(), err)
	if ae == nil {
		// The client went away; nothing failed on our side.
		logger.Debug("request canceled", "method", r.Method, "path", r.URL.Path)
		return
	}
	level := slog.LevelDebug
	if ae.Status >= 500 {
		level = slog.LevelError
	}
	logger.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "status", ae.Status, "code", ae.Code, "err", err)
	body := map[string]any{"error": ae.Message, "code": ae.Code}
	var ie *IssuesError
	if errors.As(err, &ie) {
		body["issues"] = ie.Issues
	}
	if ae.RetryAfter > 0 {
		body["retry_after_seconds"] = ae.RetryAfter
		w.Header().Set("Retry-After", strconv.Itoa(ae.RetryAfter))
	}
	b, _ := canonical.Marshal(body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.Status)
	w.Write(b)
}

// Classify is the answer err gets, as WriteError says, for a front end
// that answers the same Funcs another way; it is nil when err is only
// that ctx, the request's, was canceled.
func Classify(ctx context.Context, err error) *Error {
	var ae *Error
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Status: http.StatusNotFound, Code: "not_found", Message: "Not found", Err: err}
	case errors.Is(err, translog.ErrPushback):
		return &Error{Status: http.StatusServiceUnavailable, Code: "busy", RetryAfter: 1, Err: err,
			Message: "The node is busy; send the same request again after Retry-After seconds"}
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return nil
	default:
		return &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "The node failed to answer; try again later", Err: err}
	}
}

// TooLarge is a 413 too_large saying what was larger than limit bytes.
func TooLarge(what string, limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
		Message: fmt.Sprintf("%s is larger than %d bytes", what, limit)}
}

// ReadBody reads a request body of at most limit bytes. The limit is
// checked before the body is read: an oversized Content-Length is refused
// at once. what names the body in the refusal ("The body", "The profile").
func ReadBody(r *http.Request, what string, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, TooLarge(what, limit)
	}
	if r.ContentLength > 0 {
		// The declared size, which the server holds the client to, is the
		// buffer's last size: it doubles as bytes arrive, from 64 KiB, so a
		// client that declares much and sends little gets little memory,
		// and a 14 MB bundle leaves some 14 MB of copies behind, not the
		// 40 MB io.ReadAll's smaller steps would.
		body := make([]byte, 0, min(r.ContentLength, 64<<10))
		for int64(len(body)) < r.ContentLength {
			if len(body) == cap(body) {
				body = append(make([]byte, 0, min(r.ContentLength, 2*int64(cap(body)))), body...)
			}
			n, err := r.Body.Read(body[len(body):cap(body)])
			body = body[:len(body)+n]
			if err == io.EOF && int64(len(body)) == r.ContentLength {
				break
			}
			if err != nil {
				return nil, BadRequest("bad_request", "The body could not be read")
			}
		}
		return body, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, TooLarge(what, limit)
		}
		return nil, BadRequest("bad_request", "The body could not be read")
	}
	return body, nil
}

// ReadJSON reads a request body of at most limit bytes as strict I-JSON.
func ReadJSON(r *http.Request, limit int64) (any, error) {
	body, err := ReadBody(r, "The body", limit)
	if err != nil {
		return nil, err
	}
	v, err := canonical.Parse(body)
	if err != nil {
		return nil, &Error{Status: http.StatusBadRequest, Code: "invalid_json", Message: "The body is not I-JSON: " + err.Error(), Err: err}
	}
	return v, nil
}

// QueryUint reads a non-negative integer query parameter; ok is false when
// it is absent.
func QueryUint(r *http.Request, name string) (v uint64, ok bool, err error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, false, nil
	}
	v, perr := strconv.ParseUint(s, 10, 64)
	if perr != nil || v > 1<<53-1 {
		return 0, false, BadRequest("bad_request", "%s must be a non-negative integer, not %q", name, s)
	}
	return v, true, nil
}

// Admin lets only the bearer of token through to fn. An empty token lets
// no one through.
func Admin(token string, fn Func) Func {
	return func(r *http.Request) (any, int, error) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if token == "" || !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return nil, 0, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "This needs the node's admin token"}
		}
		return fn(r)
	}
}

// ClientAddress is the address the request came from, without its port.
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// BaseURL is the node's URL as people and agents reach it: public (a
// configured address) when set, else the address the request came to.
func BaseURL(public string, r *http.Request) string {
	if public != "" {
		return strings.TrimRight(public, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// PathOperatorID reads the operator ID in the path's {id}, refusing what is
// not one.
func PathOperatorID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if !protocol.IsOperatorID(id) {
		return "", BadRequest("bad_request", "%q is not an operator ID (op: and 64 lowercase hex digits)", id)
	}
	return id, nil
}
