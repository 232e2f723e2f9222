package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/runes"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/recall"
)

// record is a memory record: the store's row with its body decoded. A
// record in Engine.records is never changed; a change is made to a copy
// (turn.record) and installed once stored.
type record struct {
	Ref      string
	Version  int64
	Scope    string
	Project  string
	TopicKey string
	Revision int64
	Session  string
	Adapter  string // the adapter that wrote it, every revision of it
	Shared   bool   // the admin let other adapters read and relate to it
	Created  time.Time
	Updated  time.Time
	recordBody
}

// recordBody is what the store keeps as a record's body.
type recordBody struct {
	Title        string              `json:"title"`
	Type         string              `json:"type"`
	Phase        string              `json:"phase,omitempty"`
	Content      memory.NoteContent  `json:"content"`
	EvidenceRefs []string            `json:"evidence_refs,omitempty"`
	Fix          *memory.Fix         `json:"fix,omitempty"`
	Failure      *failure            `json:"failure,omitempty"` // the failure the recording session met before the note
	Environment  *memory.Environment `json:"environment,omitempty"`
	Dimensions   map[string][]string `json:"dimensions,omitempty"`
	Trust        string              `json:"trust"`
	Marks        recall.Marks        `json:"marks"`
	// PassedProjects are the projects in which a session applied the fix
	// and the step then passed; two make the record reviewed.
	PassedProjects []string `json:"passed_projects,omitempty"`
	Superseded     bool     `json:"superseded,omitempty"`
	// SupersededBy is the record that superseded this one, when known:
	// a search that finds this one puts its successor above it.
	SupersededBy string `json:"superseded_by,omitempty"`
	// SupersededIn are the projects in which a project note replaced
	// this global one (see supersedeInProse): there its successor
	// answers for it, everywhere else it still holds.
	SupersededIn  []localSuccessor `json:"superseded_in,omitempty"`
	ConflictsWith bool             `json:"conflicts_with,omitempty"`
	// Outcome is how the recording session ended; "" while it runs.
	Outcome string `json:"outcome,omitempty"`
	// Occurred is when the note says it was written (its event's
	// occurred_at, never after the node received it): what recency and
	// the order of supersession go by. Zero for records kept before it
	// was, which go by Updated.
	Occurred time.Time `json:"occurred,omitempty"`
	// SupersedesInProse says the note's words declare an older fix
	// obsolete (see proseSupersedes).
	SupersedesInProse bool `json:"supersedes_in_prose,omitempty"`
	// Twin is the failure an earlier note quotes that this one says it
	// met again ("Same psych 5 install failure on my Mac"): see
	// sameFailure.
	Twin string `json:"twin,omitempty"`
}

// localSuccessor is the record that replaced a global one in one
// project.
type localSuccessor struct {
	Project string `json:"project"`
	By      string `json:"by"`
}

// supersededIn returns the record that replaced r in project, or "".
func (r *record) supersededIn(project string) string {
	for _, l := range r.SupersededIn {
		if l.Project == project {
			return l.By
		}
	}
	return ""
}

// occurred is when the record's note was written, as best known.
func (r *record) occurred() time.Time {
	if !r.Occurred.IsZero() {
		return r.Occurred
	}
	return r.Updated
}

// topicID is a topic key of an adapter's in its scope: a project's, or ""
// for global. Topics are the adapter's own: another adapter's note on the
// same topic is another record.
type topicID struct{ adapter, scope, project, key string }

func (r *record) topic() topicID {
	if r.Scope == MemoryScopeGlobal {
		return topicID{r.Adapter, r.Scope, "", r.TopicKey}
	}
	return topicID{r.Adapter, r.Scope, r.Project, r.TopicKey}
}

func decodeRecord(row MemoryRecord) (*record, error) {
	r := &record{Ref: row.Ref, Version: row.Version, Scope: row.Scope, Project: row.Project, TopicKey: row.TopicKey,
		Revision: row.Revision, Session: row.Session, Adapter: row.Adapter, Shared: row.Shared, Created: row.Created, Updated: row.Updated}
	if err := json.Unmarshal(row.Body, &r.recordBody); err != nil {
		return nil, fmt.Errorf("record %s as stored: %w", row.Ref, err)
	}
	return r, nil
}

func (r *record) row() (MemoryRecord, error) {
	body, err := json.Marshal(r.recordBody)
	if err != nil {
		return MemoryRecord{}, fmt.Errorf("engine: encoding record %s: %w", r.Ref, err)
	}
	return MemoryRecord{Ref: r.Ref, Version: r.Version, Scope: r.Scope, Project: r.Project, TopicKey: r.TopicKey,
		Revision: r.Revision, Session: r.Session, Adapter: r.Adapter, Shared: r.Shared, Created: r.Created, Updated: r.Updated, Body: body}, nil
}

