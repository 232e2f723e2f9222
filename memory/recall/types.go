package recall

import (
	"errors"
	"fmt"
	"time"
)

// Signal names one relevance signal. The values are the ingress schema's
// signal_name enum, so a Reason serializes as a match_reason unchanged.
type Signal string

// The signals of the ingress schema ($defs/signal_name).
const (
	SignalErrorSignature Signal = "error_signature"
	SignalCodeSymbol     Signal = "code_symbol"
	SignalToolName       Signal = "tool_name"
	SignalLexical        Signal = "lexical"
	SignalSameProject    Signal = "same_project"
	SignalEnvironment    Signal = "environment"
	SignalEvidence       Signal = "evidence"
	SignalRecency        Signal = "recency"
	SignalTrust          Signal = "trust"
	SignalNegative       Signal = "negative"
	SignalPhase          Signal = "phase"
	SignalDimension      Signal = "dimension"
)

// Trust is how far a record has been checked; the values are the ingress
// schema's trust enum.
type Trust string

// The trust levels of the ingress schema ($defs/trust), weakest first.
const (
	TrustRaw       Trust = "raw"
	TrustLocalAuto Trust = "local_auto"
	TrustReviewed  Trust = "reviewed"
	TrustVerified  Trust = "verified"
)

// trustLevel maps a trust level onto 0..1; unknown levels count as raw so a
// typo never promotes a record.
func trustLevel(t Trust) float64 {
	switch t {
	case TrustLocalAuto:
		return 0.4
	case TrustReviewed:
		return 0.75
	case TrustVerified:
		return 1
	}
	return 0
}

// Marks counts the receipts sealed against a record (the schema's hit.marks
// enum). task_failed, contradicted and superseded sink it; used_then_passed
// is evidence for it and cancels task_failed one for one.
type Marks struct {
	TaskFailed     int
	Contradicted   int
	Superseded     int
	UsedThenPassed int
}

// names returns the schema mark names that are set, in schema order.
func (m Marks) names(superseded bool) []string {
	var out []string
	if m.TaskFailed > 0 {
		out = append(out, "task_failed")
	}
	if m.Contradicted > 0 {
		out = append(out, "contradicted")
	}
	if m.Superseded > 0 || superseded {
		out = append(out, "superseded")
	}
	if m.UsedThenPassed > 0 {
		out = append(out, "used_then_passed")
	}
	return out
}

// Doc is one memory record as the recall engine sees it. The engine keeps
// its own copy; callers may reuse the value after Add.
type Doc struct {
	ID    string // the record_ref
	Title string
	// Content is the record's what, why, where and learned text joined.
	Content string
	// About is the part of the record that says what failed (a note's
	// what and where), without its cause or fix. When set, the rare
	// title terms it names, or the output prints, are the record's
	// object, and a query that names none of them loses most of the
	// record's score (see objectMiss). A title often names the fix
	// (start dockerd): About keeps the fix's words out of the object.
	About string
	// ErrorText is the failing output the record was written about. Its
	// signature and normalized tokens are indexed; it may be empty.
	ErrorText string
	// ErrorSignatures are extra signatures (ErrorSignature digests) known to
	// belong to the record, e.g. sent by an adapter.
	ErrorSignatures []string
	CodeSymbols     []string
	ToolNames       []string
	Project         string
	// Environment holds os, arch, shell, language, package_manager and tool
	// versions ("go": "1.22.3"), keys lower-case.
	Environment map[string]string
	Phase       string
	// Dimensions are template dimension values: a single value for an exact
	// dimension, several for a set dimension.
	Dimensions    map[string][]string
	Marks         Marks
	Trust         Trust
	EvidenceCount int
	UpdatedAt     time.Time
	Superseded    bool // a newer record replaces this one
	// PlatformBound says the record's fix holds on its Environment's os
	// only: its note names that system. On another system the same
	// output usually has another fix, so such a record loses most of its
	// score there (see osBoundShare).
	PlatformBound bool
	ConflictsWith bool // another record contradicts this one and neither is resolved

	// prepared is what Prepare read of the document's texts beforehand.
	prepared *preparedDoc
}

