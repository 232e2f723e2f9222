// Package canonical reads JSON strictly (RFC 7493 I-JSON) and writes it
// canonically (RFC 8785, JCS), byte for byte as the sciencejournal protocol's
// reference library does.
//
// Everything the protocol hashes or signs passes through this package: a claim
// ID, a bundle hash, a signature payload and a Merkle leaf are all SHA-256 over
// canonical bytes, so a single differing byte makes another implementation
// reject our work.
//
// Parse returns the generic Go form of a JSON value: map[string]any, []any,
// string, float64, bool and nil. Marshal accepts those, plus the common Go
// scalar, slice and map types listed on Marshal.
//
// The spec that requires both: spec/ledger-protocol.md; its vectors are in
// testdata/conformance.
package canonical

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// ErrNotIJSON is wrapped by every error Parse returns for input that is not
// strict I-JSON.
var ErrNotIJSON = errors.New("not I-JSON")

// SyntaxError says where and why a text was refused.
type SyntaxError struct {
	Offset int64  // byte offset into the input, where known
	Reason string // what was wrong, for a person to read
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not I-JSON: %s (at byte %d)", e.Reason, e.Offset)
}

func (e *SyntaxError) Unwrap() error { return ErrNotIJSON }

// Parse reads exactly one JSON value from data under the protocol's strict
// I-JSON rules. It refuses text that is not JSON (a byte order mark included),
// a repeated member name at any depth (compared after escapes are decoded),
// invalid UTF-8, lone surrogates, Unicode noncharacters in strings or member
// names, and numbers that overflow binary64. Numbers that underflow or lose
// precision are read as the nearest binary64 value.
func Parse(data []byte) (any, error) {
	v, err := parseFast(data)
	if err == nil {
		return v, nil
	}
	// A text that is not JSON at all is explained as jsontext reads it, even
	// where the walker first met a number that overflows or a noncharacter.
	if err == errNotJSON || !jsontext.Value(data).IsValid() {
		return nil, explainRefusal(data)
	}
	return nil, err
}

// explainRefusal reads a text jsontext's validator refused token by token,
// only to say where and why.
func explainRefusal(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if _, err := parseValue(dec, 0); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return &SyntaxError{Offset: dec.InputOffset(), Reason: "more than one JSON value"}
	}
	// The decoder read what the validator refused: refuse it too, rather
	// than accept what either one doubts.
	return &SyntaxError{Offset: 0, Reason: "invalid JSON"}
}

// maxDepth bounds nesting so a hostile text cannot exhaust the stack.
const maxDepth = 1000

func parseValue(dec *jsontext.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, &SyntaxError{Offset: dec.InputOffset(), Reason: "nested too deeply"}
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, syntaxError(dec, err)
	}
	switch tok.Kind() {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		s := tok.String()
		if err := checkString(s); err != nil {
			return nil, &SyntaxError{Offset: dec.InputOffset(), Reason: err.Error()}
		}
		return s, nil
	case '0':
		f, err := parseNumber(tok.String())
		if err != nil {
			return nil, &SyntaxError{Offset: dec.InputOffset(), Reason: err.Error()}
		}
		return f, nil
	case '[':
		arr := []any{}
		for dec.PeekKind() != ']' {
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, syntaxError(dec, err)
		}
		return arr, nil
	case '{':
		obj := map[string]any{}
		for dec.PeekKind() != '}' {
			name, err := dec.ReadToken()
			if err != nil {
				return nil, syntaxError(dec, err)
			}
			key := name.String()
			if err := checkString(key); err != nil {
				return nil, &SyntaxError{Offset: dec.InputOffset(), Reason: "member name: " + err.Error()}
			}
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, syntaxError(dec, err)
		}
		return obj, nil
	}
	return nil, &SyntaxError{Offset: dec.InputOffset(), Reason: "unexpected token"}
}

