package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/runes"
)

// The error codes of x-error-codes, in the contract's order. An adapter
// branches on the code, never on the message.
const (
	CodeBadRequest          = "bad_request"          // not JSON, not I-JSON, too large, or the path disagrees with the body
	CodeUnknownKind         = "unknown_kind"         // the kind is not one the contract defines
	CodeSchemaInvalid       = "schema_invalid"       // the body breaks the schema or a rule its descriptions state
	CodeUnauthorized        = "unauthorized"         // the adapter is not who it says
	CodeSessionUnbound      = "session_unbound"      // the session_handle names no live session
	CodeIdempotencyConflict = "idempotency_conflict" // the event_id was seen with another body
	CodeCapabilityDisabled  = "capability_disabled"  // a capability-disabled kind the profile does not enable
	CodeNotFound            = "not_found"            // a record_ref names nothing
	CodeBudgetExhausted     = "budget_exhausted"     // the session spent a budget of its profile
	CodeNoteRejected        = "note_rejected"        // a note without substance or carrying a secret
	CodeUnavailable         = "unavailable"          // the node cannot answer now; try again
	CodeInternal            = "internal"             // the node failed; the cause is in its log
)

// ErrorCodes lists every code of x-error-codes, in the contract's order.
func ErrorCodes() []string {
	return []string{
		CodeBadRequest, CodeUnknownKind, CodeSchemaInvalid, CodeUnauthorized,
		CodeSessionUnbound, CodeIdempotencyConflict, CodeCapabilityDisabled,
		CodeNotFound, CodeBudgetExhausted, CodeNoteRejected, CodeUnavailable,
		CodeInternal,
	}
}

// Error is the error object of a {"ok":false,"error":…} response. Code is one
// of the Code constants; Message is for a person and may change; Retryable
// tells the adapter whether sending the same event again can succeed.
//
// Err is the cause, for the node's log: it is never sent to the adapter,
// since it may name paths, queries or values the adapter must not see.
type Error struct {
	Code      string
	Message   string
	Retryable bool
	Err       error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Code + ": " + e.Message + ": " + e.Err.Error()
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &Error{Code: CodeNotFound}) asks "is this a not_found?"
// through any number of %w wrappings.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// newError builds an *Error with the retry advice the code carries.
func newError(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Retryable: Retryable(code)}
}

// NewError returns an *Error of code with a message formatted from format
// and args, and Retryable set as Retryable(code) advises.
func NewError(code, format string, args ...any) *Error {
	return newError(code, format, args...)
}

// Retryable says whether an error of code can go away when the same event
// is sent again unchanged. Only unavailable can: everything else is a fact
// about the event or the session that a resend does not change. A spent
// budget does not refill while its session runs, so budget_exhausted is not
// retryable even though its status, 429, tells HTTP tooling to back off.
func Retryable(code string) bool {
	return code == CodeUnavailable
}

// HTTPStatus is the status a node answers an error of code with; an unknown
// code is an internal error (500).
//
// unknown_kind is 404, not 400: the kind is the last segment of the route,
// so an unknown kind names an endpoint the node does not have, and a newer
// adapter talking to an older node gets the answer any missing route gets.
// The code, not the status, tells it apart from not_found.
func HTTPStatus(code string) int {
	switch code {
	case CodeBadRequest:
		return http.StatusBadRequest
	case CodeUnknownKind:
		return http.StatusNotFound
	case CodeSchemaInvalid:
		return http.StatusUnprocessableEntity
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeSessionUnbound, CodeIdempotencyConflict:
		return http.StatusConflict
	case CodeCapabilityDisabled:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeBudgetExhausted:
		return http.StatusTooManyRequests
	case CodeNoteRejected:
		return http.StatusUnprocessableEntity
	case CodeUnavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// AsError returns the *Error in err's chain, or, when there is none, an
// internal error whose message says nothing of the cause: a failure the node
// did not classify is not the adapter's to read. A nil err gives nil.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: "the node failed to handle the event", Err: err}
}

// maxMessageChars is the schema's bound on error.message.
const maxMessageChars = 2000

// MarshalResult returns the canonical JSON (RFC 8785) of {"ok":true,
// "result":result}. Canonical bytes let the node store a response and give
// it back byte for byte when the same event is sent again.
func MarshalResult(result any) ([]byte, error) {
	if result == nil {
		result = struct{}{}
	}
	body, err := json.Marshal(struct {
		OK     bool `json:"ok"`
		Result any  `json:"result"`
	}{true, result})
	if err != nil {
		return nil, fmt.Errorf("memory: encoding a result: %w", err)
	}
	return canonical.Canonicalize(body)
}

// MarshalError returns the canonical JSON of {"ok":false,"error":{code,
// message,retryable}} for err, as AsError classifies it, with the message cut
// to the schema's 2000 characters. It also returns the HTTP status to send.
func MarshalError(err error) (body []byte, status int) {
	e := AsError(err)
	if e == nil {
		e = &Error{Code: CodeInternal, Message: "no error was given"}
	}
	msg := e.Message
	if utf8.RuneCountInString(msg) > maxMessageChars {
		msg = runes.Prefix(msg, maxMessageChars-1) + "…"
	}
	code := e.Code
	if code == "" {
		code = CodeInternal
	}
	v := map[string]any{"ok": false, "error": map[string]any{
		"code": code, "message": msg, "retryable": e.Retryable,
	}}
	body, mErr := canonical.Marshal(v)
	if mErr != nil {
		// Only invalid UTF-8 in a message can fail; send the code alone.
		body, _ = canonical.Marshal(map[string]any{"ok": false, "error": map[string]any{
			"code": code, "message": "", "retryable": e.Retryable,
		}})
	}
	return body, HTTPStatus(code)
}
