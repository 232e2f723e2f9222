package paper

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Data forensics: in a table under data/, rows repeated exactly, which
// measurements rarely produce, and numeric columns whose first digits stray
// from Benford's law, which naturally occurring numbers spanning several
// orders of magnitude follow and invented ones often don't.

// The kinds of data flag.
const (
	DuplicateRows = "duplicate_rows"
	Benford       = "benford"
)

// Limits of the data checks, the reference's INTEGRITY_LIMITS.
const (
	// MaxTableBytes is the largest table checked; a larger one is listed as
	// skipped, for a verifier to check itself if it matters.
	MaxTableBytes = 8 << 20
	// BenfordMinValues is how many nonzero numbers a column needs before its
	// first digits are compared with Benford's law.
	BenfordMinValues = 500
	// BenfordMinSpread is how many times larger a column's largest value must
	// be than its smallest: Benford's law needs the spread.
	BenfordMinSpread = 100
	// BenfordMaxMAD is Nigrini's bound for nonconformity of first digits:
	// above it, a column is flagged.
	BenfordMaxMAD = 0.015
	// DuplicateExamples is how many repeats a duplicate_rows flag lists.
	DuplicateExamples = 5
)

// BenfordShares is the share of numbers Benford's law expects to start with
// each digit, 1 to 9: log10(1 + 1/d). They are written out as the reference's
// Math.log10 computes them, so that a column's deviation is the same to the
// last bit here and there.
var BenfordShares = [9]float64{
	0.30102999566398120, 0.17609125905568124, 0.12493873660829992,
	0.096910013008056420, 0.079181246047624818, 0.066946789630613221,
	0.057991946977686733, 0.051152522447381291, 0.045757490560675143,
}

// DataFlag is one finding in a table under data/. Kind says which fields
// apply: DuplicateRows uses Rows, Duplicates and Examples; Benford uses
// Column, Values, MAD and Observed. Its JSON has exactly the fields of its
// kind.
type DataFlag struct {
	Kind string
	Path string
	// Rows is how many data rows the table has, not counting the header.
	Rows int
	// Duplicates is how many rows repeat an earlier row exactly.
	Duplicates int
	// Examples are the first few repeats.
	Examples []RepeatedRow
	// Column is the column's name, from the header.
	Column string
	// Values is how many values had their first digit counted: nonzero
	// numbers.
	Values int
	// MAD is the mean absolute deviation of the first-digit shares from
	// Benford's (Nigrini), rounded to four decimals.
	MAD float64
	// Observed is the share of values starting with each digit, 1 to 9,
	// rounded to four decimals.
	Observed []float64
}

// RepeatedRow is a row that repeats an earlier one. Rows count from 1, the
// header being row 1.
type RepeatedRow struct {
	Row     int `json:"row"`
	Repeats int `json:"repeats"`
}

type duplicateRowsJSON struct {
	Kind       string        `json:"kind"`
	Path       string        `json:"path"`
	Rows       int           `json:"rows"`
	Duplicates int           `json:"duplicates"`
	Examples   []RepeatedRow `json:"examples"`
}

type benfordJSON struct {
	Kind     string    `json:"kind"`
	Path     string    `json:"path"`
	Column   string    `json:"column"`
	Values   int       `json:"values"`
	MAD      float64   `json:"mad"`
	Observed []float64 `json:"observed"`
}

// MarshalJSON writes the fields of the flag's kind, in the reference's order.
func (f DataFlag) MarshalJSON() ([]byte, error) {
	switch f.Kind {
	case DuplicateRows:
		return json.Marshal(duplicateRowsJSON{f.Kind, f.Path, f.Rows, f.Duplicates, nonNil(f.Examples)})
	case Benford:
		return json.Marshal(benfordJSON{f.Kind, f.Path, f.Column, f.Values, f.MAD, nonNil(f.Observed)})
	}
	return nil, fmt.Errorf("paper: data flag of unknown kind %q", f.Kind)
}

