package status_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// history builds a log the way a node writes one: identity, bundle,
// attestation and withdrawal leaves, with the bundle files a Deriver
// reads beside it.
type history struct {
	t      testing.TB
	leaves [][]byte
	files  map[string][]byte
	at     time.Time
	n      int
}

var start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

func newHistory(t testing.TB) *history {
	return &history{t: t, files: map[string][]byte{}, at: start}
}

func (h *history) add(leaf map[string]any) uint64 {
	h.t.Helper()
	h.at = h.at.Add(time.Second)
	leaf["timestamp"] = tlog.FormatTimestamp(h.at)
	data, err := canonical.Marshal(leaf)
	if err != nil {
		h.t.Fatal(err)
	}
	h.leaves = append(h.leaves, data)
	return uint64(len(h.leaves) - 1)
}

func (h *history) wait(d time.Duration) { h.at = h.at.Add(d) }

// identity gives op an identity counting as org.
func (h *history) identity(op, org string) {
	h.add(map[string]any{"entry": map[string]any{"type": "identity", "kind": "domain", "operator": op, "domain": org, "sig": "x"},
		"operator": op, "organization": org})
}

func digest(s string) string { return canonical.Digest([]byte(s)) }

func claimID(s string) string { return "claim:" + digest(s)[len("sha256:"):] }

// claim is a claim as claims.json holds it, with its global ID.
type claim struct {
	id, local, typ string
	computes       bool
	proves         bool
	dependsOn      []string
}

// open reveals a bundle by author written by families, holding cs, and
// correcting replaces when it is not "".
func (h *history) open(author string, families []string, replaces string, cs ...claim) string {
	h.t.Helper()
	h.n++
	hash := digest(fmt.Sprintf("bundle %d", h.n))
	var list, ids []any
	for _, c := range cs {
		var ev map[string]any
		switch {
		case c.computes:
			ev = map[string]any{"result": "r", "produced_by": "code/run.py"}
		case c.proves:
			ev = map[string]any{"proof": "proofs/p.lean", "theorem": "t", "checker": "lean4"}
		default:
			ev = map[string]any{"result": "r", "measured": "data/m.csv"}
		}
		deps := make([]any, len(c.dependsOn))
		for i, d := range c.dependsOn {
			deps[i] = d
		}
		typ := c.typ
		if typ == "" {
			typ = "empirical"
		}
		list = append(list, map[string]any{"local_id": c.local, "type": typ, "statement": c.id, "evidence": []any{ev}, "depends_on": deps})
		ids = append(ids, c.id)
	}
	fams := make([]any, len(families))
	for i, f := range families {
		fams[i] = f
	}
	m, _ := canonical.Marshal(map[string]any{"model_families": fams})
	cl, _ := canonical.Marshal(list)
	h.files[hash+" manifest.json"], h.files[hash+" claims.json"] = m, cl
	leaf := map[string]any{"entry": map[string]any{"type": "bundle", "bundle": hash, "sig": "x"},
		"operator": author, "claims": ids, "fields": []any{"physics"}, "sealed": map[string]any{"index": 0, "salt": "s"}}
	if replaces != "" {
		leaf["replaces"] = replaces
	}
	h.add(leaf)
	return hash
}

// attest logs verifier's verdict on claim id of bundle, as a job of kind.
func (h *history) attest(kind, verifier, family, bundle, id, verdict string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "attestation", "job": kind, "verifier": verifier, "bundle": bundle,
		"claims": map[string]any{id: verdict}, "model_family": family, "model": family + "-1", "evidence": digest("e"), "sig": "x"},
		"operator": verifier})
}

func (h *history) withdraw(bundle string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "withdrawal", "bundle": bundle, "reason": "disowned", "sig": "x"}})
}

func (h *history) readFile(bundle, path string) ([]byte, error) {
	if b, ok := h.files[bundle+" "+path]; ok {
		return b, nil
	}
	return nil, errors.New("no such file")
}

