package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agora-node/agora/memory"
)

// The node's admin routes, /api/v1/admin/...: each needs the node's admin
// token (<data>/keys/admin.token), sent as the client's token (WithToken).
// A wrong token is an *Error with status 401 and code "unauthorized".

// Invitation is the answer to POST /api/v1/admin/invitations.
type Invitation struct {
	Operator     string `json:"operator"`
	Kind         string `json:"kind"`
	Organization string `json:"organization"`
	Index        uint64 `json:"index"` // where the identity entry is logged
	// Raw is the answer as the node sent it.
	Raw json.RawMessage `json:"-"`
}

// Invite has the node give operator an "invited" identity, which logs the
// operator's key entry (if not logged yet) and the identity entry. The
// answer comes once both are in a published checkpoint. adminToken, when
// not empty, is sent in place of the client's token.
func (c *Client) Invite(ctx context.Context, adminToken, operator string) (*Invitation, error) {
	const path = "/api/v1/admin/invitations"
	var header []string
	if adminToken != "" {
		header = []string{"Authorization", "Bearer " + adminToken}
	}
	data, _, err := c.do(ctx, http.MethodPost, path, map[string]any{"operator": operator}, header...)
	if err != nil {
		return nil, err
	}
	var a Invitation
	if err := decode(path, data, &a); err != nil {
		return nil, err
	}
	a.Raw = data
	return &a, nil
}

// Scopes is an operator's library scopes, as GET and POST
// /api/v1/admin/library/scopes answer them: whether it holds each, and
// what the admin set for those it set (the others follow the default: all
// four for an operator with an identity).
type Scopes struct {
	Operator   string          `json:"operator"`
	Scopes     map[string]bool `json:"scopes"`
	SetByAdmin map[string]bool `json:"set_by_admin"` // a scope is here only if the admin set it
}

