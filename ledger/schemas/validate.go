package schemas

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/jsonpointer"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Validate checks a file of a bundle against the schema named name (one of
// Names) and the checks the reference library makes beyond it, and returns
// every issue found, in document order, or nil when the file is valid.
//
// value is the file's decoded JSON: the generic values canonical.Parse
// returns (map[string]any, []any, string, float64, bool, nil), which is what
// the node passes. Numbers decoded by encoding/json with UseNumber
// (json.Number) and Go integers are accepted too, and read as the binary64
// value they stand for, as the protocol reads every JSON number.
//
// claims.json is handed to claims.Validate, whose issues are the node's
// word on claims. An unknown name is reported as an issue of the whole file.
func Validate(name string, value any) []Issue {
	value = plain(value)
	if name == "claims.json" {
		return claims.Validate(value)
	}
	s, ok := compiled()[name]
	if !ok {
		return []Issue{{Path: "", Message: fmt.Sprintf("no schema is named %q; the schemas are %s", name, strings.Join(names, ", "))}}
	}
	issues := s.check(value)
	if extra, ok := beyondSchema[name]; ok {
		issues = append(issues, extra(value)...)
	}
	return tidy(issues)
}

// baseURL names the documents inside the compiler. Nothing is fetched from
// it: every document is added as a resource before compiling, and none
// refers outside itself.
const baseURL = "https://agora.invalid/api/v1/schemas/"

// A schema is one compiled document and its decoded text, from which issues
// take their words: a pattern's description says what was expected, and an
// object's properties say which members are allowed.
type schema struct {
	name     string
	doc      any // as jsonschema.UnmarshalJSON decodes it: numbers are json.Number
	compiled *jsonschema.Schema
}

// compiled compiles every document once, on first use. A document that
// does not compile is a defect of this package, which its tests catch, so it
// panics.
var compiled = sync.OnceValue(func() map[string]*schema {
	c := jsonschema.NewCompiler()
	out := make(map[string]*schema, len(names))
	for _, name := range names {
		text, err := documents.ReadFile(name)
		if err != nil {
			panic(fmt.Sprintf("schemas: %s: %v", name, err))
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			panic(fmt.Sprintf("schemas: %s: %v", name, err))
		}
		if err := c.AddResource(baseURL+name, doc); err != nil {
			panic(fmt.Sprintf("schemas: %s: %v", name, err))
		}
		out[name] = &schema{name: name, doc: doc}
	}
	for _, name := range names {
		sch, err := c.Compile(baseURL + name)
		if err != nil {
			panic(fmt.Sprintf("schemas: %s: %v", name, err))
		}
		out[name].compiled = sch
	}
	return out
})

// check validates value against the compiled schema alone.
func (s *schema) check(value any) []Issue {
	err := s.compiled.Validate(value)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Path: "", Message: err.Error()}}
	}
	var issues []Issue
	s.collect(ve, value, &issues)
	return issues
}

// collect turns the leaves of a validation error's tree into issues. The
// inner nodes (the schema as a whole, a $ref, an if's then or else) only
// group the leaves, each of which names a keyword that failed and where.
func (s *schema) collect(e *jsonschema.ValidationError, root any, out *[]Issue) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			s.collect(c, root, out)
		}
		return
	}
	*out = append(*out, s.describe(e, root)...)
}

var printer = message.NewPrinter(language.English)

// describe words one failed keyword.
func (s *schema) describe(e *jsonschema.ValidationError, root any) []Issue {
	at := claims.Pointer(stringsToAny(e.InstanceLocation)...)
	node := s.node(e.SchemaURL)
	value, _ := valueAt(root, e.InstanceLocation)
	one := func(format string, args ...any) []Issue {
		return []Issue{{Path: at, Message: fmt.Sprintf(format, args...)}}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		issues := make([]Issue, len(k.Missing))
		for i, name := range k.Missing {
			issues[i] = Issue{Path: at + claims.Pointer(name), Message: name + " is required"}
		}
		return issues
	case *kind.AdditionalProperties:
		allowed := memberNames(node)
		issues := make([]Issue, len(k.Properties))
		for i, name := range k.Properties {
			issues[i] = Issue{Path: at, Message: fmt.Sprintf("has no member %q: only %s are allowed", name, joinWords(allowed))}
		}
		return issues
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = typeWords[w]
		}
		if f, ok := value.(float64); ok && slices.Contains(k.Want, "integer") {
			return one("must be %s, not %s", strings.Join(want, " or "), strconv.FormatFloat(f, 'g', -1, 64))
		}
		return one("must be %s, not %s", strings.Join(want, " or "), canonical.Describe(value))
	case *kind.Enum:
		options := make([]string, len(k.Want))
		for i, w := range k.Want {
			options[i] = fmt.Sprint(w)
		}
		return one("%s is not one of %s", shown(value), strings.Join(options, ", "))
	case *kind.Const:
		return one("must be %s", shown(k.Want))
	case *kind.Pattern:
		if d := description(node); d != "" {
			return one("%s is not valid here: expected %s", shown(k.Got), d)
		}
		return one("%s does not match the pattern %s", shown(k.Got), k.Want)
	case *kind.MinLength:
		if k.Want == 1 {
			return one("must not be empty")
		}
		return one("must be at least %d characters, not %d", k.Want, k.Got)
	case *kind.MaxLength:
		return one("must be at most %d characters, not %d", k.Want, k.Got)
	case *kind.MinItems:
		return one("must hold at least %s, not %d", entries(k.Want), k.Got)
	case *kind.MaxItems:
		return one("holds %s; at most %d are allowed", entries(k.Got), k.Want)
	case *kind.Minimum:
		return one("must be at least %s, not %s", ratString(k.Want), ratString(k.Got))
	case *kind.Maximum:
		return one("must be at most %s, not %s", ratString(k.Want), ratString(k.Got))
	case *kind.ExclusiveMinimum:
		return one("must be more than %s, not %s", ratString(k.Want), ratString(k.Got))
	case *kind.ExclusiveMaximum:
		return one("must be less than %s, not %s", ratString(k.Want), ratString(k.Got))
	case *kind.UniqueItems:
		return []Issue{{Path: at + claims.Pointer(k.Duplicates[1]), Message: fmt.Sprintf("repeats item %d", k.Duplicates[0])}}
	case *kind.FalseSchema:
		return one("is not allowed here")
	}
	return one("%s", e.ErrorKind.LocalizedString(printer))
}

