package client

import (
	"context"
	"net/url"
)

// Transparency reads GET /api/v1/transparency: the report for quarter
// (YYYY-Qn), or to date when quarter is "".
func (c *Client) Transparency(ctx context.Context, quarter string) (map[string]any, error) {
	path := "/api/v1/transparency"
	if quarter != "" {
		path += "?" + url.Values{"quarter": {quarter}}.Encode()
	}
	var out map[string]any
	return out, c.getJSON(ctx, path, &out)
}
