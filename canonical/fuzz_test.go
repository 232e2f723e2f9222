package canonical

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// parseTokens reads text with jsontext's decoder token by token, the slow
// way Parse explains a refusal: the oracle the walker's values are held to.
func parseTokens(text []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(text))
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// sameValue is reflect.DeepEqual, except that numbers are compared bit for
// bit, so -0 and 0 differ.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

// FuzzCanonical checks the strict reader and canonical writer together:
// whatever the input, Parse never panics; it accepts what jsontext's token
// reader accepts and builds the same values; what it accepts, Marshal writes,
// Valid agrees with it; that output parses again to the same canonical bytes, and it agrees with
// jsontext's own RFC 8785 canonicalization.
func FuzzCanonical(f *testing.F) {
	for _, seed := range []string{
		`{"b":1,"a":[true,false,null]}`, `{"\ue000":1,"\ud83d\ude00":2}`, `[1e-7,1e21,5e-324,-0,0.1]`,
		`"\u2028<>&\/\u0001"`, `1e400`, `{"a":1,"\u0061":2}`, "\ufeff{}", `"\ufdd0"`, `"\ud800"`,
		`[[[[]]]]`, `{"x":{"y":{"z":"w"}}}`, `123456789012345678901234567890`, `1.152921504606847e+18`,
		`-0`, `[-0.0,1.5E+3,999999999999999,9999999999999999,-255,255,256]`, `01`, `1.`, `.5`, `-`, `1e+`, `{"a":1,}`, `[1,]`,
		`{"a" 1}`, `[1 2]`, `nul`, `truex`, "\"\xc3\xa9\xef\xb7\x90\"", "\"a\\", "\"\t\"", ` {"k":"\u00e9"} `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		v, err := Parse(text)
		if verr := Valid(text); (verr == nil) != (err == nil) {
			t.Fatalf("Valid says %v, Parse %v", verr, err)
		}
		want, werr := parseTokens(text)
		if (werr == nil) != (err == nil) {
			t.Fatalf("token reader says %v, Parse %v", werr, err)
		}
		if err != nil {
			return
		}
		if !sameValue(v, want) {
			t.Fatalf("Parse read %#v, the token reader %#v", v, want)
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal of a parsed value failed: %v", err)
		}
		v2, err := Parse(out)
		if err != nil {
			t.Fatalf("canonical output %q does not parse: %v", out, err)
		}
		out2, err := Marshal(v2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("canonical form not stable: %q then %q (%v)", out, out2, err)
		}
		ref := jsontext.Value(bytes.Clone(text))
		if err := ref.Canonicalize(); err == nil && !bytes.Equal(ref, out) {
			t.Fatalf("differs from jsontext's RFC 8785 form:\n ours   %q\n theirs %q", out, ref)
		}
	})
}

// plainAppendString is appendString without its word-at-a-time scan: one
// byte at a time, after checking the whole string is UTF-8. It is the
// oracle FuzzAppendString holds the fast scan to.
func plainAppendString(s string) ([]byte, bool) {
	if !utf8.ValidString(s) {
		return nil, false
	}
	dst := []byte{'"'}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"'), true
}

// FuzzAppendString holds appendString's word-at-a-time scan to the plain
// one on any bytes, escapes and invalid UTF-8 at every offset of a word.
func FuzzAppendString(f *testing.F) {
	for _, seed := range []string{"", "plain ascii text here!", "0123456\"89", "abcdefg\\", "tab\there and\x01",
		"é accents ünïcode", "\xff at the start", "seven b\xc3", "emoji 😀 after", "\u2028\u2029", "1234567\x00", "~~~~~~~\x7f"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := appendString(nil, s)
		want, ok := plainAppendString(s)
		if (err == nil) != ok {
			t.Fatalf("%q: appendString error %v, want ok %v", s, err, ok)
		}
		if ok && !bytes.Equal(got, want) {
			t.Fatalf("%q: appendString wrote %q, want %q", s, got, want)
		}
	})
}

// TestAppendStringOffsets puts two bytes from a set of troublesome ones
// (escapes, the bytes after '"' and '\\' and 0x1f that a borrow can mark,
// UTF-8 lead and continuation bytes) at every pair of offsets in strings of
// up to 20 bytes, and holds appendString to plainAppendString on each.
func TestAppendStringOffsets(t *testing.T) {
	set := []byte{'"', '#', '\\', ']', 0, 0x1f, ' ', '!', 0x7f, 0xc3, 0xa9, 0xff, '\n'}
	for n := range 21 {
		for p := range n {
			for q := p; q < n; q++ {
				for _, a := range set {
					for _, b := range set {
						buf := []byte(strings.Repeat("x", n))
						buf[p], buf[q] = a, b
						s := string(buf)
						got, err := appendString(nil, s)
						want, ok := plainAppendString(s)
						if (err == nil) != ok || ok && !bytes.Equal(got, want) {
							t.Fatalf("%q: appendString wrote %q (%v), want %q (ok %v)", s, got, err, want, ok)
						}
					}
				}
			}
		}
	}
}
