package recall

import (
	"regexp"
	"strings"
	"unicode"
)

// Notes: what an agent's own words say failed.
//
// Agents write a note after the fact, often in a later session than the
// failure, through a note tool that never saw the tool's output. What the
// tool printed survives only as the agent quoted it: a fenced block, a
// code span, a quoted message, or a line pasted into the prose. NoteErrorText
// finds those pieces, so a record is found by the failure its note
// describes and not only by the last failing output of the session that
// wrote it.

var (
	reFence    = regexp.MustCompile("(?s)```[a-zA-Z0-9_-]*\n?(.*?)```")
	reCodeSpan = regexp.MustCompile("`([^`\n]{3,400})`")
	// A quoted message: double quotes or typographic ones, long enough to
	// be output rather than a word.
	reQuotedMsg = regexp.MustCompile(`"([^"\n]{6,400})"|“([^”\n]{6,400})”`)
	// Output pasted after a colon: "failed with: X", "the error was X".
	reIntroducedMsg = regexp.MustCompile(`(?i)\b(?:(?:failed|fails|failing)(?: again| still| now| every time| each time)? with|errors? (?:was|is|says|said|reads|read)|printed|prints|complain(?:s|ed)(?: that)?|said|says|reports|reported|(?:with the )?message(?: was| is| said| read)?)[:\s]+(.{6,400})`)
	// Output the writer ran into the prose: "X died with Y", "X gave me
	// Y", "X → Y". What follows is kept only when it reads like a
	// failure, since these words also introduce plain narration.
	reRunInMsg = regexp.MustCompile(`(?i)(?:\b(?:died|dies|crashed|crashes|crash|errors?|errored|exited|exits|aborted|aborts|broke|breaks|blew up|bails(?: out)?|stops|stopped) (?:with|on)|\b(?:gave|gives|throws|threw|raised|raises|shows|showed|spat out|spits out|returns|returned)(?: me| us)?|→|->|=>)[:\s]+(.{6,400})`)
	// A command and what it printed, as writers show it: `poetry
	// install` → "pyproject.toml changed significantly ...". The quote
	// after the arrow is the output, error words or none.
	reArrowQuoted = regexp.MustCompile(`(?:→|->|=>)\s*(?:"([^"\n]{6,400})"|“([^”\n]{6,400})”)`)
	// Where a tool's failure starts inside a line of prose: "mypy in
	// pre-commit: error: ...", "the job ended in Error: ...".
	reMidMarker = regexp.MustCompile(`(?:\b(?:error|Error|ERROR|fatal|FATAL|panic|E)(?:\[\w+\])?:\s|\b[A-Za-z_][\w.]*(?:Error|Exception|Failure):\s|\bERR!\s|\[!\]\s)`)
	// A what that starts with the tool's own prefix, the way tools print
	// their failures ("go build: go: go.mod requires go >= 1.22.0"):
	// what follows the prefix is the output.
	// The same after the writer's own colon, to the end of the line:
	// "CI build broke after the merge: go: inconsistent vendoring."
	// The words before say something failed, so the prefix is a tool's
	// and not the writer's own heading (the layout: api: under /v2).
	reToolPrefixAfter = regexp.MustCompile(`:\s+([a-z][\w.+-]{1,20}): ([^:\n]{6,300}?)\.?\s*$`)
	reFailedVerb      = regexp.MustCompile(`(?i)\b(?:broke|breaks|broken|fail(?:s|ed|ing)?|errors?|errored|red|crash(?:es|ed)?|died|dies|stopped|stops|refuses?|refused|chokes?|choked|blew up|aborts?|aborted)\b`)
	reToolPrefix      = regexp.MustCompile(`^\s*[a-z][\w.-]*(?: [a-z][\w.-]*)?: (?:[a-z][\w.-]*: )?(\S.{6,400})`)
	// A line that starts the way tools start their failure lines.
	reOutputLine = regexp.MustCompile(`^(?i:\s*(?:[\w.\-/\\]+:\d+(?::\d+)?:?\s|error(?:\[\w+\])?[:!\s]|err!|npm err|fatal[:\s]|panic:|traceback|exception|e:\s|failed\b|fail\b|[A-Z]{1,4}\d{3,5}\b|warning:|caused by))|^\s*[A-Z][\w.]*(?:Error|Exception)\b`)
	// Words of failure that error lines use and signatures do not key
	// on.
	reFailureWords = regexp.MustCompile(`(?i)(\brejected\b|non-fast-forward|\baborted?\b|\bstop(?:ped)?\.|exceeded|out of memory|segmentation fault|unauthori[sz]ed|\b[45]\d\d\b (?:not found|forbidden|unauthorized)|\*\*\*|\bE\d{4}\b|heap limit|\bno \w+(?: \w+)? (?:were |was )?found\b|\bERR_[A-Z_]+|(?-i:\bE[A-Z]{4,}\b))`)
	// Failure phrases of messages that name no error: what a note's
	// quote or pasted line says went wrong ('X' is not recognized as an
	// internal or external command, Filename too long).
	reFailurePhrase = regexp.MustCompile(`(?i)(\bnot recogni[sz]ed\b|\bnot available\b|\bunavailable\b|\bdoes ?n[o']t exist\b|\bnot installed\b|\btoo (?:long|many|large|big)\b|\bno space left\b|\bout of (?:memory|disk|space)\b|\bpermission\b|\bnot permitted\b|\bincompatible\b|\bunsupported\b|\bnot compatible\b|\bexpected\b|\bdisabled\b|\bcorrupt(?:ed)?\b|\bbroken pipe\b|\bhas changed\b|\bno such\b|\bcould ?n[o']t\b)`)
	// Narration: words a writer uses and tools do not. The first person
	// always; the rest (because, then, should) tools print too, so a
	// note's what that is one sentence may hold them.
	reNarration = regexp.MustCompile(`(?i)\b(i|i'm|we|we're|our|us|my|me|turned out|because|so that|should|next time|spent|kept|tried|seems?|looks like|then|every single)\b`)
	// A writer's summing up of what they quoted ("That was the whole
	// failure."): about output, not output.
	reSummingUp   = regexp.MustCompile(`(?i)\b(?:that|this) (?:was|is) (?:the|all)\b|\bthe whole (?:failure|error|output|log|message|thing)\b`)
	reFirstPerson = regexp.MustCompile(`(?i)\b(i|i'm|i've|we|we're|we've|our|us|my|me|turned out|next time|spent|kept|tried|every single)\b`)
	// Platform words: a note that names one ties its fix to it.
	rePlatform = regexp.MustCompile(`(?i)\b(windows|win32|win64|powershell|wsl2?|macos|mac ?os ?x?|mac|osx|darwin|homebrew|apple silicon|linux|ubuntu|debian|alpine|fedora|centos|rhel|arch linux)\b`)
	// A platform string (linux/arm64, windows/amd64) names an image's
	// platform, not the system the note's fix is for.
	reImageTag = regexp.MustCompile(`(?i)\S*(?:[:-](?:alpine|ubuntu|debian|centos|fedora)|(?:alpine|ubuntu|debian|centos|fedora)[:-])\S*`)
	// So does a target triple's or a package's platform tag
	// (darwin-arm64, linux-x64, win32-x64, linux-musl).
	rePlatformString = regexp.MustCompile(`(?i)\b(?:linux|windows|darwin|win32|win64)[/_-](?:amd64|arm64|aarch64|arm|386|x86_64|x64|x86|ia32|ppc64le|s390x|musl|gnu)\b`)
)

