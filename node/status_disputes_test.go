package node

import (
	"math/rand/v2"
	"net/http"
	"testing"
	"time"
)

// studyRef is a bundle a history published, with its author.
type studyRef struct {
	by   verifier
	hash string
}

// disputeHistory adds to a published history what disputes and amends
// statuses: challenges by verifiers who can pay for a panel, each
// reviewed by a panel of organizations new to the claims with seeded
// random verdicts (so some are upheld and some rejected); a retraction of
// one paper by its author; and a bundle voided by its author while sealed.
// It reports how many of each it made, so the caller can check the
// history held them.
func disputeHistory(t *testing.T, n *Node, base string, vs []verifier, studies []studyRef, r *rand.Rand) map[string]int {
	t.Helper()
	made := map[string]int{}
	var panel []verifier
	for i, family := range []string{"mistral", "qwen", "deepseek"} {
		panel = append(panel, invitedVerifier(t, n, base, "Disputes panelist "+itoa(uint64(i)), family))
	}
	claimsOf := func(hash string) []string {
		_, v := call(t, "GET", base+"/api/v1/bundles/"+hash, nil)
		var ids []string
		cls, _ := v.(map[string]any)["claims"].([]any)
		for _, c := range cls {
			ids = append(ids, c.(map[string]any)["claim_id"].(string))
		}
		return ids
	}
	grounds := []string{"counterexample", "data", "method"}
	for _, s := range studies[:len(studies)/2] {
		ids := claimsOf(s.hash)
		if len(ids) == 0 {
			continue
		}
		claim := ids[r.IntN(len(ids))]
		for _, v := range vs {
			if v.org == s.by.org || v.record(t, base)["verification"].(map[string]any)["spendable"].(float64) < 3 {
				continue
			}
			status, ans := v.challenge(t, base, claim, grounds[r.IntN(len(grounds))], "The values do not add up as the paper says.")
			if status == http.StatusCreated {
				made["challenge"]++
				answerChallengeReviews(t, base, panel, r, uint64(ans["challenge"].(float64)))
				break
			}
		}
	}
	if len(studies) > 2 {
		s := studies[len(studies)-1]
		body := s.by.retraction(t, s.hash, "error", "The sums were wrong.", "0123456789abcdef0123456789abcdef")
		if status, v := call(t, "POST", base+"/api/v1/retractions", body); status == http.StatusCreated {
			made["retraction"]++
		} else {
			t.Logf("retracting %s: %d %v", s.hash, status, v)
		}
	}
	author := vs[r.IntN(len(vs))]
	body, _ := signedBody(t, author.key, sumBundle(t, author.keyDigest(), author.family, "a study its author voids", true), nil)
	if status, v := call(t, "POST", base+"/api/v1/bundles", body); status == http.StatusAccepted {
		sealed := uint64(v.(map[string]any)["sealed"].(float64))
		void := author.sign(t, map[string]any{"type": "void", "author": author.id, "sealed": sealed})
		if status, v := call(t, "POST", base+"/api/v1/sealed/"+itoa(sealed)+"/void", mustJSON(t, map[string]any{"entry": void})); status == http.StatusCreated || status == http.StatusOK {
			made["void"]++
		} else {
			t.Logf("voiding %d: %d %v", sealed, status, v)
		}
	}
	return made
}

// answerChallengeReviews has the panel take the challenge's review jobs
// and answer each with a seeded random verdict, until none is left.
func answerChallengeReviews(t *testing.T, base string, panel []verifier, r *rand.Rand, index uint64) {
	t.Helper()
	for _, p := range panel {
		status, job := p.request(t, base, map[string]any{"minutes": 30})
		if status != http.StatusOK || job["kind"] != "challenge_review" {
			continue
		}
		verdict := []string{"upheld", "rejected"}[r.IntN(2)]
		body := p.evidenceBody(t, map[string]any{"type": "challenge_review", "reviewer": p.id, "challenge": index,
			"bundle": job["bundle"], "verdict": verdict, "model_family": p.family, "model": p.model}, "I checked the values.")
		if status, ans := call(t, "POST", base+"/api/v1/challenge-reviews", body); status != http.StatusCreated {
			t.Logf("%s's challenge review: %d %v", p.name, status, ans)
		}
	}
}

// workUntilOpen has the verifiers work until every bundle of hashes has
// opened: on a loaded machine a round can move on (its reviews made, its
// opening logged) after a pass in which no job was handed out, so one
// pass of work is not enough to know.
func workUntilOpen(t *testing.T, base string, vs []verifier, hashes []string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		work(t, base, vs)
		sealed := 0
		for _, h := range hashes {
			if _, v := call(t, "GET", base+"/api/v1/bundles/"+h, nil); v.(map[string]any)["state"] != "open" {
				sealed++
			}
		}
		if sealed == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d bundles still sealed after their rounds", sealed, len(hashes))
		}
		time.Sleep(200 * time.Millisecond)
	}
}
