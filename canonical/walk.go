package canonical

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// A walker reads a text and builds its Go values in one pass, checking RFC
// 8259's grammar, UTF-8 and the rules I-JSON adds as it goes: it makes no
// token and no copy of a string without escapes. What it leaves to
// jsontext is what is rare and intricate: a string with escapes is decoded
// and checked by jsontext.AppendUnquote, and a text the walker refuses is
// read again by jsontext, only to say where and why (explainRefusal).
// FuzzCanonical holds the walker to jsontext's validator.
type walker struct {
	data  []byte // a private copy of the text and a NUL: strings without escapes point into it
	text  string // data viewed as a string, never copied
	end   int    // len of the text: data[end] is the NUL, which nothing in JSON accepts
	i     int
	stack []any // array elements under construction, shared by every depth
}

// errNotJSON is what the walker returns for a text that breaks RFC 8259 or
// repeats a member name: Parse asks jsontext to explain it.
var errNotJSON = errors.New("not JSON")

func (w *walker) skipSpace() {
	for {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) fail(reason string) error {
	return &SyntaxError{Offset: int64(w.i), Reason: reason}
}

// literal consumes word if the text continues with it.
func (w *walker) literal(word string) bool {
	if w.end-w.i < len(word) || w.text[w.i:w.i+len(word)] != word {
		return false
	}
	w.i += len(word)
	return true
}

func (w *walker) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, w.fail("nested too deeply")
	}
	w.skipSpace()
	switch c := w.data[w.i]; c {
	case 'n':
		if w.literal("null") {
			return nil, nil
		}
	case 't':
		if w.literal("true") {
			return true, nil
		}
	case 'f':
		if w.literal("false") {
			return false, nil
		}
	case '"':
		return w.string()
	case '[':
		return w.array(depth)
	case '{':
		return w.object(depth)
	default:
		if c == '-' || c-'0' <= 9 {
			return w.number()
		}
	}
	return nil, errNotJSON
}

func (w *walker) array(depth int) (any, error) {
	w.i++
	w.skipSpace()
	if w.data[w.i] == ']' {
		w.i++
		return []any{}, nil
	}
	base := len(w.stack)
	for {
		v, err := w.value(depth + 1)
		if err != nil {
			return nil, err
		}
		w.stack = append(w.stack, v)
		w.skipSpace()
		c := w.data[w.i]
		w.i++
		if c == ']' {
			break
		}
		if c != ',' {
			return nil, errNotJSON
		}
	}
	arr := make([]any, len(w.stack)-base)
	copy(arr, w.stack[base:])
	clear(w.stack[base:])
	w.stack = w.stack[:base]
	return arr, nil
}

func (w *walker) object(depth int) (any, error) {
	w.i++
	obj := map[string]any{}
	w.skipSpace()
	if w.data[w.i] == '}' {
		w.i++
		return obj, nil
	}
	for {
		w.skipSpace()
		if w.data[w.i] != '"' {
			return nil, errNotJSON
		}
		k, err := w.string()
		if err != nil {
			return nil, err
		}
		w.skipSpace()
		if w.data[w.i] != ':' {
			return nil, errNotJSON
		}
		w.i++
		v, err := w.value(depth + 1)
		if err != nil {
			return nil, err
		}
		// Names are compared as decoded: a map that did not grow already
		// had this one.
		n := len(obj)
		obj[k] = v
		if len(obj) == n {
			return nil, errNotJSON
		}
		w.skipSpace()
		c := w.data[w.i]
		w.i++
		if c == '}' {
			return obj, nil
		}
		if c != ',' {
			return nil, errNotJSON
		}
	}
}

// smallInts holds 0 to 255 already boxed, as the runtime keeps small
// integers: counts, indexes and versions are most of the numbers an entry
// has, and each would otherwise be an allocation of its own.
var smallInts = func() (boxed [256]any) {
	for i := range boxed {
		boxed[i] = float64(i)
	}
	return boxed
}()

// digits consumes a run of decimal digits and says how many there were.
func (w *walker) digits() int {
	start := w.i
	for w.data[w.i]-'0' <= 9 {
		w.i++
	}
	return w.i - start
}

