package ledgerhttp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/vocabulary"
)

// gitHub reads repositories' proof files and their owners' accounts through
// GitHub's REST API, without credentials, so it sees public repositories
// only.
type gitHub struct {
	base   string // the API's base URL, without a trailing slash
	client *http.Client
	err    error // why the base URL is unusable; every read fails with it
}

// maxProofFile bounds the contents API's answer for a .sciencejournal
// file; a proof is a line per key.
const maxProofFile = 1 << 20

func newGitHub(base string, client *http.Client, logger *slog.Logger) *gitHub {
	if base == "" {
		base = DefaultGitHubAPI
	}
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	g := &gitHub{base: strings.TrimRight(base, "/"), client: client}
	if u, err := url.Parse(base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		g.err = fmt.Errorf("Config.GitHubAPI %q is not an http(s) URL", base)
		logger.Error("GitHub proofs will fail", "err", g.err)
	}
	return g
}

func (g *gitHub) proof(ctx context.Context, repository string) (gitHubProof, error) {
	if g.err != nil {
		return gitHubProof{}, &unavailableError{service: "GitHub", err: g.err}
	}
	owner, name, _ := strings.Cut(repository, "/")
	var file struct {
		Type     string `json:"type"`
		Encoding string `json:"encoding"`
		Content  string `json:"content"`
	}
	what := fmt.Sprintf("a %s file at the root of the public repository %s", vocabulary.GitHubProofFile, repository)
	path := "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(name) + "/contents/" + vocabulary.GitHubProofFile
	if err := g.get(ctx, path, what, maxProofFile*2, &file); err != nil {
		return gitHubProof{}, err
	}
	if file.Type != "file" || file.Encoding != "base64" {
		return gitHubProof{}, fmt.Errorf("%w: GitHub shows no %s", errNoProof, what)
	}
	content, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(file.Content, "\n", ""))
	if err != nil || len(content) > maxProofFile {
		return gitHubProof{}, fmt.Errorf("%w: GitHub shows no readable %s", errNoProof, what)
	}
	var account struct {
		ID        int64     `json:"id"`
		CreatedAt time.Time `json:"created_at"`
	}
	if err := g.get(ctx, "/users/"+url.PathEscape(owner), "the GitHub account "+owner, 1<<20, &account); err != nil {
		return gitHubProof{}, err
	}
	if account.ID <= 0 || account.CreatedAt.IsZero() {
		return gitHubProof{}, &unavailableError{service: "GitHub", err: fmt.Errorf("its answer for account %s has no id or created_at", owner)}
	}
	return gitHubProof{File: content, OwnerID: account.ID, Created: account.CreatedAt}, nil
}

// get reads one JSON answer of at most limit bytes into v. what names what
// is asked for, for the client's error.
func (g *gitHub) get(ctx context.Context, path, what string, limit int64, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.base+path, nil)
	if err != nil {
		return &unavailableError{service: "GitHub", err: err}
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "agora-node")
	resp, err := g.client.Do(req)
	if err != nil {
		return &unavailableError{service: "GitHub", err: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
	case rateLimited(resp):
		return &unavailableError{service: "GitHub", retryAfter: gitHubRetryAfter(resp), err: fmt.Errorf("GET %s: rate limited (%s)", path, resp.Status)}
	case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusGone,
		resp.StatusCode == http.StatusForbidden, resp.StatusCode == http.StatusUnavailableForLegalReasons:
		return fmt.Errorf("%w: GitHub shows no %s (%s)", errNoProof, what, resp.Status)
	default:
		return &unavailableError{service: "GitHub", retryAfter: gitHubRetryAfter(resp), err: fmt.Errorf("GET %s: %s", path, resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return &unavailableError{service: "GitHub", err: fmt.Errorf("GET %s: %w", path, err)}
	}
	if int64(len(body)) > limit {
		return fmt.Errorf("%w: %s is larger than the node reads", errNoProof, what)
	}
	if trimmed := strings.TrimSpace(string(body[:min(len(body), 16)])); strings.HasPrefix(trimmed, "[") {
		return fmt.Errorf("%w: GitHub shows a folder, not %s", errNoProof, what) // the contents API lists a folder
	}
	if err := json.Unmarshal(body, v); err != nil {
		return &unavailableError{service: "GitHub", err: fmt.Errorf("GET %s: %w", path, err)}
	}
	return nil
}

// rateLimited reports whether GitHub refused for its rate limits, which it
// answers with 429, or 403 with no requests remaining or a Retry-After.
func rateLimited(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusForbidden:
		return resp.Header.Get("X-RateLimit-Remaining") == "0" || resp.Header.Get("Retry-After") != ""
	}
	return false
}

// gitHubRetryAfter is when GitHub says to try again: Retry-After, else the
// rate limit's reset time, within an hour; 0 if it says nothing.
func gitHubRetryAfter(resp *http.Response) time.Duration {
	var d time.Duration
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		d = time.Duration(s) * time.Second
	} else if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil && resp.Header.Get("X-RateLimit-Remaining") == "0" {
		d = time.Until(time.Unix(reset, 0))
	}
	return min(max(d, 0), time.Hour)
}
