package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
)

// The rewrite rules run in order: each later rule sees the placeholders of
// the earlier ones, so e.g. a timestamp is gone before the number rules could
// split it into pieces.
var (
	// Colours and cursor moves (CSI), window titles and links (OSC), and
	// the bare "[31m" a log keeps when something stripped the escape.
	reANSI = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]|\[\d{1,3}(?:;\d{1,3})*m`)
	// Elisions a tail is cut with: a line of dots, "[...]", "(12 lines
	// omitted)", "... 40 more", "[truncated]".
	reElision = regexp.MustCompile(`(?im)^\s*(?:\.{3,}|…|\[\.\.\.\]|\[?\(?\s*(?:\.\.\.\s*)?\d*\s*(?:more\s+)?(?:lines?\s+)?(?:omitted|truncated|elided|skipped|more)\s*(?:lines?)?\s*\)?\]?)\s*$|^\s*(?:\.{3,}|…)\s*|\s*(?:\.{3,}|…)\s*$`)
	reUUID    = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	// npm names its logs 2024-05-31T01_28_46_000Z-debug-0.log: some
	// tools write the time with underscores where a file name cannot
	// hold a colon.
	reTimestamp = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}[T _]\d{2}[:_]\d{2}([:_]\d{2}([._]\d+)?)?(Z|[+-]\d{2}:?\d{2})?`)
	reDate      = regexp.MustCompile(`\b\d{4}[-/]\d{2}[-/]\d{2}\b`)
	reClock     = regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b`)
	reModHash   = regexp.MustCompile(`\bh1:[A-Za-z0-9+/=]{20,}`)
	reHex       = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b`)
	// Long hex runs are commit ids, image digests and container ids; the
	// lookahead-free form requires a digit so plain words are left alone.
	reLongHex = regexp.MustCompile(`\b(?:sha256:)?[0-9a-f]*[0-9][0-9a-f]*\b`)
	reTempDir = regexp.MustCompile(`(?i)(?:/private)?(?:/tmp|/var/folders|/var/tmp|[a-z]:\\users\\[^\\\s]+\\appdata\\local\\temp|\$TMPDIR)(?:[/\\][^\s:'"(),]*)?`)
	// A path is absolute, home-relative, explicitly relative, or a relative
	// path whose last element has a file extension. Import paths such as
	// github.com/x/y have none of those shapes and are kept: they are the
	// module names a fix is about.
	rePath  = regexp.MustCompile(`(^|[\s'"(=\[,:]|-[LI])((?:(?:[A-Za-z]:)?[\\/]|~[\\/]|\.\.?[\\/])[^\s:'"(),;\]\[<>]*|[\w.@+-]+(?:[\\/][\w.@+-]+)+\.[A-Za-z][A-Za-z0-9]{0,5}\b)`)
	reDrive = regexp.MustCompile(`^[A-Za-z]:/`)
	// A port says which service is in the way (5432, 8080), so it
	// survives, written one way: "port 5432". It is recognized after a
	// host (localhost, an IPv4 address, an IPv6 "::") or the word port.
	reHostPort = regexp.MustCompile(`(?i)(\blocalhost|\b\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]*\]|::+):(\d{2,5})\b`)
	rePortWord = regexp.MustCompile(`(?i)\bport\s*[:=]?\s*(\d{2,5})\b`)
	// Positions printed after a name that is not a file with an
	// extension: Makefile:183, node:events:11, loader:1228:34, or a
	// dependency a path was shortened to (uuid:12). A tag such as
	// node:18-alpine is not a position: the number must end the word.
	reNamePos = regexp.MustCompile(`\b([A-Za-z_][\w-]*)(?::\d+)+(?:$|[\s)\],;:])`)
	// javac's [line,col], a source excerpt's gutter ("183 |   let x")
	// and a linter's leading "12:5".
	reBracketPos = regexp.MustCompile(`\[\d+,\s*\d+\]`)
	reGutter     = regexp.MustCompile(`(?m)^\s*\d+\s*\|`)
	reLeadPos    = regexp.MustCompile(`(?m)^\s*\d+:\d+\s`)
	reFileLine   = regexp.MustCompile(`(\.[A-Za-z][A-Za-z0-9]{0,5}|<path>)(?::\d+)+(?:\b|$)`)
	reParenLine  = regexp.MustCompile(`\((\d+),\s*\d+\)`)
	reLineWord   = regexp.MustCompile(`(?i)\b(line|ln|col|column|offset|pos|position)\s*[:=]?\s*\d+`)
	reTextOff    = regexp.MustCompile(`\(\.text(\.[\w.]+)?\+<hex>\)`)
	reDuration   = regexp.MustCompile(`\b\d+(\.\d+)?\s?(ns|µs|us|ms|s|sec|secs|seconds|m|min|minutes|h)\b`)
	// A version's pre-release or build suffix (1.2.3-rc.1, 2.0.0+build5)
	// goes with it; a docker tag's variant (3.13-slim-buster) names
	// another image and stays.
	reVersion   = regexp.MustCompile(`(?i)\bv?\d+\.\d+(\.\d+)*([-+](?:rc|alpha|beta|pre|dev|next|canary|build|snapshot|\d)[0-9A-Za-z.-]*)?\b`)
	rePID       = regexp.MustCompile(`(?i)\b(pid|process|goroutine|thread)\s*[:=#]?\s*\d+`)
	reBigNumber = regexp.MustCompile(`\b\d{4,}\b`)
	reSpaces    = regexp.MustCompile(`[ \t\f\v]+`)
	reRepeat    = regexp.MustCompile(`(<[a-z]+>)(?:[\s/\\:.,]*<[a-z]+>)+`)
)

