package engine

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/store"
)

// session is a session's state as stored (MemorySession.State).
type session struct {
	Handle       string                     `json:"handle"`
	AdapterID    string                     `json:"adapter_id"`
	SessionRef   string                     `json:"session_ref"`
	Project      string                     `json:"project"`
	Profile      json.RawMessage            `json:"profile"` // the pinned profile's document
	Capabilities []string                   `json:"capabilities"`
	Environment  *memory.Environment        `json:"environment,omitempty"`
	Dimensions   map[string][]string        `json:"dimensions,omitempty"`
	Started      time.Time                  `json:"started"`
	Ended        bool                       `json:"ended,omitempty"`
	Phase        string                     `json:"phase,omitempty"`
	Steps        int64                      `json:"steps"`
	Failures     int64                      `json:"failures"`
	Results      int64                      `json:"results"`
	LastOK       bool                       `json:"last_ok"`
	Failure      *failure                   `json:"failure,omitempty"` // the last failing tool result
	Spent        memory.Budgets             `json:"spent"`
	Counts       counts                     `json:"counts"`
	Exposed      map[string]*exposure       `json:"exposed"`
	Met          []string                   `json:"met"` // refs of the records met, in order
	Pending      []pending                  `json:"pending,omitempty"`
	Notes        []string                   `json:"notes"`
	Workflow     map[string]json.RawMessage `json:"workflow,omitempty"`
}

// failure is what a failing tool result said, kept for the session's next
// note (whose record it makes findable by that failure) and for the step
// a fix should make pass.
type failure struct {
	StepKey        string   `json:"step_key"`
	ToolName       string   `json:"tool_name"`
	ErrorTail      string   `json:"error_tail,omitempty"`
	ErrorSignature string   `json:"error_signature,omitempty"`
	Symbols        []string `json:"symbols,omitempty"`
}

// counts are the session's receipts by exposure kind.
type counts struct {
	Pushed, Listed, Read, Cited, Applied int64
}

// exposure is how the session met one record.
type exposure struct {
	Pushed  bool   `json:"pushed,omitempty"`
	Listed  bool   `json:"listed,omitempty"`
	Read    bool   `json:"read,omitempty"`
	Cited   bool   `json:"cited,omitempty"`
	Applied bool   `json:"applied,omitempty"`
	Trigger string `json:"trigger,omitempty"`
}

// pending is a record whose fix the session applied, waiting for the step
// the fix was for (StepKey; "" for any) to run again.
type pending struct {
	Ref     string `json:"ref"`
	StepKey string `json:"step_key"`
	Event   string `json:"event"` // the event that applied it
}

// sessionHandlePrefix starts every handle, so one is told from a record
// ref at a glance.
const sessionHandlePrefix = "ms_"

var handleEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newHandle returns a session handle of 160 random bits: unguessable, so
// holding one is what binds an event to its session.
func newHandle() string {
	var b [20]byte
	rand.Read(b[:])
	return sessionHandlePrefix + handleEncoding.EncodeToString(b[:])
}

// nodeCapabilities are the adapter capabilities the node makes use of for
// every session; a profile enabling workflow or goal kinds adds theirs.
var nodeCapabilities = []string{"session_binding", "step_injection", "tool_capture", "compaction_capture",
	"subagent_capture", "note_tool", "query_tools"}

// startSession answers session.start: a new handle, with the profile
// pinned.
func (e *Engine) startSession(ctx context.Context, ev *memory.Event) ([]byte, int, error) {
	p := ev.Payload.(*memory.SessionStartPayload)
	prof, doc, fallback, err := e.pinProfile(ctx, p.ProfileRef)
	if err != nil {
		return nil, 0, err
	}
	if err := prof.CheckDimensions(p.Dimensions, "/payload/dimensions"); err != nil {
		return nil, 0, err
	}
	s := &session{
		Handle: newHandle(), AdapterID: ev.AdapterID, SessionRef: ev.SessionRef, Project: p.Project,
		Profile: doc, Capabilities: p.Capabilities, Environment: p.Environment, Started: e.stamp(),
		Exposed: map[string]*exposure{}, Met: []string{}, Notes: []string{},
	}
	if len(p.Dimensions) > 0 {
		s.Dimensions = map[string][]string{}
		for k, v := range p.Dimensions {
			s.Dimensions[k] = v.Values
		}
	}
	res := memory.SessionStartResult{SessionHandle: s.Handle, Profile: prof.Pin(), ProfileFallback: fallback}
	want := slices.Clone(nodeCapabilities)
	for _, k := range memory.CapabilityDisabledKinds() {
		if prof.KindEnabled(k) {
			c := "workflow_events"
			if k == "goal.changed" {
				c = "goal_events"
			}
			if !slices.Contains(want, c) {
				want = append(want, c)
			}
		} else {
			res.DisabledKinds = append(res.DisabledKinds, k)
		}
	}
	for _, c := range want {
		if !slices.Contains(p.Capabilities, c) {
			res.CapabilitiesMissing = append(res.CapabilitiesMissing, c)
		}
	}
	body, err := answer(ev.Kind, res)
	if err != nil {
		return nil, 0, err
	}
	state, err := json.Marshal(s)
	if err != nil {
		return nil, 0, fmt.Errorf("engine: encoding session %s: %w", s.Handle, err)
	}
	ms := &MemorySession{Handle: s.Handle, AdapterID: ev.AdapterID, Version: 1, State: state, Started: s.Started}
	out, status, applied, err := e.commit(ctx, ev, s.Handle, body, MemoryChange{Session: ms})
	if applied {
		e.sessMu.Lock()
		e.sessions[s.Handle] = &slot{version: 1, state: state, profile: prof}
		e.sessMu.Unlock()
	}
	return out, status, err
}

