package ledgerhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
)

// Addendum screens: an addendum's prepaid screens are addendum_screen jobs
// on its bundle, for organizations other than the author's and models of
// other families; POST /api/v1/addendum-screens takes a screener's signed
// screen and logs it, so the log settles the addendum (ledger/status).
// Once it is settled, lapsed or withdrawn the node settles the credit: the
// screens not done come back to the author, and a blocked addendum's words
// are deleted.

func addendumJobID(index uint64, n int) string {
	return roundJobID("addendum:"+strconv.FormatUint(index, 10), jobs.AddendumScreen, n)
}

func addendumKey(index uint64) string { return "addendum:" + strconv.FormatUint(index, 10) }

// screenJob is addendum a's n-th screen job.
func (s *Server) screenJob(ctx context.Context, a status.Addendum, n int, now time.Time) (ledger.CheckJob, error) {
	b, err := s.store.Bundle(ctx, a.Bundle)
	if err != nil {
		return ledger.CheckJob{}, err
	}
	org := b.Operator
	if op, err := s.store.Operator(ctx, b.Operator); err == nil {
		if id, ok := op.Identity(); ok {
			org = id.Organization
		}
	}
	families := s.bundleFamilies(b)
	if a.ModelFamily != "" {
		families = []string{a.ModelFamily}
	}
	return ledger.CheckJob{Job: ledger.Job{ID: addendumJobID(a.Index, n), Kind: jobs.AddendumScreen, Bundle: b.Hash,
		Urgency: jobs.UrgencyOther, AuthorOrgs: []string{org}, AuthorFamilies: families, Credits: AddendumScreenCredits, Created: now},
		Needs: ledger.JobNeeds{Detail: detailJSON(map[string]any{"addendum": map[string]any{"index": a.Index}})}}, nil
}

// openScreens makes addendum a's prepaid screens and takes its price from
// its author, once: made again, they are there already and nothing moves.
func (s *Server) openScreens(ctx context.Context, a status.Addendum, now time.Time) error {
	var js []ledger.CheckJob
	for n := range AddendumScreens {
		j, err := s.screenJob(ctx, a, n, now)
		if err != nil {
			return err
		}
		js = append(js, j)
	}
	pay := []jobs.Movement{{Operator: a.Author, Kind: jobs.Spent, Amount: -AddendumPrice, Key: addendumKey(a.Index), At: now}}
	if err := s.store.CreateCheckJobs(context.WithoutCancel(ctx), js, pay); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return fmt.Errorf("making addendum %d's screens: %w", a.Index, err)
	}
	return nil
}

// screenIndex is the addendum a screen job is for, from its detail.
func (s *Server) screenIndex(ctx context.Context, j ledger.Job) (uint64, error) {
	needs, err := s.store.JobNeeds(ctx, j.ID)
	if err != nil {
		return 0, err
	}
	var detail struct {
		Addendum struct {
			Index *uint64 `json:"index"`
		} `json:"addendum"`
	}
	if err := json.Unmarshal(needs.Detail, &detail); err != nil || detail.Addendum.Index == nil {
		return 0, fmt.Errorf("addendum screen job %s names no addendum", j.ID)
	}
	return *detail.Addendum.Index, nil
}

// guardedScreens are the reserve screens the verifier whose identity is id
// may not take: those of ties in which a screen named a hazard, when it has
// no track record.
func (s *Server) guardedScreens(ctx context.Context, id store.Identity, now time.Time) (map[string]bool, error) {
	if hasTrackRecord(id, now) {
		return nil, nil
	}
	out := map[string]bool{}
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, a := range d.Addenda(now) {
			if a.Tied() && a.NamedHazard() {
				out[addendumJobID(a.Index, AddendumScreens)] = true
			}
		}
		return nil
	})
	return out, err
}

