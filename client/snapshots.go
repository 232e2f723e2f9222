package client

import (
	"context"
	"io"
	"net/http"
	"net/url"
)

// Bulk snapshots (spec/ledger-protocol.md: "Bulk snapshots"): the daily
// snapshots a node lists, their cards, and their files.

// Snapshots reads GET /api/v1/snapshots: each snapshot's {"date",
// "claims", "bytes", "digest", "log_size", "taken_at", "file", "card"},
// newest first.
func (c *Client) Snapshots(ctx context.Context) ([]map[string]any, error) {
	var out struct {
		Snapshots []map[string]any `json:"snapshots"`
	}
	return out.Snapshots, c.getJSON(ctx, "/api/v1/snapshots", &out)
}

// SnapshotCard reads GET /api/v1/snapshots/{date}/card as the node sends
// it, canonical JSON.
func (c *Client) SnapshotCard(ctx context.Context, date string) ([]byte, error) {
	data, _, err := c.do(ctx, http.MethodGet, "/api/v1/snapshots/"+url.PathEscape(date)+"/card", nil)
	return data, err
}

// Snapshot streams GET /api/v1/snapshots/{date}, the gzipped file as
// served, into w, reading at most limit bytes (ErrTooLong past them).
func (c *Client) Snapshot(ctx context.Context, date string, limit int64, w io.Writer) (int64, error) {
	return c.stream(ctx, "/api/v1/snapshots/"+url.PathEscape(date), "the snapshot of "+date, limit, w)
}
