package ledgerhttp

import (
	"context"
	"errors"
	"slices"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

// The round's timers ("Sealed rounds", "Reviews"), on the node's clock and
// driven by the round sweep as well as by answers:
//
//   - a quick bundle's reviews run once 2 organizations screened it and
//     found no hazard, and either its reproductions are back or
//     jobs.SealedWait has passed since they were made (the reviews judge
//     what was reproduced by then);
//   - a bundle whose sealed reviews started jobs.SealedWait ago opens with
//     the verdicts that are in, and the reviews still out run in public;
//   - a review no reviewer took within jobs.ReviewerWait closes, and its
//     price goes back to the author.

// firstBack reports whether a round's first jobs let its reviews run,
// and which claims they reproduced.
func (s *Server) firstBack(ctx context.Context, hash string, first []ledger.Job) (reproduced map[string]bool, back bool, err error) {
	answers, err := s.store.BundleAnswers(ctx, hash)
	if err != nil {
		return nil, false, err
	}
	ids := map[string]bool{}
	allDone := true
	started := first[0].Created
	for _, j := range first {
		ids[j.ID] = true
		allDone = allDone && j.Done
		if j.Created.Before(started) {
			started = j.Created
		}
	}
	reproduced = map[string]bool{}
	var screened []string
	for _, a := range answers {
		if !ids[a.Job] {
			continue
		}
		screened = append(screened, a.Organization)
		for id, v := range a.Verdicts {
			reproduced[id] = reproduced[id] || v == "reproduced"
		}
	}
	slices.Sort(screened)
	screened = slices.Compact(screened)
	lapsed := !s.now().Before(started.Add(jobs.SealedWait))
	return reproduced, allDone || (lapsed && len(screened) >= 2), nil
}

// reviewsDue reports whether a sealed bundle's reviews let it open: all
// in, or started jobs.SealedWait ago.
func (s *Server) reviewsDue(reviews []ledger.Job) bool {
	started := reviews[0].Created
	done := true
	for _, j := range reviews {
		done = done && j.Done
		if j.Created.Before(started) {
			started = j.Created
		}
	}
	return done || !s.now().Before(started.Add(jobs.SealedWait))
}

// lapsedPage is how many lapsed reviews one sweep closes.
const lapsedPage = 100

// closeLapsedReviews closes the reviews no reviewer took within
// jobs.ReviewerWait, giving each one's price back to its bundle's author.
func (s *Server) closeLapsedReviews(ctx context.Context) error {
	now := s.now()
	lapsed, err := s.store.LapsedJobs(ctx, jobs.ReviewKinds, now.Add(-jobs.ReviewerWait), now, lapsedPage)
	if err != nil {
		return err
	}
	for _, j := range lapsed {
		b, err := s.store.Bundle(ctx, j.Bundle)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		var moves []jobs.Movement
		if err == nil {
			m, ok, err := s.refundMove(ctx, b, j.ID, j.Credits)
			if err != nil {
				return err
			}
			if ok {
				moves = append(moves, m)
			}
		}
		if _, err := s.store.RetireJobs(ctx, []string{j.ID}, moves); err != nil {
			return err
		}
	}
	return nil
}
