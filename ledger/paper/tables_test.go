package paper

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseDelimited(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		delimiter byte
		want      [][]string
	}{
		// The reference's cases.
		{"quoted delimiters, line breaks and doubled quotes", "a,b\r\n\"1,5\",\"say \"\"hi\"\"\nthere\"\n\n3,4\n", ',',
			[][]string{{"a", "b"}, {"1,5", "say \"hi\"\nthere"}, {"3", "4"}}},
		{"tabs", "x\ty\n1\t2", '\t', [][]string{{"x", "y"}, {"1", "2"}}},
		// And the rest of what it does.
		{"a quote inside a field is literal", "a\"b,c\n", ',', [][]string{{"a\"b", "c"}}},
		{"text after a closing quote joins the field", "\"a\"b,c\n", ',', [][]string{{"ab", "c"}}},
		{"CR alone ends a row", "a\rb\r", ',', [][]string{{"a"}, {"b"}}},
		{"a byte order mark is skipped", "\uFEFFa,b\n", ',', [][]string{{"a", "b"}}},
		{"a row of empty fields is kept", ",\n\n", ',', [][]string{{"", ""}}},
		{"an unclosed quote runs to the end", "\"a\nb", ',', [][]string{{"a\nb"}}},
		{"nothing", "", ',', nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseDelimited(tt.text, tt.delimiter); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseDelimited(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestTableFlagsDuplicateRows(t *testing.T) {
	// The reference's case.
	got := TableFlags("data/counts.csv", ParseDelimited("site,count\na,1\nb,2\na,1\nc,3\na,1\n", ','))
	want := []DataFlag{{Kind: DuplicateRows, Path: "data/counts.csv", Rows: 5, Duplicates: 2,
		Examples: []RepeatedRow{{Row: 4, Repeats: 2}, {Row: 6, Repeats: 2}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TableFlags = %+v, want %+v", got, want)
	}

	// Rows differ when any cell does, or when one has more cells; at most
	// DuplicateExamples repeats are listed.
	rows := [][]string{{"h"}, {"a", ""}, {"a"}, {"a", ""}}
	for range 7 {
		rows = append(rows, []string{"a"})
	}
	got = TableFlags("data/x.csv", rows)
	want = []DataFlag{{Kind: DuplicateRows, Path: "data/x.csv", Rows: 10, Duplicates: 8, Examples: []RepeatedRow{
		{Row: 4, Repeats: 2}, {Row: 5, Repeats: 3}, {Row: 6, Repeats: 3}, {Row: 7, Repeats: 3}, {Row: 8, Repeats: 3}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TableFlags = %+v, want %+v", got, want)
	}
	if got := TableFlags("data/x.csv", [][]string{{"only a header"}}); got != nil {
		t.Errorf("a header alone flagged %+v", got)
	}
}

// benfordTable is the reference's table: a column spread evenly over 1 to
// 1,000,000 by its logarithm, which follows Benford's law, and one spread
// evenly over the digits, which doesn't.
func benfordTable() [][]string {
	table := [][]string{{"natural", "invented", "label"}}
	for i := range 2000 {
		natural := strconv.FormatFloat(math.Pow(10, 6*(float64(i)+0.5)/2000), 'f', 3, 64)
		invented := strconv.Itoa((i%9 + 1) * int(math.Pow(10, float64(i%4))))
		table = append(table, []string{natural, invented, "row " + strconv.Itoa(i)})
	}
	return table
}

func TestTableFlagsBenford(t *testing.T) {
	got := TableFlags("data/values.csv", benfordTable())
	// The figures the reference computes for the same table.
	want := []DataFlag{{Kind: Benford, Path: "data/values.csv", Column: "invented", Values: 2000, MAD: 0.0596,
		Observed: []float64{0.1115, 0.1115, 0.111, 0.111, 0.111, 0.111, 0.111, 0.111, 0.111}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TableFlags = %+v, want %+v", got, want)
	}
	if BenfordShares[0] != math.Log10(2) {
		t.Errorf("BenfordShares[0] = %v, want log10(2)", BenfordShares[0])
	}
	sum := 0.0
	for _, share := range BenfordShares {
		sum += share
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("BenfordShares sum to %v", sum)
	}
}

func TestTableFlagsBenfordNeeds(t *testing.T) {
	column := func(cells ...string) [][]string {
		rows := [][]string{{"x"}}
		for _, c := range cells {
			rows = append(rows, []string{c})
		}
		return rows
	}
	repeat := func(n int, cell func(i int) string) []string {
		cells := make([]string, n)
		for i := range cells {
			cells[i] = cell(i)
		}
		return cells
	}
	invented := func(i int) string { return strconv.Itoa((i%9 + 1) * int(math.Pow(10, float64(i%4)))) }
	tests := []struct {
		name    string
		rows    [][]string
		benford bool
	}{
		// The reference's cases.
		{"too few values", column(repeat(100, func(int) string { return "5" })...), false},
		{"too narrow a range", column(repeat(1000, func(i int) string { return strconv.Itoa(50 + i%40) })...), false},
		// Its limits.
		{"500 values", column(repeat(500, invented)...), true},
		{"499 values", column(repeat(499, invented)...), false},
		{"zeros aren't values", column(append(repeat(499, invented), repeat(100, func(int) string { return "0" })...)...), false},
		{"a spread of exactly 100", column(append(repeat(600, func(i int) string { return strconv.Itoa(1 + i%9) }), "100")...), true},
		{"a spread just under 100", column(append(repeat(600, func(i int) string { return strconv.Itoa(1 + i%9) }), "99.9")...), false},
		{"nine in ten cells numbers", column(append(repeat(900, invented), repeat(100, func(int) string { return "n/a" })...)...), true},
		{"fewer than nine in ten", column(append(repeat(900, invented), repeat(101, func(int) string { return "n/a" })...)...), false},
		{"empty cells don't count", column(append(repeat(600, invented), repeat(5000, func(int) string { return " " })...)...), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags := TableFlags("data/t.csv", tt.rows)
			got := false
			for _, f := range flags {
				got = got || f.Kind == Benford
			}
			if got != tt.benford {
				t.Errorf("Benford flag: %v, want %v (%+v)", got, tt.benford, flags)
			}
		})
	}
}

func TestTableFlagsFirstDigits(t *testing.T) {
	// Numbers as JavaScript's Number() reads them, their first digits as
	// written: signs, exponents, leading zeros, fractions, hexadecimal.
	cells := []string{"-2.5", "+3e5", "0.004", "00012", ".5", "5.", "0x1F", "0b101", "0o17", "6E-2"}
	rows := [][]string{{"x"}}
	for i := range 600 {
		rows = append(rows, []string{cells[i%len(cells)]})
	}
	got := TableFlags("data/t.csv", rows)
	// The reference's figures for the same column.
	want := []DataFlag{
		{Kind: DuplicateRows, Path: "data/t.csv", Rows: 600, Duplicates: 590, Examples: []RepeatedRow{
			{Row: 12, Repeats: 2}, {Row: 13, Repeats: 3}, {Row: 14, Repeats: 4}, {Row: 15, Repeats: 5}, {Row: 16, Repeats: 6}}},
		{Kind: Benford, Path: "data/t.csv", Column: "x", Values: 600, MAD: 0.0569,
			Observed: []float64{0.4, 0.1, 0.1, 0.1, 0.2, 0.1, 0, 0, 0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TableFlags = %+v, want %+v", got, want)
	}
}

func TestJSNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"", 0, true}, {" 12 ", 12, true}, {"\u00a012\u2028", 12, true}, {"+1.5e3", 1500, true}, {".5", 0.5, true},
		{"5.", 5, true}, {"-0", math.Copysign(0, -1), true}, {"0x1f", 31, true}, {"0B11", 3, true}, {"0o17", 15, true},
		{"Infinity", math.Inf(1), true}, {"-Infinity", math.Inf(-1), true}, {"1e400", math.Inf(1), true},
		{"1e-400", 0, true}, {"00012", 12, true},
		{"NaN", 0, false}, {"1_000", 0, false}, {"0x", 0, false}, {"-0x10", 0, false}, {"0x-1", 0, false}, {"1e", 0, false},
		{".", 0, false}, {"inf", 0, false}, {"1,000", 0, false}, {"١٢", 0, false}, {"0x1p3", 0, false}, {"e5", 0, false},
	}
	for _, tt := range tests {
		got, ok := jsNumber(tt.in)
		if ok != tt.ok || (ok && (got != tt.want || math.Signbit(got) != math.Signbit(tt.want))) {
			t.Errorf("jsNumber(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFirstDigitWithoutNonzeroDigit(t *testing.T) {
	// The reference throws here; the value's first digit stands in.
	if got := firstDigit("0x0A", 10); got != 1 {
		t.Errorf("firstDigit(0x0A) = %d, want 1", got)
	}
	if got := firstDigit("0xE5", 229); got != 2 {
		t.Errorf("firstDigit(0xE5) = %d, want 2", got)
	}
}

func TestRound4(t *testing.T) {
	for in, want := range map[float64]float64{0.00005: 0.0001, 0.059649: 0.0596, 0.11115: 0.1112, 1: 1, 0: 0} {
		if got := round4(in); got != want {
			t.Errorf("round4(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestTablesInBundle(t *testing.T) {
	var natural strings.Builder
	natural.WriteString("value\tlabel\n")
	for _, row := range benfordTable()[1:] {
		natural.WriteString(row[0] + "\t" + row[2] + "\n")
	}
	got := Flags(files("data/natural.TSV", natural.String(), "data/notes.txt", "1\n1\n"), nil)
	if len(got.Data) != 0 {
		t.Errorf("a column that follows Benford's law flagged: %+v", got.Data)
	}
}
