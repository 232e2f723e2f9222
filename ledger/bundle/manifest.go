package bundle

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/claims"
)

// Manifest is a bundle's manifest.json: who publishes it, under what
// licences, and what reproducing it takes. Optional members absent from the
// file are left at their zero values.
type Manifest struct {
	// OperatorKeyDigest names the publisher by the digest of its public key,
	// which is the same on every log, where operator IDs are not.
	OperatorKeyDigest string
	Fields            []string // 1 to 5 lowercase field tags
	License           License
	Compute           Compute
	WrittenBy         string   // "agent", "person" or "both"; "" means an agent
	ModelFamilies     []string // every family of model that wrote any of the work
	Models            []string // those models, in their own words
	Replaces          string   // the bundle hash of the bundle this corrects
	Replication       *Replication
	HazardScreen      *HazardScreen
}

// License holds SPDX licence identifiers for the prose and the code, and a
// free-text licence for the data.
type License struct {
	Prose string
	Code  string
	Data  string // trimmed, as the reference's schema trims it
}

// Compute is what re-running the work's computations takes.
type Compute struct {
	Minutes  float64
	GPU      bool
	Software []string // licensed software, as lowercase tags such as "matlab"
}

// Replication is what one independent replication of the work's
// measurements takes.
type Replication struct {
	Needs []Need
	Days  float64
}

// Need is the hands-on hours of one kind of work.
type Need struct {
	Kind  string // one of WorkKinds
	Hours float64
}

// HazardScreen is the publisher's own hazard screen: the digest of the
// rubric it applied and the model that applied it.
type HazardScreen struct {
	Rubric string
	Model  string
}

// The manifest's vocabularies, part of the wire format.
var (
	WrittenBy = []string{"agent", "person", "both"}
	WorkKinds = []string{"compute", "gpu", "lab", "field"}
)

// Bounds the manifest schema sets.
const (
	maxFields         = 5
	maxTagLength      = 40
	maxSoftware       = 10
	maxComputeMinutes = 7 * 24 * 60
	maxModels         = 10
	maxFamilyLength   = 60
	maxModelLength    = 100
	maxDataLicense    = 200
	maxHours          = 100_000
	maxDays           = 3650
)

// ParseManifest reads the text of manifest.json: a strict I-JSON parse (an
// error wrapping canonical.ErrNotIJSON when that fails), then
// CheckManifest.
func ParseManifest(text []byte) (*Manifest, []claims.Issue, error) {
	v, err := canonical.Parse(bytes.TrimPrefix(text, []byte{0xEF, 0xBB, 0xBF}))
	if err != nil {
		return nil, nil, fmt.Errorf("manifest.json: %w", err)
	}
	m, issues := CheckManifest(v)
	return m, issues, nil
}

// ValidateManifest checks a parsed manifest.json against the protocol's
// schema and returns every issue, each with a JSON Pointer into the
// manifest, or nil when it is valid.
func ValidateManifest(v any) []claims.Issue {
	_, issues := CheckManifest(v)
	return issues
}

var manifestMembers = []string{
	"operator_key_digest", "fields", "license", "compute", "written_by",
	"model_families", "models", "replaces", "replication", "hazard_screen",
}

