package canonical

import (
	"bytes"
	"fmt"
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
		start := w.i
		for w.i < len(w.data) {
			switch w.data[w.i] {
			case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				w.i++
				continue
			}
			break
		}
		f, err := parseNumber(string(w.data[start:w.i]))
		if err != nil {
			w.i = start
			return nil, w.fail(err.Error())
		}
		return f, nil
	}
}

func (w *walker) string() (string, error) {
	start := w.i
	w.i++
	escaped := false
	for {
		c := w.data[w.i]
		if c == '"' {
			break
		}
		if c == '\\' {
			escaped = true
			w.i++ // skip the escaped byte, which may be a quote
		}
		w.i++
	}
	w.i++
	var s string
	if !escaped {
		// w.data is never written after parseFast copies it, so the string
		// may share its bytes: one allocation for the whole text instead of
		// one per string.
		if n := w.i - 1 - (start + 1); n > 0 {
			s = unsafe.String(&w.data[start+1], n)
		}
	} else {
		b, err := jsontext.AppendUnquote(nil, w.data[start:w.i])
		if err != nil {
			return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
		}
		s = unsafe.String(unsafe.SliceData(b), len(b))
	}
	if err := checkString(s); err != nil {
		return "", &SyntaxError{Offset: int64(start), Reason: err.Error()}
	}
	return s, nil
}

// parseFast parses data that IsValid accepted.
func parseFast(data []byte) (v any, err error) {
	w := walker{data: bytes.Clone(data)}
	defer func() {
		// The walker trusts jsontext's validation; should the two ever
		// disagree, refuse the text rather than crash.
		if r := recover(); r != nil {
			v, err = nil, &SyntaxError{Offset: int64(w.i), Reason: fmt.Sprint("unreadable JSON: ", r)}
		}
	}()
	return w.value(0)
}
