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
//
// hints are lowercase strings one of which the lowercased text must hold
// for the rule to match at all: a rule whose hints are absent is not run,
// which keeps masking cheap for the ordinary text of most events. An
// anchored rule's match starts where one of its hints does: its regexp
// (which starts with ^) is tried only at those places, so its cost is
// what the matches there read, not a scan of the whole text per rule.
type secretRule struct {
	hints    []string
	anchored bool
	kind     string
	re       *regexp.Regexp
	value    int
	check    func(string) bool
}

// secretRules are ordered most specific first: where two rules match the
// same bytes, the earlier one names the finding.
var secretRules = []secretRule{
	// A key block is masked whole, through its END line (or the end of the
	// text when it was cut), so no line of the key survives.
	{hints: []string{`private key`}, kind: "private_key", re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,.-]*)`)},
	{hints: []string{`akia`, `asia`, `abia`, `acca`}, kind: "aws_access_key", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{hints: []string{`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`}, kind: "github_token", re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`)},
	{hints: []string{`github_pat_`}, kind: "github_token", re: regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{hints: []string{`glpat-`, `gldt-`, `glrt-`, `glptt-`, `glcbt-`, `gloas-`}, kind: "gitlab_token", re: regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_-]{20,255}`)},
	{hints: []string{`npm_`}, kind: "npm_token", re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36,255}\b`)},
	{hints: []string{`pypi-`}, kind: "pypi_token", re: regexp.MustCompile(`\bpypi-[A-Za-z0-9_-]{50,}`)},
	{hints: []string{`dckr_`}, kind: "docker_token", re: regexp.MustCompile(`\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,255}`)},
	{hints: []string{`hooks.slack.com`}, kind: "slack_webhook", re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{8,}`)},
	{hints: []string{`discord`}, kind: "discord_webhook", re: regexp.MustCompile(`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,}/[A-Za-z0-9_-]{16,}`)},
	{hints: []string{`xox`}, kind: "slack_token", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,255}`)},
	{hints: []string{`sk-ant-`}, kind: "anthropic_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,255}`)},
	{hints: []string{`sk-`}, kind: "openai_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}`), check: func(v string) bool {
		// "sk-" followed by a long word is also a plain hyphenated name
		// (sk-learn-compatible-estimators): a key mixes digits and letters.
		rest := v[strings.LastIndexByte(v[:min(len(v), 12)], '-')+1:]
		return hasDigit(rest) && hasLetter(rest)
	}},
	{hints: []string{`aiza`}, kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{hints: []string{`k_live_`, `k_test_`}, kind: "stripe_key", re: regexp.MustCompile(`\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,255}\b`)},
	{hints: []string{`eyj`}, kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	// A password in a URL (postgres://user:pass@host, https://user:pass@…,
	// any scheme): only the password is masked, so the URL still says
	// which host and user were meant.
	{hints: []string{`://`}, anchored: true, kind: "url_password", value: 1, check: isLiteral,
		re: regexp.MustCompile(`^://[^\s/:@'"]*:([^\s/@'"]+)@`)},
	{hints: []string{`accountkey=`, `sharedaccesskey=`, `sharedaccesssignature=`, `sig=`}, kind: "azure_key", value: 1, check: isLiteral,
		re: regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=([^;&"'\s]{16,})`)},
	{hints: []string{`authorization`}, anchored: true, kind: "basic_auth", value: 1, check: isLiteral,
		re: regexp.MustCompile(`(?i)^authorization:\s{0,16}basic\s{1,16}([A-Za-z0-9+/_-]{8,}={0,2})`)},
	{hints: []string{`heroku`}, kind: "heroku_api_key", value: 1,
		re: regexp.MustCompile(`(?i)\bheroku[a-z0-9_]*(?:api[_-]?key|token)["']?\s*(?::=|=|:)\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)},
	{hints: []string{`"auth"`}, kind: "docker_auth", value: 1, check: looksEncoded,
		re: regexp.MustCompile(`"auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})"`)},
	// Passwords on a command line are secrets whatever they look like:
	// mysql -pSECRET, --password=SECRET, curl -u user:SECRET, sshpass -p
	// SECRET, PGPASSWORD=SECRET.
	{hints: []string{`mysql`, `mariadb`}, kind: "password_flag", value: 1, check: isLiteral,
		re: regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p("[^"]+"|'[^']+'|[^\s'"]+)`)},
	{hints: []string{`-pass`, `-token`, `-secret`, `-api`, `-auth`, `-access`, `-client`}, kind: "password_flag", value: 1, check: isLiteral,
		re: regexp.MustCompile(`(?i)(?:^|\s)--?(?:password|passwd|pass|token|secret|api[-_]?key|auth[-_]?token|access[-_]?token|client[-_]?secret)(?:=|\s+)("[^"]+"|'[^']+'|[^\s'"]+)`)},
	{hints: []string{`-u`}, kind: "password_flag", value: 1, check: isLiteral,
		re: regexp.MustCompile(`\b(?:curl|wget|http)\b[^\n|;&]*?\s(?:-u|--user|--http-user)(?:\s+|=)?["']?[^\s:'"]+:([^\s'"@]+)`)},
	{hints: []string{`sshpass`}, anchored: true, kind: "password_flag", value: 1, check: isLiteral,
		re: regexp.MustCompile(`^sshpass\s{1,16}(?:-[a-zA-Z]\s{1,16}){0,8}-p\s{0,16}("[^"]+"|'[^']+'|[^\s'"]+)`)},
	// In an Authorization header, a bearer token is one whatever it looks
	// like; elsewhere the word "bearer" needs a random-looking value.
	{hints: []string{`authorization`}, anchored: true, kind: "bearer_token", value: 1, check: isLiteral,
		re: regexp.MustCompile(`(?i)^authorization:\s{0,16}(?:bearer|token)\s{1,16}([A-Za-z0-9._~+/-]{8,}=*)`)},
	{hints: []string{`bearer`}, anchored: true, kind: "bearer_token", value: 1, check: looksRandom,
		re: regexp.MustCompile(`(?i)^bearer\s{1,16}([A-Za-z0-9._~+/-]{16,}=*)`)},
	{hints: []string{`pass`, `pwd`, `secret`, `token`, `api`, `access`, `auth`, `private`, `credential`}, anchored: true, kind: "assigned_secret", value: 1, check: looksRandom,
		re: regexp.MustCompile(`(?i)^(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|credentials?)[a-z0-9_.-]{0,64}["']?\s{0,16}(?::=|=|:)\s{0,16}["']?([^\s"'` + "`" + `,;<>(){}\[\]]{8,})`)},
	// A shell variable named for a password holds one, however it looks
	// (PGPASSWORD=hunter2); after assigned_secret, which names random ones.
	{hints: []string{`pass=`, `passwd=`, `password=`}, anchored: true, kind: "password", value: 1, check: isLiteral,
		re: regexp.MustCompile(`^(?:PASSWORD|PASSWD|PASS)=("[^"]+"|'[^']+'|[^\s'"]+)`)},
	// So does one named for a secret, a token or a key (API_KEY=abc123),
	// unless it is a number (MAX_TOKEN=4096) or a reference.
	{hints: []string{`secret=`, `token=`, `api_key=`, `apikey=`, `access_key=`, `private_key=`, `auth_key=`, `credential=`, `credentials=`}, anchored: true, kind: "env_secret", value: 1, check: func(v string) bool { return isLiteral(v) && strings.Trim(v, "0123456789\"'") != "" },
		re: regexp.MustCompile(`^(?:SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|AUTH_KEY|CREDENTIALS?)=("[^"]+"|'[^']+'|[^\s'"]+)`)},
}

// ScanSecrets finds credentials in text: private key blocks; AWS access
// keys; GitHub, GitLab, npm, PyPI, Docker Hub, Slack, OpenAI, Anthropic,
// Google and Stripe tokens; Slack and Discord webhooks; JWTs; passwords in
// URLs (any scheme's user:password@); Azure account and shared access keys;
// Basic and bearer authorization; Heroku API keys; Docker config auths;
// passwords on command lines (mysql -p…, --password=…, curl -u user:…,
// sshpass -p …, PASSWORD=…); values of shell variables named for a
// secret, token or key (API_KEY=…); and high-entropy values assigned to
// names such as secret, token or api_key. Findings are in text order, and no two
// overlap.
//
// Shapes that merely look random are not secrets: a hex digest, a UUID, a
// git SHA or base64 of ordinary text standing alone triggers nothing, and a
// value assigned to a secret-like name must look random (see looksRandom),
// so "password: changeme" or "token=${GITHUB_TOKEN}" pass. A password given
// on a command line or in a URL is a secret however it looks, unless it is
// a reference ($PGPASSWORD, ${DB_PASS}, %PASS%, <password>) or masked
// already ([redacted:…], ***).
func ScanSecrets(text string) []SecretFinding {
	var found []SecretFinding
	lower := asciiLower(text)
	for _, rule := range secretRules {
		if !slices.ContainsFunc(rule.hints, func(h string) bool { return strings.Contains(lower, h) }) {
			continue
		}
		for _, m := range rule.matches(text, lower) {
			start, end := m[0], m[1]
			if rule.value > 0 {
				start, end = m[2*rule.value], m[2*rule.value+1]
			}
			if strings.Contains(text[start:end], redactedPrefix) {
				continue // masked already
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

// matches returns the rule's submatch indexes in text; lower is text with
// ASCII letters lowered, byte for byte.
func (rule secretRule) matches(text, lower string) [][]int {
	if !rule.anchored {
		return rule.re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][]int
	for _, h := range rule.hints {
		for at := 0; ; {
			i := strings.Index(lower[at:], h)
			if i < 0 {
				break
			}
			p := at + i
			if m := rule.re.FindStringSubmatchIndex(text[p:]); m != nil {
				for k := range m {
					if m[k] >= 0 {
						m[k] += p
					}
				}
				out = append(out, m)
			}
			at = p + 1
		}
	}
	return out
}

// asciiLower lowers ASCII letters only, so offsets in the result are
// offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// redactedPrefix opens the text MaskSecrets puts where a secret was.
const redactedPrefix = "[redacted:"

// redactedPattern is what MaskSecrets writes in place of a secret.
var redactedPattern = regexp.MustCompile(`\[redacted:[a-z0-9_]+\]`)

// MaskSecrets returns text with every secret ScanSecrets finds replaced by
// "[redacted:<kind>]", and the findings (located in the text as given).
// Everything else is kept, so a failing command or a note stays useful:
// "psql postgres://app:[redacted:url_password]@db/app". It is idempotent:
// masked text has nothing left to mask.
func MaskSecrets(text string) (string, []SecretFinding) {
	found := ScanSecrets(text)
	if len(found) == 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, f := range found {
		b.WriteString(text[at:f.Offset])
		b.WriteString(redactedPrefix + f.Kind + "]")
		at = f.Offset + f.Length
	}
	b.WriteString(text[at:])
	return b.String(), found
}

// StripRedactions removes what MaskSecrets wrote in place of secrets,
// leaving what the text says besides them.
func StripRedactions(text string) string {
	return redactedPattern.ReplaceAllString(text, "")
}

// MaskJSON masks every string of a JSON value as decoded by
// encoding/json or canonical.Parse (objects' member names are left as
// they are: the contract fixes them), in place for objects and arrays, and
// returns the value with how many secrets it masked.
func MaskJSON(v any) (any, int) {
	switch v := v.(type) {
	case string:
		masked, found := MaskSecrets(v)
		return masked, len(found)
	case map[string]any:
		n := 0
		for k, item := range v {
			var c int
			v[k], c = MaskJSON(item)
			n += c
		}
		return v, n
	case []any:
		n := 0
		for i, item := range v {
			var c int
			v[i], c = MaskJSON(item)
			n += c
		}
		return v, n
	}
	return v, 0
}

// isLiteral says whether a password given on a command line or in a URL is
// the password itself rather than a reference to one ($VAR, ${VAR},
// %VAR%, <password>, {{ .Pass }}) or a mask (***, xxx, ...).
func isLiteral(v string) bool {
	v = strings.Trim(v, `"'`)
	if v == "" || strings.ContainsAny(v[:1], "$%<{*") {
		return false
	}
	if strings.Trim(v, "*xX.") == "" {
		return false
	}
	return true
}

// looksEncoded says whether a Docker config auth value is base64 of
// "user:password", as docker login writes it.
func looksEncoded(v string) bool {
	return len(v) >= 12 && classes(v) >= 2
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
