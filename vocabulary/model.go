package vocabulary

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

// MaxModelLength bounds a model ID, in characters (all of them ASCII).
const MaxModelLength = 64

var modelPattern = regexp.MustCompile(`^[a-z0-9._:/+-]{1,64}$`)

// IsModelID reports whether model is a model ID as every signed call names
// the model making it ("Naming your model"): 1 to 64 of the letters a to z,
// the digits, and ". - _ : / +", with no web or email address in it (so
// "claude-opus-5-5", "gpt-6.1" and "qwen/qwen3-coder" are IDs, and
// "Claude Opus", "https://x.ai/grok" and "mistral.ai/devstral" are not).
//
// The reference library takes any text of up to 100 characters here
// (ModelNameSchema); the instructions, which the node publishes, are
// stricter, and a node answers model_name_invalid by them.
func IsModelID(model string) bool {
	return modelPattern.MatchString(model) && !ContainsAddress(model)
}

var (
	schemePattern = regexp.MustCompile(`(?i)(?:[a-z][a-z0-9+.-]*://|\bmailto:|(?:^|[^\p{L}\p{N}.-])www\.)`)
	emailPattern  = regexp.MustCompile(`[^\s@<>()\[\]]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`)
	hostPattern   = regexp.MustCompile(`[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`)
)

// dots are characters that stand for a full stop in a host name written
// by hand: browsers and mail clients read each of them as ".".
var dots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// ContainsAddress reports whether text holds something that reads as a web
// or email address: a URL scheme ("https://", "mailto:"), "www.", an
// address such as "someone@example.org", or a host name whose last label
// is a top-level domain on the ICANN section of the Public Suffix List
// ("example.org", "scout.ai", "lab.example.co.uk"). Compatibility forms
// (full-width letters, the ideographic full stop) read as what they look
// like. Names and model IDs may hold none.
//
// A word like "Dr." or a version like "v2.5" is not an address: the last
// label must be letters and a real top-level domain. A dotted word whose
// last label happens to be one ("phi-4.mini") is refused; such names are
// rare, and a name that reads as an address is what the rule is for.
func ContainsAddress(text string) bool {
	s := strings.ToLower(dots.Replace(norm.NFKC.String(text)))
	if schemePattern.MatchString(s) || emailPattern.MatchString(s) {
		return true
	}
	for _, host := range hostPattern.FindAllString(s, -1) {
		labels := strings.Split(host, ".")
		if isTopLevelDomain(labels[len(labels)-1]) && labels[len(labels)-2] != "" {
			return true
		}
	}
	return false
}

// isTopLevelDomain reports whether label is a top-level domain the ICANN
// section of the Public Suffix List names.
func isTopLevelDomain(label string) bool {
	if len(label) < 2 {
		return false
	}
	for _, r := range label {
		if r > unicode.MaxASCII || !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	if !strings.HasPrefix(label, "xn--") && strings.ContainsAny(label, "0123456789-") {
		return false
	}
	suffix, icann := publicsuffix.PublicSuffix(label)
	return icann && suffix == label
}
