package canonical

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal returns the RFC 8785 canonical JSON of v: no whitespace, object
// members sorted by their names as UTF-16 code units, strings escaped as
// ECMAScript's JSON.stringify escapes them, numbers written as ECMAScript's
// Number.prototype.toString writes them.
//
// v may be built from nil, bool, string, float64, float32, int, int64,
// uint64, []any, []string, map[string]any, map[string]string and Raw,
// nested freely. Strings must be valid UTF-8; NaN and infinities are refused.
func Marshal(v any) ([]byte, error) {
	// Most entries a node writes are under a kilobyte: starting there,
	// their buffer never grows (growing it was a fifth of the time).
	return AppendMarshal(make([]byte, 0, 1024), v)
}

// Raw is JSON text already in canonical form (what Marshal wrote, such as
// a record's canonical JSON), which Marshal writes as it is inside a
// larger value instead of parsing it back into values to write them again.
// The one who makes a Raw vouches for its form: Marshal does not check it.
type Raw []byte

// MarshalJSON writes r as it is, so encoding/json writes the same JSON.
func (r Raw) MarshalJSON() ([]byte, error) { return r, nil }

// AppendMarshal appends the canonical JSON of v to dst.
func AppendMarshal(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v, 0)
}

func appendValue(dst []byte, v any, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, fmt.Errorf("canonical: value nested too deeply")
	}
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		return appendString(dst, v)
	case Raw:
		return append(dst, v...), nil
	case float64:
		return AppendNumber(dst, v)
	case float32:
		return AppendNumber(dst, float64(v))
	case int:
		return AppendNumber(dst, float64(v))
	case int64:
		return AppendNumber(dst, float64(v))
	case uint64:
		return AppendNumber(dst, float64(v))
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, e, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case []string:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendString(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		if len(v) <= smallObject {
			return appendSmallObject(dst, v, depth)
		}
		members := sortedMembers(v)
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendString(dst, m.name); err != nil {
				return dst, err
			}
			dst = append(dst, ':')
			if dst, err = appendValue(dst, m.value, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case map[string]string:
		return appendStringMap(dst, v)
	}
	// Anything else (structs, typed slices and maps) goes through
	// encoding/json and back through the strict parser, so it is written
	// as the JSON it marshals to, canonically.
	text, err := json.Marshal(v)
	if err != nil {
		return dst, fmt.Errorf("canonical: cannot encode a %T: %w", v, err)
	}
	parsed, err := Parse(text)
	if err != nil {
		return dst, fmt.Errorf("canonical: a %T marshals to JSON that is not I-JSON: %w", v, err)
	}
	return appendValue(dst, parsed, depth)
}

