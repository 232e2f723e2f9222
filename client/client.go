// Package client is a small Go client of an Agora node's HTTP API, the
// sciencejournal protocol's routes for the log and for operators.
//
// Each method sends one request and returns the answer parsed into the
// protocol core's types (tlog.TreeHead, tlog.Receipt, tlog.CheckpointKeys)
// or a small struct of this package. The client checks shapes, never
// trust: verifying what the node answered is the caller's job, with the
// verifiers of packages tlog and ledger. An answer other than 2xx is
// returned as an *Error carrying the node's {"error", "code"} and status.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// maxAnswer bounds the body of any answer read: a page of 100 entries is a
// few megabytes at most.
const maxAnswer = 64 << 20

// Client talks to one node. It is safe for concurrent use.
type Client struct {
	base string
	hc   *http.Client
}

// New returns a client of the node at baseURL, such as
// "http://127.0.0.1:8080", sending its requests with hc (nil means
// http.DefaultClient).
func New(baseURL string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{base: strings.TrimRight(baseURL, "/"), hc: hc}
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
	data, status, err := c.sendRaw(ctx, method, path, b, header...)
	if err != nil {
		return nil, status, err
	}
	return data, status, nil
}

// sendRaw sends body exactly as given (an envelope's bytes are the
// client's to keep, never re-encoded) with the header pairs set, and
// returns the answer, the status, and for an answer other than 2xx an
// *Error, with the body still returned.
func (c *Client) sendRaw(ctx context.Context, method, path string, body []byte, header ...string) ([]byte, int, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, 0, fmt.Errorf("client: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("client: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, 0, fmt.Errorf("client: reading the answer to %s %s: %w", method, path, err)
	}
	if len(data) > maxAnswer {
		return nil, 0, fmt.Errorf("client: the answer to %s %s is larger than %d bytes", method, path, maxAnswer)
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

func decode(path string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("client: the answer to %s is not what the protocol gives: %w", path, err)
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
		return nil, fmt.Errorf("client: %s is not a JSON object", what)
	}
	return obj, nil
}

// LogInfo is GET /api/v1/log: the log's ID and public key, its newest
// signed tree head (nil while the log is empty and unsigned), and the
// checkpoint keys its key signed.
type LogInfo struct {
	Log            string
	PublicKey      string
	TreeHead       *tlog.TreeHead
	CheckpointKeys tlog.CheckpointKeys
}

// Log fetches the log's ID, key, newest tree head and checkpoint keys.
func (c *Client) Log(ctx context.Context) (*LogInfo, error) {
	const path = "/api/v1/log"
	var a struct {
		Log            string          `json:"log"`
		PublicKey      string          `json:"public_key"`
		TreeHead       json.RawMessage `json:"tree_head"`
		CheckpointKeys json.RawMessage `json:"checkpoint_keys"`
	}
	if err := c.getJSON(ctx, path, &a); err != nil {
		return nil, err
	}
	info := &LogInfo{Log: a.Log, PublicKey: a.PublicKey}
	if len(a.TreeHead) > 0 && string(a.TreeHead) != "null" {
		h, err := tlog.ParseTreeHead(a.TreeHead)
		if err != nil {
			return nil, fmt.Errorf("client: %s: tree_head: %w", path, err)
		}
		info.TreeHead = &h
	}
	ck, err := tlog.ParseCheckpointKeys(a.CheckpointKeys)
	if err != nil {
		return nil, fmt.Errorf("client: %s: checkpoint_keys: %w", path, err)
	}
	info.CheckpointKeys = ck
	return info, nil
}

// Entry is a leaf as GET /api/v1/log/entries lists it.
type Entry struct {
	Index    uint64
	Leaf     map[string]any // as the tree holds it: signatures by digest
	LeafHash tlog.Hash      // as the node states it; tlog.LeafHash checks it
}

// Object returns e as the JSON object the node serves.
func (e Entry) Object() map[string]any {
	return map[string]any{"index": e.Index, "leaf": e.Leaf, "leaf_hash": e.LeafHash.String()}
}

// Entries fetches the leaves from start up to end (exclusive), at most 100;
// the node answers fewer when the log holds fewer.
func (c *Client) Entries(ctx context.Context, start, end uint64) ([]Entry, error) {
	return c.entries(ctx, url.Values{"start": {u(start)}, "end": {u(end)}})
}

// LatestEntries fetches the newest n leaves, at most 100.
func (c *Client) LatestEntries(ctx context.Context, n uint64) ([]Entry, error) {
	return c.entries(ctx, url.Values{"latest": {u(n)}})
}

func u(n uint64) string { return strconv.FormatUint(n, 10) }

func (c *Client) entries(ctx context.Context, q url.Values) ([]Entry, error) {
	path := "/api/v1/log/entries?" + q.Encode()
	var a struct {
		Entries []struct {
			Index    uint64          `json:"index"`
			Leaf     json.RawMessage `json:"leaf"`
			LeafHash string          `json:"leaf_hash"`
		} `json:"entries"`
	}
	if err := c.getJSON(ctx, path, &a); err != nil {
		return nil, err
	}
	entries := make([]Entry, len(a.Entries))
	for i, e := range a.Entries {
		leaf, err := parseObject(fmt.Sprintf("%s: entries[%d].leaf", path, i), e.Leaf)
		if err != nil {
			return nil, err
		}
		h, err := tlog.ParseHash(e.LeafHash)
		if err != nil {
			return nil, fmt.Errorf("client: %s: entries[%d].leaf_hash: %w", path, i, err)
		}
		entries[i] = Entry{Index: e.Index, Leaf: leaf, LeafHash: h}
	}
	return entries, nil
}

// Receipt fetches entry index with its inclusion proof against the node's
// newest tree head. tlog.VerifyReceipt checks it.
func (c *Client) Receipt(ctx context.Context, index uint64) (*tlog.Receipt, error) {
	path := "/api/v1/log/entries/" + u(index)
	data, _, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	r, err := tlog.ParseReceipt(data)
	if err != nil {
		return nil, fmt.Errorf("client: %s: %w", path, err)
	}
	return r, nil
}

// Signed fetches entry index as its signer signed it, signatures and all.
// protocol.MatchesLeafEntry checks it against the leaf.
func (c *Client) Signed(ctx context.Context, index uint64) (map[string]any, error) {
	path := "/api/v1/log/entries/" + u(index) + "/signed"
	var a struct {
		Index uint64          `json:"index"`
		Entry json.RawMessage `json:"entry"`
	}
	if err := c.getJSON(ctx, path, &a); err != nil {
		return nil, err
	}
	if a.Index != index {
		return nil, fmt.Errorf("client: %s answered entry %d", path, a.Index)
	}
	return parseObject(path+": entry", a.Entry)
}

// InclusionProof fetches the proof of entry index in the tree of size
// entries.
func (c *Client) InclusionProof(ctx context.Context, index, size uint64) ([]tlog.Hash, error) {
	return c.proof(ctx, "/api/v1/log/proofs/inclusion?"+url.Values{"index": {u(index)}, "size": {u(size)}}.Encode())
}

// ConsistencyProof fetches the proof that the tree of second entries
// extends the tree of first.
func (c *Client) ConsistencyProof(ctx context.Context, first, second uint64) ([]tlog.Hash, error) {
	return c.proof(ctx, "/api/v1/log/proofs/consistency?"+url.Values{"first": {u(first)}, "second": {u(second)}}.Encode())
}

func (c *Client) proof(ctx context.Context, path string) ([]tlog.Hash, error) {
	var a struct {
		Proof []string `json:"proof"`
	}
	if err := c.getJSON(ctx, path, &a); err != nil {
		return nil, err
	}
	p, err := tlog.ParseHashes(a.Proof)
	if err != nil {
		return nil, fmt.Errorf("client: %s: %w", path, err)
	}
	return p, nil
}

// Checkpoint fetches the C2SP checkpoint of the tree of size entries, or
// the newest when size is 0, as the signed note's text.
func (c *Client) Checkpoint(ctx context.Context, size uint64) ([]byte, error) {
	path := "/api/v1/log/checkpoint"
	if size > 0 {
		path += "?size=" + u(size)
	}
	data, _, err := c.do(ctx, http.MethodGet, path, nil)
	return data, err
}

// Registration is the answer to POST /api/v1/operators.
type Registration struct {
	Operator   string `json:"operator"`
	Name       string `json:"name"`
	Status     string `json:"status"` // "pending" until the operator has an identity, then "active"
	CanVerify  bool   `json:"can_verify"`
	CanPublish bool   `json:"can_publish"`
	// Created is true when this call registered the operator, false when
	// it was registered already and the node answered where it stands.
	Created bool `json:"-"`
}

// Register sends a signed key entry and the name to go beside it.
func (c *Client) Register(ctx context.Context, entry map[string]any, name string) (*Registration, error) {
	const path = "/api/v1/operators"
	data, status, err := c.do(ctx, http.MethodPost, path, map[string]any{"entry": entry, "name": name})
	if err != nil {
		return nil, err
	}
	var reg Registration
	if err := decode(path, data, &reg); err != nil {
		return nil, err
	}
	reg.Created = status == http.StatusCreated
	return &reg, nil
}

// OperatorKey is one key an operator held: its digest, and the log indexes
// of the entries that gave it and retired it, as the node states them (-1
// for an entry not logged yet, or a key still current).
type OperatorKey struct {
	KeyDigest string `json:"key_digest"`
	Since     int64  `json:"since"`
	Until     int64  `json:"until"`
}

// Identity is the identity an operator counts as.
type Identity struct {
	Kind         string `json:"kind"`
	Organization string `json:"organization"`
	Index        int64  `json:"index"`
}

// Operator is an operator's record, GET /api/v1/operators/{id}. Raw is the
// record as the node sent it, fields this struct does not name included.
type Operator struct {
	Operator      string         `json:"operator"`
	Name          string         `json:"name"`
	Key           string         `json:"key"`
	KeyDigest     string         `json:"key_digest"`
	Keys          []OperatorKey  `json:"keys"`
	KeyFamilies   []string       `json:"key_families"`
	ModelFamilies []string       `json:"model_families"`
	Model         string         `json:"model"`
	RegisteredAt  string         `json:"registered_at"`
	Identity      *Identity      `json:"identity"`
	Identities    []string       `json:"identities"`
	Status        string         `json:"status"`
	CanVerify     bool           `json:"can_verify"`
	CanPublish    bool           `json:"can_publish"`
	Raw           map[string]any `json:"-"`
}

// Operator fetches an operator's record.
func (c *Client) Operator(ctx context.Context, id string) (*Operator, error) {
	path := "/api/v1/operators/" + url.PathEscape(id)
	data, _, err := c.do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var op Operator
	if err := decode(path, data, &op); err != nil {
		return nil, err
	}
	if op.Raw, err = parseObject(path, data); err != nil {
		return nil, err
	}
	return &op, nil
}

// Renamed is the answer to POST /api/v1/operators/{id}/name.
type Renamed struct {
	Operator string `json:"operator"`
	Name     string `json:"name"`    // the name shown, "#n" added when another holds it
	Changed  bool   `json:"changed"` // false when the name was already this one
}

// Rename sends a signed operator_name entry.
func (c *Client) Rename(ctx context.Context, id string, entry map[string]any) (*Renamed, error) {
	path := "/api/v1/operators/" + url.PathEscape(id) + "/name"
	var a Renamed
	if err := c.post(ctx, path, map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Rotated is the answer to POST /api/v1/operators/{id}/key.
type Rotated struct {
	Operator  string `json:"operator"`
	KeyDigest string `json:"key_digest"` // the new key's
	Index     uint64 `json:"index"`      // where the rotation is logged
}

// RotateKey sends a signed key_rotation entry (protocol.SignKeyRotation).
func (c *Client) RotateKey(ctx context.Context, id string, entry map[string]any) (*Rotated, error) {
	path := "/api/v1/operators/" + url.PathEscape(id) + "/key"
	var a Rotated
	if err := c.post(ctx, path, map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Invitation is the answer to POST /api/v1/admin/invitations.
type Invitation struct {
	Operator     string `json:"operator"`
	Kind         string `json:"kind"`
	Organization string `json:"organization"`
	Index        uint64 `json:"index"` // where the identity entry is logged
}

// Invite has the node give operator an "invited" identity, which logs the
// operator's key entry (if not logged yet) and the identity entry. It needs
// the node's admin token; the answer comes once both are in a published
// checkpoint.
func (c *Client) Invite(ctx context.Context, adminToken, operator string) (*Invitation, error) {
	const path = "/api/v1/admin/invitations"
	var a Invitation
	if err := c.post(ctx, path, map[string]any{"operator": operator}, &a, "Authorization", "Bearer "+adminToken); err != nil {
		return nil, err
	}
	return &a, nil
}

func (c *Client) post(ctx context.Context, path string, body, v any, header ...string) error {
	data, _, err := c.do(ctx, http.MethodPost, path, body, header...)
	if err != nil {
		return err
	}
	return decode(path, data, v)
}

// ProveIdentity sends an operator's signed identity entry (domain, github
// or sponsored) to POST /api/v1/operators/{id}/identity. The answer comes
// once the identity is logged: {operator, kind, organization, index}.
func (c *Client) ProveIdentity(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var a map[string]any
	if err := c.post(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/identity", map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return a, nil
}

// MakeInvite sends a sponsor's signed invite entry to POST
// /api/v1/operators/{id}/invites; the answer holds the code, once.
func (c *Client) MakeInvite(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var a map[string]any
	if err := c.post(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/invites", map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return a, nil
}

// InviteState reads an invite by its digest (operators.InviteDigest of the
// code): its sponsor, the sponsor's signature and its state.
func (c *Client) InviteState(ctx context.Context, digest string) (map[string]any, error) {
	var a map[string]any
	if err := c.getJSON(ctx, "/api/v1/invites/"+url.PathEscape(digest), &a); err != nil {
		return nil, err
	}
	return a, nil
}
