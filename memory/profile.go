package memory

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ProfileFormat names the profile format, memory-profile/v1 (profile.md).
const ProfileFormat = "memory-profile/v1"

// MaxProfileBytes bounds a profile document; the largest the schema allows
// (32 dimensions of 256 values of 256 characters) is far beyond what anyone
// writes, so the bound is set by use, not by the schema.
const MaxProfileBytes = 256 << 10

//go:embed memory-profile-v1.schema.json
var profileSchemaText []byte

//go:embed default-profile.json
var defaultProfileText []byte

// ProfileSchema returns the text of the memory-profile/v1 JSON Schema. The
// caller owns the bytes.
func ProfileSchema() []byte { return bytes.Clone(profileSchemaText) }

// Signals lists the relevance signals in the contract's order
// ($defs/signal_name); a profile weighs every one.
func Signals() []string {
	return []string{"error_signature", "code_symbol", "tool_name", "lexical", "same_project",
		"environment", "evidence", "recency", "trust", "negative", "phase", "dimension"}
}

// PushTriggers lists the moments a node may push memory ($defs/push_trigger).
func PushTriggers() []string { return []string{"session_start", "after_failure", "phase_start"} }

// Profile is a parsed memory-profile/v1 document. Its fields mirror the
// JSON; profile.md is the reference for what each means.
type Profile struct {
	Format      string `json:"format"`
	ID          string `json:"id"`
	Revision    string `json:"revision"`
	Description string `json:"description,omitempty"`
	// Signals weighs each relevance signal, 0–100. A hit's score is the sum
	// of weight × normalized signal over the signals that matched; the
	// negative signal's contribution is subtracted.
	Signals map[string]float64 `json:"signals"`
	// Push is the policy of each push trigger.
	Push       map[string]PushPolicy `json:"push"`
	Dimensions []Dimension           `json:"dimensions"`
	Budgets    Budgets               `json:"budgets"`
	// EnabledKinds are the capability-disabled kinds this profile turns on.
	EnabledKinds []string `json:"enabled_kinds"`
	// Reads says whose records the sessions pinned to this profile read
	// (pushes, searches and reads alike); absent, own+shared.
	Reads ReadScope `json:"reads"`
}

// ReadScope is a profile's reads: which adapters' records a session may
// read besides its own adapter's and those the admin shared, which every
// session reads. In JSON it is "own+shared" (the zero value), "all" (every
// record on the node), or a list of adapter ids whose records are read
// too.
type ReadScope struct {
	All      bool
	Adapters []string // sorted, each once; nil when All
}

// ReadsOwnAndShared is the name of the zero ReadScope in JSON.
const ReadsOwnAndShared = "own+shared"

// Allows says whether a session of adapter reads a record owned by owner
// and shared or not.
func (r ReadScope) Allows(adapter, owner string, shared bool) bool {
	return owner == adapter || shared || r.All || slices.Contains(r.Adapters, owner)
}

// String writes r as its JSON says it: own+shared, all, or
// own+shared+a,b.
func (r ReadScope) String() string {
	switch {
	case r.All:
		return "all"
	case len(r.Adapters) == 0:
		return ReadsOwnAndShared
	}
	return ReadsOwnAndShared + "+" + strings.Join(r.Adapters, ",")
}

// MarshalJSON writes "own+shared", "all" or the list of adapter ids.
func (r ReadScope) MarshalJSON() ([]byte, error) {
	switch {
	case r.All:
		return []byte(`"all"`), nil
	case len(r.Adapters) == 0:
		return []byte(`"` + ReadsOwnAndShared + `"`), nil
	}
	return json.Marshal(r.Adapters)
}

// UnmarshalJSON reads what MarshalJSON writes; the schema has checked the
// shape already.
func (r *ReadScope) UnmarshalJSON(b []byte) error {
	var word string
	if err := json.Unmarshal(b, &word); err == nil {
		switch word {
		case "all":
			*r = ReadScope{All: true}
		case ReadsOwnAndShared:
			*r = ReadScope{}
		default:
			return fmt.Errorf("memory: reads %q: want %q, \"all\" or a list of adapter ids", word, ReadsOwnAndShared)
		}
		return nil
	}
	var ids []string
	if err := json.Unmarshal(b, &ids); err != nil {
		return fmt.Errorf("memory: reads: %w", err)
	}
	slices.Sort(ids)
	*r = ReadScope{Adapters: slices.Compact(ids)}
	return nil
}

