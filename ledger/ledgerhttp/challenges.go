package ledgerhttp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// Challenges ("Challenging a claim"): POST /api/v1/challenges takes a
// signed challenge with its evidence, logs it at once (the claim is
// Contested from then on) and makes a panel of PanelSize challenge_review
// jobs the challenger prepays; POST /api/v1/challenge-reviews takes a
// panelist's signed verdict; GET /api/v1/challenges/{index} says where one
// stands. What a challenge's entries settle, ledger/status derives from
// the log; the node settles the credit once it is settled or void.

// PanelSize is how many reviews a challenger prepays.
const PanelSize = 3

func (s *Server) routeChallenges() {
	s.mux.Handle("POST /api/v1/challenges", s.serve(s.challenge))
	s.mux.Handle("GET /api/v1/challenges/{index}", s.serve(s.getChallenge))
	s.mux.Handle("POST /api/v1/challenge-reviews", s.serve(s.challengeReview))
	s.mux.Handle("POST /api/v1/bundles/{hash}/appeal", s.serve(s.appealBundle))
}

// challengeBook is the node's own state for challenges: opening is held
// from a challenge's checks to its panel, so two challenges to one claim
// never both open (and from a retraction's checks to its entry); settled are the challenges whose credit this process
// settled, under settleMu (after a restart each is settled once more,
// which moves nothing).
type challengeBook struct {
	opening  sync.Mutex
	settleMu sync.Mutex
	settled  map[uint64]bool
	// appealsSettled are the appeals whose credit this process settled,
	// by their movement's key.
	appealsSettled map[string]bool
}

func conflict(code, format string, args ...any) error {
	return &httpapi.Error{Status: http.StatusConflict, Code: code, Message: fmt.Sprintf(format, args...)}
}

