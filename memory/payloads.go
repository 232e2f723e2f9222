package memory

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The payload of each kind, as $defs/payload_<kind> describes it. JSON names
// are the contract's; a member the contract marks "X or null" is a pointer
// (or a string whose zero value stands for absent when X may not be empty),
// and absent and null read the same, as the contract gives them no separate
// meaning.

// SessionStartPayload opens a session (session.start).
type SessionStartPayload struct {
	Project        string                    `json:"project"`
	ProfileRef     *string                   `json:"profile_ref,omitempty"` // name[@revision]; nil: the node's default
	Capabilities   []string                  `json:"capabilities"`
	AdapterVersion string                    `json:"adapter_version,omitempty"`
	Environment    *Environment              `json:"environment,omitempty"`
	Dimensions     map[string]DimensionValue `json:"dimensions,omitempty"`
	// WorkspaceRoot is an absolute path, local to the node's host; it is
	// never copied into Raw.
	WorkspaceRoot string `json:"workspace_root,omitempty"`
}

// Environment holds the soft facts the environment signal matches on.
type Environment struct {
	OS       string   `json:"os,omitempty"`
	Arch     string   `json:"arch,omitempty"`
	Language []string `json:"language,omitempty"`
}

// DimensionValue is one task dimension: a single value (a dimension of kind
// exact) or a set (kind set), as the JSON was a string or a list.
type DimensionValue struct {
	Values []string
	Set    bool
}

// MarshalJSON writes a string for an exact value and a list for a set.
func (d DimensionValue) MarshalJSON() ([]byte, error) {
	if !d.Set && len(d.Values) == 1 {
		return json.Marshal(d.Values[0])
	}
	return json.Marshal(d.Values)
}

// UnmarshalJSON reads a string or a list of strings.
func (d *DimensionValue) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*d = DimensionValue{Values: []string{one}}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return fmt.Errorf("a dimension is a string or a list of strings: %w", err)
	}
	*d = DimensionValue{Values: many, Set: true}
	return nil
}

// StepBeforePayload precedes a model request (step.before); the node may
// answer with an injection.
type StepBeforePayload struct {
	SessionHandle string  `json:"session_handle"`
	Step          int64   `json:"step"`
	Phase         *string `json:"phase,omitempty"`
	// QueryText is the first prompt or current task, redacted by the
	// adapter, used only as query facts.
	QueryText string `json:"query_text,omitempty"`
}

// ToolResultPayload reports a finished tool call (tool.result).
type ToolResultPayload struct {
	SessionHandle  string   `json:"session_handle"`
	ToolName       string   `json:"tool_name"`
	OK             bool     `json:"ok"`
	CallRef        string   `json:"call_ref,omitempty"`
	ExitCode       *int64   `json:"exit_code,omitempty"`
	ErrorTail      *string  `json:"error_tail,omitempty"`
	ErrorSignature *string  `json:"error_signature,omitempty"`
	Path           *string  `json:"path,omitempty"` // logical path a write-type tool wrote; never content
	Symbols        []string `json:"symbols,omitempty"`
	// Command is the shell command, redacted by the adapter; the node uses it
	// for replays and applied detection and never journals it.
	Command *string `json:"command,omitempty"`
}

// ContextCompactionPayload carries the summary a compaction produced.
type ContextCompactionPayload struct {
	SessionHandle string `json:"session_handle"`
	SummaryText   string `json:"summary_text"`
}

// SubagentEndPayload reports a finished subagent.
type SubagentEndPayload struct {
	SessionHandle string  `json:"session_handle"`
	ChildRef      string  `json:"child_ref"`
	StopReason    string  `json:"stop_reason"`
	AgentType     string  `json:"agent_type,omitempty"`
	OutputTail    *string `json:"output_tail,omitempty"`
}

