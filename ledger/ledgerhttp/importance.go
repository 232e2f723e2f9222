package ledgerhttp

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// Importance ("Importance ratings"): a claim's ratings stay hidden until
// RatingsToReveal organizations have rated it; then each counts as its
// score less its rater's habit (jobs.MeasureHabits, measured on the hour
// from the last 90 days of ratings), and the claim's score is the mean of
// the middle two, following the latest habits for 30 days after it shows.
// GET /api/v1/rating-habits shows the habits measured now.
//
// The habits of a moment are measured once for every process sharing the
// store: the first to need them measures them and keeps them in the store
// (ledger.CheckStore's KeepHabits), and the others, and it, score by the
// habits kept. Measured in each process, two could measure from different
// ratings (one stamped before the moment committed between their
// measurements, or their clocks differ) and score a claim differently.

// habitBook caches the habits kept in the store by their moment: once
// kept, a moment's habits never change.
type habitBook struct {
	mu sync.Mutex
	at map[time.Time]jobs.Habits
}

// habitMoment is the last moment habits are measured at, up to at.
func (s *Server) habitMoment(at time.Time) time.Time {
	return at.UTC().Truncate(cmp.Or(s.cfg.HabitsEvery, time.Hour))
}

// habitsAt is the habits of the last measuring moment up to at: those the
// store keeps for it, measured and kept now if none are yet.
func (s *Server) habitsAt(ctx context.Context, at time.Time) (jobs.Habits, error) {
	moment := s.habitMoment(at)
	s.habits.mu.Lock()
	defer s.habits.mu.Unlock()
	if h, ok := s.habits.at[moment]; ok {
		return h, nil
	}
	h, err := s.store.KeptHabits(ctx, moment)
	if errors.Is(err, store.ErrNotFound) {
		if h, err = s.measureHabits(ctx, moment); err == nil {
			h, err = s.store.KeepHabits(ctx, h)
		}
	}
	if err != nil {
		return jobs.Habits{}, err
	}
	if s.habits.at == nil || len(s.habits.at) > 64 {
		s.habits.at = map[time.Time]jobs.Habits{}
	}
	s.habits.at[moment] = h
	return h, nil
}

// measureHabits measures the habits at moment from the store's ratings.
func (s *Server) measureHabits(ctx context.Context, moment time.Time) (jobs.Habits, error) {
	ratings, err := s.store.RatingsSince(ctx, moment.Add(-jobs.HabitWindow))
	if err != nil {
		return jobs.Habits{}, err
	}
	var samples []jobs.RatingSample
	for _, r := range ratings {
		for claim, score := range r.Scores {
			samples = append(samples, jobs.RatingSample{Claim: claim, Model: r.Model, Family: r.Family, Score: score, At: r.At})
		}
	}
	return jobs.MeasureHabits(samples, moment), nil
}

// importance is where one claim's ratings stand.
type importance struct {
	ratings  []ledger.Rating // in the order they came, each with a score for the claim
	revealed time.Time       // when the RatingsToReveal-th came; zero while hidden
	habits   jobs.Habits
	score    int
	counted  []float64
}

func (im importance) object() map[string]any {
	var score any
	if !im.revealed.IsZero() {
		score = im.score
	}
	return map[string]any{"score": score, "ratings": len(im.ratings), "revealed": !im.revealed.IsZero(),
		"rubric": jobs.RubricEdition, "rerating": false, "rereviewed": false}
}

// ratingsView lists the ratings once revealed, each with its rater,
// reason, habit and what it counts as; none while hidden, so no rater
// sees another's score first.
func (im importance) ratingsView(claim string) []any {
	out := []any{}
	if im.revealed.IsZero() {
		return out
	}
	for i, r := range im.ratings[:min(len(im.ratings), jobs.RatingsToScore)] {
		out = append(out, map[string]any{"rater": r.Operator, "organization": r.Organization, "model_family": r.Family, "model": r.Model,
			"score": r.Scores[claim], "reason": r.Reasons[claim], "habit": im.habits.Of(r.Model, r.Family), "counted_as": im.counted[i],
			"rated_at": tlog.FormatTimestamp(r.At)})
	}
	return out
}

