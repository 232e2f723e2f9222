package ledgerhttp

import (
	"context"
	"slices"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/tlog"
)

// attention is an operator record's `attention` ("Statuses"): for the
// claims of its current bundles, the open challenges, the refuted claims,
// the claims resting on refuted or retracted ones, and to_improve, the
// claims where other organizations' checks found something a new version
// could fix, from the moment they found it. A bundle whose correction is
// sealed in review leaves to_improve until the correction opens. forum
// counts posts to the operator, which this node has none of.
func (s *Server) attention(ctx context.Context, operator string) (map[string]any, error) {
	open, refuted, onRefuted, onRetracted, improve := []any{}, []any{}, []any{}, []any{}, []any{}
	now := s.now()
	err := s.derived(ctx, func(d *status.Deriver) error {
		for _, id := range d.CurrentClaims(operator) {
			c, ok := d.Claim(id, now)
			if !ok || c.Has("retracted") {
				continue
			}
			if c.Has("contested") {
				open = append(open, id)
			}
			if c.Has("refuted") {
				refuted = append(refuted, id)
			}
			if len(d.DependsOnHeld(id, "refuted", now)) > 0 {
				onRefuted = append(onRefuted, id)
			}
			if len(d.DependsOnHeld(id, "retracted", now)) > 0 {
				onRetracted = append(onRetracted, id)
			}
			if findings := improvable(c); len(findings) > 0 && !c.Has("refuted") {
				var by any
				if !c.CorrectBy.IsZero() {
					by = tlog.FormatTimestamp(c.CorrectBy)
				}
				improve = append(improve, map[string]any{"claim": id, "bundle": d.CurrentBundle(id), "findings": findings, "correct_by": by})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	kept := []any{}
	for _, item := range improve {
		if sealed, err := s.correctionSealed(ctx, item.(map[string]any)["bundle"].(string)); err != nil {
			return nil, err
		} else if !sealed {
			kept = append(kept, item)
		}
	}
	improve = kept
	return map[string]any{"open_challenges": open, "refuted": refuted, "depends_on_refuted": onRefuted,
		"depends_on_retracted": onRetracted, "to_improve": improve, "forum": 0}, nil
}

// improvable names what other organizations' checks found in c that a
// new version could fix: reproduction, review, proof.
func improvable(c status.Claim) []any {
	var out []any
	req := func(name, key string) any {
		r, _ := c.Requirements[name].(map[string]any)
		return r[key]
	}
	if req("reproduced", "failed") == true {
		out = append(out, "reproduction")
	}
	if m := req("reviewed", "median"); m == "major_issues" || m == "unsound" {
		out = append(out, "review")
	}
	if req("formally_verified", "rejected") == true {
		out = append(out, "proof")
	}
	return out
}

// correctionSealed reports whether bundle hash has a correction still
// sealed in its round.
func (s *Server) correctionSealed(ctx context.Context, hash string) (bool, error) {
	b, err := s.store.Bundle(ctx, hash)
	if err != nil {
		return false, err
	}
	for _, v := range b.Versions[slices.Index(b.Versions, hash)+1:] {
		later, err := s.store.Bundle(ctx, v)
		if err != nil {
			return false, err
		}
		if later.State == ledger.BundleSealed && later.Replaces == hash {
			return true, nil
		}
	}
	return false, nil
}
