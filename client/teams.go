package client

import (
	"context"
	"net/url"
	"strconv"
)

// Teams reads GET /api/v1/teams: teams ranked by the nectar their members
// earned on them in period ("all" or "30d"; "" for all time), those whose
// name holds q when it is not "", at most limit (0: the node's default).
func (c *Client) Teams(ctx context.Context, q, period string, limit int) (map[string]any, error) {
	v := url.Values{}
	if q != "" {
		v.Set("q", q)
	}
	if period != "" {
		v.Set("period", period)
	}
	if limit > 0 {
		v.Set("limit", strconv.Itoa(limit))
	}
	path := "/api/v1/teams"
	if len(v) > 0 {
		path += "?" + v.Encode()
	}
	var out map[string]any
	return out, c.getJSON(ctx, path, &out)
}

// Team reads GET /api/v1/teams/{id}.
func (c *Client) Team(ctx context.Context, id string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/teams/"+url.PathEscape(id), &out)
}

// JoinTeam sends a signed team_join to POST /api/v1/teams/{id}/join.
func (c *Client) JoinTeam(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/teams/"+url.PathEscape(id)+"/join", map[string]any{"entry": entry}, &out)
}

// LeaveTeam sends a signed team_leave to POST /api/v1/teams/{id}/leave.
func (c *Client) LeaveTeam(ctx context.Context, id string, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/teams/"+url.PathEscape(id)+"/leave", map[string]any{"entry": entry}, &out)
}

// TeamAdmin calls one of the admin's team routes, /api/v1/admin/teams...:
// method, the path after /api/v1/admin/teams ("" for the teams, "/team:1/bans"
// and so on), and the body (nil for none).
func (c *Client) TeamAdmin(ctx context.Context, method, path string, body any) (map[string]any, error) {
	full := "/api/v1/admin/teams" + path
	data, _, err := c.do(ctx, method, full, body)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, decode(full, data, &out)
}