// appendStringMap writes a map[string]string; its scratch for the sorted
// names stays out of appendValue's frame, which every nested value has.
func appendStringMap(dst []byte, v map[string]string) ([]byte, error) {
	var scratch [16]string
	keys := sortedKeys(v, scratch[:])
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendString(dst, k); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendString(dst, v[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// sortedKeys returns m's keys in canonical order, in scratch when they fit.
func sortedKeys[V any](m map[string]V, scratch []string) []string {
	keys := scratch[:0]
	byteOrder := true
	for k := range m {
		keys = append(keys, k)
		byteOrder = byteOrder && !hasUTF16Trap(k)
	}
	if byteOrder {
		slices.Sort(keys)
	} else {
		slices.SortFunc(keys, CompareUTF16)
	}
	return keys
}

// member is an object member, kept with its name so that writing members
// in order needs no second look-up in the map.
type member struct {
	name  string
	value any
}

// sortedMembers returns m's members in canonical order.
func sortedMembers(m map[string]any) []member {
	members := make([]member, 0, len(m))
	byteOrder := true
	for k, v := range m {
		members = append(members, member{k, v})
		byteOrder = byteOrder && !hasUTF16Trap(k)
	}
	if byteOrder {
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	} else {
		slices.SortFunc(members, func(a, b member) int { return CompareUTF16(a.name, b.name) })
	}
	return members
}

// smallObject is the most members appendSmallObject writes: most objects
// have a handful.
const smallObject = 16

// appendSmallObject writes an object of at most smallObject members. It
// keeps the members in an array of its own and sorts their indexes: stores
// into its own frame need no write barrier (they were a tenth of the time
// while the collector ran, through a slice the compiler cannot tell is on
// the stack), and an insertion sort of a few bytes, comparing first bytes
// inline (lessUTF16), costs a fraction of a sort calling a comparison.
func appendSmallObject(dst []byte, m map[string]any, depth int) ([]byte, error) {
	var members [smallObject]member
	var order [smallObject]uint8
	n := 0
	for k, v := range m {
		members[n] = member{k, v}
		n++
	}
	for i := 1; i < n; i++ {
		o := uint8(i) // order[:i] holds 0…i-1 sorted; insert i
		name := members[o].name
		j := i
		for j > 0 && lessUTF16(name, members[order[j-1]].name) {
			order[j] = order[j-1]
			j--
		}
		order[j] = o
	}
	dst = append(dst, '{')
	for i, o := range order[:n] {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendString(dst, members[o].name); err != nil {
			return dst, err
		}
		dst = append(dst, ':')
		if dst, err = appendValue(dst, members[o].value, depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// lessUTF16 reports whether a sorts before b as UTF-16 code units. Most
// member names differ in their first byte: when neither of those starts a
// code point at or above U+E000 (0xEE), UTF-16 orders the two as bytes do
// (see CompareUTF16).
func lessUTF16(a, b string) bool {
	if len(a) > 0 && len(b) > 0 && a[0] != b[0] && a[0] < 0xEE && b[0] < 0xEE {
		return a[0] < b[0]
	}
	return CompareUTF16(a, b) < 0
}

// hasUTF16Trap reports whether s holds a code point at or above U+E000,
// the only ones whose UTF-16 order differs from UTF-8's byte order (see
// CompareUTF16): names without one sort as plain strings.
func hasUTF16Trap(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xEE {
			return true
		}
	}
	return false
}

// CompareUTF16 orders two UTF-8 strings as sequences of UTF-16 code units, the
// order RFC 8785 sorts member names in. It differs from byte order only where
// a code point at or above U+E000 meets one above U+FFFF: UTF-16 writes the
// latter as surrogates (D800–DFFF), which sort first.
func CompareUTF16(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return len(a) - len(b)
	}
	if a[i] < 0x80 && b[i] < 0x80 {
		return int(a[i]) - int(b[i])
	}
	// Back up to the start of the code point holding the first difference.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	ua, ub := utf16Lead(ra), utf16Lead(rb)
	if ua != ub {
		return int(ua) - int(ub)
	}
	return int(ra) - int(rb)
}

// utf16Lead is the first UTF-16 code unit of r.
func utf16Lead(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

const hexDigits = "0123456789abcdef"

// special marks the bytes appendString looks at twice: those JSON.stringify
// escapes, '"', '\\' and the controls below U+0020, and those of code
// points beyond ASCII, whose UTF-8 it checks. Everything else, and every
// code point beyond ASCII (U+2028 and U+2029 included), is written raw.
var special = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// specialBytes has the high bit set in each byte of w that appendString
// must look at (see special): at or above 0x80, below 0x20, '"' or '\\'.
// (The SWAR tests of "Bit Twiddling Hacks": a byte below n has the high bit
// of w - n×0x01… set where w's was clear.) Borrows make the test exact for
// the lowest such byte only: a byte above it may be marked when it is not.
func specialBytes(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - 0x20*ones) &^ w
	quote := w ^ ('"' * ones)
	backslash := w ^ ('\\' * ones)
	zeroQuote := (quote - ones) &^ quote
	zeroBackslash := (backslash - ones) &^ backslash
	return (w | below | zeroQuote | zeroBackslash) & highs
}

// load64 reads the 8 bytes of s as a little-endian word (the compiler
// makes it one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// nextSpecial returns the index of the first byte at or after i in s that
// appendString must look at, or len(s), a word at a time: where a word has
// one, the lowest marked byte is it; the last bytes are read in the word
// ending at len(s), whose bytes before i are shifted out (those may have
// marked the first byte after them when it is not special, which the caller
// checks for).
func nextSpecial(s string, i int) int {
	for i+8 <= len(s) {
		if m := specialBytes(load64(s[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	if i >= len(s) {
		return len(s)
	}
	if len(s) < 8 {
		for i < len(s) && !special[s[i]] {
			i++
		}
		return i
	}
	m := specialBytes(load64(s[len(s)-8:])) >> (8 * (8 - (len(s) - i)))
	if m == 0 {
		return len(s)
	}
	return i + bits.TrailingZeros64(m)>>3
}

func appendString(dst []byte, s string) ([]byte, error) {
	dst = append(dst, '"')
	start := 0
	for i := nextSpecial(s, 0); i < len(s); i = nextSpecial(s, i) {
		c := s[i]
		if !special[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return dst, fmt.Errorf("canonical: string is not valid UTF-8")
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), nil
}

// AppendNumber appends f as ECMAScript's Number.prototype.toString writes it:
// the shortest digits that read back as f, in plain notation when
// 1e-6 <= |f| < 1e21 and in exponent notation otherwise; -0 is written 0.
func AppendNumber(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, fmt.Errorf("canonical: %v has no JSON form", f)
	}
	if f == 0 {
		return append(dst, '0'), nil
	}
	// Whole numbers below 2^53 print exactly as integers: the common case.
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(dst, int64(f), 10), nil
	}
	// strconv's shortest digits are the ones ECMAScript picks (fewest that
	// read back as f, the closest to f among those). ECMAScript writes them
	// in plain notation exactly when the decimal point falls within 21
	// digits left of them and 6 zeros right of "0.": for the shortest
	// digits of f that is 1e-6 <= |f| < 1e21, the two bounds compared as the
	// floats nearest them (1e21 is one exactly; the float nearest 1e-6 has
	// the shortest digits "1e-6", and rounding is monotone, so no f on
	// either side of a bound has digits on the other). In that range
	// strconv's 'f' writes the digits as ECMAScript does: padded with zeros
	// to the point, or with the point among them, or after "0." and zeros.
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		if out, ok := appendShortDecimal(dst, f); ok {
			return out, nil
		}
		return strconv.AppendFloat(dst, f, 'f', -1, 64), nil
	}
	// Otherwise 'e' writes d.ddde±XX, which ECMAScript writes the same but
	// for the exponent's leading zero strconv pads to two digits (1e-07 is
	// 1e-7; 1e+21 and 1e+308 have none).
	dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	if n := len(dst); dst[n-2] == '0' && (dst[n-3] == '-' || dst[n-3] == '+') {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst, nil
}

// pow10 holds 10^j for the decimals appendShortDecimal tries, each exact.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// appendShortDecimal writes f, a number that is not whole with
// 1e-6 <= |f| < 1e21, when a decimal of at most 8 places reads back as it
// and f×10^places stays below 2^48 (0.1, 2.5, 0.002, 123456789.125), the
// way Number.prototype.toString writes it, without the general
// shortest-digits search; it reports false, writing nothing, for any other f.
//
// For the first j = 1…8 with m = round(f×10^j) and m/10^j == f, m×10^-j is
// what ECMAScript writes. The division of an exact integer below 2^53 by an
// exact 10^j rounds the true quotient, so the decimal reads back as f. Let u
// be a unit in the last place of f: u <= |f|×2^-52, so while |f×10^j| < 2^48,
// 10^j×u < 1/16. A decimal d×10^-j that reads back as f is within u/2 of f,
// so d is within 1/32 of the true product and, the computed one off by less
// than 2^-5 more, is m: no j' < j had one (the loop tried the only
// candidate), and m is the only one with j places. One with j+1 places
// other than m×10^-j would be 10^-(j+1) > u from it, yet both within u/2 of
// f; one with more places has more digits (it is within u of m×10^-j, so
// its first digit is at most one place lower); no whole number reads back
// as f (one below 2^53 is its own float, and |f| < 2^48). So m×10^-j has the
// fewest digits of any decimal that reads back as f, alone.
func appendShortDecimal(dst []byte, f float64) ([]byte, bool) {
	for j := 1; j < len(pow10); j++ {
		x := f * pow10[j]
		if math.Abs(x) >= 1<<48 {
			return dst, false
		}
		m := math.RoundToEven(x) // one instruction; a tie has no candidate (see above)
		if m/pow10[j] != f {
			continue
		}
		var buf [24]byte
		n := int64(m)
		if n < 0 {
			dst = append(dst, '-')
			n = -n
		}
		digits := strconv.AppendInt(buf[:0], n, 10)
		if point := len(digits) - j; point > 0 {
			dst = append(dst, digits[:point]...)
			dst = append(dst, '.')
			dst = append(dst, digits[point:]...)
		} else {
			dst = append(dst, '0', '.')
			for range -point {
				dst = append(dst, '0')
			}
			dst = append(dst, digits...)
		}
		return dst, true
	}
	return dst, false
}