// NotePayload is a note the agent records (note).
type NotePayload struct {
	SessionHandle string      `json:"session_handle"`
	Title         string      `json:"title"`
	Type          string      `json:"type"`  // decision, bugfix, pattern, config, discovery, learning, pitfall
	Scope         string      `json:"scope"` // project or global
	Phase         *string     `json:"phase,omitempty"`
	TopicKey      string      `json:"topic_key,omitempty"` // family/description; empty: derive with TopicKey
	Content       NoteContent `json:"content"`
	EvidenceRefs  []string    `json:"evidence_refs,omitempty"`
	RelatesTo     []Relation  `json:"relates_to,omitempty"`
	Fix           *Fix        `json:"fix,omitempty"`
}

// EffectiveTopicKey is the note's topic key: the one it carries, or the one
// TopicKey derives from its type and title, with derived telling which (the
// result's topic_key_derived).
func (n *NotePayload) EffectiveTopicKey() (key string, derived bool) {
	if n.TopicKey != "" {
		return n.TopicKey, false
	}
	return TopicKey(n.Type, n.Title), true
}

// NoteContent is the four parts every note has.
type NoteContent struct {
	What    string `json:"what"`
	Why     string `json:"why"`
	Where   string `json:"where"`
	Learned string `json:"learned"`
}

// Relation links a note to a record it relates to.
type Relation struct {
	RecordRef string `json:"record_ref"`
	Relation  string `json:"relation"` // related, compatible, scoped, conflicts_with, supersedes, not_conflict
}

// Fix kinds.
const (
	FixCommand = "command" // a shell command run in the workspace root
	FixDiff    = "diff"    // a unified diff with paths relative to the workspace root
	FixConfig  = "config"  // a whole config file at Path, relative to the workspace root
)

// Fix is the fix a note carries. Only the members of its Kind are set:
// Command for command, Diff for diff, Path and Content for config.
type Fix struct {
	Kind    string `json:"kind"`
	Command string `json:"command,omitempty"`
	Diff    string `json:"diff,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"`
}

// MarshalJSON writes content even when empty for a config fix, where the
// contract requires it.
func (f Fix) MarshalJSON() ([]byte, error) {
	type plain Fix
	if f.Kind != FixConfig {
		return json.Marshal(plain(f))
	}
	return json.Marshal(struct {
		Kind    string `json:"kind"`
		Path    string `json:"path"`
		Content string `json:"content"`
	}{f.Kind, f.Path, f.Content})
}

// Query operations.
const (
	QuerySearch = "search"
	QueryRead   = "read"
)

// QueryPayload is a search or a read (query). Op says which: a search sets
// Query and optionally Limit, Phase and Facts; a read sets Ref.
type QueryPayload struct {
	SessionHandle string      `json:"session_handle"`
	Op            string      `json:"op"`
	Query         string      `json:"query,omitempty"`
	Limit         int64       `json:"limit,omitempty"` // 1–5; 0: the node's default
	Phase         *string     `json:"phase,omitempty"`
	Facts         *QueryFacts `json:"facts,omitempty"`
	Ref           string      `json:"ref,omitempty"`
}

// QueryFacts are the structured facts of a search.
type QueryFacts struct {
	ToolName       string   `json:"tool_name,omitempty"`
	ErrorSignature string   `json:"error_signature,omitempty"`
	ErrorTail      string   `json:"error_tail,omitempty"`
	Symbols        []string `json:"symbols,omitempty"`
	Files          []string `json:"files,omitempty"`
}

// WorkflowStartPayload opens a workflow run (capability-disabled).
type WorkflowStartPayload struct {
	SessionHandle string                    `json:"session_handle"`
	RunRef        string                    `json:"run_ref"`
	Name          string                    `json:"name"`
	Description   *string                   `json:"description,omitempty"`
	Phases        []string                  `json:"phases"`
	MetaDigest    *string                   `json:"meta_digest,omitempty"`
	ScriptDigest  *string                   `json:"script_digest,omitempty"`
	Dimensions    map[string]DimensionValue `json:"dimensions,omitempty"`
}

// WorkflowPhasePayload enters a phase of a workflow run (capability-disabled).
type WorkflowPhasePayload struct {
	SessionHandle string `json:"session_handle"`
	RunRef        string `json:"run_ref"`
	Title         string `json:"title"`
}

