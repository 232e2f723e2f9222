package search

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	if got := Words("  Water BOILS, at 100°C — Peano-style ﬁne 1+1"); !slices.Equal(got, []string{"water", "boils", "at", "100", "c", "peano", "style", "fine", "1", "1"}) {
		t.Errorf("Words = %q", got)
	}
}

// TestRange: the words a range holds are the words the searched word
// starts, for words that sort right before and after it too.
func TestRange(t *testing.T) {
	lo, hi := Range("boil")
	for _, w := range []string{"boi", "boik", "boil", "boils", "boiling", "boilé", "boil\U0010FFFE", "boim", "bojl", "c"} {
		in := lo <= w && w < hi
		if in != Finds("boil", w) {
			t.Errorf("%q: in range %v, but Finds says %v", w, in, Finds("boil", w))
		}
	}
	if FTS5(`a"b`) != `"a""b"*` {
		t.Errorf("FTS5 = %s", FTS5(`a"b`))
	}
}
