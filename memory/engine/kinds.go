package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
	"github.com/agora-node/agora/store"
)

// weights are the profile's signal weights as recall takes them, with
// floor as the score a hit must reach. A profile's weights and recall's
// are the same quantity (weight × normalized signal), so they map one to
// one. What a profile does not set holds as recall tuned it: the recency
// half-life, and the share of its score a record loses for the part of
// its key the query lacks (KeyMiss): without it, a failure about another
// module, test or port pushes the record about this one; and the lead
// rule (Lead, its LeadFloor the same share of the floor as recall's): a
// failure printed in another tool version's words finds the one note
// about the same tool that shares some of its output, when nothing else
// does. The key agreement's bonus (Key) stays off: on notes as agents
// write them, a record found only by it is more often another failure
// than a rewording of this one.
func weights(p *memory.Profile, floor float64) recall.Weights {
	s := p.Signals
	d := recall.DefaultWeights()
	return recall.Weights{
		ErrorSignature: s["error_signature"], Lexical: s["lexical"], CodeSymbol: s["code_symbol"],
		ToolName: s["tool_name"], SameProject: s["same_project"], Environment: s["environment"],
		Phase: s["phase"], Dimension: s["dimension"], Recency: s["recency"], Trust: s["trust"],
		Evidence: s["evidence"], Negative: s["negative"],
		KeyMiss:         d.KeyMiss,
		MinScore:        max(floor, 0), // recall refuses a negative floor; a score below 0 is no match anyway
		RecencyHalfLife: d.RecencyHalfLife,
		Lead:            d.Lead,
		LeadFloor:       max(floor, 0) * d.LeadFloor / d.MinScore,
	}
}

// searchFloor is the floor of searches and similar notes, which no push
// policy sets: recall's tuned floor, as the same share of the content
// weights the profile gives. For the default profile it is about 3, the
// floor of its push policies.
func searchFloor(p *memory.Profile) float64 {
	d := recall.DefaultWeights()
	share := d.MinScore / (d.ErrorSignature + d.Lexical + d.CodeSymbol)
	return share * contentWeight(p)
}

// contentWeight is the sum of the profile's content weights, the ones
// that can make a match.
func contentWeight(p *memory.Profile) float64 {
	return p.Signals["error_signature"] + p.Signals["lexical"] + p.Signals["code_symbol"]
}

// context is the session's context as a recall query; the caller adds what
// the event says.
func (t *turn) context(q recall.Query) recall.Query {
	q.Project = t.s.Project
	q.Environment = environment(t.s.Environment)
	q.Dimensions = t.s.Dimensions
	if q.Phase == "" {
		q.Phase = t.s.Phase
	}
	q.Now = t.at
	return q
}

// canRead says whether the session may read r: its own adapter's records,
// those the admin shared, and those of the adapters its profile's reads
// names (memory.ReadScope). Pushes, searches, similar notes and reads all
// ask it.
func (t *turn) canRead(r *record) bool {
	return t.prof.Reads.Allows(t.s.AdapterID, r.Adapter, r.Shared)
}

// inScope says whether r is a candidate in this session's project: a
// project note only in its own project (another project's fix for the
// same message is about that project's code), a global note anywhere.
func (t *turn) inScope(r *record) bool {
	return r.Scope != MemoryScopeProject || r.Project == t.s.Project
}

// search ranks the records this session may see: those it may read
// (canRead), written before it started, never its own session's.
func (t *turn) search(q recall.Query, floor float64, limit int, keep func(*record, recall.Hit) bool) []memory.Hit {
	q = t.context(q)
	q.Successors = true
	q.Allow = func(ref string) bool {
		r := t.view(ref)
		return r != nil && t.canRead(r) && t.inScope(r)
	}
	// Ask for more than wanted: some hits are records the session may not
	// see yet.
	found := t.e.index.Search(q, weights(t.prof, floor), limit*4+8)
	out := []memory.Hit{}
	seen := map[string]bool{}
	take := func(r *record, h recall.Hit) {
		if len(out) < limit && !seen[r.Ref] && (keep == nil || keep(r, h)) {
			seen[r.Ref] = true
			out = append(out, r.hit(h))
		}
	}
	for _, h := range found {
		r := t.view(h.ID)
		if r == nil || !t.visible(r) {
			continue
		}
		s := t.successor(r)
		if s != nil {
			// The record that replaced this one goes first.
			take(s, successorHit(s, h))
			if r.supersededIn(t.s.Project) != "" {
				// Replaced in this project: its fix is the stale one here.
				continue
			}
		}
		if !r.Superseded || h.Score >= floor {
			// A superseded record below the floor came for its successor.
			take(r, h)
		}
		if len(out) == limit {
			break
		}
	}
	return out
}

