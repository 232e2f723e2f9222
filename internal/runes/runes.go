// Package runes cuts text by characters (runes), not bytes, so a cut never
// splits a UTF-8 sequence and limits stated in characters hold.
//
// Such limits are stated in spec/ledger-protocol.md and
// library/contract.json.
package runes

// Prefix returns s cut to at most n runes; n ≤ 0 gives "".
func Prefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