// NoteErrorText returns the failure a note's texts quote: fenced blocks,
// code spans and quoted messages that read like errors, and the lines of
// the prose shaped like tool output, one per line. A note that quotes
// nothing that reads like a failure gets "": it describes no failure, and
// no failing tool result should bring it back.
func NoteErrorText(texts ...string) string {
	var out []string
	seen := map[string]bool{}
	// declared says the writer introduced the text as the error ("the
	// error was: ..."), which then needs no error words of its own.
	add := func(s string, declared bool) {
		for _, l := range joinedErrors(strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")) {
			l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "`"))
			if len(l) < 3 || seen[l] {
				continue
			}
			if declared || keyLine.MatchString(l) || reOutputLine.MatchString(l) || reFailureWords.MatchString(l) || reFailurePhrase.MatchString(l) {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	for i, t := range texts {
		rest := t
		for _, m := range reFence.FindAllStringSubmatch(t, -1) {
			add(m[1], false)
		}
		rest = reFence.ReplaceAllString(rest, "\n")
		for _, m := range reCodeSpan.FindAllStringSubmatch(rest, -1) {
			add(m[1], false)
		}
		for _, m := range reQuotedMsg.FindAllStringSubmatch(rest, -1) {
			add(m[1]+m[2], false)
		}
		for _, m := range reIntroducedMsg.FindAllStringSubmatch(rest, -1) {
			add(introduced(m[1]), true)
		}
		for _, m := range reArrowQuoted.FindAllStringSubmatch(rest, -1) {
			if msg := m[1] + m[2]; len(strings.Fields(msg)) >= 3 {
				// A message, not a name renamed ("--dry" → "--dry-run").
				add(msg, true)
			}
		}
		for _, m := range reRunInMsg.FindAllStringSubmatch(rest, -1) {
			add(m[1], false)
		}
		if m := reToolPrefix.FindStringSubmatch(firstLine(rest)); i == 0 && m != nil && !reFirstPerson.MatchString(m[1]) && codeWords(m[1]) >= 2 {
			add(m[1], true)
		} else if m := reToolPrefixAfter.FindStringSubmatchIndex(firstLine(rest)); i == 0 && m != nil && reFailedVerb.MatchString(firstLine(rest)[:m[0]]) && !reNarration.MatchString(firstLine(rest)[m[4]:m[5]]) {
			l := firstLine(rest)
			m := []string{l[m[0]:m[1]], l[m[2]:m[3]], l[m[4]:m[5]]}
			add(m[1]+": "+m[2], true)
		}
		for _, l := range strings.Split(rest, "\n") {
			// A line pasted as the tool printed it: shaped like output,
			// or failure words without the writer's narration.
			if reIntroducedMsg.MatchString(l) && !reOutputLine.MatchString(l) {
				// The writer introduced the output ("the error was: X"):
				// X was found, the words before it are the writer's.
				continue
			}
			if reOutputLine.MatchString(l) || pastedLine(l, i == 0) {
				add(l, false)
			} else if loc := reMidMarker.FindStringIndex(l); loc != nil && loc[0] > 0 {
				add(l[loc[0]:], false)
			}
		}
	}
	return strings.Join(out, "\n")
}

// introduced is the output the writer introduced ("the message was
// X"): a quoted message without the narration after its closing quote,
// or the rest of the line. The closing quote is one that ends a word
// and is followed by a space, punctuation or the end, so a name quoted
// inside the message (unresolved import `rand`) stays in it.
func introduced(s string) string {
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"`", "`"}} {
		rest, ok := strings.CutPrefix(s, q[0])
		if !ok {
			continue
		}
		for i := strings.Index(rest, q[1]); i > 0; {
			after := rest[i+len(q[1]):]
			// Quotes inside the message pair up: an odd count before this
			// one makes it the close of an inner name.
			inner := strings.Count(rest[:i], q[0])
			if q[0] != q[1] {
				inner -= strings.Count(rest[:i], q[1])
			}
			if inner%2 == 0 && !unicode.IsSpace(rune(rest[i-1])) && (after == "" || strings.ContainsAny(after[:1], " \t.,;:!?)")) {
				return rest[:i]
			}
			j := strings.Index(after, q[1])
			if j < 0 {
				break
			}
			i += len(q[1]) + j
		}
	}
	return s
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// reJoiner is what a writer puts between two errors quoted in one line
// ("X, then the retry failed with Y"): narration, or the words that
// introduce output.
var reJoiner = regexp.MustCompile(`(?i)\b(then|and|after|followed by|failed|fails|with|next|retry|instead|which)\b`)

