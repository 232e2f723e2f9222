package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/store"
)

func (s *Store) CreateJobs(ctx context.Context, js []ledger.Job, moves []jobs.Movement) error {
	return s.write(ctx, func(tx *txn) error {
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
func insertJob(ctx context.Context, tx *txn, j ledger.Job) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (id, kind, bundle, urgency, author_orgs, author_families, claims, credits, minutes, gpu, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		j.ID, j.Kind, j.Bundle, j.Urgency, jsonText(orEmpty(j.AuthorOrgs)), jsonText(orEmpty(j.AuthorFamilies)), jsonText(j.Claims),
		j.Credits, j.Minutes, j.GPU, nanos(j.Created))
	if err != nil {
		return err
	}
	changes, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if changes == 0 {
		return fmt.Errorf("postgres: job %s: %w", j.ID, store.ErrDuplicate)
	}
	return nil
}

func (s *Store) Backlog(ctx context.Context, since time.Time) (ledger.Backlog, error) {
	var b ledger.Backlog
	err := s.read(ctx, func(tx *txn) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE gpu = 0), COUNT(*) FILTER (WHERE gpu = 1) FROM jobs
			WHERE done = 0 AND kind IN ('reproduction', 'proof_check')`).Scan(&b.OpenCPU, &b.OpenGPU); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE j.gpu = 0), COUNT(*) FILTER (WHERE j.gpu = 1) FROM job_answers a JOIN jobs j ON j.id = a.job
			WHERE a.with_work = 1 AND a.at >= ? AND a.kind IN ('reproduction', 'proof_check')`, nanos(since)).Scan(&b.ClearedCPU, &b.ClearedGPU)
	})
	return b, err
}

func (s *Store) CreateCanary(ctx context.Context, c ledger.Canary, js []ledger.Job) error {
	record := jsonText(c)
	if err := s.write(ctx, func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO canaries (hash, source, record, created) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			c.Hash, c.Source, record, nanos(c.Created))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, fmt.Errorf("postgres: canary %s: %w", c.Hash, store.ErrDuplicate))
		}
		return nil
	}); err != nil {
		return err
	}
	return s.CreateJobs(ctx, js, nil)
}

var _ = slices.Contains[[]string]