// WorkflowAgentStartPayload starts an agent of a workflow run
// (capability-disabled).
type WorkflowAgentStartPayload struct {
	SessionHandle string  `json:"session_handle"`
	RunRef        string  `json:"run_ref"`
	Seq           int64   `json:"seq"`
	Label         *string `json:"label,omitempty"`
	Phase         *string `json:"phase,omitempty"`
	ChildRef      *string `json:"child_ref,omitempty"`
}

// WorkflowAgentEndPayload ends an agent of a workflow run
// (capability-disabled).
type WorkflowAgentEndPayload struct {
	SessionHandle string  `json:"session_handle"`
	RunRef        string  `json:"run_ref"`
	Seq           int64   `json:"seq"`
	Label         *string `json:"label,omitempty"`
	Phase         *string `json:"phase,omitempty"`
	ChildRef      *string `json:"child_ref,omitempty"`
	Outcome       *string `json:"outcome,omitempty"`
}

// WorkflowEndPayload ends a workflow run (capability-disabled).
type WorkflowEndPayload struct {
	SessionHandle string  `json:"session_handle"`
	RunRef        string  `json:"run_ref"`
	StopReason    string  `json:"stop_reason"` // completed, cancelled, error
	Error         *string `json:"error,omitempty"`
	AgentsStarted *int64  `json:"agents_started,omitempty"`
	ResultOutcome *string `json:"result_outcome,omitempty"`
}

// GoalChangedPayload reports a change of the session's goal
// (capability-disabled).
type GoalChangedPayload struct {
	SessionHandle   string  `json:"session_handle"`
	Operation       string  `json:"operation"` // create, complete, block, pause, resume, clear
	ObjectiveDigest *string `json:"objective_digest,omitempty"`
}

// SessionEndPayload closes a session (session.end).
type SessionEndPayload struct {
	SessionHandle string `json:"session_handle"`
	Reason        string `json:"reason"`
}

// newPayload returns a pointer to the zero payload of kind.
func newPayload(kind string) (any, error) {
	switch kind {
	case "session.start":
		return new(SessionStartPayload), nil
	case "step.before":
		return new(StepBeforePayload), nil
	case "tool.result":
		return new(ToolResultPayload), nil
	case "context.compaction":
		return new(ContextCompactionPayload), nil
	case "subagent.end":
		return new(SubagentEndPayload), nil
	case "note":
		return new(NotePayload), nil
	case "query":
		return new(QueryPayload), nil
	case "workflow.start":
		return new(WorkflowStartPayload), nil
	case "workflow.phase":
		return new(WorkflowPhasePayload), nil
	case "workflow.agent.start":
		return new(WorkflowAgentStartPayload), nil
	case "workflow.agent.end":
		return new(WorkflowAgentEndPayload), nil
	case "workflow.end":
		return new(WorkflowEndPayload), nil
	case "goal.changed":
		return new(GoalChangedPayload), nil
	case "session.end":
		return new(SessionEndPayload), nil
	}
	return nil, errors.New("no payload type for kind " + kind)
}

// SessionHandle returns the session_handle a payload carries, and false for
// session.start, whose payload has none: the node issues it.
func SessionHandle(payload any) (string, bool) {
	switch p := payload.(type) {
	case *StepBeforePayload:
		return p.SessionHandle, true
	case *ToolResultPayload:
		return p.SessionHandle, true
	case *ContextCompactionPayload:
		return p.SessionHandle, true
	case *SubagentEndPayload:
		return p.SessionHandle, true
	case *NotePayload:
		return p.SessionHandle, true
	case *QueryPayload:
		return p.SessionHandle, true
	case *WorkflowStartPayload:
		return p.SessionHandle, true
	case *WorkflowPhasePayload:
		return p.SessionHandle, true
	case *WorkflowAgentStartPayload:
		return p.SessionHandle, true
	case *WorkflowAgentEndPayload:
		return p.SessionHandle, true
	case *WorkflowEndPayload:
		return p.SessionHandle, true
	case *GoalChangedPayload:
		return p.SessionHandle, true
	case *SessionEndPayload:
		return p.SessionHandle, true
	}
	return "", false
}
