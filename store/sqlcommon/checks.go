package sqlcommon

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

func (s *Shared) CreateCheckJobs(ctx context.Context, js []ledger.CheckJob, moves []jobs.Movement) error {
	return s.Write(ctx, func(tx Querier) error {
		for _, j := range js {
			if err := InsertJob(ctx, tx, j.Job); err != nil {
				return err
			}
			detail := "null"
			if j.Needs.Detail != nil {
				detail = string(j.Needs.Detail)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO job_needs (job, software, detail) VALUES (?, ?, ?)`,
				j.ID, JSONText(OrEmpty(j.Needs.Software)), detail); err != nil {
				return err
			}
		}
		_, err := AddMoves(ctx, tx, moves)
		return err
	})
}

func (s *Shared) JobNeeds(ctx context.Context, id string) (ledger.JobNeeds, error) {
	var n ledger.JobNeeds
	err := s.Read(ctx, func(tx Querier) error {
		var software, detail string
		err := tx.QueryRowContext(ctx, `SELECT software, detail FROM job_needs WHERE job = ?`, id).Scan(&software, &detail)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if detail != "null" {
			n.Detail = []byte(detail)
		}
		return json.Unmarshal([]byte(software), &n.Software)
	})
	return n, err
}

func (s *Shared) RateImportance(ctx context.Context, r ledger.Rating, pay []jobs.Movement) (ledger.Job, error) {
	var got ledger.Job
	err := s.Write(ctx, func(tx Querier) error {
		j, err := JobIn(ctx, tx, r.Job)
		if err != nil {
			return err
		}
		var prior int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM importance_ratings WHERE job = ? AND operator = ?`, r.Job, r.Operator).Scan(&prior); err != nil {
			return err
		}
		if prior > 0 {
			got = j
			return fmt.Errorf("store: %s rated job %s: %w", r.Operator, r.Job, store.ErrDuplicate)
		}
		if j.Done || j.Operator != r.Operator || !j.Deadline.After(r.At) {
			return fmt.Errorf("store: job %s is not held by %s now: %w", r.Job, r.Operator, store.ErrConflict)
		}
		for claim, score := range r.Scores {
			if _, err := tx.ExecContext(ctx, `INSERT INTO importance_ratings (job, claim, bundle, operator, organization, family, model, score, reason, digest, signed, at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Job, claim, r.Bundle, r.Operator, r.Organization, r.Family, r.Model,
				score, r.Reasons[claim], r.Digest, r.Signed, Nanos(r.At)); err != nil {
				return err
			}
		}
		// The count's one row, made by the first rating: a schema just
		// migrated holds no rows, as an import into it needs.
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_count (one, ratings) VALUES (1, 1)
			ON CONFLICT (one) DO UPDATE SET ratings = rating_count.ratings + 1`); err != nil {
			return err
		}
		got, err = finishJob(ctx, tx, r.Job, r.Digest, pay)
		return err
	})
	return got, err
}

// RatingCount implements ledger.CheckStore.
func (s *Shared) RatingCount(ctx context.Context) (int64, error) {
	var n int64
	err := s.R.QueryRowContext(ctx, `SELECT ratings FROM rating_count WHERE one = 1`).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// keptHabits is how rating_habits holds one measurement.
type keptHabits struct {
	Models   []keptHabit `json:"models"`
	Families []keptHabit `json:"families"`
}

type keptHabit struct {
	Name    string  `json:"name"`
	Offset  float64 `json:"offset"`
	Ratings int     `json:"ratings"`
}

func keptList(hs []jobs.Habit) []keptHabit {
	out := make([]keptHabit, 0, len(hs))
	for _, h := range hs {
		out = append(out, keptHabit(h))
	}
	return out
}

func habitList(ks []keptHabit) []jobs.Habit {
	var out []jobs.Habit
	for _, k := range ks {
		out = append(out, jobs.Habit(k))
	}
	return out
}

// KeepHabits implements ledger.CheckStore.
func (s *Shared) KeepHabits(ctx context.Context, h jobs.Habits) (jobs.Habits, error) {
	text, err := json.Marshal(keptHabits{Models: keptList(h.Models), Families: keptList(h.Families)})
	if err != nil {
		return jobs.Habits{}, err
	}
	err = s.Write(ctx, func(tx Querier) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO rating_habits (at, habits) VALUES (?, ?) ON CONFLICT (at) DO NOTHING`,
			Nanos(h.At), string(text))
		return err
	})
	if err != nil {
		return jobs.Habits{}, err
	}
	return s.KeptHabits(ctx, h.At)
}

// KeptHabits implements ledger.CheckStore.
func (s *Shared) KeptHabits(ctx context.Context, at time.Time) (jobs.Habits, error) {
	var text string
	err := s.R.QueryRowContext(ctx, `SELECT habits FROM rating_habits WHERE at = ?`, Nanos(at)).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return jobs.Habits{}, fmt.Errorf("store: no rating habits kept for %s: %w", at.UTC().Format(time.RFC3339Nano), store.ErrNotFound)
	}
	if err != nil {
		return jobs.Habits{}, err
	}
	var k keptHabits
	if err := json.Unmarshal([]byte(text), &k); err != nil {
		return jobs.Habits{}, fmt.Errorf("store: the rating habits kept for %s: %w", at.UTC().Format(time.RFC3339Nano), err)
	}
	return jobs.Habits{At: FromNanos(Nanos(at)), Models: habitList(k.Models), Families: habitList(k.Families)}, nil
}

func (s *Shared) ImportanceRatings(ctx context.Context, bundle string) ([]ledger.Rating, error) {
	return s.ratings(ctx, `bundle = ?`, bundle)
}

// RatingsSince implements ledger.CheckStore.
func (s *Shared) RatingsSince(ctx context.Context, since time.Time) ([]ledger.Rating, error) {
	return s.ratings(ctx, `at >= ?`, since.UnixNano())
}

// ratings reads the ratings whose rows match where, in the order they
// came, each rating's claims gathered into one.
func (s *Shared) ratings(ctx context.Context, where string, arg any) ([]ledger.Rating, error) {
	var out []ledger.Rating
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT job, bundle, claim, operator, organization, family, model, score, reason, digest, signed, at
			FROM importance_ratings WHERE `+where+` ORDER BY at, job, claim`, arg)
		if err != nil {
			return err
		}
		defer rows.Close()
		at := map[string]int{}
		for rows.Next() {
			var r ledger.Rating
			var claim, reason string
			var score int
			var when int64
			if err := rows.Scan(&r.Job, &r.Bundle, &claim, &r.Operator, &r.Organization, &r.Family, &r.Model, &score, &reason, &r.Digest, &r.Signed, &when); err != nil {
				return err
			}
			i, seen := at[r.Job]
			if !seen {
				r.At = FromNanos(when)
				r.Scores, r.Reasons = map[string]int{}, map[string]string{}
				i = len(out)
				at[r.Job] = i
				out = append(out, r)
			}
			out[i].Scores[claim] = score
			if reason != "" {
				out[i].Reasons[claim] = reason
			}
		}
		return rows.Err()
	})
	return out, err
}

// RetireBundleJobs implements ledger.CheckStore.
func (s *Shared) RetireBundleJobs(ctx context.Context, bundle, kind string, moves []jobs.Movement) (int, error) {
	var n int64
	err := s.Write(ctx, func(tx Querier) error {
		res, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1 WHERE bundle = ? AND kind = ? AND done = 0`, bundle, kind)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		_, err = AddMoves(ctx, tx, moves)
		return err
	})
	return int(n), err
}

// The round's timers and withdrawals (ledger.RoundStore). They need no
// table of their own: a retired job is a job done with no answer, and a
// withdrawn bundle's files are its bundle_files rows.

// RetireJobs implements ledger.RoundStore.
func (s *Shared) RetireJobs(ctx context.Context, ids []string, moves []jobs.Movement) ([]string, error) {
	var retired []string
	err := s.Write(ctx, func(tx Querier) error {
		retired = retired[:0]
		for _, id := range ids {
			res, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1, answer = NULL WHERE id = ? AND done = 0`, id)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				retired = append(retired, id)
			}
		}
		_, err := AddMoves(ctx, tx, moves)
		return err
	})
	return retired, err
}

// WithdrawnFile implements ledger.RoundStore.
func (s *Shared) WithdrawnFile(ctx context.Context, digest string) (bool, error) {
	var one int
	err := s.R.QueryRowContext(ctx, `SELECT 1 FROM bundle_files f JOIN bundles b ON b.hash = f.bundle
		JOIN signed we ON we.digest = b.withdrawal AND we.idx IS NOT NULL WHERE f.digest = ? LIMIT 1`, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// HeldElsewhere implements ledger.RoundStore.
func (s *Shared) HeldElsewhere(ctx context.Context, digest, except string) (bool, error) {
	var one int
	err := s.R.QueryRowContext(ctx, `SELECT 1 FROM bundle_files f JOIN bundles b ON b.hash = f.bundle
		WHERE f.digest = ? AND f.bundle <> ? AND b.withdrawal IS NULL LIMIT 1`, digest, except).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
