package postgres

import (
	"context"
	"slices"
	"time"

	"github.com/agora-node/agora/ledger"
	"github.com/agora-node/agora/store/sqlcommon"
)

func (s *Store) Backlog(ctx context.Context, since time.Time) (ledger.Backlog, error) {
	var b ledger.Backlog
	err := s.read(ctx, func(tx *txn) error {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE gpu = 0), COUNT(*) FILTER (WHERE gpu = 1) FROM jobs
			WHERE done = 0 AND kind IN ('reproduction', 'proof_check')`).Scan(&b.OpenCPU, &b.OpenGPU); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE j.gpu = 0), COUNT(*) FILTER (WHERE j.gpu = 1) FROM job_answers a JOIN jobs j ON j.id = a.job
			WHERE a.with_work = 1 AND a.at >= ? AND a.kind IN ('reproduction', 'proof_check')`, sqlcommon.Nanos(since)).Scan(&b.ClearedCPU, &b.ClearedGPU)
	})
	return b, err
}

var _ = slices.Contains[[]string]
