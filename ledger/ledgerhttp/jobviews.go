package ledgerhttp

import (
	"context"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
)

// What the check kinds' jobs carry beyond a bundle's files: a replication
// match its `replicates`, a citation check its `citations`, a duplicate
// check its `pairs` (each kept with the job when it was made); and an
// importance rating is a job of its own shape, with the paper, the claims,
// the reviews that count for them and the scale.

// addCheckDetail adds to view what the job's needs list for its kind.
func (s *Server) addCheckDetail(ctx context.Context, j ledger.Job, view map[string]any) error {
	switch j.Kind {
	case jobs.ReplicationMatch, jobs.CitationCheck, jobs.DuplicateCheck, jobs.ChallengeReview:
	default:
		return nil
	}
	needs, err := s.store.JobNeeds(ctx, j.ID)
	if err != nil || needs.Detail == nil {
		return err
	}
	v, err := canonical.Parse(needs.Detail)
	if err != nil {
		return err
	}
	for k, x := range v.(map[string]any) {
		view[k] = x
	}
	return nil
}

// checkDetail is the list a check job's needs hold under name.
func (s *Server) checkDetail(ctx context.Context, j ledger.Job, name string) ([]any, error) {
	view := map[string]any{}
	if err := s.addCheckDetail(ctx, j, view); err != nil {
		return nil, err
	}
	list, _ := view[name].([]any)
	return list, nil
}

// ratingView is an importance rating job: {"job", "kind", "deadline",
// "credits", "bundle", "submitted", "fields", "paper", "claims",
// "reviews", "scale"}.
func (s *Server) ratingView(ctx context.Context, j ledger.Job) (map[string]any, error) {
	b, err := s.store.Bundle(ctx, j.Bundle)
	if err != nil {
		return nil, err
	}
	var paperText any
	if data, err := s.bundleFile(b, "paper.md"); err != nil {
		return nil, err
	} else if data != nil {
		paperText = string(data)
	}
	var claimList []any
	for _, c := range b.Claims {
		cl := claimOf(c)
		claimList = append(claimList, map[string]any{"claim_id": c.ID, "local_id": c.LocalID, "type": c.Type, "core": cl.Core,
			"statement": c.Statement, "statuses": []any{"published"}})
	}
	reviews, err := s.bundleReviews(ctx, b)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"job": j.ID, "kind": j.Kind, "deadline": j.Deadline.UTC().Format(time.RFC3339), "credits": j.Credits, "bundle": j.Bundle,
		"submitted": b.At.UTC().Format(time.RFC3339), "fields": stringsAny(b.Fields), "paper": paperText, "claims": claimList,
		"reviews": reviews, "scale": jobs.Scale(), "served": j.Served, "assigned_at": j.AssignedAt.UTC().Format(time.RFC3339),
	}, nil
}

// bundleReviews are the reviews done of a bundle: each {"kind",
// "model_family", "verdicts": [{"local_id", "verdict"}], "report"}.
func (s *Server) bundleReviews(ctx context.Context, b ledger.Bundle) ([]any, error) {
	answers, err := s.store.BundleAnswers(ctx, b.Hash)
	if err != nil {
		return nil, err
	}
	local := map[string]string{}
	for _, c := range b.Claims {
		local[c.ID] = c.LocalID
	}
	out := []any{}
	for _, a := range answers {
		if !jobs.IsReview(a.Kind) || !a.WithWork {
			continue
		}
		var verdicts []any
		for _, c := range b.Claims {
			if v, ok := a.Verdicts[c.ID]; ok {
				verdicts = append(verdicts, map[string]any{"local_id": local[c.ID], "verdict": v})
			}
		}
		// The node keeps evidence files by their own digests, with no
		// index from an evidence digest to its report yet: report is null.
		out = append(out, map[string]any{"kind": a.Kind, "model_family": a.Family, "verdicts": verdicts, "report": nil})
	}
	return out, nil
}
