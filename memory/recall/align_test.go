package recall

import (
	"math"
	"testing"
)

// A quoted line counts by what one output line (or two, wrapped) prints
// of it; the same words scattered over lines about other things count
// for less.
func TestAlignedLineByLine(t *testing.T) {
	ix := NewIndex()
	quote := NormalizeError(".husky/pre-commit: line 4: npx: command not found")
	lines := errLineIDs(&ix.errs, quote, nil, true)
	ix.errDocs = 1
	for _, l := range lines {
		for _, id := range l {
			ix.errs.df[id] = 1
		}
	}

	printed := newQueryLines(&ix.errs, NormalizeError("> husky\n.husky/pre-commit: line 4: npx: command not found\nexit 127"), nil)
	share, _, shared := ix.aligned(printed, lines)
	if math.Abs(share-1) > 1e-9 {
		t.Errorf("the line printed whole: share %.3f, want 1", share)
	}
	if len(shared) == 0 {
		t.Error("the line printed whole shares no terms")
	}

	wrapped := newQueryLines(&ix.errs, NormalizeError(".husky/pre-commit: line 4: npx:\n command not found"), nil)
	if share, _, _ := ix.aligned(wrapped, lines); math.Abs(share-1) > 1e-9 {
		t.Errorf("the line wrapped over two: share %.3f, want 1", share)
	}

	scattered := newQueryLines(&ix.errs, NormalizeError("npx husky\nline 4 of the config\nnpm error command failed\ncommand not found: git\nhusky - .git can't be found"), nil)
	if share, _, _ := ix.aligned(scattered, lines); share >= 0.7 {
		t.Errorf("the words scattered over five lines: share %.3f, want below 0.7", share)
	}
}

// A hit from another system loses part of its score only to a rival
// written on the query's system, and is dropped when that takes it
// below the floor.
func TestOSRivals(t *testing.T) {
	mk := func(id, os string, score float64) Hit {
		return Hit{ID: id, Title: id, Score: score, content: score, os: os}
	}
	alone := osRivals([]Hit{mk("mac", "darwin", 1)}, "linux", 0.2)
	if len(alone) != 1 || alone[0].Score != 1 {
		t.Fatalf("a hit without a rival: %+v", alone)
	}
	got := osRivals([]Hit{mk("mac", "darwin", 1), mk("linux", "linux", 0.9)}, "linux", 0.2)
	if len(got) != 2 || got[0].Score >= got[1].Score {
		t.Fatalf("the rival on the query's system should rank first: %+v", got)
	}
	if r := got[0].Reasons[len(got[0].Reasons)-1]; r.Signal != SignalEnvironment || r.Contribution >= 0 {
		t.Errorf("the penalty's reason: %+v", r)
	}
	dropped := osRivals([]Hit{mk("mac", "darwin", 0.21), mk("linux", "linux", 0.3)}, "linux", 0.2)
	if len(dropped) != 1 || dropped[0].ID != "linux" {
		t.Errorf("a hit taken below the floor should go: %+v", dropped)
	}
}

// A record is lone when no other record looked at matches the query's
// output loneRatio as well as it does.
func TestLone(t *testing.T) {
	h := Hit{ID: "a", errShare: 0.8}
	far := rivalShares{matched: []Hit{h, {ID: "b", errShare: 0.3}}}
	if !far.lone(h) {
		t.Error("a record far ahead of the next should be lone")
	}
	close := rivalShares{matched: []Hit{h, {ID: "b", errShare: 0.7}}}
	if close.lone(h) {
		t.Error("a record with a close rival should not be lone")
	}
}

// For the lead rule, a record written on another system is no rival of
// one written on the query's.
func TestLeadOfSkipsOtherSystems(t *testing.T) {
	below := []Hit{{ID: "linux", Score: 0.18, os: "linux"}, {ID: "mac", Score: 0.16, os: "darwin"}, {ID: "other", Score: 0.05, os: "linux"}}
	lead, next := leadOf(below, "linux")
	if lead.ID != "linux" || next.ID != "other" {
		t.Errorf("lead %q, runner-up %q; want linux, other", lead.ID, next.ID)
	}
	lead, next = leadOf(below, "")
	if lead.ID != "linux" || next.ID != "mac" {
		t.Errorf("without a system: lead %q, runner-up %q; want linux, mac", lead.ID, next.ID)
	}
}
