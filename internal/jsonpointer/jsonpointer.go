// Package jsonpointer orders JSON Pointers (RFC 6901) as the places they
// name stand in a document, so lists of issues read the same every time.
//
// Issues are listed so in spec/ledger-protocol.md's and
// library/contract.json's answers.
package jsonpointer

import (
	"cmp"
	"strconv"
	"strings"
)

// Compare orders two pointers token by token: array indexes as numbers
// ("/2" before "/10"), other tokens as strings, and a pointer before the
// pointers below it.
func Compare(a, b string) int {
	for a != "" && b != "" {
		var ta, tb string
		ta, a = next(a)
		tb, b = next(b)
		na, errA := strconv.Atoi(ta)
		nb, errB := strconv.Atoi(tb)
		if errA == nil && errB == nil {
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// next splits "/a/b" into "a" and "/b".
func next(p string) (token, rest string) {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}
