package canonical

import (
	"bytes"
	"fmt"
	"math"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// A walker builds Go values from a text jsontext has already validated as
// RFC 7493 JSON: one value, well-formed, valid UTF-8, no lone surrogates, no
// duplicate names. Trusting that, it only has to find token boundaries, so it
// is several times faster than reading tokens; it still makes the two checks
// jsontext lacks, number overflow and noncharacters.
type walker struct {
	data  []byte // a private copy of the text: strings without escapes point into it
	text  string // data viewed as a string, never copied
	i     int
	stack []any // array elements under construction, shared by every depth
}

func (w *walker) skipSpace() {
	for w.i < len(w.data) {
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

func (w *walker) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, w.fail("nested too deeply")
	}
	w.skipSpace()
	switch c := w.data[w.i]; c {
	case 'n':
		w.i += 4
		return nil, nil
	case 't':
		w.i += 4
		return true, nil
	case 'f':
		w.i += 5
		return false, nil
	case '"':
		return w.string()
	case '[':
		w.i++
		base := len(w.stack)
		w.skipSpace()
		if w.data[w.i] == ']' {
			w.i++
			return []any{}, nil
		}
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
		}
		arr := make([]any, len(w.stack)-base)
		copy(arr, w.stack[base:])
		clear(w.stack[base:])
		w.stack = w.stack[:base]
		return arr, nil
	case '{':
		w.i++
		obj := map[string]any{}
		w.skipSpace()
		if w.data[w.i] == '}' {
			w.i++
			return obj, nil
		}
		for {
			w.skipSpace()
			k, err := w.string()
			if err != nil {
				return nil, err
			}
			w.skipSpace()
			w.i++ // ':'
			v, err := w.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj[k] = v
			w.skipSpace()
			c := w.data[w.i]
			w.i++
			if c == '}' {
				return obj, nil
			}
		}
	default:
		return w.number()
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

// number reads a number. A whole number of up to 15 digits is below 2^53,
// so converting its integer value is exact and is what ParseFloat would
// return; anything else goes to ParseFloat.
func (w *walker) number() (any, error) {
	start := w.i
	neg := w.data[w.i] == '-'
	if neg {
		w.i++
	}
	var n int64
	digits := w.i
	for w.i < len(w.data) && w.data[w.i]-'0' <= 9 {
		n = n*10 + int64(w.data[w.i]-'0')
		w.i++
	}
	if w.i-digits <= 15 && (w.i == len(w.data) || !numberTail[w.data[w.i]]) {
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
	for w.i < len(w.data) && (numberTail[w.data[w.i]] || w.data[w.i]-'0' <= 9) {
		w.i++
	}
	f, err := parseNumber(w.text[start:w.i])
	if err != nil {
		w.i = start
		return nil, w.fail(err.Error())
	}
	return f, nil
}

// numberTail marks the bytes that continue a number past its integer part.
var numberTail = [256]bool{'.': true, 'e': true, 'E': true, '+': true, '-': true}

func (w *walker) string() (string, error) {
	start := w.i
	w.i++
	// Only an escape or a byte from 0xEF up (where every noncharacter's
	// UTF-8 starts) can make a string one checkString refuses, so the scan
	// notes which it met and checks only those strings.
	escaped, high := false, false
	for {
		c := w.data[w.i]
		switch stringByte[c] {
		case plain:
			w.i++
			continue
		case quote:
		case backslash:
			escaped = true
			w.i += 2 // the escaped byte may be a quote
			continue
		case highByte:
			high = true
			w.i++
			continue
		}
		break
	}
	w.i++
	if !escaped {
		// w.data is never written after parseFast copies it, so the string
		// may share its bytes: one allocation for the whole text instead of
		// one per string.
		s := w.text[start+1 : w.i-1]
		if high {
			if err := checkString(s); err != nil {
				return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
			}
		}
		return s, nil
	}
	b, err := jsontext.AppendUnquote(nil, w.data[start:w.i])
	if err != nil {
		return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
	}
	s := unsafe.String(unsafe.SliceData(b), len(b))
	if err := checkString(s); err != nil {
		return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
	}
	return s, nil
}

// What a byte inside a string means to walker.string.
const (
	plain = iota
	quote
	backslash
	highByte
)

var stringByte = func() (kinds [256]byte) {
	kinds['"'] = quote
	kinds['\\'] = backslash
	for c := 0xEF; c < 0x100; c++ {
		kinds[c] = highByte
	}
	return kinds
}()

// parseFast parses data that IsValid accepted.
func parseFast(data []byte) (v any, err error) {
	own := bytes.Clone(data)
	w := walker{data: own, text: unsafe.String(unsafe.SliceData(own), len(own))}
	defer func() {
		// The walker trusts jsontext's validation; should the two ever
		// disagree, refuse the text rather than crash.
		if r := recover(); r != nil {
			v, err = nil, &SyntaxError{Offset: int64(w.i), Reason: fmt.Sprint("unreadable JSON: ", r)}
		}
	}()
	return w.value(0)
}
