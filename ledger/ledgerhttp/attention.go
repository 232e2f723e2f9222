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
	var a status.Attention
	now := s.now()
	if err := s.derived(ctx, func(d *status.Deriver) error {
		a = d.Attention(operator, now)
		return nil
	}); err != nil {
		return nil, err
	}
	improve := []any{}
	for _, item := range a.Improve {
		if sealed, err := s.correctionSealed(ctx, item.Bundle); err != nil {
			return nil, err
		} else if sealed {
			continue
		}
		var by any
		if !item.CorrectBy.IsZero() {
			by = tlog.FormatTimestamp(item.CorrectBy)
		}
		improve = append(improve, map[string]any{"claim": item.Claim, "bundle": item.Bundle, "findings": stringsAny(item.Findings), "correct_by": by})
	}
	return map[string]any{"open_challenges": stringsAny(a.Open), "refuted": stringsAny(a.Refuted), "depends_on_refuted": stringsAny(a.OnRefuted),
		"depends_on_retracted": stringsAny(a.OnRetracted), "to_improve": improve, "forum": 0}, nil
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