// joinedErrors splits the lines that quote two errors joined by the
// writer's words (TypeError [...]: Unknown file extension ".ts" for
// migrate.ts, then the retry failed with SyntaxError: ...) into the two
// errors, without the words between: a tool prints each on its own, and
// a failure met later prints one of them.
func joinedErrors(lines []string) []string {
	var out []string
	for _, l := range lines {
		loc := reMidMarker.FindStringIndex(l)
		if loc == nil || loc[0] == 0 || !reOutputLine.MatchString(l) {
			out = append(out, l)
			continue
		}
		head := l[:loc[0]]
		cut := strings.LastIndexAny(head, ",;")
		if cut <= 0 || !reJoiner.MatchString(head[cut:]) {
			out = append(out, l)
			continue
		}
		out = append(out, strings.TrimSpace(head[:cut]), strings.TrimSpace(l[loc[0]:]))
	}
	return out
}

// NoteSymbols returns the code spans of a note's texts that are not
// error output: the commands, files and names it talks about.
func NoteSymbols(texts ...string) []string {
	var out []string
	for _, t := range texts {
		for _, m := range reCodeSpan.FindAllStringSubmatch(reFence.ReplaceAllString(t, " "), -1) {
			s := strings.TrimSpace(m[1])
			if strings.ContainsAny(s, " \t") || keyLine.MatchString(s) {
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

// canonOS names an operating system one way, so the same system written
// by an adapter (darwin), a person (macOS) or a CI image (ubuntu) compares
// equal.
func canonOS(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case s == "":
		return ""
	case strings.HasPrefix(s, "win") || s == "powershell" || strings.HasPrefix(s, "msys") || strings.HasPrefix(s, "mingw") || strings.HasPrefix(s, "cygwin"):
		return "windows"
	case strings.HasPrefix(s, "mac") || s == "osx" || s == "darwin" || s == "homebrew" || s == "os x":
		return "darwin"
	case strings.HasPrefix(s, "wsl"), s == "linux", s == "ubuntu", s == "debian", s == "alpine", s == "fedora",
		s == "centos", s == "rhel", s == "arch linux", s == "gnu/linux":
		return "linux"
	}
	return s
}

// NotePlatform returns the operating system a note's texts tie it to
// ("windows", "darwin", "linux"): the one they name more often than all
// others together, or "" when they name none or no system dominates.
// WSL counts as Linux: what runs there is Linux.
func NotePlatform(texts ...string) string {
	counts := map[string]int{}
	total := 0
	for _, t := range texts {
		// What the note quotes is the tool's (an image's alpine, a
		// linux/arm64 platform); the prose says which system it is about.
		t = reFence.ReplaceAllString(t, " ")
		t = reCodeSpan.ReplaceAllString(t, " ")
		t = reQuotedMsg.ReplaceAllString(t, " ")
		t = reImageTag.ReplaceAllString(t, " ")
		for _, m := range rePlatform.FindAllString(rePlatformString.ReplaceAllString(t, " "), -1) {
			m = strings.ToLower(m)
			os := canonOS(strings.ReplaceAll(m, " ", ""))
			if strings.HasPrefix(m, "mac") || m == "apple silicon" {
				os = "darwin"
			}
			counts[os]++
			total++
		}
	}
	for os, n := range counts {
		if 2*n > total {
			return os
		}
	}
	return ""
}

// pastedLine reports whether a line of prose is output pasted as the
// tool printed it: failure words, at least three words, no quoting of
// its own, none of a writer's narration, and no sentence's full stop
// unless it is the one sentence of the note's what.
func pastedLine(l string, what bool) bool {
	l = strings.TrimSpace(l)
	// A name in quotes is part of the message (could not find
	// compatible versions for pod "Firebase/Core"); a quoted phrase is
	// the writer's quoting, found as such.
	bare := reQuotedName.ReplaceAllString(l, "x")
	if !(keyLine.MatchString(l) || reFailurePhrase.MatchString(l)) || strings.ContainsAny(bare, "`\"“") || len(strings.Fields(l)) < 3 || reSummingUp.MatchString(l) {
		return false
	}
	// Tools end messages with a full stop too, and a note's what is
	// often the message alone; elsewhere (why, learned) a sentence is the
	// writer's.
	sentence := !strings.Contains(strings.TrimSuffix(l, "."), ". ")
	if what && sentence {
		return !reFirstPerson.MatchString(l)
	}
	return !reNarration.MatchString(l) && !strings.HasSuffix(l, ".")
}

// codeTerms returns the terms of the words of prose written as code
// (camelCase, snake_case, digits, dots, @scopes, slashes): the names a
// note's what and where give the object. A plain word (start, locally)
// names none, and neither does a file name (package.json, go.mod): it
// says where, and every project has one.
func codeTerms(prose string) []string {
	var out []string
	for _, f := range strings.Fields(prose) {
		f = strings.Trim(f, "`'\"()[]{},;:!?")
		f = strings.TrimSuffix(f, ".")
		if len(f) < 3 || !codeLike(f) || fileName(f) {
			continue
		}
		out = append(out, Tokenize(f)...)
	}
	return out
}

// titleCodeTerms is codeTerms of a title without the words whose only
// mark of code is a hyphen.
func titleCodeTerms(title string) []string {
	var words []string
	for _, f := range strings.Fields(title) {
		if codeLike(strings.ReplaceAll(f, "-", "")) {
			words = append(words, f)
		}
	}
	return codeTerms(strings.Join(words, " "))
}

// codeWords counts the words of prose written as code, file names and
// versions among them.
func codeWords(prose string) int {
	n := 0
	for _, f := range strings.Fields(prose) {
		if f = strings.Trim(f, "`'\"()[]{},;:!?."); len(f) >= 3 && codeLike(f) {
			n++
		}
	}
	return n
}

// codeLike reports whether a word is written as code rather than prose:
// digits, _, @, / or . in it, camelCase, or a lower-case hyphenated name
// (cross-env; ESM-only and long-running are prose).
func codeLike(w string) bool {
	lower := strings.ToLower(w) == w
	var prev rune
	for i, r := range w {
		switch {
		case r >= '0' && r <= '9', r == '_', r == '@', r == '/', r == '.', r == '-' && i > 0 && lower:
			return true
		case r >= 'A' && r <= 'Z' && prev >= 'a' && prev <= 'z':
			return true
		}
		prev = r
	}
	return false
}

// fileName reports whether a word is a file's name: a name with an
// extension of letters only.
func fileName(w string) bool {
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || i == len(w)-1 || strings.ContainsAny(w[:i], "/@") {
		return false
	}
	for _, r := range w[i+1:] {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return len(w)-i-1 <= 6
}

// reTitleContext finds the parts of a title that say when, where, how
// it was fixed or what else held, rather than what failed: a clause
// after "after", "since", "when", "via", "use", "set", "instead of",
// "not the", up to the next punctuation, and a parenthesis. "nix gone
// after the macOS update" is about nix, "docker stop: permission
// denied (AppArmor, Ubuntu 22.04)" about docker stop.
var reTitleContext = regexp.MustCompile(`(?i)(?:\b(?:after|since|when|while|during|once|on|via|using|use|set|instead of|not the|moved to|switch(?:ed)? to)\s+([^,:;()\[\]—–]+))|\(([^)]*)\)`)

// titleContext returns the terms of a title's context parts (see
// reTitleContext).
func titleContext(title string) map[string]bool {
	out := map[string]bool{}
	for _, m := range reTitleContext.FindAllStringSubmatch(title, -1) {
		for _, t := range Tokenize(m[1] + " " + m[2]) {
			out[t] = true
		}
	}
	return out
}
