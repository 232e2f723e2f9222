package claims

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
)

// Validate checks a parsed claims.json (the generic values canonical.Parse
// returns) against the protocol's schema and dependency rules, and returns
// every issue found, or nil when the claims are valid.
func Validate(v any) []Issue {
	_, issues := Check(v)
	return issues
}

// Check validates a parsed claims.json as Validate does and, when it is
// valid, returns its claims in file order.
//
// The rules: an array of 1 to MaxClaims claims, each an object with exactly
// the members local_id, type, core, statement, evidence, depends_on,
// confidence and optionally falsified_if; an empirical claim has evidence;
// each evidence item is exactly one of the three closed shapes; local IDs are
// unique, every local dependency names a claim in the file, and the
// dependencies have no cycle. The graph rules are checked only once every
// claim has a valid shape, as the reference checks them.
func Check(v any) ([]Claim, []Issue) {
	var c checker
	list, ok := v.([]any)
	if !ok {
		c.add("", "claims.json must be a JSON array of claims, not %s", canonical.Describe(v))
		return nil, c.issues
	}
	switch {
	case len(list) == 0:
		c.add("", "claims.json must hold at least one claim")
	case len(list) > MaxClaims:
		// Reading each claim of an oversized file would make an answer
		// that grows with it (issue 12): the count is the one issue.
		c.add("", "claims.json holds %d claims; at most %d are allowed", len(list), MaxClaims)
		return nil, c.issues
	}
	claims := make([]Claim, len(list))
	for i, item := range list {
		c.claim(i, item, &claims[i])
	}
	if len(c.issues) == 0 {
		c.graph(claims)
	}
	if len(c.issues) > 0 {
		return nil, c.issues
	}
	return claims, nil
}

// checker collects issues as the claims are read.
type checker struct {
	issues []Issue
}

func (c *checker) add(path, format string, args ...any) {
	c.issues = append(c.issues, Issue{Path: path, Message: fmt.Sprintf(format, args...)})
}

var claimMembers = []string{"local_id", "type", "core", "statement", "evidence", "depends_on", "falsified_if", "confidence"}

func (c *checker) claim(i int, v any, out *Claim) {
	obj, ok := v.(map[string]any)
	if !ok {
		c.add(Pointer(i), "a claim must be a JSON object, not %s", canonical.Describe(v))
		return
	}
	c.unknownMembers(Pointer(i), obj, claimMembers, "a claim")

	if s, ok := c.str(obj, i, "local_id"); ok {
		if !isLocalID(s) {
			c.add(Pointer(i, "local_id"), "local_id %q must start with a letter and hold only ASCII letters, digits, \"_\" and \"-\"", s)
		}
		out.LocalID = s
	}
	if s, ok := c.str(obj, i, "type"); ok {
		if !slices.Contains(Types, s) {
			c.add(Pointer(i, "type"), "type %q is not one of %s", s, strings.Join(Types, ", "))
		}
		out.Type = s
	}
	if v, present := obj["core"]; !present {
		c.add(Pointer(i, "core"), "core is required: true if the claim is central to the work")
	} else if b, ok := v.(bool); !ok {
		c.add(Pointer(i, "core"), "core must be true or false, not %s", canonical.Describe(v))
	} else {
		out.Core = b
	}
	if s, ok := c.str(obj, i, "statement"); ok {
		if s == "" {
			c.add(Pointer(i, "statement"), "statement must not be empty")
		}
		out.Statement = s
	}
	if v, present := obj["evidence"]; !present {
		c.add(Pointer(i, "evidence"), "evidence is required (an empty array when the claim has none)")
	} else if items, ok := v.([]any); !ok {
		c.add(Pointer(i, "evidence"), "evidence must be an array of evidence items, not %s", canonical.Describe(v))
	} else {
		out.Evidence = make([]Evidence, len(items))
		for j, item := range items {
			c.evidence(i, j, item, &out.Evidence[j])
		}
		if len(items) == 0 && obj["type"] == Empirical {
			c.add(Pointer(i, "evidence"), "an empirical claim needs at least one evidence item, or it can never be reproduced")
		}
	}
	if v, present := obj["depends_on"]; !present {
		c.add(Pointer(i, "depends_on"), "depends_on is required (an empty array when the claim depends on none)")
	} else if deps, ok := v.([]any); !ok {
		c.add(Pointer(i, "depends_on"), "depends_on must be an array of claim IDs, not %s", canonical.Describe(v))
	} else {
		out.DependsOn = make([]string, len(deps))
		for k, d := range deps {
			s, ok := d.(string)
			switch {
			case !ok:
				c.add(Pointer(i, "depends_on", k), "a dependency must be a string, not %s", canonical.Describe(d))
			case !IsClaimID(s) && !isLocalID(s):
				c.add(Pointer(i, "depends_on", k), "%q is neither a global claim ID (claim: and 64 lowercase hex digits) nor a local ID", s)
			}
			out.DependsOn[k] = s
		}
	}
	if v, present := obj["falsified_if"]; present {
		s, ok := v.(string)
		switch {
		case !ok:
			c.add(Pointer(i, "falsified_if"), "falsified_if must be a string, not %s", canonical.Describe(v))
		case s == "":
			c.add(Pointer(i, "falsified_if"), "falsified_if must not be empty; leave it out instead")
		}
		out.FalsifiedIf = s
	}
	if v, present := obj["confidence"]; !present {
		c.add(Pointer(i, "confidence"), "confidence is required: a number from 0 to 1")
	} else if f, ok := v.(float64); !ok {
		c.add(Pointer(i, "confidence"), "confidence must be a number from 0 to 1, not %s", canonical.Describe(v))
	} else {
		if !(f >= 0 && f <= 1) {
			c.add(Pointer(i, "confidence"), "confidence must be from 0 to 1, not %v", f)
		}
		out.Confidence = f
	}
}

