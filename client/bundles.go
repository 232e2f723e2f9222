package client

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Bundles, uploads, sealed entries, files and claims: the ledger's
// publishing routes (spec/ledger-protocol.md: "Publishing, step by step", "Large
// data", "Sealed rounds", "Finding and following claims").

// BundleBody is a check's or submission's body: the files sent inline (the
// signature among them) and those uploaded ahead, by digest.
type BundleBody struct {
	Files    map[string][]byte
	Uploaded map[string]string
}

func (b BundleBody) wire() map[string]any {
	files := make(map[string]any, len(b.Files))
	for p, data := range b.Files {
		files[p] = base64.StdEncoding.EncodeToString(data)
	}
	out := map[string]any{"files": files}
	if len(b.Uploaded) > 0 {
		up := make(map[string]any, len(b.Uploaded))
		for p, d := range b.Uploaded {
			up[p] = d
		}
		out["uploaded"] = up
	}
	return out
}

// RetryDelay is how long the bundle calls wait before sending again after
// a 502, 503 or 504 (which can come after the node did the work) or a 409
// in_progress; the spec's client waits a minute.
var RetryDelay = time.Minute

// bundleAttempts is how many times the bundle calls send a request.
const bundleAttempts = 5

// sendBundle posts a bundle body, sending it again as the spec's client
// does: a check writes nothing and a repeated submission answers where the
// bundle stands, so both are safe to repeat.
func (c *Client) sendBundle(ctx context.Context, path string, body BundleBody) (map[string]any, int, error) {
	wire := body.wire()
	for attempt := 1; ; attempt++ {
		data, status, err := c.do(ctx, http.MethodPost, path, wire)
		if err == nil {
			var out map[string]any
			return out, status, decode(path, data, &out)
		}
		var e *Error
		retry := errors.As(err, &e) && (e.Status == 502 || e.Status == 503 || e.Status == 504 || e.Code == "in_progress")
		if !retry || attempt == bundleAttempts {
			return nil, status, err
		}
		select {
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		case <-time.After(RetryDelay):
		}
	}
}

// CheckBundle runs POST /api/v1/bundles/check: every check a submission
// runs, writing nothing.
func (c *Client) CheckBundle(ctx context.Context, body BundleBody) (map[string]any, error) {
	out, _, err := c.sendBundle(ctx, "/api/v1/bundles/check", body)
	return out, err
}

// SubmitBundle runs POST /api/v1/bundles: 202 when it sealed the bundle,
// 200 with where it stands when it had it already.
func (c *Client) SubmitBundle(ctx context.Context, body BundleBody) (map[string]any, int, error) {
	return c.sendBundle(ctx, "/api/v1/bundles", body)
}

// RequestUploads sends a signed upload_request to POST /api/v1/uploads.
func (c *Client) RequestUploads(ctx context.Context, request map[string]any) ([]UploadLink, error) {
	var out struct {
		Files []UploadLink `json:"files"`
	}
	if err := c.post(ctx, "/api/v1/uploads", request, &out); err != nil {
		return nil, err
	}
	return out.Files, nil
}

// UploadLink is the node's answer for one file of an upload request.
type UploadLink struct {
	Digest  string `json:"digest"`
	Present bool   `json:"present"`
	Upload  *struct {
		URL       string            `json:"url"`
		Method    string            `json:"method"`
		Headers   map[string]string `json:"headers"`
		ExpiresAt string            `json:"expires_at"`
	} `json:"upload"`
}

// Put sends a file's bytes to its upload link. A link starting with "/" is
// on the node.
func (c *Client) Put(ctx context.Context, link UploadLink, body io.Reader, size int64) error {
	if link.Upload == nil {
		return nil
	}
	target := link.Upload.URL
	if strings.HasPrefix(target, "/") {
		target = c.base + target
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, body)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	req.ContentLength = size
	for k, v := range link.Upload.Headers {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("client: uploading %s: %w", link.Digest, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return apiError(resp, data)
	}
	return nil
}

// Sealed reads GET /api/v1/sealed/{index}: where a sealed entry stands.
func (c *Client) Sealed(ctx context.Context, index uint64) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/sealed/"+u(index), &out)
}