// LibraryScopes reads an operator's library scopes.
func (c *Client) LibraryScopes(ctx context.Context, operator string) (*Scopes, error) {
	var a Scopes
	if err := c.getJSON(ctx, "/api/v1/admin/library/scopes/"+url.PathEscape(operator), &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// ScopeChange is a change of an operator's library scopes: those to grant,
// to deny, and to return to the default.
type ScopeChange struct {
	Operator           string
	Grant, Deny, Reset []string
}

// SetLibraryScopes changes an operator's library scopes and returns them
// as they stand after the change.
func (c *Client) SetLibraryScopes(ctx context.Context, change ScopeChange) (*Scopes, error) {
	body := map[string]any{"operator": change.Operator}
	for name, list := range map[string][]string{"grant": change.Grant, "deny": change.Deny, "reset": change.Reset} {
		if len(list) > 0 {
			body[name] = list
		}
	}
	var a Scopes
	if err := c.post(ctx, "/api/v1/admin/library/scopes", body, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// AdapterToken is a memory adapter's token as the node issued it, shown
// this once.
type AdapterToken struct {
	AdapterID string `json:"adapter_id"`
	Token     string `json:"token"`
}

// IssueAdapterToken has the node issue a token for the memory adapter
// adapterID (POST /api/v1/admin/memory/adapters). Issuing again rotates
// it: the old token stops working. An adapter ID the node refuses is an
// *Error with code "bad_request".
func (c *Client) IssueAdapterToken(ctx context.Context, adapterID string) (*AdapterToken, error) {
	var a AdapterToken
	if err := c.post(ctx, "/api/v1/admin/memory/adapters", map[string]any{"adapter_id": adapterID}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// MemorySearch ranks the node's memory records for q's words (GET
// /api/v1/admin/memory/search with q, project and limit), each hit with
// its score and reasons.
func (c *Client) MemorySearch(ctx context.Context, q url.Values) ([]memory.Hit, error) {
	var a struct {
		Hits []memory.Hit `json:"hits"`
	}
	if err := c.getJSON(ctx, "/api/v1/admin/memory/search?"+q.Encode(), &a); err != nil {
		return nil, err
	}
	return a.Hits, nil
}

// MemoryRecords lists the node's memory records, the one changed last
// first (GET /api/v1/admin/memory/records with project and limit).
func (c *Client) MemoryRecords(ctx context.Context, q url.Values) ([]memory.ReadRecord, error) {
	var a struct {
		Records []memory.ReadRecord `json:"records"`
	}
	if err := c.getJSON(ctx, "/api/v1/admin/memory/records?"+q.Encode(), &a); err != nil {
		return nil, err
	}
	return a.Records, nil
}

// MemoryReceipt is one session's meeting with a record.
type MemoryReceipt struct {
	Kind    string `json:"kind"`
	Session string `json:"session"`
	At      string `json:"at"`
}

// MemoryRecordView is a memory record whole, as GET
// /api/v1/admin/memory/records/{ref} answers it: its content, fix, marks
// and receipts.
type MemoryRecordView struct {
	Record   memory.ReadRecord `json:"record"`
	Fix      *memory.Fix       `json:"fix"`
	Marks    map[string]int    `json:"marks"`
	Receipts []MemoryReceipt   `json:"receipts"`
}

// MemoryRecord reads one memory record whole. An unknown ref is an *Error
// with status 404.
func (c *Client) MemoryRecord(ctx context.Context, ref string) (*MemoryRecordView, error) {
	var a MemoryRecordView
	if err := c.getJSON(ctx, "/api/v1/admin/memory/records/"+url.PathEscape(ref), &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Forgotten is what DELETE /api/v1/admin/memory/records/{ref} removed: the
// record and how many receipts went with it.
type Forgotten struct {
	Removed  memory.ReadRecord `json:"removed"`
	Receipts int               `json:"receipts"`
}

// ForgetMemoryRecord removes a memory record and its receipts for good.
func (c *Client) ForgetMemoryRecord(ctx context.Context, ref string) (*Forgotten, error) {
	path := "/api/v1/admin/memory/records/" + url.PathEscape(ref)
	data, _, err := c.do(ctx, http.MethodDelete, path, nil)
	if err != nil {
		return nil, err
	}
	var a Forgotten
	if err := decode(path, data, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// ShareMemoryRecord shares a memory record with every adapter's sessions
// (POST /api/v1/admin/memory/records/{ref}/share), or takes the share back
// when share is false (/unshare), and returns the record as it now reads.
func (c *Client) ShareMemoryRecord(ctx context.Context, ref string, share bool) (*memory.ReadRecord, error) {
	verb := "share"
	if !share {
		verb = "unshare"
	}
	path := "/api/v1/admin/memory/records/" + url.PathEscape(ref) + "/" + verb
	data, _, err := c.do(ctx, http.MethodPost, path, nil)
	if err != nil {
		return nil, err
	}
	var a struct {
		Record *memory.ReadRecord `json:"record"`
		Shared *bool              `json:"shared"`
	}
	if err := decode(path, data, &a); err != nil {
		return nil, err
	}
	if a.Record == nil || a.Shared == nil || *a.Shared != share {
		return nil, fmt.Errorf("%w: %s answered %.200s", ErrBadAnswer, path, data)
	}
	return a.Record, nil
}

// Correction is what an admin rewrites of a memory record: its title and
// the four parts of its content, each as it should read.
type Correction struct {
	Title   string             `json:"title"`
	Content memory.NoteContent `json:"content"`
}

// CorrectMemoryRecord makes the correction the record's next revision
// (POST /api/v1/admin/memory/records/{ref}/correct), checked and masked
// as a note is, and returns the record as it now reads.
func (c *Client) CorrectMemoryRecord(ctx context.Context, ref string, fix Correction) (*memory.ReadRecord, error) {
	path := "/api/v1/admin/memory/records/" + url.PathEscape(ref) + "/correct"
	body := map[string]any{"title": fix.Title, "content": map[string]any{
		"what": fix.Content.What, "why": fix.Content.Why, "where": fix.Content.Where, "learned": fix.Content.Learned}}
	data, _, err := c.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return nil, err
	}
	var a struct {
		Record *memory.ReadRecord `json:"record"`
	}
	if err := decode(path, data, &a); err != nil {
		return nil, err
	}
	if a.Record == nil {
		return nil, fmt.Errorf("%w: %s answered %.200s", ErrBadAnswer, path, data)
	}
	return a.Record, nil
}