// PushPolicy bounds one trigger's push: at most MaxItems records and
// MaxChars characters of rendered text, each record scoring at least
// MinScore and matched by every signal in Require. MaxItems 0 turns the
// trigger off.
type PushPolicy struct {
	MaxItems int      `json:"max_items"`
	MaxChars int      `json:"max_chars"`
	MinScore float64  `json:"min_score"`
	Require  []string `json:"require"`
}

// Dimension declares a task dimension an integrator may report: exact (one
// value) or set (a list). Values, when given, are the only values allowed.
type Dimension struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"` // "exact" or "set"
	Values []string `json:"values,omitempty"`
}

// Budgets bound what one session may spend; the node answers
// budget_exhausted once a budget is spent.
type Budgets struct {
	Pushes    int `json:"pushes"`     // injections
	PushChars int `json:"push_chars"` // characters of injected text, summed
	Searches  int `json:"searches"`   // query searches
	Reads     int `json:"reads"`      // query reads
	Notes     int `json:"notes"`      // notes recorded
}

var compileProfileSchema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(profileSchemaText))
	if err != nil {
		panic(fmt.Sprintf("memory: profile schema: %v", err))
	}
	c := jsonschema.NewCompiler()
	const url = "https://agora.invalid/schemas/memory-profile-v1.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("memory: profile schema: %v", err))
	}
	s, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("memory: profile schema: %v", err))
	}
	return s
})

// ParseProfile reads a memory-profile/v1 document: strict I-JSON, the
// profile schema, and the rules the schema cannot state (each dimension
// named once). Every error is a schema_invalid or bad_request *Error.
func ParseProfile(data []byte) (*Profile, error) {
	if len(data) > MaxProfileBytes {
		return nil, newError(CodeBadRequest, "the profile is %d bytes; at most %d are allowed", len(data), MaxProfileBytes)
	}
	value, err := canonical.Parse(data)
	if err != nil {
		e := newError(CodeBadRequest, "the profile is not I-JSON: %s", strings.TrimPrefix(err.Error(), "not I-JSON: "))
		e.Err = err
		return nil, e
	}
	if err := compileProfileSchema().Validate(value); err != nil {
		return nil, schemaError(err, "")
	}
	text, err := canonical.Marshal(value)
	if err != nil {
		return nil, &Error{Code: CodeInternal, Message: "the profile could not be re-encoded", Err: err}
	}
	p := new(Profile)
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, &Error{Code: CodeInternal, Message: "the profile could not be read", Err: fmt.Errorf("memory: decoding a validated profile: %w", err)}
	}
	seen := map[string]bool{}
	for i, d := range p.Dimensions {
		if seen[d.Name] {
			return nil, newError(CodeSchemaInvalid, "at /dimensions/%d/name: dimension %q is declared twice", i, d.Name)
		}
		seen[d.Name] = true
	}
	return p, nil
}

// DefaultProfile returns the node's default profile, default@2, a fresh
// copy the caller may change.
func DefaultProfile() *Profile {
	p, err := ParseProfile(defaultProfileText)
	if err != nil {
		panic(fmt.Sprintf("memory: the embedded default profile is invalid: %v", err))
	}
	return p
}

// Digest is "sha256:" and the hex SHA-256 of the profile's canonical JSON
// (RFC 8785): every member written, so two documents that differ only in
// layout, member order or number spelling have one digest, and any change
// of meaning gives another. A session pins a profile by this digest.
func (p *Profile) Digest() (string, error) {
	text, err := json.Marshal(p.normalized())
	if err != nil {
		return "", fmt.Errorf("memory: encoding profile %s@%s: %w", p.ID, p.Revision, err)
	}
	canon, err := canonical.Canonicalize(text)
	if err != nil {
		return "", fmt.Errorf("memory: canonical form of profile %s@%s: %w", p.ID, p.Revision, err)
	}
	return canonical.Digest(canon), nil
}