// derive answers for id as of the history's last moment plus after.
func (h *history) derive(id string, after time.Duration) status.Claim {
	h.t.Helper()
	got, err := status.Derive(h.leaves, h.readFile, h.at.Add(after))
	if err != nil {
		h.t.Fatal(err)
	}
	c, ok := got[id]
	if !ok {
		h.t.Fatalf("claim %s not derived", id)
	}
	return c
}

func wantStatuses(t *testing.T, c status.Claim, want ...string) {
	t.Helper()
	if !slices.Equal(c.Statuses, want) {
		t.Fatalf("statuses %v, want %v", c.Statuses, want)
	}
}

// world is an author in org A and verifiers in orgs B, C and D, with
// families that did not write the work.
func world(t *testing.T) *history {
	h := newHistory(t)
	h.identity("op:author", "a.example")
	h.identity("op:b", "b.example")
	h.identity("op:c", "c.example")
	h.identity("op:d", "d.example")
	h.identity("op:a2", "a.example")
	return h
}

var computed = claim{id: claimID("computed"), local: "c1", computes: true}

func TestReproduced(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", computed)
	h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
	if c := h.derive(computed.id, 0); c.Has("reproduced") {
		t.Fatal("one organization reproduced it and it is Reproduced")
	}
	h.attest("reproduction", "op:c", "gemini", b, computed.id, "reproduced")
	wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
}

func TestReproducedVotes(t *testing.T) {
	cases := map[string]func(h *history, b string){
		// Each organization votes once, with its first verdict.
		"one organization twice": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		},
		"the authors' organization": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:a2", "gpt", b, computed.id, "reproduced")
		},
		"could_not_run is no vote": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:c", "gpt", b, computed.id, "could_not_run")
		},
		"no identity counts for no one": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:nobody", "gpt", b, computed.id, "reproduced")
		},
		"first verdict stands": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:c", "gpt", b, computed.id, "mismatch")
			h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
		},
		"outnumbered by mismatches": func(h *history, b string) {
			h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
			h.attest("reproduction", "op:d", "gpt", b, computed.id, "mismatch")
			h.identity("op:e", "e.example")
			h.attest("reproduction", "op:e", "gpt", b, computed.id, "mismatch")
		},
	}
	for name, votes := range cases {
		t.Run(name, func(t *testing.T) {
			h := world(t)
			b := h.open("op:author", []string{"claude"}, "", computed)
			votes(h, b)
			c := h.derive(computed.id, 0)
			if c.Has("reproduced") {
				t.Fatalf("Reproduced: %v", c.Requirements["reproduced"])
			}
		})
	}
}

func TestNotCountedBecause(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", computed)
	h.attest("reproduction", "op:a2", "gpt", b, computed.id, "reproduced")
	h.attest("reproduction", "op:nobody", "gpt", b, computed.id, "reproduced")
	h.attest("reproduction", "op:b", "gpt", b, computed.id, "could_not_run")
	h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
	var got []string
	for _, a := range h.derive(computed.id, 0).Attestations {
		got = append(got, fmt.Sprintf("%v/%s", a.Counted, a.NotCountedBecause))
	}
	want := []string{"false/author", "false/no_identity", "false/no_vote", "true/", "false/repeat"}
	if !slices.Equal(got, want) {
		t.Fatalf("attestations %v, want %v", got, want)
	}
}

func TestMeasuredClaimIsNotReproducible(t *testing.T) {
	h := world(t)
	measured := claim{id: claimID("measured"), local: "m1"}
	b := h.open("op:author", []string{"claude"}, "", measured)
	h.attest("reproduction", "op:b", "gpt", b, measured.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", b, measured.id, "reproduced")
	c := h.derive(measured.id, 0)
	wantStatuses(t, c, "published")
	if r := c.Requirements["reproduced"].(map[string]any); r["applies"] != false {
		t.Fatalf("reproduced applies to a measured claim: %v", r)
	}
}

func failed(t *testing.T) (*history, string) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", computed)
	h.attest("reproduction", "op:b", "gpt", b, computed.id, "mismatch")
	h.attest("reproduction", "op:c", "gpt", b, computed.id, "mismatch")
	return h, b
}

