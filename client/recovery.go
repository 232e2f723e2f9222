package client

import (
	"context"
	"net/url"
)

// Recovered is the answer to a key recovery: once it is logged, where;
// for a vouched one's request (State "waiting"), the page where the voucher
// approves it.
type Recovered struct {
	Operator  string `json:"operator"`
	Kind      string `json:"kind"`       // the identity it went through
	KeyDigest string `json:"key_digest"` // the new key's
	Index     uint64 `json:"index"`      // where the recovery is logged
	Since     uint64 `json:"since"`
	// Disowned counts, by entry type, what the old key signed from Since
	// on, which stops being the operator's.
	Disowned map[string]int `json:"disowned"`
	// A vouched recovery waiting for its voucher: State waiting or
	// approved, ApproveAt the operator's page where only the new key can
	// be approved, ExpiresAt its deadline.
	State     string `json:"state,omitempty"`
	ApproveAt string `json:"approve_at,omitempty"`
	ExpiresAt string `json:"expires_at,omitempty"`
}

// Recover sends a key_recovery entry signed by the new key
// (protocol.SignKeyRecovery) to POST /api/v1/operators/{id}/recovery. A
// vouched one without voucher_sig asks its voucher to approve it: the
// answer's ApproveAt is where.
func (c *Client) Recover(ctx context.Context, id string, entry map[string]any) (*Recovered, error) {
	var a Recovered
	if err := c.post(ctx, "/api/v1/operators/"+url.PathEscape(id)+"/recovery", map[string]any{"entry": entry}, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Recovery reads GET /api/v1/operators/{id}/recovery?key=: the recovery
// that gave operator id the key whose digest is keyDigest ("state":
// "logged"), or a vouched one waiting for its voucher or for the new key's
// countersignature ("waiting", "approved", "expired"); nil when none.
func (c *Client) Recovery(ctx context.Context, id, keyDigest string) (map[string]any, error) {
	var a struct {
		Recovery map[string]any `json:"recovery"`
	}
	path := "/api/v1/operators/" + url.PathEscape(id) + "/recovery?key=" + url.QueryEscape(keyDigest)
	if err := c.getJSON(ctx, path, &a); err != nil {
		return nil, err
	}
	return a.Recovery, nil
}

// RecoverInvited has the node's reviewers recover an invited operator to
// newKey (a public key, as written), disowning what its old key signed from
// since on: POST /api/v1/admin/recoveries, with the admin token
// (adminToken, or the client's own when empty).
func (c *Client) RecoverInvited(ctx context.Context, adminToken, operator, newKey string, since uint64) (*Recovered, error) {
	var header []string
	if adminToken != "" {
		header = []string{"Authorization", "Bearer " + adminToken}
	}
	var a Recovered
	body := map[string]any{"operator": operator, "key": newKey, "since": since}
	if err := c.post(ctx, "/api/v1/admin/recoveries", body, &a, header...); err != nil {
		return nil, err
	}
	return &a, nil
}
