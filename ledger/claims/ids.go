package claims

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/agora-node/agora/canonical"
)

// ErrGraph is wrapped by the errors AssignIDs returns for claims whose
// dependencies cannot be ordered: a duplicate local ID, an unknown local
// dependency or a cycle. Check refuses all three, so validated claims never
// give it.
var ErrGraph = errors.New("claims cannot be ordered by their dependencies")

// ErrUnresolved is wrapped by the errors for a result a claim names that
// has no declared value: no ID can be computed for that claim.
var ErrUnresolved = errors.New("result not declared")

// A ResultError says which result could not be found and why.
type ResultError struct {
	Name   string // the result name, such as R3.loss_delta
	Reason string // why it has no value, for a person to read
}

func (e *ResultError) Error() string { return e.Reason }

func (e *ResultError) Unwrap() error { return ErrUnresolved }

type cycleError struct {
	index   int // the claim the cycle was found through
	localID string
}

func (e *cycleError) Error() string { return fmt.Sprintf("dependency cycle through %q", e.localID) }

func (e *cycleError) Unwrap() error { return ErrGraph }

// order returns the claims' indexes with every claim after its local
// dependencies, visiting them in file order so the result is deterministic.
func order(claims []Claim) ([]int, error) {
	index := make(map[string]int, len(claims))
	for i := range claims {
		if _, dup := index[claims[i].LocalID]; dup {
			return nil, fmt.Errorf("duplicate local_id %q: %w", claims[i].LocalID, ErrGraph)
		}
		index[claims[i].LocalID] = i
	}
	const (
		unvisited = iota
		visiting
		done
	)
	state := make([]uint8, len(claims))
	ordered := make([]int, 0, len(claims))
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case done:
			return nil
		case visiting:
			return &cycleError{index: i, localID: claims[i].LocalID}
		}
		state[i] = visiting
		for _, d := range claims[i].DependsOn {
			if IsClaimID(d) {
				continue
			}
			j, ok := index[d]
			if !ok {
				return fmt.Errorf("%q depends on unknown local claim %q: %w", claims[i].LocalID, d, ErrGraph)
			}
			if err := visit(j); err != nil {
				return err
			}
		}
		state[i] = done
		ordered = append(ordered, i)
		return nil
	}
	for i := range claims {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return ordered, nil
}

// AssignIDs returns the global ID of every claim, ids[i] being claims[i]'s.
//
// verificationInputs is the bundle's verification inputs digest ("sha256:"
// and 64 lowercase hex digits), which every claim with evidence binds; any
// other text is an error when a claim has evidence. results maps each
// result name a claim names to
// its declared value (a JSON value in canonical.Parse's form), and a claim
// binds the value of each result its evidence names. A name results lacks
// gives an error wrapping ErrUnresolved; claims that cannot be ordered give
// one wrapping ErrGraph.
func AssignIDs(claims []Claim, verificationInputs string, results map[string]any) ([]string, error) {
	return assign(claims, &verificationInputs, results)
}

// AssignIDsWithoutInputs returns the IDs that can be computed before the
// bundle is hashed: a claim that binds the verification inputs, through its
// own evidence or through a local dependency, gets "" instead of an ID.
func AssignIDsWithoutInputs(claims []Claim) ([]string, error) {
	return assign(claims, nil, nil)
}

// assign computes IDs in dependency order. With inputs nil, claims that
// would bind them are left "".
func assign(claims []Claim, inputs *string, results map[string]any) ([]string, error) {
	ordered, err := order(claims)
	if err != nil {
		return nil, err
	}
	if inputs != nil && !IsDigest(*inputs) {
		for i := range claims {
			if len(claims[i].Evidence) > 0 {
				return nil, fmt.Errorf("verification inputs %q are not a digest (sha256: and 64 lowercase hex digits)", *inputs)
			}
		}
	}
	index := make(map[string]int, len(claims))
	for i := range claims {
		index[claims[i].LocalID] = i
	}
	ids := make([]string, len(claims))
	var e encoder
	for _, i := range ordered {
		c := &claims[i]
		deps := make([]string, 0, len(c.DependsOn))
		bound := false
		for _, d := range c.DependsOn {
			if !IsClaimID(d) {
				d = ids[index[d]]
				if d == "" { // only without inputs: the dependency binds them
					bound = true
					break
				}
			}
			deps = append(deps, d)
		}
		if inputs == nil && (bound || len(c.Evidence) > 0) {
			continue
		}
		slices.Sort(deps)
		deps = slices.Compact(deps)
		sum, err := e.claimHash(c, deps, inputs, results)
		if err != nil {
			return nil, fmt.Errorf("claim %q: %w", c.LocalID, err)
		}
		ids[i] = "claim:" + hex.EncodeToString(sum[:])
	}
	return ids, nil
}

// encoder writes a claim's canonical JSON into a buffer it reuses.
type encoder struct {
	buf []byte
}

