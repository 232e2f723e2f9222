package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/agora-node/agora/memory"
)

// HookInput is one run of an agent's hook, read into the terms of the
// contract by ParseClaudeCode or ParseCodex.
type HookInput struct {
	Agent     string // "claude-code" or "codex": part of every event ID
	Event     string // the agent's hook event name, such as "PostToolUse"
	Kind      string // the contract kind it maps to; "" when it maps to none
	SessionID string // the agent's session id: the contract's session_ref
	CWD       string
	// UniqueID is what the agent itself gives to tell this event from every
	// other of the session (a tool_use_id, a turn_id); "" when it gives
	// nothing, and then Digest, the digest of the whole input, stands in.
	UniqueID string
	Digest   string
	// OutputEvent is the hookEventName under which the agent reads
	// additionalContext from this hook, "" when it reads none.
	OutputEvent string

	Prompt    string    // step.before
	Tool      *ToolCall // tool.result
	Summary   string    // context.compaction
	Subagent  *Subagent // subagent.end
	EndReason string    // session.end
}

// ToolCall is what a tool.result reports of one tool call.
type ToolCall struct {
	Name     string
	UseID    string
	OK       bool
	ExitCode *int
	Command  string // a shell command as the agent ran it, before redaction
	Path     string // the file a write-type tool wrote
	Output   string // the failure output: error text, stderr and stdout
}

// Subagent is what a subagent.end reports.
type Subagent struct {
	ID, Type, Output string
}

// Runner turns hook runs into contract events for one adapter. A Runner is
// used by one hook process; the Store keeps what it must remember between
// processes.
type Runner struct {
	Client       *Client
	Store        *Store
	Version      string   // adapter_version sent with session.start
	Capabilities []string // what this agent's hooks can report
	Project      string   // project id; "" uses the working directory's name
	Now          func() time.Time
}

// Outcome is what one hook run did.
type Outcome struct {
	Kind    string // the event sent, "" when none was
	EventID string
	Context string // text the node pushed for the agent's next request
	Skipped string // why nothing was sent, when nothing was
}

