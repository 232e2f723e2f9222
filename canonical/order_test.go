package canonical

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestMemberOrder writes objects of 1 to 24 members (both sides of
// smallObject) whose names mix ASCII, U+E000–U+FFFF and code points beyond
// U+FFFF, where UTF-16 order and byte order part, and checks the names come
// out sorted by their UTF-16 code units.
func TestMemberOrder(t *testing.T) {
	runes := []rune{'a', 'b', 'z', 'A', '0', 0x7f, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xefff, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		m := map[string]any{}
		size := 1 + r.IntN(24)
		for len(m) < size {
			var b strings.Builder
			for range 1 + r.IntN(3) {
				b.WriteRune(runes[r.IntN(len(runes))])
			}
			m[b.String()] = len(m)
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		slices.SortFunc(names, func(a, b string) int {
			return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		})
		var want []byte
		want = append(want, '{')
		for i, k := range names {
			if i > 0 {
				want = append(want, ',')
			}
			want, _ = appendString(want, k)
			want = append(want, ':')
			want, _ = AppendNumber(want, float64(m[k].(int)))
		}
		want = append(want, '}')
		got, err := Marshal(m)
		if err != nil || string(got) != string(want) {
			t.Fatalf("Marshal wrote %q (%v), want %q", got, err, want)
		}
	}
}
