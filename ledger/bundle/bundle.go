// Package bundle checks a sciencejournal bundle's layout and computes its
// digests, byte for byte as the protocol's reference library does (sections
// "Publishing, step by step", "Claim IDs" and "Large data" of the protocol's
// instructions, spec/ledger-protocol.md).
//
// A bundle is a set of files named by portable, relative, NFC paths: a few
// top-level files (manifest.json, paper.md, claims.json, signature, …) and
// anything under code/, env/, data/, results/, proofs/ and plan/. Its digests
// all hash a JSON object mapping each path to "sha256:" and the hex SHA-256 of
// the file's bytes, in canonical JSON (RFC 8785):
//
//   - the bundle hash, which the operator signs, covers every file but the
//     signature itself;
//   - the verification inputs, which every claim with evidence binds, cover
//     the files under code/, env/, data/ and proofs/.
//
// The layout rules keep every bundle writable to any file system a verifier
// or a mirror uses, case-insensitive ones included.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// SignatureFile is the top-level file holding the operator's signature over
// the bundle hash; the bundle hash leaves it out.
const SignatureFile = "signature"

// TopLevelFiles are the only files a bundle may hold outside a directory.
var TopLevelFiles = []string{
	"manifest.json", "paper.md", "claims.json", "references.json", "materials.json",
	"deviations.json", "embeddings.json", "provenance.json", SignatureFile,
}

// Directories are the only directories a bundle may hold files under.
var Directories = []string{"code", "env", "data", "results", "proofs", "plan"}

// InputDirectories are the directories whose files are verification inputs.
// Declared results are not: each claim binds only the result values its
// evidence names.
var InputDirectories = []string{"code", "env", "data", "proofs"}

// ErrLayout is wrapped by every error for a path the bundle rules refuse.
var ErrLayout = errors.New("bundle layout refused")

// A PathError names the path at fault and the rule it breaks. Other is the
// second path when the rule is about two (a case clash, or a file that is
// also a directory).
type PathError struct {
	Path  string
	Other string
	Rule  string
}

func (e *PathError) Error() string {
	if e.Other != "" {
		return fmt.Sprintf("bundle paths %q and %q: %s", e.Path, e.Other, e.Rule)
	}
	return fmt.Sprintf("bundle path %q: %s", e.Path, e.Rule)
}

func (e *PathError) Unwrap() error { return ErrLayout }

// CheckPaths checks a bundle's paths against the protocol's rules and returns
// a *PathError for the first one that breaks a rule:
//
//   - split on "/", no segment is empty, "." or ".." (so no leading or
//     trailing slash and no "//");
//   - no backslash, and no U+0000–U+001F or U+007F;
//   - the path is in Unicode NFC;
//   - a one-segment path is one of TopLevelFiles, and a longer one starts
//     with one of Directories;
//   - no two paths are equal once lowercased (Unicode default lowercasing,
//     as JavaScript's toLowerCase does it);
//   - no path is, lowercased, a directory of another (a file and a directory
//     of the same name).
func CheckPaths(paths []string) error {
	return checkPaths(paths, true)
}

// CheckEvidencePaths checks the paths of a verifier's evidence: the same
// rules as CheckPaths except the submission layout, since evidence may hold
// any files.
func CheckEvidencePaths(paths []string) error {
	return checkPaths(paths, false)
}

func checkPaths(paths []string, layout bool) error {
	lowered := make(map[string]string, len(paths)) // lowercased → path
	folds := make([]string, 0, len(paths))         // lowercased, in path order
	var lower *cases.Caser                         // made on first need: most bundles are ASCII
	for _, p := range paths {
		if err := checkPath(p, layout); err != nil {
			return err
		}
		folded, ascii := asciiLower(p)
		if !ascii {
			if lower == nil {
				c := cases.Lower(language.Und)
				lower = &c
			}
			folded = lower.String(p)
		}
		if first, clash := lowered[folded]; clash {
			if first == p {
				return &PathError{Path: p, Rule: "is listed twice"}
			}
			return &PathError{Path: first, Other: p, Rule: "differ only in letter case, which a case-insensitive file system cannot hold apart"}
		}
		lowered[folded] = p
		folds = append(folds, folded)
	}
	// A trie of segments finds a file that is also a directory in time
	// linear in the paths' length: looking each ancestor up as a string
	// would hash a deep path's prefixes again and again.
	var t dirTrie
	for _, folded := range folds {
		if err := t.insert(folded, lowered[folded]); err != nil {
			return err
		}
	}
	return nil
}

