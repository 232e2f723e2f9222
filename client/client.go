// Package client is the Go client of an Agora node's HTTP API: one
// transport, and a method for each route a client calls on it.
//
// The transport is a Client: the node's base URL, the http.Client that
// carries the requests (its timeout is the caller's choice; every call
// also ends with its context), an optional bearer token (WithToken), JSON
// bodies sent as canonical JSON (RFC 8785), answers read whole up to a
// bound, and a refusal (an answer other than 2xx) returned as an *Error
// carrying the status and the spec's {"error", "code"} body. An answer
// that is 2xx but not what the route gives wraps ErrBadAnswer; no answer
// at all is any other error.
//
// The routes are those of the node's four faces:
//
//   - the ledger, the sciencejournal protocol (spec/ledger-protocol.md): the log,
//     operators and identities (ledger.go), bundles, uploads and claims
//     (bundles.go);
//   - the library, the Alexandria agent read/write contract
//     (library/contract.json): contributions, the catalogue, the changes feed
//     and personal lists (library.go);
//   - the node's admin routes, behind its admin token (WithToken):
//     invitations, library scopes, memory adapters and records (admin.go);
//   - memory ingress, memory-agent-ingress/v1
//     (memory/memory-agent-ingress-v1.schema.json), behind an adapter's token
//     (memory.go), whose refusals are the contract's *memory.Error rather
//     than an *Error.
//
// Each method sends one request and returns the answer parsed into the
// protocol core's types (tlog.TreeHead, tlog.Receipt, tlog.CheckpointKeys),
// package memory's, or a small struct or map of this package. The client
// checks shapes, never trust: verifying what the node answered is the
// caller's job, with the verifiers of packages tlog, protocol and library.
// Only the bundle calls send a request again (bundles.go, as the spec's
// client does); every other call is sent once.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
)

// maxAnswer bounds the body of any answer read: a page of 100 entries is a
// few megabytes at most.
const maxAnswer = 64 << 20

// Client talks to one node. It is safe for concurrent use.
type Client struct {
	base  string
	hc    *http.Client
	token string // sent as "Authorization: Bearer <token>" when not empty
}

// An Option sets how a Client sends its requests.
type Option func(*Client)

// WithToken has the client send token as a bearer token with every
// request: the node's admin token for the admin routes, an adapter's token
// for memory ingress. The ledger's and the library's routes need none.
func WithToken(token string) Option {
	return func(c *Client) { c.token = strings.TrimSpace(token) }
}

// New returns a client of the node at baseURL, such as
// "http://127.0.0.1:8080", sending its requests with hc (nil means
// http.DefaultClient, which has no timeout: bound each call with its
// context).
func New(baseURL string, hc *http.Client, opts ...Option) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := &Client{base: strings.TrimRight(baseURL, "/"), hc: hc}
	for _, o := range opts {
		o(c)
	}
	return c
}

// BaseURL is the node's URL, as given to New without a trailing slash.
func (c *Client) BaseURL() string { return c.base }

// Error is a node's refusal: the HTTP status and the spec's {"error",
// "code"} body, with retry_after_seconds when the node limits the rate.
type Error struct {
	Status     int
	Code       string // such as "not_found" or "rate_limited"; empty if the body had none
	Message    string // the node's "error", or the status text
	RetryAfter int    // seconds, when the node said when to try again
}

func (e *Error) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("the node answered %d: %s", e.Status, e.Message)
	}
	return fmt.Sprintf("the node answered %d %s: %s", e.Status, e.Code, e.Message)
}

// IsCode reports whether err is an *Error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// ErrBadAnswer is wrapped by the error a call returns when the node
// answered 2xx with something that is not what the route gives: a node of
// another version, or not an Agora node at all.
var ErrBadAnswer = errors.New("client: the answer is not what the route gives")

// answerError is an answer that is not the route's: it wraps both
// ErrBadAnswer and the cause.
type answerError struct {
	msg string
	err error
}

func (e *answerError) Error() string   { return e.msg }
func (e *answerError) Unwrap() []error { return []error{ErrBadAnswer, e.err} }

func badAnswer(err error, format string, args ...any) error {
	return &answerError{msg: fmt.Sprintf(format, args...), err: err}
}

// exchange sends one request (body, when not nil, exactly as given) and
// reads its answer whole, whatever the status. It fails only when no whole
// answer came. header pairs are set after the client's own headers, so a
// call can send another token.
func (c *Client) exchange(ctx context.Context, method, path string, body []byte, header ...string) (*http.Response, []byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, nil, fmt.Errorf("client: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, nil, fmt.Errorf("client: reading the answer to %s %s: %w", method, path, err)
	}
	if len(data) > maxAnswer {
		return nil, nil, fmt.Errorf("client: the answer to %s %s is larger than %d bytes", method, path, maxAnswer)
	}
	return resp, data, nil
}

// do sends a request and returns the body of a 2xx answer and its status.
// body, when not nil, is sent as canonical JSON; header pairs are set.
func (c *Client) do(ctx context.Context, method, path string, body any, header ...string) ([]byte, int, error) {
	var b []byte
	if body != nil {
		var err error
		if b, err = canonical.Marshal(body); err != nil {
			return nil, 0, fmt.Errorf("client: encoding the request: %w", err)
		}
	}
	return c.sendRaw(ctx, method, path, b, header...)
}

// sendRaw sends body exactly as given (an envelope's bytes are the
// client's to keep, never re-encoded) with the header pairs set, and
// returns the answer, the status, and for an answer other than 2xx an
// *Error, with the body still returned.
func (c *Client) sendRaw(ctx context.Context, method, path string, body []byte, header ...string) ([]byte, int, error) {
	resp, data, err := c.exchange(ctx, method, path, body, header...)
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode/100 != 2 {
		return data, resp.StatusCode, apiError(resp, data)
	}
	return data, resp.StatusCode, nil
}

func apiError(resp *http.Response, data []byte) *Error {
	e := &Error{Status: resp.StatusCode}
	var body struct {
		Error      string `json:"error"`
		Code       string `json:"code"`
		RetryAfter int    `json:"retry_after_seconds"`
	}
	if json.Unmarshal(data, &body) == nil {
		e.Message, e.Code, e.RetryAfter = body.Error, body.Code, body.RetryAfter
	}
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	if e.RetryAfter == 0 {
		e.RetryAfter, _ = strconv.Atoi(resp.Header.Get("Retry-After"))
	}
	return e
}

// getJSON sends a GET and decodes the answer into v.
func (c *Client) getJSON(ctx context.Context, path string, v any) error {
	data, _, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	return decode(path, data, v)
}

// post sends body as canonical JSON and decodes the answer into v.
func (c *Client) post(ctx context.Context, path string, body, v any, header ...string) error {
	data, _, err := c.do(ctx, http.MethodPost, path, body, header...)
	if err != nil {
		return err
	}
	return decode(path, data, v)
}

func decode(path string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return badAnswer(err, "client: the answer to %s is not what the protocol gives: %v", path, err)
	}
	return nil
}

// parseObject reads a JSON object strictly (I-JSON), as the protocol's
// canonical form needs it: numbers as float64, so re-encoding gives the
// bytes a signature or a leaf hash covers.
func parseObject(what string, raw json.RawMessage) (map[string]any, error) {
	v, err := canonical.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("client: %s: %w", what, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, badAnswer(errors.New("not an object"), "client: %s is not a JSON object", what)
	}
	return obj, nil
}
