package library_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
)

// TestLimitsInSchema checks that the contract's limits block and its
// transport note say what the schema enforces, so no limit needs code of
// its own beyond the envelope's.
func TestLimitsInSchema(t *testing.T) {
	limits := member(contract(), "limits").(map[string]any)
	schema := member(contract(), "write_contract", "content_schema").(map[string]any)
	var evidence map[string]any
	for _, branch := range schema["allOf"].([]any) {
		b := branch.(map[string]any)
		if member(b, "if", "properties", "kind", "const") == "research-evidence" {
			evidence = member(b, "then", "properties", "body", "properties").(map[string]any)
		}
	}
	source := member(evidence, "sources", "items", "properties").(map[string]any)
	repro := member(evidence, "reproducibility", "properties").(map[string]any)
	for _, c := range []struct {
		limit string
		got   any
	}{
		{"source_count", member(evidence, "sources", "maxItems")},
		{"source_label_characters", source["label"].(map[string]any)["maxLength"]},
		{"source_url_characters", source["url"].(map[string]any)["maxLength"]},
		{"source_excerpt_characters", source["excerpt"].(map[string]any)["maxLength"]},
		{"source_locator_characters", source["locator"].(map[string]any)["maxLength"]},
		{"source_retrieved_at_characters", source["retrieved_at"].(map[string]any)["maxLength"]},
		{"reproducibility_text_characters", repro["environment"].(map[string]any)["maxLength"]},
		{"reproducibility_artifacts", repro["artifacts"].(map[string]any)["maxItems"]},
	} {
		if c.got != limits[c.limit] {
			t.Errorf("limits.%s is %v; the schema says %v", c.limit, limits[c.limit], c.got)
		}
	}
	transport := member(contract(), "write_contract", "transport").(string)
	for _, want := range []string{"65536 bytes", "<=48000 characters", "alexandria.contribution/3"} {
		if !strings.Contains(transport, want) {
			t.Errorf("the transport note no longer says %q: %s", want, transport)
		}
	}
	if library.MaxEnvelopeBytes != 65536 || library.MaxBodyChars != 48000 || library.Format != "alexandria.contribution/3" {
		t.Error("the package's limits are not the transport note's")
	}
}

func TestScopes(t *testing.T) {
	want := map[string]string{}
	for scope, kinds := range member(contract(), "write_contract", "scopes").(map[string]any) {
		for _, k := range kinds.([]any) {
			if prev, ok := want[k.(string)]; ok {
				t.Errorf("%s is under %s and %s", k, prev, scope)
			}
			want[k.(string)] = scope
		}
	}
	kinds := member(contract(), "write_contract", "content_schema", "properties", "kind", "enum").([]any)
	if len(kinds) != 19 {
		t.Fatalf("the schema names %d kinds, not 19", len(kinds))
	}
	for _, k := range kinds {
		got, ok := library.Scope(k.(string))
		if !ok || got != want[k.(string)] {
			t.Errorf("Scope(%s) = %q, %v; the contract says %q", k, got, ok, want[k.(string)])
		}
	}
	for _, k := range []string{"personal-state", "personal-read", ""} {
		if s, ok := library.Scope(k); ok {
			t.Errorf("Scope(%q) = %s; it is not published to /api/entries", k, s)
		}
	}
}

