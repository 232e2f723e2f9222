package library

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/jsonpointer"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// contentSchemaText is the write contract's write_contract.content_schema,
// taken from the embedded contract (Contract) as its canonical JSON.
var contentSchemaText = sync.OnceValue(func() []byte {
	wc, _ := Contract()["write_contract"].(map[string]any)
	b, err := canonical.Marshal(wc["content_schema"])
	if err != nil || wc["content_schema"] == nil {
		panic(fmt.Sprintf("library: the contract's content_schema: %v", err))
	}
	return b
})

// ContentSchema returns the write contract's content schema
// (write_contract.content_schema, JSON Schema draft 2020-12) as the
// contract gives it, in canonical JSON: the document ValidateContent
// enforces, for the node to serve as it is. The caller owns the bytes.
func ContentSchema() []byte { return bytes.Clone(contentSchemaText()) }

// schemaURL names the document inside the compiler; nothing is fetched.
const schemaURL = "https://agora.invalid/library/content_schema.json"

// contentSchema compiles the schema once, on first use. It asserts format
// (uri, date-time), which draft 2020-12 leaves as annotations unless asked:
// a source URL must at least be a URL. A schema that does not compile is a
// defect of this package, which its tests catch, so it panics.
var contentSchema = sync.OnceValues(func() (*jsonschema.Schema, map[string]bool) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(contentSchemaText()))
	if err != nil {
		panic(fmt.Sprintf("library: the contract's content_schema: %v", err))
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		panic(fmt.Sprintf("library: the contract's content_schema: %v", err))
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		panic(fmt.Sprintf("library: the contract's content_schema: %v", err))
	}
	kinds := map[string]bool{}
	for _, k := range doc.(map[string]any)["properties"].(map[string]any)["kind"].(map[string]any)["enum"].([]any) {
		kinds[k.(string)] = true
	}
	return sch, kinds
})

// knownKind reports whether the content schema names kind.
func knownKind(kind string) bool {
	_, kinds := contentSchema()
	return kinds[kind]
}

// ValidateContent checks r's content, the object {kind, title, body, links,
// previous} with its body decoded, against the content schema, and what the
// schema says only in words: a structured body is canonical JSON, and
// source, archive and artifact URLs are HTTPS with a host name and without a
// user name or password. It returns every issue, sorted by path, or nil.
//
// It needs nothing stored: what the content refers to is Check's.
func ValidateContent(r *Record) []Issue {
	var issues []Issue
	body, err := r.decodeBody()
	switch {
	case err != nil:
		issues = append(issues, Issue{Path: "/body", Code: IssueBodyJSON, Message: fmt.Sprintf(
			"a %s's body must be the JSON text of its body object: %v", r.Kind, err)})
	case !IsTextKind(r.Kind) && knownKind(r.Kind):
		if c, err := canonical.Marshal(body); err == nil && string(c) != r.Body {
			issues = append(issues, Issue{Path: "/body", Code: IssueBodyCanonical, Message: fmt.Sprintf(
				"a %s's body must be its body object's canonical JSON (RFC 8785)%s", r.Kind, canonicalHint(r.Body, string(c)))})
		}
	}
	schemaIssues := checkSchema(contentValue(r, body, err == nil))
	if err != nil {
		// The schema would say again, less helpfully, that the body is not
		// an object.
		schemaIssues = slices.DeleteFunc(schemaIssues, func(i Issue) bool { return strings.HasPrefix(i.Path, "/body") })
	}
	issues = append(issues, schemaIssues...)
	if err == nil {
		issues = append(issues, sourceIssues(r.Kind, body)...)
	}
	return tidy(issues)
}

