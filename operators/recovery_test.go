package operators

import (
	"errors"
	"testing"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
)

// asParsed returns entry as the node reads it off the wire: numbers as
// float64.
func asParsed(t *testing.T, entry map[string]any) map[string]any {
	t.Helper()
	b, err := canonical.Marshal(entry)
	if err != nil {
		t.Fatal(err)
	}
	v, err := canonical.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func TestCheckRecoveryEntry(t *testing.T) {
	old, next := key(t, 0), key(t, 1)
	op := protocol.OperatorID(old.Public().String())
	entry, err := protocol.SignKeyRecovery(op, "domain", "lab.example.org", 7, next)
	if err != nil {
		t.Fatal(err)
	}
	r, err := CheckRecoveryEntry(asParsed(t, entry), op)
	if err != nil || r.Kind != "domain" || r.Since != 7 || r.Subject() != "lab.example.org" || r.KeyDigest != protocol.KeyDigest(next.Public().String()) {
		t.Fatalf("a good recovery: %+v, %v", r, err)
	}
	gh, _ := protocol.SignKeyRecovery(op, "github", "octo-lab/agents", 0, next)
	if r, err := CheckRecoveryEntry(asParsed(t, gh), op); err != nil || r.Subject() != "octo-lab/agents" {
		t.Fatalf("a GitHub recovery: %+v, %v", r, err)
	}
	for _, tc := range []struct {
		why    string
		change func(e map[string]any)
		want   *Sentinel
		field  string
	}{
		{"an unknown kind", func(e map[string]any) { e["kind"] = "sponsored" }, ErrMalformed, "/kind"},
		{"another type", func(e map[string]any) { e["type"] = "key_rotation" }, ErrMalformed, "/type"},
		{"an extra member", func(e map[string]any) { e["model"] = "claude-test-1" }, ErrMalformed, "/model"},
		{"no since", func(e map[string]any) { delete(e, "since") }, ErrMalformed, "/since"},
		{"a negative since", func(e map[string]any) { e["since"] = -1.0 }, ErrMalformed, "/since"},
		{"a fractional since", func(e map[string]any) { e["since"] = 0.5 }, ErrMalformed, "/since"},
		{"a since past 2^53", func(e map[string]any) { e["since"] = 1e17 }, ErrMalformed, "/since"},
		{"another operator", func(e map[string]any) { e["operator"] = protocol.OperatorID(next.Public().String()) }, ErrWrongOperator, "/operator"},
		{"a domain in capitals", func(e map[string]any) { e["domain"] = "Lab.example.org" }, ErrInvalidDomain, ""},
		{"signed by the old key", nil, ErrBadSignature, "/sig"},
	} {
		e := asParsed(t, entry)
		signer := next
		if tc.change == nil {
			signer = old
		} else {
			tc.change(e)
		}
		_, err := CheckRecoveryEntry(signed(t, signer, e), op)
		wantErr(t, tc.why, err, tc.want, tc.field)
	}
}

func TestCheckRecoveryIdentity(t *testing.T) {
	r := &Recovery{Kind: "domain", Operator: "op:x", Domain: "lab.example.org"}
	for _, tc := range []struct {
		why  string
		held []HeldIdentity
		want *Sentinel
	}{
		{"the domain it counts as", []HeldIdentity{{"domain", "lab.example.org"}, {"invited", ""}}, nil},
		{"no identity", nil, ErrNoIdentity},
		{"another domain", []HeldIdentity{{"domain", "other.example.org"}}, ErrRecoveryIdentity},
		{"a firmer identity held", []HeldIdentity{{"github", "octo/agents"}}, ErrRecoveryIdentity},
		{"a sponsored identity", []HeldIdentity{{"sponsored", "op:y"}}, ErrRecoveryIdentity},
	} {
		err := CheckRecoveryIdentity(tc.held, r)
		if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: %v, want %v", tc.why, err, tc.want)
		}
	}
	invited := &Recovery{Kind: "invited", Operator: "op:x"}
	if err := CheckRecoveryIdentity([]HeldIdentity{{"invited", ""}}, invited); err != nil {
		t.Errorf("an invited operator's recovery: %v", err)
	}
}
