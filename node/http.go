package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/agora-node/agora/canonical"
)

// APIError is an error with the answer the client gets: the HTTP status and
// the spec's {"error", "code"} body. The wrapped Err is logged, never sent.
type APIError struct {
	Status  int
	Code    string // the spec's machine-readable code, such as "not_found"
	Message string // what the client reads
	Err     error  // the cause, for the log
	// RetryAfter, when set, is sent as Retry-After and retry_after_seconds.
	RetryAfter int
}

func (e *APIError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *APIError) Unwrap() error { return e.Err }

// badRequest is a 400 with the given code and message.
func badRequest(code, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// apiFunc computes one answer: the response value (encoded as canonical
// JSON unless it is a textResponse), its status, or an error.
type apiFunc func(r *http.Request) (any, int, error)

// textResponse is an answer sent as text, such as a checkpoint.
type textResponse struct {
	contentType string
	body        []byte
}

// serveAPI adapts an apiFunc to http.Handler: it writes the answer, or maps
// the error to the spec's error body in one place. Errors that are not
// APIErrors are answered as 404 when they wrap fs.ErrNotExist, else 500,
// and their cause only goes to the log.
func (n *Node) serveAPI(fn apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, status, err := fn(r)
		if err != nil {
			n.writeError(w, r, err)
			return
		}
		if t, ok := v.(textResponse); ok {
			w.Header().Set("Content-Type", t.contentType)
			w.WriteHeader(status)
			w.Write(t.body)
			return
		}
		body, err := canonical.Marshal(v)
		if err != nil {
			n.writeError(w, r, fmt.Errorf("encoding the answer: %w", err))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	})
}

func (n *Node) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *APIError
	switch {
	case errors.As(err, &ae):
	case errors.Is(err, fs.ErrNotExist):
		ae = &APIError{Status: http.StatusNotFound, Code: "not_found", Message: "Not found", Err: err}
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The client went away; nothing failed on our side.
		ae = &APIError{Status: http.StatusServiceUnavailable, Code: "canceled", Message: "The request was canceled", Err: err}
		n.logger.Debug("request canceled", "method", r.Method, "path", r.URL.Path)
		return
	default:
		ae = &APIError{Status: http.StatusInternalServerError, Code: "internal", Message: "The node failed to answer; try again later", Err: err}
	}
	level := slog.LevelDebug
	if ae.Status >= 500 {
		level = slog.LevelError
	}
	n.logger.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path, "status", ae.Status, "code", ae.Code, "err", err)
	body := map[string]any{"error": ae.Message, "code": ae.Code}
	var ie *issuesError
	if errors.As(err, &ie) {
		body["issues"] = ie.issues
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

// readJSON reads a request body of at most limit bytes as strict I-JSON.
// The limit is checked before the body is read: an oversized
// Content-Length is refused at once.
func readJSON(r *http.Request, limit int64) (any, error) {
	if r.ContentLength > limit {
		return nil, &APIError{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
			Message: fmt.Sprintf("The body is larger than %d bytes", limit)}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &APIError{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
				Message: fmt.Sprintf("The body is larger than %d bytes", limit)}
		}
		return nil, badRequest("bad_request", "The body could not be read")
	}
	v, err := canonical.Parse(body)
	if err != nil {
		return nil, &APIError{Status: http.StatusBadRequest, Code: "invalid_json", Message: "The body is not I-JSON: " + err.Error(), Err: err}
	}
	return v, nil
}

// queryUint reads a non-negative integer query parameter; ok is false when
// it is absent.
func queryUint(r *http.Request, name string) (v uint64, ok bool, err error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, false, nil
	}
	v, perr := strconv.ParseUint(s, 10, 64)
	if perr != nil || v > 1<<53-1 {
		return 0, false, badRequest("bad_request", "%s must be a non-negative integer, not %q", name, s)
	}
	return v, true, nil
}
