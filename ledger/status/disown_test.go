package status_test

import (
	"testing"
	"time"
)

// recover logs op's key recovery disowning what its lost key signed from
// since on.
func (h *history) recover(op string, since uint64) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "key_recovery", "kind": "domain", "operator": op,
		"key": "k", "domain": "x.example", "since": since, "sig": "x"}, "operator": op})
}

func TestRecoveryDisowns(t *testing.T) {
	t.Run("a verdict signed from since on stops counting", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		lost := h.attest("reproduction", "op:c", "gemini", b, computed.id, "reproduced")
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
		h.recover("op:c", lost)
		c := h.derive(computed.id, 0)
		wantStatuses(t, c, "published")
		for _, a := range c.Attestations {
			if a.Index == lost && (a.Counted || a.NotCountedBecause != "disowned") {
				t.Errorf("the disowned verdict reads %+v", a)
			}
		}
		// The verifier's next verdict, by its new key, counts.
		h.attest("reproduction", "op:c", "gemini", b, computed.id, "reproduced")
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	})
	t.Run("since after the verdict disowns nothing", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		lost := h.attest("reproduction", "op:c", "gemini", b, computed.id, "reproduced")
		h.recover("op:c", lost+1)
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	})
	t.Run("a verdict sealed before since stands", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		sealedAt := uint64(len(h.leaves)) - 1
		revealed := h.add(map[string]any{"entry": map[string]any{"type": "attestation", "job": "reproduction", "verifier": "op:c", "bundle": b,
			"claims": map[string]any{computed.id: "reproduced"}, "model_family": "gemini", "model": "gemini-1", "evidence": digest("e"), "sig": "x"},
			"operator": "op:c", "sealed": map[string]any{"index": sealedAt, "salt": "s"}})
		h.recover("op:c", revealed)
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	})
	t.Run("a failure disowned is no failure", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		first := h.attest("reproduction", "op:b", "gpt", b, computed.id, "mismatch")
		h.attest("reproduction", "op:c", "gpt", b, computed.id, "mismatch")
		h.recover("op:b", first)
		h.recover("op:c", first)
		wantStatuses(t, h.derive(computed.id, 60*24*time.Hour), "published")
	})
	t.Run("a retraction is void", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
		at := h.retract("op:author", b)
		wantStatuses(t, h.derive(computed.id, 0), "published", "retracted")
		h.recover("op:author", at)
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
		again := h.retract("op:author", b) // by the new key, it stands
		c := h.derive(computed.id, 0)
		wantStatuses(t, c, "published", "retracted")
		if c.Requirements["retracted"].(map[string]any)["retraction"] != again {
			t.Fatalf("retracted names %v, want entry %d", c.Requirements["retracted"], again)
		}
	})
	t.Run("an open challenge is void, a decided one stands", func(t *testing.T) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
		ch := h.challengeClaim("op:d", computed.id)
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
		h.recover("op:d", ch)
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")

		h.identity("op:e", "e.example")
		h.identity("op:f", "f.example")
		h.identity("op:g", "g.example")
		ch = h.challengeClaim("op:d", computed.id)
		review := h.reviewChallenge("op:e", ch, b, "upheld")
		h.recover("op:e", review) // its review on an undecided panel stops counting
		h.reviewChallenge("op:f", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
		h.reviewChallenge("op:g", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "refuted")
		h.recover("op:d", ch)
		wantStatuses(t, h.derive(computed.id, 0), "published", "refuted")
	})
}
