package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/memory"
)

// Redact masks secrets in s, with the node's own rule set
// (memory.MaskSecrets): the contract asks the adapter to redact what it
// sends (commands, prompt text, error tails), and the node masks every
// event again with the same rules, so what one lets through the other
// does too, and nothing either masks is sent or kept.
func Redact(s string) string {
	masked, _ := memory.MaskSecrets(s)
	return masked
}

// Head keeps at most n bytes of s from its start, cut on a rune boundary.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// Tail keeps at most n bytes of s from its end, cut on a rune boundary: the
// end of an error output is where the error is.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s
}

var exitCodePatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?im)^\s*exit code:?\s*(-?\d+)`),
	regexp.MustCompile(`(?i)\bexited with (?:code|status) (-?\d+)`),
	regexp.MustCompile(`(?i)\bexit (?:status|code) (-?\d+)`),
}

// ExitCode finds the exit status an agent wrote into a tool's output
// ("Exit code 1", "Exit code: 1", "Process exited with code 1").
func ExitCode(out string) (int, bool) {
	for _, re := range exitCodePatterns {
		if m := re.FindStringSubmatch(Head(out, 512)); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

var (
	// A line that names an error type ("Error: ...", "TypeError: ...",
	// "ModuleNotFoundError: ...", "panic: ...") is the best key.
	typedErrorLine = regexp.MustCompile(`(?:^|\s)(?:[A-Za-z_.]*(?:Error|Exception)|panic|fatal|FATAL|error(?:\[E\d+\])?)\s*:\s*\S`)
	// Else a line with an error word in it.
	errorWordLine = regexp.MustCompile(`(?i)\b(error|exception|cannot|can't|could not|couldn't|not found|no such|undefined|unresolved|failed|failure|denied|refused|timed out|panic)\b`)
	// What differs between two machines or runs of the same failure.
	sigPath   = regexp.MustCompile(`(?:[A-Za-z]:)?(?:[\\/][^\s'"():,;\\/]+){2,}[\\/]?|~/[^\s'"():,;]+`)
	sigLineNo = regexp.MustCompile(`:\d+(?::\d+)?\b`)
	sigHex    = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{12,}\b`)
	sigNumber = regexp.MustCompile(`\b\d+(?:\.\d+)*\b`)
	sigSpace  = regexp.MustCompile(`\s+`)
)

// ErrorKey picks the line of an error output that says what went wrong and
// normalizes away what differs between machines and runs (paths, line
// numbers, addresses, counts). It returns "" when the output has no such
// line.
func ErrorKey(out string) string {
	lines := strings.Split(out, "\n")
	pick := ""
	for _, l := range lines {
		if typedErrorLine.MatchString(l) {
			pick = l
			break
		}
	}
	if pick == "" {
		for _, l := range lines {
			if errorWordLine.MatchString(l) {
				pick = l
				break
			}
		}
	}
	if pick == "" {
		return ""
	}
	k := sigPath.ReplaceAllString(pick, "<path>")
	k = sigLineNo.ReplaceAllString(k, "")
	k = sigHex.ReplaceAllString(k, "<hex>")
	k = sigNumber.ReplaceAllString(k, "<n>")
	k = sigSpace.ReplaceAllString(strings.TrimSpace(k), " ")
	return Head(k, 512)
}

// ErrorSignature is the digest of ErrorKey(out), so that the same failure in
// two checkouts of a project, or two projects, has the same signature.
func ErrorSignature(out string) (string, bool) {
	k := ErrorKey(out)
	if k == "" {
		return "", false
	}
	sum := sha256.Sum256([]byte("agora-error-signature/v1\n" + k))
	return "sha256:" + hex.EncodeToString(sum[:]), true
}

// languageMarkers are files whose presence at a workspace root says which
// language the project is in; the node uses it as a soft environment signal.
var languageMarkers = []struct{ file, lang string }{
	{"go.mod", "go"},
	{"package.json", "javascript"},
	{"tsconfig.json", "typescript"},
	{"pyproject.toml", "python"},
	{"requirements.txt", "python"},
	{"setup.py", "python"},
	{"Cargo.toml", "rust"},
	{"pom.xml", "java"},
	{"build.gradle", "java"},
	{"build.gradle.kts", "kotlin"},
	{"Gemfile", "ruby"},
	{"composer.json", "php"},
	{"mix.exs", "elixir"},
	{"CMakeLists.txt", "c++"},
}

// Languages lists the languages whose marker files are in dir.
func Languages(dir string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range languageMarkers {
		if seen[m.lang] {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, m.file)); err == nil {
			out = append(out, m.lang)
			seen[m.lang] = true
		}
	}
	return out
}

// LogicalPath is p relative to root when it lies under it: the contract
// wants a path that means the same in another checkout.
func LogicalPath(root, p string) string {
	if p == "" {
		return ""
	}
	if root != "" && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
