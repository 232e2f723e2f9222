package paper

import (
	"reflect"
	"testing"
)

type readNumber struct {
	text  string
	small bool
}

func read(text string) []readNumber {
	found := []readNumber{}
	for _, n := range spelledNumbers(text) {
		found = append(found, readNumber{n.text, n.small})
		if text[n.start:n.end] != n.text {
			panic("a spelled number's place doesn't hold its text")
		}
	}
	return found
}

// The reference's cases (src/number-words.test.ts).
func TestSpelledNumbers(t *testing.T) {
	tests := []struct {
		name, text string
		want       []readNumber
	}{
		{"a compound number as one", "n equals eight hundred thirty-seven thousand seven hundred ninety-nine",
			[]readNumber{{"eight hundred thirty-seven thousand seven hundred ninety-nine", false}}},
		{"and, and scales", "delay one hundred and eleven, and ten million integers",
			[]readNumber{{"one hundred and eleven", false}, {"ten million", false}}},
		{"dozen and teens with scales", "Fifty-four records, a dozen runs, and twelve hundred steps",
			[]readNumber{{"Fifty-four", false}, {"dozen", false}, {"twelve hundred", false}}},
		{"ordinals end numbers", "the twenty-first run and the one hundred and first",
			[]readNumber{{"twenty-first", false}, {"one hundred and first", false}}},
		{"decimals and fractions", "three point one four, two thirds, one third, nine tenths, and three quarters",
			[]readNumber{{"three point one four", false}, {"two thirds", false}, {"one third", false}, {"nine tenths", false}, {"three quarters", false}}},
		{"a counts one part before of", "about a third of the runs, a quarter of them, and a half of those; a third attempt",
			[]readNumber{{"a third", false}, {"a quarter", false}, {"a half", false}, {"third", true}}},
		{"percentages", "five percent, five per cent, and three point five percent",
			[]readNumber{{"five percent", false}, {"five per cent", false}, {"three point five percent", false}}},
		{"counts to nine are small", "two methods agree on the third claim", []readNumber{{"two", true}, {"third", true}}},
		{"one second is a time; an ordinal ends a number", "one second, the first two",
			[]readNumber{{"one", true}, {"second", true}, {"first", true}, {"two", true}}},
		{"not across a comma", "nine, ten", []readNumber{{"nine", true}, {"ten", false}}},
		{"only in a number's order", "two three", []readNumber{{"two", true}, {"three", true}}},
		{"and and point only where they belong", "two and three, at one point the", []readNumber{{"two", true}, {"three", true}, {"one", true}}},
		{"across one hyphen or a line break", "one-hundred\ntrials", []readNumber{{"one-hundred", false}}},
		{"words that contain number words, plurals, fractions without a count",
			"Someone often tones a network; hundreds of runs, thousands of tens, and half the claims.", []readNumber{}},
		// And the rest of what it does.
		{"Unicode hyphens join, two hyphens don't", "twenty\u2010one and twenty\u2011two and twenty--three",
			[]readNumber{{"twenty\u2010one", false}, {"twenty\u2011two", false}, {"twenty", false}, {"three", true}}},
		{"any white space joins", "twenty\u00a0one", []readNumber{{"twenty\u00a0one", false}}},
		{"case doesn't matter", "TWENTY-ONE", []readNumber{{"TWENTY-ONE", false}}},
		{"a letter with a mark is another word", "one\u0301 two", []readNumber{{"two", true}}},
		{"the Kelvin sign lowercases to k but no number word has one", "\u212Ailo one", []readNumber{{"one", true}}},
		{"zero and zeroth are small", "zero and zeroth", []readNumber{{"zero", true}, {"zeroth", true}}},
		{"tenth is not", "the tenth", []readNumber{{"tenth", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := read(tt.text); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("read(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}
