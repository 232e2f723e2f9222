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

func JSONText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only strings, slices and maps of them are marshaled here
	}
	return string(b)
}

func OrEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

const JobColumns = `id, kind, bundle, urgency, author_orgs, author_families, claims, credits, minutes, gpu, created,
	operator, organization, family, assigned_at, deadline, served, done, answer`

type RowScanner interface{ Scan(...any) error }

func ScanJob(r RowScanner) (ledger.Job, error) {
	var j ledger.Job
	var orgs, fams, cl string
	var op, org, fam, answer sql.NullString
	var assigned, deadline sql.NullInt64
	var created int64
	if err := r.Scan(&j.ID, &j.Kind, &j.Bundle, &j.Urgency, &orgs, &fams, &cl, &j.Credits, &j.Minutes, &j.GPU, &created,
		&op, &org, &fam, &assigned, &deadline, &j.Served, &j.Done, &answer); err != nil {
		return ledger.Job{}, err
	}
	if err := errors.Join(json.Unmarshal([]byte(orgs), &j.AuthorOrgs), json.Unmarshal([]byte(fams), &j.AuthorFamilies), json.Unmarshal([]byte(cl), &j.Claims)); err != nil {
		return ledger.Job{}, fmt.Errorf("store: job %s as kept: %w", j.ID, err)
	}
	j.Created = FromNanos(created)
	j.Operator, j.Organization, j.Family, j.Answer = op.String, org.String, fam.String, answer.String
	j.AssignedAt, j.Deadline = FromNullNanos(assigned), FromNullNanos(deadline)
	return j, nil
}

func JobIn(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (ledger.Job, error) {
	j, err := ScanJob(q.QueryRowContext(ctx, `SELECT `+JobColumns+` FROM jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return j, NotFound("store: job %s", id)
	}
	return j, err
}

// OpenJobIn is the job operator holds at now, sql.ErrNoRows if none.
func OpenJobIn(ctx context.Context, tx Querier, operator string, now time.Time) (ledger.Job, error) {
	return ScanJob(tx.QueryRowContext(ctx, `SELECT `+JobColumns+` FROM jobs WHERE operator = ? AND done = 0 AND deadline > ? ORDER BY assigned_at DESC LIMIT 1`,
		operator, Nanos(now)))
}

func Unassign(ctx context.Context, tx Querier, id string) error {
	_, err := tx.ExecContext(ctx, `UPDATE jobs SET operator = NULL, organization = NULL, family = NULL, assigned_at = NULL, deadline = NULL, served = 0 WHERE id = ?`, id)
	return err
}

const AnswerColumns = `entry, job, operator, organization, family, kind, bundle, signed, digest, salt, verdicts, hazard, with_work, at`

func ScanAnswer(r RowScanner) (ledger.Answer, error) {
	var a ledger.Answer
	var verdicts string
	var at int64
	if err := r.Scan(&a.Entry, &a.Job, &a.Operator, &a.Organization, &a.Family, &a.Kind, &a.Bundle, &a.Signed, &a.Digest, &a.Salt,
		&verdicts, &a.Hazard, &a.WithWork, &at); err != nil {
		return a, err
	}
	a.At = FromNanos(at)
	return a, json.Unmarshal([]byte(verdicts), &a.Verdicts)
}

// DropJobRecords undoes an answer whose logged entry was dropped unlogged:
// the job is held again by the operator that answered, undone, and the
// credit the answer paid and the decline it counted go.
func DropJobRecords(ctx context.Context, tx Querier, digest string) error {
	var job string
	err := tx.QueryRowContext(ctx, `SELECT job FROM job_answers WHERE entry = ?`, digest).Scan(&job)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM credit_moves WHERE key = 'job:' || ?2 AND EXISTS (SELECT 1 FROM jobs WHERE id = ?2 AND answer = ?1)`,
		`UPDATE jobs SET done = 0, answer = NULL WHERE id = ?2 AND answer = ?1`,
		`DELETE FROM job_declines WHERE entry = ?1`,
		`DELETE FROM job_answers WHERE entry = ?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, digest, job); err != nil {
			return err
		}
	}
	return nil
}

func AddMoves(ctx context.Context, tx Querier, moves []jobs.Movement) (int, error) {
	added := 0
	for _, m := range moves {
		res, err := tx.ExecContext(ctx, `INSERT INTO credit_moves (operator, kind, amount, key, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
			m.Operator, m.Kind, m.Amount, m.Key, Nanos(m.At))
		if err != nil {
			return added, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return added, err
		}
		added += int(n)
	}
	return added, nil
}

func ScanCanary(r RowScanner) (ledger.Canary, error) {
	var c ledger.Canary
	var record string
	var entry sql.NullString
	if err := r.Scan(&record, &entry); err != nil {
		return c, err
	}
	if err := json.Unmarshal([]byte(record), &c); err != nil {
		return c, fmt.Errorf("store: canary as kept: %w", err)
	}
	c.Entry = entry.String
	return c, nil
}

func (s *Shared) Job(ctx context.Context, id string) (ledger.Job, error) {
	var j ledger.Job
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		j, err = JobIn(ctx, tx, id)
		return err
	})
	return j, err
}

