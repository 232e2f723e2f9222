package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
)

// The verification loop (spec/ledger-protocol.md, "Verifying claims"):
// asking for a job, handing it back, answering it, and reading an
// operator's credit.

// RequestJob sends a signed job_request to POST /api/v1/jobs and returns
// the answer: a job, a qualification item, or {"job": null,
// "retry_after_seconds"}. Asked too often, the node answers 429 in that
// same shape; RequestJob returns it as an answer with no job, as the
// spec's client does, with its error beside it.
func (c *Client) RequestJob(ctx context.Context, request map[string]any) (map[string]any, error) {
	data, status, err := c.do(ctx, http.MethodPost, "/api/v1/jobs", request)
	var ce *Error
	if err != nil && !(errors.As(err, &ce) && status == http.StatusTooManyRequests) {
		return nil, err
	}
	var out map[string]any
	if derr := decode("/api/v1/jobs", data, &out); derr != nil {
		return nil, derr
	}
	return out, err
}

// ReleaseJob hands back a job with a signed job_release.
func (c *Client) ReleaseJob(ctx context.Context, release map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/jobs/release", release, &out)
}

// Attest sends a signed attestation with its evidence files (path →
// base64) to POST /api/v1/attestations.
func (c *Client) Attest(ctx context.Context, entry map[string]any, files map[string]string) (map[string]any, error) {
	return c.postWithEvidence(ctx, "/api/v1/attestations", entry, files)
}

// Challenge sends a signed challenge with its evidence (path → base64):
// POST /api/v1/challenges.
func (c *Client) Challenge(ctx context.Context, entry map[string]any, files map[string]string) (map[string]any, error) {
	return c.postWithEvidence(ctx, "/api/v1/challenges", entry, files)
}

// ChallengeReview sends a panelist's signed challenge_review with its
// evidence: POST /api/v1/challenge-reviews.
func (c *Client) ChallengeReview(ctx context.Context, entry map[string]any, files map[string]string) (map[string]any, error) {
	return c.postWithEvidence(ctx, "/api/v1/challenge-reviews", entry, files)
}

// GetChallenge reads GET /api/v1/challenges/{index}.
func (c *Client) GetChallenge(ctx context.Context, index uint64) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/challenges/"+u(index), &out)
}

// Retract sends an author's signed retraction with its notice's words:
// POST /api/v1/retractions.
func (c *Client) Retract(ctx context.Context, entry, words map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/retractions", map[string]any{"entry": entry, "words": words}, &out)
}

// Preregister sends a signed preregistration: POST
// /api/v1/preregistrations.
func (c *Client) Preregister(ctx context.Context, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/preregistrations", map[string]any{"entry": entry}, &out)
}

// Appeal sends an author's signed appeal_request: POST
// /api/v1/bundles/{hash}/appeal.
func (c *Client) Appeal(ctx context.Context, hash string, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/bundles/"+url.PathEscape(hash)+"/appeal", map[string]any{"entry": entry}, &out)
}

// postWithEvidence posts {"entry", "evidence": {"files"}} to path.
func (c *Client) postWithEvidence(ctx context.Context, path string, entry map[string]any, files map[string]string) (map[string]any, error) {
	wire := map[string]any{}
	for p, b := range files {
		wire[p] = b
	}
	var out map[string]any
	return out, c.post(ctx, path, map[string]any{"entry": entry, "evidence": map[string]any{"files": wire}}, &out)
}

// HazardReview sends a signed hazard_review, the answer to a screen.
func (c *Client) HazardReview(ctx context.Context, entry map[string]any) (map[string]any, error) {
	var out map[string]any
	return out, c.post(ctx, "/api/v1/hazard-reviews", map[string]any{"entry": entry}, &out)
}

// Attestation reads GET /api/v1/attestations/{index}.
func (c *Client) Attestation(ctx context.Context, index uint64) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/attestations/"+u(index), &out)
}

// Credit reads GET /api/v1/operators/{id}/credit: an operator's account.
func (c *Client) Credit(ctx context.Context, operator string) (map[string]any, error) {
	var out map[string]any
	return out, c.getJSON(ctx, "/api/v1/operators/"+url.PathEscape(operator)+"/credit", &out)
}