// pinProfile picks the profile a session.start asks for: the stored
// revision it names (or the last stored of its name), the default when it
// names none, and the default with the reason when it names one this node
// does not keep.
func (e *Engine) pinProfile(ctx context.Context, refText *string) (*memory.Profile, json.RawMessage, *string, error) {
	def := memory.DefaultProfile()
	defDoc, err := json.Marshal(def)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("engine: encoding the default profile: %w", err)
	}
	if refText == nil {
		return def, defDoc, nil, nil
	}
	ref, err := memory.ParseProfileRef(*refText)
	if err != nil {
		return nil, nil, nil, err
	}
	if ref.Name == def.ID && (ref.Revision == "" || ref.Revision == def.Revision) {
		if _, err := e.st.MemoryProfile(ctx, def.ID, ref.Revision); errors.Is(err, store.ErrNotFound) {
			return def, defDoc, nil, nil
		}
	}
	fall := func(why string) (*memory.Profile, json.RawMessage, *string, error) {
		msg := fmt.Sprintf("%s; pinned %s@%s instead", why, def.ID, def.Revision)
		return def, defDoc, &msg, nil
	}
	stored, err := e.st.MemoryProfile(ctx, ref.Name, ref.Revision)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fall(fmt.Sprintf("profile %s is not kept on this node", ref))
	case err != nil:
		return nil, nil, nil, fmt.Errorf("engine: profile %s: %w", ref, err)
	}
	prof, err := memory.ParseProfile(stored.Document)
	if err != nil {
		return fall(fmt.Sprintf("profile %s as kept is not a valid profile", ref))
	}
	return prof, stored.Document, nil, nil
}

// slot returns the session's slot, reading the session from the store the
// first time, or nil when the store has no such session.
func (e *Engine) slot(ctx context.Context, handle string) (*slot, error) {
	e.sessMu.Lock()
	sl, ok := e.sessions[handle]
	e.sessMu.Unlock()
	if ok {
		return sl, nil
	}
	ms, err := e.st.MemorySession(ctx, handle)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("engine: session: %w", err)
	}
	sl = &slot{version: ms.Version, state: ms.State, gone: ms.Ended}
	if !sl.gone {
		var s session
		if err := json.Unmarshal(ms.State, &s); err != nil {
			return nil, fmt.Errorf("engine: session %s as stored: %w", handle, err)
		}
		if sl.profile, err = memory.ParseProfile(s.Profile); err != nil {
			return nil, fmt.Errorf("engine: the profile session %s pinned: %w", handle, err)
		}
	}
	e.sessMu.Lock()
	defer e.sessMu.Unlock()
	if other, ok := e.sessions[handle]; ok {
		return other, nil // read meanwhile by another event
	}
	e.sessions[handle] = sl
	return sl, nil
}

// unbound is the error of an event naming no live session of its adapter.
func unbound(handle string) error {
	return memory.NewError(memory.CodeSessionUnbound, "session %s is not a live session of this adapter; start one with session.start", handle)
}

// sessionEvent answers an event of a live session. An event computed from
// a session or records that another process changed meanwhile is
// computed again from what the store holds (follow.go).
func (e *Engine) sessionEvent(ctx context.Context, ev *memory.Event, handle string) ([]byte, int, error) {
	for turn := 1; ; turn++ {
		out, status, err := e.sessionTurn(ctx, ev, handle)
		if !errors.Is(err, store.ErrConflict) {
			return out, status, err
		}
		if turn == maxTurns {
			return nil, 0, errBusy(err)
		}
	}
}

