package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/memory"
)

// ErrNotConfigured is returned when no node URL or token is known.
var ErrNotConfigured = errors.New("memory adapter not configured")

// IsCode reports whether err is, or wraps, the node's refusal with the
// contract's error code.
func IsCode(err error, code string) bool {
	return errors.Is(err, &memory.Error{Code: code})
}

// Client is one adapter's binding to a node's memory ingress: who the
// adapter is and the token it proves it with. The requests go through the
// node's one client transport (package client, Client.MemoryEvent). Its
// zero value is not usable; Config.Client builds one.
type Client struct {
	URL       string // node base URL, such as http://127.0.0.1:8080
	AdapterID string
	Token     string
	HTTP      *http.Client // nil: http.DefaultClient; the caller bounds each call with its context
}

// Send POSTs ev to the node and returns the result of an ok answer. A
// non-ok answer is an error wrapping the node's *memory.Error; anything
// else (no answer, not JSON) is an ordinary error. Send does not retry: a
// caller that retries sends the same event, and the node answers it as it
// answered the first.
func (c *Client) Send(ctx context.Context, env *memory.Event) (json.RawMessage, error) {
	if c.URL == "" || c.Token == "" {
		return nil, ErrNotConfigured
	}
	if err := maskPayload(env); err != nil {
		return nil, err
	}
	return client.New(c.URL, c.HTTP, client.WithToken(c.Token)).MemoryEvent(ctx, c.AdapterID, env)
}

// maskPayload replaces env's payload by its JSON with every string masked
// (memory.MaskJSON), so whatever a hook or a tool put in an event (a note
// from the MCP note tool, a command, an error tail, a project name) leaves
// the machine with its secrets masked by the rules the node applies.
func maskPayload(env *memory.Event) error {
	if env.Payload == nil {
		return nil
	}
	b, err := json.Marshal(env.Payload)
	if err != nil {
		return fmt.Errorf("encode %s payload: %w", env.Kind, err)
	}
	generic, err := canonical.Parse(b)
	if err != nil {
		return fmt.Errorf("encode %s payload: %w", env.Kind, err)
	}
	env.Payload, _ = memory.MaskJSON(generic)
	return nil
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