// dirTrie holds the lowercased paths seen so far, segment by segment. Node 0
// is the root; a node is named by its parent and its segment.
type dirTrie struct {
	nodes map[dirKey]int
	info  []dirInfo
}

type dirKey struct {
	parent  int
	segment string
}

type dirInfo struct {
	file     string // the path that ends at this node, if one does
	first    string // the first path at or below this node, for messages
	children bool
}

func (t *dirTrie) insert(folded, path string) error {
	if t.nodes == nil {
		t.nodes = make(map[dirKey]int)
		t.info = []dirInfo{{}}
	}
	node := 0
	for {
		seg, rest, more := strings.Cut(folded, "/")
		t.info[node].children = true
		child, ok := t.nodes[dirKey{node, seg}]
		if !ok {
			child = len(t.info)
			t.info = append(t.info, dirInfo{first: path})
			t.nodes[dirKey{node, seg}] = child
		}
		if !more {
			if t.info[child].children {
				return &PathError{Path: path, Other: t.info[child].first, Rule: fmt.Sprintf("%q is both a file and a directory", path)}
			}
			t.info[child].file = path
			return nil
		}
		if f := t.info[child].file; f != "" {
			return &PathError{Path: f, Other: path, Rule: fmt.Sprintf("%q is both a file and a directory", f)}
		}
		node, folded = child, rest
	}
}

func checkPath(p string, layout bool) error {
	if !utf8.ValidString(p) {
		return &PathError{Path: p, Rule: "is not valid UTF-8"}
	}
	segments := 0
	for seg := range strings.SplitSeq(p, "/") {
		segments++
		if seg == "" || seg == "." || seg == ".." {
			return &PathError{Path: p, Rule: `is not a normalized relative path: no segment may be empty, "." or ".."`}
		}
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c == '\\' || c < 0x20 || c == 0x7f {
			return &PathError{Path: p, Rule: "contains a backslash or a control character"}
		}
	}
	if !norm.NFC.IsNormalString(p) {
		// Escaped, since the two forms look alike when printed.
		return &PathError{Path: p, Rule: fmt.Sprintf("is not in Unicode NFC: %+q, whose NFC form is %+q", p, norm.NFC.String(p))}
	}
	if !layout {
		return nil
	}
	if segments == 1 {
		if !slices.Contains(TopLevelFiles, p) {
			return &PathError{Path: p, Rule: "is outside the submission layout: a top-level file must be one of " + strings.Join(TopLevelFiles, ", ")}
		}
	} else if dir, _, _ := strings.Cut(p, "/"); !slices.Contains(Directories, dir) {
		return &PathError{Path: p, Rule: "is outside the submission layout: files go under " + strings.Join(Directories, "/, ") + "/"}
	}
	return nil
}

// asciiLower lowercases an ASCII string; ascii is false, and the result
// unusable, when s holds anything else.
func asciiLower(s string) (lowered string, ascii bool) {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "", false
		}
		upper = upper || ('A' <= c && c <= 'Z')
	}
	if !upper {
		return s, true
	}
	return strings.ToLower(s), true
}

// Digests are what a bundle's files hash to.
type Digests struct {
	// Files maps every path to "sha256:" and the hex SHA-256 of its bytes.
	Files map[string]string `json:"files"`
	// Bundle is the canonical digest of Files without the signature: what
	// the operator signs.
	Bundle string `json:"bundle"`
	// VerificationInputs is the canonical digest of Files restricted to
	// code/, env/, data/ and proofs/ ({} when there are none): what every
	// claim with evidence binds.
	VerificationInputs string `json:"verification_inputs"`
}