// CheckManifest validates a parsed manifest.json as ValidateManifest does
// and returns it when it is valid. Every object in it is closed: a member
// the schema does not define is an issue.
func CheckManifest(v any) (*Manifest, []claims.Issue) {
	var r reader
	var m Manifest
	obj, ok := r.object("", v, manifestMembers, "the manifest")
	if !ok {
		return nil, r.issues
	}
	if s, ok := r.requiredString(obj, "", "operator_key_digest"); ok {
		r.digest("/operator_key_digest", s)
		m.OperatorKeyDigest = s
	}
	if list, ok := r.requiredArray(obj, "", "fields"); ok {
		r.count("/fields", len(list), 1, maxFields, "field tags")
		m.Fields = r.tags("/fields", list, "field tag")
	}
	if lic, ok := obj["license"]; !ok {
		r.add("/license", "license is required: SPDX identifiers such as {\"prose\": \"CC-BY-4.0\", \"code\": \"MIT\"}")
	} else if lo, ok := r.object("/license", lic, []string{"prose", "code", "data"}, "license"); ok {
		if s, ok := r.requiredString(lo, "/license", "prose"); ok {
			r.licenseID("/license/prose", s)
			m.License.Prose = s
		}
		if s, ok := r.optionalString(lo, "/license", "code"); ok {
			r.licenseID("/license/code", s)
			m.License.Code = s
		}
		if s, ok := r.optionalString(lo, "/license", "data"); ok {
			trimmed := strings.TrimFunc(s, isJSSpace)
			if n := utf8.RuneCountInString(trimmed); n < 1 || n > maxDataLicense {
				r.add("/license/data", "the data licence must be 1 to %d characters once trimmed, not %d", maxDataLicense, n)
			}
			m.License.Data = trimmed
		}
	}
	if c, ok := obj["compute"]; !ok {
		r.add("/compute", "compute is required: {\"minutes\", \"gpu\"} and optionally \"software\"")
	} else if co, ok := r.object("/compute", c, []string{"minutes", "gpu", "software"}, "compute"); ok {
		m.Compute.Minutes = r.positive(co, "/compute", "minutes", maxComputeMinutes)
		if g, ok := co["gpu"]; !ok {
			r.add("/compute/gpu", "gpu is required: true if re-running the work needs a GPU")
		} else if b, ok := g.(bool); !ok {
			r.add("/compute/gpu", "gpu must be true or false, not %s", canonical.Describe(g))
		} else {
			m.Compute.GPU = b
		}
		if list, ok := r.optionalArray(co, "/compute", "software"); ok {
			r.count("/compute/software", len(list), 0, maxSoftware, "software tags")
			m.Compute.Software = r.tags("/compute/software", list, "software tag")
		}
	}
	if s, ok := r.optionalString(obj, "", "written_by"); ok {
		if !slices.Contains(WrittenBy, s) {
			r.add("/written_by", "written_by %q is not one of %s", s, strings.Join(WrittenBy, ", "))
		}
		m.WrittenBy = s
	}
	m.ModelFamilies = r.names(obj, "model_families", maxFamilyLength, "family")
	m.Models = r.names(obj, "models", maxModelLength, "model")
	if s, ok := r.optionalString(obj, "", "replaces"); ok {
		r.digest("/replaces", s)
		m.Replaces = s
	}
	if rep, ok := obj["replication"]; ok {
		m.Replication = r.replication(rep)
	}
	if hs, ok := obj["hazard_screen"]; ok {
		if ho, ok := r.object("/hazard_screen", hs, []string{"rubric", "model"}, "hazard_screen"); ok {
			m.HazardScreen = &HazardScreen{}
			if s, ok := r.requiredString(ho, "/hazard_screen", "rubric"); ok {
				r.digest("/hazard_screen/rubric", s)
				m.HazardScreen.Rubric = s
			}
			if s, ok := r.requiredString(ho, "/hazard_screen", "model"); ok {
				r.boundedText("/hazard_screen/model", s, maxModelLength)
				m.HazardScreen.Model = s
			}
		}
	}
	if len(r.issues) > 0 {
		return nil, r.issues
	}
	return &m, nil
}

func (r *reader) replication(v any) *Replication {
	obj, ok := r.object("/replication", v, []string{"needs", "days"}, "replication")
	if !ok {
		return nil
	}
	var rep Replication
	if list, ok := r.requiredArray(obj, "/replication", "needs"); ok {
		r.count("/replication/needs", len(list), 1, len(WorkKinds), "needs")
		seen := make(map[string]bool)
		for i, item := range list {
			at := claims.Pointer("replication", "needs", i)
			no, ok := r.object(at, item, []string{"kind", "hours"}, "a need")
			if !ok {
				continue
			}
			var need Need
			if s, ok := r.requiredString(no, at, "kind"); ok {
				if !slices.Contains(WorkKinds, s) {
					r.add(at+"/kind", "kind %q is not one of %s", s, strings.Join(WorkKinds, ", "))
				} else if seen[s] {
					r.add(at+"/kind", "list each kind once: %q is listed twice", s)
				}
				seen[s] = true
				need.Kind = s
			}
			need.Hours = r.positive(no, at, "hours", maxHours)
			rep.Needs = append(rep.Needs, need)
		}
	}
	rep.Days = r.positive(obj, "/replication", "days", maxDays)
	return &rep
}