func (s *Shared) OpenJob(ctx context.Context, operator string, now time.Time) (ledger.Job, error) {
	var j ledger.Job
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		j, err = OpenJobIn(ctx, tx, operator, now)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: open job of %s", operator)
		}
		return err
	})
	return j, err
}

func (s *Shared) BundleJobs(ctx context.Context, bundle string) ([]ledger.Job, error) {
	return s.queryJobs(ctx, `SELECT `+JobColumns+` FROM jobs WHERE bundle = ? ORDER BY created, id`, bundle)
}

// queryJobs reads the jobs query selects (jobColumns) in one read
// transaction.
func (s *Shared) queryJobs(ctx context.Context, query string, args ...any) ([]ledger.Job, error) {
	var out []ledger.Job
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j, err := ScanJob(rows)
			if err != nil {
				return err
			}
			out = append(out, j)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) TakeJob(ctx context.Context, t ledger.TakeJob, choose func([]jobs.Open) (string, bool)) (ledger.Job, error) {
	var got ledger.Job
	err := s.Write(ctx, func(tx Querier) error {
		j, err := OpenJobIn(ctx, tx, t.Operator, t.At)
		switch {
		case err == nil:
			if _, err := tx.ExecContext(ctx, `UPDATE jobs SET served = served + 1 WHERE id = ?`, j.ID); err != nil {
				return err
			}
			j.Served++
			got = j
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		// A job whose deadline passed is no longer the operator's.
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET operator = NULL, organization = NULL, family = NULL, assigned_at = NULL, deadline = NULL, served = 0
			WHERE operator = ? AND done = 0 AND deadline <= ?`, t.Operator, Nanos(t.At)); err != nil {
			return err
		}
		var id string
		for offset := 0; ; offset += CandidatePage {
			cands, err := Candidates(ctx, tx, t.At, offset)
			if err != nil {
				return err
			}
			var ok bool
			if id, ok = choose(cands); ok {
				break
			}
			if len(cands) < CandidatePage {
				return NotFound("store: a job for %s", t.Operator)
			}
		}
		j, err = JobIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if j.Done || (j.Operator != "" && j.Deadline.After(t.At)) {
			return fmt.Errorf("store: job %s is held or done: %w", id, store.ErrConflict)
		}
		deadline := jobs.DeadlineFor(j.Kind, t.At, j.Minutes)
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET operator = ?, organization = ?, family = ?, assigned_at = ?, deadline = ?, served = 1 WHERE id = ?`,
			t.Operator, t.Organization, t.Family, Nanos(t.At), Nanos(deadline), id); err != nil {
			return err
		}
		j.Operator, j.Organization, j.Family, j.AssignedAt, j.Deadline, j.Served = t.Operator, t.Organization, t.Family, t.At, deadline, 1
		got = j
		return nil
	})
	return got, err
}