// canonicalHint says how text, JSON that canonical.Parse reads, differs
// from canon, its canonical form: in whitespace, member order, number form
// or string escaping, each with what to write instead. A client whose JSON
// encoder sorts members and writes no whitespace can still escape strings
// as RFC 8785 does not ("\u00e9" for "é", "\/" for "/", uppercase hex),
// and is told that is the difference, with the first such escape.
func canonicalHint(text, canon string) string {
	var norm strings.Builder // text with no whitespace and canonical scalars
	var whitespace, numbers, escaping bool
	var example string
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			whitespace = true
			i++
		case c == '"':
			j := i + 1
			for text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j++
			raw, want := text[i:j], canonicalScalar(text[i:j])
			if raw != want {
				escaping = true
				if example == "" {
					example = firstLooseEscape(raw)
				}
			}
			norm.WriteString(want)
			i = j
		case c == '-' || '0' <= c && c <= '9':
			j := i
			for j < len(text) && strings.IndexByte("+-.eE0123456789", text[j]) >= 0 {
				j++
			}
			want := canonicalScalar(text[i:j])
			numbers = numbers || want != text[i:j]
			norm.WriteString(want)
			i = j
		default:
			norm.WriteByte(c)
			i++
		}
	}
	var found, fixes []string
	if whitespace {
		found, fixes = append(found, "whitespace"), append(fixes, "write no whitespace between tokens")
	}
	if norm.String() != canon {
		found, fixes = append(found, "member order"), append(fixes, "sort each object's members by name, comparing UTF-16 code units")
	}
	if numbers {
		found, fixes = append(found, "number form"), append(fixes, "write each number as ECMAScript's Number.prototype.toString does (1, not 1.0 or 1e0)")
	}
	if escaping {
		fix := `escape within strings only " and \ (as \" and \\) and the control characters below U+0020 ` +
			`(as \b, \f, \n, \r and \t, the others as \u00xx in lowercase hex), and write every other character as itself, in UTF-8`
		if example != "" {
			fix += " (here " + example + ")"
		}
		found, fixes = append(found, "string escaping"), append(fixes, fix)
	}
	if found == nil {
		return ": no whitespace, members sorted, numbers and strings written as RFC 8785 writes them"
	}
	return "; this body differs from it in " + orAnd(found, "and") + ": " + strings.Join(fixes, "; ")
}

// canonicalScalar is the canonical form of one JSON string or number.
func canonicalScalar(raw string) string {
	v, err := canonical.Parse([]byte(raw))
	if err != nil {
		return raw
	}
	b, err := canonical.Marshal(v)
	if err != nil {
		return raw
	}
	return string(b)
}

// firstLooseEscape finds the first escape in raw, a JSON string token, that
// RFC 8785 writes otherwise, and says how it writes it: "\u00e9 is
// written é". A surrogate pair's two escapes are one character.
func firstLooseEscape(raw string) string {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		n := 2
		if raw[i+1] == 'u' {
			n = 6
			if r, _ := strconv.ParseUint(raw[i+2:i+6], 16, 16); 0xd800 <= r && r < 0xdc00 && strings.HasPrefix(raw[i+6:], `\u`) {
				n = 12
			}
		}
		escape := raw[i : i+n]
		if want := canonicalScalar(`"` + escape + `"`); want != `"`+escape+`"` {
			return escape + " is written " + strings.TrimSuffix(strings.TrimPrefix(want, `"`), `"`)
		}
		i += n - 1
	}
	return ""
}

// orAnd joins words as a list in prose: "a", "a and b", "a, b and c".
func orAnd(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + last + " " + words[len(words)-1]
}

// contentValue is r's content as a generic JSON object; the raw body stands
// in for one that did not decode.
func contentValue(r *Record, body any, decoded bool) map[string]any {
	links := make([]any, len(r.Links))
	for i, l := range r.Links {
		links[i] = map[string]any{"relation": l.Relation, "target": l.Target}
	}
	if !decoded {
		body = r.Body
	}
	return map[string]any{"kind": r.Kind, "title": r.Title, "body": body, "links": links, "previous": r.Previous}
}

// checkSchema validates a content value against the compiled schema.
func checkSchema(v any) []Issue {
	sch, _ := contentSchema()
	err := sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Path: "", Code: "schema", Message: err.Error()}}
	}
	var issues []Issue
	collect(ve, &issues)
	return issues
}

