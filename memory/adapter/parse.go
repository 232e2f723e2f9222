package adapter

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Agent names, as they appear in event IDs and state files.
const (
	AgentClaudeCode = "claude-code"
	AgentCodex      = "codex"
)

// Capabilities each agent's hooks give (payload_session_start).
var (
	ClaudeCodeCapabilities = []string{"session_binding", "step_injection", "tool_capture", "compaction_capture", "subagent_capture"}
	CodexCapabilities      = []string{"session_binding", "step_injection", "tool_capture", "compaction_capture", "subagent_capture"}
)

// hookJSON is the union of the hook input fields of Claude Code and Codex
// that the adapter reads; Codex chose Claude Code's names for its hooks.
type hookJSON struct {
	SessionID            string          `json:"session_id"`
	CWD                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	TurnID               string          `json:"turn_id"`
	Prompt               string          `json:"prompt"`
	ToolName             string          `json:"tool_name"`
	ToolInput            json.RawMessage `json:"tool_input"`
	ToolResponse         json.RawMessage `json:"tool_response"`
	ToolUseID            string          `json:"tool_use_id"`
	Error                json.RawMessage `json:"error"`
	IsInterrupt          bool            `json:"is_interrupt"`
	CustomInstructions   string          `json:"custom_instructions"`
	CompactSummary       string          `json:"compact_summary"`
	AgentID              string          `json:"agent_id"`
	AgentType            string          `json:"agent_type"`
	LastAssistantMessage *string         `json:"last_assistant_message"`
	Reason               string          `json:"reason"`
}

type toolInputJSON struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
}

func decodeHook(data []byte) (hookJSON, string, error) {
	var h hookJSON
	if err := json.Unmarshal(data, &h); err != nil {
		return h, "", fmt.Errorf("hook input is not JSON: %w", err)
	}
	// The digest is of the input re-encoded with sorted keys, so an agent
	// that sends the same input with other spacing or key order retries the
	// same event.
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return h, "", fmt.Errorf("hook input is not JSON: %w", err)
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return h, "", fmt.Errorf("re-encode hook input: %w", err)
	}
	sum := sha256.Sum256(canon)
	return h, hex.EncodeToString(sum[:]), nil
}

// rawText is a JSON value as text: a string as itself, anything else as its
// JSON.
func rawText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// toolResponse reads what a tool returned: Claude Code gives Bash's
// {stdout, stderr, interrupted}, Codex a string, MCP tools an object that may
// say isError.
func toolResponse(raw json.RawMessage) (output string, exit *int, failed bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		out := rawText(raw)
		if n, ok := ExitCode(out); ok {
			return out, &n, n != 0
		}
		return out, nil, false
	}
	var parts []string
	for _, k := range []string{"stderr", "stdout", "error", "output"} {
		if s := rawText(obj[k]); s != "" {
			parts = append(parts, s)
		}
	}
	output = strings.Join(parts, "\n")
	for _, k := range []string{"exit_code", "exitCode", "returnCode", "code"} {
		var n int
		if json.Unmarshal(obj[k], &n) == nil && obj[k] != nil {
			exit = &n
			failed = n != 0
			break
		}
	}
	for _, k := range []string{"interrupted", "isError", "is_error"} {
		var b bool
		if json.Unmarshal(obj[k], &b) == nil && b {
			failed = true
		}
	}
	return output, exit, failed
}