// VoidSealed sends the author's signed void entry for its sealed bundle.
func (c *Client) VoidSealed(ctx context.Context, index uint64, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/sealed/"+u(index)+"/void", map[string]any{"entry": entry}, &out)
}

// Bundle reads GET /api/v1/bundles/{hash}.
func (c *Client) Bundle(ctx context.Context, hash string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/bundles/"+url.PathEscape(hash), &out)
}

// ErrTooLong is wrapped by File's error when the node sends more bytes
// than the caller said the file holds.
var ErrTooLong = errors.New("client: the node sent more bytes than the file holds")

// File streams GET /api/v1/files/{digest} into w, reading at most limit
// bytes: a file a node says holds limit bytes and sends more of is refused
// (ErrTooLong) once limit+1 arrive, so a hostile node cannot make a client
// read without end. What reached w before then is the caller's to discard.
func (c *Client) File(ctx context.Context, digest string, limit int64, w io.Writer) (int64, error) {
	return c.stream(ctx, "/api/v1/files/"+url.PathEscape(digest), digest, limit, w)
}

// stream copies the body of GET path into w, at most limit bytes: more
// announced or sent is ErrTooLong. what names the file in errors.
func (c *Client) stream(ctx context.Context, path, what string, limit int64, w io.Writer) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, fmt.Errorf("client: %w", err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("client: fetching %s: %w", what, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return 0, apiError(resp, data)
	}
	if resp.ContentLength > limit {
		return 0, fmt.Errorf("fetching %s: the node announces %d bytes, not %d: %w", what, resp.ContentLength, limit, ErrTooLong)
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return n, fmt.Errorf("client: fetching %s: %w", what, err)
	}
	if n > limit {
		return n, fmt.Errorf("fetching %s: more than %d bytes: %w", what, limit, ErrTooLong)
	}
	return n, nil
}

// Claims reads GET /api/v1/claims with the query q.
func (c *Client) Claims(ctx context.Context, q url.Values) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/claims?"+q.Encode(), &out)
}

// Claim reads GET /api/v1/claims/{id}.
func (c *Client) Claim(ctx context.Context, id string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/claims/"+url.PathEscape(id), &out)
}

// FollowClaims calls each with every claim that opens after since, oldest
// first, holding each request up to wait, until ctx ends or each returns
// an error.
func (c *Client) FollowClaims(ctx context.Context, since int64, wait time.Duration, q url.Values, each func(claim map[string]any) error) error {
	if q == nil {
		q = url.Values{}
	}
	for {
		q.Set("since", strconv.FormatInt(since, 10))
		q.Set("wait", strconv.Itoa(int(wait.Seconds())))
		page, err := c.Claims(ctx, q)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		list, _ := page["claims"].([]any)
		for _, item := range list {
			if claim, ok := item.(map[string]any); ok {
				if err := each(claim); err != nil {
					return err
				}
			}
		}
		if next, ok := page["next"].(map[string]any); ok {
			if s, ok := next["since"].(float64); ok {
				since = int64(s)
			}
		}
		if len(list) == 0 {
			// An empty answer well before wait means the node was busy.
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
	}
}

// HazardRubric reads the digest of the node's current hazard rubric, GET
// /api/v1/hazard-rubric, which a manifest's hazard_screen names.
func (c *Client) HazardRubric(ctx context.Context) (string, error) {
	var out struct {
		Rubric string `json:"rubric"`
	}
	if err := c.getJSON(ctx, "/api/v1/hazard-rubric", &out); err != nil {
		return "", err
	}
	if out.Rubric == "" {
		return "", fmt.Errorf("client: GET /api/v1/hazard-rubric names no rubric: %w", ErrBadAnswer)
	}
	return out.Rubric, nil
}
