package vouchpage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// account is the GitHub account a person signed in with.
type account struct {
	ID      int64
	Login   string
	Created time.Time
}

// maxAnswer bounds what the node reads of GitHub's answers.
const maxAnswer = 1 << 20

// gitHubAccount trades the sign-in's code for a token (the OAuth web flow's
// second step) and reads the account it is for. The token is used once
// and kept nowhere.
func (p *pages) gitHubAccount(r *http.Request, code string) (account, error) {
	gh := p.cfg.GitHub
	form := url.Values{
		"client_id": {gh.ClientID}, "client_secret": {gh.ClientSecret}, "code": {code},
		"redirect_uri": {p.base(r) + "/vouch/github/callback"},
	}
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, gh.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return account{}, fmt.Errorf("the token request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var tok struct {
		AccessToken string `json:"access_token"`
		Error       string `json:"error"`
	}
	if err := fetchJSON(gh.Client, req, &tok); err != nil {
		return account{}, fmt.Errorf("the token request: %w", err)
	}
	if tok.AccessToken == "" {
		return account{}, fmt.Errorf("the token request: GitHub answered no token (%q)", tok.Error)
	}
	req, err = http.NewRequestWithContext(r.Context(), http.MethodGet, gh.UserURL, nil)
	if err != nil {
		return account{}, fmt.Errorf("the user request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	req.Header.Set("User-Agent", "agora-node")
	var user struct {
		ID        int64  `json:"id"`
		Login     string `json:"login"`
		CreatedAt string `json:"created_at"`
	}
	if err := fetchJSON(gh.Client, req, &user); err != nil {
		return account{}, fmt.Errorf("the user request: %w", err)
	}
	created, err := time.Parse(time.RFC3339, user.CreatedAt)
	if err != nil || user.ID <= 0 || user.ID > 1e15 || user.Login == "" || len(user.Login) > 39 {
		return account{}, errors.New("the user request: GitHub's answer has no account ID, login and created_at")
	}
	return account{ID: user.ID, Login: user.Login, Created: created}, nil
}

// fetchJSON sends req and decodes a 200 answer's JSON into v.
func fetchJSON(c *http.Client, req *http.Request, v any) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GitHub answered %s", resp.Status)
	}
	return json.Unmarshal(body, v)
}
