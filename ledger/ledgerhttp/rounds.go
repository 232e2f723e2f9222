package ledgerhttp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

// Sealed rounds ("Sealed rounds"): a bundle sealed with computations that
// re-run in a day or less gets 2 reproductions; other work gets 2 screens.
// Once its first jobs are back, screened with no hazard, quick work and
// work with nothing to re-run get their three reviews while still sealed,
// and the bundle opens once they are in: the log records the bundle's
// entry and then every answer of its round, each revealing its
// commitment. Long work opens once screened.
//
// The hazard screen's panels are in hazard_panels.go, the timers in
// timers.go and the refunds in refunds.go. Left for later (see the
// issue): the reproductions and reviews long work gets in public.

// roundJobID makes a round's job IDs from what they are, so that two
// answers advancing the round at once create each job once.
func roundJobID(bundleHash, kind string, n int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", bundleHash, kind, n))
	return "job:" + hex.EncodeToString(sum[:16])
}

// computes reports whether a claim's evidence holds a computation to re-run.
func computes(c ledger.Claim) bool {
	v, err := canonical.Parse(c.JSON)
	if err != nil {
		return false
	}
	obj, _ := v.(map[string]any)
	list, _ := obj["evidence"].([]any)
	for _, item := range list {
		ev, _ := item.(map[string]any)
		if _, ok := ev["produced_by"]; ok {
			return true
		}
	}
	return false
}

// startRound creates a newly sealed bundle's first jobs and charges its
// author the price, at once (the charge keyed by the bundle, so it is
// taken once).
func (s *Server) startRound(ctx context.Context, b ledger.Bundle, c *checkedBundle) error {
	ctx = context.WithoutCancel(ctx)
	org := c.operator.ID
	if id, ok := c.operator.Identity(); ok {
		org = id.Organization
	}
	var minutes float64
	var gpu bool
	var families []string
	if c.manifest != nil {
		minutes, gpu = c.manifest.Compute.Minutes, c.manifest.Compute.GPU
		families = c.manifest.ModelFamilies
	}
	computing := slices.ContainsFunc(b.Claims, computes)
	kind, credits := jobs.Screen, 1
	if computing && jobs.Quick(minutes) {
		kind, credits = jobs.Reproduction, max(1, c.price.PerJob)
	}
	var claimList []ledger.JobClaim
	for _, cl := range b.Claims {
		claimList = append(claimList, ledger.JobClaim{LocalID: cl.LocalID, ClaimID: cl.ID, NeedsVerdict: kind == jobs.Reproduction && computes(cl)})
	}
	var js []ledger.Job
	for n := range 2 {
		js = append(js, ledger.Job{ID: roundJobID(b.Hash, kind, n), Kind: kind, Bundle: b.Hash, Urgency: jobs.Urgency(kind, true),
			AuthorOrgs: []string{org}, AuthorFamilies: families, Claims: claimList, Credits: credits, Minutes: minutes, GPU: gpu, Created: s.now()})
	}
	var moves []jobs.Movement
	if c.price.Charged > 0 {
		moves = append(moves, jobs.Movement{Operator: b.Operator, Kind: jobs.Spent, Amount: -c.price.Charged, Key: chargeKey(b.Hash), At: s.now()})
	}
	if c.free == "verifier" {
		moves = append(moves, jobs.Movement{Operator: b.Operator, Kind: jobs.Spent, Amount: 0, Key: freeBundleKey + b.Hash, At: s.now()})
	}
	err := s.store.CreateJobs(ctx, js, moves)
	if errors.Is(err, store.ErrDuplicate) {
		return nil
	}
	if err != nil {
		return err
	}
	if kind == jobs.Reproduction {
		return s.maybeCanary(ctx, b, js)
	}
	return nil
}

// freeBundleKey starts the key of the (zero) movement that records a free
// bundle for verifiers, so the next one waits its week.
const freeBundleKey = "free:"

// advanceRound moves a sealed bundle's round on after an answer: reviews
// once its first jobs are back clean, opening once its reviews are in.
func (s *Server) advanceRound(ctx context.Context, hash string) error {
	unlock, err := s.lockRound(ctx, hash)
	if err != nil {
		return err
	}
	defer unlock()
	b, err := s.store.Bundle(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil // a canary's round closes with its source's
	}
	if err != nil || b.State != ledger.BundleSealed {
		return err
	}
	all, err := s.store.BundleJobs(ctx, hash)
	if err != nil {
		return err
	}
	if held, err := s.hazardHold(ctx, b, all); held || err != nil {
		return err
	}
	var first, reviews []ledger.Job
	for _, j := range all {
		switch {
		case jobs.IsReview(j.Kind):
			reviews = append(reviews, j)
		case j.Kind != jobs.HazardReview && j.ID != reserveJobID(hash):
			first = append(first, j)
		}
	}
	if len(first) == 0 {
		return nil
	}
	if len(reviews) > 0 {
		if s.reviewsDue(reviews) {
			return s.openRound(ctx, b)
		}
		return nil
	}
	reproduced, back, err := s.firstBack(ctx, hash, first)
	if err != nil || !back {
		return err
	}
	if err := s.settleReserve(ctx, b, all); err != nil {
		return err
	}
	if first[0].Kind == jobs.Screen && slices.ContainsFunc(b.Claims, computes) {
		return s.openRound(ctx, b) // long work opens once screened
	}
	var claimList []ledger.JobClaim
	ready := false
	for _, cl := range b.Claims {
		need := !computes(cl) || reproduced[cl.ID]
		ready = ready || need
		claimList = append(claimList, ledger.JobClaim{LocalID: cl.LocalID, ClaimID: cl.ID, NeedsVerdict: need})
	}
	if !ready {
		if err := s.refundReviews(ctx, b); err != nil {
			return err
		}
		return s.openRound(ctx, b)
	}
	var js []ledger.Job
	for _, kind := range jobs.ReviewKinds {
		js = append(js, ledger.Job{ID: roundJobID(hash, kind, 0), Kind: kind, Bundle: hash, Urgency: jobs.Urgency(kind, true),
			AuthorOrgs: first[0].AuthorOrgs, AuthorFamilies: first[0].AuthorFamilies, Claims: claimList, Credits: 1, Created: s.now()})
	}
	if err := s.store.CreateJobs(ctx, js, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return err
	}
	return nil
}

