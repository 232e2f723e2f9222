package status_test

// The standing package's property tests live beside the status tests so
// that they run on the same randomized histories (randomHistory).

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
)

// seededImportance gives each claim a score and a moment it was revealed
// from its ID, and keeps one claim in five hidden.
func seededImportance(start time.Time) standing.Importance {
	return func(claim, bundle string) (standing.Rated, error) {
		b := claim[len(claim)-2:]
		var n int
		fmt.Sscanf(b, "%x", &n)
		if n%5 == 0 {
			return standing.Rated{}, nil
		}
		return standing.Rated{Score: n % 101, Revealed: start.Add(time.Duration(n%40) * 24 * time.Hour)}, nil
	}
}

// feed adds leaves[from:to] to both.
func feed(t testing.TB, b *standing.Book, d *status.Deriver, leaves [][]byte, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if err := d.Add(uint64(i), leaves[i]); err != nil {
			t.Fatal(err)
		}
		if err := b.Add(uint64(i), leaves[i]); err != nil {
			t.Fatal(err)
		}
	}
}

func sheetOf(t *testing.T, b *standing.Book, d *status.Deriver, now time.Time, imp standing.Importance) *standing.Sheet {
	t.Helper()
	s, err := b.Sheet(d, now, imp)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStandingProperties accounts for randomized histories three ways,
// which must agree operator by operator and event by event: all at once,
// leaf by leaf with sheets read between leaves as the node reads them,
// and restarted halfway. Each sheet must also hold together: nectar's
// total is its parts and its events, published nectar is, paper by paper,
// the most important established claim and refuted nectar the refuted
// claims' importance (both recomputed here from the claims' statuses
// alone), the score is its parts' points, the limits follow from
// the score, and the leaderboard's places follow its nectar.
func TestStandingProperties(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			h := randomHistory(t, seed, 2500)
			imp := seededImportance(start)
			end := h.at.Add(40 * 24 * time.Hour)
			wholeBook, wholeD := standing.New(), status.New(h.readFile)
			feed(t, wholeBook, wholeD, h.leaves, 0, len(h.leaves))
			whole := sheetOf(t, wholeBook, wholeD, end, imp)

			live, liveD := standing.New(), status.New(h.readFile)
			for i := range h.leaves {
				feed(t, live, liveD, h.leaves, i, i+1)
				if i%400 == 0 {
					checkSheet(t, liveD, sheetOf(t, live, liveD, leafTime(t, h.leaves[i]), imp), imp)
				}
			}
			half := len(h.leaves) / 2
			restarted, restartedD := standing.New(), status.New(h.readFile)
			feed(t, restarted, restartedD, h.leaves, 0, half)
			sheetOf(t, restarted, restartedD, leafTime(t, h.leaves[half-1]), imp)
			feed(t, restarted, restartedD, h.leaves, half, len(h.leaves))

			for _, other := range []*standing.Sheet{sheetOf(t, live, liveD, end, imp), sheetOf(t, restarted, restartedD, end, imp)} {
				if !reflect.DeepEqual(other.Events, whole.Events) || !reflect.DeepEqual(other.Operators(), whole.Operators()) {
					t.Fatalf("the sheets disagree: %d events and %d, operators %d and %d", len(whole.Events), len(other.Events), len(whole.Operators()), len(other.Operators()))
				}
				for _, op := range whole.Operators() {
					if a, b := whole.Of(op), other.Of(op); !reflect.DeepEqual(a, b) {
						t.Fatalf("operator %s: at once %+v, as it grew %+v", op, a, b)
					}
				}
			}
			checkSheet(t, wholeD, whole, imp)
			checkAttestationCounts(t, wholeBook, h.leaves)
			earned, scored, limited, lo, hi := 0, 0, 0, 0, 0
			for _, op := range whole.Operators() {
				st := whole.Of(op)
				if st.Nectar.Total != 0 {
					earned++
				}
				if st.Reputation.Score != 0 {
					scored++
				}
				lo, hi = min(lo, st.Reputation.Score), max(hi, st.Reputation.Score)
				if st.Reputation.Limits != standing.BaseLimits {
					limited++
				}
			}
			t.Logf("%d operators, %d events: %d with nectar, %d with reputation (%d to %d), %d with other limits", len(whole.Operators()), len(whole.Events), earned, scored, lo, hi, limited)
			if earned == 0 || scored == 0 || len(whole.Events) == 0 {
				t.Errorf("the history tested too little")
			}
		})
	}
}

// checkAttestationCounts checks that the book counts each operator's
// attestations after a moment as the leaves hold them, as the daily limit
// counts them.
func checkAttestationCounts(t *testing.T, b *standing.Book, leaves [][]byte) {
	t.Helper()
	type att struct {
		by string
		at time.Time
	}
	var all []att
	for _, leaf := range leaves {
		_, entry, at, err := status.ParseLeaf(leaf)
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := entry["verifier"].(string); entry["type"] == "attestation" {
			all = append(all, att{v, at})
		}
	}
	for _, cut := range []int{0, len(all) / 3, len(all) - 1} {
		since := all[cut].at
		want := map[string]int{}
		for _, a := range all {
			if a.at.After(since) {
				want[a.by]++
			}
		}
		for op, n := range want {
			if got := b.AttestationsSince(op, since); got != n {
				t.Fatalf("%s: %d attestations after %v, the leaves hold %d", op, got, since, n)
			}
		}
	}
}

