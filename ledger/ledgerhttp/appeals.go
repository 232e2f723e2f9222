package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// Appeals ("Statuses", "Appealing a failed reproduction"): POST
// /api/v1/bundles/{hash}/appeal takes its author's signed appeal_request
// before the failed claims' correct_by and prepays as many more
// reproductions as would settle them the other way if all reproduce, at
// most 5, for organizations that have not verified the bundle. Their
// verdicts count like any reproduction's, so the log settles the claims;
// the node settles the credit once the reproductions are done or the
// deadline passes: the ones not done come back.

// appealJobID is reproduction n of bundle hash's appeal a.
func appealJobID(hash string, a, n int) string {
	return roundJobID("appeal:"+hash+":"+strconv.Itoa(a), jobs.Reproduction, n)
}

func appealKey(hash string, a int) string { return "appeal:" + hash + ":" + strconv.Itoa(a) }

// appeal is one appeal of a bundle as the node made it.
type appeal struct {
	n        int // which of the bundle's appeals, from 0
	jobs     []ledger.Job
	deadline time.Time
}

func (a appeal) done() int {
	n := 0
	for _, j := range a.jobs {
		if j.Done {
			n++
		}
	}
	return n
}

// open reports whether the appeal still waits for reproductions at now.
func (a appeal) open(now time.Time) bool { return a.done() < len(a.jobs) && now.Before(a.deadline) }

func (a appeal) view(now time.Time) map[string]any {
	state := "open"
	if !a.open(now) {
		state = "closed"
	}
	return map[string]any{"appeal": a.n, "reproductions": len(a.jobs), "done": a.done(), "state": state,
		"deadline": a.deadline.UTC().Format(time.RFC3339)}
}

// appeals reads bundle hash's appeals from its jobs, oldest first.
func (s *Server) appeals(ctx context.Context, hash string) ([]appeal, error) {
	var out []appeal
	for a := 0; ; a++ {
		var ap appeal
		for n := range jobs.MaxAppealReproductions {
			j, err := s.store.Job(ctx, appealJobID(hash, a, n))
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if err != nil {
				return nil, err
			}
			ap.jobs = append(ap.jobs, j)
		}
		if len(ap.jobs) == 0 {
			return out, nil
		}
		ap.n = a
		var err error
		if ap.deadline, err = s.correctBy(ctx, ap.jobs[0].Claims); err != nil {
			return nil, err
		}
		if ap.deadline.IsZero() {
			// Its reproductions so far took the failure away, so the
			// claims have no correct_by now; the author paid for them
			// all, and the ones left may make the claims Reproduced. It
			// holds until the latest its correct_by could have been.
			ap.deadline = ap.jobs[0].Created.Add(status.CorrectWithin)
		}
		out = append(out, ap)
	}
}

// correctBy is the earliest correct_by of claims, as the log has it.
func (s *Server) correctBy(ctx context.Context, claims []ledger.JobClaim) (time.Time, error) {
	var at time.Time
	now := s.now()
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, cl := range claims {
			if c, ok := d.Claim(cl.ClaimID, now); ok && !c.CorrectBy.IsZero() && (at.IsZero() || c.CorrectBy.Before(at)) {
				at = c.CorrectBy
			}
		}
		return nil
	})
	return at, err
}

// SettleAppealsOnce settles, now, what the round sweep settles of
// appeals (see settleAppeals).
func (s *Server) SettleAppealsOnce(ctx context.Context) error { return s.settleAppeals(ctx) }