// sessionMaxAge is how long a session's state is kept after its last event.
const sessionMaxAge = 30 * 24 * time.Hour

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Run sends the event in maps to, starting the node session first when this
// agent session has none yet (its SessionStart hook may have found the node
// down), and returns what the node wants the agent to see. ctx bounds all of
// it; Run makes at most two requests and never retries.
func (r *Runner) Run(ctx context.Context, in HookInput) (Outcome, error) {
	if in.Kind == "" {
		return Outcome{Skipped: "hook " + in.Event + " maps to no event"}, nil
	}
	if in.SessionID == "" {
		return Outcome{}, errors.New("hook input has no session_id")
	}
	adapterID := r.Client.AdapterID
	if in.Kind == KindSessionStart {
		r.Store.Prune(adapterID, sessionMaxAge)
		id, _, err := r.ensureSession(ctx, in)
		return Outcome{Kind: KindSessionStart, EventID: id}, err
	}
	if in.Kind == KindSessionEnd {
		// Ending a session the node never bound, or one already ended,
		// would only make a session to end it.
		var skip string
		if _, err := r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
			switch {
			case s.Ended:
				skip = "session already ended"
			case s.Handle == "":
				skip = "session was never bound"
			}
			return nil
		}); err != nil {
			return Outcome{}, err
		}
		if skip != "" {
			return Outcome{Skipped: skip}, nil
		}
	}
	_, handle, err := r.ensureSession(ctx, in)
	if err != nil {
		return Outcome{}, fmt.Errorf("start session: %w", err)
	}

	// Reserve the event: its ID, its time and its step are fixed the first
	// time this hook input is seen, so a retry sends the same body.
	discriminator := in.UniqueID
	if discriminator == "" {
		discriminator = in.Digest
	}
	key := EventID(in.Event, discriminator)
	var ev SeenEvent
	st, err := r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
		// An input with no id of its own (the same prompt typed twice) is
		// told apart by how many like it the node already acknowledged; one
		// whose send failed keeps its ID for the retry.
		n := 0
		if in.UniqueID == "" {
			n = s.Acked(key)
		}
		id := EventID(adapterID, in.Agent, in.SessionID, strconv.Itoa(s.Generation), in.Kind, key, strconv.Itoa(n))
		if e, ok := s.Seen(id); ok {
			ev = e
			return nil
		}
		ev = SeenEvent{ID: id, Key: key, OccurredAt: r.now().UTC()}
		if in.Kind == KindStepBefore {
			ev.Step = s.Steps
			s.Steps++
		}
		s.remember(ev)
		return nil
	})
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Kind: in.Kind, EventID: ev.ID}
	payload, err := buildPayload(in, handle, ev, st.Shown)
	if err != nil {
		return out, err
	}
	env := &memory.Event{
		AdapterID:  adapterID,
		EventID:    ev.ID,
		SessionRef: Head(in.SessionID, 256),
		OccurredAt: ev.OccurredAt,
		Kind:       in.Kind,
		Payload:    payload,
	}
	res, err := r.Client.Send(ctx, env)
	if err != nil {
		if IsCode(err, memory.CodeSessionUnbound) {
			// The node no longer knows the handle (it was restarted, or the
			// session timed out): the next hook binds a new session.
			r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
				if s.Handle == handle {
					s.Ended = true
				}
				return nil
			})
		}
		return out, err
	}
	var inj memory.InjectResult
	if in.Kind == KindStepBefore || in.Kind == KindToolResult {
		if err := json.Unmarshal(res, &inj); err != nil {
			return out, fmt.Errorf("decode %s result: %w", in.Kind, err)
		}
		if inj.Inject != nil {
			out.Context = inj.Inject.Text
		}
	}
	_, err = r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
		s.ack(ev.ID)
		if out.Context != "" {
			s.Shown = true
		}
		if in.Kind == KindSessionEnd && s.Handle == handle {
			s.Ended = true
		}
		return nil
	})
	return out, err
}

// ensureSession returns the node's handle for in's session, sending
// session.start when there is none. The first session.start of a generation
// is kept whole, so every hook that has to (re)send it sends the same body
// and the node answers with the same handle.
func (r *Runner) ensureSession(ctx context.Context, in HookInput) (eventID, handle string, err error) {
	adapterID := r.Client.AdapterID
	var start PendingStart
	var gen int
	_, err = r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
		if s.Handle != "" && !s.Ended {
			handle = s.Handle
			if s.Start != nil {
				eventID = s.Start.EventID
			}
			return nil
		}
		if s.Ended {
			*s = SessionState{Generation: s.Generation + 1, SessionID: s.SessionID}
		}
		s.Agent = in.Agent
		if s.Root == "" && filepath.IsAbs(in.CWD) {
			s.Root = in.CWD
		}
		if s.Start == nil {
			p, err := json.Marshal(r.sessionStart(in))
			if err != nil {
				return fmt.Errorf("encode session.start: %w", err)
			}
			s.Start = &PendingStart{
				EventID:    EventID(adapterID, in.Agent, in.SessionID, strconv.Itoa(s.Generation), KindSessionStart),
				OccurredAt: r.now().UTC(),
				Payload:    p,
			}
		}
		start, gen = *s.Start, s.Generation
		return nil
	})
	if err != nil || handle != "" {
		return eventID, handle, err
	}
	res, err := r.Client.Send(ctx, &memory.Event{
		AdapterID:  adapterID,
		EventID:    start.EventID,
		SessionRef: Head(in.SessionID, 256),
		OccurredAt: start.OccurredAt,
		Kind:       KindSessionStart,
		Payload:    start.Payload,
	})
	if err != nil {
		return start.EventID, "", err
	}
	var sr memory.SessionStartResult
	if err := json.Unmarshal(res, &sr); err != nil || sr.SessionHandle == "" {
		return start.EventID, "", fmt.Errorf("session.start result has no session_handle (%s)", Head(string(res), 200))
	}
	_, err = r.Store.Update(adapterID, in.SessionID, func(s *SessionState) error {
		if s.Generation == gen && s.Start != nil && s.Start.EventID == start.EventID {
			s.Handle = sr.SessionHandle
		}
		return nil
	})
	return start.EventID, sr.SessionHandle, err
}

