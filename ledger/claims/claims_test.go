package claims_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agora-node/agora/ledger/claims"
)

var inputs = "sha256:" + strings.Repeat("1", 64)

const empirical = `{"local_id":"C3","type":"empirical","core":true,
	"statement":"Method X lowers validation loss vs. baseline Y on dataset Z across 5 seeds.",
	"evidence":[{"result":"R3.loss_delta","produced_by":"code/eval.py","tolerance":0.002}],
	"depends_on":[],"confidence":0.8,
	"falsified_if":"A re-run with 5 fresh seeds yields no significant improvement."}`

func parse(t *testing.T, text string) []claims.Claim {
	t.Helper()
	cs, issues, err := claims.ParseFile([]byte(text))
	if err != nil || issues != nil {
		t.Fatalf("ParseFile: %v %v", err, issues)
	}
	return cs
}

// The preimage is spelled out byte for byte, as the reference's own test
// spells it, so member order, number form and the bound fields are all
// checked, not only that some hash comes out.
func TestIDPreimage(t *testing.T) {
	preimage := `{"confidence":0.8,"core":true,"depends_on":[],` +
		`"evidence":[{"produced_by":"code/eval.py","result":"R3.loss_delta","tolerance":0.002}],` +
		`"falsified_if":"A re-run with 5 fresh seeds yields no significant improvement.",` +
		`"results":{"R3.loss_delta":-0.0123},` +
		`"statement":"Method X lowers validation loss vs. baseline Y on dataset Z across 5 seeds.",` +
		`"type":"empirical","verification_inputs":"` + inputs + `"}`
	sum := sha256.Sum256([]byte(preimage))
	want := "claim:" + hex.EncodeToString(sum[:])

	ids, err := claims.AssignIDs(parse(t, "["+empirical+"]"), inputs, map[string]any{"R3.loss_delta": -0.0123})
	if err != nil {
		t.Fatal(err)
	}
	if ids[0] != want {
		t.Errorf("ID = %s, want %s", ids[0], want)
	}
}