// UnmarshalJSON reads a flag of either kind.
func (f *DataFlag) UnmarshalJSON(data []byte) error {
	var kind struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &kind); err != nil {
		return fmt.Errorf("paper: reading a data flag: %w", err)
	}
	switch kind.Kind {
	case DuplicateRows:
		var d duplicateRowsJSON
		if err := json.Unmarshal(data, &d); err != nil {
			return fmt.Errorf("paper: reading a duplicate_rows flag: %w", err)
		}
		*f = DataFlag{Kind: d.Kind, Path: d.Path, Rows: d.Rows, Duplicates: d.Duplicates, Examples: d.Examples}
	case Benford:
		var b benfordJSON
		if err := json.Unmarshal(data, &b); err != nil {
			return fmt.Errorf("paper: reading a benford flag: %w", err)
		}
		*f = DataFlag{Kind: b.Kind, Path: b.Path, Column: b.Column, Values: b.Values, MAD: b.MAD, Observed: b.Observed}
	default:
		return fmt.Errorf("paper: data flag of unknown kind %q", kind.Kind)
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// tableDelimiter is the delimiter of a table under data/ by its extension
// (.csv or .tsv, in any case), or 0 for any other file.
func tableDelimiter(path string) byte {
	if !strings.HasPrefix(path, "data/") {
		return 0
	}
	switch asciiLower(path[strings.LastIndexByte(path, '.')+1:]) {
	case "csv":
		return ','
	case "tsv":
		return '\t'
	}
	return 0
}

// IsCheckedTable reports whether Flags reads a file as a table: a CSV or TSV
// file under data/.
func IsCheckedTable(path string) bool { return tableDelimiter(path) != 0 }

// ParseDelimited reads the rows of a delimited table as RFC 4180 does: fields
// in double quotes may hold the delimiter, line breaks and doubled quotes. A
// quote opens a quoted field only at the field's start; elsewhere it is
// literal. CRLF, CR and LF each end a row, blank lines are left out, and a
// leading byte order mark is skipped.
func ParseDelimited(text string, delimiter byte) [][]string {
	var rows [][]string
	var row []string
	var field strings.Builder
	quoted := false
	endRow := func() {
		row = append(row, field.String())
		field.Reset()
		if len(row) > 1 || row[0] != "" {
			rows = append(rows, row)
		}
		row = nil
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quoted:
			if c == '"' && i+1 < len(text) && text[i+1] == '"' {
				field.WriteByte('"')
				i++
			} else if c == '"' {
				quoted = false
			} else {
				field.WriteByte(c)
			}
		case c == '"' && field.Len() == 0:
			quoted = true
		case c == delimiter:
			row = append(row, field.String())
			field.Reset()
		case c == '\n' || c == '\r':
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			endRow()
		default:
			field.WriteByte(c)
		}
	}
	if field.Len() > 0 || len(row) > 0 {
		endRow()
	}
	return rows
}

// TableFlags returns the duplicate rows and Benford flags of a table whose
// first row names its columns.
func TableFlags(path string, rows [][]string) []DataFlag {
	if len(rows) < 2 {
		return nil
	}
	header, data := rows[0], rows[1:]
	var flags []DataFlag

	first := map[string]int{}
	var repeats []RepeatedRow
	for i, row := range data {
		key := rowKey(row)
		if earlier, ok := first[key]; ok {
			repeats = append(repeats, RepeatedRow{Row: i + 2, Repeats: earlier + 2})
		} else {
			first[key] = i
		}
	}
	if len(repeats) > 0 {
		flags = append(flags, DataFlag{
			Kind:       DuplicateRows,
			Path:       path,
			Rows:       len(data),
			Duplicates: len(repeats),
			Examples:   repeats[:min(len(repeats), DuplicateExamples)],
		})
	}

	for column, name := range header {
		if flag, ok := benfordFlag(path, name, data, column); ok {
			flags = append(flags, flag)
		}
	}
	return flags
}

// rowKey is a key equal for two rows exactly when their cells are.
func rowKey(row []string) string {
	var b strings.Builder
	for _, cell := range row {
		b.WriteString(strconv.Itoa(len(cell)))
		b.WriteByte(':')
		b.WriteString(cell)
	}
	return b.String()
}

