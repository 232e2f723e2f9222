package hybrid

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// FuzzDecodeLowerHex holds the word-at-a-time decoder to encoding/hex,
// refusing what that accepts only in upper case, on any text and at any
// offset of a word.
func FuzzDecodeLowerHex(f *testing.F) {
	for _, seed := range []string{"", "00", "0123456789abcdef", "0123456789abcdeF", "0123456789abcdef0123456789abcde",
		"ffffffffffffffffffffffffffffffff00", "g0000000000000000000", "0000000000000000/0", ":" + strings.Repeat("0", 17),
		"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80", "`aaaaaaaaaaaaaaa", "@9999999999999999"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dst := make([]byte, len(s)/2)
		got := decodeLowerHex(dst, s)
		want, err := hex.DecodeString(s)
		ok := err == nil && !strings.ContainsAny(s, "ABCDEF")
		if got != ok {
			t.Fatalf("%q: decodeLowerHex says %v, encoding/hex %v", s, got, ok)
		}
		if ok && !bytes.Equal(dst, want) {
			t.Fatalf("%q: decoded %x, want %x", s, dst, want)
		}
	})
}

// TestDecodeLowerHexEveryByte puts each of the 256 bytes at each place of a
// signature's worth of digits: only the 16 lowercase digits decode.
func TestDecodeLowerHexEveryByte(t *testing.T) {
	base := []byte(strings.Repeat("0123456789abcdef", SignatureSize/8) + "01234567")
	dst := make([]byte, len(base)/2)
	if !decodeLowerHex(dst, string(base)) {
		t.Fatal("a text of lowercase digits was refused")
	}
	for _, at := range []int{0, 1, 7, 8, 15, 16, len(base) - 9, len(base) - 1} {
		for c := range 256 {
			text := bytes.Clone(base)
			text[at] = byte(c)
			want := strings.IndexByte("0123456789abcdef", byte(c)) >= 0
			if got := decodeLowerHex(dst, string(text)); got != want {
				t.Fatalf("byte %#x at %d: decoded %v, want %v", c, at, got, want)
			}
			if want && dst[at/2] != byte(mustHex(t, string(text[at&^1:at&^1+2]))) {
				t.Fatalf("byte %#x at %d decoded as %#x", c, at, dst[at/2])
			}
		}
	}
}

func mustHex(t *testing.T, s string) byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b[0]
}