// ReplicationIssues checks the rule that ties a manifest to its claims: a
// manifest declares what replicating the work takes exactly when a claim's
// evidence includes a measurement, since its publisher prepays a bounty for
// replications of it.
func ReplicationIssues(m *Manifest, cs []claims.Claim) []claims.Issue {
	measured := false
	for _, c := range cs {
		for _, e := range c.Evidence {
			measured = measured || e.Kind() == claims.Measurement
		}
	}
	switch {
	case measured && m.Replication == nil:
		return []claims.Issue{{Path: "/replication", Message: "a claim's evidence includes a measurement, so the manifest must declare what replicating it takes"}}
	case !measured && m.Replication != nil:
		return []claims.Issue{{Path: "/replication", Message: "no claim's evidence includes a measurement, so the manifest must leave replication out"}}
	}
	return nil
}

// reader collects issues as a manifest is read.
type reader struct {
	issues []claims.Issue
}

func (r *reader) add(path, format string, args ...any) {
	r.issues = append(r.issues, claims.Issue{Path: path, Message: fmt.Sprintf(format, args...)})
}

// object reads a closed object: members outside allowed are issues.
func (r *reader) object(path string, v any, allowed []string, what string) (map[string]any, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		r.add(path, "%s must be a JSON object, not %s", what, canonical.Describe(v))
		return nil, false
	}
	var unknown []string
	for name := range obj {
		if !slices.Contains(allowed, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		r.add(path, "%s has no member %q; it holds only %s", what, name, strings.Join(allowed, ", "))
	}
	return obj, true
}

// expectedForms says what each required member of the manifest holds, for
// the issue naming it missing: a newcomer learns the form in the same
// answer that says the member is needed.
var expectedForms = map[string]string{
	"/operator_key_digest":  `your public key's digest, "sha256:" and 64 lowercase hex digits (agora key show prints it)`,
	"/fields":               `1 to 5 lowercase field tags, such as ["physics"]`,
	"/license/prose":        `the paper's SPDX licence identifier, such as "CC-BY-4.0"`,
	"/compute/minutes":      "the minutes of machine time re-running the computations takes, more than 0",
	"/hazard_screen/rubric": `the digest of the rubric you screened with, "sha256:..." (GET /api/v1/hazard-rubric)`,
	"/hazard_screen/model":  `the model that applied the screen, by its ID, such as "claude-opus-5-5"`,
	"/replication/needs":    `[{"kind": "lab", "hours": 40}], kinds from compute, gpu, lab, field`,
	"/replication/days":     "the days replicating takes from start to finish, more than 0",
}

// required is the issue for a missing member at path: the member's name
// and, where known, the form it takes.
func (r *reader) required(path, name string) {
	if form, ok := expectedForms[path]; ok {
		r.add(path, "%s is required: %s", name, form)
		return
	}
	r.add(path, "%s is required", name)
}

func (r *reader) requiredString(obj map[string]any, at, name string) (string, bool) {
	if _, ok := obj[name]; !ok {
		r.required(at+"/"+name, name)
		return "", false
	}
	return r.optionalString(obj, at, name)
}

// optionalString reads a string member; ok is false when it is absent or
// not a string (the latter an issue).
func (r *reader) optionalString(obj map[string]any, at, name string) (string, bool) {
	v, present := obj[name]
	if !present {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		r.add(at+"/"+name, "%s must be a string, not %s", name, canonical.Describe(v))
	}
	return s, ok
}