func (r *Runner) sessionStart(in HookInput) memory.SessionStartPayload {
	project := r.Project
	if project == "" {
		project = filepath.Base(filepath.Clean(in.CWD))
	}
	if project == "" || project == "." || project == string(filepath.Separator) {
		project = "default"
	}
	p := memory.SessionStartPayload{
		Project:        Head(project, 256),
		Capabilities:   r.Capabilities,
		AdapterVersion: r.Version,
		Environment:    &memory.Environment{OS: runtime.GOOS, Arch: runtime.GOARCH},
	}
	if p.Capabilities == nil {
		p.Capabilities = []string{}
	}
	if in.CWD != "" && filepath.IsAbs(in.CWD) {
		p.WorkspaceRoot = Head(in.CWD, 1024)
		p.Environment.Language = Languages(in.CWD)
	}
	return p
}

// buildPayload writes the payload of in's kind. shown says whether the node
// pushed memory into this session already: only then does a successful tool
// call carry its command, for the node to see a recalled fix being run.
func buildPayload(in HookInput, handle string, ev SeenEvent, shown bool) (any, error) {
	switch in.Kind {
	case KindStepBefore:
		return &memory.StepBeforePayload{SessionHandle: handle, Step: int64(ev.Step), QueryText: Head(Redact(in.Prompt), 4000)}, nil
	case KindToolResult:
		t := in.Tool
		if t == nil {
			return nil, errors.New("tool.result without a tool call")
		}
		name := t.Name
		if name == "" {
			name = "unknown"
		}
		tr := &memory.ToolResultPayload{SessionHandle: handle, ToolName: Head(name, 128), OK: t.OK, CallRef: Head(t.UseID, 256)}
		if t.ExitCode != nil {
			code := int64(*t.ExitCode)
			tr.ExitCode = &code
		}
		if !t.OK {
			tail := Tail(Redact(t.Output), 4096)
			tr.ErrorTail = &tail
			if sig, ok := ErrorSignature(tail); ok {
				tr.ErrorSignature = &sig
			}
		}
		if t.Path != "" {
			lp := Head(LogicalPath(in.CWD, t.Path), 1024)
			tr.Path = &lp
		}
		if t.Command != "" && (!t.OK || shown) {
			c := Head(Redact(t.Command), 4096)
			tr.Command = &c
		}
		return tr, nil
	case KindCompaction:
		return &memory.ContextCompactionPayload{SessionHandle: handle, SummaryText: Tail(Redact(in.Summary), 16384)}, nil
	case KindSubagentEnd:
		sa := in.Subagent
		if sa == nil {
			sa = &Subagent{}
		}
		child := sa.ID
		if child == "" {
			child = "subagent"
		}
		se := &memory.SubagentEndPayload{SessionHandle: handle, ChildRef: Head(child, 256), StopReason: "stop", AgentType: Head(sa.Type, 128)}
		if sa.Output != "" {
			o := Tail(Redact(sa.Output), 4096)
			se.OutputTail = &o
		}
		return se, nil
	case KindSessionEnd:
		reason := in.EndReason
		if reason == "" {
			reason = "other"
		}
		return &memory.SessionEndPayload{SessionHandle: handle, Reason: Head(reason, 64)}, nil
	}
	return nil, fmt.Errorf("hooks send no %s events", in.Kind)
}

// HookOutput is the JSON a hook prints for the agent to fold context into
// its next request; both Claude Code and Codex read this shape.
func HookOutput(in HookInput, context string) []byte {
	if context == "" || in.OutputEvent == "" {
		return nil
	}
	out, _ := json.Marshal(map[string]any{
		"hookSpecificOutput": map[string]string{
			"hookEventName":     in.OutputEvent,
			"additionalContext": context,
		},
	})
	return append(out, '\n')
}