// claudeWriteTools are Claude Code's tools that write a file, and the
// tool_input field that names it.
var claudeWriteTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// ParseClaudeCode reads one Claude Code hook input (stdin of a command hook).
//
// SessionStart binds the session; UserPromptSubmit is a step.before, the
// first of which is the node's session_start push trigger;
// PostToolUse and PostToolUseFailure are tool.result; PreCompact, and
// PostCompact when it carries the summary, are context.compaction;
// SubagentStop is subagent.end; SessionEnd is session.end. Other hooks map to
// no event.
func ParseClaudeCode(data []byte) (HookInput, error) {
	h, digest, err := decodeHook(data)
	if err != nil {
		return HookInput{}, err
	}
	in := HookInput{Agent: AgentClaudeCode, Event: h.HookEventName, SessionID: h.SessionID, CWD: h.CWD, Digest: digest}
	switch h.HookEventName {
	case "SessionStart":
		in.Kind = KindSessionStart
	case "UserPromptSubmit":
		in.Kind, in.OutputEvent, in.Prompt = KindStepBefore, "UserPromptSubmit", h.Prompt
	case "PostToolUse", "PostToolUseFailure":
		in.Kind, in.OutputEvent, in.UniqueID = KindToolResult, h.HookEventName, h.ToolUseID
		var ti toolInputJSON
		json.Unmarshal(h.ToolInput, &ti)
		t := &ToolCall{Name: h.ToolName, UseID: h.ToolUseID, OK: true}
		if h.ToolName == "Bash" {
			t.Command = ti.Command
		}
		if claudeWriteTools[h.ToolName] {
			t.Path = ti.FilePath
			if t.Path == "" {
				t.Path = ti.NotebookPath
			}
		}
		out, exit, failed := toolResponse(h.ToolResponse)
		if h.HookEventName == "PostToolUseFailure" {
			// The error text leads ("Exit code 1", then the output).
			failed = true
			if e := rawText(h.Error); e != "" {
				out = strings.TrimSpace(e + "\n" + out)
			}
			if h.IsInterrupt && out == "" {
				out = "interrupted by the user"
			}
			if n, ok := ExitCode(out); ok && exit == nil {
				exit = &n
			}
		} else if exit == nil && h.ToolName == "Bash" && !failed {
			// Claude Code runs PostToolUse only for calls that succeeded.
			zero := 0
			exit = &zero
		}
		t.OK, t.ExitCode, t.Output = !failed, exit, out
		in.Tool = t
	case "PreCompact":
		in.Kind, in.Summary = KindCompaction, h.CustomInstructions
	case "PostCompact":
		if h.CompactSummary != "" {
			in.Kind, in.Summary = KindCompaction, h.CompactSummary
		}
	case "SubagentStop":
		in.Kind, in.UniqueID = KindSubagentEnd, h.AgentID
		in.Subagent = &Subagent{ID: h.AgentID, Type: h.AgentType}
		if h.LastAssistantMessage != nil {
			in.Subagent.Output = *h.LastAssistantMessage
		}
	case "SessionEnd":
		in.Kind, in.EndReason, in.UniqueID = KindSessionEnd, h.Reason, "session-end"
	}
	return in, nil
}

var patchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)

// ParseCodex reads one Codex CLI hook input.
//
// Codex has no SessionEnd hook, so its sessions end at the node by time;
// Stop ends a turn, not the session, and maps to no event. PostCompact
// carries no summary and maps to no event either.
func ParseCodex(data []byte) (HookInput, error) {
	h, digest, err := decodeHook(data)
	if err != nil {
		return HookInput{}, err
	}
	in := HookInput{Agent: AgentCodex, Event: h.HookEventName, SessionID: h.SessionID, CWD: h.CWD, Digest: digest}
	switch h.HookEventName {
	case "SessionStart":
		in.Kind = KindSessionStart
	case "UserPromptSubmit":
		in.Kind, in.OutputEvent, in.Prompt, in.UniqueID = KindStepBefore, "UserPromptSubmit", h.Prompt, h.TurnID
	case "PostToolUse":
		in.Kind, in.OutputEvent, in.UniqueID = KindToolResult, "PostToolUse", h.ToolUseID
		var ti toolInputJSON
		json.Unmarshal(h.ToolInput, &ti)
		t := &ToolCall{Name: h.ToolName, UseID: h.ToolUseID}
		switch h.ToolName {
		case "Bash":
			t.Command = ti.Command
		case "apply_patch", "Edit", "Write":
			// The patch is tool_input.command; the contract wants the path
			// written, never the content.
			if m := patchFile.FindStringSubmatch(ti.Command); m != nil {
				t.Path = strings.TrimSpace(m[1])
			}
		}
		out, exit, failed := toolResponse(h.ToolResponse)
		t.OK, t.ExitCode, t.Output = !failed, exit, out
		in.Tool = t
	case "PreCompact":
		in.Kind, in.UniqueID = KindCompaction, h.TurnID
	case "SubagentStop":
		in.Kind, in.UniqueID = KindSubagentEnd, h.AgentID+"/"+h.TurnID
		in.Subagent = &Subagent{ID: h.AgentID, Type: h.AgentType}
		if h.LastAssistantMessage != nil {
			in.Subagent.Output = *h.LastAssistantMessage
		}
	}
	return in, nil
}