func TestRefutedAfterCorrectBy(t *testing.T) {
	h, _ := failed(t)
	c := h.derive(computed.id, 0)
	if r := c.Requirements["reproduced"].(map[string]any); r["failed"] != true {
		t.Fatalf("two mismatches and the reproduction has not failed: %v", r)
	}
	wantStatuses(t, c, "published")
	if c.CorrectBy.IsZero() {
		t.Fatal("a failed reproduction gives no correct_by")
	}
	wantStatuses(t, h.derive(computed.id, status.CorrectWithin), "published", "refuted")
}

func TestRefutedIsFinal(t *testing.T) {
	h, b := failed(t)
	h.wait(status.CorrectWithin + time.Hour)
	h.identity("op:e", "e.example")
	h.identity("op:f", "f.example")
	h.identity("op:g", "g.example")
	for _, op := range []string{"op:d", "op:e", "op:f", "op:g"} {
		h.attest("reproduction", op, "gpt", b, computed.id, "reproduced")
	}
	wantStatuses(t, h.derive(computed.id, 0), "published", "refuted")
}

func TestAppealedBeforeCorrectByIsNotRefuted(t *testing.T) {
	h, b := failed(t)
	h.identity("op:e", "e.example")
	h.identity("op:f", "f.example")
	for _, op := range []string{"op:d", "op:e", "op:f"} {
		h.attest("reproduction", op, "gpt", b, computed.id, "reproduced")
	}
	wantStatuses(t, h.derive(computed.id, status.CorrectWithin*2), "published", "reproduced")
}

func TestCorrectedAwayIsNotRefuted(t *testing.T) {
	h, b := failed(t)
	changed := claim{id: claimID("computed, fixed"), local: "c1", computes: true}
	h.open("op:author", []string{"claude"}, b, changed)
	c := h.derive(computed.id, status.CorrectWithin*2)
	if c.Has("refuted") {
		t.Fatal("a claim its author corrected away within correct_by is Refuted")
	}
}

func TestCorrectionAfterCorrectByIsTooLate(t *testing.T) {
	h, b := failed(t)
	h.wait(status.CorrectWithin + time.Hour)
	h.open("op:author", []string{"claude"}, b, claim{id: claimID("later"), local: "c1", computes: true})
	if c := h.derive(computed.id, 0); !c.Has("refuted") {
		t.Fatalf("corrected after correct_by and not Refuted: %v", c.Statuses)
	}
}

var proved = claim{id: claimID("proved"), local: "p1", typ: "theoretical", proves: true}

func TestFormallyVerified(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", proved)
	h.attest("proof_check", "op:b", "gpt", b, proved.id, "passed")
	h.attest("proof_check", "op:a2", "gpt", b, proved.id, "passed")
	if h.derive(proved.id, 0).Has("formally_verified") {
		t.Fatal("formally verified by the authors' own organization")
	}
	h.attest("proof_check", "op:c", "gpt", b, proved.id, "passed")
	wantStatuses(t, h.derive(proved.id, 0), "published", "formally_verified")
	h.attest("proof_check", "op:d", "gpt", b, proved.id, "failed")
	h.identity("op:e", "e.example")
	h.attest("proof_check", "op:e", "gpt", b, proved.id, "failed")
	c := h.derive(proved.id, 0)
	if c.Has("formally_verified") {
		t.Fatal("two passes and two failures and it is formally verified")
	}
	h.identity("op:f", "f.example")
	h.attest("proof_check", "op:f", "gpt", b, proved.id, "failed")
	if r := h.derive(proved.id, 0).Requirements["formally_verified"].(map[string]any); r["rejected"] != true {
		t.Fatalf("three failures against two passes and the proof is not rejected: %v", r)
	}
}