// collect turns the leaves of a validation error's tree into issues: inner
// nodes (the schema, an allOf, an if's then) only group them. An anyOf is
// one issue, since its branches are alternatives of one value.
func collect(e *jsonschema.ValidationError, out *[]Issue) {
	if _, ok := e.ErrorKind.(*kind.AnyOf); ok {
		var alts []string
		for _, c := range e.Causes {
			var sub []Issue
			collect(c, &sub)
			for _, s := range sub {
				alts = append(alts, s.Message)
			}
		}
		*out = append(*out, Issue{Path: pointer(e.InstanceLocation), Code: "anyOf", Message: strings.Join(alts, ", or ")})
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	*out = append(*out, describe(e)...)
}

var printer = message.NewPrinter(language.English)

// describe words one failed keyword.
func describe(e *jsonschema.ValidationError) []Issue {
	at := pointer(e.InstanceLocation)
	code := "schema"
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		code = kp[0]
	}
	one := func(format string, args ...any) []Issue {
		return []Issue{{Path: at, Code: code, Message: fmt.Sprintf(format, args...)}}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		issues := make([]Issue, len(k.Missing))
		for i, name := range k.Missing {
			issues[i] = Issue{Path: at + "/" + escape(name), Code: code, Message: name + " is required"}
		}
		return issues
	case *kind.AdditionalProperties:
		issues := make([]Issue, len(k.Properties))
		for i, name := range k.Properties {
			issues[i] = Issue{Path: at + "/" + escape(name), Code: code, Message: fmt.Sprintf("%q is not a member allowed here", name)}
		}
		return issues
	case *kind.Type:
		return one("must be %s, not %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		options := make([]string, len(k.Want))
		for i, w := range k.Want {
			options[i] = strconv.Quote(fmt.Sprint(w))
		}
		return one("%s is not one of %s", shown(k.Got), strings.Join(options, ", "))
	case *kind.Const:
		return one("must be %s", shown(k.Want))
	case *kind.Pattern:
		switch k.Want {
		case `^[0-9a-f]{64}$`:
			return one("%s is not a revision ID: 64 lowercase hex digits", shown(k.Got))
		case `\S`:
			return one("must not be blank")
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
		return one("must hold at least %d items, not %d", k.Want, k.Got)
	case *kind.MaxItems:
		return one("holds %d items; at most %d are allowed", k.Got, k.Want)
	case *kind.UniqueItems:
		return []Issue{{Path: at + "/" + strconv.Itoa(k.Duplicates[1]), Code: code, Message: fmt.Sprintf("repeats item %d", k.Duplicates[0])}}
	case *kind.Format:
		return one("%s is not a valid %s: %v", shown(k.Got), k.Want, k.Err)
	case *kind.FalseSchema:
		return one("is not allowed here")
	}
	return one("%s", e.ErrorKind.LocalizedString(printer))
}

// shown writes a value from the content into a message.
func shown(v any) string {
	if s, ok := v.(string); ok {
		if r := []rune(s); len(r) > 80 {
			return strconv.Quote(string(r[:80])) + "…"
		}
		return strconv.Quote(s)
	}
	return canonical.Describe(v)
}

// sourceIssues checks the URLs of a body's sources and reproducibility
// artifacts: the schema asks only that they start with https:// and parse
// as URIs, and says in a description what the contract requires.
func sourceIssues(kind string, body any) []Issue {
	switch kind {
	case "research-node", "research-evidence", "evidence":
	default:
		return nil
	}
	obj, _ := body.(map[string]any)
	var issues []Issue
	check := func(v any, path string) {
		s, ok := v.(string)
		if !ok {
			return // the schema reports it
		}
		if msg := httpsProblem(s); msg != "" {
			issues = append(issues, Issue{Path: path, Code: IssueSourceURL, Message: msg})
		}
	}
	sources, _ := obj["sources"].([]any)
	for i, s := range sources {
		src, _ := s.(map[string]any)
		for _, name := range []string{"url", "archive_url"} {
			if v, ok := src[name]; ok {
				check(v, fmt.Sprintf("/body/sources/%d/%s", i, name))
			}
		}
	}
	repro, _ := obj["reproducibility"].(map[string]any)
	artifacts, _ := repro["artifacts"].([]any)
	for i, a := range artifacts {
		art, _ := a.(map[string]any)
		if v, ok := art["url"]; ok {
			check(v, fmt.Sprintf("/body/reproducibility/artifacts/%d/url", i))
		}
	}
	return issues
}

// httpsProblem says what keeps s from being an HTTPS URL with a host name
// and no credentials, or "" if nothing does.
func httpsProblem(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Sprintf("%s is not a URL: %v", shown(s), err)
	case u.Scheme != "https":
		return fmt.Sprintf("%s is not an HTTPS URL", shown(s))
	case u.User != nil:
		return "the URL must not carry a user name or password; sources are public"
	case u.Hostname() == "":
		return fmt.Sprintf("%s has no host name", shown(s))
	}
	return ""
}

// pointer writes JSON Pointer tokens as a pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

func escape(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// tidy sorts issues by path (array indexes compared as numbers), then code
// and message, so they read the same every time; drops repeats; and
// returns nil for none.
func tidy(issues []Issue) []Issue {
	if len(issues) == 0 {
		return nil
	}
	slices.SortFunc(issues, func(a, b Issue) int {
		return cmp.Or(jsonpointer.Compare(a.Path, b.Path), strings.Compare(a.Code, b.Code), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(issues)
}
