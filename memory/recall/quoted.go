package recall

import (
	"regexp"
	"slices"
	"strings"
)

// Quoted names: what a one-off record is about.
//
// Tools print the name a failure is about in quotes after a fixed frame:
// No module named 'yaml', Library stubs not installed for "requests",
// relation "accounts" does not exist. A shape (shape.go) finds those
// slots once several records print the same output; a record alone in
// its shape, as most hand-written notes are, has only its own quotes to
// say what it is about. A query that prints the record's frame with
// another name in the quotes, and the record's name nowhere, is the
// same message about another thing: another root cause.

// reQuotedName is a quoted name without spaces: what a frame names.
var reQuotedName = regexp.MustCompile("'([^'\\s]{1,80})'|\"([^\"\\s]{1,80})\"|`([^`\\s]{1,80})`|‘([^’\\s]{1,80})’")

// reBareIdentifier is a name JavaScript's errors print without quotes
// where other tools quote it: ReferenceError: document is not defined,
// TypeError: fetch is not a function. The identifier is what the failure
// is about, as a quoted name is; the frame is the message around it.
var reBareIdentifier = regexp.MustCompile(`\b(referenceerror|typeerror): ([a-z_$][\w$.]{0,80}) (is not (?:defined|a function|a constructor))`)

// quoteFrameTerms is how many terms before a quote make its frame, and
// quoteFrameMin the fewest that say anything: one word (for, in) frames
// too many messages.
const (
	quoteFrameTerms = 3
	quoteFrameMin   = 2
)

// quotedName is one quoted name with the terms printed before it
// (frame) and the quoteFrameMin terms printed after it (after, "" when
// fewer follow). Tools print the kind of thing before its name and the
// failure after it (The Deployment "payments" is invalid, The Job
// "db-migrate" is invalid): the same failure about another thing of
// another kind shares only the frame after the name.
type quotedName struct{ frame, after, name string }

// quotedNames returns the quoted names of normalized output, each with
// its frame, in order. Placeholders (a masked path or number) name no
// object and are left out.
func quotedNames(norm string) []quotedName {
	var out []quotedName
	for _, line := range strings.Split(strings.ToLower(norm), "\n") {
		for _, m := range reQuotedName.FindAllStringSubmatchIndex(line, -1) {
			var name string
			for g := 2; g < len(m); g += 2 {
				if m[g] >= 0 {
					name = line[m[g]:m[g+1]]
				}
			}
			if strings.ContainsAny(name, "<>") || location(name) {
				continue
			}
			before := Tokenize(line[:m[0]])
			before = before[max(0, len(before)-quoteFrameTerms):]
			frame := before
			after := Tokenize(line[m[1]:])
			var afterFrame string
			if len(after) >= quoteFrameMin {
				afterFrame = "<q> " + strings.Join(after[:quoteFrameMin], " ")
			}
			if len(frame) < quoteFrameMin {
				// fixture 'db_session' not found: a word before, the rest
				// after.
				frame = append(append(slices.Clone(before), "<q>"), after[:min(len(after), quoteFrameMin)]...)
				if len(frame) < quoteFrameMin+1 {
					continue
				}
			}
			out = append(out, quotedName{frame: strings.Join(frame, " "), after: afterFrame, name: name})
		}
		for _, m := range reBareIdentifier.FindAllStringSubmatch(line, -1) {
			out = append(out, quotedName{frame: m[1] + " <q> " + m[3], name: m[2]})
		}
		for _, m := range reNormPort.FindAllStringSubmatch(line, -1) {
			// A port (normalized from host:port) names which service
			// failed or is in the way, as a quoted name names a thing.
			if n := (quotedName{frame: portFrame, name: m[1]}); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// portFrame is the frame of a port the output prints (port 5432,
// 0.0.0.0:5432 normalized).
const portFrame = "<port>"

// dependencyFrame is the frame of a dependency named by a path: a
// failure inside node_modules/nanoid/index.js is about nanoid as much as
// one that prints 'nanoid' after a fixed frame.
const dependencyFrame = "<dependency>"

// dependencyNames returns, as quoted names, the dependencies the paths
// of raw output lie in (see moduleDirs), each once. They are taken from
// the raw text: normalization keeps the name but not that a path named
// it.
func dependencyNames(raw string) []quotedName {
	var out []quotedName
	for _, m := range rePath.FindAllStringSubmatch(raw, -1) {
		name := strings.ToLower(dependencyOfPath(strings.ReplaceAll(m[2], `\`, "/")))
		if name != "" && !slices.Contains(out, quotedName{frame: dependencyFrame, name: name}) {
			out = append(out, quotedName{frame: dependencyFrame, name: name})
		}
	}
	return out
}

// ownQuotedNames keeps the quoted names the note itself is about: named
// in its title, or in its words beyond the one quote (the fix installs
// it, the cause explains it). A name only the output prints is
// incidental (the dependency a lint rule happened to name): the note is
// about the kind of failure, not the name.
func ownQuotedNames(names []quotedName, title, content string) []quotedName {
	title, content = strings.ToLower(title), strings.ToLower(content)
	var out []quotedName
	for _, n := range names {
		if strings.Contains(title, n.name) || strings.Count(content, n.name) >= 2 {
			out = append(out, n)
		}
	}
	return out
}

// location reports whether a quoted name says where (a path, a URL, a
// remote: 'github.com:acme/web.git') rather than what: the same failure
// happens in every checkout.
func location(name string) bool {
	return strings.ContainsAny(name, "/\\:") || strings.HasSuffix(name, ".git")
}

// otherQuotedName reports whether the query prints a frame of the
// record's (before the name, or after it) with another name in it, and
// names none of the record's quoted names anywhere in its output, and
// returns both names. A record that quotes several names (a resource
// and its namespace) is still about the one the query shares.
func otherQuotedName(q []quotedName, qText string, rec []quotedName) (bool, string, string) {
	var qName, rName string
	for _, r := range rec {
		if quotes(q, r.name) || !listed(qText, r.name) && strings.Contains(qText, r.name) {
			return false, "", ""
		}
		for _, x := range q {
			if qName == "" && (x.frame == r.frame || x.after != "" && x.after == r.after) && x.name != r.name {
				qName, rName = x.name, r.name
			}
		}
	}
	return qName != "", qName, rName
}

// quotes reports whether the query quotes name.
func quotes(q []quotedName, name string) bool {
	return slices.ContainsFunc(q, func(x quotedName) bool { return x.name == name })
}

// listed reports whether name appears in qText only in lists (comma
// separated words: available fixtures: cache, db_session, ...), where a
// tool prints what exists, not what failed.
func listed(qText, name string) bool {
	found := false
	for rest := qText; rest != ""; {
		l, after, _ := strings.Cut(rest, "\n")
		rest = after
		if !strings.Contains(l, name) {
			continue
		}
		if strings.Count(l, ",") < 3 {
			return false
		}
		found = true
	}
	return found
}

// namesWord reports whether text holds name as a word of its own, not
// inside a longer one: a note that says what else its fix covers names
// it.
func namesWord(text, name string) bool {
	text = strings.ToLower(text)
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		// A sentence's full stop ends a word.
		after := end == len(text) || !wordByte(text[end]) || text[end] == '.' && (end+1 == len(text) || text[end+1] == ' ' || text[end+1] == '\n')
		if (start == 0 || !wordByte(text[start-1])) && after {
			return true
		}
		i = start + 1
	}
}

// wordByte says whether b continues a name: a file's extension
// (.pre-commit-config.yaml) or a path's part is not the name alone.
func wordByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b == '/' || b == '\\' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}