// entries counts the entries of an array in words.
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

// typeWords name the JSON Schema types as a message says them.
var typeWords = map[string]string{
	"null":    "null",
	"boolean": "true or false",
	"number":  "a number",
	"integer": "a whole number",
	"string":  "a string",
	"array":   "an array",
	"object":  "an object",
}

// node returns the subschema a validation error's schema location names:
// the document's own text at that JSON Pointer, or nil.
func (s *schema) node(schemaURL string) map[string]any {
	_, fragment, _ := strings.Cut(schemaURL, "#")
	n := s.doc
	if fragment != "" {
		for _, token := range strings.Split(strings.TrimPrefix(fragment, "/"), "/") {
			token = strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
			obj, ok := n.(map[string]any)
			if !ok {
				return nil
			}
			n = obj[token]
		}
	}
	obj, _ := n.(map[string]any)
	return obj
}

// description is a subschema's description as the end of "expected …":
// its full stop dropped, and its first letter lowered unless its first word
// is an acronym ("A DOI" becomes "a DOI", "RRID" stays).
func description(node map[string]any) string {
	d, _ := node["description"].(string)
	d = strings.TrimSuffix(d, ".")
	word, _, _ := strings.Cut(d, " ")
	if len(word) < 2 || strings.ToUpper(word) != word {
		d = strings.ToLower(d[:min(1, len(d))]) + d[min(1, len(d)):]
	}
	return d
}

// memberNames are the members a subschema's properties allow, sorted.
func memberNames(node map[string]any) []string {
	props, _ := node["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for name := range props {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// joinWords writes a list as prose: "a", "a and b", "a, b and c".
func joinWords(words []string) string {
	switch len(words) {
	case 0:
		return "no members"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// shown writes a value from a file into a message: strings quoted and cut
// short, other values by their JSON type or their number.
func shown(v any) string {
	switch v := v.(type) {
	case string:
		const most = 80
		if utf8.RuneCountInString(v) > most {
			runes := []rune(v)
			return strconv.Quote(string(runes[:most])) + "…"
		}
		return strconv.Quote(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	}
	return canonical.Describe(v)
}

// ratString writes a bound or a value the validator compared exactly.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func stringsToAny(tokens []string) []any {
	out := make([]any, len(tokens))
	for i, t := range tokens {
		out[i] = t
	}
	return out
}

// valueAt finds the value at a path of member names and array indexes.
func valueAt(v any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[t]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// tidy puts issues in document order (array indexes compared as numbers),
// drops repeats, and returns nil for none.
func tidy(issues []Issue) []Issue {
	if len(issues) == 0 {
		return nil
	}
	slices.SortFunc(issues, func(a, b Issue) int {
		return cmp.Or(jsonpointer.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(issues)
}

// plain returns v with every number a float64, as canonical.Parse gives
// them, converting json.Number and Go integers. A value that holds none is
// returned as it is, without a copy.
func plain(v any) any {
	if !needsPlain(v) {
		return v
	}
	return toPlain(v)
}

func needsPlain(v any) bool {
	switch x := v.(type) {
	case json.Number, int, int64, int32, uint64, float32:
		return true
	case map[string]any:
		for _, e := range x {
			if needsPlain(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if needsPlain(e) {
				return true
			}
		}
	}
	return false
}

func toPlain(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := strconv.ParseFloat(x.String(), 64); err == nil {
			return f
		}
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case uint64:
		return float64(x)
	case float32:
		return float64(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = toPlain(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toPlain(e)
		}
		return out
	}
	return v
}
