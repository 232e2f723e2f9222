package canonical

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"}, {1.5, "1.5"},
		{1e-7, "1e-7"}, {1.5e-10, "1.5e-10"}, {5e-324, "5e-324"}, {1e21, "1e+21"},
		{1e20, "100000000000000000000"}, {1e16, "10000000000000000"},
		{0.30000000000000004, "0.30000000000000004"}, {0.000001, "0.000001"},
		{1 << 60, "1152921504606847000"}, {123.456, "123.456"}, {-0.5, "-0.5"},
		{1.7976931348623157e308, "1.7976931348623157e+308"}, {9007199254740993, "9007199254740992"},
		{123456789012345680000, "123456789012345680000"}, {1.2e-6, "0.0000012"}, {4.35e-7, "4.35e-7"},
	} {
		got, err := AppendNumber(nil, tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("AppendNumber(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCanonicalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b":1,"a":[true,false,null]}`, `{"a":[true,false,null],"b":1}`},
		{`{ "x" : 1.0, "y": 1e+16, "z": 1e-07 }`, `{"x":1,"y":10000000000000000,"z":1e-7}`},
		{`"\u2028\u2029<>&\/"`, "\"\u2028\u2029<>&/\""},
		{`"\u0001\b\f\n\r\t\"\\\u007f"`, `"\u0001\b\f\n\r\t\"\\` + "\x7f\""},
		{`{"\ue000":1,"\ud83d\ude00":2}`, "{\"\U0001F600\":2,\"\ue000\":1}"},
		{`1e-400`, `0`},
		{`-0`, `0`},
		{`123456789012345678901234567890`, `1.2345678901234568e+29`},
	} {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonicalize(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, in := range []string{
		"\ufeff{}", `{"a":1,"\u0061":2}`, `{"x":{"a":1,"a":2}}`, "\"\xff\"", `"\ud800"`, `"\udc00"`,
		"\"\xed\xa0\x80\"", `"\ufdd0"`, "\"\uFDEF\"", `"\uffff"`, `{"\ufffe":1}`, `"\ud83f\udffe"`,
		`1e400`, `-1e400`, "1" + strings.Repeat("0", 400), `01`, `[1,]`, `{} {}`, ``, ` `, `nul`,
		`{"a" 1}`, `[1 2]`, `'x'`, `NaN`, `Infinity`, `"\x"`, "\"a\x01\"",
		strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
	} {
		if v, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) = %v; want an error", in, v)
		} else if !errors.Is(err, ErrNotIJSON) {
			t.Errorf("Parse(%q) error %v does not wrap ErrNotIJSON", in, err)
		}
	}
}

// TestValidAgreesWithParse checks Valid against Parse on what each rule
// refuses and at the nesting limit.
func TestValidAgreesWithParse(t *testing.T) {
	for _, text := range []string{
		`{"b":1,"a":[true,false,null]}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `"\ufdd0"`, `{"\ufdd0":1}`, `"\ud800"`,
		`1e400`, `1e-400`, "\ufeff{}", `[1,]`, `[1] [2]`, ``, `{"a":{"b":[{"c":1e999}]}}`,
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
		strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
		strings.Repeat("[", 1001) + "1" + strings.Repeat("]", 1001),
		strings.Repeat(`{"a":`, 1001) + "1" + strings.Repeat("}", 1001),
	} {
		_, perr := Parse([]byte(text))
		verr := Valid([]byte(text))
		if (perr == nil) != (verr == nil) {
			t.Errorf("%.60q: Parse %v, Valid %v", text, perr, verr)
		}
	}
}

// TestRaw checks that a Raw inside a value is written as the value it
// holds would be, by Marshal, and by encoding/json as the same JSON.
func TestRaw(t *testing.T) {
	inner := map[string]any{"é": "x\u2028", "b": []any{1.5, nil, true}, "a": map[string]any{}}
	raw, err := Marshal(inner)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Marshal(map[string]any{"z": "last", "record": inner, "id": 7.0})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(map[string]any{"z": "last", "record": Raw(raw), "id": 7.0})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Marshal with Raw = %s, want %s", got, want)
	}
	viaJSON, err := json.Marshal(map[string]any{"record": Raw(raw)})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := Canonicalize(viaJSON); err != nil || string(c) != `{"record":`+string(raw)+`}` {
		t.Errorf("encoding/json wrote %s (%v)", viaJSON, err)
	}
}