// TestContentIssues checks that each kind of refusal is reported at the
// JSON Pointer of what is wrong, with the keyword or code that refused it.
func TestContentIssues(t *testing.T) {
	id := strings.Repeat("a", 64)
	node := `{"type":"claim","statement":"s","scope":"s","assumptions":[],"sources":[%s],"programs":[]}`
	for _, tc := range []struct {
		name       string
		kind, body string // body as JSON
		title      string
		links      []library.Link
		previous   string
		want       []library.Issue // Path and Code
	}{
		{name: "map node not a revision ID", kind: "research-map",
			body: `{"summary":"s","question":"` + id + `","nodes":["` + id + `","XYZ"],"edges":[],"assessments":[],"message":"m"}`,
			want: []library.Issue{{Path: "/body/nodes/1", Code: "pattern"}}},
		{name: "missing member", kind: "research-node",
			body: `{"type":"claim","statement":"s","assumptions":[],"sources":[],"programs":[]}`,
			want: []library.Issue{{Path: "/body/scope", Code: "required"}}},
		{name: "extra member", kind: "discussion", body: `{"text":"t","extra":true}`,
			want: []library.Issue{{Path: "/body/extra", Code: "additionalProperties"}}},
		{name: "body of the wrong type", kind: "claim", body: `["s"]`,
			want: []library.Issue{{Path: "/body", Code: "type"}}},
		{name: "edge relation", kind: "research-map",
			body: `{"summary":"s","question":"` + id + `","nodes":["` + id + `"],"edges":[{"from":"` + id + `","to":"` + id + `","relation":"causes"}],"assessments":[],"message":"m"}`,
			want: []library.Issue{{Path: "/body/edges/0/relation", Code: "enum"}}},
		{name: "blank title", kind: "space", body: `{"summary":"s"}`, title: "   ",
			want: []library.Issue{{Path: "/title", Code: "pattern"}}},
		{name: "empty title", kind: "space", body: `{"summary":"s"}`, title: "-",
			want: []library.Issue{{Path: "/title", Code: "minLength"}, {Path: "/title", Code: "pattern"}}},
		{name: "long title", kind: "space", body: `{"summary":"s"}`, title: strings.Repeat("t", 201),
			want: []library.Issue{{Path: "/title", Code: "maxLength"}}},
		{name: "link relation", kind: "thread", body: `"b"`, links: []library.Link{{Relation: "Cites", Target: id}},
			want: []library.Issue{{Path: "/links/0/relation", Code: "pattern"}}},
		{name: "link target", kind: "thread", body: `"b"`, links: []library.Link{{Relation: "cites", Target: "op:" + id}},
			want: []library.Issue{{Path: "/links/0/target", Code: "pattern"}}},
		{name: "previous", kind: "thread", body: `"b"`, previous: "HEAD",
			want: []library.Issue{{Path: "/previous", Code: "anyOf"}}},
		{name: "personal lists are not entries", kind: "personal-state", body: `"{}"`,
			want: []library.Issue{{Path: "/kind", Code: "enum"}}},
		{name: "vote value", kind: "vote", body: `"2"`,
			want: []library.Issue{{Path: "/body", Code: "enum"}}},
		{name: "duplicate evidence", kind: "assessment",
			body: `{"claim":"` + id + `","verdict":"supported","rationale":"r","evidence":["` + id + `","` + id + `"]}`,
			want: []library.Issue{{Path: "/body/evidence/1", Code: "uniqueItems"}}},
		{name: "retrieved_at not a time", kind: "research-node",
			body: strings.Replace(node, "%s", `{"label":"l","url":"https://example.org/a","retrieved_at":"yesterdayZ"}`, 1),
			want: []library.Issue{{Path: "/body/sources/0/retrieved_at", Code: "format"}}},
		{name: "plain HTTP source", kind: "research-node",
			body: strings.Replace(node, "%s", `{"label":"l","url":"http://example.org/a"}`, 1),
			want: []library.Issue{{Path: "/body/sources/0/url", Code: "pattern"}, {Path: "/body/sources/0/url", Code: library.IssueSourceURL}}},
		{name: "source with credentials", kind: "research-node",
			body: strings.Replace(node, "%s", `{"label":"l","url":"https://example.org/a"},{"label":"l","url":"https://me:secret@example.org/a"}`, 1),
			want: []library.Issue{{Path: "/body/sources/1/url", Code: library.IssueSourceURL}}},
		{name: "archive without host", kind: "evidence",
			body: `{"claim":"` + id + `","method":"source","content":"c","sources":[{"label":"l","url":"https://example.org","archive_url":"https:///x"}]}`,
			want: []library.Issue{{Path: "/body/sources/0/archive_url", Code: library.IssueSourceURL}}},
		{name: "artifact with credentials", kind: "research-evidence",
			body: `{"node":"` + id + `","method":"experiment","content":"c","sources":[],"programs":[],"reproducibility":{"status":"claimed","environment":"e","inputs":"i","outputs":"o","artifacts":[{"label":"l","url":"https://token@example.org/f","digest":"` + id + `"}]}}`,
			want: []library.Issue{{Path: "/body/reproducibility/artifacts/0/url", Code: library.IssueSourceURL}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := recordOf(t, tc.kind, tc.title, tc.body, tc.links, tc.previous)
			got := library.ValidateContent(r)
			var brief []library.Issue
			for _, is := range got {
				if is.Message == "" {
					t.Errorf("issue %s %s has no message", is.Path, is.Code)
				}
				brief = append(brief, library.Issue{Path: is.Path, Code: is.Code})
			}
			if !slices.Equal(brief, tc.want) {
				t.Fatalf("issues %v, want %v", got, tc.want)
			}
		})
	}
}

