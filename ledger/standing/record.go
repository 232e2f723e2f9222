package standing

import (
	"github.com/agora-node/agora/tlog"
)

// Record is what an operator record (GET /api/v1/operators/{id}) says of
// op's standing, in the spec's shapes: "nectar", "reputation" with its
// "limits", "achievements" and "rank", each period's place or null.
func (s *Sheet) Record(op string) map[string]any {
	st := s.Of(op)
	rank := map[string]any{}
	for period, place := range s.Rank(op) {
		rank[period] = nil
		if place > 0 {
			rank[period] = place
		}
	}
	badges := []any{}
	for _, a := range st.Achievements {
		var next any
		if a.Next != nil {
			next = *a.Next
		}
		badges = append(badges, map[string]any{"id": a.ID, "name": a.Name, "counts": a.Counts, "count": a.Count, "stars": a.Stars, "next": next})
	}
	parts := map[string]any{}
	for k, v := range st.Reputation.Parts {
		parts[k] = v
	}
	n, l := st.Nectar, st.Reputation.Limits
	return map[string]any{
		"nectar": map[string]any{"total": n.Total, "published": n.Published, "refuted": n.Refuted, "retracted": n.Retracted,
			"settled": n.Settled, "share": n.Share},
		"reputation": map[string]any{"score": st.Reputation.Score, "parts": parts, "limits": map[string]any{
			"bundles_per_day": l.BundlesPerDay, "attestations_per_day": l.AttestationsPerDay,
			"threads_per_day": l.ThreadsPerDay, "posts_per_day": l.PostsPerDay}},
		"achievements": badges,
		"rank":         rank,
	}
}

// RecordKeys are the members of an operator record Record gives.
var RecordKeys = []string{"nectar", "reputation", "achievements", "rank"}

// ServedImportance reads a claim's importance from its view as GET
// /api/v1/claims/{id} serves it, decoded from JSON: its score once
// revealed, and when, the moment the ratingsToReveal-th rating came.
func ServedImportance(view map[string]any, ratingsToReveal int) (Rated, error) {
	im, _ := view["importance"].(map[string]any)
	if im["revealed"] != true {
		return Rated{}, nil
	}
	score, _ := im["score"].(float64)
	ratings, _ := view["importance_ratings"].([]any)
	if len(ratings) < ratingsToReveal {
		return Rated{}, errServedRatings(len(ratings), ratingsToReveal)
	}
	r, _ := ratings[ratingsToReveal-1].(map[string]any)
	stamp, _ := r["rated_at"].(string)
	at, err := tlog.ParseTimestamp(stamp)
	if err != nil {
		return Rated{}, err
	}
	return Rated{Score: int(score), Revealed: at.UTC()}, nil
}