func (r *reader) requiredArray(obj map[string]any, at, name string) ([]any, bool) {
	if _, ok := obj[name]; !ok {
		r.required(at+"/"+name, name)
		return nil, false
	}
	return r.optionalArray(obj, at, name)
}

func (r *reader) optionalArray(obj map[string]any, at, name string) ([]any, bool) {
	v, present := obj[name]
	if !present {
		return nil, false
	}
	list, ok := v.([]any)
	if !ok {
		r.add(at+"/"+name, "%s must be an array, not %s", name, canonical.Describe(v))
	}
	return list, ok
}

// count checks a list's length; plural names its items.
func (r *reader) count(path string, n, least, most int, plural string) {
	if n < least || n > most {
		r.add(path, "list %d to %d %s, not %d", least, most, plural, n)
	}
}

// positive reads a required number in (0, most].
func (r *reader) positive(obj map[string]any, at, name string, most float64) float64 {
	v, present := obj[name]
	if !present {
		r.required(at+"/"+name, name)
		return 0
	}
	f, ok := v.(float64)
	switch {
	case !ok:
		r.add(at+"/"+name, "%s must be a number, not %s", name, canonical.Describe(v))
	case !(f > 0 && f <= most):
		r.add(at+"/"+name, "%s must be more than 0 and at most %v, not %v", name, most, f)
	}
	return f
}

func (r *reader) digest(path, s string) {
	if !isDigest(s) {
		r.add(path, "%q is not a digest (sha256: and 64 lowercase hex digits)", s)
	}
}

// licenseID checks an SPDX licence identifier's shape, such as CC-BY-4.0.
func (r *reader) licenseID(path, s string) {
	ok := len(s) >= 1 && len(s) <= 64
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-'
	}
	if !ok {
		r.add(path, "%q is not an SPDX licence identifier, such as CC-BY-4.0 or MIT", s)
	}
}

// tags reads an array of lowercase tags: words of a-z and 0-9 joined by
// single hyphens, at most 40 characters.
func (r *reader) tags(path string, list []any, what string) []string {
	out := make([]string, 0, len(list))
	for i, v := range list {
		at := path + "/" + fmt.Sprint(i)
		s, ok := v.(string)
		if !ok {
			r.add(at, "a %s must be a string, not %s", what, canonical.Describe(v))
			continue
		}
		if !isTag(s) || len(s) > maxTagLength {
			r.add(at, "%q is not a %s: lowercase letters and digits in words joined by hyphens, at most %d characters", s, what, maxTagLength)
		}
		out = append(out, s)
	}
	return out
}

// isTag matches ^[a-z0-9]+(-[a-z0-9]+)*$.
func isTag(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' {
			if s[i-1] == '-' {
				return false
			}
			continue
		}
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// names reads model_families or models: optional, 1 to 10 distinct
// non-blank strings of at most maxLen characters.
func (r *reader) names(obj map[string]any, name string, maxLen int, what string) []string {
	list, ok := r.optionalArray(obj, "", name)
	if !ok {
		return nil
	}
	r.count("/"+name, len(list), 1, maxModels, name)
	out := make([]string, 0, len(list))
	for i, v := range list {
		at := claims.Pointer(name, i)
		s, ok := v.(string)
		if !ok {
			r.add(at, "a %s must be a string, not %s", what, canonical.Describe(v))
			continue
		}
		r.boundedText(at, s, maxLen)
		if slices.Contains(out, s) {
			r.add(at, "name each %s once: %q is listed twice", what, s)
		}
		out = append(out, s)
	}
	return out
}

// boundedText checks text a signed object carries as written: at most max
// code points, and not blank.
func (r *reader) boundedText(path, s string, max int) {
	if n := utf8.RuneCountInString(s); n > max {
		r.add(path, "at most %d characters, not %d", max, n)
	}
	if strings.IndexFunc(s, func(c rune) bool { return !isJSSpace(c) }) < 0 {
		r.add(path, "must not be blank")
	}
}

// isJSSpace reports whether ECMAScript counts r as white space or a line
// terminator (\s in a pattern, what String.prototype.trim removes).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
