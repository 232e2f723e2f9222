package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
)

// The hazard screen's consequences ("The hazard screen"). A reproduction
// or screen whose hazard verdict names a concern sends the bundle to a
// panel: PanelSize hazard_review jobs for organizations not yet involved
// and families that did not write it, most urgent of all. The bundle stays
// sealed meanwhile. Once PanelMajority panelists share the concern, the
// log records a withdrawal signed by the log, with the reason the upheld
// concerns give; the files of a private_data withdrawal are deleted and
// those of an unlawful one moved where nothing serves them. Once
// PanelMajority don't, the round goes on. Either way the decision is
// recorded on each concern's raiser: upheld, or overturned at
// jobs.ConcernCost. A copyright verdict asks the author's person instead
// of a panel: the bundle stays sealed, and without their yes within
// jobs.RightsWait it is withdrawn with the reason rights and its files
// deleted.
//
// Left for later: the person's answer to the rights question (the node
// keeps no people's accounts yet), so every copy found withdraws its
// bundle once the wait is up; the rights object on job answers; flags on
// published work (POST /api/v1/flags); and the commons, which the spec has
// pay for panels (they pay with new credit here).

// bundleHazards is what a bundle's answers say about its hazard screen.
type bundleHazards struct {
	concerns []ledger.Answer // reproductions' and screens' answers naming a concern
	rights   []ledger.Answer // answers of any kind that found a copy
	panel    []ledger.Answer // the panel's answers
}

func hazardsOf(answers []ledger.Answer) bundleHazards {
	var h bundleHazards
	for _, a := range answers {
		switch {
		case a.Hazard == jobs.Copyright:
			h.rights = append(h.rights, a)
		case a.Kind == jobs.HazardReview:
			h.panel = append(h.panel, a)
		case jobs.Concern(a.Hazard):
			h.concerns = append(h.concerns, a)
		}
		if a.Kind == jobs.HazardReview && a.Hazard == jobs.Copyright {
			h.panel = append(h.panel, a) // on a panel, copyright answers no
		}
	}
	return h
}

// hazardHold settles a bundle's hazard screen as far as its answers go:
// it makes the panel a concern needs, withdraws the bundle the panel or
// the rights question takes down, and records a decided panel's outcome.
// held is true while the round may not go on (and once the bundle is
// withdrawn).
func (s *Server) hazardHold(ctx context.Context, b ledger.Bundle, all []ledger.Job) (held bool, err error) {
	answers, err := s.store.BundleAnswers(ctx, b.Hash)
	if err != nil {
		return false, err
	}
	h := hazardsOf(answers)
	now := s.now()
	if len(h.concerns) > 0 {
		var panelJobs []ledger.Job
		for _, j := range all {
			if j.Kind == jobs.HazardReview {
				panelJobs = append(panelJobs, j)
			}
		}
		if len(panelJobs) == 0 {
			if !s.firstJobsBack(b.Hash, all) {
				return true, nil // the panel goes to none of the round's screeners
			}
			return true, s.makePanel(ctx, b, all, answers)
		}
		var verdicts []string
		var decidedAt time.Time
		decided, upheld := false, false
		for _, a := range h.panel {
			if decided {
				break
			}
			verdicts = append(verdicts, a.Hazard)
			decided, upheld = jobs.Panel(verdicts)
			decidedAt = a.At
		}
		if !decided {
			return true, nil
		}
		if err := s.recordConcerns(ctx, answers, decidedAt, upheld, panelJobs); err != nil {
			return true, err
		}
		if upheld {
			var named []string
			for _, a := range answers {
				if jobs.Concern(a.Hazard) && !a.At.After(decidedAt) {
					named = append(named, a.Hazard)
				}
			}
			return true, s.withdraw(ctx, b, jobs.PanelReason(named))
		}
	}
	if len(h.rights) > 0 {
		if now.Before(h.rights[0].At.Add(jobs.RightsWait)) {
			return b.State == ledger.BundleSealed, nil // a published bundle stays up meanwhile
		}
		return true, s.withdraw(ctx, b, jobs.ReasonRights)
	}
	return false, nil
}

// firstJobsBack reports whether a round's first jobs (its reproductions or
// screens) are all done, or jobs.SealedWait has passed since they were
// made: when its panel is made, so that no organization that screens it
// in the round sits on the panel too.
func (s *Server) firstJobsBack(hash string, all []ledger.Job) bool {
	var started time.Time
	done := true
	for _, j := range all {
		// Only the round's first jobs: not its reviews, panel or reserve,
		// nor the checks a published bundle gets.
		if j.Kind != jobs.Reproduction && j.Kind != jobs.Screen || j.ID == reserveJobID(hash) {
			continue
		}
		done = done && j.Done
		if started.IsZero() || j.Created.Before(started) {
			started = j.Created
		}
	}
	return done || !s.now().Before(started.Add(jobs.SealedWait))
}