var measuredClaim = claim{id: claimID("reviewed"), local: "r1"}

func review(h *history, b, id string, verdicts ...string) {
	ops := []string{"op:b", "op:c", "op:d"}
	families := []string{"gpt", "gemini", "gpt"}
	for i, kind := range []string{"methods_review", "domain_review", "adversarial_review"} {
		h.attest(kind, ops[i], families[i], b, id, verdicts[i])
	}
}

func TestReviewed(t *testing.T) {
	cases := map[string]struct {
		verdicts []string
		want     bool
	}{
		"all sound":          {[]string{"sound", "sound", "minor_issues"}, true},
		"median minor":       {[]string{"sound", "minor_issues", "unsound"}, true},
		"median major":       {[]string{"sound", "major_issues", "unsound"}, false},
		"could_not_judge":    {[]string{"sound", "sound", "could_not_judge"}, false},
		"all minor":          {[]string{"minor_issues", "minor_issues", "minor_issues"}, true},
		"two of three major": {[]string{"major_issues", "sound", "major_issues"}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := world(t)
			b := h.open("op:author", []string{"claude"}, "", measuredClaim)
			review(h, b, measuredClaim.id, tc.verdicts...)
			if got := h.derive(measuredClaim.id, 0).Has("reviewed"); got != tc.want {
				t.Fatalf("Reviewed %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReviewedNeedsTwoFamiliesNoneThatWroteIt(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", measuredClaim)
	h.attest("methods_review", "op:b", "gpt", b, measuredClaim.id, "sound")
	h.attest("domain_review", "op:c", "gpt", b, measuredClaim.id, "sound")
	h.attest("adversarial_review", "op:d", "claude", b, measuredClaim.id, "sound")
	c := h.derive(measuredClaim.id, 0)
	if c.Has("reviewed") {
		t.Fatal("Reviewed by one family besides the one that wrote it")
	}
	h.identity("op:e", "e.example")
	h.attest("adversarial_review", "op:e", "gemini", b, measuredClaim.id, "sound")
	wantStatuses(t, h.derive(measuredClaim.id, 0), "published", "reviewed")
}

func TestComputedClaimIsReproducedBeforeReviewed(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", computed)
	review(h, b, computed.id, "sound", "sound", "sound")
	if h.derive(computed.id, 0).Has("reviewed") {
		t.Fatal("a computed claim not reproduced is Reviewed")
	}
	h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
	wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced", "reviewed")
}

func TestOtherVersionsReviewsDoNotCount(t *testing.T) {
	h := world(t)
	v1 := h.open("op:author", []string{"claude"}, "", measuredClaim)
	review(h, v1, measuredClaim.id, "sound", "sound", "sound")
	v2 := h.open("op:author", []string{"claude"}, v1, measuredClaim)
	// Until all three of the correction's reviews are in, the version
	// before's still count.
	h.attest("methods_review", "op:b", "gpt", v2, measuredClaim.id, "unsound")
	c := h.derive(measuredClaim.id, 0)
	if !c.Has("reviewed") || c.Requirements["reviewed"].(map[string]any)["bundle"] != v1 {
		t.Fatalf("reviews of the version before stopped counting early: %v", c.Requirements["reviewed"])
	}
	h.attest("domain_review", "op:c", "gemini", v2, measuredClaim.id, "unsound")
	h.attest("adversarial_review", "op:d", "gpt", v2, measuredClaim.id, "major_issues")
	c = h.derive(measuredClaim.id, 0)
	if c.Has("reviewed") {
		t.Fatal("the correction's unfavourable reviews in, and the old ones still make it Reviewed")
	}
	others := 0
	for _, a := range c.Attestations {
		if a.Bundle == v1 {
			if a.Counted || a.NotCountedBecause != "other_version" {
				t.Fatalf("a review of the version before: counted %v because %q", a.Counted, a.NotCountedBecause)
			}
			others++
		}
	}
	if others != 3 {
		t.Fatalf("%d reviews of the version before listed, want 3", others)
	}
}

func TestReplicated(t *testing.T) {
	h := world(t)
	original := measuredClaim
	h.open("op:author", []string{"claude"}, "", original)
	h.identity("op:r", "r.example")
	replication := claim{id: claimID("replication"), local: "rep", typ: "replication", dependsOn: []string{original.id}}
	rb := h.open("op:r", []string{"gpt"}, "", replication)
	h.attest("replication_match", "op:b", "gpt", rb, replication.id, "matched")
	h.attest("replication_match", "op:r", "gpt", rb, replication.id, "matched")
	if h.derive(original.id, 0).Has("replicated") {
		t.Fatal("replicated on a match by the replication's own authors")
	}
	h.attest("replication_match", "op:c", "gpt", rb, replication.id, "matched")
	wantStatuses(t, h.derive(original.id, 0), "published", "replicated")
	h.attest("replication_match", "op:d", "gpt", rb, replication.id, "mismatched")
	wantStatuses(t, h.derive(original.id, 0), "published")
}

func TestReplicationByTheSameOrganizationDoesNotCount(t *testing.T) {
	h := world(t)
	h.open("op:author", []string{"claude"}, "", measuredClaim)
	replication := claim{id: claimID("own replication"), local: "rep", typ: "replication", dependsOn: []string{measuredClaim.id}}
	rb := h.open("op:a2", []string{"gpt"}, "", replication)
	h.attest("replication_match", "op:b", "gpt", rb, replication.id, "matched")
	h.attest("replication_match", "op:c", "gpt", rb, replication.id, "matched")
	wantStatuses(t, h.derive(measuredClaim.id, 0), "published")
}

func TestUnavailable(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", computed)
	h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
	at := h.withdraw(b)
	c := h.derive(computed.id, 0)
	wantStatuses(t, c, "unavailable")
	if each := c.Requirements["unavailable"].(map[string]any)["logs"].(map[string]any)["each"]; each != at {
		t.Fatalf("unavailable names entry %v, want the withdrawal %d", each, at)
	}
	if len(c.Attestations) != 2 {
		t.Fatalf("a withdrawn claim's verdicts left the record: %d", len(c.Attestations))
	}
}

func TestCarriedOverClaimKeepsReproductions(t *testing.T) {
	h := world(t)
	v1 := h.open("op:author", []string{"claude"}, "", computed)
	h.attest("reproduction", "op:b", "gpt", v1, computed.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", v1, computed.id, "reproduced")
	h.open("op:author", []string{"claude"}, v1, computed)
	wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
}

func TestAddInOrder(t *testing.T) {
	d := status.New(nil)
	if err := d.Add(1, []byte(`{}`)); err == nil {
		t.Fatal("leaf 1 added first")
	}
	for _, bad := range []string{`nope`, `{"timestamp": 1}`, `{"entry": {}}`, `{"entry": {"type": "key"}, "timestamp": "yesterday"}`} {
		if err := d.Add(0, []byte(bad)); err == nil {
			t.Fatalf("leaf %s added", bad)
		}
	}
	if d.Size() != 0 {
		t.Fatalf("size %d after only refused leaves", d.Size())
	}
}

func (h *history) challengeClaim(challenger, id string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "challenge", "challenger": challenger, "claim": id,
		"ground": "counterexample", "evidence": digest("case " + challenger), "sig": "x"}, "operator": challenger})
}

func (h *history) reviewChallenge(reviewer string, challenge uint64, bundle, verdict string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "challenge_review", "reviewer": reviewer, "challenge": challenge,
		"bundle": bundle, "verdict": verdict, "evidence": digest("panel"), "model_family": "gpt", "sig": "x"}, "operator": reviewer})
}

