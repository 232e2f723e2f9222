package ledgerhttp

import (
	"context"
	"errors"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/price"
	"github.com/agora-node/agora/store"
)

// What a paid bundle's round gives back, and what over-budget work costs
// ("Verify first"). Each refund is a movement keyed by the bundle and what
// it returns, so it is paid once however often the round is advanced, and
// the refunds of a bundle never pass what it was charged:
//
//   - the screening deposit, as a quick bundle opens with its
//     reproductions back clean;
//   - the reserve, once the 2 prepaid reproductions are in and every claim
//     they judged settled one way; otherwise it pays a third reproduction
//     from an organization not yet involved;
//   - the reviews' price, when no claim is ready for review;
//   - a review no reviewer took within jobs.ReviewerWait.
//
// Once two organizations report a job over budget, each report that did no
// work is paid the job's credits and the author pays its price again.

// chargeKey is the key of the movement that charged a bundle's price.
func chargeKey(hash string) string { return "bundle:" + hash }

// refundKey is the key of a refund of what from bundle hash.
func refundKey(hash, what string) string { return "refund:" + hash + ":" + what }

// refundMove is the movement that gives b's author back amount for what,
// within what the bundle was charged less what it got back already; ok
// is false when there is nothing to give back (a free bundle, or nothing
// left).
func (s *Server) refundMove(ctx context.Context, b ledger.Bundle, what string, amount int) (jobs.Movement, bool, error) {
	moves, err := s.store.Movements(ctx, b.Operator)
	if err != nil {
		return jobs.Movement{}, false, err
	}
	charged, refunded := 0, 0
	for _, m := range moves {
		switch {
		case m.Key == chargeKey(b.Hash):
			charged = -m.Amount
		case strings.HasPrefix(m.Key, refundKey(b.Hash, "")):
			if m.Key == refundKey(b.Hash, what) {
				return jobs.Movement{}, false, nil // given back before
			}
			refunded += m.Amount
		}
	}
	amount = min(amount, charged-refunded)
	if amount <= 0 {
		return jobs.Movement{}, false, nil
	}
	return jobs.Movement{Operator: b.Operator, Kind: jobs.Refunded, Amount: amount, Key: refundKey(b.Hash, what), At: s.now()}, true, nil
}

// refund records refundMove's movement, if any.
func (s *Server) refund(ctx context.Context, b ledger.Bundle, what string, amount int) error {
	m, ok, err := s.refundMove(ctx, b, what, amount)
	if err != nil || !ok {
		return err
	}
	_, err = s.store.AddMovements(ctx, []jobs.Movement{m})
	return err
}

// reserveJobID is the ID of a bundle's reserve reproduction, the third
// after its two prepaid ones.
func reserveJobID(hash string) string { return roundJobID(hash, jobs.Reproduction, 2) }

// settleReserve spends or returns b's reserve once its two prepaid
// reproductions are in.
func (s *Server) settleReserve(ctx context.Context, b ledger.Bundle, all []ledger.Job) error {
	var prepaid []ledger.Job
	for _, j := range all {
		switch j.ID {
		case reserveJobID(b.Hash):
			return nil // spent on a third reproduction
		case roundJobID(b.Hash, jobs.Reproduction, 0), roundJobID(b.Hash, jobs.Reproduction, 1):
			if !j.Done || j.Answer == "" {
				return nil
			}
			prepaid = append(prepaid, j)
		}
	}
	if len(prepaid) != 2 {
		return nil
	}
	var verdicts []map[string]string
	involved := append([]string(nil), prepaid[0].AuthorOrgs...)
	for _, j := range prepaid {
		a, err := s.store.AnswerByEntry(ctx, j.Answer)
		if err != nil {
			return err
		}
		verdicts = append(verdicts, a.Verdicts)
		involved = append(involved, a.Organization)
	}
	settled := true
	for _, cl := range prepaid[0].Claims {
		if !cl.NeedsVerdict {
			continue
		}
		v0, v1 := verdicts[0][cl.ClaimID], verdicts[1][cl.ClaimID]
		settled = settled && v0 == v1 && !jobs.Idle(v0)
	}
	if settled {
		return s.refund(ctx, b, "reserve", prepaid[0].Credits)
	}
	j := prepaid[0]
	reserve := ledger.Job{ID: reserveJobID(b.Hash), Kind: jobs.Reproduction, Bundle: b.Hash, Urgency: jobs.Urgency(jobs.Reproduction, b.State == ledger.BundleSealed),
		AuthorOrgs: involved, AuthorFamilies: j.AuthorFamilies, Claims: j.Claims, Credits: j.Credits, Minutes: j.Minutes, GPU: j.GPU, Created: s.now()}
	if err := s.store.CreateJobs(ctx, []ledger.Job{reserve}, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return err
	}
	return nil
}