// visible says whether the session may be shown r: it may read it, r is
// a candidate in its project, and r was written before the session
// started.
func (t *turn) visible(r *record) bool {
	return t.canRead(r) && t.inScope(r) && r.Created.Before(t.s.Started)
}

// phase is the phase receipts name: the session's, or "session" before it
// named one (the contract's receipts need one).
func (t *turn) phase() string {
	if t.s.Phase != "" {
		return t.s.Phase
	}
	return "session"
}

// receipt records one receipt of the turn.
func (t *turn) receipt(ref, kind string, payload map[string]any) {
	payload["record_ref"] = ref
	payload["task_id"] = t.s.Handle
	payload["phase"] = t.phase()
	payload["attempt"] = max(t.s.Failures, 1)
	payload["session_handle"] = t.s.Handle
	b, err := canonical.Marshal(payload)
	if err != nil {
		// Every value is the engine's own; a failure is a defect that
		// leaves the receipt with what it can say.
		b = []byte(`{}`)
	}
	t.receipts = append(t.receipts, MemoryReceipt{Session: t.s.Handle, RecordRef: ref, Kind: kind, Payload: b, At: t.at})
}

// expose records that the session met a record in one of the exposure
// kinds, with its receipt.
func (t *turn) expose(h memory.Hit, kind string, extra map[string]any) {
	x := t.s.Exposed[h.RecordRef]
	if x == nil {
		x = &exposure{}
		t.s.Exposed[h.RecordRef] = x
		t.s.Met = append(t.s.Met, h.RecordRef)
	}
	payload := map[string]any{"exposure_kind": kind, "trust": h.Trust}
	switch kind {
	case "pushed":
		x.Pushed = true
		t.s.Counts.Pushed++
		payload["score"] = h.Score
		payload["reasons"] = reasonsJSON(h.Reasons)
	case "listed":
		x.Listed = true
		t.s.Counts.Listed++
		payload["score"] = h.Score
		payload["reasons"] = reasonsJSON(h.Reasons)
	case "read":
		x.Read = true
		t.s.Counts.Read++
	case "cited":
		x.Cited = true
		t.s.Counts.Cited++
	case "applied":
		x.Applied = true
		t.s.Counts.Applied++
	}
	for k, v := range extra {
		payload[k] = v
	}
	t.receipt(h.RecordRef, kind, payload)
}

func reasonsJSON(rs []memory.MatchReason) []any {
	out := make([]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, map[string]any{"signal": r.Signal, "value": r.Value, "contribution": r.Contribution})
	}
	return out
}

// push ranks records for a trigger and, when some pass its policy and the
// session's budgets, returns the injection; nil is silence.
func (t *turn) push(trigger string, q recall.Query) *memory.Inject {
	policy, ok := t.prof.Push[trigger]
	budget := t.prof.Budgets
	if !ok || policy.MaxItems == 0 || t.s.Spent.Pushes >= budget.Pushes {
		return nil
	}
	maxChars := min(policy.MaxChars, budget.PushChars-t.s.Spent.PushChars)
	hits := t.search(q, policy.MinScore, policy.MaxItems, func(r *record, h recall.Hit) bool {
		if x := t.s.Exposed[r.Ref]; x != nil && x.Pushed {
			return false // pushed once is enough for one session
		}
		for _, need := range policy.Require {
			if !slices.ContainsFunc(h.Reasons, func(rs recall.Reason) bool { return string(rs.Signal) == need && rs.Contribution > 0 }) {
				return false
			}
		}
		return true
	})
	if len(hits) == 0 {
		return nil
	}
	items := make([]memory.InjectionItem, 0, len(hits))
	for _, h := range hits {
		items = append(items, t.view(h.RecordRef).injection(h))
	}
	text, used := memory.RenderInjection(items, maxChars)
	if text == "" {
		return nil
	}
	inj := &memory.Inject{Text: text, RecordRefs: used, Hits: []memory.Hit{}, Trigger: trigger}
	t.s.Spent.Pushes++
	t.s.Spent.PushChars += utf8.RuneCountInString(text)
	require := policy.Require
	if require == nil {
		require = []string{}
	}
	pol := map[string]any{"max_items": policy.MaxItems, "max_chars": policy.MaxChars, "min_score": policy.MinScore, "require": require}
	for _, h := range hits {
		if !slices.Contains(used, h.RecordRef) {
			continue
		}
		inj.Hits = append(inj.Hits, h)
		t.expose(h, "pushed", map[string]any{"trigger": trigger, "push_policy": pol})
		t.s.Exposed[h.RecordRef].Trigger = trigger
	}
	return inj
}

