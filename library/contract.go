package library

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/agora-node/agora/canonical"
)

// contractText is the library's read contract as published
// (alexandria.agent-read-contract/1 of https://library.somewhere.sh):
// routes, limits, the write contract with its JSON Schema and state
// rules, the object model, personal lists, and both example sequences.
//
//go:embed contract.json
var contractText []byte

// Contract returns the read contract as published, a fresh copy the caller
// may change: a node fills in its origin and what it does differently.
func Contract() map[string]any {
	v, err := canonical.Parse(contractText)
	if err != nil {
		panic("library: the embedded contract is not I-JSON: " + err.Error())
	}
	return v.(map[string]any)
}

// Substitute replaces every string of v that is exactly "$name" with
// ids[name], at any depth, as the contract's example sequences ask
// (write_contract.examples.substitution): each step's content names the
// revisions earlier steps made. A placeholder with no ID is an error. v is
// not changed.
func Substitute(v any, ids map[string]string) (any, error) {
	switch v := v.(type) {
	case string:
		if name, ok := strings.CutPrefix(v, "$"); ok {
			id, ok := ids[name]
			if !ok {
				return nil, fmt.Errorf("library: placeholder %s names no earlier step", v)
			}
			return id, nil
		}
		return v, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			s, err := Substitute(e, ids)
			if err != nil {
				return nil, err
			}
			out[k] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			s, err := Substitute(e, ids)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	}
	return v, nil
}