// challenge answers POST /api/v1/challenges.
func (s *Server) challenge(r *http.Request) (any, int, error) {
	entry, body, err := s.signedObject(r, "challenge")
	if err != nil {
		return nil, 0, err
	}
	if _, bare := body["type"]; bare {
		return nil, 0, httpapi.BadRequest("bad_request", `The body is {"entry": <challenge>, "evidence": {"files": {path: base64}}}`)
	}
	ctx, now := r.Context(), s.now()
	ch, list := jobs.CheckChallenge(entry)
	op, identity, err := s.signedAnswer(ctx, ch.Challenger, entry, list, "invalid_challenge", "The challenge")
	if err != nil {
		return nil, 0, err
	}
	found, err := s.store.Claim(ctx, ch.Claim)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, httpapi.NotFound("No claim %s is published here", ch.Claim)
	}
	if err != nil {
		return nil, 0, err
	}
	var current *ledger.FoundClaim
	for i := range found {
		if !found[i].Withdrawn {
			current = &found[i]
		}
	}
	if current == nil {
		return nil, 0, conflict("withdrawn", "No current version of a bundle holds %s: it was withdrawn", ch.Claim)
	}
	b, err := s.store.Bundle(ctx, current.Bundle)
	if err != nil {
		return nil, 0, err
	}
	author, err := s.store.Operator(ctx, b.Operator)
	if err != nil {
		return nil, 0, err
	}
	authorOrg := author.ID
	if id, ok := author.Identity(); ok {
		authorOrg = id.Organization
	}
	if authorOrg == identity.Organization {
		return nil, 0, conflict("own_claim", "Your organization published %s: correct it instead of challenging it (a bundle whose manifest says \"replaces\")", ch.Claim)
	}
	if ch.Ground == "reproduction" && !computes(current.Claim) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_challenge",
			Message: "The reproduction ground applies only to a claim whose evidence includes a computation; choose counterexample, data or integrity"}
	}
	files, err := evidenceFiles(body, ch.Evidence)
	if err != nil {
		return nil, 0, err
	}
	each := 1
	if ch.Ground == "reproduction" {
		if each, err = s.reproductionPrice(ctx, b); err != nil {
			return nil, 0, err
		}
	}
	cost := PanelSize * each

	s.challenges.opening.Lock()
	defer s.challenges.opening.Unlock()
	unlock, err := s.acrossProcesses(ctx, "challenges.opening")
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	var refused error
	var verdictOrgs []string
	err = s.derived(ctx, func(d *status.Deriver) error {
		c, _ := d.Claim(ch.Claim, now)
		switch {
		case c.Has("refuted"):
			refused = conflict("refuted", "%s is refuted already, for good", ch.Claim)
		case c.Has("retracted"):
			refused = conflict("retracted", "%s was retracted", ch.Claim)
		case c.Has("contested"):
			refused = conflict("challenge_open", "A challenge to %s is open: one at a time (GET /api/v1/claims/%s lists it)", ch.Claim, ch.Claim)
		case d.EvidenceUsed(ch.Claim, ch.Evidence, now):
			refused = conflict("evidence_used", "A challenge to %s used this evidence already; bring new evidence", ch.Claim)
		}
		for _, a := range c.Attestations {
			if a.Organization != "" && !slices.Contains(verdictOrgs, a.Organization) {
				verdictOrgs = append(verdictOrgs, a.Organization)
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if refused != nil {
		return nil, 0, refused
	}
	acct, err := s.account(ctx, op)
	if err != nil {
		return nil, 0, err
	}
	if acct.verification.Spendable < cost {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "verify_first",
			Message: fmt.Sprintf("The panel costs %d credits, more than the %d you may spend: do verification jobs to earn credit", cost, acct.verification.Spendable)}
	}
	if err := s.keepEvidence(ctx, ch.Evidence, files); err != nil {
		return nil, 0, fmt.Errorf("storing evidence: %w", err)
	}
	index, err := s.logSigned(ctx, op, entry)
	if err != nil {
		return nil, 0, err
	}
	evidence := map[string]any{}
	inline := map[string]any{}
	for p, data := range files {
		evidence[p] = canonical.Digest(data)
		inline[p] = base64.StdEncoding.EncodeToString(data)
	}
	detail := map[string]any{"challenge": map[string]any{"index": index, "claim": ch.Claim, "ground": ch.Ground,
		"evidence": evidence, "evidence_files": inline}}
	families := slices.Clone(s.bundleFamilies(b))
	if ch.ModelFamily != "" {
		families = append(families, ch.ModelFamily)
	}
	excluded := append([]string{authorOrg, identity.Organization}, verdictOrgs...)
	var minutes float64
	if ch.Ground == "reproduction" {
		minutes = s.bundleMinutes(b)
	}
	// The job lists the bundle's claims, as every job does, the challenged
	// one alone needing a verdict: the reference harness checks the claim
	// IDs a job names against the files it carries.
	claimList, _ := claimsMarked(b, func(c ledger.Claim) bool { return c.ID == ch.Claim })
	var panel []ledger.CheckJob
	for n := range PanelSize {
		panel = append(panel, ledger.CheckJob{Job: ledger.Job{ID: challengeJobID(index, n), Kind: jobs.ChallengeReview, Bundle: b.Hash,
			Urgency: jobs.UrgencyChallenge, AuthorOrgs: excluded, AuthorFamilies: families, Claims: claimList, Credits: each,
			Minutes: minutes, Created: now}, Needs: ledger.JobNeeds{Detail: detailJSON(detail)}})
	}
	pay := []jobs.Movement{{Operator: op.ID, Kind: jobs.Spent, Amount: -cost, Key: challengeKey(index), At: now}}
	if err := s.store.CreateCheckJobs(ctx, panel, pay); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return nil, 0, fmt.Errorf("making challenge %d's panel: %w", index, err)
	}
	return map[string]any{"challenge": index, "claim": ch.Claim, "state": status.ChallengeOpen, "price": cost,
		"panel": PanelSize, "void_at": tlog.FormatTimestamp(now.Add(status.ChallengeWindow))}, http.StatusCreated, nil
}

func challengeJobID(index uint64, n int) string {
	return roundJobID("challenge:"+strconv.FormatUint(index, 10), jobs.ChallengeReview, n)
}

func challengeKey(index uint64) string { return "challenge:" + strconv.FormatUint(index, 10) }

// reproductionPrice is what one of b's reproductions pays, as its round
// priced them; 1 when it had none.
func (s *Server) reproductionPrice(ctx context.Context, b ledger.Bundle) (int, error) {
	all, err := s.store.BundleJobs(ctx, b.Hash)
	if err != nil {
		return 0, err
	}
	for _, j := range all {
		if j.Kind == jobs.Reproduction {
			return max(1, j.Credits), nil
		}
	}
	return 1, nil
}

// bundleFamilies are the model families b's manifest says wrote it.
func (s *Server) bundleFamilies(b ledger.Bundle) []string {
	m, err := s.bundleManifest(b)
	if err != nil || m == nil {
		return nil
	}
	return m.ModelFamilies
}

// bundleMinutes is what re-running b declares.
func (s *Server) bundleMinutes(b ledger.Bundle) float64 {
	m, err := s.bundleManifest(b)
	if err != nil || m == nil {
		return 0
	}
	return m.Compute.Minutes
}

var challengeKind = checkKind{kind: jobs.ChallengeReview, answer: "challenge_review",
	check: func(e map[string]any) (checkAnswer, []jobs.Issue) {
		c, list := jobs.CheckChallengeReview(e)
		verdicts := map[string]string{strconv.FormatUint(c.Challenge, 10): c.Verdict}
		return checkAnswer{c.Reviewer, c.Bundle, c.ModelFamily, c.Evidence, verdicts, c.Verdict != "could_not_judge"}, list
	},
	listed: func(ctx context.Context, s *Server, j ledger.Job) ([]string, string, string, error) {
		view := map[string]any{}
		if err := s.addCheckDetail(ctx, j, view); err != nil {
			return nil, "", "", err
		}
		ch, _ := view["challenge"].(map[string]any)
		return []string{fmt.Sprint(ch["index"])}, "/challenge", "challenge", nil
	},
	after: func(ctx context.Context, s *Server, j ledger.Job) error {
		return s.settleChallenges(ctx)
	},
	sealedUntil: func(ctx context.Context, s *Server, j ledger.Job) error {
		return s.revealPanel(ctx, j)
	},
	reply: func(ctx context.Context, s *Server, j ledger.Job, index uint64) (map[string]any, error) {
		return s.challengeReply(ctx, j, index)
	},
}

// challengeReply is what a panelist's review answers besides its index
// (challenge_review): the index again as review, and where the challenge
// stands now, as challenge, which the reference harness prints.
func (s *Server) challengeReply(ctx context.Context, j ledger.Job, index uint64) (map[string]any, error) {
	view := map[string]any{}
	if err := s.addCheckDetail(ctx, j, view); err != nil {
		return nil, err
	}
	ch, _ := view["challenge"].(map[string]any)
	n, ok := ch["index"].(float64)
	if !ok {
		return nil, fmt.Errorf("job %s names no challenge", j.ID)
	}
	state := status.ChallengeOpen
	err := s.derived(ctx, func(d *status.Deriver) error {
		if c, ok := d.Challenge(uint64(n), s.now()); ok {
			state = c.State
		}
		return nil
	})
	return map[string]any{"review": index, "challenge": state}, err
}

func (s *Server) challengeReview(r *http.Request) (any, int, error) {
	return s.answerCheck(r, challengeKind)
}

// settleChallenges settles the credit of every challenge the log has
// settled or voided: the reviews not done come back to the challenger,
// the rest of the panel's jobs close, and an upheld challenge's reviews
// are paid back to it by the claim's author. Each movement has a key of
// its own, so settling again moves nothing.
func (s *Server) settleChallenges(ctx context.Context) error {
	now := s.now()
	var settled []status.Challenge
	if err := s.derived(ctx, func(d *status.Deriver) error {
		for _, index := range d.SettledChallenges(now) {
			ch, _ := d.Challenge(index, now)
			settled = append(settled, ch)
		}
		return nil
	}); err != nil {
		return err
	}
	s.challenges.settleMu.Lock()
	defer s.challenges.settleMu.Unlock()
	unlock, err := s.acrossProcesses(ctx, "challenges.settle")
	if err != nil {
		return err
	}
	defer unlock()
	if s.challenges.settled == nil {
		s.challenges.settled = map[uint64]bool{}
	}
	done := s.challenges.settled
	for _, ch := range settled {
		if done[ch.Index] {
			continue
		}
		if err := s.settleChallenge(ctx, ch, now); err != nil {
			return err
		}
		done[ch.Index] = true
	}
	return nil
}

func (s *Server) settleChallenge(ctx context.Context, ch status.Challenge, now time.Time) error {
	var ids []string
	done, each := 0, 0
	var bundle string
	for n := range PanelSize {
		j, err := s.store.Job(ctx, challengeJobID(ch.Index, n))
		if errors.Is(err, store.ErrNotFound) {
			return nil // a challenge this node made no panel for
		}
		if err != nil {
			return err
		}
		each, bundle = j.Credits, j.Bundle
		if j.Done {
			done++
		} else if !j.Done {
			ids = append(ids, j.ID)
		}
	}
	if ch.State == status.ChallengeVoid {
		// A void challenge's reviews are logged, opened, without counting.
		reviews, err := s.panelAnswers(ctx, ch.Index, bundle)
		if err != nil {
			return err
		}
		if err := s.revealAnswers(ctx, reviews); err != nil {
			return err
		}
	}
	key := challengeKey(ch.Index)
	var moves []jobs.Movement
	if back := (PanelSize - done) * each; back > 0 {
		moves = append(moves, jobs.Movement{Operator: ch.Challenger, Kind: jobs.Refunded, Amount: back, Key: key + ":unused", At: now})
	}
	if ch.State == status.ChallengeUpheld && done > 0 {
		b, err := s.store.Bundle(ctx, bundle)
		if err != nil {
			return err
		}
		moves = append(moves,
			jobs.Movement{Operator: ch.Challenger, Kind: jobs.Refunded, Amount: done * each, Key: key + ":upheld", At: now},
			jobs.Movement{Operator: b.Operator, Kind: jobs.Lost, Amount: -done * each, Key: key + ":author", At: now})
	}
	if len(ids) > 0 {
		if _, err := s.store.RetireJobs(ctx, ids, nil); err != nil {
			return err
		}
	}
	_, err := s.store.AddMovements(ctx, moves)
	return err
}

// getChallenge answers GET /api/v1/challenges/{index}.
func (s *Server) getChallenge(r *http.Request) (any, int, error) {
	index, err := strconv.ParseUint(r.PathValue("index"), 10, 63)
	if err != nil {
		return nil, 0, httpapi.BadRequest("bad_request", "%q is not a log index", r.PathValue("index"))
	}
	var ch status.Challenge
	found := false
	if err := s.derived(r.Context(), func(d *status.Deriver) error {
		ch, found = d.Challenge(index, s.now())
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, httpapi.NotFound("No challenge is logged at %d", index)
	}
	signed, err := s.store.Signed(r.Context(), int64(index))
	if err != nil {
		return nil, 0, err
	}
	entry, _ := canonical.Parse(signed.Entry)
	reviews := []any{}
	if ch.State != status.ChallengeOpen {
		// The panel's reviews show once it agrees, so no panelist follows
		// another.
		for i, v := range ch.Reviews {
			var because any
			if !ch.CountedReview[i] {
				because = "not_counted"
			}
			reviews = append(reviews, map[string]any{"index": v.Index, "reviewer": v.Verifier, "verdict": v.Verdict,
				"model_family": v.ModelFamily, "counted": ch.CountedReview[i], "not_counted_because": because})
		}
	}
	var settledAt any
	if !ch.SettledAt.IsZero() {
		settledAt = tlog.FormatTimestamp(ch.SettledAt)
	}
	return map[string]any{"challenge": index, "claim": ch.Claim, "challenger": ch.Challenger, "ground": ch.Ground,
		"evidence": ch.Evidence, "state": ch.State, "entry": entry, "logged_at": tlog.FormatTimestamp(ch.At),
		"void_at": tlog.FormatTimestamp(ch.At.Add(status.ChallengeWindow)), "settled_at": settledAt,
		"reviews": reviews}, http.StatusOK, nil
}

// panelIndex is the challenge a panel job is for, from its detail.
func (s *Server) panelIndex(ctx context.Context, j ledger.Job) (uint64, error) {
	view := map[string]any{}
	if err := s.addCheckDetail(ctx, j, view); err != nil {
		return 0, err
	}
	ch, _ := view["challenge"].(map[string]any)
	n, ok := ch["index"].(float64)
	if !ok {
		return 0, fmt.Errorf("challenge review job %s names no challenge", j.ID)
	}
	return uint64(n), nil
}

// revealPanel logs the sealed reviews of j's challenge opened, in the
// order they came, once two organizations agree: then the log settles the
// challenge as the node counted it.
func (s *Server) revealPanel(ctx context.Context, j ledger.Job) error {
	index, err := s.panelIndex(ctx, j)
	if err != nil {
		return err
	}
	reviews, err := s.panelAnswers(ctx, index, j.Bundle)
	if err != nil {
		return err
	}
	agree := map[string][]string{}
	for _, a := range reviews {
		for _, v := range a.Verdicts {
			if v != "could_not_judge" && !slices.Contains(agree[v], a.Organization) {
				agree[v] = append(agree[v], a.Organization)
			}
		}
	}
	settled := false
	for _, orgs := range agree {
		settled = settled || len(orgs) >= status.PanelAgrees
	}
	if !settled {
		return nil
	}
	return s.revealAnswers(ctx, reviews)
}

// panelAnswers are the answers to challenge index's panel jobs on bundle.
func (s *Server) panelAnswers(ctx context.Context, index uint64, bundle string) ([]ledger.Answer, error) {
	answers, err := s.store.BundleAnswers(ctx, bundle)
	if err != nil {
		return nil, err
	}
	var ids []string
	for n := range PanelSize {
		ids = append(ids, challengeJobID(index, n))
	}
	var out []ledger.Answer
	for _, a := range answers {
		if slices.Contains(ids, a.Job) {
			out = append(out, a)
		}
	}
	return out, nil
}

// revealAnswers logs each sealed answer opened, once.
func (s *Server) revealAnswers(ctx context.Context, answers []ledger.Answer) error {
	s.settleMu.Lock()
	defer s.settleMu.Unlock()
	unlock, err := s.acrossProcesses(ctx, "settle")
	if err != nil {
		return err
	}
	defer unlock()
	for _, a := range answers {
		if a.Salt == "" {
			continue
		}
		if err := s.revealAnswer(ctx, a); err != nil {
			return err
		}
	}
	return nil
}