func TestDependenciesResolveIgnoringOrderAndDuplicates(t *testing.T) {
	other := "claim:" + strings.Repeat("a", 64)
	base := `{"local_id":"C1","type":"theoretical","core":true,"statement":"S1","evidence":[],"depends_on":[],"confidence":0.8}`
	baseIDs, err := claims.AssignIDs(parse(t, "["+base+"]"), inputs, nil)
	if err != nil {
		t.Fatal(err)
	}
	viaLocal, err := claims.AssignIDs(parse(t, `[{"local_id":"C2","type":"theoretical","core":true,"statement":"S","evidence":[],
		"depends_on":["C1","`+other+`","C1"],"confidence":0.8},`+base+`]`), inputs, nil)
	if err != nil {
		t.Fatal(err)
	}
	viaGlobal, err := claims.AssignIDs(parse(t, `[{"local_id":"C2","type":"theoretical","core":true,"statement":"S","evidence":[],
		"depends_on":["`+other+`","`+baseIDs[0]+`"],"confidence":0.8}]`), inputs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if viaLocal[0] != viaGlobal[0] {
		t.Errorf("via local = %s, via global = %s", viaLocal[0], viaGlobal[0])
	}
	if viaLocal[1] != baseIDs[0] {
		t.Errorf("C1 = %s, want %s", viaLocal[1], baseIDs[0])
	}
}

func TestIDsWithoutInputs(t *testing.T) {
	cs := parse(t, `[`+empirical+`,
		{"local_id":"T1","type":"theoretical","core":false,"statement":"T","evidence":[],"depends_on":["C3"],"confidence":0.5},
		{"local_id":"T2","type":"theoretical","core":false,"statement":"U","evidence":[],"depends_on":[],"confidence":0.5}]`)
	ids, err := claims.AssignIDsWithoutInputs(cs)
	if err != nil {
		t.Fatal(err)
	}
	withInputs, err := claims.AssignIDs(cs, inputs, map[string]any{"R3.loss_delta": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	// C3 binds the inputs itself, T1 through C3; T2 binds nothing, so it has
	// the same ID either way.
	if ids[0] != "" || ids[1] != "" || ids[2] != withInputs[2] || ids[2] == "" {
		t.Errorf("IDs without inputs = %q; with inputs %q", ids, withInputs)
	}
}

func TestUnresolvedResult(t *testing.T) {
	_, err := claims.AssignIDs(parse(t, "["+empirical+"]"), inputs, map[string]any{"R3.other": 1.0})
	var re *claims.ResultError
	if !errors.Is(err, claims.ErrUnresolved) || !errors.As(err, &re) || re.Name != "R3.loss_delta" {
		t.Errorf("err = %v, want a ResultError for R3.loss_delta", err)
	}
}

func TestAssignIDsRefusesUnorderedClaims(t *testing.T) {
	cycle := []claims.Claim{
		{LocalID: "A", Type: claims.Theoretical, Statement: "a", DependsOn: []string{"B"}},
		{LocalID: "B", Type: claims.Theoretical, Statement: "b", DependsOn: []string{"A"}},
	}
	if _, err := claims.AssignIDs(cycle, inputs, nil); !errors.Is(err, claims.ErrGraph) {
		t.Errorf("cycle: err = %v, want ErrGraph", err)
	}
	unknown := []claims.Claim{{LocalID: "A", Type: claims.Theoretical, Statement: "a", DependsOn: []string{"Z"}}}
	if _, err := claims.AssignIDs(unknown, inputs, nil); !errors.Is(err, claims.ErrGraph) {
		t.Errorf("unknown dependency: err = %v, want ErrGraph", err)
	}
}

func TestAssertionDigest(t *testing.T) {
	c := parse(t, "["+empirical+"]")[0]
	got, err := claims.AssertionDigest(&c)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(`{"statement":"` + c.Statement + `","type":"empirical"}`))
	if want := "sha256:" + hex.EncodeToString(sum[:]); got != want {
		t.Errorf("assertion digest = %s, want %s", got, want)
	}
	c.Evidence = nil
	if again, _ := claims.AssertionDigest(&c); again != got {
		t.Error("assertion digest depends on evidence")
	}
}

// claimWith is a valid theoretical claim with one member replaced (or
// removed, when value is "").
func claimWith(member, value string) string {
	fields := []string{
		`"local_id":"C1"`, `"type":"theoretical"`, `"core":true`, `"statement":"S"`,
		`"evidence":[]`, `"depends_on":[]`, `"confidence":0.5`,
	}
	out := fields[:0:0]
	replaced := false
	for _, f := range fields {
		if strings.HasPrefix(f, `"`+member+`"`) {
			replaced = true
			if value == "" {
				continue
			}
			f = `"` + member + `":` + value
		}
		out = append(out, f)
	}
	if !replaced && value != "" {
		out = append(out, `"`+member+`":`+value)
	}
	return "[{" + strings.Join(out, ",") + "}]"
}

func TestValidateIssuePaths(t *testing.T) {
	theorem := func(s string) string {
		return `[{"proof":"proofs/A.lean","theorem":"` + s + `","checker":"lean4"}]`
	}
	for _, tc := range []struct {
		name, text string
		paths      []string // every issue's path, in order; nil means valid
	}{
		{"valid", claimWith("", ""), nil},
		{"not an array", `{}`, []string{""}},
		{"empty", `[]`, []string{""}},
		{"not an object", `[1]`, []string{"/0"}},
		{"missing member", claimWith("core", ""), []string{"/0/core"}},
		{"unknown member", claimWith("note", `"x"`), []string{"/0"}},
		{"local ID with a colon", claimWith("local_id", `"a:b"`), []string{"/0/local_id"}},
		{"local ID starting with a digit", claimWith("local_id", `"1a"`), []string{"/0/local_id"}},
		{"unknown type", claimWith("type", `"opinion"`), []string{"/0/type"}},
		{"core a string", claimWith("core", `"yes"`), []string{"/0/core"}},
		{"empty statement", claimWith("statement", `""`), []string{"/0/statement"}},
		{"empty falsified_if", claimWith("falsified_if", `""`), []string{"/0/falsified_if"}},
		{"falsified_if given", claimWith("falsified_if", `"x"`), nil},
		{"negative confidence", claimWith("confidence", `-0.1`), []string{"/0/confidence"}},
		{"confidence 0", claimWith("confidence", `0`), nil},
		{"confidence 1", claimWith("confidence", `1`), nil},
		{"dependency not a string", claimWith("depends_on", `[1]`), []string{"/0/depends_on/0"}},
		{"uppercase global ID", claimWith("depends_on", `["claim:`+strings.Repeat("A", 64)+`"]`), []string{"/0/depends_on/0"}},
		{"self dependency", claimWith("depends_on", `["C1"]`), []string{"/0/depends_on"}},
		{"item not an object", claimWith("evidence", `["code/a.py"]`), []string{"/0/evidence/0"}},
		{"item of no kind", claimWith("evidence", `[{"result":"R1.a"}]`), []string{"/0/evidence/0"}},
		{"item with an unknown member", claimWith("evidence", `[{"result":"R1.a","produced_by":"code/a.py","seed":1}]`), []string{"/0/evidence/0"}},
		{"code/ alone", claimWith("evidence", `[{"result":"R1.a","produced_by":"code/"}]`), []string{"/0/evidence/0/produced_by"}},
		{"line separator in a path", claimWith("evidence", `[{"result":"R1.a","produced_by":"code/\u2028x.py"}]`), nil},
		{"negative tolerance", claimWith("evidence", `[{"result":"R1.a","measured":"data/a","tolerance":-1}]`), []string{"/0/evidence/0/tolerance"}},
		{"zero tolerance", claimWith("evidence", `[{"result":"R1.a","measured":"data/a","tolerance":0}]`), nil},
		{"null tolerance", claimWith("evidence", `[{"result":"R1.a","measured":"data/a","tolerance":null}]`), []string{"/0/evidence/0/tolerance"}},
		{"result with an empty key", claimWith("evidence", `[{"result":"R1..a","measured":"data/a"}]`), []string{"/0/evidence/0/result"}},
		{"result stem with a slash", claimWith("evidence", `[{"result":"a/R1.x","measured":"data/a"}]`), []string{"/0/evidence/0/result"}},
		{"result key with a slash", claimWith("evidence", `[{"result":"R1.x/y","measured":"data/a"}]`), nil},
		{"proof outside proofs/", claimWith("evidence", `[{"proof":"code/A.lean","theorem":"A.t","checker":"lean4"}]`), []string{"/0/evidence/0/proof"}},
		{"proof missing its checker", claimWith("evidence", `[{"proof":"proofs/A.lean","theorem":"A.t"}]`), []string{"/0/evidence/0/checker"}},
		{"empty theorem", claimWith("evidence", theorem("")), []string{"/0/evidence/0/theorem"}},
		{"500 ASCII characters", claimWith("evidence", theorem(strings.Repeat("a", 500))), nil},
		{"501 ASCII characters", claimWith("evidence", theorem(strings.Repeat("a", 501))), []string{"/0/evidence/0/theorem"}},
		// The reference's zod schema counts code points: an emoji is one.
		{"500 emoji", claimWith("evidence", theorem(strings.Repeat("😀", 500))), nil},
		{"501 emoji", claimWith("evidence", theorem(strings.Repeat("😀", 501))), []string{"/0/evidence/0/theorem"}},
		{"500 two-byte characters", claimWith("evidence", theorem(strings.Repeat("é", 500))), nil},
		{"an unknown member and every required one missing", `[{"a/b~c":1}]`, []string{"/0", "/0/local_id", "/0/type", "/0/core", "/0/statement", "/0/evidence", "/0/depends_on", "/0/confidence"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, issues, err := claims.ParseFile([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, issue := range issues {
				paths = append(paths, issue.Path)
			}
			if !slices.Equal(paths, tc.paths) {
				t.Errorf("issue paths = %q, want %q\n%v", paths, tc.paths, issues)
			}
		})
	}
}

func TestTooManyClaims(t *testing.T) {
	var list []string
	for i := range claims.MaxClaims + 1 {
		list = append(list, fmt.Sprintf(`{"local_id":"C%d","type":"resource","core":false,"statement":"S","evidence":[],"depends_on":[],"confidence":1}`, i))
	}
	if _, issues, _ := claims.ParseFile([]byte("[" + strings.Join(list[:claims.MaxClaims], ",") + "]")); issues != nil {
		t.Errorf("30 claims refused: %v", issues)
	}
	if _, issues, _ := claims.ParseFile([]byte("[" + strings.Join(list, ",") + "]")); len(issues) != 1 || issues[0].Path != "" {
		t.Errorf("31 claims: issues %v, want one for the file", issues)
	}
}

func TestPointer(t *testing.T) {
	if got := claims.Pointer(0, "a/b~c", 2); got != "/0/a~1b~0c/2" {
		t.Errorf("Pointer = %q", got)
	}
}

func ExampleAssignIDs() {
	text := []byte(`[
	  {"local_id": "C1", "type": "empirical", "core": true,
	   "statement": "Method X lowers validation loss on dataset Z.",
	   "evidence": [{"result": "R1.loss_delta", "produced_by": "code/eval.py", "tolerance": 0.002}],
	   "depends_on": [], "confidence": 0.8},
	  {"local_id": "C2", "type": "theoretical", "core": false,
	   "statement": "The bound in C1 is tight.", "evidence": [], "depends_on": ["C1"], "confidence": 0.6}
	]`)
	cs, issues, err := claims.ParseFile(text)
	if err != nil || issues != nil {
		fmt.Println(err, issues)
		return
	}
	verificationInputs := "sha256:7585cc4258bb6d7147686ab083b1d373c8c7ba648790560dc475c78db48949e8"
	ids, err := claims.AssignIDs(cs, verificationInputs, map[string]any{"R1.loss_delta": -0.031})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range cs {
		fmt.Println(c.LocalID, ids[i])
	}
	// Output:
	// C1 claim:ff4d803207559469595a8ca34f66edd52d83ddfa454d69f8881c64d2021b1bb8
	// C2 claim:c01b2e52306a6ea011c47ac57a11633219e53664461d6bea73626e30789e779d
}
