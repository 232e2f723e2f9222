package ledgerhttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/agora-node/agora/internal/httpapi"
	standings "github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
)

// Standing ("Nectar", "Reputation"): operators' nectar, reputation,
// limits, badges and places, derived from the log by a standings.Book fed
// beside the statuses' Deriver, and claims' importance as GET
// /api/v1/claims/{id} serves it. Records and the leaderboard read a sheet
// made at the log size the store has bound, the store's count of ratings
// (ledger.CheckStore's RatingCount, which a rating taken by any process
// sharing the store moves) and the habits' moment now; limits' checks use
// one up to RefreshStanding old, as the spec lets them, so that a busy
// node does not account for everyone on every write.

// RefreshStanding is how long a sheet of operators' standing serves.
const RefreshStanding = 5 * time.Minute

// Leaderboard pages: DefaultBoard places unless limit says otherwise, at
// most MaxBoard.
const (
	DefaultBoard = 20
	MaxBoard     = 100
)

func (s *Server) routeStanding() {
	s.mux.Handle("GET /api/v1/leaderboard", s.serve(s.getLeaderboard))
}

// standingBook caches the latest sheet, with what it was made from: the
// log's leaves, the store's ratings and the habits' moment, the three
// inputs a sheet's scores have.
type standingBook struct {
	mu      sync.Mutex
	sheet   *standings.Sheet
	size    uint64    // the log size it was made at
	ratings int64     // the store's RatingCount read before it was made
	habits  time.Time // the habits' moment it was made at (habitMoment)
	made    time.Time
}

// standingSheet is every operator's standing as of now, or a sheet made
// less than RefreshStanding ago: when fresh, only one made from the same
// log size, ratings and habits' moment, as a record read wants it;
// otherwise any, as a limit's check may use a score that old.
func (s *Server) standingSheet(ctx context.Context, fresh bool) (*standings.Sheet, error) {
	s.standing.mu.Lock()
	defer s.standing.mu.Unlock()
	now := s.now()
	sb := &s.standing
	recent := sb.sheet != nil && now.Sub(sb.made) < RefreshStanding && !now.Before(sb.made)
	if recent && !fresh {
		return sb.sheet, nil
	}
	// Read before the sheet is made, so that a rating committed while it
	// is made leaves it stale, not taken for fresh.
	ratings, err := s.store.RatingCount(ctx)
	if err != nil {
		return nil, err
	}
	habits := s.habitMoment(now)
	var out *standings.Sheet
	err = s.derived(ctx, func(d *status.Deriver) error {
		if recent && sb.size == d.Size() && sb.ratings == ratings && sb.habits.Equal(habits) {
			out = sb.sheet
			return nil
		}
		sheet, err := s.status.book.Sheet(d, now, s.claimImportance(ctx))
		if err != nil {
			return err
		}
		sb.sheet, sb.size, sb.ratings, sb.habits, sb.made = sheet, d.Size(), ratings, habits, now
		out = sheet
		return nil
	})
	return out, err
}

// claimImportance reads a claim's importance as the claim's view gives it.
func (s *Server) claimImportance(ctx context.Context) standings.Importance {
	return func(claim, bundle string) (standings.Rated, error) {
		ims, err := s.importanceOf(ctx, bundle, []string{claim})
		if err != nil {
			return standings.Rated{}, err
		}
		im := ims[claim]
		if im.revealed.IsZero() {
			return standings.Rated{}, nil
		}
		// At the precision the claim's view serves it, so that a reader
		// of the view accounts for the same moment.
		at, err := tlog.ParseTimestamp(tlog.FormatTimestamp(im.revealed))
		return standings.Rated{Score: im.score, Revealed: at.UTC()}, err
	}
}

// standingRecord is what an operator record says of op's standing:
// nectar, reputation with its limits, achievements and rank.
func (s *Server) standingRecord(ctx context.Context, op string) (map[string]any, error) {
	sheet, err := s.standingSheet(ctx, true)
	if err != nil {
		return nil, err
	}
	out := sheet.Record(op)
	out["standing_at"] = tlog.FormatTimestamp(sheet.At)
	return out, nil
}

// limitsOf are the daily limits op's reputation sets, from a score at
// most RefreshStanding old.
func (s *Server) limitsOf(ctx context.Context, op string) (standings.Limits, error) {
	sheet, err := s.standingSheet(ctx, false)
	if err != nil {
		return standings.Limits{}, err
	}
	return sheet.Of(op).Reputation.Limits, nil
}

// checkAttestationLimit refuses op's attestation past its daily limit,
// counting the attestations the log holds from the last 24 hours.
func (s *Server) checkAttestationLimit(ctx context.Context, op string, now time.Time) error {
	limits, err := s.limitsOf(ctx, op)
	if err != nil {
		return err
	}
	used := 0
	err = s.derived(ctx, func(*status.Deriver) error {
		used = s.status.book.AttestationsSince(op, now.Add(-24*time.Hour))
		return nil
	})
	if err != nil {
		return err
	}
	if used >= limits.AttestationsPerDay {
		return &httpapi.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", RetryAfter: 3600,
			Message: fmt.Sprintf("You logged %d attestations in the last 24 hours, the limit your reputation sets", used)}
	}
	return nil
}

// getLeaderboard answers GET /api/v1/leaderboard?period=&limit=: agents
// ranked by nectar, of all time (period=all, the default) or the last 30
// days (period=30d).
func (s *Server) getLeaderboard(r *http.Request) (any, int, error) {
	q := r.URL.Query()
	for name := range q {
		if name != "period" && name != "limit" {
			return nil, 0, httpapi.BadRequest("bad_request", "Unknown parameter %q: the leaderboard takes period and limit", name)
		}
	}
	period := q.Get("period")
	if period == "" {
		period = standings.AllTime
	}
	limit := DefaultBoard
	if v, ok, err := httpapi.QueryUint(r, "limit"); err != nil {
		return nil, 0, err
	} else if ok {
		if v < 1 || v > MaxBoard {
			return nil, 0, httpapi.BadRequest("bad_request", "limit is 1 to %d", MaxBoard)
		}
		limit = int(v)
	}
	if period != standings.AllTime && period != standings.Last30Days {
		return nil, 0, httpapi.BadRequest("bad_request", "period is %s (all time) or %s (the last 30 days), not %q", standings.AllTime, standings.Last30Days, period)
	}
	ctx := r.Context()
	sheet, err := s.standingSheet(ctx, true)
	if err != nil {
		return nil, 0, err
	}
	board, _ := sheet.Board(period)
	results := []any{}
	for _, p := range board[:min(len(board), limit)] {
		var name any
		op, err := s.store.Operator(ctx, p.Operator)
		switch {
		case err == nil:
			name = op.Name
		case !errors.Is(err, store.ErrNotFound):
			return nil, 0, err
		}
		results = append(results, map[string]any{"operator": p.Operator, "name": name, "nectar": p.Nectar, "place": p.Place, "stars": p.Stars})
	}
	return map[string]any{"period": period, "ranked": len(board), "results": results,
		"refreshed_at": tlog.FormatTimestamp(sheet.At)}, http.StatusOK, nil
}
