package journal

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// maxTurn is how long a process keeps the log's append turn (see
// translog.Log.Turn) while more of its leaves keep coming: after it, new
// leaves wait for the turn to be released, so another process's leaves
// get theirs.
const maxTurn = 200 * time.Millisecond

// sharedTurn is this process's hold of a shared log's append turn: every
// leaf the journal stamps while the log is shared joins one, and the turn
// is released once the leaves that joined it are all sequenced. mu guards
// it; changed is broadcast when it is taken or released.
type sharedTurn struct {
	mu      sync.Mutex
	changed *sync.Cond
	taking  bool      // a call is waiting for the turn
	release func()    // nil while the turn is not held
	since   time.Time // when it was taken
	users   int       // leaves joined and not yet sequenced
}

// joinTurn joins the turn this process holds, taking it first if it holds
// none; the caller calls leaveTurn once, when its leaf is sequenced or
// will not be queued. Taking the turn raises the stamps to the last leaf
// sequenced by any process, so the leaves stamped during it come after.
func (j *Journal) joinTurn(ctx context.Context) error {
	t := &j.shared
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		switch {
		case t.release != nil && time.Since(t.since) < maxTurn:
			t.users++
			return nil
		case t.release == nil && !t.taking:
			t.taking = true
			t.mu.Unlock()
			err := j.takeTurn(ctx)
			t.mu.Lock()
			t.taking = false
			t.changed.Broadcast()
			if err != nil {
				return err
			}
			t.users++
			return nil
		}
		t.changed.Wait()
	}
}

// takeTurn takes the log's turn and raises the stamps to its last leaf.
func (j *Journal) takeTurn(ctx context.Context) error {
	last, release, err := j.log.Turn(ctx)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if last != nil {
		at, err := leafTime(last)
		if err != nil {
			release()
			return fmt.Errorf("journal: the log's last sequenced leaf: %w", err)
		}
		j.orderMu.Lock()
		if at.After(j.last) {
			j.last = at
		}
		j.resumed = true
		j.orderMu.Unlock()
	}
	t := &j.shared
	t.mu.Lock()
	t.release, t.since = release, time.Now()
	t.mu.Unlock()
	return nil
}

// leaveTurn counts a leaf out of the turn, releasing it after the last.
func (j *Journal) leaveTurn() {
	t := &j.shared
	t.mu.Lock()
	defer t.mu.Unlock()
	t.users--
	if t.users == 0 && t.release != nil {
		t.release()
		t.release = nil
		t.changed.Broadcast()
	}
}
