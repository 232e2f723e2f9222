// Package claims validates a bundle's claims.json and computes its claim IDs,
// byte for byte as the sciencejournal protocol's reference library does
// (sections "Writing claims", "Claim IDs" and "Validating claims before you
// publish" of the protocol's instructions, spec/ledger-protocol.md).
//
// A claim's global ID is "claim:" and the SHA-256 of the canonical JSON of
// the claim without its local_id, its local dependencies replaced by their
// own IDs; a claim with evidence also binds the bundle's verification inputs
// and the declared value of every result its evidence names. Every field a
// claim carries is part of its ID, so validation is closed: unknown members
// are refused rather than dropped.
//
// The usual path is ParseFile (strict I-JSON, then the schema and the
// dependency graph), then CheckEvidence against the bundle's files, then
// AssignIDs.
package claims

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
)

// The claim types, part of the wire format.
const (
	Empirical      = "empirical"
	Theoretical    = "theoretical"
	Methodological = "methodological"
	Replication    = "replication"
	NegativeResult = "negative_result"
	Resource       = "resource"
)

// Types lists every claim type in the protocol's order.
var Types = []string{Empirical, Theoretical, Methodological, Replication, NegativeResult, Resource}

// The proof checkers a proof item can name. Rocq is Coq's new name.
const (
	Lean4 = "lean4"
	Rocq  = "rocq"
)

// Checkers lists every proof checker the protocol names.
var Checkers = []string{Lean4, Rocq}

// MaxClaims is how many claims one claims.json may hold.
const MaxClaims = 30

// MaxTheorem bounds a proof item's theorem name, counted in code points as
// the reference's schema counts it: zod's .max on a string counts code
// points, so 500 emoji fit.
const MaxTheorem = 500

// A Claim is one entry of claims.json, as validated. Its JSON form (through
// encoding/json) is the claim as claims.json writes it.
type Claim struct {
	LocalID   string     `json:"local_id"`
	Type      string     `json:"type"`
	Core      bool       `json:"core"`
	Statement string     `json:"statement"`
	Evidence  []Evidence `json:"evidence"`
	// DependsOn holds global claim IDs and local IDs of claims in the same
	// file, as written.
	DependsOn []string `json:"depends_on"`
	// FalsifiedIf is optional; when present it is never empty, so "" means
	// absent.
	FalsifiedIf string  `json:"falsified_if,omitempty"`
	Confidence  float64 `json:"confidence"`
}

// The three kinds of evidence item.
const (
	Computation = "computation" // a result code under code/ writes; verifiers re-run it
	Measurement = "measurement" // a result read from a raw record under data/
	Proof       = "proof"       // a theorem a proof checker checks
)

// Evidence is one item of a claim's evidence: exactly one of a computation
// (Result, ProducedBy, optional Tolerance), a measurement (Result, Measured,
// optional Tolerance) or a proof (Proof, Theorem, Checker). Fields of the
// other kinds are empty.
type Evidence struct {
	Result     string `json:"result,omitempty"`
	ProducedBy string `json:"produced_by,omitempty"`
	Measured   string `json:"measured,omitempty"`
	// Tolerance is nil when absent, which is not the same claim as a
	// tolerance of 0: every field present is hashed into the ID.
	Tolerance *float64 `json:"tolerance,omitempty"`
	Proof     string   `json:"proof,omitempty"`
	Theorem   string   `json:"theorem,omitempty"`
	Checker   string   `json:"checker,omitempty"`
}

// Kind is Computation, Measurement or Proof.
func (e Evidence) Kind() string {
	switch {
	case e.ProducedBy != "":
		return Computation
	case e.Measured != "":
		return Measurement
	default:
		return Proof
	}
}

// Path is the bundle path the item names: its code, its raw record or its
// proof file.
func (e Evidence) Path() string {
	switch {
	case e.ProducedBy != "":
		return e.ProducedBy
	case e.Measured != "":
		return e.Measured
	default:
		return e.Proof
	}
}

// pathField is the member of the item that holds Path.
func (e Evidence) pathField() string {
	switch {
	case e.ProducedBy != "":
		return "produced_by"
	case e.Measured != "":
		return "measured"
	default:
		return "proof"
	}
}

// ResultsNamed returns the results a claim's evidence names, each once, in
// the order they first appear.
func (c *Claim) ResultsNamed() []string {
	var names []string
	for _, e := range c.Evidence {
		if e.Result != "" && !slices.Contains(names, e.Result) {
			names = append(names, e.Result)
		}
	}
	return names
}

// An Issue is one reason claims were refused. Path is a JSON Pointer
// (RFC 6901) into the claims file, such as "/0/evidence/1/produced_by"; ""
// means the file as a whole.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (i Issue) String() string {
	if i.Path == "" {
		return i.Message
	}
	return i.Path + ": " + i.Message
}

// Pointer builds a JSON Pointer from object member names (strings) and array
// indexes (ints), escaping "~" and "/" as RFC 6901 requires.
func Pointer(segments ...any) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		switch s := s.(type) {
		case int:
			b.WriteString(strconv.Itoa(s))
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
		default:
			fmt.Fprint(&b, s)
		}
	}
	return b.String()
}

// utf8BOM is dropped from the start of a file before it is parsed: the
// reference reads bundle files through a TextDecoder, which drops it, so a
// file saved by an editor that writes one still reads as the same JSON.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ParseFile reads the text of a claims.json file: a strict I-JSON parse (an
// error wrapping canonical.ErrNotIJSON when that fails), then Check. A
// leading UTF-8 byte order mark is ignored, as the reference ignores it. The
// claims are returned only when there are no issues.
func ParseFile(text []byte) ([]Claim, []Issue, error) {
	v, err := canonical.Parse(bytes.TrimPrefix(text, utf8BOM))
	if err != nil {
		return nil, nil, fmt.Errorf("claims.json: %w", err)
	}
	claims, issues := Check(v)
	return claims, issues, nil
}
