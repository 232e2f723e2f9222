package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agora-node/agora/memory"
)

// Memory ingress: memory-agent-ingress/v1
// (memory/memory-agent-ingress-v1.schema.json), POST
// /v1/agent-ingress/{adapter_id}/events/{kind}, behind the adapter's token
// (WithToken). Its answers are the contract's {"ok": true, "result": ...}
// or {"ok": false, "error": {"code", "message", "retryable"}}, whatever the
// status, so a refusal is a *memory.Error, not an *Error.

// MemoryEvent posts ev to the ingress of adapter adapterID and returns the
// result of an ok answer. A refusal is an error wrapping the node's
// *memory.Error (errors.Is(err, &memory.Error{Code: ...}) asks for a
// code); anything else (no answer, an answer that is not the contract's
// JSON) is an ordinary error. It does not retry: a caller that retries
// sends the same event, and the node answers it as it answered the first.
func (c *Client) MemoryEvent(ctx context.Context, adapterID string, ev *memory.Event) (json.RawMessage, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("encode %s event: %w", ev.Kind, err)
	}
	path := "/v1/agent-ingress/" + url.PathEscape(adapterID) + "/events/" + url.PathEscape(ev.Kind)
	resp, data, err := c.exchange(ctx, http.MethodPost, path, body)
	if err != nil {
		return nil, fmt.Errorf("send %s event: %w", ev.Kind, err)
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
		return nil, badAnswer(err, "%s answer (HTTP %d) is not the contract's JSON: %v", ev.Kind, resp.StatusCode, err)
	}
	if !ans.OK {
		me := &memory.Error{Code: memory.CodeInternal, Message: "no error given"}
		if ans.Error != nil {
			me.Code, me.Message, me.Retryable = ans.Error.Code, ans.Error.Message, ans.Error.Retryable
		}
		return nil, fmt.Errorf("the node refused the %s event (HTTP %d): %w", ev.Kind, resp.StatusCode, me)
	}
	return ans.Result, nil
}
