package memory

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// topicKeyPattern is the contract's topic_key: family/description.
var topicKeyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,63}/[a-z0-9][a-z0-9_.-]{0,127}$`)

// IsTopicKey reports whether s is a topic key the contract accepts.
func IsTopicKey(s string) bool { return topicKeyPattern.MatchString(s) }

// maxTopicDescription is the contract's bound on a key's description.
const maxTopicDescription = 128

// stopWords carry no meaning of their own in a title: "Fix the flaky test"
// and "fix flaky test" are one topic.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "in": true, "on": true,
	"at": true, "to": true, "for": true, "with": true, "and": true, "or": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "been": true,
	"by": true, "from": true, "into": true, "it": true, "its": true, "this": true,
	"that": true, "these": true, "those": true, "as": true, "when": true,
}

// TopicKey derives a note's topic key from its type and title, as the
// contract does when a note omits topic_key: "family/description", where the
// family is the note type and the description the title's meaningful words.
//
// The title is folded so that trivial rewordings give the same key: letters
// are lowercased and stripped of accents (compatibility-decomposed, marks
// dropped), punctuation and spacing become word breaks, and stop words such
// as articles and prepositions are dropped. A title of only stop words keeps
// them. A word outside ASCII (a title in Chinese, say, whose characters no
// slug can hold) is replaced by "u" and eight hex digits of its SHA-256, so
// the key stays within the contract's alphabet and still depends on it. The
// description is cut at a word boundary to 128 characters; an empty one is
// "untitled", an empty family "note".
func TopicKey(noteType, title string) string {
	family := strings.Join(slugWords(noteType, false), "-")
	if family == "" {
		family = "note"
	}
	family = cutAtWord(family, 64)
	desc := ""
	for _, w := range slugWords(title, true) {
		next := w
		if desc != "" {
			next = desc + "-" + w
		}
		if len(next) > maxTopicDescription {
			break
		}
		desc = next
	}
	if desc == "" {
		desc = "untitled"
	}
	return family + "/" + desc
}

// slugWords folds s into ASCII words, dropping stop words when dropStop is
// set and some other word remains.
func slugWords(s string, dropStop bool) []string {
	folded := foldText(s)
	fields := strings.FieldsFunc(folded, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	words := make([]string, 0, len(fields))
	for _, f := range fields {
		if isASCIIWord(f) {
			words = append(words, f)
			continue
		}
		sum := sha256.Sum256([]byte(f))
		words = append(words, "u"+hex.EncodeToString(sum[:4]))
	}
	if !dropStop {
		return words
	}
	kept := words[:0:0]
	for _, w := range words {
		if !stopWords[w] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return words
	}
	return kept
}

// foldText lowercases s and removes its accents: NFKD, then combining marks
// dropped, so "Café" and "cafe" agree, and full-width letters become ASCII.
func foldText(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// cutAtWord shortens a hyphenated slug to at most n bytes at a hyphen.
func cutAtWord(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '-'); i > 0 {
		s = s[:i]
	}
	return s
}

// recordRefPattern is the contract's record_ref.
var recordRefPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$`)

// IsRecordRef reports whether s is a record ref the contract accepts: a
// release ref (rr_…), a local one (lr_…) or any other the pattern allows.
func IsRecordRef(s string) bool { return recordRefPattern.MatchString(s) }

// LocalRefPrefix starts every ref of a record kept on this node.
const LocalRefPrefix = "lr_"

// lowerBase32 spells refs in lowercase without padding, so they read the
// same in a URL, a file name and a case-folding terminal.
var lowerBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewLocalRef returns a fresh local record ref: "lr_" and 26 lowercase
// base32 characters of 128 random bits, which no two records share in
// practice and which say nothing of the record.
func NewLocalRef() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return LocalRefPrefix + lowerBase32.EncodeToString(b[:])
}

// IsLocalRef reports whether s is a well-formed local record ref as
// NewLocalRef makes them.
func IsLocalRef(s string) bool {
	rest, ok := strings.CutPrefix(s, LocalRefPrefix)
	if !ok || len(rest) != 26 {
		return false
	}
	_, err := lowerBase32.DecodeString(rest)
	return err == nil
}