// sessionTurn computes the event from the session and records as the
// engine holds them, and stores it. A write that met another process's
// change returns an error wrapping store.ErrConflict, having read the
// session and the records it changed again.
func (e *Engine) sessionTurn(ctx context.Context, ev *memory.Event, handle string) ([]byte, int, error) {
	sl, err := e.slot(ctx, handle)
	if err != nil {
		return nil, 0, err
	}
	if sl == nil {
		return nil, 0, unbound(handle)
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	// The same event may have been applied while this one waited for the
	// session, and may even have ended it: its answer stands.
	switch prior, err := e.st.MemoryEvent(ctx, ev.AdapterID, ev.EventID); {
	case err == nil:
		return replay(prior, ev)
	case !errors.Is(err, store.ErrNotFound):
		return nil, 0, fmt.Errorf("engine: the history of event %s: %w", ev.EventID, err)
	}
	if sl.gone {
		return nil, 0, unbound(handle)
	}
	s := new(session)
	if err := json.Unmarshal(sl.state, s); err != nil {
		return nil, 0, fmt.Errorf("engine: session %s: %w", handle, err)
	}
	if s.AdapterID != ev.AdapterID {
		return nil, 0, unbound(handle)
	}
	if !sl.profile.KindEnabled(ev.Kind) {
		return nil, 0, memory.NewError(memory.CodeCapabilityDisabled, "%s is off for this session: profile %s@%s does not enable it",
			ev.Kind, sl.profile.ID, sl.profile.Revision)
	}
	if err := e.follow(ctx); err != nil {
		return nil, 0, err
	}
	t := &turn{e: e, ev: ev, s: s, prof: sl.profile, at: e.stamp()}
	if t.changesRecords() {
		e.recWrite.Lock()
		defer e.recWrite.Unlock()
	}
	result, err := t.run()
	if err != nil {
		return nil, 0, err
	}
	body, err := answer(ev.Kind, result)
	if err != nil {
		return nil, 0, err
	}
	state, err := json.Marshal(s)
	if err != nil {
		return nil, 0, fmt.Errorf("engine: encoding session %s: %w", handle, err)
	}
	ms := &MemorySession{Handle: handle, AdapterID: s.AdapterID, Version: sl.version + 1, State: state, Started: s.Started, Ended: s.Ended}
	c := MemoryChange{Session: ms, Receipts: t.receipts}
	for _, r := range t.changed {
		row, err := r.row()
		if err != nil {
			return nil, 0, err
		}
		c.Records = append(c.Records, row)
	}
	out, status, applied, err := e.commit(ctx, ev, handle, body, c)
	if applied {
		sl.version, sl.state, sl.gone = ms.Version, state, s.Ended
		for _, r := range t.changed {
			e.install(r)
		}
	} else if err != nil {
		e.resync(ctx, sl, handle, t.changed)
	}
	return out, status, err
}

// resync forgets what the engine holds of a session and records after a
// write that failed: a write may fail after it was made durable (the disk
// answered late, the process was told no), or because another process
// changed the session or a record first (store.ErrConflict), and the next
// event must start from what the store has, not from what the engine
// thought. The caller holds sl.mu, and recWrite when changed is not empty.
func (e *Engine) resync(ctx context.Context, sl *slot, handle string, changed []*record) {
	ctx = context.WithoutCancel(ctx)
	if ms, err := e.st.MemorySession(ctx, handle); err == nil {
		sl.version, sl.state, sl.gone = ms.Version, ms.State, ms.Ended
	} else {
		// Unreadable now: the next event reads it afresh.
		e.sessMu.Lock()
		delete(e.sessions, handle)
		e.sessMu.Unlock()
	}
	for _, r := range changed {
		row, err := e.st.MemoryRecord(ctx, r.Ref)
		if err != nil {
			continue // never stored, or unreadable now: the installed copy stands
		}
		if stored, err := decodeRecord(row); err == nil {
			e.installNewer(stored)
		}
	}
}

// turn is one event of a session being handled: the session's state,
// changed in place (the slot keeps the stored copy until the write
// succeeds), and what the event does to records and receipts.
type turn struct {
	e        *Engine
	ev       *memory.Event
	s        *session
	prof     *memory.Profile
	at       time.Time
	changed  []*record // records changed, each once, in order
	receipts []MemoryReceipt
}

// changesRecords says whether the event may change records, and so must
// hold the engine's record lock.
func (t *turn) changesRecords() bool {
	switch t.ev.Kind {
	case "note":
		return true
	case "tool.result":
		return len(t.s.Pending) > 0 || t.canApply()
	case "session.end":
		return len(t.s.Notes) > 0 || len(t.s.Pending) > 0
	}
	return false
}

// run applies the event to the session and returns its result.
func (t *turn) run() (any, error) {
	switch p := t.ev.Payload.(type) {
	case *memory.StepBeforePayload:
		return t.stepBefore(p), nil
	case *memory.ToolResultPayload:
		return t.toolResult(p), nil
	case *memory.ContextCompactionPayload, *memory.SubagentEndPayload,
		*memory.WorkflowStartPayload, *memory.WorkflowAgentStartPayload, *memory.WorkflowAgentEndPayload,
		*memory.WorkflowEndPayload, *memory.GoalChangedPayload:
		t.capture(p)
		return memory.AckResult{}, nil
	case *memory.WorkflowPhasePayload:
		t.capture(p)
		t.s.Phase = p.Title
		return memory.InjectResult{Inject: t.push("phase_start", recall.Query{Text: p.Title, Phase: p.Title})}, nil
	case *memory.NotePayload:
		return t.note(p)
	case *memory.QueryPayload:
		return t.query(p)
	case *memory.SessionEndPayload:
		return t.end(p), nil
	}
	return nil, fmt.Errorf("engine: no handler for %s", t.ev.Kind)
}

// capture keeps the last event of each capture kind in the session: the
// event row records that it came, this what it said last.
func (t *turn) capture(p any) {
	if !memory.IsCapabilityDisabled(t.ev.Kind) {
		return
	}
	b, err := json.Marshal(p)
	if err != nil {
		return
	}
	if t.s.Workflow == nil {
		t.s.Workflow = map[string]json.RawMessage{}
	}
	t.s.Workflow[t.ev.Kind] = b
}

// stepBefore answers step.before; the session's first step is when memory
// is pushed for the task as a whole (trigger session_start).
func (t *turn) stepBefore(p *memory.StepBeforePayload) memory.InjectResult {
	t.s.Steps++
	if p.Phase != nil {
		t.s.Phase = *p.Phase
	}
	if t.s.Steps != 1 {
		return memory.InjectResult{}
	}
	return memory.InjectResult{Inject: t.push("session_start", recall.Query{Text: p.QueryText, Phase: t.s.Phase})}
}

// stepKey names the step a tool call is: the same tool running the same
// command (or writing the same path) is the same step run again.
func stepKey(p *memory.ToolResultPayload) string {
	key := p.ToolName
	switch {
	case p.Command != nil:
		key += "\x00" + strings.Join(strings.Fields(*p.Command), " ")
	case p.Path != nil:
		key += "\x00" + *p.Path
	}
	return key
}

// end answers session.end: the receipt summary. The outcome is the node's
// reading of the session: interrupted when the reason says so, else how
// its last tool result went, unknown when none ran.
func (t *turn) end(p *memory.SessionEndPayload) memory.SessionEndResult {
	s := t.s
	outcome := "unknown"
	reason := strings.ToLower(p.Reason)
	switch {
	case strings.Contains(reason, "interrupt") || strings.Contains(reason, "cancel") || strings.Contains(reason, "abort"):
		outcome = "interrupted"
	case s.Results > 0 && s.LastOK:
		outcome = "pass"
	case s.Results > 0:
		outcome = "fail"
	}
	// A fix applied whose step never ran again is judged by how the session
	// ended, when it ended one way or the other.
	if outcome == "pass" || outcome == "fail" {
		for _, pd := range s.Pending {
			t.mark(pd.Ref, memory.NextMark(true, outcome == "pass"))
		}
	}
	s.Pending = nil
	for _, ref := range s.Notes {
		r := t.record(ref)
		if r == nil {
			continue
		}
		r.Outcome = outcome
		// A note from a session that passed is confirmed by it.
		if outcome == "pass" && r.Trust == string(recall.TrustRaw) {
			r.Trust = string(recall.TrustLocalAuto)
		}
	}
	s.Ended = true
	applied := s.Counts.Applied
	notes := int64(len(s.Notes))
	res := memory.SessionEndResult{
		Outcome: outcome, DomainStatus: p.Reason, TaskID: s.Handle,
		Exposures: memory.Exposures{Pushed: s.Counts.Pushed, Listed: s.Counts.Listed, Read: s.Counts.Read, Cited: s.Counts.Cited, Applied: &applied},
		Notes:     &notes,
	}
	refs := slices.Clone(s.Met)
	for _, ref := range s.Notes {
		if !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	if len(refs) > 0 {
		res.RecordRefs = refs
	}
	return res
}