func (s *Shared) ReleaseJob(ctx context.Context, id, operator string, at time.Time) error {
	return s.Write(ctx, func(tx Querier) error {
		j, err := JobIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if j.Operator != operator || j.Done || !j.Deadline.After(at) {
			return NotFound("store: %s holds no job %s", operator, id)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO job_declines (job, organization, at) VALUES (?, ?, ?)`, id, j.Organization, Nanos(at)); err != nil {
			return err
		}
		return Unassign(ctx, tx, id)
	})
}

func (s *Shared) AnswerJob(ctx context.Context, a ledger.Answer, pay []jobs.Movement) (ledger.Job, error) {
	var got ledger.Job
	err := s.Write(ctx, func(tx Querier) error {
		j, err := JobIn(ctx, tx, a.Job)
		if err != nil {
			return err
		}
		var prior int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM job_answers WHERE job = ? AND operator = ? AND with_work = 1`, a.Job, a.Operator).Scan(&prior); err != nil {
			return err
		}
		if prior > 0 {
			got = j
			return fmt.Errorf("store: %s answered job %s: %w", a.Operator, a.Job, store.ErrDuplicate)
		}
		if j.Done || j.Operator != a.Operator || !j.Deadline.After(a.At) {
			return fmt.Errorf("store: job %s is not held by %s now: %w", a.Job, a.Operator, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO job_answers (entry, job, operator, organization, family, kind, bundle, signed, digest, salt, verdicts, hazard, with_work, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.Entry, a.Job, a.Operator, a.Organization, a.Family, a.Kind, a.Bundle, a.Signed, a.Digest, a.Salt, JSONText(a.Verdicts), a.Hazard, a.WithWork, Nanos(a.At))
		if err != nil {
			return err
		}
		if !a.WithWork {
			if _, err := tx.ExecContext(ctx, `INSERT INTO job_declines (job, organization, entry, at) VALUES (?, ?, ?, ?)`, a.Job, a.Organization, a.Entry, Nanos(a.At)); err != nil {
				return err
			}
			if err := Unassign(ctx, tx, a.Job); err != nil {
				return err
			}
			got, err = JobIn(ctx, tx, a.Job)
			return err
		}
		got, err = finishJob(ctx, tx, a.Job, a.Entry, pay)
		return err
	})
	return got, err
}

func (s *Shared) BundleAnswers(ctx context.Context, bundle string) ([]ledger.Answer, error) {
	var out []ledger.Answer
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+AnswerColumns+` FROM job_answers WHERE bundle = ? ORDER BY at, entry`, bundle)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := ScanAnswer(rows)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) AnswerByEntry(ctx context.Context, entry string) (ledger.Answer, error) {
	var a ledger.Answer
	err := s.Read(ctx, func(tx Querier) error {
		var verdicts string
		var at int64
		err := tx.QueryRowContext(ctx, `SELECT entry, job, operator, organization, family, kind, bundle, signed, digest, salt, verdicts, hazard, with_work, at
			FROM job_answers WHERE entry = ? OR digest = ? LIMIT 1`, entry, entry).Scan(
			&a.Entry, &a.Job, &a.Operator, &a.Organization, &a.Family, &a.Kind, &a.Bundle, &a.Signed, &a.Digest, &a.Salt, &verdicts, &a.Hazard, &a.WithWork, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: answer logged as %s", entry)
		}
		if err != nil {
			return err
		}
		a.At = FromNanos(at)
		return json.Unmarshal([]byte(verdicts), &a.Verdicts)
	})
	return a, err
}

func (s *Shared) AddMovements(ctx context.Context, moves []jobs.Movement) (int, error) {
	var added int
	err := s.Write(ctx, func(tx Querier) error {
		var err error
		added, err = AddMoves(ctx, tx, moves)
		return err
	})
	return added, err
}

func (s *Shared) Movements(ctx context.Context, operator string) ([]jobs.Movement, error) {
	var out []jobs.Movement
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT kind, amount, key, at FROM credit_moves WHERE operator = ? ORDER BY seq`, operator)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m := jobs.Movement{Operator: operator}
			var at int64
			if err := rows.Scan(&m.Kind, &m.Amount, &m.Key, &at); err != nil {
				return err
			}
			m.At = FromNanos(at)
			out = append(out, m)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) count(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	err := s.Read(ctx, func(tx Querier) error { return tx.QueryRowContext(ctx, q, args...).Scan(&n) })
	return n, err
}

func (s *Shared) OrgJobs(ctx context.Context, organization string, since time.Time) (int, error) {
	return s.count(ctx, `SELECT COUNT(*) FROM job_answers WHERE organization = ? AND with_work = 1 AND at >= ? AND kind != 'addendum_screen'`, organization, Nanos(since))
}

func (s *Shared) OrgDeclines(ctx context.Context, organization string, since time.Time) (int, error) {
	return s.count(ctx, `SELECT COUNT(*) FROM job_declines WHERE organization = ? AND at >= ?`, organization, Nanos(since))
}

func (s *Shared) Canary(ctx context.Context, hash string) (ledger.Canary, error) {
	var c ledger.Canary
	err := s.Read(ctx, func(tx Querier) error {
		var err error
		c, err = ScanCanary(tx.QueryRowContext(ctx, `SELECT record, entry FROM canaries WHERE hash = ?`, hash))
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: canary %s", hash)
		}
		return err
	})
	return c, err
}

func (s *Shared) CanariesOf(ctx context.Context, source string) ([]ledger.Canary, error) {
	var out []ledger.Canary
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT record, entry FROM canaries WHERE source = ? ORDER BY created, hash`, source)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := ScanCanary(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) CloseCanary(ctx context.Context, hash, entry string, outcomes []ledger.CanaryOutcome, moves []jobs.Movement) error {
	return s.Write(ctx, func(tx Querier) error {
		var was sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT entry FROM canaries WHERE hash = ?`, hash).Scan(&was)
		if errors.Is(err, sql.ErrNoRows) {
			return NotFound("store: canary %s", hash)
		}
		if err != nil {
			return err
		}
		if was.Valid {
			return fmt.Errorf("store: canary %s closed by %s: %w", hash, was.String, store.ErrDuplicate)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE canaries SET entry = ? WHERE hash = ?`, entry, hash); err != nil {
			return err
		}
		for _, o := range outcomes {
			if _, err := tx.ExecContext(ctx, `INSERT INTO canary_outcomes (canary, operator, outcome) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, hash, o.Operator, o.Outcome); err != nil {
				return err
			}
		}
		// Its jobs still open are retired: nobody gets a canary whose
		// round closed.
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1 WHERE bundle = ? AND done = 0`, hash); err != nil {
			return err
		}
		_, err = AddMoves(ctx, tx, moves)
		return err
	})
}

func (s *Shared) CanaryCounts(ctx context.Context, operator string) (map[string]int, error) {
	out := map[string]int{"caught": 0, "missed": 0, "could_not_run": 0}
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT outcome, COUNT(*) FROM canary_outcomes WHERE operator = ? GROUP BY outcome`, operator)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o string
			var n int
			if err := rows.Scan(&o, &n); err != nil {
				return err
			}
			out[o] = n
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) Qualification(ctx context.Context, operator string) (map[string]jobs.ModelState, error) {
	out := map[string]jobs.ModelState{}
	err := s.Read(ctx, func(tx Querier) error {
		rows, err := tx.QueryContext(ctx, `SELECT model, state FROM qualification WHERE operator = ?`, operator)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var key, state string
			if err := rows.Scan(&key, &state); err != nil {
				return err
			}
			var m jobs.ModelState
			if err := json.Unmarshal([]byte(state), &m); err != nil {
				return fmt.Errorf("store: qualification of %s as kept: %w", operator, err)
			}
			out[key] = m
		}
		return rows.Err()
	})
	return out, err
}

func (s *Shared) PutQualification(ctx context.Context, operator, key string, m jobs.ModelState, moves []jobs.Movement) error {
	state, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx Querier) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO qualification (operator, model, state) VALUES (?, ?, ?)
			ON CONFLICT (operator, model) DO UPDATE SET state = excluded.state`, operator, key, string(state)); err != nil {
			return err
		}
		_, err := AddMoves(ctx, tx, moves)
		return err
	})
}

