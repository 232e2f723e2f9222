package status_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/vocabulary"
)

// randomHistory writes a log of about events entries, seeded: operators of
// ten organizations and four families (and some without an identity),
// bundles of one to three claims, corrections that carry some claims over
// and change others, verdicts of every kind (idle ones too), withdrawals,
// and days passing.
func randomHistory(t testing.TB, seed uint64, events int) *history {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	h := newHistory(t)
	var ops []string
	for i := range 24 {
		op := fmt.Sprintf("op:%d", i)
		ops = append(ops, op)
		if i < 20 {
			h.identity(op, fmt.Sprintf("org%d.example", i%10))
		}
	}
	families := []string{"claude", "gpt", "gemini", "llama"}
	type opened struct {
		hash, author string
		claims       []claim
		corrected    bool
	}
	var bundles []*opened
	type challenged struct {
		index  uint64
		bundle string
	}
	var challenges []challenged
	n := 0
	newClaim := func() claim {
		n++
		c := claim{id: claimID(fmt.Sprintf("claim %d", n)), local: fmt.Sprintf("c%d", n)}
		switch r.IntN(3) {
		case 0:
			c.computes = true
		case 1:
			c.proves, c.typ = true, "theoretical"
		}
		return c
	}
	verdicts := map[string][]string{}
	for _, j := range vocabulary.AttestationJobs {
		verdicts[j.Job] = j.Verdicts
	}
	kinds := []string{"reproduction", "reproduction", "methods_review", "domain_review", "adversarial_review", "proof_check", "replication_match"}
	for len(h.leaves) < events {
		switch k := r.IntN(100); {
		case k < 12 || len(bundles) == 0:
			author := ops[r.IntN(len(ops))]
			var cs []claim
			for range 1 + r.IntN(3) {
				cs = append(cs, newClaim())
			}
			if len(bundles) > 0 && r.IntN(4) == 0 {
				// A replication of an earlier claim.
				old := bundles[r.IntN(len(bundles))]
				cs[0].typ, cs[0].dependsOn = "replication", []string{old.claims[0].id}
			}
			fams := []string{families[r.IntN(len(families))]}
			bundles = append(bundles, &opened{h.open(author, fams, "", cs...), author, cs, false})
		case k < 17:
			old := bundles[r.IntN(len(bundles))]
			if old.corrected {
				continue
			}
			var cs []claim
			for _, c := range old.claims {
				if r.IntN(2) == 0 {
					cs = append(cs, c) // carried over
				} else {
					cs = append(cs, newClaim())
				}
			}
			old.corrected = true
			fams := []string{families[r.IntN(len(families))]}
			bundles = append(bundles, &opened{h.open(old.author, fams, old.hash, cs...), old.author, cs, false})
		case k < 19:
			h.withdraw(bundles[r.IntN(len(bundles))].hash)
		case k < 20:
			if r.IntN(5) == 0 {
				b := bundles[r.IntN(len(bundles))]
				h.retract(b.author, b.hash)
			}
		case k < 23:
			h.wait(time.Duration(r.IntN(3*24)) * time.Hour)
		case k < 27:
			b := bundles[max(0, len(bundles)-1-r.IntN(4))]
			challenges = append(challenges, challenged{h.challengeClaim(ops[r.IntN(len(ops))], b.claims[0].id), b.hash})
		case k < 32 && len(challenges) > 0:
			ch := challenges[r.IntN(len(challenges))]
			verdicts := vocabulary.ChallengeVerdicts
			h.reviewChallenge(ops[r.IntN(len(ops))], ch.index, ch.bundle, verdicts[r.IntN(len(verdicts))])
		default:
			// Verifiers mostly check the newest bundles, so checks pile up
			// on claims as they do in rounds.
			b := bundles[r.IntN(len(bundles))]
			if recent := len(bundles) - 6; recent > 0 && r.IntN(5) > 0 {
				b = bundles[recent+r.IntN(6)]
			}
			c := b.claims[r.IntN(len(b.claims))]
			kind := kinds[r.IntN(len(kinds))]
			vs := verdicts[kind]
			// Each claim holds or not (one in four does not), and most
			// verdicts say so; the rest are anything, idle ones too.
			v := vs[0]
			if c.id[len(c.id)-1]%4 == 0 {
				v = vs[1]
			}
			if r.IntN(4) == 0 {
				v = vs[r.IntN(len(vs))]
			}
			h.attest(kind, ops[r.IntN(len(ops))], families[r.IntN(len(families))], b.hash, c.id, v)
		}
	}
	return h
}

