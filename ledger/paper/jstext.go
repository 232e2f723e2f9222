package paper

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The reference library is TypeScript, and a few of its answers depend on how
// JavaScript reads text rather than on Unicode alone: which characters \s and
// trim() take as white space, and that a string is indexed in UTF-16 code
// units, so "the character before" an astral letter is half of a surrogate
// pair and no letter at all. These helpers give the same answers from UTF-8.

// jsSpaceClass is JavaScript's \s as a Go regexp character class body:
// WhiteSpace (tab, vertical tab, form feed, space, no-break space, the
// byte-order mark and every Zs character) and LineTerminator.
const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// isJSSpace reports whether JavaScript's \s matches r.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// isWordChar is the reference's WORD_CHARACTER, /[\p{L}\p{N}_]/u.
func isWordChar(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// noUnit stands for the empty string JavaScript gives past either end of a
// string; surrogate stands for half of a surrogate pair. Neither is a letter,
// digit, space or punctuation mark, which is all the callers ask.
const (
	noUnit    rune = -1
	surrogate rune = 0xdc00
)

// unitBefore is the UTF-16 code unit JavaScript finds just before byte offset
// i of s: the rune there, or surrogate when that rune lies outside the Basic
// Multilingual Plane, or noUnit at the start.
func unitBefore(s string, i int) rune {
	if i <= 0 {
		return noUnit
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	if r > 0xffff {
		return surrogate
	}
	return r
}

// unitAt is the UTF-16 code unit at byte offset i of s, read the same way.
func unitAt(s string, i int) rune {
	if i >= len(s) {
		return noUnit
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if r > 0xffff {
		return surrogate
	}
	return r
}

// asciiLower lowercases s when toLowerCase() could make it equal to an ASCII
// word, and returns "" otherwise. Every word this package compares with is
// ASCII, and the only non-ASCII character whose lowercase is ASCII is the
// Kelvin sign (U+212A, to "k"), so nothing else can match.
func asciiLower(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != 0x212a {
			return ""
		}
		b = append(b, 'k')
		i += size
	}
	return string(b)
}

// codePoints counts the code points of s, as [...s].length does.
func codePoints(s string) int { return utf8.RuneCountInString(s) }

// lineStarts returns the byte offset of every line's start: 0, and the offset
// after each CRLF, CR or LF, as /\r\n|\r|\n/g finds them.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineIndex is the index of the line holding offset: the last start at or
// before it.
func lineIndex(starts []int, offset int) int {
	low, high := 0, len(starts)-1
	for low < high {
		middle := (low + high + 1) / 2
		if starts[middle] <= offset {
			low = middle
		} else {
			high = middle - 1
		}
	}
	return low
}

// position is where offset sits in text: its line from 1, and its column from
// 1 counted in code points.
func position(text string, starts []int, offset int) (line, column int) {
	l := lineIndex(starts, offset)
	return l + 1, codePoints(text[starts[l]:offset]) + 1
}