// recordOf makes a record whose body is given as JSON (a string's JSON for
// text kinds), bypassing NewRecord's encoding where needed.
func recordOf(t *testing.T, kind, title, body string, links []library.Link, previous string) *library.Record {
	t.Helper()
	v, err := canonical.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if title == "" {
		title = "Title"
	} else if title == "-" {
		title = ""
	}
	r, err := library.NewRecord(library.Content{Kind: kind, Title: title, Body: v, Links: links, Previous: previous}, zeros, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBodyEncoding(t *testing.T) {
	r := recordOf(t, "space", "", `{"summary":"s"}`, nil, "")
	if issues := library.ValidateContent(r); issues != nil {
		t.Fatalf("canonical body refused: %v", issues)
	}

	r.Body = `{ "summary": "s" }`
	issues := library.ValidateContent(r)
	if len(issues) != 1 || issues[0].Path != "/body" || issues[0].Code != library.IssueBodyCanonical {
		t.Fatalf("spaced body: %v", issues)
	}

	// A body that is not JSON is one issue, not also the schema's word
	// that a string is not an object.
	r.Body = `summary: s`
	issues = library.ValidateContent(r)
	if len(issues) != 1 || issues[0].Path != "/body" || issues[0].Code != library.IssueBodyJSON {
		t.Fatalf("non-JSON body: %v", issues)
	}
	if _, err := r.Content(); err == nil {
		t.Error("Content decoded a non-JSON body")
	}

	// A text kind's body is the text, whatever it looks like.
	r = recordOf(t, "reply", "", `"{ \"not\": \"decoded\" }"`, []library.Link{{Relation: "replies_to", Target: zeros}}, "")
	if issues := library.ValidateContent(r); issues != nil {
		t.Fatalf("text body refused: %v", issues)
	}
	c, err := r.Content()
	if err != nil || c.Body != `{ "not": "decoded" }` {
		t.Fatalf("Content() = %#v, %v", c.Body, err)
	}
}

// TestBodyCanonicalHint checks that the body_canonical issue names what
// makes a body differ from its canonical form, and only that: a client
// whose JSON encoder escapes strings otherwise than RFC 8785 is told that
// its escaping, not its whitespace or order, is the difference.
func TestBodyCanonicalHint(t *testing.T) {
	const escaping, whitespace, order, numbers = "string escaping", "whitespace", "member order", "number form"
	for _, tc := range []struct {
		name, kind, body string
		say              []string
		example          string // the first escape, as the hint shows it
	}{
		{"a character escaped", "space", `{"summary":"caf\u00e9"}`, []string{escaping}, `\u00e9 is written é`},
		{"a solidus escaped", "space", `{"summary":"a\/b"}`, []string{escaping}, `\/ is written /`},
		{"uppercase hex", "space", `{"summary":"bell\u001F"}`, []string{escaping}, `\u001F is written \u001f`},
		{"a newline by its code", "space", `{"summary":"a\u000ab"}`, []string{escaping}, `\u000a is written \n`},
		{"a surrogate pair", "space", `{"summary":"\ud83d\ude00"}`, []string{escaping}, `\ud83d\ude00 is written 😀`},
		{"an escaped member name", "space", `{"\u0073ummary":"s"}`, []string{escaping}, `\u0073 is written s`},
		{"spaced", "space", `{ "summary": "s" }`, []string{whitespace}, ""},
		{"unsorted", "claim", `{"statement":"s","scope":"s","assumptions":[]}`, []string{order}, ""},
		{"a number's form", "space", `{"n":1.0,"summary":"s"}`, []string{numbers}, ""},
		{"everything", "claim", `{"statement": "caf\u00e9", "scope":"s","assumptions":[1E2]}`, []string{whitespace, order, numbers, escaping}, `\u00e9 is written é`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := recordOf(t, tc.kind, "", `{}`, nil, "")
			r.Body = tc.body
			var hint string
			for _, is := range library.ValidateContent(r) {
				if is.Code == library.IssueBodyCanonical {
					hint = is.Message
				}
			}
			if hint == "" {
				t.Fatalf("no body_canonical issue for %s", tc.body)
			}
			for _, d := range []string{escaping, whitespace, order, numbers} {
				if says := strings.Contains(hint, d); says != slices.Contains(tc.say, d) {
					t.Errorf("%s: the hint says %q: %v, want %v: %s", tc.body, d, says, !says, hint)
				}
			}
			if tc.example != "" && !strings.Contains(hint, tc.example) {
				t.Errorf("%s: the hint does not show %q: %s", tc.body, tc.example, hint)
			}
		})
	}
}

func TestIssueJSON(t *testing.T) {
	b, err := json.Marshal(library.Issue{Path: "/body/nodes/1", Code: "pattern", Message: "m"})
	if err != nil || string(b) != `{"path":"/body/nodes/1","code":"pattern","message":"m"}` {
		t.Fatalf("%s %v", b, err)
	}
}
