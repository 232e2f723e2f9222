// Package adapter is the agent side of Agora memory: it turns what a coding
// agent reports through its hooks (Claude Code, Codex CLI) or asks through
// MCP tools into events of the memory-agent-ingress/v1 contract, sends them
// to the node, and hands back what the node wants the agent to see.
//
// The contract is package memory: its payload and result types are what
// the adapter sends and reads, and memory.Event is the envelope
// {adapter_id, event_id, session_ref, parent_ref, occurred_at, kind,
// payload} POSTed to {url}/v1/agent-ingress/{adapter_id}/events/{kind},
// answered with {"ok":true,"result":...} or {"ok":false,"error":...}, which
// Client.Send returns as a *memory.Error; the requests go through package
// client, the node's one HTTP transport. What is the adapter's own is how
// an agent's hook input maps onto events (parse.go), what is redacted
// before it leaves the machine (facts.go), and what a hook remembers
// between runs so that a retried hook sends the same event (state.go).
//
// A hook must never get in the agent's way: every entry point here is
// bounded in time and reports failures to its caller instead of retrying.
//
// The contract: memory/memory-agent-ingress-v1.schema.json.
package adapter

import (
	"crypto/sha256"
	"encoding/hex"
)

// Event kinds of memory-agent-ingress/v1 that the adapters send.
const (
	KindSessionStart = "session.start"
	KindStepBefore   = "step.before"
	KindToolResult   = "tool.result"
	KindCompaction   = "context.compaction"
	KindSubagentEnd  = "subagent.end"
	KindNote         = "note"
	KindQuery        = "query"
	KindSessionEnd   = "session.end"
)

// EventID derives an event_id (a sha256 digest, as the contract requires)
// from the parts that make an event what it is. The same parts give the same
// ID, which is what makes a retried hook idempotent at the node.
func EventID(parts ...string) string {
	h := sha256.New()
	h.Write([]byte("agora-memory-event/v1"))
	for _, p := range parts {
		// Length-prefixed so that ("ab","c") and ("a","bc") differ.
		var n [8]byte
		for i, l := 0, uint64(len(p)); i < 8; i++ {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