// TestDerivationProperties derives randomized histories of thousands of
// entries three ways, which must agree claim by claim: all at once; one
// leaf at a time with claims read between leaves, as the node reads them;
// and restarted partway, as a node that stopped and read its log again.
// Along the way: a claim once Refuted stays Refuted, Unavailable means
// nothing else, overriding statuses hide the hallmarks, and every status
// is one the protocol names.
func TestDerivationProperties(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			h := randomHistory(t, seed, 3000)
			end := h.at.Add(40 * 24 * time.Hour)
			whole, err := status.Derive(h.leaves, h.readFile, end)
			if err != nil {
				t.Fatal(err)
			}
			live := status.New(h.readFile)
			restarted := status.New(h.readFile)
			cut := len(h.leaves) / 2
			refuted := map[string]bool{}
			for i, leaf := range h.leaves {
				if err := live.Add(uint64(i), leaf); err != nil {
					t.Fatal(err)
				}
				if i == cut {
					for j := range cut + 1 {
						if err := restarted.Add(uint64(j), h.leaves[j]); err != nil {
							t.Fatal(err)
						}
					}
				} else if i > cut {
					if err := restarted.Add(uint64(i), leaf); err != nil {
						t.Fatal(err)
					}
				}
				if i%50 != 0 {
					continue
				}
				at := leafTime(t, leaf)
				if i%300 == 0 {
					checkIndex(t, live, at, i)
				}
				for _, id := range live.IDs() {
					c, _ := live.Claim(id, at)
					if refuted[id] && !c.Has("refuted") && !c.Has("unavailable") {
						t.Fatalf("claim %s was Refuted and at entry %d is %v", id, i, c.Statuses)
					}
					refuted[id] = refuted[id] || c.Has("refuted")
				}
			}
			checkIndex(t, live, end, len(h.leaves))
			held := map[string]int{}
			for id, want := range whole {
				for _, d := range []*status.Deriver{live, restarted} {
					got, ok := d.Claim(id, end)
					if !ok || !reflect.DeepEqual(got, want) {
						t.Fatalf("claim %s: derived at once %v %v, read as it grew %v %v", id, want.Statuses, want.Requirements, got.Statuses, got.Requirements)
					}
				}
				for _, s := range want.Statuses {
					if !slices.Contains(vocabulary.Statuses, s) {
						t.Fatalf("claim %s holds %q", id, s)
					}
					held[s]++
				}
				if want.Has("unavailable") && len(want.Statuses) != 1 {
					t.Fatalf("claim %s is Unavailable and more: %v", id, want.Statuses)
				}
				if want.Has("refuted") && slices.ContainsFunc(want.Statuses, func(s string) bool {
					return s == "reproduced" || s == "reviewed" || s == "formally_verified" || s == "replicated"
				}) {
					t.Fatalf("claim %s is Refuted and shows hallmarks: %v", id, want.Statuses)
				}
			}
			// Challenges lapse in 14 days: count the contested at the log's
			// last moment instead.
			soon, err := status.Derive(h.leaves, h.readFile, h.at)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range soon {
				if c.Has("contested") {
					held["contested"]++
				}
			}
			t.Logf("%d claims from %d entries: %v", len(whole), len(h.leaves), held)
			for _, s := range []string{"published", "reproduced", "reviewed", "formally_verified", "contested", "refuted", "retracted", "unavailable"} {
				if held[s] == 0 {
					t.Errorf("no claim of %d holds %s: the history tests too little (%v)", len(whole), s, held)
				}
			}
		})
	}
}

func leafTime(t *testing.T, leaf []byte) time.Time {
	t.Helper()
	var v struct{ Timestamp string }
	if err := jsonUnmarshal(leaf, &v); err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse(time.RFC3339Nano, v.Timestamp)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// checkIndex checks that d's status index lists, for every status, the
// claims whose derived statuses hold it as of now.
func checkIndex(t *testing.T, d *status.Deriver, now time.Time, at int) {
	t.Helper()
	want := map[string][]string{}
	for _, id := range d.IDs() {
		c, _ := d.Claim(id, now)
		for _, s := range c.Statuses {
			want[s] = append(want[s], id)
		}
		if got := d.Statuses(id, now); !slices.Equal(got, c.Statuses) {
			t.Fatalf("entry %d: the index gives claim %s %v, deriving it %v", at, id, got, c.Statuses)
		}
	}
	for _, s := range vocabulary.Statuses {
		if got := d.WithStatus(now, s); !slices.Equal(got, want[s]) {
			t.Fatalf("entry %d: the index lists %d claims %s, deriving them %d", at, len(got), s, len(want[s]))
		}
	}
}
