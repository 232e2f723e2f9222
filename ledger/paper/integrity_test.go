package paper

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func files(pairs ...string) map[string][]byte {
	m := map[string][]byte{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = []byte(pairs[i+1])
	}
	return m
}

func TestFlagsReadsPaperAndTables(t *testing.T) {
	got := Flags(map[string][]byte{
		"paper.md":        []byte("# Summary\n\nLoss fell by 0.03.\n"),
		"data/a.csv":      []byte("x,y\n1,2\n1,2\n"),
		"data/notes.md":   []byte("# Results\n\nNot the paper: 99.\n"),
		"results/R1.csv":  []byte("x\n1\n1\n"),
		"data/binary.csv": {0xff, 0xfe, 0x00},
	}, nil)
	want := Integrity{
		OrphanNumbers:     []OrphanNumber{{Section: "Summary", Line: 3, Column: 14, Number: "0.03", Excerpt: "Loss fell by 0.03."}},
		MissingSections:   []string{"Claims", "Methods", "Results", "Discussion", "Limitations", "Provenance"},
		MissingFiles:      []string{},
		UncitedReferences: []string{},
		UnlistedCitations: []string{},
		Data: []DataFlag{{Kind: DuplicateRows, Path: "data/a.csv", Rows: 2, Duplicates: 1,
			Examples: []RepeatedRow{{Row: 3, Repeats: 2}}}},
		Skipped: []SkippedFile{},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Flags =\n%+v\nwant\n%+v", got, want)
	}
}

func TestFlagsSkipsLargeTables(t *testing.T) {
	large := []byte(strings.Repeat("1", MaxTableBytes+1))
	got := Flags(map[string][]byte{"data/big.tsv": large, "data/ok.tsv": []byte("a\tb\n1\t2\n")}, nil)
	want := []SkippedFile{{Path: "data/big.tsv", Bytes: MaxTableBytes + 1}}
	if !reflect.DeepEqual(got.Skipped, want) || len(got.Data) != 0 {
		t.Errorf("Skipped = %+v, Data = %+v; want %+v and none", got.Skipped, got.Data, want)
	}
	// Exactly the limit is still read.
	exact := []byte("x,y\n" + strings.Repeat("1", MaxTableBytes-4))
	if got := Flags(map[string][]byte{"data/exact.csv": exact}, nil); len(got.Skipped) != 0 {
		t.Errorf("a table of exactly %d bytes was skipped: %+v", len(exact), got.Skipped)
	}
}

func TestFlagsOrphanLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Results\n\n")
	for range 150 {
		b.WriteString("Up 5. ")
	}
	got := Flags(files("paper.md", b.String()), nil)
	if len(got.OrphanNumbers) != MaxOrphanNumbers {
		t.Errorf("%d orphan numbers listed, want %d", len(got.OrphanNumbers), MaxOrphanNumbers)
	}
	if all := OrphanNumbers(b.String()); len(all) != 150 {
		t.Errorf("OrphanNumbers found %d, want 150", len(all))
	}
}

func claimJSON(typ string, evidence string, dependsOn string) string {
	return `[{"local_id":"C1","type":"` + typ + `","core":true,"statement":"A statement.","evidence":[` + evidence +
		`],"depends_on":[` + dependsOn + `],"confidence":0.5}]`
}