// moduleDirs are path components after which the next component names a
// dependency; that name is what a fix talks about, so it survives.
var moduleDirs = []string{"node_modules", "site-packages", "dist-packages", "pkg/mod", ".cargo/registry/src", "vendor"}

// NormalizeError rewrites tool output so that the same failure seen on
// another machine, in another checkout or on another day reads the same:
// paths become their base name (or the dependency they point into),
// positions, addresses, times, durations, temp dirs, PIDs, UUIDs and
// version numbers become placeholders, colours are dropped and whitespace is
// collapsed. Lines are kept; empty lines are dropped.
func NormalizeError(text string) string {
	if text == "" {
		return ""
	}
	s := strings.ReplaceAll(text, "\r\n", "\n")
	// A lone carriage return redraws a line (progress bars); what follows
	// it is what the terminal showed.
	s = strings.ReplaceAll(s, "\r", "\n")
	s = reANSI.ReplaceAllString(s, "")
	s = reElision.ReplaceAllString(s, "")
	s = reUUID.ReplaceAllString(s, "<uuid>")
	s = reTimestamp.ReplaceAllString(s, "<time>")
	s = reDate.ReplaceAllString(s, "<time>")
	s = reClock.ReplaceAllString(s, "<time>")
	s = reModHash.ReplaceAllString(s, "<hash>")
	s = reHex.ReplaceAllString(s, "<hex>")
	s = reLongHex.ReplaceAllStringFunc(s, func(m string) string {
		if len(strings.TrimPrefix(m, "sha256:")) >= 12 {
			return "<hex>"
		}
		return m
	})
	s = reHostPort.ReplaceAllStringFunc(s, func(m string) string {
		sub := reHostPort.FindStringSubmatch(m)
		if strings.EqualFold(sub[1], "localhost") {
			return sub[1] + " port " + sub[2]
		}
		return " port " + sub[2]
	})
	s = rePortWord.ReplaceAllString(s, "port $1")
	s = reTempDir.ReplaceAllString(s, "<tmp>")
	s = replacePaths(s)
	s = reFileLine.ReplaceAllString(s, "$1")
	s = reNamePos.ReplaceAllStringFunc(s, func(m string) string {
		// Keep the character that ended the position.
		sub := reNamePos.FindStringSubmatch(m)
		last := m[len(m)-1]
		if last >= '0' && last <= '9' {
			return sub[1]
		}
		return sub[1] + string(last)
	})
	s = reBracketPos.ReplaceAllString(s, "")
	s = reGutter.ReplaceAllString(s, "|")
	s = reLeadPos.ReplaceAllString(s, " ")
	s = reParenLine.ReplaceAllString(s, "")
	s = reLineWord.ReplaceAllString(s, "$1 <n>")
	s = reTextOff.ReplaceAllString(s, "")
	s = reDuration.ReplaceAllString(s, "<dur>")
	s = reVersion.ReplaceAllString(s, "<ver>")
	s = rePID.ReplaceAllString(s, "$1 <n>")
	s = replaceBigNumbers(s)
	s = reRepeat.ReplaceAllString(s, "$1")

	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimSpace(reSpaces.ReplaceAllString(l, " "))
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// replaceBigNumbers replaces long numbers (pids, counters, ids) with
// <n>, except a port (see reHostPort), which names a service.
func replaceBigNumbers(s string) string {
	idx := reBigNumber.FindAllStringIndex(s, -1)
	if len(idx) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if strings.HasSuffix(strings.ToLower(s[:m[0]]), "port ") {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString("<n>")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// replacePaths shortens every path in s, keeping the character before it.
func replacePaths(s string) string {
	return rePath.ReplaceAllStringFunc(s, func(m string) string {
		sub := rePath.FindStringSubmatch(m)
		return sub[1] + shortenPath(sub[2])
	})
}

// shortenPath keeps the part of a path that means the same everywhere.
func shortenPath(p string) string {
	slashed := strings.ReplaceAll(p, `\`, "/")
	// A Go module cache path (github.com/lib/pq@v1.10.9/go.mod) names the
	// module that failed; that is the part to keep.
	// (An npm scope such as node_modules/@types is not a version.)
	if at := strings.IndexByte(slashed, '@'); at > 0 && slashed[at-1] != '/' && !strings.HasPrefix(slashed, "/") && !reDrive.MatchString(slashed) {
		base := slashed[strings.LastIndexByte(slashed, '/')+1:]
		return slashed[:at] + " " + base
	}
	if name := dependencyOfPath(slashed); name != "" {
		return name
	}
	slashed = strings.TrimRight(slashed, "/")
	base := slashed
	if i := strings.LastIndexByte(slashed, '/'); i >= 0 {
		base = slashed[i+1:]
	}
	// A base name with an extension (main.go, Cargo.toml) tells which kind
	// of file failed; a bare directory name is usually a checkout name.
	if strings.Contains(strings.TrimLeft(base, "."), ".") || strings.HasPrefix(base, ".") {
		return base
	}
	return "<path>"
}

// dependencyOfPath is the dependency a slashed path lies in (the
// component after one of moduleDirs, with its npm scope and without its
// version), or "".
func dependencyOfPath(slashed string) string {
	for _, dir := range moduleDirs {
		i := strings.LastIndex(slashed, dir+"/")
		if i < 0 {
			continue
		}
		rest := slashed[i+len(dir)+1:]
		if dir == ".cargo/registry/src" {
			// The first element is the registry index directory.
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				rest = rest[j+1:]
			}
		}
		parts := strings.Split(rest, "/")
		name := parts[0]
		if strings.HasPrefix(name, "@") && len(parts) > 1 {
			name += "/" + parts[1]
		}
		if k := strings.IndexByte(name, '@'); k > 0 {
			name = name[:k]
		}
		if name != "" {
			return name
		}
	}
	return ""
}

// keyLine reports whether a normalized line carries the failure rather than
// progress output, stack frames or advice.
var keyLine = regexp.MustCompile(`(?i)(\berr(or)?\b|error[:\[]|\berr!|fatal|panic|exception|traceback|cannot|can't|could not|couldn't|unable to|undefined|not found|no such|no matching|not supported|failed|failure|denied|refused|unresolved|mismatch|conflict|forbidden|unknown|invalid|missing|not allowed|already|killed|timed out|timeout|exit (status|code)|\b[A-Z]{1,3}\d{3,4}\b|\bE\d{3,4}\b)`)

// maxKeyLines bounds how much of a long log feeds the signature; the first
// failing lines name the cause, later ones are usually consequences.
const maxKeyLines = 4

// KeyLines returns the normalized lines of text that carry the error, at
// most a few, in order. When no line looks like an error the first lines
// are used so that every non-empty output still has a signature.
func KeyLines(text string) []string {
	return keyLinesOfNormalized(NormalizeError(text))
}

func keyLinesOfNormalized(norm string) []string {
	if norm == "" {
		return nil
	}
	seen := make(map[string]bool)
	var keys, all []string
	for _, l := range strings.Split(norm, "\n") {
		l = strings.ToLower(l)
		if seen[l] {
			continue
		}
		seen[l] = true
		all = append(all, l)
		if keyLine.MatchString(l) && len(keys) < maxKeyLines {
			keys = append(keys, l)
		}
	}
	if len(keys) == 0 {
		if len(all) > maxKeyLines {
			all = all[:maxKeyLines]
		}
		return all
	}
	return keys
}

// ErrorSignature is a stable digest ("sha256:<hex>", the ingress schema's
// digest form) of the key lines of text after normalization. Two outputs of
// the same failure on different machines get the same signature; an empty
// output gets "".
func ErrorSignature(text string) string {
	return signatureOfNormalized(NormalizeError(text))
}

func signatureOfNormalized(norm string) string {
	keys := keyLinesOfNormalized(norm)
	if len(keys) == 0 {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

var (
	reQuoted = regexp.MustCompile("[`'\"‘“]([@A-Za-z_][\\w./:@*()\\[\\]-]{1,120})[`'\"’”]")
	reDotted = regexp.MustCompile(`\b[A-Za-z_][\w]*(?:(?:\.|::)(?:\(\*?[A-Za-z_]\w*\)|[A-Za-z_]\w*))+(?:\(\))?`)
	// Import paths: a host with a dot, then path elements.
	reImportPath = regexp.MustCompile(`\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|io|net|dev|in|cloud)(?:/[\w.~-]+)+`)
	// Names a message introduces without quotes: "No module named yaml",
	// "package foo/bar is not in std", "fatal error: zlib.h: No such file".
	reIntroduced = regexp.MustCompile(`(?i)(no module named|cannot find module|cannot find package|unable to locate package|named|crate|package|plugin|fixture|library not found for -l|reference to|function|symbol:\s+class|class|for module|image|manifest for)\s+(['"` + "`" + `]?)([@A-Za-z_][\w./@:-]{1,120})`)
	// A plain past participle after a noun that may introduce a name
	// ("no async plugin installed", "function called", "package
	// deprecated") says what happened to it; it names nothing.
	reParticiple = regexp.MustCompile(`^[a-z]{4,}ed$`)
	reHeader     = regexp.MustCompile(`\b[\w/]+\.h\b`)
	// Go frames: pkg.Func( or pkg.(*T).Method( after an import path.
	reGoFunc   = regexp.MustCompile(`\b([a-z_]\w*\.(?:\(\*?[A-Za-z_]\w*\)\.)?[A-Za-z_]\w*)\(`)
	reTestName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z_]\w*`)
)

// sourceExts are suffixes that make a dotted word a file name, not a
// symbol. Headers are not among them: a missing header is the thing a fix
// installs.
var sourceExts = map[string]bool{
	"go": true, "js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true, "py": true,
	"rs": true, "c": true, "cc": true, "cpp": true, "java": true, "class": true, "rb": true,
	"o": true, "so": true, "a": true, "log": true, "sh": true, "md": true,
}

// symbolNoise are words the introducing patterns catch that name nothing.
var symbolNoise = map[string]bool{"or": true, "and": true, "module": true, "to": true, "is": true, "the": true, "not": true, "a": true, "for": true, "named": true, "in": true, "with": true, "from": true}

// CodeSymbols returns the identifiers an error or prompt names: quoted
// names (`tokio`, 'lodash'), qualified names (pkg.Func, Class::method,
// pkg.(*T).Method), import paths (golang.org/x/sync/errgroup), headers and
// names a message introduces ("No module named yaml"). Source file names
// and placeholders are left out. Symbols are lower-cased and deduplicated,
// in order of appearance.
func CodeSymbols(text string) []string {
	return symbolsOfNormalized(NormalizeError(text))
}

func symbolsOfNormalized(norm string) []string {
	seen := make(map[string]bool)
	var out []string
	add := func(s string) {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "()"), "@<ver>")
		s = strings.Trim(s, ".:/-")
		if len(s) < 2 || strings.ContainsAny(s, "<>") {
			return
		}
		if i := strings.LastIndexByte(s, '.'); i >= 0 && sourceExts[strings.ToLower(s[i+1:])] {
			return
		}
		if strings.IndexFunc(s, unicode.IsLetter) < 0 {
			return
		}
		s = strings.ToLower(s)
		// A word of prose (the package you are trying to install) names
		// nothing, wherever a pattern caught it.
		if !seen[s] && !symbolNoise[s] && !stopwords[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range reQuoted.FindAllStringSubmatch(norm, -1) {
		add(m[1])
	}
	for _, m := range reIntroduced.FindAllStringSubmatch(norm, -1) {
		if m[2] == "" && !strings.HasSuffix(strings.ToLower(m[1]), "named") && reParticiple.MatchString(m[3]) {
			continue
		}
		add(m[3])
	}
	for _, m := range reGoFunc.FindAllStringSubmatch(norm, -1) {
		add(m[1])
	}
	for _, m := range reImportPath.FindAllString(norm, -1) {
		add(m)
	}
	// Hosts of import paths would read as pkg.Func below.
	for _, m := range reDotted.FindAllString(reImportPath.ReplaceAllString(norm, " "), -1) {
		add(m)
	}
	for _, m := range reHeader.FindAllString(norm, -1) {
		add(m)
	}
	for _, m := range reTestName.FindAllString(norm, -1) {
		add(m)
	}
	return out
}

// stopwords are words that appear in almost every note or log and would
// only add noise to BM25; error words such as "not" are kept on purpose.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "for": true, "is": true,
	"are": true, "was": true, "be": true, "with": true, "on": true, "at": true, "by": true, "this": true,
	"that": true, "it": true, "its": true, "or": true, "and": true, "from": true, "as": true, "if": true,
	"into": true, "we": true, "you": true, "your": true, "our": true, "so": true, "then": true, "when": true,
}

// minNumberLen is the shortest number Tokenize keeps. Shorter numbers
// are counts and positions; longer ones that survive normalization name
// something: an exit code (137), a port (5432), a PEP (668).
const minNumberLen = 3

// Tokenize splits text into lower-case search terms: runs of letters,
// digits and underscores, at least two characters long, without
// stopwords, numbers shorter than three digits or normalization
// placeholders ("<path>"). Dotted names also yield their parts, so
// "errors.Join" matches "Join".
func Tokenize(text string) []string {
	var out []string
	start := -1
	inPlaceholder := false
	flush := func(end int) {
		if start < 0 {
			return
		}
		tok := strings.ToLower(text[start:end])
		start = -1
		if len(tok) < 2 || stopwords[tok] || (isDigits(tok) && len(tok) < minNumberLen) {
			return
		}
		out = append(out, tok)
	}
	for i, r := range text {
		switch {
		case r == '<':
			flush(i)
			inPlaceholder = true
		case r == '>':
			if inPlaceholder {
				inPlaceholder = false
				start = -1
				continue
			}
			flush(i)
		case inPlaceholder:
			if !(unicode.IsLetter(r) || r == '_') {
				// Not a placeholder after all, e.g. "a < b".
				inPlaceholder = false
				if unicode.IsDigit(r) && start < 0 {
					start = i
				}
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	if !inPlaceholder {
		flush(len(text))
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
