package hybrid

import "encoding/binary"

// A signature's text is 4,968 hex digits, and reading them one at a time
// was a fifteenth of a verification; decodeLowerHex reads sixteen at a time,
// checking and converting them in 64-bit words.

// lowerHex maps a lowercase hex digit to its value and every other byte to
// 0xff, for the digits left after the last whole word.
var lowerHex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x80 * ones
	low7  = 0x7f * ones
)

// hexWord checks that the eight bytes of w (the first in the low byte) are
// lowercase hex digits and returns their four bytes' value in its low 32
// bits. ok has a byte's high bit set for each byte that is a digit.
func hexWord(w uint64) (value, ok uint64) {
	// Each byte below 0x80 is tested for lying strictly between two bounds
	// without borrowing from its neighbours (the "hasbetween" bit trick); a
	// byte from 0x80 up is cleared by &^ w.
	x := w & low7
	digit := (ones*(127+'9'+1) - x) &^ w & (x + ones*(127-('0'-1))) & highs
	letter := (ones*(127+'f'+1) - x) &^ w & (x + ones*(127-('a'-1))) & highs
	// '0'-'9' are their low nibble; 'a'-'f' are theirs plus 9.
	v := w&(0x0f*ones) + (letter>>7)*9
	// Pair the nibbles into bytes (the first of two is the high one), then
	// close up the gaps between the bytes.
	t := (v&0x00ff00ff00ff00ff)<<4 | (v>>8)&0x00ff00ff00ff00ff
	t = (t | t>>8) & 0x0000ffff0000ffff
	t = (t | t>>16) & 0xffffffff
	return t, digit | letter
}

// decodeLowerHex decodes src, exactly 2*len(dst) lowercase hex digits, into
// dst, and reports whether src was that.
func decodeLowerHex(dst []byte, src string) bool {
	if len(src) != 2*len(dst) {
		return false
	}
	bad := uint64(0)
	i := 0
	for ; i+16 <= len(src); i += 16 {
		lo, okLo := hexWord(load64(src, i))
		hi, okHi := hexWord(load64(src, i+8))
		bad |= (okLo & okHi) ^ highs
		binary.LittleEndian.PutUint64(dst[i/2:], lo|hi<<32)
	}
	for ; i < len(src); i += 2 {
		h, l := lowerHex[src[i]], lowerHex[src[i+1]]
		bad |= uint64(h|l) & 0xf0
		dst[i/2] = h<<4 | l
	}
	return bad == 0
}

// load64 reads src[i:i+8] as a little-endian word (the compiler makes it
// one load).
func load64(src string, i int) uint64 {
	_ = src[i+7]
	return uint64(src[i]) | uint64(src[i+1])<<8 | uint64(src[i+2])<<16 | uint64(src[i+3])<<24 |
		uint64(src[i+4])<<32 | uint64(src[i+5])<<40 | uint64(src[i+6])<<48 | uint64(src[i+7])<<56
}
