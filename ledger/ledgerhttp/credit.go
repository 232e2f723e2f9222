package ledgerhttp

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/price"
	"github.com/agora-node/agora/store"
)

// Credit ("Verify first"): an operator's account is its movements (the
// store's credit_moves), from which its record's verification and
// free_bundle objects, can_publish and credit are computed; a bundle is
// charged its price when it seals, and goes free for verifiers when the
// balance can't cover it and the organization qualifies.

// account is what an operator may spend, and why.
type account struct {
	verification jobs.Verification
	free         jobs.FreeBundle
	moves        []jobs.Movement
}

func (s *Server) account(ctx context.Context, op store.Operator) (account, error) {
	now := s.now()
	org := op.ID
	if id, ok := op.Identity(); ok {
		org = id.Organization
	}
	moves, err := s.store.Movements(ctx, op.ID)
	if err != nil {
		return account{}, err
	}
	ever, err := s.store.OrgJobs(ctx, org, time.Time{})
	if err != nil {
		return account{}, err
	}
	recent, err := s.store.OrgJobs(ctx, org, now.AddDate(0, 0, -jobs.FreeBundleDays))
	if err != nil {
		return account{}, err
	}
	var lastFree time.Time
	for _, m := range moves {
		if strings.HasPrefix(m.Key, freeBundleKey) && m.At.After(lastFree) {
			lastFree = m.At
		}
	}
	return account{verification: jobs.Account(moves, ever), free: jobs.FreeBundleFor(recent, lastFree, now, 0), moves: moves}, nil
}

// publishingFor settles whether op may publish a bundle priced p (free
// says why it might go free already): with its spendable balance, or free
// for verifiers. It returns the price to charge and why it is free.
func (s *Server) publishingFor(ctx context.Context, op store.Operator, needs price.Needs, p price.Price, free string) (price.Price, string, bool, error) {
	if p.Charged == 0 {
		return p, free, true, nil
	}
	acct, err := s.account(ctx, op)
	if err != nil {
		return p, free, false, err
	}
	if acct.verification.Spendable >= p.Charged {
		return p, free, true, nil
	}
	if s.cfg.FreeBundles != FreeNone && acct.free.Available {
		fp, err := price.Compute(needs, s.rates(), price.Verifier)
		if err != nil {
			return p, free, false, err
		}
		return fp, "verifier", true, nil
	}
	return p, free, false, nil
}

// cheapestBundle is what the least a bundle asks costs today: a bundle
// whose claims have nothing to re-run, prove, cite or replicate.
func (s *Server) cheapestBundle() int {
	p, err := price.Compute(price.Needs{}, s.rates(), price.Paid)
	if err != nil {
		return 0
	}
	return p.Charged
}

// verificationRecord is an operator record's part from the loop:
// can_publish, credit, verification, free_bundle, qualification and
// canaries.
func (s *Server) verificationRecord(ctx context.Context, op store.Operator) (map[string]any, error) {
	acct, err := s.account(ctx, op)
	if err != nil {
		return nil, err
	}
	_, identified := op.Identity()
	states, err := s.store.Qualification(ctx, op.ID)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(states))
	for k := range states {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	models := make([]any, 0, len(keys))
	for _, k := range keys {
		m := states[k]
		models = append(models, m.Record())
	}
	canaries, err := s.store.CanaryCounts(ctx, op.ID)
	if err != nil {
		return nil, err
	}
	attention, err := s.attention(ctx, op.ID)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"attention":       attention,
		"can_publish":     identified && (acct.verification.Spendable >= s.cheapestBundle() || acct.free.Available),
		"credit":          acct.verification.Balance,
		"verification":    acct.verification.Object(),
		"free_bundle":     acct.free.Object(),
		"qualification":   map[string]any{"mode": s.qualificationMode(), "models": models},
		"canaries":        map[string]any{"caught": canaries["caught"], "missed": canaries["missed"], "could_not_run": canaries["could_not_run"]},
		"hazard_concerns": hazardConcerns(acct.moves),
	}, nil
}

// getCredit answers GET /api/v1/operators/{id}/credit: the account, every
// movement in it, and what it may spend.
func (s *Server) getCredit(r *http.Request) (any, int, error) {
	op, err := s.pathOperator(r)
	if err != nil {
		return nil, 0, err
	}
	acct, err := s.account(r.Context(), op)
	if err != nil {
		return nil, 0, err
	}
	moves := make([]any, len(acct.moves))
	for i, m := range acct.moves {
		moves[i] = map[string]any{"kind": m.Kind, "amount": m.Amount, "for": m.Key, "at": m.At.UTC().Format(time.RFC3339)}
	}
	return map[string]any{"operator": op.ID, "verification": acct.verification.Object(), "free_bundle": acct.free.Object(), "movements": moves}, http.StatusOK, nil
}