func TestChallenges(t *testing.T) {
	setup := func(t *testing.T) (*history, string, uint64) {
		h := world(t)
		b := h.open("op:author", []string{"claude"}, "", computed)
		h.attest("reproduction", "op:b", "gpt", b, computed.id, "reproduced")
		h.attest("reproduction", "op:c", "gpt", b, computed.id, "reproduced")
		h.identity("op:e", "e.example")
		h.identity("op:f", "f.example")
		h.identity("op:e2", "e.example")
		return h, b, h.challengeClaim("op:d", computed.id)
	}
	t.Run("contested while open", func(t *testing.T) {
		h, _, _ := setup(t)
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
	})
	t.Run("upheld refutes", func(t *testing.T) {
		h, b, ch := setup(t)
		h.reviewChallenge("op:e", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
		h.reviewChallenge("op:f", ch, b, "upheld")
		c := h.derive(computed.id, 0)
		wantStatuses(t, c, "published", "refuted")
		if c.Requirements["refuted"].(map[string]any)["challenge"] != ch {
			t.Fatalf("refuted names %v, want the challenge %d", c.Requirements["refuted"], ch)
		}
	})
	t.Run("rejected lifts contested", func(t *testing.T) {
		h, b, ch := setup(t)
		h.reviewChallenge("op:e", ch, b, "rejected")
		h.reviewChallenge("op:f", ch, b, "rejected")
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	})
	t.Run("one organization is one panelist", func(t *testing.T) {
		h, b, ch := setup(t)
		h.reviewChallenge("op:e", ch, b, "upheld")
		h.reviewChallenge("op:e2", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
	})
	t.Run("the challenger's and the authors' organizations do not sit", func(t *testing.T) {
		h, b, ch := setup(t)
		h.identity("op:d2", "d.example")
		h.reviewChallenge("op:d2", ch, b, "upheld")
		h.reviewChallenge("op:a2", ch, b, "rejected")
		h.reviewChallenge("op:e", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
	})
	t.Run("could_not_judge is no vote", func(t *testing.T) {
		h, b, ch := setup(t)
		h.reviewChallenge("op:e", ch, b, "could_not_judge")
		h.reviewChallenge("op:f", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "contested")
	})
	t.Run("void after its window", func(t *testing.T) {
		h, b, ch := setup(t)
		wantStatuses(t, h.derive(computed.id, status.ChallengeWindow), "published", "reproduced")
		h.wait(status.ChallengeWindow)
		h.reviewChallenge("op:e", ch, b, "upheld")
		h.reviewChallenge("op:f", ch, b, "upheld")
		wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	})
}

func (h *history) retract(author, bundle string) uint64 {
	return h.add(map[string]any{"entry": map[string]any{"type": "retraction", "author": author, "bundle": bundle,
		"reason": "error", "notice": digest("notice"), "sig": "x"}, "operator": author})
}

func TestRetracted(t *testing.T) {
	h := world(t)
	v1 := h.open("op:author", []string{"claude"}, "", computed, measuredClaim)
	h.attest("reproduction", "op:b", "gpt", v1, computed.id, "reproduced")
	h.attest("reproduction", "op:c", "gpt", v1, computed.id, "reproduced")
	v2 := h.open("op:author", []string{"claude"}, v1, computed)
	h.retract("op:b", v2) // not its author: nothing
	wantStatuses(t, h.derive(computed.id, 0), "published", "reproduced")
	at := h.retract("op:author", v2)
	c := h.derive(computed.id, 0)
	wantStatuses(t, c, "published", "retracted")
	if c.Requirements["retracted"].(map[string]any)["retraction"] != at {
		t.Fatalf("retracted names %v, want entry %d", c.Requirements["retracted"], at)
	}
	// A retraction covers every version: the claim only the first held.
	wantStatuses(t, h.derive(measuredClaim.id, 0), "published", "retracted")
}

func TestRetractedBesideRefuted(t *testing.T) {
	h, b := failed(t)
	h.wait(status.CorrectWithin + time.Hour)
	h.retract("op:author", b)
	wantStatuses(t, h.derive(computed.id, 0), "published", "refuted", "retracted")
}

func TestPreregistered(t *testing.T) {
	h := world(t)
	entry := map[string]any{"type": "preregistration", "operator": "op:author", "plan": digest("plan"), "report_by": "2027-06-01", "sig": "x"}
	at := h.add(map[string]any{"entry": entry, "operator": "op:author"})
	id, err := protocol.PreregistrationID(entry)
	if err != nil {
		t.Fatal(err)
	}
	b := h.open("op:author", []string{"claude"}, "", computed, measuredClaim)
	h.files[b+" references.json"], _ = canonical.Marshal([]any{map[string]any{"id": id, "claims": []any{"c1"}}})
	d := status.New(h.readFile)
	for i, leaf := range h.leaves {
		if err := d.Add(uint64(i), leaf); err != nil {
			t.Fatal(err)
		}
	}
	p, ok := d.PreregistrationOf(computed.id)
	if !ok || p.ID != id || p.Index != at || p.Bundle != b || p.Organization != "a.example" {
		t.Fatalf("the claim the plan covers: %+v %v", p, ok)
	}
	if _, ok := d.PreregistrationOf(measuredClaim.id); ok {
		t.Fatal("a claim the reference does not list is covered")
	}
	if reg, _ := d.Preregistration(id); !slices.Equal(reg.Bundles, []string{b}) {
		t.Fatalf("the registration's bundles: %v", reg.Bundles)
	}
}

func TestDependsOnAndWaiting(t *testing.T) {
	h, _ := failed(t)
	h.wait(status.CorrectWithin + time.Hour)
	middle := claim{id: claimID("middle"), local: "mid", dependsOn: []string{computed.id}}
	top := claim{id: claimID("top"), local: "top", dependsOn: []string{middle.id}}
	h.open("op:author", []string{"claude"}, "", middle)
	h.open("op:b", []string{"gpt"}, "", top)
	got, err := status.Derive(h.leaves, h.readFile, h.at)
	if err != nil {
		t.Fatal(err)
	}
	if !got[computed.id].Has("refuted") {
		t.Fatalf("the failed claim: %v", got[computed.id].Statuses)
	}
	d := status.New(h.readFile)
	for i, leaf := range h.leaves {
		if err := d.Add(uint64(i), leaf); err != nil {
			t.Fatal(err)
		}
	}
	if deps := d.DependsOnHeld(top.id, "refuted", h.at); !slices.Equal(deps, []string{computed.id}) {
		t.Fatalf("top rests on refuted %v, want the failed claim through the middle one", deps)
	}
	waiting := d.WaitingReplication(h.at)
	if len(waiting) != 2 || waiting[0].Claim != middle.id || waiting[0].Dependents != 1 {
		t.Fatalf("waiting for replication: %+v, want middle (one claim builds on it) first", waiting)
	}
}

func TestCitations(t *testing.T) {
	h := world(t)
	b := h.open("op:author", []string{"claude"}, "", measuredClaim)
	check := func(op, verdict string) {
		h.add(map[string]any{"entry": map[string]any{"type": "citation_check", "checker": op, "bundle": b,
			"citations": map[string]any{"doi:10.1/x": verdict}, "sig": "x"}, "operator": op})
	}
	check("op:b", "supports")
	check("op:b", "does_not_support") // its organization's first verdict stands
	check("op:c", "could_not_access")
	check("op:nobody", "supports") // no identity, no organization
	d := status.New(h.readFile)
	for i, leaf := range h.leaves {
		if err := d.Add(uint64(i), leaf); err != nil {
			t.Fatal(err)
		}
	}
	got := d.Citations(b)["doi:10.1/x"].Verdicts
	if len(got) != 2 || got["supports"] != 1 || got["could_not_access"] != 1 {
		t.Fatalf("citation verdicts %v", got)
	}
}