// Digest checks a bundle's paths and hashes it. files maps each bundle path
// to the file's bytes.
func Digest(files map[string][]byte) (Digests, error) {
	return DigestWithUploads(files, nil)
}

// DigestWithUploads hashes a bundle some of whose files were uploaded ahead
// of it (see "Large data"): uploaded maps their paths to their digests. A
// bundle's hashes depend only on its files' digests, so an uploaded file
// counts exactly as if it had been sent. A path both sent and uploaded is
// refused.
func DigestWithUploads(files map[string][]byte, uploaded map[string]string) (Digests, error) {
	paths := make([]string, 0, len(files)+len(uploaded))
	for p := range files {
		paths = append(paths, p)
	}
	for p, d := range uploaded {
		if _, twice := files[p]; twice {
			return Digests{}, &PathError{Path: p, Rule: "is both sent and uploaded"}
		}
		if !isDigest(d) {
			return Digests{}, fmt.Errorf("uploaded %q: %q is not a digest (sha256: and 64 lowercase hex digits): %w", p, d, ErrLayout)
		}
		paths = append(paths, p)
	}
	// Sorted, so a bundle that breaks several rules is always told the same one.
	slices.Sort(paths)
	if err := CheckPaths(paths); err != nil {
		return Digests{}, err
	}
	digests := make(map[string]string, len(paths))
	for p, data := range files {
		digests[p] = fileDigest(data)
	}
	for p, d := range uploaded {
		digests[p] = d
	}
	return digestsOf(digests)
}

// fileDigest is "sha256:" and the hex SHA-256 of data.
func fileDigest(data []byte) string {
	sum := sha256.Sum256(data)
	var out [len("sha256:") + 2*sha256.Size]byte
	copy(out[:], "sha256:")
	hex.Encode(out[len("sha256:"):], sum[:])
	return string(out[:])
}

// digestsOf computes the bundle hash and verification inputs from checked
// per-file digests.
func digestsOf(files map[string]string) (Digests, error) {
	signed := make(map[string]string, len(files))
	inputs := make(map[string]string)
	for p, d := range files {
		if p != SignatureFile {
			signed[p] = d
		}
		if dir, _, _ := strings.Cut(p, "/"); slices.Contains(InputDirectories, dir) {
			inputs[p] = d
		}
	}
	bundle, err := canonical.CanonicalDigest(signed)
	if err != nil {
		return Digests{}, fmt.Errorf("bundle hash: %w", err)
	}
	vi, err := canonical.CanonicalDigest(inputs)
	if err != nil {
		return Digests{}, fmt.Errorf("verification inputs: %w", err)
	}
	return Digests{Files: files, Bundle: bundle, VerificationInputs: vi}, nil
}

// DigestEvidence hashes a verifier's evidence, any files under the portable
// path rules, the way a bundle is hashed: it returns each file's digest and
// the evidence digest over them all (see EvidenceDigest).
func DigestEvidence(files map[string][]byte) (map[string]string, string, error) {
	digests := make(map[string]string, len(files))
	for p, data := range files {
		digests[p] = fileDigest(data)
	}
	evidence, err := EvidenceDigest(digests)
	if err != nil {
		return nil, "", err
	}
	return digests, evidence, nil
}

// EvidenceDigest is the evidence digest of files already digested, path by
// path: the canonical digest of the path → file-digest object, every file
// included. An attestation's evidence field is this digest of the folder of
// files that back its verdicts. Paths are checked as CheckEvidencePaths
// checks them.
func EvidenceDigest(files map[string]string) (string, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	if err := CheckEvidencePaths(paths); err != nil {
		return "", err
	}
	d, err := canonical.CanonicalDigest(files)
	if err != nil {
		return "", fmt.Errorf("evidence digest: %w", err)
	}
	return d, nil
}

func isDigest(s string) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || !strings.HasPrefix(s, prefix) {
		return false
	}
	for i := len(prefix); i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
