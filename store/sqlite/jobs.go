package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlcommon"
)

// jobsMigration keeps the verification loop (ledger.JobStore): jobs, the
// answers to them, declines, the credit movements and the qualification
// state. A job is open while done = 0 and either nobody holds it or its
// deadline passed; jobs_holder makes "one open job per operator" a
// constraint the database keeps, beside the check in TakeJob. It only
// makes what is missing, so a database at an earlier version may run it
// again (bindhook_test.go winds the version back past it).
const jobsMigration = `
CREATE TABLE IF NOT EXISTS jobs (
	id              TEXT PRIMARY KEY,
	kind            TEXT NOT NULL,
	bundle          TEXT NOT NULL,
	urgency         INTEGER NOT NULL,
	author_orgs     TEXT NOT NULL,
	author_families TEXT NOT NULL,
	claims          TEXT NOT NULL,
	credits         INTEGER NOT NULL,
	minutes         REAL NOT NULL,
	gpu             INTEGER NOT NULL,
	created         BIGINT NOT NULL,
	operator        TEXT,
	organization    TEXT,
	family          TEXT,
	assigned_at     BIGINT,
	deadline        BIGINT,
	served          INTEGER NOT NULL DEFAULT 0,
	done            INTEGER NOT NULL DEFAULT 0,
	answer          TEXT
);
CREATE INDEX IF NOT EXISTS jobs_open ON jobs (urgency, created) WHERE done = 0;
CREATE INDEX IF NOT EXISTS jobs_bundle ON jobs (bundle, created);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_holder ON jobs (operator) WHERE done = 0 AND operator IS NOT NULL;

CREATE TABLE IF NOT EXISTS job_answers (
	entry        TEXT PRIMARY KEY REFERENCES signed (digest),
	job          TEXT NOT NULL REFERENCES jobs (id),
	operator     TEXT NOT NULL,
	organization TEXT NOT NULL,
	family       TEXT NOT NULL,
	kind         TEXT NOT NULL,
	bundle       TEXT NOT NULL,
	signed       BLOB NOT NULL,
	digest       TEXT NOT NULL,
	salt         TEXT NOT NULL,
	verdicts     TEXT NOT NULL,
	hazard       TEXT NOT NULL,
	with_work    INTEGER NOT NULL,
	at           BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS job_answers_job ON job_answers (job);
CREATE INDEX IF NOT EXISTS job_answers_org ON job_answers (organization, at) WHERE with_work = 1;

CREATE TABLE IF NOT EXISTS job_declines (
	job          TEXT NOT NULL REFERENCES jobs (id),
	organization TEXT NOT NULL,
	entry        TEXT,
	at           BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS job_declines_org ON job_declines (organization, at);
CREATE INDEX IF NOT EXISTS job_declines_job ON job_declines (job);

CREATE TABLE IF NOT EXISTS credit_moves (
	seq      INTEGER PRIMARY KEY,
	operator TEXT NOT NULL,
	kind     TEXT NOT NULL,
	amount   INTEGER NOT NULL,
	key      TEXT NOT NULL UNIQUE,
	at       BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS credit_moves_operator ON credit_moves (operator, seq);

CREATE TABLE IF NOT EXISTS canaries (
	hash    TEXT PRIMARY KEY,
	source  TEXT NOT NULL,
	record  TEXT NOT NULL,
	entry   TEXT REFERENCES signed (digest),
	created BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS canaries_source ON canaries (source);

CREATE TABLE IF NOT EXISTS canary_outcomes (
	canary   TEXT NOT NULL REFERENCES canaries (hash),
	operator TEXT NOT NULL,
	outcome  TEXT NOT NULL,
	PRIMARY KEY (canary, operator)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS canary_outcomes_operator ON canary_outcomes (operator);

CREATE TABLE IF NOT EXISTS qualification (
	operator TEXT NOT NULL,
	model    TEXT NOT NULL,
	state    TEXT NOT NULL,
	PRIMARY KEY (operator, model)
) WITHOUT ROWID;
`

