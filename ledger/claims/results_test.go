package claims_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/agora-node/agora/ledger/claims"
)

func TestResultLocation(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		keys       []string
	}{
		{"R3.loss_delta", "results/R3.json", []string{"loss_delta"}},
		{"R1.runs.2.score", "results/R1.json", []string{"runs", "2", "score"}},
		{"R1.a/b", "results/R1.json", []string{"a/b"}},
		{"R1", "", nil},
		{".a", "", nil},
		{"R1.", "", nil},
		{"R1..a", "", nil},
		{"x/R1.a", "", nil},
	} {
		path, keys, ok := claims.ResultLocation(tc.name)
		if path != tc.path || !reflect.DeepEqual(keys, tc.keys) || ok != (tc.path != "") {
			t.Errorf("ResultLocation(%q) = %q, %q, %v", tc.name, path, keys, ok)
		}
	}
}

func TestBundleResults(t *testing.T) {
	files := map[string][]byte{
		"results/R1.json":  []byte(`{"loss": -0.03, "runs": [{"score": 1}, {"score": 2}, {"score": null}], "n": {"10": "ten"}}`),
		"results/bom.json": []byte("\xEF\xBB\xBF{\"a\": 1}"),
		"results/bad.json": []byte(`{"a": 1, "a": 2}`),
		"results/bin.json": {0xff, 0xfe},
	}
	r := claims.NewBundleResults(files)
	for _, tc := range []struct {
		name string
		want any
	}{
		{"R1.loss", -0.03},
		{"R1.runs.1.score", 2.0},
		{"R1.runs.2.score", nil}, // a declared null is a value
		{"R1.n.10", "ten"},       // a decimal key names an object member too
		{"bom.a", 1.0},
	} {
		got, err := r.Value(tc.name)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Value(%q) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ name, reason string }{
		{"R1.missing", "results/R1.json has no value at missing"},
		{"R1.runs.01.score", "has no value at runs.01.score"}, // no leading zeros
		{"R1.runs.3.score", "has no value"},
		{"R1.runs.-1.score", "has no value"},
		{"R1.runs.99999999999999999999999.score", "has no value"},
		{"R1.loss.x", "has no value"},
		{"R2.x", "there is no results/R2.json"},
		{"bad.a", "results/bad.json is not valid JSON"},
		{"bin.a", "results/bin.json is not UTF-8"},
		{"R1", "is not a result name"},
	} {
		_, err := r.Value(tc.name)
		if !errors.Is(err, claims.ErrUnresolved) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("Value(%q) error = %v, want one saying %q", tc.name, err, tc.reason)
		}
	}
}

func TestCheckEvidence(t *testing.T) {
	cs := parse(t, `[{"local_id":"C1","type":"empirical","core":true,"statement":"S","depends_on":[],"confidence":0.5,
		"evidence":[
			{"result":"R1.a","produced_by":"code/a.py"},
			{"result":"R1.a","measured":"data/missing.csv"},
			{"result":"R1.b","produced_by":"code/a.py"},
			{"proof":"proofs/A.lean","theorem":"A.t","checker":"rocq"}]}]`)
	files := map[string][]byte{
		"code/a.py":       nil,
		"proofs/A.lean":   nil,
		"results/R1.json": []byte(`{"a": [1, 2]}`),
	}
	results, issues := claims.CheckEvidence(cs, files)
	want := []claims.Issue{
		{Path: "/0/evidence/2/result", Message: "results/R1.json has no value at b"},
		{Path: "/0/evidence/1/measured", Message: "the bundle has no data/missing.csv"},
	}
	if !reflect.DeepEqual(issues, want) {
		t.Errorf("issues = %v, want %v", issues, want)
	}
	if !reflect.DeepEqual(results, map[string]any{"R1.a": []any{1.0, 2.0}}) {
		t.Errorf("results = %v", results)
	}
}

func TestResultAgrees(t *testing.T) {
	tol := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		produced, declared any
		tolerance          *float64
		want               bool
	}{
		{1.0, 1.0, nil, true},
		{1.0000001, 1.0, nil, false},
		// Exact decimal arithmetic: in binary64, 1.1 - 1 is a little over 0.1.
		{1.1, 1.0, tol(0.1), true},
		{0.9, 1.0, tol(0.1), true},
		{1.2, 1.0, tol(0.1), false},
		{-0.0123, -0.0119, tol(0.0004), true},
		{-0.0124, -0.0119, tol(0.0004), false},
		{1e21, 1e21 + 1e6, tol(1e6), true},
		{5e-324, 0.0, tol(5e-324), true},
		{1.7976931348623157e308, -1.7976931348623157e308, tol(math.MaxFloat64), false},
		{1.0, 1.0, tol(-1), false},
		{"a", "a", nil, true},
		{"a", "b", tol(1), false},
		{map[string]any{"x": 1.0, "y": []any{true}}, map[string]any{"y": []any{true}, "x": 1.0}, nil, true},
		{1.0, "1", nil, false},
		{nil, nil, nil, true},
	} {
		if got := claims.ResultAgrees(tc.produced, tc.declared, tc.tolerance); got != tc.want {
			t.Errorf("ResultAgrees(%v, %v, %v) = %v, want %v", tc.produced, tc.declared, tc.tolerance, got, tc.want)
		}
	}
}