// claimHash is the SHA-256 of the canonical JSON of the claim without
// local_id, with deps (sorted, deduplicated global IDs) as depends_on, and,
// when it has evidence, the verification inputs and the results it names.
// Members are written in the order RFC 8785 sorts these names.
func (e *encoder) claimHash(c *Claim, deps []string, inputs *string, results map[string]any) ([sha256.Size]byte, error) {
	b := append(e.buf[:0], `{"confidence":`...)
	b, err := canonical.AppendNumber(b, c.Confidence)
	if err != nil {
		return [sha256.Size]byte{}, fmt.Errorf("confidence: %w", err)
	}
	if c.Core {
		b = append(b, `,"core":true,"depends_on":[`...)
	} else {
		b = append(b, `,"core":false,"depends_on":[`...)
	}
	for k, d := range deps {
		if k > 0 {
			b = append(b, ',')
		}
		if b, err = appendString(b, d); err != nil {
			return [sha256.Size]byte{}, err
		}
	}
	b = append(b, `],"evidence":[`...)
	for k := range c.Evidence {
		if k > 0 {
			b = append(b, ',')
		}
		if b, err = appendEvidence(b, &c.Evidence[k]); err != nil {
			return [sha256.Size]byte{}, err
		}
	}
	b = append(b, ']')
	if c.FalsifiedIf != "" {
		b = append(b, `,"falsified_if":`...)
		if b, err = appendString(b, c.FalsifiedIf); err != nil {
			return [sha256.Size]byte{}, err
		}
	}
	if inputs != nil {
		if names := c.ResultsNamed(); len(names) > 0 {
			if b, err = appendResults(b, names, results); err != nil {
				return [sha256.Size]byte{}, err
			}
		}
	}
	b = append(b, `,"statement":`...)
	if b, err = appendString(b, c.Statement); err != nil {
		return [sha256.Size]byte{}, err
	}
	b = append(b, `,"type":`...)
	if b, err = appendString(b, c.Type); err != nil {
		return [sha256.Size]byte{}, err
	}
	if inputs != nil && len(c.Evidence) > 0 {
		b = append(b, `,"verification_inputs":`...)
		if b, err = appendString(b, *inputs); err != nil {
			return [sha256.Size]byte{}, err
		}
	}
	b = append(b, '}')
	e.buf = b
	return sha256.Sum256(b), nil
}

// appendEvidence writes an item with its members in canonical order:
// produced_by|measured, result, tolerance; or checker, proof, theorem.
func appendEvidence(b []byte, ev *Evidence) ([]byte, error) {
	var err error
	if ev.ProducedBy == "" && ev.Measured == "" {
		b = append(b, `{"checker":`...)
		if b, err = appendString(b, ev.Checker); err != nil {
			return b, err
		}
		b = append(b, `,"proof":`...)
		if b, err = appendString(b, ev.Proof); err != nil {
			return b, err
		}
		b = append(b, `,"theorem":`...)
		if b, err = appendString(b, ev.Theorem); err != nil {
			return b, err
		}
		return append(b, '}'), nil
	}
	if ev.ProducedBy != "" {
		b = append(b, `{"produced_by":`...)
		b, err = appendString(b, ev.ProducedBy)
	} else {
		b = append(b, `{"measured":`...)
		b, err = appendString(b, ev.Measured)
	}
	if err != nil {
		return b, err
	}
	b = append(b, `,"result":`...)
	if b, err = appendString(b, ev.Result); err != nil {
		return b, err
	}
	if ev.Tolerance != nil {
		b = append(b, `,"tolerance":`...)
		if b, err = canonical.AppendNumber(b, *ev.Tolerance); err != nil {
			return b, fmt.Errorf("tolerance: %w", err)
		}
	}
	return append(b, '}'), nil
}

// appendResults writes `,"results":{...}`: each name the claim's evidence
// names, sorted as RFC 8785 sorts member names, with its declared value.
func appendResults(b []byte, names []string, results map[string]any) ([]byte, error) {
	slices.SortFunc(names, canonical.CompareUTF16)
	b = append(b, `,"results":{`...)
	for k, name := range names {
		v, ok := results[name]
		if !ok {
			return b, &ResultError{Name: name, Reason: fmt.Sprintf("result %q is not declared", name)}
		}
		if k > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendString(b, name); err != nil {
			return b, err
		}
		b = append(b, ':')
		if b, err = canonical.AppendMarshal(b, v); err != nil {
			return b, fmt.Errorf("result %q: %w", name, err)
		}
	}
	return append(b, '}'), nil
}

// appendString writes s as a canonical JSON string, with a fast path for the
// plain ASCII most fields hold.
func appendString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return canonical.AppendMarshal(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// AssertionDigest is the lookup key for claims that assert the same thing,
// whatever their bundle or evidence: the canonical digest of
// {"statement", "type"}. It feeds duplicate matching and is never an
// identity.
func AssertionDigest(c *Claim) (string, error) {
	b := []byte(`{"statement":`)
	b, err := appendString(b, c.Statement)
	if err != nil {
		return "", fmt.Errorf("assertion digest: %w", err)
	}
	b = append(b, `,"type":`...)
	if b, err = appendString(b, c.Type); err != nil {
		return "", fmt.Errorf("assertion digest: %w", err)
	}
	b = append(b, '}')
	return canonical.Digest(b), nil
}
