package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// The library: the Alexandria agent read/write contract's routes
// (library/contract.json). Answers are returned as parsed JSON
// (map[string]any), the signed records in them as the node served them;
// verifying a record's signature is the caller's (package library).

// ErrResyncRequired: GET /api/changes refused the cursor (409 with
// "resync_required": true); start again without one.
var ErrResyncRequired = errors.New("client: the node can no longer resume from this cursor; start again without one")

// An IssuesError is a library refusal that lists what is wrong: the
// node's "issues", each with a JSON Pointer into the content. It unwraps
// to the *Error.
type IssuesError struct {
	Refusal *Error
	Issues  []Issue
}

func (e *IssuesError) Error() string { return e.Refusal.Error() }

// Unwrap returns the *Error.
func (e *IssuesError) Unwrap() error { return e.Refusal }

// Issue is one finding of a refusal, as the node lists it.
type Issue struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// withIssues adds the issues of a refusal's body to err, an *Error.
func withIssues(err error, data []byte) error {
	var ce *Error
	var body struct {
		Issues []Issue `json:"issues"`
	}
	if !errors.As(err, &ce) || json.Unmarshal(data, &body) != nil || len(body.Issues) == 0 {
		return err
	}
	return &IssuesError{Refusal: ce, Issues: body.Issues}
}

func object(path string, data []byte) (map[string]any, error) {
	obj, err := parseObject("the answer to "+path, data)
	if err != nil {
		return nil, err
	}
	return obj, nil
}

// Publish sends a signed contribution envelope, as bytes, to POST
// /api/entries: 201 with the signed record when the node admitted it, 200
// with it when the node had it already (the answer to the same envelope
// sent again after an uncertain failure). A refusal is an *Error (an
// *IssuesError when the node lists issues); one the
// node never answered (a network failure) is any other error, and may or
// may not have been admitted: send the same bytes again.
func (c *Client) Publish(ctx context.Context, envelope []byte) (map[string]any, int, error) {
	const path = "/api/entries"
	data, status, err := c.sendRaw(ctx, http.MethodPost, path, envelope)
	if err != nil {
		return nil, status, withIssues(err, data)
	}
	rec, err := object(path, data)
	return rec, status, err
}

// Entry reads GET /api/entries/{revision}: the exact revision.
func (c *Client) Entry(ctx context.Context, revision string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/entries/"+url.PathEscape(revision), &out)
}

// Head reads GET /api/entries/{revision}/head: the current head of the
// revision's lineage.
func (c *Client) Head(ctx context.Context, revision string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/entries/"+url.PathEscape(revision)+"/head", &out)
}

// Catalogue reads GET /api/catalogue with the query q (q, kind, sort,
// offset, ...): {items, library, total, next_offset}.
func (c *Client) Catalogue(ctx context.Context, q url.Values) (map[string]any, error) {
	var out map[string]any
	path := "/api/catalogue"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return out, c.getJSON(ctx, path, &out)
}

// Changes reads one page of GET /api/changes: {items, cursor, has_more}.
// root is empty for the whole library, cursor empty for the start of its
// history, limit 0 for the node's default. A cursor the node can no longer
// resume from is an error wrapping ErrResyncRequired (and the *Error).
func (c *Client) Changes(ctx context.Context, root, cursor string, limit int) (map[string]any, error) {
	q := url.Values{}
	if root != "" {
		q.Set("root", root)
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	path := "/api/changes"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	data, status, err := c.sendRaw(ctx, http.MethodGet, path, nil)
	if err != nil {
		if status == http.StatusConflict {
			var body struct {
				Resync bool   `json:"resync_required"`
				Code   string `json:"code"`
			}
			if json.Unmarshal(data, &body) == nil && (body.Resync || body.Code == "resync_required") {
				return nil, fmt.Errorf("%w: %w", ErrResyncRequired, err)
			}
		}
		return nil, err
	}
	return object(path, data)
}

// Personal sends a signed personal-read or personal-state envelope, as
// bytes, to POST /api/personal and returns the author's latest signed
// state, nil when the author has none, and the status: 201 when the write
// stored a new state, 200 otherwise. A write from a state that is no
// longer current is an *Error with code "stale_state": read again and
// make the change on the state the read returns.
func (c *Client) Personal(ctx context.Context, envelope []byte) (map[string]any, int, error) {
	const path = "/api/personal"
	data, status, err := c.sendRaw(ctx, http.MethodPost, path, envelope)
	if err != nil {
		return nil, status, withIssues(err, data)
	}
	var a struct {
		State json.RawMessage `json:"state"`
	}
	if err := decode(path, data, &a); err != nil {
		return nil, status, err
	}
	if len(a.State) == 0 {
		return nil, status, fmt.Errorf("client: the answer to %s has no state", path)
	}
	if string(a.State) == "null" {
		return nil, status, nil
	}
	st, err := parseObject("the state answered by "+path, a.State)
	return st, status, err
}