// The reference's cases: the files a bundle's claims call for.
func TestFlagsMissingFiles(t *testing.T) {
	measurement := `{"result":"R1.mp","measured":"data/dsc.csv"}`
	original := `"claim:` + strings.Repeat("a", 64) + `"`
	prereg := "prereg:" + strings.Repeat("b", 64)
	tests := []struct {
		name  string
		files map[string][]byte
		paths []string
		want  []string
	}{
		{"a measurement calls for materials.json",
			files("claims.json", claimJSON("empirical", measurement, "")), nil, []string{"materials.json"}},
		{"which the bundle has",
			files("claims.json", claimJSON("empirical", measurement, "")), []string{"claims.json", "materials.json"}, []string{}},
		{"an empty list counts",
			files("claims.json", claimJSON("empirical", measurement, ""), "materials.json", "[]"), nil, []string{}},
		{"a computation calls for nothing",
			files("claims.json", claimJSON("empirical", `{"result":"R1.x","produced_by":"code/a.py"}`, "")), nil, []string{}},
		{"a replication of a claim on the ledger calls for deviations.json",
			files("claims.json", claimJSON("replication", measurement, original)), []string{"claims.json", "materials.json"}, []string{"deviations.json"}},
		{"a replication of a local claim alone doesn't",
			files("claims.json", `[{"local_id":"C1","type":"empirical","core":true,"statement":"S.","evidence":[],"depends_on":[],"confidence":0.5},`+
				`{"local_id":"C2","type":"replication","core":true,"statement":"S.","evidence":[],"depends_on":["C1"],"confidence":0.5}]`), nil, []string{}},
		{"a pre-registration the references cite calls for deviations.json",
			files("claims.json", claimJSON("theoretical", "", ""), "references.json", `[{"id":"`+prereg+`"}]`), nil, []string{"deviations.json"}},
		{"references.json that doesn't parse cites no plan",
			files("claims.json", claimJSON("theoretical", "", ""), "references.json", `[{"id":"`+prereg+`","extra":1}]`), nil, []string{}},
		{"claims.json that doesn't parse calls for nothing", files("claims.json", "[{"), nil, []string{}},
		{"claims.json that breaks the schema calls for nothing",
			files("claims.json", claimJSON("empirical", "", "")), nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Flags(tt.files, tt.paths).MissingFiles; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MissingFiles = %q, want %q", got, tt.want)
			}
		})
	}
}

// The reference's case: sources listed and never cited, and citations not
// listed.
func TestFlagsCitations(t *testing.T) {
	claim := "claim:" + strings.Repeat("a", 64)
	paper := lines(
		"# Methods",
		"",
		"We follow [Leavens and Vermeulen (1992)](doi:10.1016/0898-1221(92)90034-F) and <"+claim+">,",
		"and extend [an earlier bound][bound].",
		"",
		"[bound]: arxiv:2401.12345",
		"",
		"See also [the code](code/run.py), [a page](https://example.org), and [a mistyped ID](claim:abc).",
	)
	references := `[
		{"id": "doi:10.1016/0898-1221(92)90034-F", "title": "3x+1 search programs", "authors": ["Leavens, G. T."], "year": 1992},
		{"id": "` + claim + `"},
		{"id": "pmid:12345", "title": "A source", "authors": ["A. Author"], "year": 2001}
	]`
	got := Flags(files("paper.md", paper, "references.json", references), nil)
	if want := []string{"pmid:12345"}; !reflect.DeepEqual(got.UncitedReferences, want) {
		t.Errorf("UncitedReferences = %q, want %q", got.UncitedReferences, want)
	}
	if want := []string{"arxiv:2401.12345"}; !reflect.DeepEqual(got.UnlistedCitations, want) {
		t.Errorf("UnlistedCitations = %q, want %q", got.UnlistedCitations, want)
	}

	// Without references.json every citation is unlisted, in the paper's order.
	got = Flags(files("paper.md", paper), nil)
	if want := []string{"doi:10.1016/0898-1221(92)90034-F", claim, "arxiv:2401.12345"}; !reflect.DeepEqual(got.UnlistedCitations, want) {
		t.Errorf("without references.json, UnlistedCitations = %q, want %q", got.UnlistedCitations, want)
	}

	// One that doesn't parse, or breaks the schema, is the bundle check's to refuse.
	for _, broken := range []string{"[{", `[{"id":"pmid:1"}]`, `[{"id":"pmid:1","title":"T","authors":["A"],"year":2001},{"id":"pmid:1","title":"T","authors":["A"],"year":2001}]`} {
		got = Flags(files("paper.md", paper, "references.json", broken), nil)
		if len(got.UncitedReferences)+len(got.UnlistedCitations) != 0 {
			t.Errorf("references.json %s: flagged %q and %q, want nothing", broken, got.UncitedReferences, got.UnlistedCitations)
		}
	}
}