// screenAddendum answers POST /api/v1/addendum-screens.
func (s *Server) screenAddendum(r *http.Request) (any, int, error) {
	entry, _, err := s.signedObject(r, jobs.AddendumScreen)
	if err != nil {
		return nil, 0, err
	}
	ctx, now := r.Context(), s.now()
	v, list := jobs.CheckAddendumScreen(entry)
	op, identity, err := s.signedAnswer(ctx, v.Screener, entry, list, "invalid_screen", "The addendum screen")
	if err != nil {
		return nil, 0, err
	}
	var a status.Addendum
	found := false
	if err := s.derived(ctx, func(d *status.Deriver) error {
		a, found = d.AddendumAt(v.Addendum, now)
		return nil
	}); err != nil {
		return nil, 0, err
	}
	if !found {
		return nil, 0, httpapi.NotFound("No addendum is logged at %d", v.Addendum)
	}
	finish, err := s.answering(ctx, op.ID)
	if err != nil {
		return nil, 0, err
	}
	defer finish()
	job, err := s.heldJob(ctx, op.ID, a.Bundle, v.ModelFamily, now, jobs.AddendumScreen)
	if err != nil {
		return nil, 0, err
	}
	if held, err := s.screenIndex(ctx, job); err != nil {
		return nil, 0, err
	} else if held != v.Addendum {
		return nil, 0, conflict("wrong_addendum", "Your job screens addendum %d, not %d: name it as \"addendum\"", held, v.Addendum)
	}
	if a.State != status.AddendumScreening {
		return nil, 0, conflict("settled", "Addendum %d is %s already: it needs no more screens", v.Addendum, a.State)
	}
	verdicts := map[string]string{strconv.FormatUint(v.Addendum, 10): v.Verdict}
	// The hazard a screen names is the addendum's, never its bundle's: it
	// stays in the logged entry, off the answer the bundle's hazard
	// screen reads.
	if _, err := s.logAnswer(ctx, job, entry, op.ID, identity.Organization, v.ModelFamily, verdicts, "", true, now); err != nil {
		return nil, 0, err
	}
	if err := s.settleAddenda(ctx); err != nil {
		s.logger.Error("settling addenda", "addendum", v.Addendum, "err", err)
	}
	if err := s.derived(ctx, func(d *status.Deriver) error {
		a, _ = d.AddendumAt(v.Addendum, s.now())
		return nil
	}); err != nil {
		return nil, 0, err
	}
	return map[string]any{"addendum": v.Addendum, "verdict": v.Verdict, "status": a.State}, http.StatusCreated, nil
}

// settleAddenda brings every addendum's jobs and credit in line with the
// log: one screening has its screens, and a tie its reserve screen; one
// settled, lapsed or withdrawn closes its screens, gives its author back
// those not done, and, blocked, loses its words. Each movement has a key of
// its own, so settling again moves nothing.
func (s *Server) settleAddenda(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	now := s.now()
	var all []status.Addendum
	if err := s.derived(ctx, func(d *status.Deriver) error {
		all = d.Addenda(now)
		return nil
	}); err != nil {
		return err
	}
	s.addenda.settleMu.Lock()
	defer s.addenda.settleMu.Unlock()
	unlock, err := s.acrossProcesses(ctx, "addenda.settle")
	if err != nil {
		return err
	}
	defer unlock()
	if s.addenda.settled == nil {
		s.addenda.settled, s.addenda.made = map[uint64]bool{}, map[uint64]int{}
	}
	for _, a := range all {
		if s.addenda.settled[a.Index] {
			continue
		}
		if a.State != status.AddendumScreening {
			if err := s.settleAddendum(ctx, a, now); err != nil {
				return err
			}
			s.addenda.settled[a.Index] = true
			continue
		}
		// Its screens, made again if the node stopped between logging it
		// and making them.
		if s.addenda.made[a.Index] < AddendumScreens {
			if err := s.openScreens(ctx, a, now); err != nil {
				return err
			}
			s.addenda.made[a.Index] = AddendumScreens
		}
		if a.Tied() && s.addenda.made[a.Index] == AddendumScreens {
			j, err := s.screenJob(ctx, a, AddendumScreens, now)
			if err != nil {
				return err
			}
			if err := s.store.CreateCheckJobs(ctx, []ledger.CheckJob{j}, nil); err != nil && !errors.Is(err, store.ErrDuplicate) {
				return fmt.Errorf("making addendum %d's reserve screen: %w", a.Index, err)
			}
			s.addenda.made[a.Index]++
		}
	}
	return nil
}