// makePanel creates a bundle's hazard panel: its jobs go to none of the
// organizations already involved (the author's, and every one that
// answered or holds a job on it), nor to the families that wrote it.
func (s *Server) makePanel(ctx context.Context, b ledger.Bundle, all []ledger.Job, answers []ledger.Answer) error {
	if len(all) == 0 {
		return nil
	}
	involved := slices.Clone(all[0].AuthorOrgs)
	for _, a := range answers {
		involved = append(involved, a.Organization)
	}
	for _, j := range all {
		if j.Organization != "" {
			involved = append(involved, j.Organization)
		}
	}
	slices.Sort(involved)
	involved = slices.Compact(involved)
	var claimList []ledger.JobClaim
	for _, cl := range b.Claims {
		claimList = append(claimList, ledger.JobClaim{LocalID: cl.LocalID, ClaimID: cl.ID})
	}
	var js []ledger.Job
	for n := range jobs.PanelSize {
		js = append(js, ledger.Job{ID: roundJobID(b.Hash, jobs.HazardReview, n), Kind: jobs.HazardReview, Bundle: b.Hash,
			Urgency: jobs.UrgencyHazard, AuthorOrgs: involved, AuthorFamilies: all[0].AuthorFamilies, Claims: claimList,
			Credits: jobs.PanelCredits, Created: s.now()})
	}
	if err := s.store.CreateJobs(ctx, js, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return err
	}
	return nil
}

// recordConcerns records a decided panel's outcome on each concern named
// on the bundle up to the decision (the raisers', and the panelists' who
// shared it), and retires the panel's jobs still out.
func (s *Server) recordConcerns(ctx context.Context, answers []ledger.Answer, decidedAt time.Time, upheld bool, panelJobs []ledger.Job) error {
	var moves []jobs.Movement
	for _, a := range answers {
		if !jobs.Concern(a.Hazard) || a.At.After(decidedAt) {
			continue
		}
		m := jobs.Movement{Operator: a.Operator, Kind: jobs.Lost, Key: jobs.UpheldKey + a.Digest, At: s.now()}
		if !upheld {
			m.Amount, m.Key = -jobs.ConcernCost, jobs.OverturnedKey+a.Digest
		}
		moves = append(moves, m)
	}
	var open []string
	for _, j := range panelJobs {
		if !j.Done {
			open = append(open, j.ID)
		}
	}
	_, err := s.store.RetireJobs(ctx, open, moves)
	return err
}

// hazardConcerns counts an operator's concerns a panel upheld and
// overturned, from its account.
func hazardConcerns(moves []jobs.Movement) map[string]any {
	upheld, overturned := 0, 0
	for _, m := range moves {
		switch {
		case len(m.Key) > len(jobs.UpheldKey) && m.Key[:len(jobs.UpheldKey)] == jobs.UpheldKey:
			upheld++
		case len(m.Key) > len(jobs.OverturnedKey) && m.Key[:len(jobs.OverturnedKey)] == jobs.OverturnedKey:
			overturned++
		}
	}
	return map[string]any{"upheld": upheld, "overturned": overturned}
}

// withdrawalEntry is the log's signed withdrawal of b for reason; sealed
// names the commitment it closes when b never opened.
func (s *Server) withdrawalEntry(b ledger.Bundle, reason string) (map[string]any, []byte, string, error) {
	entry := map[string]any{"type": "withdrawal", "bundle": b.Hash, "reason": reason}
	if b.State == ledger.BundleSealed {
		entry["sealed"] = b.SealedIndex
	}
	if err := protocol.Sign(entry, s.logKey); err != nil {
		return nil, nil, "", err
	}
	data, err := canonical.Marshal(entry)
	if err != nil {
		return nil, nil, "", err
	}
	return entry, data, canonical.Digest(data), nil
}

