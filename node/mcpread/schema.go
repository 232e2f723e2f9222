package mcpread

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// shape is the output schema of an object with the given members, each
// "name:type" (required) or "name?:type" (optional), where type is a JSON
// type or several joined by "|", such as "next:object|null". Members not
// named are allowed: the routes' answers grow, and a tool passes on what
// its route answers.
func shape(members ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
	for _, m := range members {
		name, types, _ := strings.Cut(m, ":")
		name, optional := strings.CutSuffix(name, "?")
		p := &jsonschema.Schema{}
		if ts := strings.Split(types, "|"); len(ts) == 1 {
			p.Type = ts[0]
		} else {
			p.Types = ts
		}
		s.Properties[name] = p
		if !optional {
			s.Required = append(s.Required, name)
		}
	}
	return s
}