// refundDeposit gives back a quick bundle's screening deposit as it opens:
// its reproductions screened it.
func (s *Server) refundDeposit(ctx context.Context, b ledger.Bundle, all []ledger.Job) error {
	for _, j := range all {
		if j.Kind == jobs.Reproduction {
			return s.refund(ctx, b, "screening_deposit", price.ScreeningDeposit)
		}
	}
	return nil
}

// refundReviews gives back the reviews' price of a bundle none of whose
// claims is ready for review.
func (s *Server) refundReviews(ctx context.Context, b ledger.Bundle) error {
	return s.refund(ctx, b, "reviews", price.ReviewJobs*price.ReviewCredits)
}

// afterAnswer is what an answer to job moves besides its round: the
// hazard screen of a published bundle, its reserve, and over-budget
// reports.
func (s *Server) afterAnswer(ctx context.Context, job ledger.Job, signed []byte) error {
	b, err := s.store.Bundle(ctx, job.Bundle)
	if errors.Is(err, store.ErrNotFound) {
		return nil // a canary
	}
	if err != nil || b.State == ledger.BundleWithdrawn {
		return err
	}
	all, err := s.store.BundleJobs(ctx, b.Hash)
	if err != nil {
		return err
	}
	if b.State == ledger.BundleOpen {
		if held, err := s.hazardHold(ctx, b, all); held || err != nil {
			return err
		}
		if err := s.settleReserve(ctx, b, all); err != nil {
			return err
		}
	}
	if overBudget(signed) {
		return s.overBudget(ctx, b, all)
	}
	return nil
}

// overBudget reports whether an answer as signed says its work took more
// than its declared minutes.
func overBudget(signed []byte) bool {
	v, err := canonical.Parse(signed)
	if err != nil {
		return false
	}
	e, _ := v.(map[string]any)
	return e["over_budget"] == true
}

// OverBudgetOrgs is how many organizations must report a bundle over
// budget before its author pays again.
const OverBudgetOrgs = 2

// overBudget pays the over-budget reports on b and charges its author
// again, once two organizations made them.
func (s *Server) overBudget(ctx context.Context, b ledger.Bundle, all []ledger.Job) error {
	answers, err := s.store.BundleAnswers(ctx, b.Hash)
	if err != nil {
		return err
	}
	credits := map[string]int{}
	total := 0
	for _, j := range all {
		credits[j.ID] = j.Credits
		total += j.Credits
	}
	orgs := map[string]bool{}
	var reports []ledger.Answer
	for _, a := range answers {
		if overBudget(a.Signed) {
			orgs[a.Organization] = true
			reports = append(reports, a)
		}
	}
	if len(orgs) < OverBudgetOrgs {
		return nil
	}
	var moves []jobs.Movement
	for _, a := range reports {
		if !a.WithWork && credits[a.Job] > 0 { // work done was paid already
			moves = append(moves, jobs.Movement{Operator: a.Operator, Kind: jobs.Earned, Amount: credits[a.Job], Key: "overbudget:" + a.Digest, At: s.now()})
		}
	}
	authorMoves, err := s.store.Movements(ctx, b.Operator)
	if err != nil {
		return err
	}
	again := total
	for _, m := range authorMoves {
		if m.Key == chargeKey(b.Hash) && m.Amount < 0 {
			again = -m.Amount
		}
	}
	if again > 0 {
		moves = append(moves, jobs.Movement{Operator: b.Operator, Kind: jobs.Spent, Amount: -again, Key: "overbudget:" + b.Hash, At: s.now()})
	}
	_, err = s.store.AddMovements(ctx, moves)
	return err
}
