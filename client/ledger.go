package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/agora-node/agora/tlog"
)

// The ledger: the sciencejournal protocol's routes for the log, operators
// and identities (spec/ledger-protocol.md: "Checking the log", "Your key is your
// identity", "Identity"). Bundles, uploads and claims are in bundles.go.

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

// VouchConsent sends an operator's signed vouch_consent to POST
// /api/v1/operators/{id}/vouch-consents: its advance consent to a vouch
// from whoever brings the pairing code whose digest it names.
func (c *Client) VouchConsent(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var a map[string]any
	if err := c.post(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/vouch-consents", entry, &a); err != nil {
		return nil, err
	}
	return a, nil
}

// Vouch is a vouch waiting for its operator's countersignature.
type Vouch struct {
	Entry     map[string]any `json:"entry"` // the vouch the log attests, without sig
	Login     string         `json:"login"` // the GitHub login when it vouched; "" for a card
	VouchedAt string         `json:"vouched_at"`
	ExpiresAt string         `json:"expires_at"`
}

// Vouches reads GET /api/v1/operators/{id}/vouches.
func (c *Client) Vouches(ctx context.Context, id string) ([]Vouch, error) {
	var a struct {
		Vouches []Vouch `json:"vouches"`
	}
	if err := c.getJSON(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/vouches", &a); err != nil {
		return nil, err
	}
	return a.Vouches, nil
}

// JoinAccount sends an operator's signed account_request to POST
// /api/v1/operators/{id}/account. The answer, {"requested": true}, says
// only that the node took it.
func (c *Client) JoinAccount(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var a map[string]any
	if err := c.post(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/account", map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return a, nil
}
