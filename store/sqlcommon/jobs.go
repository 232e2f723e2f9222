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