// preparedDoc is what Prepare read of a document, with the texts it read
// them from.
type preparedDoc struct {
	errorText, content, title, about string // what they were read from
	readText
}

// readText is what indexing reads of a document's texts.
type readText struct {
	norm      string       // the failure output normalized
	prose     proseText    // the prose as words
	signature string       // of the normalized output
	symbols   []string     // the code symbols it prints
	codes     []string     // the error codes the note names
	quoted    []quotedName // the names the output quotes, and its dependencies
}

// read reads d's texts.
func (d Doc) read() readText {
	norm := NormalizeError(d.ErrorText)
	return readText{norm: norm, prose: proseWords(d.Content), signature: signatureOfNormalized(norm), symbols: symbolsOfNormalized(norm),
		codes: errorCodes(d.Title, d.About, d.Content), quoted: append(quotedNames(norm), dependencyNames(d.ErrorText)...)}
}

// Prepare returns d with the text work of indexing it done beforehand,
// which Add and Replace then skip: reading its failure output, its prose
// and its codes (readText), most of the cost of indexing a note. It needs no index, so many
// documents can be prepared at once (a node's start does, on every
// core) and then added in order.
func Prepare(d Doc) Doc {
	d.prepared = &preparedDoc{errorText: d.ErrorText, content: d.Content, title: d.Title, about: d.About, readText: d.read()}
	return d
}

// texts returns what indexing reads of d's texts: as Prepare read them,
// when it did and they still hold.
func (d Doc) texts() readText {
	if p := d.prepared; p != nil && p.errorText == d.ErrorText && p.content == d.Content && p.title == d.Title && p.about == d.About {
		return p.readText
	}
	return d.read()
}

// Query is what the agent is doing right now. Every field is optional; the
// signals whose inputs are missing simply do not fire.
type Query struct {
	// Text is a prompt, task text or search phrase.
	Text string
	// ErrorText is raw failing output; it is normalized inside Search.
	ErrorText string
	// ErrorSignature is a digest computed elsewhere (the schema's
	// query_facts.error_signature); it matches like a locally computed one.
	ErrorSignature string
	ToolName       string
	// Command is the command that failed. A title names its tool to say
	// which tool failed (pytest, jest), so the terms of the command are
	// no part of a record's object (see Doc.About); it is not searched
	// for.
	Command     string
	Symbols     []string
	Project     string
	Environment map[string]string
	Phase       string
	Dimensions  map[string][]string
	// Now anchors recency; the zero value means time.Now().
	Now time.Time
	// Allow, when set, says which records the asker may read, by ID: the
	// others are never candidates. It is called under the index's read
	// lock, so it must not call the index.
	Allow func(id string) bool
	// Successors, when set, lets a superseded record pass the floor on
	// its score before the supersession's penalty: the caller shows the
	// record that replaced it in its place (a successor that words the
	// failure otherwise is found through the note it replaced).
	Successors bool
}

// Reason explains one part of a hit's score; it is the schema's
// match_reason. The contributions of a hit's reasons sum to its score.
type Reason struct {
	Signal       Signal  `json:"signal"`
	Value        string  `json:"value"`
	Contribution float64 `json:"contribution"`
}

// Hit is one ranked record. Its fields are the schema's hit minus
// provenance_label, summary and excerpt, which the caller renders from the
// record (Project and UpdatedAt are here for the label).
type Hit struct {
	ID        string    `json:"record_ref"`
	Title     string    `json:"title"`
	Trust     Trust     `json:"trust"`
	Score     float64   `json:"score"`
	Reasons   []Reason  `json:"reasons"`
	Marks     []string  `json:"marks,omitempty"`
	Project   string    `json:"-"`
	UpdatedAt time.Time `json:"-"`
	// content is the hit's content score (see osRivals).
	content float64
	os      string
	bound   bool
	// errShare is its error_signature signal (0..1) and objMissed says
	// whether the query lacks what it is about (see lone).
	errShare  float64
	objMissed bool
}