// jobAnswersDigestMigration indexes answers by their own entry digest:
// AnswerByEntry finds an answer by its logged entry or by that digest, and
// without this index the OR read every answer (a sealed round's advance
// asks it for each answered job, so it grew with every attestation).
const jobAnswersDigestMigration = `
CREATE INDEX IF NOT EXISTS job_answers_digest ON job_answers (digest);
`

func (s *Store) CreateJobs(ctx context.Context, js []ledger.Job, moves []jobs.Movement) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		for _, j := range js {
			if err := insertJob(ctx, tx, j); err != nil {
				return err
			}
		}
		_, err := addMoves(ctx, tx, moves)
		return err
	})
}

// insertJob records a new job; one already recorded is store.ErrDuplicate.
func insertJob(ctx context.Context, tx *sql.Tx, j ledger.Job) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO jobs (id, kind, bundle, urgency, author_orgs, author_families, claims, credits, minutes, gpu, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		j.ID, j.Kind, j.Bundle, j.Urgency, jsonText(orEmpty(j.AuthorOrgs)), jsonText(orEmpty(j.AuthorFamilies)), jsonText(j.Claims),
		j.Credits, j.Minutes, j.GPU, nanos(j.Created))
	if err != nil {
		return err
	}
	var changes int
	if err := tx.QueryRowContext(ctx, `SELECT changes()`).Scan(&changes); err != nil {
		return err
	}
	if changes == 0 {
		return fmt.Errorf("sqlite: job %s: %w", j.ID, store.ErrDuplicate)
	}
	return nil
}

func (s *Store) Job(ctx context.Context, id string) (ledger.Job, error) {
	var j ledger.Job
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		j, err = jobIn(ctx, tx, id)
		return err
	})
	return j, err
}

func (s *Store) OpenJob(ctx context.Context, operator string, now time.Time) (ledger.Job, error) {
	var j ledger.Job
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		j, err = openJobIn(ctx, tx, operator, now)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: open job of %s", operator)
		}
		return err
	})
	return j, err
}

func (s *Store) BundleJobs(ctx context.Context, bundle string) ([]ledger.Job, error) {
	return s.queryJobs(ctx, `SELECT `+jobColumns+` FROM jobs WHERE bundle = ? ORDER BY created, id`, bundle)
}

// queryJobs reads the jobs query selects (jobColumns) in one read
// transaction.
func (s *Store) queryJobs(ctx context.Context, query string, args ...any) ([]ledger.Job, error) {
	var out []ledger.Job
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j, err := scanJob(rows)
			if err != nil {
				return err
			}
			out = append(out, j)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Store) TakeJob(ctx context.Context, t ledger.TakeJob, choose func([]jobs.Open) (string, bool)) (ledger.Job, error) {
	var got ledger.Job
	err := s.write(ctx, func(tx *sql.Tx) error {
		j, err := openJobIn(ctx, tx, t.Operator, t.At)
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
			WHERE operator = ? AND done = 0 AND deadline <= ?`, t.Operator, nanos(t.At)); err != nil {
			return err
		}
		var id string
		for offset := 0; ; offset += sqlcommon.CandidatePage {
			cands, err := sqlcommon.Candidates(ctx, tx, t.At, offset)
			if err != nil {
				return err
			}
			var ok bool
			if id, ok = choose(cands); ok {
				break
			}
			if len(cands) < sqlcommon.CandidatePage {
				return notFound("sqlite: a job for %s", t.Operator)
			}
		}
		j, err = jobIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if j.Done || (j.Operator != "" && j.Deadline.After(t.At)) {
			return fmt.Errorf("sqlite: job %s is held or done: %w", id, store.ErrConflict)
		}
		deadline := jobs.DeadlineFor(j.Kind, t.At, j.Minutes)
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET operator = ?, organization = ?, family = ?, assigned_at = ?, deadline = ?, served = 1 WHERE id = ?`,
			t.Operator, t.Organization, t.Family, nanos(t.At), nanos(deadline), id); err != nil {
			return err
		}
		j.Operator, j.Organization, j.Family, j.AssignedAt, j.Deadline, j.Served = t.Operator, t.Organization, t.Family, t.At, deadline, 1
		got = j
		return nil
	})
	return got, err
}

