package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// TestLogVerifyChecks: 'agora log verify' checks the signature of every
// citation and duplicate check, by its checker's key, and reports one
// signed by another key or naming another checker than its leaf.
func TestLogVerifyChecks(t *testing.T) {
	check := func(typ, checker string, key *hybrid.PrivateKey) map[string]any {
		e := map[string]any{"type": typ, "checker": checker, "bundle": "sha256:" + strings.Repeat("ab", 32),
			"evidence": "sha256:" + strings.Repeat("cd", 32), "model_family": "gpt", "model": "gpt-test-1"}
		if typ == "citation_check" {
			e["citations"] = map[string]any{"doi:10.1234/abcd": "supports"}
		} else {
			e["pairs"] = []any{map[string]any{"claim": "claim:" + strings.Repeat("01", 32), "earlier": "claim:" + strings.Repeat("02", 32), "verdict": "distinct"}}
		}
		if err := protocol.Sign(e, key); err != nil {
			t.Fatal(err)
		}
		return e
	}
	f := newFakeLog(t)
	id, key := f.operator()
	f.append(check("citation_check", id, key), map[string]any{"operator": id})
	f.append(check("duplicate_check", id, key), map[string]any{"operator": id})
	f.sign(f.clock.Add(1))
	out, _ := verifyLog(t, 0, f.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(out, "citation_check 1") || !strings.Contains(out, "duplicate_check 1") || strings.Contains(out, "type this agora does not know") {
		t.Errorf("a log with a citation and a duplicate check:\n%s", out)
	}

	g := newFakeLog(t)
	id, _ = g.operator()
	other, _ := hybrid.GenerateKey()
	g.append(check("citation_check", id, other), map[string]any{"operator": id})
	g.sign(g.clock.Add(1))
	_, errOut := verifyLog(t, 1, g.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "entry 2 (citation_check) is not signed by the key its signer held") {
		t.Errorf("a citation check signed by another key:\n%s", errOut)
	}

	h := newFakeLog(t)
	id, key = h.operator()
	someone, _ := h.operator()
	h.append(check("duplicate_check", someone, key), map[string]any{"operator": id})
	h.sign(h.clock.Add(1))
	_, errOut = verifyLog(t, 1, h.serve(), filepath.Join(t.TempDir(), "pin.json"))
	if !strings.Contains(errOut, "as its checker, but its leaf names") {
		t.Errorf("a duplicate check naming another checker than its leaf:\n%s", errOut)
	}
}
