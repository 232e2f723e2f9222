package paper

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/agora-node/agora/vocabulary"
)

// Every verifier reads the paper, so its length is bounded: the Summary at
// most vocabulary.MaxSummaryTokens tokens, not counting its heading, and the
// whole paper at most vocabulary.MaxPaperTokens. Unlike the integrity flags,
// a paper over either limit is refused.

// Tokens is a text's length in tokens, counted the same way by every node,
// since each model's tokenizer differs: the larger of its words and symbols
// (each run of letters, marks and digits is one, and so is each other
// character that isn't white space) and its UTF-8 bytes divided by four,
// rounded up. Words undercount scripts written without spaces between words,
// and bytes undercount code and math; the larger of the two stays close to
// what models count for both. White space is JavaScript's, as the reference
// counts it; a byte that isn't UTF-8 is a symbol.
func Tokens(text string) int {
	words := 0
	inWord := false
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r):
			if !inWord {
				words++
			}
			inWord = true
		case isJSSpace(r):
			inWord = false
		default:
			words++
			inWord = false
		}
	}
	return max(words, (len(text)+3)/4)
}

// OverLimit is where a paper runs over a length limit.
type OverLimit struct {
	// Part is "Summary" or "paper.md", the whole paper.
	Part   string `json:"part"`
	Tokens int    `json:"tokens"`
	Limit  int    `json:"limit"`
}

// String is what the node says about it, as the reference words it.
func (o OverLimit) String() string {
	if o.Part == "Summary" {
		return fmt.Sprintf("The Summary is %s tokens; at most %s. Say what the work found, and leave the rest to the other sections",
			groupThousands(o.Tokens), groupThousands(o.Limit))
	}
	return fmt.Sprintf("paper.md is %s tokens; at most %s. Split larger work into linked bundles",
		groupThousands(o.Tokens), groupThousands(o.Limit))
}

// CheckLength returns where paper.md runs over the length limits: each
// section named Summary over vocabulary.MaxSummaryTokens, counted from the end
// of its heading to the next heading at its level or shallower, and the whole
// paper over vocabulary.MaxPaperTokens. A bundle check turns each into an
// issue on paper.md whose message is its String, and refuses the bundle.
// A leading byte order mark is not counted, as a UTF-8 decoder drops it.
func CheckLength(paper []byte) []OverLimit {
	text := string(bytes.TrimPrefix(paper, []byte("\uFEFF")))
	var over []OverLimit
	if utf8.ValidString(text) {
		for _, s := range paperSections(parseMarkdown(text)) {
			if asciiLower(s.name) != "summary" {
				continue
			}
			if tokens := Tokens(s.body); tokens > vocabulary.MaxSummaryTokens {
				over = append(over, OverLimit{Part: "Summary", Tokens: tokens, Limit: vocabulary.MaxSummaryTokens})
			}
		}
	}
	if tokens := Tokens(text); tokens > vocabulary.MaxPaperTokens {
		over = append(over, OverLimit{Part: "paper.md", Tokens: tokens, Limit: vocabulary.MaxPaperTokens})
	}
	return over
}

// groupThousands writes n as toLocaleString("en-US") does: 20,000.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