func (s *Store) ReleaseJob(ctx context.Context, id, operator string, at time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		j, err := jobIn(ctx, tx, id)
		if err != nil {
			return err
		}
		if j.Operator != operator || j.Done || !j.Deadline.After(at) {
			return notFound("sqlite: %s holds no job %s", operator, id)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO job_declines (job, organization, at) VALUES (?, ?, ?)`, id, j.Organization, nanos(at)); err != nil {
			return err
		}
		return unassign(ctx, tx, id)
	})
}

func (s *Store) AnswerJob(ctx context.Context, a ledger.Answer, pay []jobs.Movement) (ledger.Job, error) {
	var got ledger.Job
	err := s.write(ctx, func(tx *sql.Tx) error {
		j, err := jobIn(ctx, tx, a.Job)
		if err != nil {
			return err
		}
		var prior int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM job_answers WHERE job = ? AND operator = ? AND with_work = 1`, a.Job, a.Operator).Scan(&prior); err != nil {
			return err
		}
		if prior > 0 {
			got = j
			return fmt.Errorf("sqlite: %s answered job %s: %w", a.Operator, a.Job, store.ErrDuplicate)
		}
		if j.Done || j.Operator != a.Operator || !j.Deadline.After(a.At) {
			return fmt.Errorf("sqlite: job %s is not held by %s now: %w", a.Job, a.Operator, store.ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO job_answers (entry, job, operator, organization, family, kind, bundle, signed, digest, salt, verdicts, hazard, with_work, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.Entry, a.Job, a.Operator, a.Organization, a.Family, a.Kind, a.Bundle, a.Signed, a.Digest, a.Salt, jsonText(a.Verdicts), a.Hazard, a.WithWork, nanos(a.At))
		if err != nil {
			return err
		}
		if !a.WithWork {
			if _, err := tx.ExecContext(ctx, `INSERT INTO job_declines (job, organization, entry, at) VALUES (?, ?, ?, ?)`, a.Job, a.Organization, a.Entry, nanos(a.At)); err != nil {
				return err
			}
			if err := unassign(ctx, tx, a.Job); err != nil {
				return err
			}
			got, err = jobIn(ctx, tx, a.Job)
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET done = 1, answer = ? WHERE id = ?`, a.Entry, a.Job); err != nil {
			return err
		}
		if _, err := addMoves(ctx, tx, pay); err != nil {
			return err
		}
		got, err = jobIn(ctx, tx, a.Job)
		return err
	})
	return got, err
}

func (s *Store) BundleAnswers(ctx context.Context, bundle string) ([]ledger.Answer, error) {
	var out []ledger.Answer
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+answerColumns+` FROM job_answers WHERE bundle = ? ORDER BY at, entry`, bundle)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanAnswer(rows)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Store) AnswerByEntry(ctx context.Context, entry string) (ledger.Answer, error) {
	var a ledger.Answer
	err := s.read(ctx, func(tx *sql.Tx) error {
		var verdicts string
		var at int64
		err := tx.QueryRowContext(ctx, `SELECT entry, job, operator, organization, family, kind, bundle, signed, digest, salt, verdicts, hazard, with_work, at
			FROM job_answers WHERE entry = ? OR digest = ? LIMIT 1`, entry, entry).Scan(
			&a.Entry, &a.Job, &a.Operator, &a.Organization, &a.Family, &a.Kind, &a.Bundle, &a.Signed, &a.Digest, &a.Salt, &verdicts, &a.Hazard, &a.WithWork, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: answer logged as %s", entry)
		}
		if err != nil {
			return err
		}
		a.At = fromNanos(at)
		return json.Unmarshal([]byte(verdicts), &a.Verdicts)
	})
	return a, err
}

func (s *Store) AddMovements(ctx context.Context, moves []jobs.Movement) (int, error) {
	var added int
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		added, err = addMoves(ctx, tx, moves)
		return err
	})
	return added, err
}

func (s *Store) Movements(ctx context.Context, operator string) ([]jobs.Movement, error) {
	var out []jobs.Movement
	err := s.read(ctx, func(tx *sql.Tx) error {
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
			m.At = fromNanos(at)
			out = append(out, m)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Store) count(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	err := s.read(ctx, func(tx *sql.Tx) error { return tx.QueryRowContext(ctx, q, args...).Scan(&n) })
	return n, err
}

func (s *Store) OrgJobs(ctx context.Context, organization string, since time.Time) (int, error) {
	return s.count(ctx, `SELECT COUNT(*) FROM job_answers WHERE organization = ? AND with_work = 1 AND at >= ? AND kind != 'addendum_screen'`, organization, nanos(since))
}

func (s *Store) OrgDeclines(ctx context.Context, organization string, since time.Time) (int, error) {
	return s.count(ctx, `SELECT COUNT(*) FROM job_declines WHERE organization = ? AND at >= ?`, organization, nanos(since))
}

func (s *Store) Backlog(ctx context.Context, since time.Time) (ledger.Backlog, error) {
	var b ledger.Backlog
	err := s.read(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(gpu = 0), 0), COALESCE(SUM(gpu = 1), 0) FROM jobs
			WHERE done = 0 AND kind IN ('reproduction', 'proof_check')`).Scan(&b.OpenCPU, &b.OpenGPU); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(j.gpu = 0), 0), COALESCE(SUM(j.gpu = 1), 0) FROM job_answers a JOIN jobs j ON j.id = a.job
			WHERE a.with_work = 1 AND a.at >= ? AND a.kind IN ('reproduction', 'proof_check')`, nanos(since)).Scan(&b.ClearedCPU, &b.ClearedGPU)
	})
	return b, err
}

func (s *Store) CreateCanary(ctx context.Context, c ledger.Canary, js []ledger.Job) error {
	record := jsonText(c)
	if err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO canaries (hash, source, record, created) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			c.Hash, c.Source, record, nanos(c.Created))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, fmt.Errorf("sqlite: canary %s: %w", c.Hash, store.ErrDuplicate))
		}
		return nil
	}); err != nil {
		return err
	}
	return s.CreateJobs(ctx, js, nil)
}

func (s *Store) Canary(ctx context.Context, hash string) (ledger.Canary, error) {
	var c ledger.Canary
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		c, err = scanCanary(tx.QueryRowContext(ctx, `SELECT record, entry FROM canaries WHERE hash = ?`, hash))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: canary %s", hash)
		}
		return err
	})
	return c, err
}

func (s *Store) CanariesOf(ctx context.Context, source string) ([]ledger.Canary, error) {
	var out []ledger.Canary
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT record, entry FROM canaries WHERE source = ? ORDER BY created, hash`, source)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanCanary(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, err
}

func (s *Store) CloseCanary(ctx context.Context, hash, entry string, outcomes []ledger.CanaryOutcome, moves []jobs.Movement) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var was sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT entry FROM canaries WHERE hash = ?`, hash).Scan(&was)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("sqlite: canary %s", hash)
		}
		if err != nil {
			return err
		}
		if was.Valid {
			return fmt.Errorf("sqlite: canary %s closed by %s: %w", hash, was.String, store.ErrDuplicate)
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
		_, err = addMoves(ctx, tx, moves)
		return err
	})
}

func (s *Store) CanaryCounts(ctx context.Context, operator string) (map[string]int, error) {
	out := map[string]int{"caught": 0, "missed": 0, "could_not_run": 0}
	err := s.read(ctx, func(tx *sql.Tx) error {
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

func (s *Store) Qualification(ctx context.Context, operator string) (map[string]jobs.ModelState, error) {
	out := map[string]jobs.ModelState{}
	err := s.read(ctx, func(tx *sql.Tx) error {
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
				return fmt.Errorf("sqlite: qualification of %s as kept: %w", operator, err)
			}
			out[key] = m
		}
		return rows.Err()
	})
	return out, err
}

func (s *Store) PutQualification(ctx context.Context, operator, key string, m jobs.ModelState, moves []jobs.Movement) error {
	state, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO qualification (operator, model, state) VALUES (?, ?, ?)
			ON CONFLICT (operator, model) DO UPDATE SET state = excluded.state`, operator, key, string(state)); err != nil {
			return err
		}
		_, err := addMoves(ctx, tx, moves)
		return err
	})
}

var _ = slices.Contains[[]string]