func TestCitations(t *testing.T) {
	id := func(prefix string) string { return prefix + strings.Repeat("0", 64) }
	paper := "[a](" + id("task:") + ") [b](" + id("idea:") + ") <" + id("thread:") + "> [c](" + id("post:") + ")" +
		" [d](arxiv:hep-th/9901001v2) [e](pmid:0123) [f](doi:10.12/x) [g](" + id("claim:") + ") [h](" + id("claim:") + ")" +
		" ![fig](doi:10.1234/img) [i](doi:10.1234/\\(x\\))\n"
	want := []string{id("task:"), id("idea:"), id("thread:"), id("post:"), "arxiv:hep-th/9901001v2", id("claim:"), "doi:10.1234/(x)"}
	if got := Citations(paper); !reflect.DeepEqual(got, want) {
		t.Errorf("Citations =\n%q\nwant\n%q", got, want)
	}
}

func TestMissingSections(t *testing.T) {
	all := "# Title\n\n## Summary\n\n## Claims\n\n## Methods\n\n## Results\n\n## Discussion\n\n## Limitations\n\n## Provenance\n"
	tests := []struct {
		name, paper string
		want        []string
	}{
		{"all seven", all, []string{}},
		{"Discussion, which the reference doesn't ask for", strings.Replace(all, "## Discussion\n\n", "", 1), []string{"Discussion"}},
		{"one at another level doesn't count", strings.Replace(all, "## Methods", "### Methods", 1), []string{"Methods"}},
		{"names in any case", strings.ToUpper(all), []string{}},
		{"no sections", "Just text.", Sections},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MissingSections(tt.paper); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MissingSections = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIntegrityJSON(t *testing.T) {
	got, err := json.Marshal(Flags(nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"orphan_numbers":[],"missing_sections":[],"missing_files":[],"uncited_references":[],"unlisted_citations":[],"data":[],"skipped":[]}`
	if string(got) != want {
		t.Errorf("empty Integrity = %s, want %s", got, want)
	}

	flags := Integrity{
		OrphanNumbers: []OrphanNumber{{Section: "Results", Line: 3, Column: 4, Number: "5", Excerpt: "Up 5."}},
		Data: []DataFlag{
			{Kind: DuplicateRows, Path: "data/a.csv", Rows: 5, Duplicates: 2, Examples: []RepeatedRow{{4, 2}, {6, 2}}},
			{Kind: Benford, Path: "data/b.csv", Column: "", Values: 600, MAD: 0.0596, Observed: []float64{0.1115, 0.1, 0, 0, 0, 0, 0, 0, 0}},
		},
		Skipped: []SkippedFile{{Path: "data/big.csv", Bytes: 9000000}},
	}
	got, err = json.Marshal(flags)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"orphan_numbers":[{"section":"Results","line":3,"column":4,"number":"5","excerpt":"Up 5."}],` +
		`"missing_sections":null,"missing_files":null,"uncited_references":null,"unlisted_citations":null,` +
		`"data":[{"kind":"duplicate_rows","path":"data/a.csv","rows":5,"duplicates":2,"examples":[{"row":4,"repeats":2},{"row":6,"repeats":2}]},` +
		`{"kind":"benford","path":"data/b.csv","column":"","values":600,"mad":0.0596,"observed":[0.1115,0.1,0,0,0,0,0,0,0]}],` +
		`"skipped":[{"path":"data/big.csv","bytes":9000000}]}`
	if string(got) != want {
		t.Errorf("Integrity JSON =\n%s\nwant\n%s", got, want)
	}
	var back Integrity
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Data, flags.Data) {
		t.Errorf("data flags read back as %+v, want %+v", back.Data, flags.Data)
	}
	if _, err := json.Marshal(DataFlag{Kind: "other"}); err == nil {
		t.Error("a data flag of unknown kind marshalled")
	}
}

func TestReadByFlags(t *testing.T) {
	for path, want := range map[string]bool{
		"paper.md": true, "claims.json": true, "references.json": true,
		"data/a.csv": true, "data/sub/b.TSV": true, "data/c.txt": false, "data/csv": false,
		"results/R1.csv": false, "code/run.py": false, "materials.json": false,
	} {
		if got := ReadByFlags(path); got != want {
			t.Errorf("ReadByFlags(%q) = %v, want %v", path, got, want)
		}
	}
}
