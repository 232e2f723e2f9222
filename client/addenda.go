package client

import (
	"context"
	"strconv"
)

// AddAddendum sends an author's signed addendum with its words ({"text",
// "nonce"}): POST /api/v1/addenda.
func (c *Client) AddAddendum(ctx context.Context, entry, words map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/addenda", map[string]any{"entry": entry, "words": words}, &out)
}

// Addendum reads where the addendum logged at index stands: GET
// /api/v1/addenda/{index}.
func (c *Client) Addendum(ctx context.Context, index uint64) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/addenda/"+strconv.FormatUint(index, 10), &out)
}

// ScreenAddendum sends a screener's signed addendum_screen: POST
// /api/v1/addendum-screens.
func (c *Client) ScreenAddendum(ctx context.Context, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/addendum-screens", map[string]any{"entry": entry}, &out)
}