// canApply says whether some record the session was pushed or read has a
// fix not applied yet.
func (t *turn) canApply() bool {
	for ref, x := range t.s.Exposed {
		if (x.Pushed || x.Read) && !x.Applied {
			if r := t.e.lookup(ref); r != nil && r.Fix != nil {
				return true
			}
		}
	}
	return false
}

// toolResult answers tool.result. In order: a record pushed or read whose
// fix this call ran is applied; a fix applied earlier is judged by this
// call if it runs the step the fix was for; and a failing call is kept
// for the session's next note and ranks memory for a push.
func (t *turn) toolResult(p *memory.ToolResultPayload) memory.InjectResult {
	s := t.s
	s.Results++
	s.LastOK = p.OK
	key := stepKey(p)
	var command string
	if p.Command != nil {
		command = *p.Command
	}
	var paths []string
	if p.Path != nil {
		paths = []string{*p.Path}
	}
	for _, ref := range s.Met {
		x := s.Exposed[ref]
		if !(x.Pushed || x.Read) || x.Applied {
			continue
		}
		r := t.view(ref)
		if r == nil || r.Fix == nil {
			continue
		}
		via, ok := memory.AppliedBy(*r.Fix, p.ToolName, command, paths)
		if !ok {
			continue
		}
		t.expose(memory.Hit{RecordRef: ref, Trust: r.Trust}, "applied", map[string]any{"applied_via": via})
		pd := pending{Ref: ref, Event: t.ev.EventID}
		if s.Failure != nil {
			pd.StepKey = s.Failure.StepKey
		}
		s.Pending = append(s.Pending, pd)
	}
	kept := s.Pending[:0:0]
	for _, pd := range s.Pending {
		// The call that applied a fix judges it only if it is the step
		// itself; a fix with no failing step is judged by the next call.
		judges := pd.StepKey == key || (pd.StepKey == "" && pd.Event != t.ev.EventID)
		if !judges {
			kept = append(kept, pd)
			continue
		}
		t.mark(pd.Ref, memory.NextMark(true, p.OK))
	}
	s.Pending = kept
	if p.OK {
		return memory.InjectResult{}
	}
	s.Failures++
	f := &failure{StepKey: key, ToolName: p.ToolName, Symbols: p.Symbols}
	if p.ErrorTail != nil {
		f.ErrorTail = *p.ErrorTail
	}
	if p.ErrorSignature != nil {
		f.ErrorSignature = *p.ErrorSignature
	}
	s.Failure = f
	if f.ErrorTail == "" && f.ErrorSignature == "" && len(f.Symbols) == 0 {
		return memory.InjectResult{}
	}
	q := recall.Query{ErrorText: f.ErrorTail, ErrorSignature: f.ErrorSignature, ToolName: p.ToolName, Symbols: p.Symbols, Command: command}
	return memory.InjectResult{Inject: t.push("after_failure", q)}
}

// mark gives a record a mark a session earned it, with its receipt: the
// receipt names used_then_passed used_success, as receipt_mark_payload
// does. A fix that passed in sessions of two projects is reviewed.
func (t *turn) mark(ref, mark string) {
	r := t.record(ref)
	if r == nil || mark == "" {
		return
	}
	kind := mark
	switch mark {
	case memory.MarkUsedThenPassed:
		kind = "used_success"
		r.Marks.UsedThenPassed++
		if !slices.Contains(r.PassedProjects, t.s.Project) {
			r.PassedProjects = append(r.PassedProjects, t.s.Project)
		}
		if len(r.PassedProjects) >= 2 && (r.Trust == string(recall.TrustRaw) || r.Trust == string(recall.TrustLocalAuto)) {
			r.Trust = string(recall.TrustReviewed)
		}
	case memory.MarkTaskFailed:
		r.Marks.TaskFailed++
	}
	t.receipt(ref, kind, map[string]any{"mark": kind, "revision": r.Revision})
}

