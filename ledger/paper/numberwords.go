package paper

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Numbers spelled out in English words, read as a reader reads them, so that
// a result written as "eight hundred thirty-seven thousand" is found like one
// typed in digits (the reference's number-words.ts). English number words are
// a closed class: the units, teens and tens, the scales, their ordinals and
// the fractions made from them, so the vocabulary below is the whole of it,
// not a guess. Papers here are written in English.
//
// A word is a run of letters and marks. Words join into one number across
// white space or a single hyphen, never across other punctuation, and only in
// the orders English builds numbers in: "twenty-seven", "one hundred and
// eleven", "two thirds", "three point one four", "five percent", and "a third
// of", where "a" counts one part as "one" does (though "a third run" is an
// ordinal). Plurals such as "hundreds" say roughly how many rather than give
// a value, so they are not numbers here.

// wordKind is what a number word contributes to a number.
type wordKind uint8

const (
	notNumber    wordKind = iota
	unit                  // zero to nine
	teen                  // ten to nineteen
	ten                   // twenty, thirty, … ninety
	scale                 // hundred, thousand, … dozen: multiplies what comes before
	smallOrdinal          // zeroth to ninth
	largeOrdinal          // tenth and up
	denominator           // what a fraction counts in: halves, quarters, thirds, tenths…
)

var (
	wordKinds = func() map[string]wordKind {
		kinds := map[string]wordKind{}
		add := func(kind wordKind, words ...string) {
			for _, w := range words {
				kinds[w] = kind
			}
		}
		add(unit, "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
		add(teen, "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
		add(ten, "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
		add(scale, "hundred", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "dozen")
		add(smallOrdinal, smallOrdinals...)
		add(largeOrdinal, largeOrdinals...)
		add(denominator, "half", "halves", "quarter", "quarters")
		for _, w := range slices.Concat(smallOrdinals[3:], largeOrdinals) {
			add(denominator, w+"s")
		}
		return kinds
	}()
	smallOrdinals = []string{"zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"}
	largeOrdinals = []string{
		"tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
		"twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth",
		"hundredth", "thousandth", "millionth", "billionth", "trillionth",
	}
)

// isPart reports whether an ordinal names a fraction's parts after "one", as
// in "one third": third to ninth, since "one second" is a time.
func isPart(word string) bool {
	switch word {
	case "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth":
		return true
	}
	return false
}

func (k wordKind) cardinal() bool { return k == unit || k == teen || k == ten || k == scale }

// final reports whether a number is complete after a word of this kind: "the
// twenty-first", "two thirds".
func (k wordKind) final() bool { return k == smallOrdinal || k == largeOrdinal || k == denominator }

// afterAnd reports whether a word of this kind may follow "and" in a number,
// as in "one hundred and eleven".
func (k wordKind) afterAnd() bool {
	return k == unit || k == teen || k == ten || k == smallOrdinal || k == largeOrdinal
}

// spelledNumber is one number spelled out in words.
type spelledNumber struct {
	// start and end are byte offsets into the text searched.
	start, end int
	// text is the number as written: "one hundred and eleven", "two thirds".
	text string
	// small is whether it is one word for zero to nine or first to ninth: the
	// counts prose spells out by convention ("two methods", "the third claim").
	small bool
}

type numberWord struct {
	word       string // lowercased, or "" for a word that can't be a number word
	start, end int
}

// spelledNumbers finds every number spelled out in English words in text, in
// order.
func spelledNumbers(text string) []spelledNumber {
	words := lettersRuns(text)
	kind := func(i int) wordKind {
		if i < len(words) {
			return wordKinds[words[i].word]
		}
		return notNumber
	}
	is := func(i int, word string) bool { return i < len(words) && words[i].word == word }
	joined := func(i int) bool {
		return i+1 < len(words) && isNumberJoin(text[words[i].end:words[i+1].start])
	}

	var found []spelledNumber
	for i := 0; i < len(words); i++ {
		// "a third of", "a quarter of", "a half of": a fraction, as "one third" is.
		if is(i, "a") && joined(i) && (isPart(words[i+1].word) || words[i+1].word == "half" || words[i+1].word == "quarter") &&
			joined(i+1) && is(i+2, "of") {
			found = append(found, spelledNumber{start: words[i].start, end: words[i+1].end, text: text[words[i].start:words[i+1].end]})
			i++
			continue
		}
		// A number starts with a number word; a denominator, "and", "point"
		// or "percent" can't start one.
		if k := kind(i); k == notNumber || k == denominator {
			continue
		}
		last := i
	extend:
		for !kind(last).final() && joined(last) {
			switch {
			case follows(words[last].word, kind(last), kind(last+1), words[last+1].word):
				last++
			case is(last+1, "and") && kind(last) == scale && joined(last+1) && kind(last+2).afterAnd():
				// "one hundred and eleven", "one hundred and first"
				last += 2
			case is(last+1, "point") && kind(last).cardinal() && joined(last+1) && kind(last+2) == unit:
				// "three point one four": the digits after the point are said one at a time.
				last += 2
				for joined(last) && kind(last+1) == unit {
					last++
				}
				break extend
			default:
				break extend
			}
		}
		// "five percent", "five per cent": a share, whatever the number.
		end := last
		if kind(last).cardinal() && joined(last) {
			if is(last+1, "percent") {
				end = last + 1
			} else if is(last+1, "per") && joined(last+1) && is(last+2, "cent") {
				end = last + 2
			}
		}
		found = append(found, spelledNumber{
			start: words[i].start,
			end:   words[end].end,
			text:  text[words[i].start:words[end].end],
			small: end == i && (kind(i) == unit || kind(i) == smallOrdinal),
		})
		i = end
	}
	return found
}

// follows reports whether a word of kind next can follow one of kind previous
// within a number, as English builds them.
func follows(previousWord string, previous, next wordKind, nextWord string) bool {
	switch previous {
	case ten:
		// "twenty-seven", "twenty thousand", "twenty-first", "twenty thousandth"
		return next == unit || next == scale || next == smallOrdinal || next == largeOrdinal
	case unit, teen:
		// "two hundred", "twelve hundred", "one hundredth", "nine tenths", "two thirds", "one third"
		return next == scale || next == largeOrdinal || next == denominator ||
			(next == smallOrdinal && previousWord == "one" && isPart(nextWord))
	case scale:
		// "hundred eleven", "hundred thousand", "hundred first", "two hundred thousandths"
		return next != notNumber
	}
	return false
}

// isNumberJoin reports whether what lies between two words lets them belong
// to one number: white space, or one hyphen (-, U+2010 or U+2011) alone.
func isNumberJoin(between string) bool {
	switch between {
	case "":
		return false
	case "-", "\u2010", "\u2011":
		return true
	}
	for _, r := range between {
		if !isJSSpace(r) {
			return false
		}
	}
	return true
}

// lettersRuns finds the words of text: maximal runs of letters and marks.
func lettersRuns(text string) []numberWord {
	var words []numberWord
	start := -1
	for i := 0; i <= len(text); {
		r, size := utf8.RuneError, 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		letter := i < len(text) && (unicode.IsLetter(r) || unicode.IsMark(r))
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			words = append(words, numberWord{word: asciiLower(text[start:i]), start: start, end: i})
			start = -1
		}
		i += size
	}
	return words
}
