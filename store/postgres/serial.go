package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Serial writes.
//
// The writes that hold a lock (serialWrite) run one at a time across every
// process sharing the database, and each would wait for its own commit's
// WAL flush while the next waited for the lock. So, as store/sqlite's
// writer does, a process hands the writes waiting for one lock to one
// goroutine, which runs up to maxBatch of them in one transaction, each in
// a savepoint of its own, and commits them together: one lock taken, one
// flush. A write that fails is rolled back to its savepoint and leaves the
// others whole; one that failed for a transient reason runs again in the
// next transaction; a commit that fails for one runs the batch again.

// maxBatch bounds how many serial writes share one commit.
const maxBatch = 64

// serialJob is one serialWrite waiting for its batch.
type serialJob struct {
	ctx  context.Context
	f    func(tx *txn) error
	done chan error
}

// serializer runs the serial writes of one lock, in batches.
type serializer struct {
	s       *Store
	lock    string
	jobs    chan *serialJob // unbuffered
	closing chan struct{}   // closed by stop
	once    sync.Once
	stopped chan struct{} // closed when run returns
}

func newSerializer(s *Store, lock string) *serializer {
	z := &serializer{s: s, lock: lock, jobs: make(chan *serialJob), closing: make(chan struct{}), stopped: make(chan struct{})}
	go z.run()
	return z
}

// errClosed is returned by writes to a closed Store.
var errClosed = errors.New("postgres: store closed")

// write hands f to the batches and returns its outcome once the
// transaction that ran it committed or failed. A job whose context ends
// before it runs writes nothing; once it runs, its statements no longer
// heed the context, so what it reports is what happened.
func (z *serializer) write(ctx context.Context, f func(tx *txn) error) error {
	j := &serialJob{ctx: ctx, f: f, done: make(chan error, 1)}
	select {
	case z.jobs <- j:
	case <-z.closing:
		return errClosed
	case <-ctx.Done():
		return fmt.Errorf("postgres: %w", ctx.Err())
	}
	return <-j.done
}

// stop waits for the batch under way, then ends run.
func (z *serializer) stop() {
	z.once.Do(func() { close(z.closing) })
	<-z.stopped
}

func (z *serializer) run() {
	defer close(z.stopped)
	for {
		var batch []*serialJob
		select {
		case j := <-z.jobs:
			batch = append(batch, j)
		case <-z.closing:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-z.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		z.commit(batch)
	}
}

// commit runs batch until every job in it has its outcome, and sends
// them.
func (z *serializer) commit(batch []*serialJob) {
	for attempt := 1; len(batch) > 0; attempt++ {
		outcomes, again, err := z.attempt(batch)
		switch {
		case err == nil:
			for i, j := range batch {
				if !again[i] || attempt == maxAttempts {
					j.done <- outcomes[i]
				}
			}
		case transient(err) && attempt < maxAttempts:
			// Nothing committed: every job runs again.
			continue
		default:
			for _, j := range batch {
				j.done <- err
			}
			return
		}
		var rest []*serialJob
		for i, j := range batch {
			if again[i] && attempt < maxAttempts {
				rest = append(rest, j)
			}
		}
		batch = rest
	}
}

// attempt runs batch in one transaction holding z.lock: outcomes are the
// jobs' own, again marks those that failed for a transient reason, and
// err is the transaction's failure, which leaves nothing committed.
func (z *serializer) attempt(batch []*serialJob) (outcomes []error, again []bool, err error) {
	ctx := context.Background()
	outcomes, again = make([]error, len(batch)), make([]bool, len(batch))
	tx, err := z.s.db.BeginTx(ctx, nil) // READ COMMITTED
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, z.lock); err != nil {
		return nil, nil, fmt.Errorf("postgres: take lock %q: %w", z.lock, err)
	}
	t := &txn{tx: tx, detached: true}
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			outcomes[i] = fmt.Errorf("postgres: %w", err)
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT job`); err != nil {
			return nil, nil, fmt.Errorf("postgres: savepoint: %w", err)
		}
		if outcomes[i] = j.f(t); outcomes[i] != nil {
			again[i] = transient(outcomes[i])
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT job`); err != nil {
				return nil, nil, fmt.Errorf("postgres: roll back to savepoint after %w: %w", outcomes[i], err)
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT job`); err != nil {
			return nil, nil, fmt.Errorf("postgres: release savepoint: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, fmt.Errorf("postgres: commit: %w", err)
	}
	return outcomes, again, nil
}