// settleAppeals settles the credit of every appeal whose reproductions
// are done or whose deadline passed: those not done come back to the
// author, and their jobs close. Each is settled once a process.
func (s *Server) settleAppeals(ctx context.Context) error {
	now := s.now()
	var bundles []string
	if err := s.derived(ctx, func(d *status.Deriver) error {
		for _, id := range d.EverFailed() {
			if c, ok := d.Claim(id, now); ok {
				for _, a := range c.Attestations {
					if !slices.Contains(bundles, a.Bundle) {
						bundles = append(bundles, a.Bundle)
					}
				}
			}
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
	if s.challenges.appealsSettled == nil {
		s.challenges.appealsSettled = map[string]bool{}
	}
	for _, hash := range bundles {
		all, err := s.appeals(ctx, hash)
		if err != nil {
			return err
		}
		for _, ap := range all {
			key := appealKey(hash, ap.n)
			if ap.open(now) || s.challenges.appealsSettled[key] {
				continue
			}
			b, err := s.store.Bundle(ctx, hash)
			if err != nil {
				return err
			}
			var ids []string
			for _, j := range ap.jobs {
				if !j.Done {
					ids = append(ids, j.ID)
				}
			}
			var moves []jobs.Movement
			if back := len(ids) * ap.jobs[0].Credits; back > 0 {
				moves = append(moves, jobs.Movement{Operator: b.Operator, Kind: jobs.Refunded, Amount: back, Key: key + ":unused", At: now})
			}
			if len(ids) > 0 {
				if _, err := s.store.RetireJobs(ctx, ids, nil); err != nil {
					return err
				}
			}
			if _, err := s.store.AddMovements(ctx, moves); err != nil {
				return err
			}
			s.challenges.appealsSettled[key] = true
		}
	}
	return nil
}

// appealBundle answers POST /api/v1/bundles/{hash}/appeal.
func (s *Server) appealBundle(r *http.Request) (any, int, error) {
	entry, _, err := s.signedObject(r, "appeal_request")
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	req, list := jobs.CheckAppealRequest(entry, now)
	if len(list) > 0 {
		return nil, 0, issuesError(http.StatusBadRequest, "bad_request", "The appeal request", list)
	}
	hash := r.PathValue("hash")
	if req.Bundle != hash {
		return nil, 0, httpapi.BadRequest("bad_request", "The appeal names bundle %s, not the %s of its path", req.Bundle, hash)
	}
	op, err := s.store.Operator(ctx, req.Operator)
	if err != nil {
		return nil, 0, err
	}
	if !protocol.Verify(entry, op.Key().Key) {
		return nil, 0, &httpapi.Error{Status: http.StatusUnauthorized, Code: "bad_signature", Message: "The signature does not verify with the operator's current key"}
	}
	b, err := s.store.Bundle(ctx, hash)
	if errors.Is(err, store.ErrNotFound) || err == nil && b.State != ledger.BundleOpen {
		return nil, 0, httpapi.NotFound("No open bundle %s: an appeal is for a published bundle's failed reproduction", hash)
	}
	if err != nil {
		return nil, 0, err
	}
	if b.Operator != op.ID {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "not_author", Message: "Only a bundle's author appeals its failed reproduction"}
	}
	s.challenges.opening.Lock()
	defer s.challenges.opening.Unlock()
	unlock, err := s.acrossProcesses(ctx, "challenges.opening")
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	past, err := s.appeals(ctx, hash)
	if err != nil {
		return nil, 0, err
	}
	if len(past) > 0 && past[len(past)-1].open(now) {
		return past[len(past)-1].view(now), http.StatusOK, nil
	}
	var failed []ledger.JobClaim
	more := 0
	var correctBy time.Time
	if err := s.derived(ctx, func(d *status.Deriver) error {
		for _, cl := range b.Claims {
			c, ok := d.Claim(cl.ID, now)
			r, _ := c.Requirements["reproduced"].(map[string]any)
			if !ok || r["failed"] != true || c.Has("refuted") || !now.Before(c.CorrectBy) {
				continue
			}
			orgs, _ := r["organizations"].(map[string]any)
			yes, _ := orgs["for"].([]any)
			no, _ := orgs["against"].([]any)
			more = max(more, jobs.AppealReproductions(len(yes), len(no)))
			if correctBy.IsZero() || c.CorrectBy.Before(correctBy) {
				correctBy = c.CorrectBy
			}
			failed = append(failed, ledger.JobClaim{LocalID: cl.LocalID, ClaimID: cl.ID, NeedsVerdict: true})
		}
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if len(failed) == 0 || more == 0 {
		return nil, 0, conflict("nothing_to_appeal", "No claim of %s has a failed reproduction to appeal before its correct_by", hash)
	}
	each, err := s.reproductionPrice(ctx, b)
	if err != nil {
		return nil, 0, err
	}
	acct, err := s.account(ctx, op)
	if err != nil {
		return nil, 0, err
	}
	if acct.verification.Spendable < more*each {
		return nil, 0, &httpapi.Error{Status: http.StatusForbidden, Code: "verify_first",
			Message: fmt.Sprintf("The appeal's %d reproductions cost %d credits, more than the %d you may spend", more, more*each, acct.verification.Spendable)}
	}
	all, err := s.store.BundleJobs(ctx, hash)
	if err != nil {
		return nil, 0, err
	}
	org := op.ID
	if id, ok := op.Identity(); ok {
		org = id.Organization
	}
	verified := []string{org}
	for _, j := range all {
		if j.Organization != "" && !slices.Contains(verified, j.Organization) {
			verified = append(verified, j.Organization)
		}
	}
	a := len(past)
	var js []ledger.Job
	for n := range more {
		js = append(js, ledger.Job{ID: appealJobID(hash, a, n), Kind: jobs.Reproduction, Bundle: hash, Urgency: jobs.Urgency(jobs.Reproduction, false),
			AuthorOrgs: verified, AuthorFamilies: s.bundleFamilies(b), Claims: failed, Credits: each, Minutes: s.bundleMinutes(b),
			Created: now})
	}
	pay := []jobs.Movement{{Operator: op.ID, Kind: jobs.Spent, Amount: -more * each, Key: appealKey(hash, a), At: now}}
	if err := s.store.CreateJobs(ctx, js, pay); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return nil, 0, err
	}
	made, err := s.appeals(ctx, hash)
	if err != nil || len(made) <= a {
		return nil, 0, fmt.Errorf("the appeal of %s was not kept: %w", hash, err)
	}
	return made[a].view(now), http.StatusCreated, nil
}