// number reads a number as RFC 8259 writes it. A whole number of up to 15
// digits is below 2^53, so its integer value converts exactly, to what
// ParseFloat would return; anything else goes to ParseFloat.
func (w *walker) number() (any, error) {
	start := w.i
	neg := w.data[w.i] == '-'
	if neg {
		w.i++
	}
	intStart := w.i
	if w.data[w.i] == '0' {
		w.i++
	} else if w.digits() == 0 {
		return nil, errNotJSON
	}
	intEnd := w.i
	whole := true
	if w.data[w.i] == '.' {
		w.i++
		if w.digits() == 0 {
			return nil, errNotJSON
		}
		whole = false
	}
	if c := w.data[w.i]; c == 'e' || c == 'E' {
		w.i++
		if c := w.data[w.i]; c == '+' || c == '-' {
			w.i++
		}
		if w.digits() == 0 {
			return nil, errNotJSON
		}
		whole = false
	}
	if whole && intEnd-intStart <= 15 {
		var n int64
		for _, d := range w.data[intStart:intEnd] {
			n = n*10 + int64(d-'0')
		}
		switch {
		case !neg && n < int64(len(smallInts)):
			return smallInts[n], nil
		case neg && n == 0:
			return math.Copysign(0, -1), nil
		case neg:
			return float64(-n), nil
		}
		return float64(n), nil
	}
	f, err := parseNumber(w.text[start:w.i])
	if err != nil {
		w.i = start
		return nil, w.fail(err.Error())
	}
	return f, nil
}

// What a byte inside a string means to walker.string.
const (
	plain = iota
	quote
	backslash
	control  // below 0x20: never raw in a string, and the NUL after the text
	nonASCII // the UTF-8 must be checked, and from 0xEF up it may be a noncharacter
)

var stringByte = func() (kinds [256]byte) {
	kinds['"'] = quote
	kinds['\\'] = backslash
	for c := range 0x20 {
		kinds[c] = control
	}
	for c := 0x80; c < 0x100; c++ {
		kinds[c] = nonASCII
	}
	return kinds
}()

func (w *walker) string() (string, error) {
	start := w.i
	w.i++
	escaped, ascii := false, true
scan:
	for {
		switch stringByte[w.data[w.i]] {
		case plain:
			w.i++
		case quote:
			break scan
		case backslash:
			escaped = true
			if w.i+1 >= w.end {
				return "", errNotJSON
			}
			w.i += 2 // the escaped byte may be a quote; AppendUnquote checks it
		case control:
			return "", errNotJSON
		case nonASCII:
			ascii = false
			w.i++
		}
	}
	w.i++
	var s string
	if escaped {
		// jsontext decodes the escapes and refuses bad ones, lone
		// surrogates and invalid UTF-8.
		b, err := jsontext.AppendUnquote(nil, w.data[start:w.i])
		if err != nil {
			return "", errNotJSON
		}
		s = unsafe.String(unsafe.SliceData(b), len(b))
	} else {
		// w.data is never written after parseFast copies it, so the string
		// may share its bytes: one allocation for the whole text instead of
		// one per string.
		s = w.text[start+1 : w.i-1]
		if ascii {
			return s, nil
		}
		if !utf8.ValidString(s) {
			return "", errNotJSON
		}
	}
	if err := checkString(s); err != nil {
		return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
	}
	return s, nil
}

// parseFast reads data with a walker. It returns errNotJSON, for Parse to
// explain, for any text jsontext's validator would refuse.
func parseFast(data []byte) (v any, err error) {
	own := make([]byte, len(data)+1)
	copy(own, data)
	w := walker{data: own, text: unsafe.String(unsafe.SliceData(own), len(own)), end: len(data)}
	defer func() {
		// Every read is bounded by the NUL after the text; should one not
		// be, refuse the text rather than crash.
		if r := recover(); r != nil {
			v, err = nil, &SyntaxError{Offset: int64(w.i), Reason: fmt.Sprint("unreadable JSON: ", r)}
		}
	}()
	if v, err = w.value(0); err != nil {
		return nil, err
	}
	w.skipSpace()
	if w.i != w.end {
		return nil, errNotJSON
	}
	return v, nil
}