func (s *Server) settleAddendum(ctx context.Context, a status.Addendum, now time.Time) error {
	var open []string
	done := 0
	for n := range AddendumScreens + 1 {
		j, err := s.store.Job(ctx, addendumJobID(a.Index, n))
		if errors.Is(err, store.ErrNotFound) {
			if n < AddendumScreens {
				return nil // an addendum this node made no screens for
			}
			continue
		}
		if err != nil {
			return err
		}
		if j.Done {
			done++
		} else {
			open = append(open, j.ID)
		}
	}
	if len(open) > 0 {
		if _, err := s.store.RetireJobs(ctx, open, nil); err != nil {
			return err
		}
	}
	if back := AddendumPrice - done*AddendumScreenCredits; back > 0 {
		moves := []jobs.Movement{{Operator: a.Author, Kind: jobs.Refunded, Amount: back, Key: addendumKey(a.Index) + ":unused", At: now}}
		if _, err := s.store.AddMovements(ctx, moves); err != nil {
			return err
		}
	}
	if a.State == status.AddendumBlocked {
		if err := s.blobs.Remove(a.Words); err != nil && s.addendumText(a.Words) != nil {
			return fmt.Errorf("deleting blocked addendum %d's words: %w", a.Index, err)
		}
	}
	return nil
}

// addendumJobView is an addendum_screen job: {"job", "kind", "deadline",
// "credits", "addendum": {"addendum", "bundle", "text", "still_waiting"},
// "bundle": {"bundle", "title", "fields", "paper", "claims"},
// "hazard_rubric": {"rubric", "text"}, "rules", "block_reasons"}.
func (s *Server) addendumJobView(ctx context.Context, j ledger.Job) (map[string]any, error) {
	index, err := s.screenIndex(ctx, j)
	if err != nil {
		return nil, err
	}
	var a status.Addendum
	if err := s.derived(ctx, func(d *status.Deriver) error {
		a, _ = d.AddendumAt(index, s.now())
		return nil
	}); err != nil {
		return nil, err
	}
	b, err := s.store.Bundle(ctx, j.Bundle)
	if err != nil {
		return nil, err
	}
	var paperText, title any
	data, err := s.bundleFile(b, "paper.md")
	if err != nil {
		return nil, err
	}
	if data != nil {
		paperText, title = string(data), paperTitle(string(data))
	}
	found := make([]ledger.FoundClaim, len(b.Claims))
	for i, c := range b.Claims {
		found[i] = ledger.FoundClaim{Claim: c, Bundle: b.Hash}
	}
	derived, err := s.heldStatuses(ctx, found)
	if err != nil {
		return nil, err
	}
	claimList := []any{}
	for i, c := range b.Claims {
		claimList = append(claimList, map[string]any{"claim_id": c.ID, "local_id": c.LocalID, "statement": c.Statement,
			"statuses": statusList(found[i], derived)})
	}
	reasons := map[string]any{}
	for _, r := range jobs.AddendumBlockReasons {
		reasons[r] = jobs.AddendumBlockMeaning[r]
	}
	return map[string]any{
		"job": j.ID, "kind": j.Kind, "deadline": j.Deadline.UTC().Format(time.RFC3339), "credits": j.Credits,
		"served": j.Served, "assigned_at": j.AssignedAt.UTC().Format(time.RFC3339),
		"addendum": map[string]any{"addendum": index, "bundle": a.Bundle, "text": s.addendumText(a.Words),
			"still_waiting": a.State == status.AddendumScreening},
		"bundle":        map[string]any{"bundle": b.Hash, "title": title, "fields": stringsAny(b.Fields), "paper": paperText, "claims": claimList},
		"hazard_rubric": map[string]any{"rubric": hazard.Digest(), "text": string(hazard.Text())},
		"rules":         stringsAny(jobs.AddendumRules), "block_reasons": reasons,
	}, nil
}

// paperTitle is a paper's first level-one heading, nil without one.
func paperTitle(md string) any {
	for line := range strings.Lines(md) {
		if title, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return title
		}
	}
	return nil
}