// benfordFlag compares a column's first digits with Benford's law. A column
// is numeric when at least nine in ten of its filled cells are finite
// numbers, read as JavaScript's Number() reads them; its nonzero numbers are
// the values. It needs BenfordMinValues of them, the largest at least
// BenfordMinSpread times the smallest.
func benfordFlag(path, name string, data [][]string, column int) (DataFlag, bool) {
	type value struct {
		cell string
		v    float64
	}
	filled, finite := 0, 0
	var nonzero []value
	smallest, largest := math.Inf(1), 0.0
	for _, row := range data {
		cell := ""
		if column < len(row) {
			cell = jsTrim(row[column])
		}
		if cell == "" {
			continue
		}
		filled++
		v, ok := jsNumber(cell)
		if !ok || math.IsInf(v, 0) {
			continue
		}
		finite++
		if v == 0 {
			continue
		}
		nonzero = append(nonzero, value{cell, v})
		smallest, largest = min(smallest, math.Abs(v)), max(largest, math.Abs(v))
	}
	if filled == 0 || float64(finite) < 0.9*float64(filled) ||
		len(nonzero) < BenfordMinValues || largest < BenfordMinSpread*smallest {
		return DataFlag{}, false
	}
	var counts [9]int
	for _, n := range nonzero {
		counts[firstDigit(n.cell, n.v)-1]++
	}
	observed := make([]float64, 9)
	mad := 0.0
	for i, count := range counts {
		observed[i] = float64(count) / float64(len(nonzero))
		mad += math.Abs(observed[i] - BenfordShares[i])
	}
	mad /= 9
	if mad <= BenfordMaxMAD {
		return DataFlag{}, false
	}
	for i := range observed {
		observed[i] = round4(observed[i])
	}
	return DataFlag{Kind: Benford, Path: path, Column: name, Values: len(nonzero), MAD: round4(mad), Observed: observed}, true
}

// firstDigit is the first significant digit of a nonzero number as written,
// read from its digits so rounding can't change it: the first of 1 to 9 in
// its mantissa, after any sign. A number written with none there, such as
// the hexadecimal 0x0A, makes the reference throw; here its value's first
// significant digit is counted instead.
func firstDigit(cell string, v float64) int {
	mantissa := cell
	if mantissa != "" && (mantissa[0] == '+' || mantissa[0] == '-') {
		mantissa = mantissa[1:]
	}
	if i := strings.IndexAny(mantissa, "eE"); i >= 0 {
		mantissa = mantissa[:i]
	}
	for _, c := range []byte(mantissa) {
		if '1' <= c && c <= '9' {
			return int(c - '0')
		}
	}
	return int(strconv.FormatFloat(math.Abs(v), 'e', -1, 64)[0] - '0')
}

// round4 rounds to four decimals as Math.round(n * 1e4) / 1e4 does: halves
// up, toward positive infinity.
func round4(n float64) float64 {
	x := n * 1e4
	r := math.Floor(x)
	if x-r >= 0.5 {
		r++
	}
	return r / 1e4
}

// jsNumber reads s as JavaScript's Number(s) does, reporting false where that
// gives NaN: white space around it is ignored; it is empty (0), a decimal
// literal with optional sign, fraction and exponent, Infinity with optional
// sign, or an unsigned 0x, 0o or 0b integer. Numeric separators and
// everything else make NaN.
func jsNumber(s string) (float64, bool) {
	s = jsTrim(s)
	if s == "" {
		return 0, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, ok := new(big.Int).SetString(s[2:], base)
			if !ok || strings.ContainsAny(s[2:], "_+-") {
				return 0, false
			}
			f, _ := new(big.Float).SetInt(n).Float64()
			return f, true
		}
	}
	body := s
	if s[0] == '+' || s[0] == '-' {
		body = s[1:]
	}
	if body == "Infinity" {
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if !isDecimalLiteral(body) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// isDecimalLiteral reports whether s is an unsigned StrUnsignedDecimalLiteral
// without Infinity: digits with an optional fraction, or a fraction alone,
// then an optional exponent. Digits are ASCII only.
func isDecimalLiteral(s string) bool {
	i, digits := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exponent := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == exponent {
			return false
		}
	}
	return i == len(s)
}
