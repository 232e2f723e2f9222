package library

import (
	_ "embed"

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