// note answers note: a new record, or a new revision of the record that
// holds the topic key in the note's scope.
func (t *turn) note(p *memory.NotePayload) (any, error) {
	s := t.s
	if s.Spent.Notes >= t.prof.Budgets.Notes {
		return nil, memory.NewError(memory.CodeBudgetExhausted, "this session recorded its %d notes", t.prof.Budgets.Notes)
	}
	if err := memory.NoteProblem(p); err != nil {
		return nil, err
	}
	if err := t.checkRelations(p); err != nil {
		return nil, err
	}
	occurred, err := occurredAt(t.ev.OccurredAt, t.at)
	if err != nil {
		return nil, err
	}
	key, derived := p.EffectiveTopicKey()
	tid := topicID{s.AdapterID, p.Scope, s.Project, key}
	if p.Scope == MemoryScopeGlobal {
		tid.project = ""
	}
	t.e.recMu.RLock()
	ref, exists := t.e.topics[tid]
	t.e.recMu.RUnlock()
	var r *record
	if exists {
		r = t.record(ref)
		r.Revision++
		// The admin shared the revision it reviewed, not this one.
		r.Shared = false
	} else {
		r = &record{Ref: memory.NewLocalRef(), Version: 1, Scope: p.Scope, Project: s.Project, TopicKey: key, Revision: 1,
			Adapter: s.AdapterID, Created: t.at, Updated: t.at}
		t.changed = append(t.changed, r)
	}
	r.Session = s.Handle
	// A new revision says something new: what sessions proved of the old
	// one (trust, marks) does not carry over.
	r.recordBody = recordBody{
		Title: p.Title, Type: p.Type, Content: p.Content, EvidenceRefs: p.EvidenceRefs, Fix: p.Fix,
		Failure: s.Failure, Environment: s.Environment, Dimensions: s.Dimensions, Trust: string(recall.TrustRaw),
		Occurred: occurred, SupersedesInProse: proseSupersedes(p),
	}
	if p.Phase != nil {
		r.Phase = *p.Phase
	} else {
		r.Phase = s.Phase
	}
	for _, rel := range p.RelatesTo {
		if rel.RecordRef == r.Ref {
			continue
		}
		switch rel.Relation {
		case "supersedes":
			t.supersede(rel.RecordRef, r.Ref)
		case "conflicts_with":
			t.record(rel.RecordRef).ConflictsWith = true
		}
		t.cite(rel.RecordRef)
	}
	t.supersedeInProse(r)
	t.sameFailure(r)
	for _, ev := range p.EvidenceRefs {
		if t.s.Exposed[ev] != nil {
			t.cite(ev)
		}
	}
	s.Spent.Notes++
	if !slices.Contains(s.Notes, r.Ref) {
		s.Notes = append(s.Notes, r.Ref)
	}
	text := p.Title + "\n" + p.Content.What + "\n" + p.Content.Learned
	var errText string
	if s.Failure != nil {
		errText = s.Failure.ErrorTail
	}
	similar := t.search(recall.Query{Text: text, ErrorText: errText}, searchFloor(t.prof), 3, func(o *record, _ recall.Hit) bool { return o.Ref != r.Ref })
	return memory.NoteResult{RecordRef: &r.Ref, Revision: r.Revision, TopicKey: key, TopicKeyDerived: derived,
		VisibleFrom: "next_session", Similar: similar}, nil
}

// checkRelations checks a note's relates_to: each record must be one the
// session may read (else not_found, as for a record that does not exist,
// so a ref is no oracle), and a record a note supersedes or conflicts with
// must be the session's adapter's own or one the admin shared: marking a
// record superseded or in conflict lowers it for every session that reads
// it, which is its owner's call or the admin's, never another adapter's.
// A relation that breaks the rule refuses the note (note_rejected), rather
// than keeping it without the relation, since the contract's note result
// has no place for a warning.
func (t *turn) checkRelations(p *memory.NotePayload) error {
	for i, rel := range p.RelatesTo {
		r := t.view(rel.RecordRef)
		if r == nil || !t.canRead(r) {
			return memory.NewError(memory.CodeNotFound, "at /payload/relates_to/%d/record_ref: no record %s", i, rel.RecordRef)
		}
		switch rel.Relation {
		case "supersedes", "conflicts_with":
			if r.Adapter != t.s.AdapterID && !r.Shared {
				return memory.NewError(memory.CodeNoteRejected,
					"at /payload/relates_to/%d: a note may say it %s only records of its own adapter or records the node's admin shared; %s is adapter %s's and not shared: relate to it as related instead, or ask the admin to share it",
					i, rel.Relation, rel.RecordRef, r.Adapter)
			}
		}
	}
	return nil
}

