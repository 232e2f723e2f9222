package bundle

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Verifiers and reviewers judge a bundle without knowing whose it is, so
// only manifest.json and signature may say who wrote it ("Writing the
// paper"): the node turns away a bundle whose other files name its author's
// operators, key digests, domains (with their subdomains and e-mail
// addresses) or GitHub accounts. The protocol's reference library does not
// publish this check, so the matching rules below are the node's own,
// chosen to find what a person or a script would write and to leave
// unrelated text alone:
//
//   - Everything is matched without regard to ASCII letter case: hex digits,
//     domains and GitHub logins are all case-insensitive.
//   - An operator ID matches as its hex alone, wherever it stands between
//     characters that are not hex digits (so it is found written as
//     "op:<hex>" too), and as "op:" with a start of 8 or more of its hex
//     digits, as a page that shortens it writes it.
//   - A key digest matches as its hex alone, as above, so "sha256:<hex>" is
//     found too. An operator ID or key digest given with fewer than 16 hex
//     digits, or not in hex, is matched as a word, as below.
//   - A domain matches where it is not part of a longer name: not after a
//     letter, digit, "_" or "-" (so "example.org" is not found in
//     "notexample.org", and is found in "www.example.org" and
//     "someone@example.org"), and not before one or before a "." and one
//     (so not in "example.org.uk" or "example.organic", yet found at the
//     end of a sentence). Without a list of top-level domains a file named
//     "example.org.csv" reads as the longer name, and is not found.
//   - A GitHub login matches as github.com/<login> (also with ":" as in an
//     SSH remote, and under githubusercontent.com), as <login>.github.io, and
//     as an @-mention, @<login> not inside an e-mail address. A bare word is
//     never taken for a login: logins are often common words.
//   - Anything else given is matched as a word: not inside a longer run of
//     letters, digits and "_".
//
// Files are scanned as bytes, so text is found in any file that holds it as
// ASCII, whether or not the file is UTF-8; text in UTF-16 or compressed is
// not found. Each file's path is scanned too.

// Identifiers are the strings that name a bundle's author: those of every
// operator of its organization, and every identity it proved.
type Identifiers struct {
	Operators    []string // operator IDs: "op:" and hex
	KeyDigests   []string // digests of operator keys: "sha256:" and hex
	Domains      []string // domains proven over DNS, such as "example.org"
	GitHubLogins []string // GitHub accounts, by login, such as "octocat"
}

// An AnonymityIssue names a file that names its bundle's author, and says
// which kind of identifier it holds and where, never the identifier itself.
type AnonymityIssue struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// The files that may say who wrote a bundle.
var mayName = []string{"manifest.json", SignatureFile}

