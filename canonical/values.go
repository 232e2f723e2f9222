package canonical

import "fmt"

// Describe names the JSON type of a value Parse returned, for messages such
// as "confidence is a string, not a number".
func Describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// UTF16Len is the length of s in UTF-16 code units: the length an ECMAScript
// string has, which the protocol's limits on text are counted in.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