// clone copies r deeply enough to change it: slices and pointers it owns
// are copied.
func (r *record) clone() *record {
	c := *r
	c.EvidenceRefs = slices.Clone(r.EvidenceRefs)
	c.PassedProjects = slices.Clone(r.PassedProjects)
	c.SupersededIn = slices.Clone(r.SupersededIn)
	return &c
}

// doc is the record as recall ranks it. What it is matched on comes from
// everything the note says: the failure its words quote (what, why,
// where, learned: recall.NoteErrorText), its title and fix, and the
// failing output its session met before it, when there was one. A note
// that quotes no failure, written in a session that met none, has no
// error output and so no error_signature: no failing tool result pushes
// it.
func (r *record) doc() recall.Doc {
	c := r.Content
	d := recall.Doc{
		ID: r.Ref, Title: r.Title,
		Content: strings.Join([]string{c.What, c.Why, c.Where, c.Learned, runes.Prefix(fixText(r.Fix), 4000)}, "\n"),
		About:   c.What + "\n" + c.Why + "\n" + c.Where,
		Project: r.Project, Phase: r.Phase, Dimensions: r.Dimensions, Marks: r.Marks, Trust: recall.Trust(r.Trust),
		EvidenceCount: len(r.EvidenceRefs), UpdatedAt: r.occurred(), Superseded: r.Superseded, ConflictsWith: r.ConflictsWith,
		Environment: environment(r.Environment),
		ErrorText:   recall.NoteErrorText(c.What, c.Why, c.Where, c.Learned),
		CodeSymbols: recall.NoteSymbols(c.What, c.Why, c.Where, c.Learned),
	}
	if r.Twin != "" {
		d.ErrorText = strings.TrimSpace(d.ErrorText + "\n" + r.Twin)
	}
	if os := recall.NotePlatform(r.Title, c.What, c.Why, c.Where, c.Learned); os != "" {
		// The note names the system its fix is for, which may not be the
		// one its session ran on (a CI runner's failure noted from a
		// laptop).
		if d.Environment == nil {
			d.Environment = map[string]string{}
		}
		d.Environment["os"] = os
		d.PlatformBound = true
	}
	if f := r.Failure; f != nil {
		d.ErrorText = strings.TrimSpace(f.ErrorTail + "\n" + d.ErrorText)
		if f.ErrorSignature != "" {
			d.ErrorSignatures = []string{f.ErrorSignature}
		}
		d.CodeSymbols = append(d.CodeSymbols, f.Symbols...)
		if f.ToolName != "" {
			d.ToolNames = []string{f.ToolName}
		}
	}
	return d
}

// fixText is what a fix says, for the lexical match: its command, the
// lines its diff adds and removes, or the path and content of its config.
func fixText(f *memory.Fix) string {
	if f == nil {
		return ""
	}
	switch f.Kind {
	case memory.FixCommand:
		return f.Command
	case memory.FixDiff:
		var b strings.Builder
		for _, l := range strings.Split(f.Diff, "\n") {
			if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
				b.WriteString(l[1:])
				b.WriteByte('\n')
			}
		}
		return b.String()
	case memory.FixConfig:
		return f.Path + "\n" + f.Content
	}
	return ""
}

// environment is the contract's environment as recall's keys.
func environment(env *memory.Environment) map[string]string {
	if env == nil {
		return nil
	}
	m := map[string]string{}
	if env.OS != "" {
		m["os"] = env.OS
	}
	if env.Arch != "" {
		m["arch"] = env.Arch
	}
	if len(env.Language) > 0 {
		m["language"] = env.Language[0]
	}
	return m
}

// install puts a stored record in the engine's maps and index.
func (e *Engine) install(r *record) { e.installDoc(r, r.doc()) }

// installDoc is install with the record's document already worked out.
func (e *Engine) installDoc(r *record, d recall.Doc) {
	e.recMu.Lock()
	e.records[r.Ref] = r
	e.topics[r.topic()] = r.Ref
	e.recMu.Unlock()
	// Replace cannot fail for a record with a ref; records are installed
	// under recWrite (or before New returns), so the index sees them in
	// the order they were stored.
	_ = e.index.Replace(d)
}

// lookup returns the installed record ref, or nil.
func (e *Engine) lookup(ref string) *record {
	e.recMu.RLock()
	defer e.recMu.RUnlock()
	return e.records[ref]
}

// record returns ref as this turn changes it: a copy made on first use,
// listed in t.changed with its version raised, or nil for no such record.
// Only a turn holding recWrite calls it.
func (t *turn) record(ref string) *record {
	for _, r := range t.changed {
		if r.Ref == ref {
			return r
		}
	}
	r := t.e.lookup(ref)
	if r == nil {
		return nil
	}
	c := r.clone()
	c.Version++
	c.Updated = t.at
	t.changed = append(t.changed, c)
	return c
}

