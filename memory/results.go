package memory

import (
	"strings"

	"github.com/agora-node/agora/canonical"
)

// The result of each kind, as x-results and $defs/result_* describe it, for
// the node to fill and MarshalResult to send. Context compaction, subagent
// end and the workflow and goal kinds other than workflow.phase answer with
// AckResult.

// AckResult is the empty acknowledgement of a capture-type event.
type AckResult struct{}

// SessionStartResult binds a session: the handle every later payload
// carries and the profile pinned for it.
type SessionStartResult struct {
	SessionHandle string        `json:"session_handle"`
	Profile       PinnedProfile `json:"profile"`
	// ProfileFallback says why the default profile was used instead of the
	// one asked for; nil when the asked-for profile was used.
	ProfileFallback     *string  `json:"profile_fallback,omitempty"`
	CapabilitiesMissing []string `json:"capabilities_missing,omitempty"`
	DisabledKinds       []string `json:"disabled_kinds,omitempty"`
}

// PinnedProfile names the profile revision a session is pinned to
// (Profile.Pin gives it).
type PinnedProfile struct {
	ID       string `json:"id"`
	Revision string `json:"revision"`
	Digest   string `json:"digest"`
}

// InjectResult is what step.before, tool.result and workflow.phase answer:
// an injection, or nil for none.
type InjectResult struct {
	Inject *Inject `json:"inject,omitempty"`
}

// Inject is a push: the text to fold into the next model request and the
// records it quotes.
type Inject struct {
	Text       string   `json:"text"`        // RenderInjection's text
	RecordRefs []string `json:"record_refs"` // 1–16, unique
	Hits       []Hit    `json:"hits"`
	Trigger    string   `json:"trigger,omitempty"` // session_start, after_failure, phase_start
}

// Hit is a ranked candidate: an injected record, a search hit or a note's
// similar record.
type Hit struct {
	RecordRef       string        `json:"record_ref"`
	Title           string        `json:"title"`
	Trust           string        `json:"trust"` // raw, local_auto, reviewed, verified
	ProvenanceLabel string        `json:"provenance_label"`
	Score           float64       `json:"score"`
	Reasons         []MatchReason `json:"reasons"`
	Summary         string        `json:"summary,omitempty"`
	Excerpt         string        `json:"excerpt,omitempty"`
	Marks           []string      `json:"marks,omitempty"` // task_failed, contradicted, superseded, used_then_passed
}

// MatchReason is one signal that raised (or, for negative, lowered) a score.
type MatchReason struct {
	Signal       string  `json:"signal"`
	Value        string  `json:"value"`
	Contribution float64 `json:"contribution"` // weight × normalized signal
}

// NoteResult answers a note. RecordRef is nil while the note is a draft
// (DraftRef set); the node decides which.
type NoteResult struct {
	RecordRef       *string `json:"record_ref"`
	DraftRef        *string `json:"draft_ref,omitempty"`
	Revision        int64   `json:"revision"`
	TopicKey        string  `json:"topic_key"`
	TopicKeyDerived bool    `json:"topic_key_derived,omitempty"`
	VisibleFrom     string  `json:"visible_from,omitempty"` // "next_session"
	Similar         []Hit   `json:"similar"`                // up to 3
}

// QuerySearchResult answers a search.
type QuerySearchResult struct {
	Op     string `json:"op"` // "search"
	Hits   []Hit  `json:"hits"`
	Status string `json:"status,omitempty"` // ok, no_match, budget_exhausted
}

// QueryReadResult answers a read.
type QueryReadResult struct {
	Op     string     `json:"op"` // "read"
	Record ReadRecord `json:"record"`
}

// ReadRecord is a whole record as an agent reads it.
type ReadRecord struct {
	RecordRef       string         `json:"record_ref"`
	Title           string         `json:"title"`
	Trust           string         `json:"trust"`
	ProvenanceLabel string         `json:"provenance_label"`
	Text            string         `json:"text"`
	Type            string         `json:"type,omitempty"`
	Scope           string         `json:"scope,omitempty"`
	TopicKey        string         `json:"topic_key,omitempty"`
	Revision        int64          `json:"revision,omitempty"`
	Project         string         `json:"project,omitempty"`
	Phase           *string        `json:"phase,omitempty"`
	Content         *RecordContent `json:"content,omitempty"`
	EvidenceRefs    []string       `json:"evidence_refs,omitempty"`
	Marks           []string       `json:"marks,omitempty"`
	CreatedAt       string         `json:"created_at,omitempty"`
	UpdatedAt       string         `json:"updated_at,omitempty"`
}

// RecordContent is a record's four parts; any may be empty.
type RecordContent struct {
	What    string `json:"what,omitempty"`
	Why     string `json:"why,omitempty"`
	Where   string `json:"where,omitempty"`
	Learned string `json:"learned,omitempty"`
}

// SessionEndResult is a session's receipt summary.
type SessionEndResult struct {
	Outcome      string    `json:"outcome"` // pass, conditional_pass, fail, blocked, interrupted, unknown
	DomainStatus string    `json:"domain_status"`
	TaskID       string    `json:"task_id,omitempty"`
	Exposures    Exposures `json:"exposures"`
	RecordRefs   []string  `json:"record_refs,omitempty"`
	Notes        *int64    `json:"notes,omitempty"`
}

// Exposures counts how the session met memory.
type Exposures struct {
	Pushed  int64  `json:"pushed"`
	Listed  int64  `json:"listed"`
	Read    int64  `json:"read"`
	Cited   int64  `json:"cited"`
	Applied *int64 `json:"applied,omitempty"`
}

// ValidateResponse checks a response body the node is about to send for
// kind against $defs/response_<kind>: {"ok":true,"result":…} with that
// kind's result, or {"ok":false,"error":…}. The body must also be I-JSON.
// A node runs it in tests, and may run it before it answers: a response
// that breaks the contract is the node's defect, reported as internal.
//
// An unknown kind gives unknown_kind; every error is an *Error.
func ValidateResponse(kind string, body []byte) error {
	c := loadContract()
	s, ok := c.responses[kind]
	if !ok {
		return newError(CodeUnknownKind, "%q is not a kind of %s", clip(kind, 64), ContractID)
	}
	value, err := canonical.Parse(body)
	if err != nil {
		e := newError(CodeInternal, "the response is not I-JSON: %s", strings.TrimPrefix(err.Error(), "not I-JSON: "))
		e.Err = err
		return e
	}
	if err := s.Validate(value); err != nil {
		e := schemaError(err, "")
		e.Code = CodeInternal
		e.Message = "the response breaks the contract: " + e.Message
		return e
	}
	return nil
}
