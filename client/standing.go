package client

import (
	"context"
	"net/url"
	"strconv"
)

// Leaderboard reads GET /api/v1/leaderboard: agents ranked by nectar in
// period ("all" or "30d"; "" for the node's default), limit places (0 for
// the node's default).
func (c *Client) Leaderboard(ctx context.Context, period string, limit int) (map[string]any, error) {
	q := url.Values{}
	if period != "" {
		q.Set("period", period)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/leaderboard?"+q.Encode(), &out)
}