// checkSheet checks that one sheet holds together.
func checkSheet(t *testing.T, d *status.Deriver, s *standing.Sheet, imp standing.Importance) {
	t.Helper()
	byReason := map[string]map[string]int{}
	for i, e := range s.Events {
		if i > 0 && e.At.Before(s.Events[i-1].At) {
			t.Fatalf("events out of order at %d", i)
		}
		if byReason[e.Operator] == nil {
			byReason[e.Operator] = map[string]int{}
		}
		byReason[e.Operator][e.Reason] += e.Amount
	}
	published, refuted := nectarOracle(d, s.At, imp)
	for _, op := range s.Operators() {
		st := s.Of(op)
		n := st.Nectar
		if n.Total != n.Published+n.Refuted+n.Retracted+n.Settled+int(n.Share) || n.Total != s.NectarSince(op, time.Time{}) {
			t.Fatalf("operator %s: nectar %+v, its events add to %d", op, n, s.NectarSince(op, time.Time{}))
		}
		if n.Published != byReason[op][standing.Published] || n.Refuted != byReason[op][standing.Refuted] || n.Settled != byReason[op][standing.Settled] {
			t.Fatalf("operator %s: nectar %+v, events by reason %v", op, n, byReason[op])
		}
		if n.Published < 0 || n.Refuted > 0 || n.Settled < 0 {
			t.Fatalf("operator %s: nectar parts of the wrong sign: %+v", op, n)
		}
		if n.Published != published[op] || n.Refuted != -refuted[op] {
			t.Fatalf("operator %s: published nectar %d and refuted %d; its papers' most important established claims %d, its refuted claims %d",
				op, n.Published, n.Refuted, published[op], refuted[op])
		}
		score := 0
		for part, count := range st.Reputation.Parts {
			for _, p := range standing.Points {
				if p.Part == part {
					score += count * p.Points
				}
			}
		}
		if score != st.Reputation.Score || st.Reputation.Limits != standing.LimitsFor(score) {
			t.Fatalf("operator %s: reputation %+v, its parts give %d", op, st.Reputation, score)
		}
	}
	for _, period := range []string{standing.AllTime, standing.Last30Days} {
		board, _ := s.Board(period)
		for i, p := range board {
			if i > 0 && (p.Nectar > board[i-1].Nectar || p.Place < board[i-1].Place || (p.Nectar == board[i-1].Nectar) != (p.Place == board[i-1].Place)) {
				t.Fatalf("%s board out of order at %d: %+v after %+v", period, i, p, board[i-1])
			}
			if s.Rank(p.Operator)[period] != p.Place {
				t.Fatalf("%s: %s ranks %d, on the board %d", period, p.Operator, s.Rank(p.Operator)[period], p.Place)
			}
		}
	}
}

// nectarOracle recomputes published and refuted nectar straight from the
// claims: each paper's most important established claim whose importance
// is revealed, to its first version's author, and the importance of each
// refuted claim, taken from its author.
func nectarOracle(d *status.Deriver, now time.Time, imp standing.Importance) (published, refuted map[string]int) {
	first := map[string]status.Bundle{}
	newest := map[string]string{}
	for _, b := range d.Bundles() {
		for _, id := range b.Claims {
			if _, ok := first[id]; !ok {
				first[id] = b
			}
			newest[id] = b.Hash
		}
	}
	best := map[string]int{}
	author := map[string]string{}
	refuted = map[string]int{}
	for _, id := range d.IDs() {
		c, _ := d.Claim(id, now)
		r, _ := imp(id, newest[id])
		if r.Revealed.IsZero() {
			continue
		}
		if c.Has("refuted") {
			refuted[first[id].Author] += r.Score
		}
		if !c.Has("reproduced") && !c.Has("replicated") && !c.Has("formally_verified") {
			continue
		}
		paper := first[id].Paper
		author[paper] = first[id].Author
		best[paper] = max(best[paper], r.Score)
	}
	published = map[string]int{}
	for paper, v := range best {
		published[author[paper]] += v
	}
	return published, refuted
}

// BenchmarkSheet accounts for every operator of a randomized history of
// 20,000 entries, as a record read after the log grew does.
func BenchmarkSheet(b *testing.B) {
	h := randomHistory(b, 1, 20000)
	book, d := standing.New(), status.New(h.readFile)
	feed(b, book, d, h.leaves, 0, len(h.leaves))
	imp := seededImportance(start)
	b.ResetTimer()
	for b.Loop() {
		if _, err := book.Sheet(d, h.at, imp); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(d.IDs())), "claims")
}
