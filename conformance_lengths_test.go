package agora_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/paper"
	"github.com/agora-node/agora/ledger/schemas"
)

// lengthCase is one case of a testdata/lengths file; that file's
// description says what each member means.
type lengthCase struct {
	Name      string          `json:"name"`
	Validator string          `json:"validator"`
	Rule      string          `json:"rule"`
	Counts    string          `json:"counts"`
	Limit     int             `json:"limit"`
	Document  json.RawMessage `json:"document"`
	Text      struct {
		Prefix string `json:"prefix"`
		Repeat string `json:"repeat"`
		Times  int    `json:"times"`
		Suffix string `json:"suffix"`
	} `json:"text"`
	Trimmed bool   `json:"trimmed"`
	Valid   bool   `json:"valid"`
	Path    string `json:"path"`
}

// TestLengthVectors runs every case of testdata/lengths through the
// validator it names: each length rule a bundle's files keep, at its limit
// and one over, with characters beyond U+FFFF, counted the way the
// reference counts that rule.
func TestLengthVectors(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "lengths", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no vector files in testdata/lengths: %v", err)
	}
	for _, path := range names {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Cases []lengthCase `json:"cases"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(file.Cases) == 0 {
			t.Fatalf("%s holds no cases", path)
		}
		for _, c := range file.Cases {
			t.Run(c.Name, func(t *testing.T) { runLengthCase(t, c) })
		}
	}
}

func runLengthCase(t *testing.T, c lengthCase) {
	text := c.Text.Prefix + strings.Repeat(c.Text.Repeat, c.Text.Times) + c.Text.Suffix
	// The case itself: its text measures what it says, in the unit it
	// says, so a vector cannot drift from the rule it states.
	measured := text
	if c.Trimmed {
		measured = strings.TrimFunc(text, isJSWhiteSpace)
	}
	var n int
	switch c.Counts {
	case "code points":
		n = utf8.RuneCountInString(measured)
	case "utf16 units":
		n = canonical.UTF16Len(measured)
	default:
		t.Fatalf("counts %q is neither \"code points\" nor \"utf16 units\"", c.Counts)
	}
	want := c.Limit
	if !c.Valid {
		want++
	}
	if n != want {
		t.Fatalf("the text measures %d %s, but a case %s the limit of %d should measure %d", n, c.Counts, map[bool]string{true: "at", false: "one over"}[c.Valid], c.Limit, want)
	}

	doc, err := canonical.Parse([]byte(strings.ReplaceAll(string(c.Document), `"{{text}}"`, quoteJSON(t, text))))
	if err != nil {
		t.Fatal(err)
	}
	docText, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var issues []claims.Issue
	switch c.Validator {
	case "claims.json":
		_, issues, err = claims.ParseFile(docText)
	case "manifest.json":
		_, issues, err = bundle.ParseManifest(docText)
	case "references.json", "materials.json", "deviations.json", "external.json":
		issues = schemas.Validate(c.Validator, doc)
	case "paper: references.json":
		// The integrity checks read references.json only when it is valid:
		// then a reference the paper never cites is flagged.
		flags := paper.Flags(map[string][]byte{"paper.md": []byte("# Summary\n\nNo citations.\n"), "references.json": docText}, nil)
		if got := len(flags.UncitedReferences) > 0; got != c.Valid {
			t.Fatalf("%s: references.json read as valid = %v, want %v (%s)", c.Rule, got, c.Valid, c.Counts)
		}
		return
	default:
		t.Fatalf("no validator is named %q", c.Validator)
	}
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, len(issues))
	for i, issue := range issues {
		paths[i] = issue.Path
	}
	switch {
	case c.Valid && len(issues) > 0:
		t.Errorf("%s: %d %s are within the limit of %d, but were refused: %v", c.Rule, n, c.Counts, c.Limit, issues)
	case !c.Valid && !slices.Contains(paths, c.Path):
		t.Errorf("%s: %d %s are over the limit of %d, but %s was not refused: %v", c.Rule, n, c.Counts, c.Limit, c.Path, issues)
	}
}

func quoteJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// isJSWhiteSpace is what String.prototype.trim removes: ECMAScript's
// WhiteSpace and LineTerminator.
func isJSWhiteSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}