// normalized writes empty lists as [] rather than null, so a profile built
// in Go digests as the same document parsed from JSON.
func (p *Profile) normalized() *Profile {
	q := *p
	if q.Dimensions == nil {
		q.Dimensions = []Dimension{}
	}
	if q.EnabledKinds == nil {
		q.EnabledKinds = []string{}
	}
	q.Push = make(map[string]PushPolicy, len(p.Push))
	for k, v := range p.Push {
		if v.Require == nil {
			v.Require = []string{}
		}
		q.Push[k] = v
	}
	return &q
}

// Pin returns the id, revision and digest a session.start result pins.
// It panics only if the profile holds a value JSON cannot encode (a NaN
// weight), which ParseProfile never produces.
func (p *Profile) Pin() PinnedProfile {
	d, err := p.Digest()
	if err != nil {
		panic(err)
	}
	return PinnedProfile{ID: p.ID, Revision: p.Revision, Digest: d}
}

// Ref returns the profile's ref, id@revision.
func (p *Profile) Ref() ProfileRef { return ProfileRef{Name: p.ID, Revision: p.Revision} }

// KindEnabled reports whether the profile lets a session send kind: every
// L0 kind, and the capability-disabled kinds it lists in enabled_kinds.
func (p *Profile) KindEnabled(kind string) bool {
	if IsCapabilityDisabled(kind) {
		return slices.Contains(p.EnabledKinds, kind)
	}
	return IsKind(kind)
}

// CheckDimensions checks dimension values an adapter reported (in
// session.start or workflow.start) against the profile's declarations, as
// the contract requires: an undeclared name, a list for an exact dimension,
// a string for a set one, or a value outside a declared list is
// schema_invalid. at is the JSON Pointer of the dimensions object, for the
// message, e.g. "/payload/dimensions".
func (p *Profile) CheckDimensions(dims map[string]DimensionValue, at string) error {
	names := make([]string, 0, len(dims))
	for name := range dims {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := dims[name]
		where := at + pointer([]string{name})
		i := slices.IndexFunc(p.Dimensions, func(d Dimension) bool { return d.Name == name })
		if i < 0 {
			return newError(CodeSchemaInvalid, "at %s: profile %s@%s declares no dimension %q", where, p.ID, p.Revision, name)
		}
		d := p.Dimensions[i]
		if (d.Kind == "set") != v.Set {
			return newError(CodeSchemaInvalid, "at %s: dimension %q is of kind %s: expected %s", where, name, d.Kind,
				map[bool]string{true: "a list of strings", false: "a string"}[d.Kind == "set"])
		}
		if len(d.Values) > 0 {
			for _, value := range v.Values {
				if !slices.Contains(d.Values, value) {
					return newError(CodeSchemaInvalid, "at %s: %q is not a value of dimension %q", where, clip(value, 64), name)
				}
			}
		}
	}
	return nil
}

// ProfileRef names a profile: Name and, optionally, Revision (name@revision).
// An empty Revision asks for the node's current revision of Name.
type ProfileRef struct {
	Name     string
	Revision string
}

// profileRefPattern is session.start's profile_ref.
var profileRefPattern = regexp.MustCompile(`^([a-z0-9][a-z0-9._-]{0,63})(?:@([A-Za-z0-9._-]{1,32}))?$`)

// ParseProfileRef reads "name" or "name@revision" as session.start's
// profile_ref allows them; anything else is schema_invalid.
func ParseProfileRef(s string) (ProfileRef, error) {
	m := profileRefPattern.FindStringSubmatch(s)
	if m == nil {
		return ProfileRef{}, newError(CodeSchemaInvalid, "%q is not a profile ref: expected name or name@revision", clip(s, 128))
	}
	return ProfileRef{Name: m[1], Revision: m[2]}, nil
}

// String writes the ref as name or name@revision.
func (r ProfileRef) String() string {
	if r.Revision == "" {
		return r.Name
	}
	return r.Name + "@" + r.Revision
}