// cite records that a note named a record the session met, once per
// session.
func (t *turn) cite(ref string) {
	x := t.s.Exposed[ref]
	if x != nil && x.Cited {
		return
	}
	r := t.view(ref)
	if r == nil {
		return
	}
	t.expose(memory.Hit{RecordRef: ref, Trust: r.Trust}, "cited", nil)
}

// query answers query: a search, whose hits are listed, or a read.
func (t *turn) query(p *memory.QueryPayload) (any, error) {
	s := t.s
	budget := t.prof.Budgets
	if p.Op == memory.QueryRead {
		r := t.view(p.Ref)
		if r == nil || !t.canRead(r) {
			return nil, memory.NewError(memory.CodeNotFound, "no record %s", p.Ref)
		}
		if s.Spent.Reads >= budget.Reads {
			return nil, memory.NewError(memory.CodeBudgetExhausted, "this session read its %d records", budget.Reads)
		}
		s.Spent.Reads++
		t.expose(memory.Hit{RecordRef: r.Ref, Trust: r.Trust}, "read", nil)
		return memory.QueryReadResult{Op: memory.QueryRead, Record: r.read()}, nil
	}
	if s.Spent.Searches >= budget.Searches {
		return memory.QuerySearchResult{Op: memory.QuerySearch, Hits: []memory.Hit{}, Status: "budget_exhausted"}, nil
	}
	s.Spent.Searches++
	q := recall.Query{Text: p.Query}
	if recall.NoteErrorText(p.Query) != "" {
		// A search for a failure's text is asked as the failing tool
		// result would ask: records are matched on the output they quote.
		q.ErrorText = p.Query
	}
	if p.Phase != nil {
		q.Phase = *p.Phase
	}
	if f := p.Facts; f != nil {
		q.ToolName, q.ErrorSignature, q.Symbols = f.ToolName, f.ErrorSignature, f.Symbols
		if f.ErrorTail != "" {
			q.ErrorText = f.ErrorTail
		}
	}
	limit := int(p.Limit)
	if limit == 0 {
		limit = 5
	}
	hits := t.search(q, searchFloor(t.prof), limit, nil)
	for _, h := range hits {
		t.expose(h, "listed", nil)
	}
	status := "ok"
	if len(hits) == 0 {
		status = "no_match"
	}
	return memory.QuerySearchResult{Op: memory.QuerySearch, Hits: hits, Status: status}, nil
}

// Receipt is one receipt of a session: an exposure (pushed, listed, read,
// cited, applied) or a mark (used_success, task_failed, superseded), with
// the contract's receipt payload.
type Receipt struct {
	Kind      string          `json:"kind"`
	Session   string          `json:"session"`
	RecordRef string          `json:"record_ref"`
	Payload   json.RawMessage `json:"payload"`
	At        time.Time       `json:"at"`
}

// Receipts returns the receipts of a session, in the order they were
// recorded; a session with none, or no such session, has none.
func (e *Engine) Receipts(ctx context.Context, handle string) ([]Receipt, error) {
	rs, err := e.st.MemoryReceipts(ctx, handle)
	if err != nil {
		return nil, fmt.Errorf("engine: receipts of %s: %w", handle, err)
	}
	return receipts(rs), nil
}

func receipts(rs []MemoryReceipt) []Receipt {
	out := make([]Receipt, 0, len(rs))
	for _, r := range rs {
		out = append(out, Receipt{Kind: r.Kind, Session: r.Session, RecordRef: r.RecordRef, Payload: json.RawMessage(r.Payload), At: r.At})
	}
	return out
}

// Record returns a record as query read shows it, or an error wrapping
// store.ErrNotFound: as this engine last installed it, without asking the
// store what other processes changed since (Inspect does).
func (e *Engine) Record(ref string) (memory.ReadRecord, error) {
	r := e.lookup(ref)
	if r == nil {
		return memory.ReadRecord{}, fmt.Errorf("engine: record %s: %w", ref, store.ErrNotFound)
	}
	return r.read(), nil
}