// openRound opens a sealed bundle whose round is done, and settles it.
func (s *Server) openRound(ctx context.Context, b ledger.Bundle) error {
	if _, err := s.OpenBundle(ctx, b); err != nil {
		return err
	}
	return s.settle(ctx, b)
}

// settle does the work that follows a bundle's opening, then records it
// done (ledger.RoundStore.SettleBundle), so that a node stopped in
// between does it at the next sweep: the author's deposit back, every
// answer of its round logged as a commitment revealed with the salt that
// opens it, the checks a published bundle gets, and its canaries closed.
// Each step is idempotent.
func (s *Server) settle(ctx context.Context, b ledger.Bundle) error {
	s.settleMu.Lock()
	defer s.settleMu.Unlock()
	unlock, err := s.acrossProcesses(ctx, "settle")
	if err != nil {
		return err
	}
	defer unlock()
	if all, err := s.store.BundleJobs(ctx, b.Hash); err != nil {
		return err
	} else if err := s.refundDeposit(ctx, b, all); err != nil {
		return err
	}
	answers, err := s.store.BundleAnswers(ctx, b.Hash)
	if err != nil {
		return err
	}
	for _, a := range answers {
		if a.Salt == "" {
			continue
		}
		if err := s.revealAnswer(ctx, a); err != nil {
			return err
		}
	}
	if err := s.startChecks(ctx, b.Hash); err != nil {
		return fmt.Errorf("making an opened bundle's checks: %w", err)
	}
	if err := s.closeCanaries(ctx, b.Hash); err != nil {
		return err
	}
	return s.store.SettleBundle(ctx, b.Hash)
}

// revealAnswer logs a sealed answer as signed, its leaf naming the sealed
// entry it opens and the salt.
func (s *Server) revealAnswer(ctx context.Context, a ledger.Answer) error {
	if done, err := s.store.SignedByDigest(ctx, a.Digest); err == nil && done.Index != store.Unlogged {
		return nil // revealed before
	}
	sealed, err := s.store.SignedByDigest(ctx, a.Entry)
	if err != nil {
		return err
	}
	if sealed.Index == store.Unlogged {
		return fmt.Errorf("answer %s: its commitment is not logged: %w", a.Digest, store.ErrConflict)
	}
	v, err := canonical.Parse(a.Signed)
	if err != nil {
		return err
	}
	entry, _ := v.(map[string]any)
	if err := s.store.PutSigned(ctx, a.Digest, a.Signed, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return err
	}
	op, err := s.store.Operator(ctx, a.Operator)
	if err != nil {
		return err
	}
	if err := s.journal.PublishKey(ctx, op); err != nil {
		return err
	}
	leaf := map[string]any{"operator": a.Operator, "sealed": map[string]any{"index": sealed.Index, "salt": a.Salt}}
	if _, err := s.journal.Append(ctx, a.Digest, a.Signed, entry, leaf); err != nil {
		if appendedNothing(err) {
			s.dropUnbound(ctx, a.Digest)
		}
		return err
	}
	return nil
}

// roundSweep is how often sweepRounds looks at the next page of sealed
// bundles, sweepPage of them: a node with 5,000 sealed bundles looks at
// each about every 100 s, which is soon enough for timers of days and for
// a round left halfway by a crash, and costs the same at any backlog.
const (
	roundSweep = 2 * time.Second
	sweepPage  = 100
)

// sweepRounds advances every sealed bundle's round, a page every
// roundSweep until ctx ends, from the oldest and round again: a round
// moves on after each answer, and this moves on one whose last answer was
// logged just before the node stopped (its reviews not yet made, or its
// opening not yet logged), or whose timers ran out. It also settles
// openings left unsettled and closes lapsed reviews.
func (s *Server) sweepRounds(ctx context.Context) {
	t := time.NewTicker(roundSweep)
	defer t.Stop()
	after := ""
	for {
		due, err := s.store.SealedBundles(ctx, s.now(), after, sweepPage)
		if err != nil && ctx.Err() == nil {
			s.logger.Error("listing sealed bundles for their rounds", "err", err)
		}
		if after = ""; len(due) == sweepPage {
			after = due[len(due)-1].Hash
		}
		for _, b := range due {
			if err := s.advanceRound(ctx, b.Hash); err != nil && ctx.Err() == nil {
				s.logger.Error("advancing a bundle's round", "bundle", b.Hash, "err", err)
			}
		}
		unsettled, err := s.store.UnsettledBundles(ctx, 100)
		if err != nil && ctx.Err() == nil {
			s.logger.Error("listing opened bundles not settled", "err", err)
		}
		for _, b := range unsettled {
			if err := s.settle(ctx, b); err != nil && ctx.Err() == nil {
				s.logger.Error("settling an opened bundle", "bundle", b.Hash, "err", err)
			}
		}
		if err := s.closeLapsedReviews(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("closing lapsed reviews", "err", err)
		}
		if err := s.settleChallenges(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("settling challenges", "err", err)
		}
		if err := s.settleAppeals(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("settling appeals", "err", err)
		}
		if err := s.settleAddenda(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("settling addenda", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