// LapsedJobs implements ledger.RoundStore.
func (s *Shared) LapsedJobs(ctx context.Context, kinds []string, createdBefore, now time.Time, limit int) ([]ledger.Job, error) {
	return s.queryJobs(ctx, `SELECT `+JobColumns+` FROM jobs
		WHERE done = 0 AND created <= ? AND kind IN (`+s.Dialect.JSONEach("?")+`)
		AND (operator IS NULL OR deadline <= ?) ORDER BY created, id LIMIT ?`,
		Nanos(createdBefore), JSONText(OrEmpty(kinds)), Nanos(now), limit)
}

// InsertJob records a new job; one already recorded is store.ErrDuplicate.
// (store/sqlite asked SELECT changes(); RowsAffected is that number.)
func InsertJob(ctx context.Context, tx Querier, j ledger.Job) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (id, kind, bundle, urgency, author_orgs, author_families, claims, credits, minutes, gpu, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		j.ID, j.Kind, j.Bundle, j.Urgency, JSONText(OrEmpty(j.AuthorOrgs)), JSONText(OrEmpty(j.AuthorFamilies)), JSONText(j.Claims),
		j.Credits, j.Minutes, j.GPU, Nanos(j.Created))
	if err != nil {
		return err
	}
	changes, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if changes == 0 {
		return fmt.Errorf("store: job %s: %w", j.ID, store.ErrDuplicate)
	}
	return nil
}

func (s *Shared) CreateJobs(ctx context.Context, js []ledger.Job, moves []jobs.Movement) error {
	return s.Write(ctx, func(tx Querier) error {
		for _, j := range js {
			if err := InsertJob(ctx, tx, j); err != nil {
				return err
			}
		}
		_, err := AddMoves(ctx, tx, moves)
		return err
	})
}

func (s *Shared) CreateCanary(ctx context.Context, c ledger.Canary, js []ledger.Job) error {
	record := JSONText(c)
	if err := s.Write(ctx, func(tx Querier) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO canaries (hash, source, record, created) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			c.Hash, c.Source, record, Nanos(c.Created))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, fmt.Errorf("store: canary %s: %w", c.Hash, store.ErrDuplicate))
		}
		return nil
	}); err != nil {
		return err
	}
	return s.CreateJobs(ctx, js, nil)
}

// finishJob marks job done with the entry that answered it, pays its
// movements, and returns the job as it now stands.
func finishJob(ctx context.Context, tx Querier, job, answer string, pay []jobs.Movement) (ledger.Job, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1, answer = ? WHERE id = ?`, answer, job); err != nil {
		return ledger.Job{}, err
	}
	if _, err := AddMoves(ctx, tx, pay); err != nil {
		return ledger.Job{}, err
	}
	return JobIn(ctx, tx, job)
}