// CheckAnonymity scans a bundle's files, path → bytes, for the author's
// identifiers, and returns an issue for each file and each kind of
// identifier it holds (one for a file's path, one for its bytes), sorted by
// file, or nil when no file but manifest.json and signature names the
// author. The matching rules are described at the top of this file.
//
// It reads each file once, whatever the number of identifiers: a full
// 10 MB bundle takes about ten milliseconds (BenchmarkAnonymity).
func CheckAnonymity(files map[string][]byte, ids Identifiers) []AnonymityIssue {
	sc := newScanner(ids)
	if sc == nil {
		return nil
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		if !slices.Contains(mayName, p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var issues []AnonymityIssue
	for _, p := range paths {
		for _, f := range sc.find([]byte(p)) {
			issues = append(issues, AnonymityIssue{File: p, Message: fmt.Sprintf(
				"its path names who wrote the bundle: it holds %s. %s", f.what(), keepAnonymous)})
		}
		data := files[p]
		for _, f := range sc.find(data) {
			issues = append(issues, AnonymityIssue{File: p, Message: fmt.Sprintf(
				"names who wrote the bundle: it holds %s, %s%s. %s", f.what(), where(data, f.first), times(f.count), keepAnonymous)})
		}
	}
	return issues
}

const keepAnonymous = "Verifiers judge the work without knowing whose it is, so only manifest.json and signature may say who you are: take it out, and cite your own earlier work by claim ID or DOI"

// where says where in a file a match starts: its line in text, its byte
// offset in anything else.
func where(data []byte, at int) string {
	if utf8.Valid(data) {
		return fmt.Sprintf("first at line %d", bytes.Count(data[:at], []byte{'\n'})+1)
	}
	return fmt.Sprintf("first at byte %d", at)
}

func times(n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf(" (%d times in all)", n)
}

// The kinds of identifier, in the order a file's issues are reported.
type idKind uint8

const (
	operatorID idKind = iota
	keyDigest
	domain
	githubLogin
)

// A form says how an identifier is written where a needle matches, and so
// which characters may stand around it.
type form uint8

const (
	hexForm      form = iota // bare hex: no hex digit on either side
	opPrefixForm             // "op:" and a start of the hex
	domainForm               // a domain, alone or after a subdomain or "@"
	githubPath               // github.com/<login>, github.com:<login>, githubusercontent.com/<login>
	githubPages              // <login>.github.io
	mentionForm              // @<login>
	wordForm                 // anything else given: not inside a longer word
)

// A needle is one string the scanner looks for, lowercased.
type needle struct {
	text []byte
	kind idKind
	form form
	rest []byte // opPrefixForm: the hex digits the ID goes on with
}

// A finding is what the scan found of one kind in one file.
type finding struct {
	kind  idKind
	form  form // of the first match
	first int  // byte offset of the first match
	count int
}

// add counts a match at start, keeping the one that starts first (by
// form, when two start together).
func (f *finding) add(n *needle, start int) {
	if f.count == 0 || start < f.first || start == f.first && n.form < f.form {
		f.kind, f.form, f.first = n.kind, n.form, start
	}
	f.count++
}

func (f finding) what() string {
	switch f.kind {
	case operatorID:
		return "the ID of an operator of your organization"
	case keyDigest:
		return "the digest of an operator key of your organization"
	case domain:
		return "a domain of your organization (the domain, a subdomain of it, or an e-mail address at either)"
	}
	switch f.form {
	case githubPages:
		return "a GitHub account of your organization, as <account>.github.io"
	case mentionForm:
		return "a GitHub account of your organization, as @<account>"
	}
	return "a GitHub account of your organization, as a github.com/<account> link"
}

// minOpPrefix is the fewest hex digits after "op:" that count as an
// operator ID written short.
const minOpPrefix = 8

// A scanner finds many needles in one pass over the bytes, with an
// Aho–Corasick automaton compiled into a table-driven DFA over the few
// classes of byte the needles use, letter case folded.
type scanner struct {
	needles []needle
	class   [256]uint16 // byte → its class; 0 for bytes no needle holds
	classes int32
	// next maps state + class to the next state, each state premultiplied
	// by classes so a step is one add and one load. A negative entry is a
	// state where some needle ends; its negation is the state.
	next []int32
	// ends lists the needles that end at each state, by state / classes.
	ends [][]int32
	// longest is the length of the longest needle.
	longest int
}

// newScanner compiles the needles for ids, or returns nil when there are
// none.
func newScanner(ids Identifiers) *scanner {
	var needles []needle
	add := func(text string, kind idKind, f form, rest string) {
		n := needle{text: []byte(text), kind: kind, form: f, rest: []byte(rest)}
		for _, m := range needles {
			if bytes.Equal(m.text, n.text) && m.kind == n.kind && m.form == n.form {
				return
			}
		}
		needles = append(needles, n)
	}
	hexOf := func(kind idKind, s, prefix string) {
		s = strings.ToLower(strings.TrimSpace(s))
		hex := strings.TrimPrefix(s, prefix)
		switch {
		case hex == "":
			// Blank, or the prefix alone: it names nobody.
		case len(hex) >= 16 && isHex(hex):
			add(hex, kind, hexForm, "")
			if kind == operatorID {
				add(prefix+hex[:minOpPrefix], kind, opPrefixForm, hex[minOpPrefix:])
			}
		case s != "":
			add(s, kind, wordForm, "")
		}
	}
	for _, s := range ids.Operators {
		hexOf(operatorID, s, "op:")
	}
	for _, s := range ids.KeyDigests {
		hexOf(keyDigest, s, "sha256:")
	}
	for _, s := range ids.Domains {
		if d := strings.Trim(strings.ToLower(strings.TrimSpace(s)), "."); d != "" {
			add(d, domain, domainForm, "")
		}
	}
	for _, s := range ids.GitHubLogins {
		login := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "@")
		if login == "" {
			continue
		}
		add("github.com/"+login, githubLogin, githubPath, "")
		add("github.com:"+login, githubLogin, githubPath, "")
		add("githubusercontent.com/"+login, githubLogin, githubPath, "")
		add(login+".github.io", githubLogin, githubPages, "")
		add("@"+login, githubLogin, mentionForm, "")
	}
	if len(needles) == 0 {
		return nil
	}
	return compile(needles)
}

// compile builds the automaton: a trie of the needles, its failure links
// found breadth first, and every missing transition filled in from them.
func compile(needles []needle) *scanner {
	sc := &scanner{needles: needles}
	for _, n := range needles {
		sc.longest = max(sc.longest, len(n.text))
		for _, b := range n.text {
			if sc.class[b] == 0 {
				sc.classes++
				sc.class[b] = uint16(sc.classes)
			}
		}
	}
	sc.classes++ // class 0, for every other byte
	for b := 'A'; b <= 'Z'; b++ {
		sc.class[b] = sc.class[b+'a'-'A']
	}
	nc := sc.classes

	// The trie: goTo[state*nc+class] is a child, or -1.
	goTo := slices.Repeat([]int32{-1}, int(nc))
	var ends [][]int32
	ends = append(ends, nil)
	for i, n := range needles {
		s := int32(0)
		for _, b := range n.text {
			at := s*nc + int32(sc.class[b])
			if goTo[at] < 0 {
				goTo[at] = int32(len(ends))
				goTo = append(goTo, slices.Repeat([]int32{-1}, int(nc))...)
				ends = append(ends, nil)
			}
			s = goTo[at]
		}
		ends[s] = append(ends[s], int32(i))
	}

	// Breadth first, so a state's failure link is complete before its
	// children need it. goTo becomes the full transition function.
	fail := make([]int32, len(ends))
	queue := make([]int32, 0, len(ends))
	for c := range nc {
		if child := goTo[c]; child > 0 {
			queue = append(queue, child)
		} else {
			goTo[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		ends[s] = append(ends[s], ends[fail[s]]...)
		for c := range nc {
			at := s*nc + c
			if child := goTo[at]; child >= 0 {
				fail[child] = goTo[fail[s]*nc+c]
				queue = append(queue, child)
			} else {
				goTo[at] = goTo[fail[s]*nc+c]
			}
		}
	}

	sc.next = make([]int32, len(goTo))
	for i, t := range goTo {
		sc.next[i] = t * nc
		if len(ends[t]) > 0 {
			sc.next[i] = -sc.next[i]
		}
	}
	sc.ends = ends
	return sc
}

// find scans data once and returns what it found, one finding per kind, in
// kind order.
func (sc *scanner) find(data []byte) []finding {
	return sc.findStriped(data, stripeAbove)
}

// stripeAbove is the size from which a file is scanned as four stripes at
// once. A step of the automaton waits on the one before it, a load from its
// table; four independent stripes keep four loads in flight, which makes a
// large file about three times as fast to scan.
const stripeAbove = 16 << 10

// findStriped is find, striping files of at least minStripe bytes.
func (sc *scanner) findStriped(data []byte, minStripe int) []finding {
	var found [githubLogin + 1]finding
	// A stripe starts this far before the part it owns, so it is in the
	// state a single scan would be in by then: a needle that ends in the
	// part starts no earlier.
	warmUp := sc.longest - 1
	chunk := len(data) / 4
	if len(data) < minStripe || chunk <= warmUp {
		sc.scan(data, 0, 0, len(data), 0, &found)
		return collect(found)
	}
	// Stripe k scans data[k*chunk-warmUp : (k+1)*chunk] and reports the
	// matches that end in its own part, after k*chunk; stripe 0 scans as
	// far, and past its part, so all four go in step.
	next, class, nc := sc.next, &sc.class, sc.classes
	span := chunk + warmUp
	d0 := data[:span]
	d1 := data[chunk-warmUp:][:len(d0)]
	d2 := data[2*chunk-warmUp:][:len(d0)]
	d3 := data[3*chunk-warmUp:][:len(d0)]
	var s [4]int32
	for i, b0 := range d0 {
		s[0] = next[s[0]+int32(class[b0])]
		s[1] = next[s[1]+int32(class[d1[i]])]
		s[2] = next[s[2]+int32(class[d2[i]])]
		s[3] = next[s[3]+int32(class[d3[i]])]
		if s[0]|s[1]|s[2]|s[3] >= 0 {
			continue
		}
		for k := range s {
			if s[k] >= 0 {
				continue
			}
			s[k] = -s[k]
			end := i + 1
			if k > 0 {
				end += k*chunk - warmUp
			}
			if end > k*chunk && end <= (k+1)*chunk {
				sc.report(data, s[k]/nc, end, &found)
			}
		}
	}
	// What is left after the fourth part, fewer than four bytes, the
	// fourth stripe scans on.
	sc.scan(data, 4*chunk, s[3], len(data), 0, &found)
	return collect(found)
}

// scan runs the automaton over data[from:to] from state s, reporting the
// matches that end after owned.
func (sc *scanner) scan(data []byte, from int, s int32, to, owned int, found *[githubLogin + 1]finding) {
	// Locals, so the loop keeps them in registers.
	next, class, nc := sc.next, &sc.class, sc.classes
	for i := from; i < to; i++ {
		s = next[s+int32(class[data[i]])]
		if s >= 0 {
			continue
		}
		s = -s
		if i+1 > owned {
			sc.report(data, s/nc, i+1, found)
		}
	}
}

// report checks the needles that end at a state, at end in data.
func (sc *scanner) report(data []byte, state int32, end int, found *[githubLogin + 1]finding) {
	for _, n := range sc.ends[state] {
		nd := &sc.needles[n]
		start := end - len(nd.text)
		if nd.standsAlone(data, start) {
			found[nd.kind].add(nd, start)
		}
	}
}

func collect(found [githubLogin + 1]finding) []finding {
	var out []finding
	for _, f := range found {
		if f.count > 0 {
			out = append(out, f)
		}
	}
	return out
}

// standsAlone reports whether the needle, found at data[start:], is written
// as the identifier rather than as part of something longer.
func (n *needle) standsAlone(data []byte, start int) bool {
	end := start + len(n.text)
	before, after := byteAt(data, start-1), byteAt(data, end)
	switch n.form {
	case hexForm:
		return !isHexDigit(before) && !isHexDigit(after)
	case opPrefixForm:
		if isWordByte(before) {
			return false
		}
		run := end
		for run < len(data) && isHexDigit(data[run]) {
			run++
		}
		// The whole ID is the hex needle's to count.
		return run-end < len(n.rest) && asciiEqualFold(data[end:run], n.rest[:run-end])
	case domainForm, githubPages:
		return !isLabelByte(before) && !continuesName(data, end)
	case githubPath:
		return !isLabelByte(before) && !isLabelByte(after)
	case mentionForm:
		return !isEmailLocalByte(before) && !continuesName(data, end)
	}
	return !isWordByte(before) && !isWordByte(after)
}

// continuesName reports whether a name ending at end goes on: with a label
// character, or with a dot and one, as "example.org.uk" goes on from
// "example.org".
func continuesName(data []byte, end int) bool {
	c := byteAt(data, end)
	return isLabelByte(c) || c == '.' && isLabelByte(byteAt(data, end+1))
}

// byteAt is data[i], or a space outside data.
func byteAt(data []byte, i int) byte {
	if i < 0 || i >= len(data) {
		return ' '
	}
	return data[i]
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z' || c == '_'
}

// isLabelByte: a character of a DNS label or a GitHub login. "_" is not
// one, but a name after one is part of a longer word.
func isLabelByte(c byte) bool { return isWordByte(c) || c == '-' }

// isEmailLocalByte: a character that may come before "@" in an e-mail
// address, so "@login" after one is an address, not a mention.
func isEmailLocalByte(c byte) bool {
	return isLabelByte(c) || c == '.' || c == '%' || c == '+'
}

func asciiEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
