// Package adapter is the agent side of Agora memory: it turns what a coding
// agent reports through its hooks (Claude Code, Codex CLI) or asks through
// MCP tools into events of the memory-agent-ingress/v1 contract, sends them
// to the node, and hands back what the node wants the agent to see.
//
// The contract is the JSON schema memory-agent-ingress-v1.schema.json: every
// event is an envelope {adapter_id, event_id, session_ref, parent_ref,
// occurred_at, kind, payload} POSTed to
// {url}/v1/agent-ingress/{adapter_id}/events/{kind}, answered with
// {"ok":true,"result":...} or {"ok":false,"error":{code,message,retryable}}.
//
// This package defines the few contract types it needs itself rather than
// importing the node's memory package, so an agent machine can run the
// adapters without the node's code. A hook must never get in the agent's
// way: every entry point here is bounded in time and reports failures to
// its caller instead of retrying.
package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
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

// Error codes of the contract the adapters act on.
const (
	CodeSessionUnbound      = "session_unbound"
	CodeIdempotencyConflict = "idempotency_conflict"
	CodeUnauthorized        = "unauthorized"
)

// Envelope is the request body of every event. The contract closes it: no
// other field may be sent.
type Envelope struct {
	AdapterID  string          `json:"adapter_id"`
	EventID    string          `json:"event_id"`
	SessionRef string          `json:"session_ref"`
	ParentRef  *string         `json:"parent_ref"`
	OccurredAt string          `json:"occurred_at"`
	Kind       string          `json:"kind"`
	Payload    json.RawMessage `json:"payload"`
}

// SessionStart is payload_session_start.
type SessionStart struct {
	Project        string       `json:"project"`
	Capabilities   []string     `json:"capabilities"`
	AdapterVersion string       `json:"adapter_version,omitempty"`
	Environment    *Environment `json:"environment,omitempty"`
	WorkspaceRoot  string       `json:"workspace_root,omitempty"`
}

// Environment is the soft environment facts of a session.
type Environment struct {
	OS       string   `json:"os,omitempty"`
	Arch     string   `json:"arch,omitempty"`
	Language []string `json:"language,omitempty"`
}

// StepBefore is payload_step_before.
type StepBefore struct {
	SessionHandle string `json:"session_handle"`
	Step          int    `json:"step"`
	QueryText     string `json:"query_text,omitempty"`
}

// ToolResult is payload_tool_result. Pointers are the contract's nullable
// fields; nil leaves them out.
type ToolResult struct {
	SessionHandle  string  `json:"session_handle"`
	ToolName       string  `json:"tool_name"`
	OK             bool    `json:"ok"`
	CallRef        string  `json:"call_ref,omitempty"`
	ExitCode       *int    `json:"exit_code,omitempty"`
	ErrorTail      *string `json:"error_tail,omitempty"`
	ErrorSignature *string `json:"error_signature,omitempty"`
	Path           *string `json:"path,omitempty"`
	Command        *string `json:"command,omitempty"`
}

// Compaction is payload_context_compaction.
type Compaction struct {
	SessionHandle string `json:"session_handle"`
	SummaryText   string `json:"summary_text"`
}

// SubagentEnd is payload_subagent_end.
type SubagentEnd struct {
	SessionHandle string  `json:"session_handle"`
	ChildRef      string  `json:"child_ref"`
	StopReason    string  `json:"stop_reason"`
	AgentType     string  `json:"agent_type,omitempty"`
	OutputTail    *string `json:"output_tail,omitempty"`
}

// SessionEnd is payload_session_end.
type SessionEnd struct {
	SessionHandle string `json:"session_handle"`
	Reason        string `json:"reason"`
}

// Note is payload_note: a memory the agent records.
type Note struct {
	SessionHandle string      `json:"session_handle"`
	Title         string      `json:"title"`
	Type          string      `json:"type"`
	Scope         string      `json:"scope"`
	TopicKey      string      `json:"topic_key,omitempty"`
	Content       NoteContent `json:"content"`
	EvidenceRefs  []string    `json:"evidence_refs,omitempty"`
	Fix           *Fix        `json:"fix,omitempty"`
}

// NoteContent is the four required parts of a note.
type NoteContent struct {
	What    string `json:"what"`
	Why     string `json:"why"`
	Where   string `json:"where"`
	Learned string `json:"learned"`
}

// Fix is a note's mechanical fix: a command, a diff or a config file.
type Fix struct {
	Kind    string `json:"kind"`
	Command string `json:"command,omitempty"`
	Diff    string `json:"diff,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"`
}

// Query is payload_query: op "search" carries Query (and Limit), op "read"
// carries Ref.
type Query struct {
	SessionHandle string `json:"session_handle"`
	Op            string `json:"op"`
	Query         string `json:"query,omitempty"`
	Limit         int    `json:"limit,omitempty"`
	Ref           string `json:"ref,omitempty"`
}

// SessionStartResult is the part of result_session_start the adapters keep.
type SessionStartResult struct {
	SessionHandle string   `json:"session_handle"`
	DisabledKinds []string `json:"disabled_kinds,omitempty"`
}

// InjectResult is result_step_before and result_tool_result.
type InjectResult struct {
	Inject *Inject `json:"inject"`
}

// Inject is text the node wants folded into the agent's next request.
type Inject struct {
	Text       string   `json:"text"`
	RecordRefs []string `json:"record_refs"`
	Hits       []Hit    `json:"hits"`
	Trigger    string   `json:"trigger,omitempty"`
}

// Hit is a ranked memory record as the node returns it.
type Hit struct {
	RecordRef       string   `json:"record_ref"`
	Title           string   `json:"title"`
	Trust           string   `json:"trust"`
	ProvenanceLabel string   `json:"provenance_label"`
	Score           float64  `json:"score"`
	Reasons         []Reason `json:"reasons"`
	Summary         string   `json:"summary,omitempty"`
	Excerpt         string   `json:"excerpt,omitempty"`
	Marks           []string `json:"marks,omitempty"`
}

// Reason is one match reason of a hit.
type Reason struct {
	Signal       string  `json:"signal"`
	Value        string  `json:"value"`
	Contribution float64 `json:"contribution"`
}

// SearchResult is result_query_search.
type SearchResult struct {
	Op     string `json:"op"`
	Hits   []Hit  `json:"hits"`
	Status string `json:"status,omitempty"`
}

// ReadResult is result_query_read.
type ReadResult struct {
	Op     string     `json:"op"`
	Record ReadRecord `json:"record"`
}

// ReadRecord is a whole memory record, as query read returns it.
type ReadRecord struct {
	RecordRef       string   `json:"record_ref"`
	Title           string   `json:"title"`
	Trust           string   `json:"trust"`
	ProvenanceLabel string   `json:"provenance_label"`
	Text            string   `json:"text"`
	Type            string   `json:"type,omitempty"`
	Scope           string   `json:"scope,omitempty"`
	TopicKey        string   `json:"topic_key,omitempty"`
	Project         string   `json:"project,omitempty"`
	Marks           []string `json:"marks,omitempty"`
}

// NoteResult is result_note.
type NoteResult struct {
	RecordRef   *string `json:"record_ref"`
	DraftRef    *string `json:"draft_ref,omitempty"`
	Revision    int     `json:"revision"`
	TopicKey    string  `json:"topic_key"`
	VisibleFrom string  `json:"visible_from,omitempty"`
	Similar     []Hit   `json:"similar"`
}

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

// Timestamp formats t as the contract's timestamp: RFC 3339 in UTC with at
// most nanosecond precision.
func Timestamp(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}
