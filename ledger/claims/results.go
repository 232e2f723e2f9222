package claims

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agora-node/agora/canonical"
)

// ResultLocation says where a declared result lives: R3.loss_delta is the
// value at key loss_delta of the file results/R3.json, further dots go
// deeper, and a decimal key picks an array element. ok is false for a name
// of any other shape.
func ResultLocation(name string) (path string, keys []string, ok bool) {
	if !IsResultName(name) {
		return "", nil, false
	}
	parts := strings.Split(name, ".")
	return "results/" + parts[0] + ".json", parts[1:], true
}

// BundleResults finds declared results in a bundle's own files, parsing each
// results file once, strictly, the first time a result in it is asked for.
type BundleResults struct {
	files  map[string][]byte
	parsed map[string]parsedFile
}

type parsedFile struct {
	value any
	err   error
}

// NewBundleResults reads results from files, a bundle as path → bytes.
func NewBundleResults(files map[string][]byte) *BundleResults {
	return &BundleResults{files: files, parsed: make(map[string]parsedFile)}
}

// Value returns the declared value of a result name. An error wraps
// ErrUnresolved and says what is missing: the file, valid JSON in it, or a
// value at the keys.
func (r *BundleResults) Value(name string) (any, error) {
	path, keys, ok := ResultLocation(name)
	if !ok {
		return nil, &ResultError{Name: name, Reason: fmt.Sprintf("%q is not a result name such as R3.loss_delta", name)}
	}
	doc, err := r.file(path, name)
	if err != nil {
		return nil, err
	}
	v, ok := valueAt(doc, keys)
	if !ok {
		return nil, &ResultError{Name: name, Reason: fmt.Sprintf("%s has no value at %s", path, strings.Join(keys, "."))}
	}
	return v, nil
}

func (r *BundleResults) file(path, name string) (any, error) {
	if p, ok := r.parsed[path]; ok {
		return p.value, p.err
	}
	var p parsedFile
	data, ok := r.files[path]
	switch {
	case !ok:
		p.err = &ResultError{Name: name, Reason: "there is no " + path}
	case !utf8.Valid(data):
		p.err = &ResultError{Name: name, Reason: path + " is not UTF-8"}
	default:
		v, err := canonical.Parse(bytes.TrimPrefix(data, utf8BOM))
		if err != nil {
			p.err = &ResultError{Name: name, Reason: fmt.Sprintf("%s is not valid JSON: %v", path, err)}
		}
		p.value = v
	}
	r.parsed[path] = p
	return p.value, p.err
}

// valueAt walks keys into a parsed JSON value: a key indexes an object by
// name, and an array only when it is a decimal index without leading zeros.
func valueAt(v any, keys []string) (any, bool) {
	for _, key := range keys {
		switch cur := v.(type) {
		case []any:
			i, ok := arrayIndex(key)
			if !ok || i >= len(cur) {
				return nil, false
			}
			v = cur[i]
		case map[string]any:
			next, ok := cur[key]
			if !ok {
				return nil, false
			}
			v = next
		default:
			return nil, false
		}
	}
	return v, true
}

// arrayIndex reads ^(0|[1-9][0-9]*)$. An index too large for an int is past
// the end of any array, so it is refused the same way.
func arrayIndex(key string) (int, bool) {
	if key == "" || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(key)
	return n, err == nil
}

// CheckEvidence checks claims against the bundle they come in, as a node
// does before it computes their IDs: every result an evidence item names
// must be declared under results/, and every file an item names must be in
// the bundle. It returns the declared value of every result named, ready for
// AssignIDs, and an issue for each item that fails, its path pointing into
// claims.json.
func CheckEvidence(claims []Claim, files map[string][]byte) (map[string]any, []Issue) {
	results := make(map[string]any)
	var issues []Issue
	declared := NewBundleResults(files)
	for i := range claims {
		c := &claims[i]
		seen := make(map[string]bool, len(c.Evidence))
		for j, ev := range c.Evidence {
			if ev.Result == "" || seen[ev.Result] {
				continue
			}
			seen[ev.Result] = true
			v, err := declared.Value(ev.Result)
			if err != nil {
				issues = append(issues, Issue{Path: Pointer(i, "evidence", j, "result"), Message: err.Error()})
				continue
			}
			results[ev.Result] = v
		}
		for j, ev := range c.Evidence {
			if _, ok := files[ev.Path()]; !ok {
				issues = append(issues, Issue{Path: Pointer(i, "evidence", j, ev.pathField()), Message: "the bundle has no " + ev.Path()})
			}
		}
	}
	return results, issues
}

// ResultAgrees reports whether a reproduced result agrees with the value
// declared for it: a number within tolerance of the declared number (equal
// to it when tolerance is nil), any other JSON value exactly equal as
// canonical JSON.
//
// Numbers are compared as the decimals canonical JSON writes them (the
// shortest digits that read back as the same binary64) in exact arithmetic,
// as the reference compares them, so every implementation agrees at the
// edge: 1.1 is within 0.1 of 1, though in binary64 the difference is
// slightly more than 0.1.
func ResultAgrees(produced, declared any, tolerance *float64) bool {
	p, pNum := produced.(float64)
	d, dNum := declared.(float64)
	if !pNum || !dNum {
		a, errA := canonical.Marshal(produced)
		b, errB := canonical.Marshal(declared)
		return errA == nil && errB == nil && bytes.Equal(a, b)
	}
	t := 0.0
	if tolerance != nil {
		t = *tolerance
	}
	pd, ok1 := decimalOf(p)
	dd, ok2 := decimalOf(d)
	td, ok3 := decimalOf(t)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	exp := min(pd.exp, dd.exp, td.exp)
	diff := new(big.Int).Sub(pd.scaled(exp), dd.scaled(exp))
	return diff.Abs(diff).Cmp(td.scaled(exp)) <= 0
}

// decimal is units × 10^exp.
type decimal struct {
	units *big.Int
	exp   int
}

func (d decimal) scaled(exp int) *big.Int {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.exp-exp)), nil)
	return scale.Mul(scale, d.units)
}

// decimalOf reads f's canonical JSON text as a decimal.
func decimalOf(f float64) (decimal, bool) {
	text, err := canonical.AppendNumber(nil, f)
	if err != nil {
		return decimal{}, false
	}
	mantissa, exponent, hasExp := strings.Cut(string(text), "e")
	exp := 0
	if hasExp {
		if exp, err = strconv.Atoi(exponent); err != nil {
			return decimal{}, false
		}
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	units, ok := new(big.Int).SetString(whole+fraction, 10)
	if !ok {
		return decimal{}, false
	}
	return decimal{units: units, exp: exp - len(fraction)}, true
}
