package library

import "testing"

// TestFacetsSubject checks each reviewing kind's subject comes from the
// body member its rules read: a claim for evidence and assessments, a node
// for the research kinds, a base for proposals.
func TestFacetsSubject(t *testing.T) {
	id := func(c byte) string {
		b := make([]byte, 64)
		for i := range b {
			b[i] = c
		}
		return string(b)
	}
	for _, c := range []struct {
		kind, body, want string
	}{
		{"evidence", `{"claim":"` + id('a') + `","content":"x","method":"proof","sources":[]}`, id('a')},
		{"assessment", `{"claim":"` + id('b') + `","evidence":[],"rationale":"r","verdict":"open"}`, id('b')},
		{"research-evidence", `{"content":"x","method":"proof","node":"` + id('c') + `"}`, id('c')},
		{"research-assessment", `{"node":"` + id('d') + `","rationale":"r","verdict":"open"}`, id('d')},
		{"proposal", `{"base":"` + id('e') + `"}`, id('e')},
	} {
		f := FacetsOf(&Record{Kind: c.kind, Body: c.body})
		if f.Subject != c.want {
			t.Errorf("%s: subject %q, want %q", c.kind, f.Subject, c.want)
		}
	}
}
