package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/agora-node/agora/memory"
)

// ErrNotConfigured is returned when no node URL or token is known.
var ErrNotConfigured = errors.New("memory adapter not configured")

// IsCode reports whether err is, or wraps, the node's refusal with the
// contract's error code.
func IsCode(err error, code string) bool {
	return errors.Is(err, &memory.Error{Code: code})
}

// Client sends events to one adapter's ingress on a node. Its zero value is
// not usable; Config.Client builds one.
type Client struct {
	URL       string // node base URL, such as http://127.0.0.1:8080
	AdapterID string
	Token     string
	HTTP      *http.Client // the caller bounds each call with its context
}

// maxAnswer bounds what is read of an answer: an inject is at most 64 KiB of
// text, a read record about as much.
const maxAnswer = 1 << 20

// Send POSTs ev to the node and returns the result of an ok answer. A
// non-ok answer is an error wrapping the node's *memory.Error; anything
// else (no answer, not JSON) is an ordinary error. Send does not retry: a
// caller that retries sends the same event, and the node answers it as it
// answered the first.
func (c *Client) Send(ctx context.Context, env *memory.Event) (json.RawMessage, error) {
	if c.URL == "" || c.Token == "" {
		return nil, ErrNotConfigured
	}
	body, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", env.Kind, err)
	}
	u := strings.TrimRight(c.URL, "/") + "/v1/agent-ingress/" + url.PathEscape(c.AdapterID) + "/events/" + url.PathEscape(env.Kind)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build %s request: %w", env.Kind, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("send %s event: %w", env.Kind, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("read %s answer: %w", env.Kind, err)
	}
	var ans struct {
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			Retryable bool   `json:"retryable"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, fmt.Errorf("%s answer (HTTP %d) is not the contract's JSON: %w", env.Kind, resp.StatusCode, err)
	}
	if !ans.OK {
		me := &memory.Error{Code: memory.CodeInternal, Message: "no error given"}
		if ans.Error != nil {
			me.Code, me.Message, me.Retryable = ans.Error.Code, ans.Error.Message, ans.Error.Retryable
		}
		return nil, fmt.Errorf("the node refused the %s event (HTTP %d): %w", env.Kind, resp.StatusCode, me)
	}
	return ans.Result, nil
}

// Call sends env with payload (one of package memory's payload types) and
// decodes its result into out (which may be nil).
func (c *Client) Call(ctx context.Context, env *memory.Event, payload, out any) error {
	env.Payload = payload
	res, err := c.Send(ctx, env)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res, out); err != nil {
		return fmt.Errorf("decode %s result: %w", env.Kind, err)
	}
	return nil
}
