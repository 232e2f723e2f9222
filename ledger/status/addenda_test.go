package status_test

import (
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/status"
)

func (h *history) addendum(author, bundle, words string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "addendum", "author": author, "bundle": bundle, "words": digest(words),
		"sig": "x"}, "operator": author})
}

func (h *history) screenAddendum(screener string, addendum uint64, verdict, hazard, reason string) uint64 {
	e := map[string]any{"type": "addendum_screen", "screener": screener, "addendum": addendum, "hazard": hazard, "verdict": verdict,
		"model_family": "gpt", "model": "gpt-1", "sig": "x"}
	if reason != "" {
		e["reason"] = reason
	}
	return h.add(map[string]any{"entry": e, "operator": screener})
}

// authorsAddendum opens a bundle of op:author's and logs its addendum
// with words.
func (h *history) authorsAddendum(words string) (bundle string, addendum uint64) {
	bundle = h.open("op:author", []string{"claude"}, "", computed)
	return bundle, h.addendum("op:author", bundle, words)
}

// addendumAt derives the log and answers for the addendum at index as of
// its last moment plus after.
func (h *history) addendumAt(index uint64, after time.Duration) (status.Addendum, bool) {
	h.t.Helper()
	return h.deriver().AddendumAt(index, h.at.Add(after))
}

// deriver is a Deriver that read the whole history.
func (h *history) deriver() *status.Deriver {
	h.t.Helper()
	d := status.New(h.readFile)
	for i, leaf := range h.leaves {
		if err := d.Add(uint64(i), leaf); err != nil {
			h.t.Fatal(err)
		}
	}
	return d
}

func wantAddendum(t *testing.T, h *history, index uint64, want string) status.Addendum {
	t.Helper()
	a, ok := h.addendumAt(index, 0)
	if !ok || a.State != want {
		t.Fatalf("addendum %d: %q (logged %v), want %s", index, a.State, ok, want)
	}
	return a
}

func TestAddendumUp(t *testing.T) {
	h := world(t)
	_, a := h.authorsAddendum("more words")
	wantAddendum(t, h, a, status.AddendumScreening)
	h.screenAddendum("op:b", a, "ok", "none", "")
	h.screenAddendum("op:b", a, "ok", "none", "")  // the same organization again counts once
	h.screenAddendum("op:a2", a, "ok", "none", "") // the author's organization never counts
	wantAddendum(t, h, a, status.AddendumScreening)
	h.screenAddendum("op:c", a, "ok", "none", "")
	got := wantAddendum(t, h, a, status.AddendumUp)
	if !slices.Equal(got.Counted, []bool{true, false, false, true}) {
		t.Errorf("counted %v, want the first of b and c's", got.Counted)
	}
	// Settled, a later block changes nothing.
	h.screenAddendum("op:d", a, "block", "none", "abuse")
	wantAddendum(t, h, a, status.AddendumUp)
}

func TestAddendumBlocked(t *testing.T) {
	h := world(t)
	_, a := h.authorsAddendum("orders")
	h.screenAddendum("op:b", a, "block", "cyber", "")
	h.screenAddendum("op:c", a, "block", "none", "instructions")
	got := wantAddendum(t, h, a, status.AddendumBlocked)
	if !slices.Equal(got.BlockedBecause, []string{"cyber", "instructions"}) {
		t.Errorf("blocked because %v, want cyber and instructions", got.BlockedBecause)
	}
}

func TestAddendumTieTakesAThird(t *testing.T) {
	h := world(t)
	_, a := h.authorsAddendum("a disclosure")
	h.screenAddendum("op:b", a, "ok", "none", "")
	h.screenAddendum("op:c", a, "block", "none", "off_topic")
	got := wantAddendum(t, h, a, status.AddendumScreening)
	if !got.Tied() || got.NamedHazard() {
		t.Errorf("one ok and one block naming no hazard: tied %v, a hazard named %v", got.Tied(), got.NamedHazard())
	}
	h.screenAddendum("op:d", a, "block", "none", "off_topic")
	if got := wantAddendum(t, h, a, status.AddendumBlocked); got.Tied() {
		t.Error("a settled addendum is tied")
	}
}

