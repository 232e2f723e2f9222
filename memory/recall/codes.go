package recall

import (
	"regexp"
	"strings"
)

// Error codes: the one word of a failure that names it.
//
// Tools give many failures a code of their own, printed with the message
// and stable across versions that reword it: ERR_PNPM_OUTDATED_LOCKFILE,
// ENOENT, TS2307, E0433, NU1101, F401, CrashLoopBackOff,
// AddressSanitizer:DEADLYSIGNAL. Writers name the code in their prose
// ("ERR_PNPM_OUTDATED_LOCKFILE on the install step, right after I
// added...") as they would a command, and quote nothing else; no run of
// three words and no quoted line then ties the note to the output, yet
// the output printing the same code is the same failure, as surely as a
// quoted line would say. How surely depends on how many records name the
// code: one only a single note names is its failure, one many do
// (ENOENT) names a kind of failure, whose object the key checks decide.

// reErrorCode finds the error codes of a text, as written (case
// matters: an upper-case code is a code, the same letters in prose are
// a word). Group 1 is the code; for a sanitizer's report, the part after
// its colon.
var reErrorCode = regexp.MustCompile(`\b(` +
	`E[A-Z]{3,15}|` + // errno names: ENOENT, EACCES, ECONNREFUSED, ERESOLVE
	`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|` + // ERR_REQUIRE_ESM, RSRC_DOCKER_STORAGE, CERT_HAS_EXPIRED
	`[A-Z]{1,6}[0-9]{3,5}|` + // TS2307, E0433, CS0246, NU1101, LNK2019, F401, SC2086
	`SIG[A-Z]{3,6}|` + // SIGSEGV, SIGKILL
	`[A-Z][A-Za-z]*[a-z](?:BackOff|Killed)|OOMKilled|ErrImagePull` + // Kubernetes' reasons
	`)\b|\b[A-Za-z]+:([A-Z]{5,})\b`)

// notCode are upper-case words of the errno shape that are words, and
// prefixes of the letters-and-digits shape that name a standard or an
// algorithm rather than a failure.
var (
	notCode = map[string]bool{
		"ERROR": true, "ERRORS": true, "EXIT": true, "EXITED": true, "EXPECTED": true, "EXCEPTION": true,
		"EXISTS": true, "EMPTY": true, "ENABLED": true, "ENABLE": true, "EVERY": true, "EXPORT": true,
		"EXPOSE": true, "EXEC": true, "ENTRY": true, "ENTRYPOINT": true, "EXTRA": true, "EXAMPLE": true,
		"EXTERNAL": true, "ENGINE": true, "ENOUGH": true, "EDIT": true, "ELSE": true, "EACH": true,
		"EVEN": true, "EVENT": true, "EVENTS": true, "EXACTLY": true, "ENDPOINT": true,
	}
	notCodePrefix = []string{"SHA", "AES", "RFC", "ISO", "UTF", "PEP", "HTTP", "TLS", "IPV", "ARM", "AMD", "AVX", "CVE", "GPT", "MD", "RSA", "ECDSA", "P"}
)

// errorCodes returns the error codes texts name, each once, as Tokenize
// spells them.
func errorCodes(texts ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, m := range reErrorCode.FindAllStringSubmatchIndex(t, -1) {
			g := 2
			if m[2] < 0 {
				g = 4
			}
			code := t[m[g]:m[g+1]]
			if partOfName(t, m[g], m[g+1]) {
				continue
			}
			if notCode[code] || digitsCode(code) && hasPrefixAny(code, notCodePrefix) || envVar(code) {
				continue
			}
			toks := Tokenize(code)
			if len(toks) != 1 || seen[toks[0]] {
				continue
			}
			seen[toks[0]] = true
			out = append(out, toks[0])
		}
	}
	return out
}

// envSuffixes end the names of environment variables, which notes and
// output name as often as codes and which name a setting, not a failure.
var envSuffixes = []string{"_HOME", "_PATH", "_TOKEN", "_KEY", "_DIR", "_OPTIONS", "_OPTS", "_URL", "_ENV", "_VERSION", "_FLAGS", "_CONFIG", "_FILE", "_HOST", "_PORT", "_USER", "_PASSWORD", "_SECRET", "_ID", "_NAME", "_MODE", "_LEVEL", "_ROOT", "_CACHE", "_URI", "_ADDR", "_ADDRESS", "_REGION", "_PROFILE", "_TIMEOUT", "_SIZE", "_COUNT", "_LIMIT", "_ENABLED", "_DEBUG", "_ARGS", "_LANG", "_SHELL"}

func envVar(code string) bool {
	for _, s := range envSuffixes {
		if strings.HasSuffix(code, s) {
			return true
		}
	}
	return false
}

// partOfName reports whether t[i:j] is part of a longer name: a path,
// a file name, a dotted or hyphenated identifier.
func partOfName(t string, i, j int) bool {
	if i > 0 && strings.ContainsRune("./-\\", rune(t[i-1])) {
		return true
	}
	if j < len(t) && t[j] == '-' {
		return true
	}
	// A full stop ends a sentence; a dot before a letter starts an
	// extension or a member.
	return j+1 < len(t) && t[j] == '.' && (t[j+1] >= 'a' && t[j+1] <= 'z' || t[j+1] >= 'A' && t[j+1] <= 'Z')
}

// digitsCode reports whether a code is of the letters-and-digits shape.
func digitsCode(code string) bool {
	return strings.IndexAny(code, "0123456789") > 0 && !strings.Contains(code, "_")
}

func hasPrefixAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if len(s) > len(p) && strings.HasPrefix(s, p) && s[len(p)] >= '0' && s[len(p)] <= '9' {
			return true
		}
	}
	return false
}

// codeShare is what a code the output prints is worth against an exact
// signature, for a code no other record names: less than a quoted line
// (quoteShare) or a run of the note's words (runShare), which say the
// message as well as its name.
const codeShare = 0.7

// codeSignal scores 0..1 the rarest of the record's error codes that the
// query's output prints, by its rarity among the records' words.
func (ix *Index) codeSignal(qw map[int32]bool, e *entry) (float64, string) {
	idfMax := bm25IDF(ix.live, 1)
	if idfMax <= 0 {
		return 0, ""
	}
	var best float64
	var value string
	for _, id := range e.codes {
		if !qw[id] {
			continue
		}
		if s := codeShare * bm25IDF(ix.live, int(ix.lex.df[id])) / idfMax; s > best {
			best, value = s, ix.lex.names[id]
		}
	}
	return best, value
}
