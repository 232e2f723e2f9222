package canonical

import (
	"bytes"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzCanonical checks the strict reader and canonical writer together:
// whatever the input, Parse never panics; what it accepts, Marshal writes,
// Valid agrees with it; that output parses again to the same canonical bytes, and it agrees with
// jsontext's own RFC 8785 canonicalization.
func FuzzCanonical(f *testing.F) {
	for _, seed := range []string{
		`{"b":1,"a":[true,false,null]}`, `{"\ue000":1,"\ud83d\ude00":2}`, `[1e-7,1e21,5e-324,-0,0.1]`,
		`"\u2028<>&\/\u0001"`, `1e400`, `{"a":1,"\u0061":2}`, "\ufeff{}", `"\ufdd0"`, `"\ud800"`,
		`[[[[]]]]`, `{"x":{"y":{"z":"w"}}}`, `123456789012345678901234567890`, `1.152921504606847e+18`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		v, err := Parse(text)
		if verr := Valid(text); (verr == nil) != (err == nil) {
			t.Fatalf("Valid says %v, Parse %v", verr, err)
		}
		if err != nil {
			return
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