func TestAddendumTieNamingAHazard(t *testing.T) {
	h := world(t)
	_, a := h.authorsAddendum("a method")
	h.screenAddendum("op:b", a, "block", "biological", "")
	h.screenAddendum("op:c", a, "ok", "none", "")
	if got := wantAddendum(t, h, a, status.AddendumScreening); !got.Tied() || !got.NamedHazard() {
		t.Errorf("a tie with a hazard named: tied %v, a hazard named %v", got.Tied(), got.NamedHazard())
	}
}

func TestAddendumLapses(t *testing.T) {
	h := world(t)
	_, a := h.authorsAddendum("a pointer")
	h.screenAddendum("op:b", a, "ok", "none", "")
	if got, _ := h.addendumAt(a, status.AddendumWindow-time.Minute); got.State != status.AddendumScreening {
		t.Errorf("before 14 days: %s", got.State)
	}
	if got, _ := h.addendumAt(a, status.AddendumWindow); got.State != status.AddendumLapsed {
		t.Errorf("after 14 days: %s, want lapsed", got.State)
	}
	// A screen logged after the window counts for nothing.
	h.wait(status.AddendumWindow)
	h.screenAddendum("op:c", a, "ok", "none", "")
	wantAddendum(t, h, a, status.AddendumLapsed)
}

func TestAddendumWithdrawnOrDisowned(t *testing.T) {
	h := world(t)
	b, a := h.authorsAddendum("said")
	h.screenAddendum("op:b", a, "ok", "none", "")
	h.screenAddendum("op:c", a, "ok", "none", "")
	h.withdraw(b) // the helper's reason is disowned
	wantAddendum(t, h, a, status.AddendumDisowned)
	other := h.open("op:author", []string{"claude"}, "", claim{id: claimID("other"), local: "c1", computes: true})
	o := h.addendum("op:author", other, "said again")
	h.add(map[string]any{"entry": map[string]any{"type": "withdrawal", "bundle": other, "reason": "hazard", "sig": "x"}})
	wantAddendum(t, h, o, status.AddendumWithdrawn)
}

// The log ignores an addendum the node would have refused, and lists
// those up on every version of the paper, oldest first.
func TestAddendumRefusedAndListed(t *testing.T) {
	h := world(t)
	first := h.open("op:author", []string{"claude"}, "", computed)
	if _, ok := h.addendumAt(h.addendum("op:b", first, "not mine"), 0); ok {
		t.Error("an addendum by another operator was taken")
	}
	if _, ok := h.addendumAt(h.addendum("op:author", digest("never opened"), "too soon"), 0); ok {
		t.Error("an addendum to a bundle never opened was taken")
	}
	older := h.addendum("op:author", first, "first words")
	second := h.open("op:author", []string{"claude"}, first, computed)
	if _, ok := h.addendumAt(h.addendum("op:author", first, "to the old version"), 0); ok {
		t.Error("an addendum to a corrected version was taken")
	}
	newer := h.addendum("op:author", second, "second words")
	for _, a := range []uint64{newer, older} {
		h.screenAddendum("op:b", a, "ok", "none", "")
		h.screenAddendum("op:c", a, "ok", "none", "")
	}
	d := h.deriver()
	for _, version := range []string{first, second} {
		var got []uint64
		for _, a := range d.AddendaOf(version, h.at) {
			got = append(got, a.Index)
		}
		if !slices.Equal(got, []uint64{older, newer}) {
			t.Errorf("the addenda on %s: %v, want %v oldest first", version, got, []uint64{older, newer})
		}
	}
	if refusal := d.AddendumRefusal(first, "op:author"); refusal != status.RefuseCorrected {
		t.Errorf("the refusal of an addendum to a corrected version: %q", refusal)
	}
	h.retract("op:author", second)
	d = h.deriver()
	if refusal := d.AddendumRefusal(second, "op:author"); refusal != status.RefuseRetracted {
		t.Errorf("the refusal of an addendum to a retracted paper: %q", refusal)
	}
}
