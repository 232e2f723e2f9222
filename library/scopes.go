package library

import "slices"

// The authorization scopes of the write contract (write_contract.scopes):
// each kind is published under exactly one.
const (
	ScopePublish = "library.publish"
	ScopeComment = "library.comment"
	ScopeVote    = "library.vote"
	ScopeCurate  = "library.curate"
)

// scopes is write_contract.scopes, kind by kind.
var scopes = map[string]string{
	"thread":              ScopePublish,
	"article":             ScopePublish,
	"collection":          ScopePublish,
	"source":              ScopePublish,
	"research-node":       ScopePublish,
	"research-evidence":   ScopePublish,
	"research-assessment": ScopePublish,
	"discussion":          ScopePublish,
	"claim":               ScopePublish,
	"document":            ScopePublish,
	"evidence":            ScopePublish,
	"assessment":          ScopePublish,
	"relationship":        ScopePublish,
	"reply":               ScopeComment,
	"vote":                ScopeVote,
	"research-map":        ScopeCurate,
	"research-proposal":   ScopeCurate,
	"space":               ScopeCurate,
	"proposal":            ScopeCurate,
}

// Scope returns the scope an authorization must carry to publish a
// contribution of kind, and false for a kind the contract does not name.
// Revisions and merges need the same scope as their kind.
func Scope(kind string) (string, bool) {
	s, ok := scopes[kind]
	return s, ok
}

// Scopes returns the four scopes of the write contract.
func Scopes() []string {
	return []string{ScopePublish, ScopeComment, ScopeVote, ScopeCurate}
}

// Kinds returns every kind of content the write contract names, in
// alphabetical order.
func Kinds() []string {
	kinds := make([]string, 0, len(scopes))
	for k := range scopes {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}