// Weights sets how much each signal may add to a score. Every signal is
// normalized to 0..1 before it is weighed, so with the default weights a
// score lies in 0..1.1 and one MinScore works for every kind of query.
type Weights struct {
	// Content signals: what the record is about. Their weights are shared
	// among the content signals a query can use (see package doc).
	ErrorSignature float64
	Lexical        float64
	CodeSymbol     float64
	// Key is the weight of key agreement: the share of the record's
	// title terms (what it is about) that the query names. It is a
	// content signal and reported as code_symbol.
	Key float64
	// KeyMiss is the share (at most 1) of its content score that a
	// record loses when the query does not name its key (see the package
	// doc): all of it when the query names an object of its own, in
	// proportion to the key terms it lacks otherwise. The same message
	// about another thing is another root cause.
	KeyMiss float64
	// Context signals: they reorder records that already match on content
	// and are scaled by how well the content matched.
	ToolName    float64
	SameProject float64
	Environment float64
	Phase       float64
	Dimension   float64
	Recency     float64
	Trust       float64
	Evidence    float64
	// Negative is subtracted in full for a superseded record and in part
	// for contradicted, failed or conflicting ones.
	Negative float64
	// MinScore is the floor: hits scoring below it are dropped.
	MinScore float64
	// Lead and LeadFloor let a failing tool result (a query with error
	// output) that leaves every record below MinScore still get its best
	// record when that record scores at least LeadFloor and at least Lead
	// times the next one, shares output with the query and passes the key
	// and kind checks (see the package doc). Lead 0 turns this off.
	Lead      float64
	LeadFloor float64
	// RecencyHalfLife is the age at which recency counts half.
	RecencyHalfLife time.Duration
}

// DefaultWeights are the weights the evaluation in this package was tuned
// with (on gen seeds 1, 4 and 5 at once; the tests report seed 2): content
// 0.85, context 0.25, floor 0.22, lead 2× above 0.15. The floor can sit
// that low because the key and kind checks (see package doc) silence
// records about another object or another kind of failure.
func DefaultWeights() Weights {
	return Weights{
		ErrorSignature:  0.35,
		Lexical:         0.20,
		CodeSymbol:      0.20,
		Key:             0.10,
		KeyMiss:         1.0,
		ToolName:        0.03,
		SameProject:     0.03,
		Environment:     0.10,
		Phase:           0.02,
		Dimension:       0.02,
		Recency:         0.015,
		Trust:           0.02,
		Evidence:        0.015,
		Negative:        0.6,
		MinScore:        0.22,
		Lead:            2,
		LeadFloor:       0.15,
		RecencyHalfLife: 90 * 24 * time.Hour,
	}
}

// FieldError names the Weights field that is out of range.
type FieldError struct {
	Field string
	Value float64
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("recall: weight %s = %g is out of range", e.Field, e.Value)
}

// ErrNoContentWeight is returned by Validate when no content signal has a
// weight, which would make every score zero.
var ErrNoContentWeight = errors.New("recall: all content weights are zero")

// Validate reports the first weight that is negative or not a number.
func (w Weights) Validate() error {
	fields := []struct {
		name string
		v    float64
	}{
		{"ErrorSignature", w.ErrorSignature}, {"Lexical", w.Lexical}, {"CodeSymbol", w.CodeSymbol},
		{"Key", w.Key}, {"KeyMiss", w.KeyMiss},
		{"ToolName", w.ToolName}, {"SameProject", w.SameProject}, {"Environment", w.Environment},
		{"Phase", w.Phase}, {"Dimension", w.Dimension}, {"Recency", w.Recency}, {"Trust", w.Trust},
		{"Evidence", w.Evidence}, {"Negative", w.Negative}, {"MinScore", w.MinScore},
		{"Lead", w.Lead}, {"LeadFloor", w.LeadFloor},
	}
	for _, f := range fields {
		if f.v < 0 || f.v != f.v {
			return &FieldError{Field: f.name, Value: f.v}
		}
	}
	if w.RecencyHalfLife < 0 {
		return &FieldError{Field: "RecencyHalfLife", Value: w.RecencyHalfLife.Hours()}
	}
	if w.contentTotal() == 0 {
		return ErrNoContentWeight
	}
	return nil
}

// contentTotal is the sum of the content weights.
func (w Weights) contentTotal() float64 {
	return w.ErrorSignature + w.Lexical + w.CodeSymbol + w.Key
}
