package memory

import (
	"math"
	"regexp"
	"slices"
	"strings"
)

// SecretFinding locates something that looks like a secret: what kind, and
// where, as a byte offset and length into the scanned text. It never holds
// the secret itself, so a finding can be logged and sent back to an agent.
type SecretFinding struct {
	Kind   string
	Offset int
	Length int
}

// A secretRule recognises one kind of credential by its shape. value, when
// non-zero, is the submatch holding the secret (the rest of the match is
// context such as "password="); check, when set, must accept that value.
type secretRule struct {
	kind  string
	re    *regexp.Regexp
	value int
	check func(string) bool
}

// secretRules are ordered most specific first: where two rules match the
// same bytes, the earlier one names the finding.
var secretRules = []secretRule{
	{kind: "private_key", re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)},
	{kind: "aws_access_key", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{kind: "github_token", re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`)},
	{kind: "github_token", re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{kind: "slack_token", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,255}`)},
	{kind: "anthropic_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,255}`)},
	{kind: "openai_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}`), check: func(v string) bool {
		// "sk-" followed by a long word is also a plain hyphenated name
		// (sk-learn-compatible-estimators): a key mixes digits and letters.
		rest := v[strings.LastIndexByte(v[:min(len(v), 12)], '-')+1:]
		return hasDigit(rest) && hasLetter(rest)
	}},
	{kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{kind: "stripe_key", re: regexp.MustCompile(`\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,255}\b`)},
	{kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{kind: "bearer_token", value: 1, check: looksRandom,
		re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`)},
	{kind: "assigned_secret", value: 1, check: looksRandom,
		re: regexp.MustCompile(`(?i)(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?)[a-z0-9_.-]*["']?\s*(?::=|=|:)\s*["']?([^\s"'` + "`" + `,;<>(){}\[\]]{8,})`)},
}

// ScanSecrets finds credentials in text: AWS access keys, GitHub, Slack,
// OpenAI, Anthropic, Google and Stripe keys, PEM private key blocks, JWTs,
// bearer tokens, and high-entropy values assigned to names such as
// password, secret, token or api_key. Findings are in text order, and no two
// overlap.
//
// Shapes that merely look random are not secrets: a hex digest, a UUID, a
// git SHA or base64 of ordinary text standing alone triggers nothing, and a
// value assigned to a secret-like name must look random (see looksRandom),
// so "password: changeme" or "token=${GITHUB_TOKEN}" pass.
func ScanSecrets(text string) []SecretFinding {
	var found []SecretFinding
	for _, rule := range secretRules {
		for _, m := range rule.re.FindAllStringSubmatchIndex(text, -1) {
			start, end := m[0], m[1]
			if rule.value > 0 {
				start, end = m[2*rule.value], m[2*rule.value+1]
			}
			if rule.check != nil && !rule.check(text[start:end]) {
				continue
			}
			if overlapsAny(found, start, end) {
				continue
			}
			found = append(found, SecretFinding{Kind: rule.kind, Offset: start, Length: end - start})
		}
	}
	slices.SortFunc(found, func(a, b SecretFinding) int { return a.Offset - b.Offset })
	return found
}

func overlapsAny(found []SecretFinding, start, end int) bool {
	for _, f := range found {
		if start < f.Offset+f.Length && f.Offset < end {
			return true
		}
	}
	return false
}

// looksRandom decides whether a value assigned to a secret-like name is a
// credential rather than a placeholder, a variable reference or a word. It
// wants at least 16 characters of at least three character classes (lower,
// upper, digit, other) or of hex at least 32 long, Shannon entropy of at
// least 3.5 bits a character, and no sign of being a reference ($VAR,
// ${VAR}, %VAR%) or a digest or UUID, which are identifiers, not secrets.
func looksRandom(v string) bool {
	v = strings.TrimRight(v, ".")
	if len(v) < 16 || strings.ContainsAny(v, "$%") || strings.HasPrefix(strings.ToLower(v), "sha256:") || uuidPattern.MatchString(v) {
		return false
	}
	if isHex(v) {
		// A git SHA (40) or a SHA-256 (64) assigned to "token_sha" is an
		// identifier; other hex of API-key length is how many services
		// spell keys.
		return len(v) >= 32 && len(v) != 40 && len(v) != 64 && entropy(v) >= 3.5
	}
	return classes(v) >= 3 && entropy(v) >= 3.5
}

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func classes(s string) int {
	var lower, upper, digit, other int
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			lower = 1
		case r >= 'A' && r <= 'Z':
			upper = 1
		case r >= '0' && r <= '9':
			digit = 1
		default:
			other = 1
		}
	}
	return lower + upper + digit + other
}

func hasDigit(s string) bool  { return strings.ContainsAny(s, "0123456789") }
func hasLetter(s string) bool { return strings.IndexFunc(s, isASCIILetterRune) >= 0 }
func isASCIILetterRune(r rune) bool {
	return r < 128 && isASCIILetter(byte(r))
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
