package operators

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/agora-node/agora/vocabulary"
)

// CleanName checks a name an operator chose, to register with or to rename
// to, and returns it as the node keeps it: with surrounding whitespace
// removed, otherwise as written. A name is refused (ErrInvalidName) when it
//
//   - is blank: nothing but spaces and invisible characters;
//   - is longer than 100 characters, counted in UTF-16 code units as the
//     reference's string length counts them (an emoji may count 2);
//   - spans more than one line, or holds a control character or a
//     bidirectional override, which make it read otherwise than it is;
//   - holds a web or email address (vocabulary.ContainsAddress);
//   - ends in "#" and a number, which the node adds to later holders of a
//     name ("Scout #2"), however it is spaced or written.
func CleanName(name string) (string, error) {
	s := strings.TrimSpace(name)
	if strings.IndexFunc(s, func(r rune) bool { return !ignorable(r) }) < 0 {
		return "", fail(ErrInvalidName, "", "a name can't be blank")
	}
	if strings.ContainsAny(s, "\n\r\v\f\u0085\u2028\u2029") {
		return "", fail(ErrInvalidName, "", "a name is one line")
	}
	for _, r := range s {
		if unicode.Is(unicode.Cc, r) {
			return "", fail(ErrInvalidName, "", "a name can't hold the control character %U", r)
		}
		if isBidiControl(r) {
			return "", fail(ErrInvalidName, "", "a name can't hold the bidirectional control %U, which makes it read otherwise", r)
		}
	}
	if n := len(utf16.Encode([]rune(s))); n > vocabulary.MaxNameLength {
		return "", fail(ErrInvalidName, "", "a name is at most %d characters, and this one is %d", vocabulary.MaxNameLength, n)
	}
	if vocabulary.ContainsAddress(s) {
		return "", fail(ErrInvalidName, "", "a name can't hold a web or email address")
	}
	if numbered.MatchString(strip(norm.NFKC.String(s))) {
		return "", fail(ErrInvalidName, "", `a name can't end in "#" and a number: the node numbers names itself`)
	}
	return s, nil
}

var numbered = regexp.MustCompile(`#\p{Nd}+$`)

// NameKey returns the key under which names count as the same: two names
// have one key when they read the same ignoring case, spacing, and
// characters that look alike. The key is for comparing, never for showing.
//
// It is the name in compatibility form (NFKC, so full-width and styled
// letters become plain ones), without spaces or invisible characters
// (zero-width spaces and joiners, soft hyphens, variation selectors), then
// mapped to its confusable skeleton (Unicode TS #39, so Cyrillic "а" reads
// as Latin "a", "0" as "O" and "rn" as "m") and case-folded, twice, since
// a skeleton may be upper case and a folded letter may have a skeleton of
// its own. Case folding and skeletons do not commute, so capitals whose
// skeleton is not ASCII are folded before (see prefold).
func NameKey(name string) string {
	fold := cases.Fold()
	s := prefold(fold, strip(norm.NFKC.String(name)))
	for range 2 {
		s = fold.String(confusables.Skeleton(s))
	}
	return strip(s)
}

// prefold case-folds the letters whose skeleton would lose their case
// first: skeletons map some capitals to letters of other scripts ("Σ" to
// "Ʃ") that do not fold back to the skeleton of their small letter ("σ" to
// "o"). Capitals whose skeleton is plain ASCII keep it, since some read as
// another letter than their small one does: "I" reads as "l", so "BiII"
// and "Bill" share a key, which folding "I" to "i" first would lose.
func prefold(fold cases.Caser, s string) string {
	var b strings.Builder
	for _, r := range s {
		c := string(r)
		if f := fold.String(c); f != c && !isASCII(confusables.Skeleton(c)) {
			b.WriteString(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ShownName returns the name the node shows for the holder of number n
// under a name's key: the name as its holder wrote it for the first, then
// "Name #2", "Name #3", ...
func ShownName(name string, n int) string {
	if n <= 1 {
		return name
	}
	return name + " #" + strconv.Itoa(n)
}

// strip removes spaces and characters that show nothing.
func strip(s string) string {
	return strings.Map(func(r rune) rune {
		if ignorable(r) {
			return -1
		}
		return r
	}, s)
}

// ignorable reports whether r is spacing or shows nothing: white space,
// controls, format characters (zero-width space, joiners, soft hyphen, bidi
// controls), variation selectors, and the other default-ignorable code
// points (the Hangul fillers, the combining grapheme joiner, ...).
func ignorable(r rune) bool {
	return unicode.In(r, unicode.White_Space, unicode.Zs, unicode.Cc, unicode.Cf,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}
