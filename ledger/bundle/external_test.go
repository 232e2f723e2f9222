package bundle_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/schemas"
)

// own are the bundle's own files, as the node holds them: path → digest.
var own = map[string]string{
	"manifest.json": "", "paper.md": "", "claims.json": "", "code/run": "",
	"data/external.json": "", "data/codebook.csv": "",
}

// pointers writes a data/external.json pointing at paths, parsed as the
// node parses it.
func pointers(t *testing.T, paths ...string) any {
	t.Helper()
	var entries []string
	for _, p := range paths {
		entries = append(entries, fmt.Sprintf(
			`{"path": %q, "url": "https://example.org/%d.csv", "sha256": "sha256:%s", "bytes": 4194304, "license": "public-domain"}`,
			p, len(entries), strings.Repeat("0", 64)))
	}
	v, err := canonical.Parse([]byte("[" + strings.Join(entries, ", ") + "]"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCheckExternal(t *testing.T) {
	if issues := bundle.CheckExternal(pointers(t, "data/nhanes/DEMO_L.xpt", "data/nhanes/BMX_L.xpt"), own); issues != nil {
		t.Errorf("valid pointers: %+v", issues)
	}
	for _, c := range []struct {
		paths []string
		want  []claims.Issue
	}{
		{[]string{"data/a.csv", "data/codebook.csv"}, []claims.Issue{{Path: "/1/path", Message: `"data/codebook.csv" is both in the bundle and pointed at`}}},
		{[]string{"data/external.json"}, []claims.Issue{{Path: "/0/path", Message: `"data/external.json" is both in the bundle and pointed at`}}},
		{[]string{"data/a.csv", "data/a.csv"}, []claims.Issue{{Path: "/1/path", Message: `"data/a.csv" is pointed at twice, first by entry 0`}}},
		// As a bundle's own paths must, so a mirror on any file system can hold them all.
		{[]string{"data/Codebook.csv"}, []claims.Issue{{Path: "/0/path", Message: "differ only in letter case"}}},
		{[]string{"data/a.csv", "data/A.csv"}, []claims.Issue{{Path: "/1/path", Message: "differ only in letter case"}}},
		{[]string{"data/codebook.csv/part1.csv"}, []claims.Issue{{Path: "/0/path", Message: "is both a file and a directory"}}},
		{[]string{"data/x", "data/x/y.csv"}, []claims.Issue{{Path: "/1/path", Message: "is both a file and a directory"}}},
		{[]string{"data/../code/run"}, []claims.Issue{{Path: "/0/path", Message: "is not a normalized relative path"}}},
		{[]string{"data/a//b.csv"}, []claims.Issue{{Path: "/0/path", Message: "is not a normalized relative path"}}},
		{[]string{"data/cafe\u0301.csv"}, []claims.Issue{{Path: "/0/path", Message: "is not in Unicode NFC"}}},
		{[]string{"data/a\\b.csv"}, []claims.Issue{{Path: "/0/path", Message: "backslash"}}},
		// Every entry at fault is named, in file order.
		{[]string{"data/../x", "data/ok.csv", "data/codebook.csv", "data/OK.csv"}, []claims.Issue{
			{Path: "/0/path", Message: "is not a normalized relative path"},
			{Path: "/2/path", Message: "is both in the bundle and pointed at"},
			{Path: "/3/path", Message: "differ only in letter case"},
		}},
		// Paths outside data/ are the schema's to report.
		{[]string{"code/helper.py"}, nil},
	} {
		got := bundle.CheckExternal(pointers(t, c.paths...), own)
		if len(got) != len(c.want) {
			t.Errorf("%q: got %+v, want %+v", c.paths, got, c.want)
			continue
		}
		for i, w := range c.want {
			if got[i].Path != w.Path || !strings.Contains(got[i].Message, w.Message) {
				t.Errorf("%q: issue %d is %+v, want %s …%s…", c.paths, i, got[i], w.Path, w.Message)
			}
		}
	}
	// Files given with their bytes do as well as files given by digest.
	withBytes := map[string][]byte{"data/codebook.csv": nil}
	if got := bundle.CheckExternal(pointers(t, "data/codebook.csv"), withBytes); len(got) != 1 {
		t.Errorf("files by bytes: got %+v", got)
	}
	// What the schema refuses is skipped, not misread.
	for _, text := range []string{`{}`, `[1, "x", {"path": 7}, {"path": null}, {}]`, `null`} {
		v, err := canonical.Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := bundle.CheckExternal(v, own); got != nil {
			t.Errorf("%s: got %+v", text, got)
		}
	}
}

// TestExternalWithSchema: the node checks data/external.json with its
// schema and with CheckExternal, and between them every rule of "Large
// data" is kept, each reported once.
func TestExternalWithSchema(t *testing.T) {
	text := `[
		{"path": "data/a.csv", "url": "http://example.org/a.csv", "sha256": "sha256:` + strings.Repeat("0", 64) + `", "bytes": 10, "license": "CC0-1.0"},
		{"path": "code/b.py", "url": "https://user:pass@example.org/b.py", "sha256": "sha256:` + strings.Repeat("0", 64) + `", "bytes": 10, "license": "CC0-1.0"},
		{"path": "data/codebook.csv", "url": "https://example.org/c.csv", "sha256": "sha256:` + strings.Repeat("0", 64) + `", "bytes": 0, "license": "CC0-1.0"},
		{"path": "data/a.csv", "url": "https://example.org/a.csv", "sha256": "sha256:` + strings.Repeat("0", 64) + `", "bytes": 10, "license": "CC0-1.0"}
	]`
	v, err := canonical.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got := append(schemas.Validate("external.json", v), bundle.CheckExternal(v, own)...)
	want := []claims.Issue{
		{Path: "/0/url", Message: "expected the https URL"},
		{Path: "/1/path", Message: "expected a path under data/"},
		{Path: "/1/url", Message: "no user name or password"},
		{Path: "/2/bytes", Message: "must be at least 1"},
		{Path: "/2/path", Message: "is both in the bundle and pointed at"},
		{Path: "/3/path", Message: "is pointed at twice, first by entry 0"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i, w := range want {
		if got[i].Path != w.Path || !strings.Contains(got[i].Message, w.Message) {
			t.Errorf("issue %d is %+v, want %s …%s…", i, got[i], w.Path, w.Message)
		}
	}
}