// view returns ref as the turn sees it: changed by it, or installed.
func (t *turn) view(ref string) *record {
	for _, r := range t.changed {
		if r.Ref == ref {
			return r
		}
	}
	return t.e.lookup(ref)
}

// trustWords say in a provenance label how far a record was checked.
var trustWords = map[string]string{
	string(recall.TrustRaw):       "local",
	string(recall.TrustLocalAuto): "local, auto-confirmed",
	string(recall.TrustReviewed):  "local, reviewed",
	string(recall.TrustVerified):  "local, verified",
}

// provenance is the record's provenance_label: which adapter wrote it (and
// so every revision of it), which revision this is, whether the admin
// shared it, where it came from, when, and how the session that wrote it
// ended.
func (r *record) provenance() string {
	outcome := r.Outcome
	if outcome == "" {
		outcome = "in progress"
	}
	words, ok := trustWords[r.Trust]
	if !ok {
		words = "local"
	}
	writer := r.Adapter
	if writer == "" {
		writer = "unknown" // kept before records named their adapter, with no session to tell
	}
	shared := ""
	if r.Shared {
		shared = " · shared by the node's admin"
	}
	return runes.Prefix(fmt.Sprintf("%s · written by adapter %s · revision %d%s · project %s · %s · session outcome: %s",
		words, writer, r.Revision, shared, r.Project, r.occurred().UTC().Format("2006-01-02"), outcome), 512)
}

// hit is a recall hit as the contract shows it.
func (r *record) hit(h recall.Hit) memory.Hit {
	out := memory.Hit{RecordRef: r.Ref, Title: r.Title, Trust: string(h.Trust), ProvenanceLabel: r.provenance(),
		Score: h.Score, Reasons: []memory.MatchReason{}, Summary: runes.Prefix(r.Content.What, 4000), Marks: h.Marks}
	for _, reason := range h.Reasons {
		out.Reasons = append(out.Reasons, memory.MatchReason{Signal: string(reason.Signal), Value: reason.Value, Contribution: reason.Contribution})
	}
	return out
}

// marks are the record's marks by the contract's names.
func (r *record) marks() []string {
	var out []string
	if r.Marks.TaskFailed > 0 {
		out = append(out, memory.MarkTaskFailed)
	}
	if r.Marks.Contradicted > 0 {
		out = append(out, "contradicted")
	}
	if r.Marks.Superseded > 0 || r.Superseded {
		out = append(out, "superseded")
	}
	if r.Marks.UsedThenPassed > 0 {
		out = append(out, memory.MarkUsedThenPassed)
	}
	return out
}

// read is the whole record as query read answers it.
func (r *record) read() memory.ReadRecord {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nWhat: %s\nWhy: %s\nWhere: %s\nLearned: %s\n", r.Title, r.Content.What, r.Content.Why, r.Content.Where, r.Content.Learned)
	if f := r.Fix; f != nil {
		switch f.Kind {
		case memory.FixCommand:
			fmt.Fprintf(&b, "Fix (command): %s\n", f.Command)
		case memory.FixDiff:
			fmt.Fprintf(&b, "Fix (diff):\n%s\n", f.Diff)
		case memory.FixConfig:
			fmt.Fprintf(&b, "Fix (config %s):\n%s\n", f.Path, f.Content)
		}
	}
	out := memory.ReadRecord{
		RecordRef: r.Ref, Title: r.Title, Trust: r.Trust, ProvenanceLabel: r.provenance(), Text: runes.Prefix(b.String(), 65536),
		Type: r.Type, Scope: r.Scope, TopicKey: r.TopicKey, Revision: r.Revision, Project: r.Project,
		Content:      &memory.RecordContent{What: r.Content.What, Why: r.Content.Why, Where: r.Content.Where, Learned: r.Content.Learned},
		EvidenceRefs: r.EvidenceRefs, Marks: r.marks(),
		CreatedAt: r.Created.UTC().Format(time.RFC3339Nano), UpdatedAt: r.Updated.UTC().Format(time.RFC3339Nano),
	}
	if r.Phase != "" {
		out.Phase = &r.Phase
	}
	return out
}

// injection is the record as a push quotes it.
func (r *record) injection(h memory.Hit) memory.InjectionItem {
	return memory.InjectionItem{Ref: r.Ref, Title: r.Title, What: r.Content.What, Why: r.Content.Why, Where: r.Content.Where,
		Learned: r.Content.Learned, Fix: r.Fix, Provenance: r.provenance(), Score: h.Score, Reasons: h.Reasons, Adapter: r.Adapter, Revision: r.Revision}
}