// withdraw takes b down for reason: the log's withdrawal entry, recorded
// and then logged; its jobs (and its canaries') retired; its round's
// sealed answers revealed; and its files deleted or moved as the reason
// asks.
func (s *Server) withdraw(ctx context.Context, b ledger.Bundle, reason string) error {
	ctx = context.WithoutCancel(ctx)
	entry, data, digest, err := s.withdrawalEntry(b, reason)
	if err != nil {
		return err
	}
	if err := s.store.PutSigned(ctx, digest, data, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return err
	}
	standing, err := s.store.WithdrawBundle(ctx, b.Hash, ledger.Withdrawal{Entry: digest, Reason: reason, At: s.now()})
	switch {
	case errors.Is(err, store.ErrDuplicate):
		s.dropUnbound(ctx, digest)
		if standing.Withdrawal.Index != store.Unlogged {
			return nil // withdrawn before, and logged
		}
		// Recorded before a crash and not logged: log the one recorded.
		prior, err := s.store.SignedByDigest(ctx, standing.Withdrawal.Entry)
		if err != nil {
			return err
		}
		v, err := canonical.Parse(prior.Entry)
		if err != nil {
			return err
		}
		entry, _ = v.(map[string]any)
		data, digest, reason = prior.Entry, prior.Digest, standing.Withdrawal.Reason
	case err != nil:
		s.dropUnbound(ctx, digest)
		return err
	}
	if _, err := s.journal.Append(ctx, digest, data, entry, nil); err != nil {
		if appendedNothing(err) {
			s.dropUnbound(ctx, digest)
		}
		return err
	}
	s.snapshotsWithdrawn(b)
	return s.afterWithdrawal(ctx, b, reason)
}

// afterWithdrawal retires a withdrawn bundle's jobs, reveals its round's
// sealed answers (which read back as not counted), and deletes or moves
// its files.
func (s *Server) afterWithdrawal(ctx context.Context, b ledger.Bundle, reason string) error {
	hashes := []string{b.Hash}
	canaries, err := s.store.CanariesOf(ctx, b.Hash)
	if err != nil {
		return err
	}
	for _, c := range canaries {
		hashes = append(hashes, c.Hash)
	}
	var open []string
	for _, h := range hashes {
		js, err := s.store.BundleJobs(ctx, h)
		if err != nil {
			return err
		}
		for _, j := range js {
			if !j.Done {
				open = append(open, j.ID)
			}
		}
	}
	if _, err := s.store.RetireJobs(ctx, open, nil); err != nil {
		return err
	}
	answers, err := s.store.BundleAnswers(ctx, b.Hash)
	if err != nil {
		return err
	}
	for _, a := range answers {
		if a.Salt != "" {
			if err := s.revealAnswer(ctx, a); err != nil {
				return err
			}
		}
	}
	var move func(string) error
	switch reason {
	case jobs.ReasonPrivateData, jobs.ReasonRights:
		move = s.blobs.Remove
	case jobs.ReasonUnlawful:
		move = s.blobs.Quarantine
	default:
		return nil // kept, and served no more
	}
	for _, f := range b.Files {
		elsewhere, err := s.store.HeldElsewhere(ctx, f.Digest, b.Hash)
		if err != nil {
			return err
		}
		if elsewhere {
			continue
		}
		if err := move(f.Digest); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("withdrawing %s: %w", b.Hash, err)
		}
	}
	return nil
}

// trackRecord narrows opens for the verifier whose identity is id: hazard
// and challenge reviews go only to verifiers the node's reviewers invited
// or whose identity is TrackRecordAge old ("Screens and hazard reviews").
// The spec also asks for verdicts that held up 3 times, which the node
// does not count yet.
func trackRecord(id store.Identity, now time.Time, opens func(string) bool) func(string) bool {
	return func(kind string) bool {
		if (kind == jobs.HazardReview || kind == jobs.ChallengeReview) && !hasTrackRecord(id, now) {
			return false
		}
		return opens(kind)
	}
}

// hasTrackRecord reports whether the verifier whose identity is id has the
// track record hazard and challenge reviews ask for.
func hasTrackRecord(id store.Identity, now time.Time) bool {
	return id.Kind == "invited" || now.Sub(id.Added) >= TrackRecordAge
}

// TrackRecordAge is how old an identity must be for hazard and challenge
// reviews, unless the node's reviewers invited its operator.
const TrackRecordAge = 30 * 24 * time.Hour

// withdrawnFile is the answer for a file the node does not serve: 410
// withdrawn when a withdrawn bundle held it (its tombstone is public),
// else notFound as it stands, which says nothing of sealed work.
func (s *Server) withdrawnFile(ctx context.Context, digest string, notFound error) error {
	withdrawn, err := s.store.WithdrawnFile(ctx, digest)
	if err != nil {
		return err
	}
	if withdrawn {
		return &httpapi.Error{Status: http.StatusGone, Code: "withdrawn",
			Message: "The bundle that held " + digest + " was withdrawn: its files are no longer served"}
	}
	return notFound
}
