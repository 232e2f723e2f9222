// Package sqlcommon holds what the SQL drivers, store/sqlite and
// store/postgres, run alike: the rows they read and the rules they write,
// and Shared, the store methods whose every statement both take, which
// each driver's Store embeds over its own pool and transactions. The SQL
// is written once, with SQLite's "?" and "?N" placeholders, which
// store/postgres turns into "$N" in one place (its txn and pool); where
// the two dialects differ, a Dialect field says so, one per difference.
// How a write commits, retries and keeps its rules under concurrency
// stays each driver's. README.md's "State in PostgreSQL" says how the two
// drivers stand.
package sqlcommon

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/ledger/jobs"
)

// Querier is a transaction of either driver.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// A Dialect is where the two drivers' SQL differs, each difference a
// field, so the shared SQL says the rest alike. Each driver has one.
type Dialect struct {
	// JSONArray is an aggregate of expr's values into a JSON array's
	// text, "[]" over no rows.
	JSONArray func(expr string) string
	// JSONEach is a query of the elements, as text, of the JSON array
	// param holds (a placeholder), for an IN list of any length.
	JSONEach func(param string) string
	// Text is param (a placeholder) as a text value that compares byte
	// by byte, where the SQL gives it no type of its own (a recursive
	// query's first row).
	Text func(param string) string
}

// CandidatePage is how many open jobs TakeJob weighs at once, most urgent
// and oldest first; it weighs the next page only when none on this one is
// eligible. So the choice "at random within the most urgent class" is at
// random among that class's oldest CandidatePage eligible jobs: a backlog
// deeper than that is worked oldest first, page by page, which bounds
// what one request costs whatever the backlog.
const CandidatePage = 256

// Candidates are the open jobs at now, with their rounds: the
// organizations holding or done with a job of the same kind on the same
// bundle, the families of its bundle's reviews, and who declined it. Three
// queries, whatever the number of candidates.
func Candidates(ctx context.Context, tx Querier, now time.Time, offset int) ([]jobs.Open, error) {
	const pick = `SELECT id, bundle FROM jobs WHERE done = 0 AND (operator IS NULL OR deadline <= ?1) ORDER BY urgency, created LIMIT ?2 OFFSET ?3`
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, bundle, urgency, author_orgs, author_families, minutes, gpu,
		COALESCE((SELECT software FROM job_needs WHERE job_needs.job = jobs.id), '[]') FROM jobs
		WHERE done = 0 AND (operator IS NULL OR deadline <= ?1) ORDER BY urgency, created LIMIT ?2 OFFSET ?3`, now.UnixNano(), CandidatePage, offset)
	if err != nil {
		return nil, err
	}
	var open []jobs.Open
	at := map[string]int{}
	for rows.Next() {
		var j jobs.Open
		var orgs, fams, software string
		if err := rows.Scan(&j.ID, &j.Kind, &j.Bundle, &j.Urgency, &orgs, &fams, &j.Minutes, &j.GPU, &software); err != nil {
			rows.Close()
			return nil, err
		}
		if err := errors.Join(json.Unmarshal([]byte(orgs), &j.AuthorOrgs), json.Unmarshal([]byte(fams), &j.AuthorFamilies),
			json.Unmarshal([]byte(software), &j.Software)); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: job %s as kept: %w", j.ID, err)
		}
		at[j.ID] = len(open)
		open = append(open, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	type round struct {
		orgs     map[string][]string // kind → organizations
		families []string            // of its reviews
		kindFams map[string][]string // kind → families
	}
	rounds := map[string]*round{}
	rows, err = tx.QueryContext(ctx, `WITH c AS (`+pick+`)
		SELECT j.bundle, j.kind, j.organization, j.family FROM jobs j
		WHERE j.bundle IN (SELECT bundle FROM c) AND j.organization IS NOT NULL AND (j.done = 1 OR j.deadline > ?1)`, now.UnixNano(), CandidatePage, offset)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var b, kind, org, fam string
		if err := rows.Scan(&b, &kind, &org, &fam); err != nil {
			rows.Close()
			return nil, err
		}
		r := rounds[b]
		if r == nil {
			r = &round{orgs: map[string][]string{}, kindFams: map[string][]string{}}
			rounds[b] = r
		}
		r.orgs[kind] = append(r.orgs[kind], org)
		r.kindFams[kind] = append(r.kindFams[kind], fam)
		if jobs.IsReview(kind) {
			r.families = append(r.families, fam)
			// each review of a bundle comes from a different organization
			for _, k := range jobs.ReviewKinds {
				if k != kind {
					r.orgs[k] = append(r.orgs[k], org)
				}
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `WITH c AS (`+pick+`)
		SELECT DISTINCT d.job, d.organization FROM job_declines d WHERE d.job IN (SELECT id FROM c)`, now.UnixNano(), CandidatePage, offset)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var job, org string
		if err := rows.Scan(&job, &org); err != nil {
			rows.Close()
			return nil, err
		}
		if i, ok := at[job]; ok {
			open[i].Declined = append(open[i].Declined, org)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range open {
		if r := rounds[open[i].Bundle]; r != nil {
			open[i].RoundOrgs = r.orgs[open[i].Kind]
			open[i].RoundFamilies = r.kindFams[open[i].Kind]
			if jobs.IsReview(open[i].Kind) {
				open[i].ReviewFamilies = r.families
			}
		}
	}
	return open, nil
}