// str reads a required string member of claim i.
func (c *checker) str(obj map[string]any, i int, name string) (string, bool) {
	v, present := obj[name]
	if !present {
		c.add(Pointer(i, name), "%s is required", name)
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.add(Pointer(i, name), "%s must be a string, not %s", name, canonical.Describe(v))
	}
	return s, ok
}

// unknownMembers reports members outside allowed at the object's own path,
// in sorted order so the issues read the same every time.
func (c *checker) unknownMembers(path string, obj map[string]any, allowed []string, what string) {
	if len(obj) <= len(allowed) {
		known := 0
		for _, name := range allowed {
			if _, ok := obj[name]; ok {
				known++
			}
		}
		if known == len(obj) {
			return
		}
	}
	var unknown []string
	for name := range obj {
		if !slices.Contains(allowed, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		c.add(path, "%s has no member %q: every field is part of the claim's ID, so only %s are allowed", what, name, strings.Join(allowed, ", "))
	}
}

// The members each evidence shape allows. An item's kind is told by the
// member only that kind has.
var (
	computationMembers = []string{"result", "produced_by", "tolerance"}
	measurementMembers = []string{"result", "measured", "tolerance"}
	proofMembers       = []string{"proof", "theorem", "checker"}
)

const evidenceShapes = `an evidence item is a computation {"result", "produced_by", "tolerance"}, a measurement {"result", "measured", "tolerance"} or a proof {"proof", "theorem", "checker"}`

func (c *checker) evidence(i, j int, v any, out *Evidence) {
	at := Pointer(i, "evidence", j)
	obj, ok := v.(map[string]any)
	if !ok {
		c.add(at, "%s, not %s", evidenceShapes, canonical.Describe(v))
		return
	}
	var kinds []string
	if _, ok := obj["produced_by"]; ok {
		kinds = append(kinds, "a computation (produced_by)")
	}
	if _, ok := obj["measured"]; ok {
		kinds = append(kinds, "a measurement (measured)")
	}
	for _, name := range proofMembers {
		if _, ok := obj[name]; ok {
			kinds = append(kinds, "a proof ("+name+")")
			break
		}
	}
	switch len(kinds) {
	case 0:
		if _, ok := obj["result"]; ok {
			c.add(at, "a result needs produced_by (a computation under code/) or measured (a measurement under data/)")
		} else {
			c.add(at, "%s", evidenceShapes)
		}
		return
	case 1:
	default:
		c.add(at, "an evidence item is one kind only, but this one is %s", strings.Join(kinds, " and "))
		return
	}

	if _, ok := obj["produced_by"]; ok {
		c.unknownMembers(at, obj, computationMembers, "a computation")
		out.ProducedBy = c.pathUnder(obj, at, "produced_by", "code")
		c.measuredResult(obj, at, out)
		return
	}
	if _, ok := obj["measured"]; ok {
		c.unknownMembers(at, obj, measurementMembers, "a measurement")
		out.Measured = c.pathUnder(obj, at, "measured", "data")
		c.measuredResult(obj, at, out)
		return
	}
	c.unknownMembers(at, obj, proofMembers, "a proof")
	out.Proof = c.pathUnder(obj, at, "proof", "proofs")
	if s, ok := c.itemString(obj, at, "theorem"); ok {
		if n := utf8.RuneCountInString(s); n < 1 || n > MaxTheorem {
			c.add(at+"/theorem", "theorem must be 1 to %d characters, not %d", MaxTheorem, n)
		}
		out.Theorem = s
	}
	if s, ok := c.itemString(obj, at, "checker"); ok {
		if !slices.Contains(Checkers, s) {
			c.add(at+"/checker", "checker %q is not one of %s", s, strings.Join(Checkers, ", "))
		}
		out.Checker = s
	}
}

// measuredResult reads the result and tolerance a computation or a
// measurement shares.
func (c *checker) measuredResult(obj map[string]any, at string, out *Evidence) {
	if s, ok := c.itemString(obj, at, "result"); ok {
		if !IsResultName(s) {
			c.add(at+"/result", "result %q must name a file under results/ and a key in it, such as R3.loss_delta", s)
		}
		out.Result = s
	}
	if v, present := obj["tolerance"]; present {
		f, ok := v.(float64)
		switch {
		case !ok:
			c.add(at+"/tolerance", "tolerance must be a number, not %s", canonical.Describe(v))
		case !(f >= 0):
			c.add(at+"/tolerance", "tolerance must not be negative")
		default:
			out.Tolerance = &f
		}
	}
}

// pathUnder reads a member holding a bundle path under dir/.
func (c *checker) pathUnder(obj map[string]any, at, name, dir string) string {
	s, ok := c.itemString(obj, at, name)
	if ok && (len(s) <= len(dir)+1 || !strings.HasPrefix(s, dir+"/")) {
		c.add(at+"/"+name, "%s %q must be a path under %s/", name, s, dir)
	}
	return s
}

func (c *checker) itemString(obj map[string]any, at, name string) (string, bool) {
	v, present := obj[name]
	if !present {
		c.add(at+"/"+name, "%s is required", name)
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		c.add(at+"/"+name, "%s must be a string, not %s", name, canonical.Describe(v))
	}
	return s, ok
}

// graph checks what needs the claims together: unique local IDs, local
// dependencies that exist, and no cycle.
func (c *checker) graph(claims []Claim) {
	index := make(map[string]int, len(claims))
	for i, cl := range claims {
		if first, dup := index[cl.LocalID]; dup {
			c.add(Pointer(i, "local_id"), "duplicate local_id %q: claim %d has it too", cl.LocalID, first)
			continue
		}
		index[cl.LocalID] = i
	}
	for i, cl := range claims {
		for k, d := range cl.DependsOn {
			if IsClaimID(d) {
				continue
			}
			if _, ok := index[d]; !ok {
				c.add(Pointer(i, "depends_on", k), "%q depends on unknown local claim %q", cl.LocalID, d)
			}
		}
	}
	if len(c.issues) > 0 {
		return
	}
	if _, err := order(claims); err != nil {
		if ce, ok := err.(*cycleError); ok {
			c.add(Pointer(ce.index, "depends_on"), "%s", ce.Error())
			return
		}
		c.add("", "%s", err.Error())
	}
}

// IsClaimID reports whether s is a global claim ID: "claim:" and 64
// lowercase hex digits.
func IsClaimID(s string) bool {
	const prefix = "claim:"
	if len(s) != len(prefix)+64 || s[:len(prefix)] != prefix {
		return false
	}
	return isLowerHex(s[len(prefix):])
}

// IsDigest reports whether s is a digest: "sha256:" and 64 lowercase hex
// digits.
func IsDigest(s string) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || s[:len(prefix)] != prefix {
		return false
	}
	return isLowerHex(s[len(prefix):])
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isLocalID matches ^[A-Za-z][A-Za-z0-9_-]*$ with $ at the very end (no
// trailing newline), as ECMAScript reads that pattern.
func isLocalID(s string) bool {
	if s == "" || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool {
	upper := c &^ 0x20 // clearing bit 5 maps a-z onto A-Z
	return 'A' <= upper && upper <= 'Z'
}

// IsResultName reports whether s names a declared result: it matches
// ^[^./]+(\.[^.]+)+$, a file stem without "/" and then one or more
// non-empty dot-separated keys.
func IsResultName(s string) bool {
	stem, keys, ok := strings.Cut(s, ".")
	if !ok || stem == "" || strings.Contains(stem, "/") {
		return false
	}
	for {
		key, rest, more := strings.Cut(keys, ".")
		if key == "" {
			return false
		}
		if !more {
			return true
		}
		keys = rest
	}
}
