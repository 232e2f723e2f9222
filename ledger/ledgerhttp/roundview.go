package ledgerhttp

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/tlog"
)

// The round of a sealed bundle as GET /api/v1/sealed/{index} shows it: the
// spec has the answer say where a sealed entry stands, and a newcomer who
// just submitted wants to know what it waits for and when it opens. What is
// shown is what any verifier could learn from the jobs offered (kinds,
// counts, times); nothing of the bundle's content or its verdicts.

// roundJob is one job of a sealed bundle's round, as shown.
type roundJob struct {
	Kind     string `json:"kind"`
	State    string `json:"state"` // "waiting" for a taker, "taken", or "done"
	Deadline string `json:"deadline,omitempty"`
}

// roundView says what a sealed bundle's round has done and still needs,
// and when, on the node's clock, it opens at the latest as far as the node
// knows (null when that waits on people, such as a hazard panel).
func (s *Server) roundView(ctx context.Context, b ledger.Bundle) (map[string]any, error) {
	all, err := s.store.BundleJobs(ctx, b.Hash)
	if err != nil {
		return nil, err
	}
	var first, reviews, panel []ledger.Job
	for _, j := range all {
		switch {
		case j.ID == reserveJobID(b.Hash):
		case jobs.IsReview(j.Kind):
			reviews = append(reviews, j)
		case j.Kind == jobs.HazardReview:
			panel = append(panel, j)
		case j.Kind == jobs.Reproduction || j.Kind == jobs.Screen:
			first = append(first, j)
		}
	}
	view := map[string]any{"jobs": shownJobs(slices.Concat(first, reviews, panel))}
	var opensBy time.Time
	var needs []string
	stage := "waiting"
	switch {
	case len(panel) > 0:
		stage = "hazard_panel"
		needs = append(needs, fmt.Sprintf("a hazard panel of %d reviews from organizations not yet involved (%d in): a screen named a concern, and the panel decides whether the bundle goes on or is withdrawn", len(panel), countDone(panel)))
	case len(reviews) > 0:
		stage = "reviews"
		started := earliest(reviews)
		opensBy = started.Add(jobs.SealedWait)
		needs = append(needs, fmt.Sprintf("%d sealed reviews (%d in); it opens when they are in, or %s after they started with the ones in by then", len(reviews), countDone(reviews), hours(jobs.SealedWait)))
	case len(first) > 0:
		stage = "first_jobs"
		started := earliest(first)
		what := "reproductions"
		if first[0].Kind == jobs.Screen {
			what = "screens"
		}
		needs = append(needs, fmt.Sprintf("%d %s, each by another organization (%d back), with no hazard found", len(first), what, countDone(first)))
		computing := slices.ContainsFunc(b.Claims, computes)
		if first[0].Kind == jobs.Screen && computing {
			needs = append(needs, "then it opens, and its reproductions and reviews run in public")
		} else {
			needs = append(needs, fmt.Sprintf("then %d sealed reviews, which start once 2 organizations screened it clean and its first jobs are back (or %s after they were made); it opens when the reviews are in, or %s after they started", len(jobs.ReviewKinds), hours(jobs.SealedWait), hours(jobs.SealedWait)))
			opensBy = started.Add(2 * jobs.SealedWait)
		}
	default:
		needs = append(needs, "the node has made no jobs for it yet")
	}
	view["stage"], view["needs"] = stage, needs
	view["opens_by"] = nil
	if !opensBy.IsZero() {
		view["opens_by"] = tlog.FormatTimestamp(opensBy)
	}
	if s.cfg.OpenAfter > 0 {
		// The development switch opens it whatever its round.
		at := b.At.Add(s.cfg.OpenAfter)
		if opensBy.IsZero() || at.Before(opensBy) {
			view["opens_by"] = tlog.FormatTimestamp(at)
		}
		view["open_after"] = s.cfg.OpenAfter.String()
	}
	if view["opens_by"] == nil {
		view["opens"] = "when its round is done: the node cannot say when, since that waits on verifiers taking its jobs"
	} else {
		view["opens"] = "by " + view["opens_by"].(string) + " at the latest, if 2 organizations have screened it clean by then; sooner once its jobs are done"
	}
	return view, nil
}

func shownJobs(js []ledger.Job) []roundJob {
	out := make([]roundJob, 0, len(js))
	for _, j := range js {
		r := roundJob{Kind: j.Kind, State: "waiting"}
		switch {
		case j.Done:
			r.State = "done"
		case j.Operator != "":
			r.State = "taken"
			r.Deadline = tlog.FormatTimestamp(j.Deadline)
		}
		out = append(out, r)
	}
	return out
}

func countDone(js []ledger.Job) int {
	n := 0
	for _, j := range js {
		if j.Done {
			n++
		}
	}
	return n
}

func earliest(js []ledger.Job) time.Time {
	t := js[0].Created
	for _, j := range js[1:] {
		if j.Created.Before(t) {
			t = j.Created
		}
	}
	return t
}

func hours(d time.Duration) string { return fmt.Sprintf("%.0f hours", d.Hours()) }
