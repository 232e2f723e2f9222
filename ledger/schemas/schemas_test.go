package schemas

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/vocabulary"
)

const (
	hex64   = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	claimID = "claim:" + hex64
	digest  = "sha256:" + hex64
)

// parse reads a test file as the node reads a bundle's JSON.
func parse(t testing.TB, text string) any {
	t.Helper()
	v, err := canonical.Parse([]byte(text))
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	return v
}

// want is an issue a test expects: its exact path and words its message
// holds.
type want struct {
	path, says string
}

// checkIssues compares issues with what a test expects, in order.
func checkIssues(t *testing.T, got []Issue, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Fatalf("got %d issues, want %d:\n%s", len(got), len(wants), format(got))
	}
	for i, w := range wants {
		if got[i].Path != w.path || !strings.Contains(got[i].Message, w.says) {
			t.Errorf("issue %d is %q: %q; want %q: …%q…", i, got[i].Path, got[i].Message, w.path, w.says)
		}
	}
}

func format(issues []Issue) string {
	var b strings.Builder
	for _, is := range issues {
		b.WriteString("  " + is.Path + ": " + is.Message + "\n")
	}
	return b.String()
}

func TestDocuments(t *testing.T) {
	for _, name := range Names() {
		text, ok := Document(name)
		if !ok {
			t.Fatalf("Document(%q) is missing", name)
		}
		var doc map[string]any
		if err := json.Unmarshal(text, &doc); err != nil {
			t.Fatalf("%s is not JSON: %v", name, err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s declares $schema %v, not draft 2020-12", name, doc["$schema"])
		}
		if d, _ := doc["description"].(string); d == "" {
			t.Errorf("%s has no description for the authors who read it", name)
		}
		if compiled()[name].compiled == nil {
			t.Errorf("%s did not compile", name)
		}
		// The caller owns the bytes: spoiling them spoils no later answer.
		clear(text)
		if again, _ := Document(name); bytes.Equal(again, text) {
			t.Errorf("Document(%q) shares its bytes between calls", name)
		}
	}
	for _, name := range []string{"", "paper.md", "../schemas.go", "claims", "Claims.json", "data/external.json"} {
		if _, ok := Document(name); ok {
			t.Errorf("Document(%q) serves something", name)
		}
	}
}

// TestVocabularyAgrees keeps the documents in step with the vocabulary the
// node publishes at GET /api/v1/vocabulary and with package claims.
func TestVocabularyAgrees(t *testing.T) {
	at := func(name, pointer string) map[string]any {
		n := compiled()[name].node("#" + pointer)
		if n == nil {
			t.Fatalf("%s has nothing at %s", name, pointer)
		}
		return n
	}
	strs := func(v any) []string {
		var out []string
		for _, s := range v.([]any) {
			out = append(out, s.(string))
		}
		return out
	}
	num := func(v any) int {
		n, err := v.(json.Number).Int64()
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	for _, c := range []struct {
		got, want []string
		what      string
	}{
		{strs(at("materials.json", "/items/properties/kind")["enum"]), vocabulary.MaterialKinds, "material kinds"},
		{strs(at("deviations.json", "/items/properties/kind")["enum"]), vocabulary.DeviationKinds, "deviation kinds"},
		{strs(at("claims.json", "/$defs/claim/properties/type")["enum"]), claims.Types, "claim types"},
		{strs(at("claims.json", "/$defs/proof/properties/checker")["enum"]), claims.Checkers, "proof checkers"},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: the schema says %v, the vocabulary %v", c.what, c.got, c.want)
		}
	}
	for _, c := range []struct {
		got, want int
		what      string
	}{
		{num(at("materials.json", "")["maxItems"]), vocabulary.MaxMaterials, "materials"},
		{num(at("deviations.json", "")["maxItems"]), vocabulary.MaxDeviations, "deviations"},
		{num(at("claims.json", "")["maxItems"]), claims.MaxClaims, "claims"},
		{num(at("claims.json", "/$defs/proof/properties/theorem")["maxLength"]), claims.MaxTheorem, "theorem length"},
		{num(at("deviations.json", "/items/properties/claims")["maxItems"]), claims.MaxClaims, "claims a deviation names"},
		{num(at("references.json", "/$defs/supports")["maxItems"]), claims.MaxClaims, "claims a reference supports"},
		{num(at("external.json", "/items/properties/bytes")["maximum"]), MaxExternalBytes, "bytes of one pointed-at file"},
	} {
		if c.got != c.want {
			t.Errorf("%s: the schema says %d, the code %d", c.what, c.got, c.want)
		}
	}
}

func TestMaterials(t *testing.T) {
	for _, valid := range []string{
		`[]`,
		`[{"kind": "antibody", "name": "Anti-NeuN, clone A60", "source": "Millipore", "catalog": "MAB377", "lot": "3912345", "rrid": "RRID:AB_2298772"}]`,
		`[{"kind": "cell_line", "name": "HeLa", "rrid": "RRID:CVCL_0030", "details": "passage 12, STR-authenticated"}, {"kind": "other", "name": "x"}]`,
		`[{"kind": "software", "name": "` + strings.Repeat("n", 300) + `", "rrid": "RRID:SCR_002798"}]`,
	} {
		if issues := Validate("materials.json", parse(t, valid)); issues != nil {
			t.Errorf("%s:\n%s", valid, format(issues))
		}
	}
	for _, c := range []struct {
		text  string
		wants []want
	}{
		{`{}`, []want{{"", "must be an array, not an object"}}},
		{`[{"name": "x"}]`, []want{{"/0/kind", "kind is required"}}},
		{`[{"kind": "reagent", "name": "x"}]`, []want{{"/0/kind", `"reagent" is not one of antibody, cell_line,`}}},
		{`[{"kind": "kit", "name": ""}]`, []want{{"/0/name", "must not be empty"}}},
		{`[{"kind": "kit", "name": "` + strings.Repeat("n", 301) + `"}]`, []want{{"/0/name", "at most 300 characters, not 301"}}},
		{`[{"kind": "kit", "name": "x", "lot": 42}]`, []want{{"/0/lot", "must be a string, not a number"}}},
		{`[{"kind": "kit", "name": "x", "vendor": "y"}]`, []want{{"/0", `has no member "vendor": only catalog, details, kind, lot, name, rrid and source are allowed`}}},
		{`[{"kind": "antibody", "name": "x", "rrid": "AB_2298772"}]`, []want{{"/0/rrid", `"AB_2298772" is not valid here: expected an RRID (Research Resource Identifier)`}}},
		{`[{"kind": "antibody", "name": "x", "rrid": "RRID:AB_1\n"}]`, []want{{"/0/rrid", "is not valid here"}}},
		{`[{"kind": "kit", "name": "x"}, 7, {"kind": "kit"}]`, []want{{"/1", "must be an object, not a number"}, {"/2/name", "name is required"}}},
		{`[` + strings.Repeat(`{"kind": "kit", "name": "x"},`, 500) + `{"kind": "kit", "name": "x"}]`, []want{{"", "holds 501 entries; at most 500 are allowed"}}},
	} {
		checkIssues(t, Validate("materials.json", parse(t, c.text)), c.wants)
	}
}

func TestDeviations(t *testing.T) {
	for _, valid := range []string{
		`[]`,
		`[{"from": "` + claimID + `", "kind": "unstated", "detail": "The original doesn't say how the sample was dried; we dried it at 60 °C for 12 hours."}]`,
		`[{"from": "prereg:` + hex64 + `", "kind": "changed", "detail": "We used 5 seeds, not 3.", "claims": ["C1", "C2-b"]}]`,
	} {
		if issues := Validate("deviations.json", parse(t, valid)); issues != nil {
			t.Errorf("%s:\n%s", valid, format(issues))
		}
	}
	for _, c := range []struct {
		text  string
		wants []want
	}{
		{`[{"from": "claim:` + strings.ToUpper(hex64) + `", "kind": "changed", "detail": "x"}]`, []want{{"/0/from", "expected a global claim ID (claim: and 64 lowercase hex digits)"}}},
		{`[{"from": "idea:` + hex64 + `", "kind": "changed", "detail": "x"}]`, []want{{"/0/from", "is not valid here"}}},
		{`[{"from": "C1", "kind": "changed", "detail": "x"}]`, []want{{"/0/from", "is not valid here"}}},
		{`[{"from": "` + claimID + `", "kind": "different", "detail": "x"}]`, []want{{"/0/kind", `"different" is not one of changed, unstated`}}},
		{`[{"from": "` + claimID + `", "kind": "changed"}]`, []want{{"/0/detail", "detail is required"}}},
		{`[{"from": "` + claimID + `", "kind": "changed", "detail": "` + strings.Repeat("d", 2001) + `"}]`, []want{{"/0/detail", "at most 2000 characters, not 2001"}}},
		{`[{"from": "` + claimID + `", "kind": "changed", "detail": "x", "claims": []}]`, []want{{"/0/claims", "must hold at least 1 entry, not 0"}}},
		{`[{"from": "` + claimID + `", "kind": "changed", "detail": "x", "claims": ["C1", "claim:x"]}]`, []want{{"/0/claims/1", `"claim:x" is not valid here: expected a local claim ID`}}},
		{`[{"from": "` + claimID + `", "kind": "changed", "detail": "x", "note": "y"}]`, []want{{"/0", `has no member "note"`}}},
		{`[` + strings.Repeat(`{"from": "`+claimID+`", "kind": "changed", "detail": "x"},`, 200) + `{"from": "` + claimID + `", "kind": "changed", "detail": "x"}]`, []want{{"", "holds 201 entries; at most 200 are allowed"}}},
	} {
		checkIssues(t, Validate("deviations.json", parse(t, c.text)), c.wants)
	}
}

func TestReferences(t *testing.T) {
	for _, valid := range []string{
		`[]`,
		`[{"id": "doi:10.1038/s41586-024-07566-y", "title": "AI models collapse when trained on recursively generated data", "authors": ["Shumailov, I."], "year": 2024, "claims": ["C3"]}]`,
		`[{"id": "` + claimID + `"}, {"id": "` + "claim:" + strings.Repeat("1", 64) + `", "claims": []}]`,
		`[{"id": "arxiv:2401.01234v2", "title": "t", "authors": ["a"], "year": 2024}, {"id": "arxiv:hep-th/9901001", "title": "t", "authors": ["a"], "year": 1999, "claims": []}]`,
		`[{"id": "pmid:12345678", "title": "t", "authors": ["a", "b"], "year": 1}]`,
		`[{"id": "idea:` + hex64 + `"}, {"id": "thread:` + hex64 + `"}, {"id": "post:` + hex64 + `"}, {"id": "task:` + hex64 + `"}, {"id": "prereg:` + hex64 + `"}, {"id": "swarm:` + hex64 + `", "claims": ["C1"]}, {"id": "goal:` + hex64 + `"}]`,
	} {
		if issues := Validate("references.json", parse(t, valid)); issues != nil {
			t.Errorf("%s:\n%s", valid, format(issues))
		}
	}
	external := func(id string) string {
		return `{"id": "` + id + `", "title": "t", "authors": ["a"], "year": 2024}`
	}
	for _, c := range []struct {
		text  string
		wants []want
	}{
		{`[{"claims": ["C1"]}]`, []want{{"/0/id", "id is required"}}},
		{`[{"id": "doi:10.1038/x"}]`, []want{{"/0/authors", "authors is required"}, {"/0/title", "title is required"}, {"/0/year", "year is required"}}},
		{`[` + external("doi:10.1/x") + `]`, []want{{"/0/id", `"doi:10.1/x" is not valid here: expected a DOI (doi:10.<registrant>/<suffix>)`}}},
		{`[` + external("doi:10.1038/a b") + `]`, []want{{"/0/id", "is not valid here"}}},
		{`[` + external("doi:10.1038/a\u00a0b") + `]`, []want{{"/0/id", "holds white space (U+00A0)"}}},
		{`[` + external("arxiv:2401.1") + `]`, []want{{"/0/id", "is not valid here"}}},
		{`[` + external("pmid:0123") + `]`, []want{{"/0/id", "is not valid here"}}},
		{`[{"id": "isbn:9780262033848"}]`, []want{{"/0/id", "expected an ID on the ledger (claim:, task:, idea:, thread:, post:, prereg:, swarm:, or goal:"}}},
		{`[{"id": "` + claimID + `", "title": "t"}]`, []want{{"/0", `has no member "title": only claims and id are allowed`}}},
		{`[{"id": "doi:10.1038/x", "title": "t", "authors": ["a"], "year": 2024.5}]`, []want{{"/0/year", "must be a whole number, not 2024.5"}}},
		{`[{"id": "doi:10.1038/x", "title": "t", "authors": ["a"], "year": 10000}]`, []want{{"/0/year", "must be at most 9999, not 10000"}}},
		{`[{"id": "doi:10.1038/x", "title": "", "authors": [], "year": 2024}]`, []want{{"/0/authors", "must hold at least 1 entry, not 0"}, {"/0/title", "must not be empty"}}},
		{`[{"id": "doi:10.1038/x", "title": "t", "authors": [""], "year": 2024, "doi": "x"}]`, []want{{"/0", `has no member "doi": only authors, claims, id, title and year are allowed`}, {"/0/authors/0", "must not be empty"}}},
		{`[{"id": "` + claimID + `", "claims": "C1"}]`, []want{{"/0/claims", "must be an array, not a string"}}},
		{`[{"id": "` + claimID + `", "claims": ["C:1"]}]`, []want{{"/0/claims/0", "expected a local claim ID"}}},
		// Each ID appears once; the later listing is the one at fault.
		{`[{"id": "` + claimID + `"}, ` + external("doi:10.1038/x") + `, {"id": "` + claimID + `", "claims": ["C1"]}, ` + external("doi:10.1038/x") + `]`,
			[]want{{"/2/id", "is listed twice, first as reference 0"}, {"/3/id", "is listed twice, first as reference 1"}}},
	} {
		checkIssues(t, Validate("references.json", parse(t, c.text)), c.wants)
	}
}

func TestExternal(t *testing.T) {
	entry := func(members ...string) string {
		m := map[string]string{
			"path":    `"data/nhanes/DEMO_L.xpt"`,
			"url":     `"https://wwwn.cdc.gov/Nchs/Data/Nhanes/Public/2021/DataFiles/DEMO_L.xpt"`,
			"sha256":  `"` + digest + `"`,
			"bytes":   `4194304`,
			"license": `"public-domain"`,
		}
		for i := 0; i+1 < len(members); i += 2 {
			if members[i+1] == "" {
				delete(m, members[i])
			} else {
				m[members[i]] = members[i+1]
			}
		}
		var parts []string
		for _, k := range []string{"path", "url", "sha256", "bytes", "license", "doi", "mirror"} {
			if v, ok := m[k]; ok {
				parts = append(parts, `"`+k+`": `+v)
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	for _, valid := range []string{
		`[` + entry() + `]`,
		`[` + entry() + `, ` + entry("path", `"data/nhanes/BMX_L.xpt"`, "url", `"https://example.org/BMX_L.xpt?v=2#top"`, "doi", `"10.5281/zenodo.1234567"`, "license", `"CC-BY-4.0"`) + `]`,
		`[` + entry("url", `"https://[2001:db8::1]:8443/a@b.csv"`) + `]`,
		`[` + entry("bytes", `10000000000000`) + `]`,
	} {
		if issues := Validate("external.json", parse(t, valid)); issues != nil {
			t.Errorf("%s:\n%s", valid, format(issues))
		}
	}
	for _, c := range []struct {
		text  string
		wants []want
	}{
		{`[]`, []want{{"", "must hold at least 1 entry, not 0"}}},
		// A DOI alone names a landing page, not the bytes.
		{`[` + entry("url", "", "doi", `"10.18112/openneuro.ds000001.v1.0.0"`) + `]`, []want{{"/0/url", "url is required"}}},
		{`[` + entry("url", `"http://example.org/a.csv"`) + `]`, []want{{"/0/url", `"http://example.org/a.csv" is not valid here: expected the https URL of the file's exact bytes`}}},
		{`[` + entry("url", `"https://exa mple.org/a.csv"`) + `]`, []want{{"/0/url", "is not valid here"}}},
		{`[` + entry("url", `"https:example.org"`) + `]`, []want{{"/0/url", "is not valid here"}}},
		{`[` + entry("url", `"https://user:secret@example.org/a.csv"`) + `]`, []want{{"/0/url", "no user name or password"}}},
		{`[` + entry("url", `"https://example.org:99999/a.csv"`) + `]`, []want{{"/0/url", `has port "99999"`}}},
		{`[` + entry("url", `"https://exa<mple.org/a.csv"`) + `]`, []want{{"/0/url", "holds a character no host may hold"}}},
		{`[` + entry("url", `"https://example.org/a\u2003b.csv"`) + `]`, []want{{"/0/url", "holds white space (U+2003)"}}},
		{`[` + entry("url", `"https://`+strings.Repeat("a", 2048)+`"`) + `]`, []want{{"/0/url", "at most 2048 characters"}}},
		{`[` + entry("path", `"code/helper.py"`) + `]`, []want{{"/0/path", `"code/helper.py" is not valid here: expected a path under data/`}}},
		{`[` + entry("sha256", `"sha256:`+strings.ToUpper(hex64)+`"`) + `]`, []want{{"/0/sha256", "expected a digest of the file's bytes"}}},
		{`[` + entry("bytes", `0`) + `]`, []want{{"/0/bytes", "must be at least 1, not 0"}}},
		{`[` + entry("bytes", `1.5`) + `]`, []want{{"/0/bytes", "must be a whole number, not 1.5"}}},
		{`[` + entry("bytes", `10000000000001`) + `]`, []want{{"/0/bytes", "must be at most 10000000000000"}}},
		{`[` + entry("license", `""`) + `]`, []want{{"/0/license", "must not be empty"}}},
		{`[` + entry("license", "") + `]`, []want{{"/0/license", "license is required"}}},
		{`[` + entry("doi", `"doi:10.5281/zenodo.1"`) + `]`, []want{{"/0/doi", "expected a DOI of the dataset"}}},
		{`[` + entry("mirror", `"https://example.org"`) + `]`, []want{{"/0", `has no member "mirror"`}}},
		// No more than any verifier can say it downloads, all together.
		{`[` + strings.Repeat(entry("bytes", `1000000000000`)+`, `, 10) + entry("bytes", `1`) + `]`,
			[]want{{"", "more than the 10 TB (10000000000000 bytes) any verifier can say it downloads"}}},
	} {
		checkIssues(t, Validate("external.json", parse(t, c.text)), c.wants)
	}
	ten := `[` + strings.Repeat(entry("bytes", `1000000000000`)+`, `, 9) + entry("bytes", `1000000000000`) + `]`
	if issues := Validate("external.json", parse(t, ten)); issues != nil {
		t.Errorf("10 TB in all is allowed:\n%s", format(issues))
	}
}

// TestCodePointLengths: limits count code points, as the reference's zod
// schemas count them, so a character beyond U+FFFF weighs one. The limits
// of every file, at the limit and one over, are in testdata/lengths.
func TestCodePointLengths(t *testing.T) {
	const emoji = "\U0001F9EA" // a test tube, two UTF-16 code units but one code point
	fits := `[{"kind": "kit", "name": "` + strings.Repeat(emoji, 300) + `"}]`
	if issues := Validate("materials.json", parse(t, fits)); issues != nil {
		t.Errorf("300 code points fit:\n%s", format(issues))
	}
	over := `[{"kind": "kit", "name": "` + strings.Repeat(emoji, 301) + `"}]`
	checkIssues(t, Validate("materials.json", parse(t, over)), []want{{"/0/name", "must be at most 300 characters, not 301"}})
	// Reached through $ref, then and else too.
	title := `[{"id": "doi:10.1038/x", "title": "` + strings.Repeat(emoji, 501) + `", "authors": ["` + strings.Repeat(emoji, 201) + `"], "year": 2024}]`
	checkIssues(t, Validate("references.json", parse(t, title)), []want{
		{"/0/authors/0", "must be at most 200 characters, not 201"},
		{"/0/title", "must be at most 500 characters, not 501"},
	})
}

// TestNumbersAsDecoded: a file decoded by encoding/json, with or without
// UseNumber, is judged as canonical.Parse's reading of it.
func TestNumbersAsDecoded(t *testing.T) {
	text := `[{"id": "doi:10.1038/x", "title": "t", "authors": ["a"], "year": 2024.5}, {"id": "doi:10.1038/y", "title": "t", "authors": ["a"], "year": 1e4}]`
	want := Validate("references.json", parse(t, text))
	if len(want) != 2 {
		t.Fatalf("want 2 issues, got:\n%s", format(want))
	}
	var plainDecoded any
	if err := json.Unmarshal([]byte(text), &plainDecoded); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var numbers any
	if err := dec.Decode(&numbers); err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{plainDecoded, numbers} {
		if got := Validate("references.json", v); !slices.Equal(got, want) {
			t.Errorf("got\n%swant\n%s", format(got), format(want))
		}
	}
	// json.Number stays in the caller's value: Validate copies what it converts.
	if _, ok := numbers.([]any)[0].(map[string]any)["year"].(json.Number); !ok {
		t.Error("Validate changed the caller's value")
	}
	claimsText := `[{"local_id": "C1", "type": "theoretical", "core": true, "statement": "s", "evidence": [], "depends_on": [], "confidence": 0.5}]`
	dec = json.NewDecoder(strings.NewReader(claimsText))
	dec.UseNumber()
	if err := dec.Decode(&numbers); err != nil {
		t.Fatal(err)
	}
	if issues := Validate("claims.json", numbers); issues != nil {
		t.Errorf("claims.json with json.Number:\n%s", format(issues))
	}
}

func TestUnknownSchema(t *testing.T) {
	checkIssues(t, Validate("paper.md", []any{}), []want{{"", `no schema is named "paper.md"`}})
}

// TestClaimsSchemaAgrees: the claims schema the node serves accepts and
// refuses what claims.Validate does, but for what only the validator can
// see, the dependency graph.
func TestClaimsSchemaAgrees(t *testing.T) {
	claim := func(members ...string) string {
		m := map[string]string{
			"local_id": `"C1"`, "type": `"theoretical"`, "core": `true`, "statement": `"s"`,
			"evidence": `[]`, "depends_on": `[]`, "confidence": `0.5`,
		}
		for i := 0; i+1 < len(members); i += 2 {
			if members[i+1] == "" {
				delete(m, members[i])
			} else {
				m[members[i]] = members[i+1]
			}
		}
		var parts []string
		for k, v := range m {
			parts = append(parts, `"`+k+`": `+v)
		}
		slices.Sort(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	computation := `{"result": "R1.loss", "produced_by": "code/train.py", "tolerance": 0.01}`
	measurement := `{"result": "R2.rows.0.temp", "measured": "data/raw.csv"}`
	proof := `{"proof": "proofs/Main.lean", "theorem": "main_theorem", "checker": "lean4"}`
	for _, c := range []struct {
		text  string
		valid bool
	}{
		{`[` + claim() + `]`, true},
		{`[` + claim("type", `"empirical"`, "evidence", `[`+computation+`, `+measurement+`]`, "falsified_if", `"loss rises"`) + `]`, true},
		{`[` + claim("evidence", `[`+proof+`]`, "depends_on", `["`+claimID+`"]`) + `, ` + claim("local_id", `"C2"`, "depends_on", `["C1"]`, "confidence", `1`) + `]`, true},
		{`[]`, false},
		{`{}`, false},
		{`[` + strings.Repeat(claim()+`, `, 30) + claim() + `]`, false},
		{`[` + claim("type", `"empirical"`) + `]`, false},
		{`[` + claim("type", `"conjecture"`) + `]`, false},
		{`[` + claim("local_id", `"claim:1"`) + `]`, false},
		{`[` + claim("local_id", "") + `]`, false},
		{`[` + claim("core", `"yes"`) + `]`, false},
		{`[` + claim("statement", `""`) + `]`, false},
		{`[` + claim("confidence", `1.5`) + `]`, false},
		{`[` + claim("confidence", `-0.1`) + `]`, false},
		{`[` + claim("falsified_if", `""`) + `]`, false},
		{`[` + claim("title", `"x"`) + `]`, false},
		{`[` + claim("depends_on", `["claim:`+strings.ToUpper(hex64)+`"]`) + `]`, false},
		{`[` + claim("evidence", `[{"result": "R1.loss", "produced_by": "data/x.py"}]`) + `]`, false},
		{`[` + claim("evidence", `[{"result": "R1", "produced_by": "code/x.py"}]`) + `]`, false},
		{`[` + claim("evidence", `[{"result": "R1.a", "produced_by": "code/x.py", "measured": "data/x"}]`) + `]`, false},
		{`[` + claim("evidence", `[{"result": "R1.a", "produced_by": "code/x.py", "tolerance": -1}]`) + `]`, false},
		{`[` + claim("evidence", `[{"result": "R1.a"}]`) + `]`, false},
		{`[` + claim("evidence", `[{"proof": "proofs/a.v", "theorem": "t", "checker": "coq"}]`) + `]`, false},
		{`[` + claim("evidence", `[{"proof": "proofs/a.v", "theorem": "`+strings.Repeat("t", 501)+`", "checker": "rocq"}]`) + `]`, false},
		{`[` + claim("evidence", `["code/x.py"]`) + `]`, false},
	} {
		v := parse(t, c.text)
		schemaIssues := compiled()["claims.json"].check(v)
		validatorIssues := claims.Validate(v)
		if (schemaIssues == nil) != c.valid || (validatorIssues == nil) != c.valid {
			t.Errorf("%s\nwant valid=%v; the schema says\n%sclaims.Validate says\n%s", c.text, c.valid, format(schemaIssues), format(validatorIssues))
		}
	}
	// The graph is beyond any JSON Schema: the schema lets these through and
	// claims.Validate, which Validate hands claims.json to, does not.
	for _, text := range []string{
		`[` + claim() + `, ` + claim() + `]`,
		`[` + claim("depends_on", `["C9"]`) + `]`,
		`[` + claim("depends_on", `["C2"]`) + `, ` + claim("local_id", `"C2"`, "depends_on", `["C1"]`) + `]`,
	} {
		v := parse(t, text)
		if issues := compiled()["claims.json"].check(v); issues != nil {
			t.Errorf("the schema refuses %s:\n%s", text, format(issues))
		}
		if Validate("claims.json", v) == nil {
			t.Errorf("Validate accepts %s", text)
		}
	}
}

// TestValidateConcurrently: the node checks many bundles at once, and the
// compiled schemas are shared between them.
func TestValidateConcurrently(t *testing.T) {
	text := `[{"kind": "kit", "name": ""}, {"kind": "x", "name": "y"}]`
	want := Validate("materials.json", parse(t, text))
	done := make(chan []Issue)
	for range 8 {
		go func() { done <- Validate("materials.json", parse(t, text)) }()
	}
	for range 8 {
		if got := <-done; !slices.Equal(got, want) {
			t.Errorf("got\n%swant\n%s", format(got), format(want))
		}
	}
}