// importanceOf works out the importance of each of ids, claims of bundle
// hash.
func (s *Server) importanceOf(ctx context.Context, hash string, ids []string) (map[string]importance, error) {
	ratings, err := s.store.ImportanceRatings(ctx, hash)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := map[string]importance{}
	for _, id := range ids {
		var im importance
		for _, r := range ratings {
			if _, ok := r.Scores[id]; ok {
				im.ratings = append(im.ratings, r)
			}
		}
		if len(im.ratings) >= RatingsToReveal {
			im.revealed = im.ratings[RatingsToReveal-1].At
			at := now
			if follow := im.revealed.Add(jobs.HabitsFollowFor); follow.Before(at) {
				at = follow
			}
			if im.habits, err = s.habitsAt(ctx, at); err != nil {
				return nil, err
			}
			for _, r := range im.ratings[:jobs.RatingsToScore] {
				im.counted = append(im.counted, jobs.CountedAs(r.Scores[id], im.habits.Of(r.Model, r.Family)))
			}
			im.score = jobs.ImportanceScore(im.counted)
		}
		out[id] = im
	}
	return out, nil
}

// claimsImportance works out the importance of found claims, bundle by
// bundle.
func (s *Server) claimsImportance(ctx context.Context, found []ledger.FoundClaim) (map[string]importance, error) {
	byBundle := map[string][]string{}
	for _, c := range found {
		byBundle[c.Bundle] = append(byBundle[c.Bundle], c.ID)
	}
	out := map[string]importance{}
	for hash, ids := range byBundle {
		got, err := s.importanceOf(ctx, hash, ids)
		if err != nil {
			return nil, err
		}
		for id, im := range got {
			out[id] = im
		}
	}
	return out, nil
}

// getRatingHabits answers GET /api/v1/rating-habits.
func (s *Server) getRatingHabits(r *http.Request) (any, int, error) {
	h, err := s.habitsAt(r.Context(), s.now())
	if err != nil {
		return nil, 0, err
	}
	list := func(hs []jobs.Habit) []any {
		out := []any{}
		for _, x := range hs {
			out = append(out, map[string]any{"name": x.Name, "habit": x.Offset, "ratings": x.Ratings})
		}
		return out
	}
	return map[string]any{"measured_at": tlog.FormatTimestamp(h.At), "window_days": int(jobs.HabitWindow.Hours() / 24),
		"min_ratings": jobs.MinHabitRatings, "models": list(h.Models), "families": list(h.Families)}, http.StatusOK, nil
}

// byImportance finds the page of claims cq asks for most important first
// ("Finding and following claims"): claims whose score is revealed, by
// score and then newest first, then every other claim, counting as 0,
// newest first; offset and cq.Limit page through them.
func (s *Server) byImportance(ctx context.Context, cq ledger.ClaimQuery, offset int,
	search func(context.Context, ledger.ClaimQuery) ([]ledger.FoundClaim, error)) ([]ledger.FoundClaim, bool, error) {
	all, err := s.store.RatingsSince(ctx, time.Time{})
	if err != nil {
		return nil, false, err
	}
	rated := map[string]int{}
	for _, r := range all {
		for id := range r.Scores {
			rated[id]++
		}
	}
	var candidates []string
	for id, n := range rated {
		if n >= RatingsToReveal {
			candidates = append(candidates, id)
		}
	}
	var scored []ledger.FoundClaim
	scores := map[string]int{}
	if len(candidates) > 0 {
		q := cq
		q.Only, q.Limit = candidates, len(candidates)
		found, err := search(ctx, q)
		if err != nil {
			return nil, false, err
		}
		ims, err := s.claimsImportance(ctx, found)
		if err != nil {
			return nil, false, err
		}
		for _, c := range found {
			if im := ims[c.ID]; !im.revealed.IsZero() && im.score > 0 {
				scored = append(scored, c)
				scores[c.ID] = im.score
			}
		}
	}
	slices.SortStableFunc(scored, func(a, b ledger.FoundClaim) int {
		if c := cmp.Compare(scores[b.ID], scores[a.ID]); c != 0 {
			return c
		}
		return cmp.Compare(b.Opened, a.Opened)
	})
	want := offset + cq.Limit
	out := scored
	more := false
	if len(out) < want {
		q := cq
		q.Limit = want - len(out) + len(scored)
		rest, err := search(ctx, q)
		if err != nil {
			return nil, false, err
		}
		for _, c := range rest {
			if _, ok := scores[c.ID]; !ok {
				out = append(out, c)
			}
		}
		more = len(rest) >= q.Limit
	} else {
		more = true
	}
	if offset >= len(out) {
		return nil, false, nil
	}
	page := out[offset:min(len(out), want)]
	return page, more || len(out) > want, nil
}