func syntaxError(dec *jsontext.Decoder, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	offset := dec.InputOffset()
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		offset = se.ByteOffset
	}
	reason, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "jsontext: "), " after offset ")
	return &SyntaxError{Offset: offset, Reason: reason}
}

// parseNumber reads a JSON number as binary64, refusing overflow but not
// underflow: I-JSON allows precision loss, never a changed magnitude.
func parseNumber(text string) (float64, error) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if math.IsInf(f, 0) {
			return 0, fmt.Errorf("number %.40s overflows binary64", text)
		}
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			return 0, fmt.Errorf("bad number %.40s", text)
		}
	}
	return f, nil
}

// checkString refuses Unicode noncharacters. jsontext has already refused
// invalid UTF-8 and lone surrogates, escaped or raw.
func checkString(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] < 0xEF {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isNoncharacter(r) {
			return fmt.Errorf("noncharacter U+%04X in string", r)
		}
		i += size - 1
	}
	return nil
}

func isNoncharacter(r rune) bool {
	return (r >= 0xFDD0 && r <= 0xFDEF) || r&0xFFFE == 0xFFFE
}

// Canonicalize parses text strictly and returns its canonical form.
func Canonicalize(text []byte) ([]byte, error) {
	v, err := Parse(text)
	if err != nil {
		return nil, err
	}
	return Marshal(v)
}

// Digest returns "sha256:" and the hex SHA-256 of data: the protocol's digest
// form.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// CanonicalDigest returns the digest of v's canonical JSON.
func CanonicalDigest(v any) (string, error) {
	var b []byte
	var err error
	if s, ok := v.(string); ok {
		// A signature's digest is of a string of about 5 KB: a buffer of
		// its size is not grown from Marshal's kilobyte three times.
		b, err = AppendMarshal(make([]byte, 0, len(s)+16), s)
	} else {
		b, err = Marshal(v)
	}
	if err != nil {
		return "", err
	}
	return Digest(b), nil
}

// Valid reports, as Parse would, whether data is one I-JSON value, without
// building it: a check of a large file that nothing reads takes memory only
// for the decoder's state, not for the values.
func Valid(data []byte) error {
	if !jsontext.Value(data).IsValid() {
		return explainRefusal(data)
	}
	// A bytes.Buffer is read in place, where a reader would be copied
	// into the decoder's own buffer, as large as the largest string.
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	open := 0           // containers the next token is inside
	var unquoted []byte // reused: a string is read raw, not copied
	for {
		kind := dec.PeekKind()
		if kind == 0 {
			return nil
		}
		if kind != ']' && kind != '}' && open > maxDepth {
			return &SyntaxError{Offset: dec.InputOffset(), Reason: "nested too deeply"}
		}
		if kind == '"' {
			raw, err := dec.ReadValue()
			if err != nil {
				return syntaxError(dec, err)
			}
			if bytes.IndexByte(raw, '\\') < 0 && !hasHighBytes(raw) {
				continue
			}
			if unquoted, err = jsontext.AppendUnquote(unquoted[:0], raw); err != nil {
				return syntaxError(dec, err)
			}
			if err := checkString(unsafeString(unquoted)); err != nil {
				return &SyntaxError{Offset: dec.InputOffset(), Reason: err.Error()}
			}
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return syntaxError(dec, err)
		}
		switch tok.Kind() {
		case '[', '{':
			open++
		case ']', '}':
			open--
		case '"':
			if err := checkString(tok.String()); err != nil {
				return &SyntaxError{Offset: dec.InputOffset(), Reason: err.Error()}
			}
		case '0':
			if _, err := parseNumber(tok.String()); err != nil {
				return &SyntaxError{Offset: dec.InputOffset(), Reason: err.Error()}
			}
		}
	}
}

// hasHighBytes reports whether b holds a byte from 0xEF up, where every
// noncharacter's UTF-8 starts.
func hasHighBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0xEF {
			return true
		}
	}
	return false
}

// unsafeString views b as a string for checkString, which keeps no part
// of it.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
