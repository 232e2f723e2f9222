package translog

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera"
)

// leafClock keeps the leaves a log sequences in time order: a leaf is
// never stamped earlier than the leaf before it (spec/ledger-protocol.md,
// "The log"; the reference monitor checks it). A leaf is stamped when it is
// made, and made before its entry is kept beside the log, so leaves that
// race to the log can arrive out of the order of their stamps; the clock
// restamps the few that do, under the lock that orders them.
type leafClock struct {
	mu   sync.Mutex // held from a leaf's check until Tessera has queued it
	last time.Time  // the stamp of the last leaf queued; owned by mu
}

// leafTime returns the "timestamp" member of leaf, and false if it has
// none (a leaf of another shape, as tests append).
func leafTime(leaf []byte) (time.Time, bool) {
	v, err := canonical.Parse(leaf)
	if err != nil {
		return time.Time{}, false
	}
	obj, _ := v.(map[string]any)
	s, ok := obj["timestamp"].(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := tlog.ParseTimestamp(s)
	return t, err == nil
}

// startClock reads the stamp of the log's last leaf, for the clock to
// start from.
func (l *Log) startClock(ctx context.Context) error {
	size := l.Size()
	if size == 0 {
		return nil
	}
	leaves, err := l.Leaves(ctx, size-1, size)
	if err != nil {
		return fmt.Errorf("translog: reading the last leaf: %w", err)
	}
	if t, ok := leafTime(leaves[0]); ok {
		l.clock.last = t
	}
	return nil
}

// Restamp makes leaf again stamped at, and keeps it wherever leaf was kept,
// before it returns.
type Restamp func(at time.Time) ([]byte, error)

// AppendStamped is Append (published) or Sequence for a leaf with a
// "timestamp" member: if leaf is stamped earlier than the leaf the log
// sequenced before it, restamp is called with that leaf's time and its leaf
// is sequenced instead. It returns the index and the leaf sequenced.
func (l *Log) AppendStamped(ctx context.Context, leaf []byte, restamp Restamp, published bool) (uint64, []byte, error) {
	if err := l.enter(); err != nil {
		return 0, nil, err
	}
	defer l.leave()
	if err := checkLeaf(leaf); err != nil {
		return 0, nil, err
	}
	future, leaf, err := l.queueInOrder(ctx, leaf, restamp)
	if err != nil {
		return 0, nil, err
	}
	idx, err := future()
	if err != nil {
		return 0, nil, fmt.Errorf("translog: sequencing the entry: %w", err)
	}
	if !published {
		return idx.Index, leaf, nil
	}
	return idx.Index, leaf, l.awaitProvable(ctx, idx.Index, leaf)
}

// queueInOrder hands leaf, restamped if it must be, to Tessera, whose queue
// gives indices in the order leaves are added.
func (l *Log) queueInOrder(ctx context.Context, leaf []byte, restamp Restamp) (tessera.IndexFuture, []byte, error) {
	l.clock.mu.Lock()
	defer l.clock.mu.Unlock()
	if t, ok := leafTime(leaf); ok {
		if t.Before(l.clock.last) {
			if restamp == nil {
				return nil, nil, fmt.Errorf("%w: stamped %s, before the leaf before it (%s)", ErrInvalidLeaf, tlog.FormatTimestamp(t), tlog.FormatTimestamp(l.clock.last))
			}
			again, err := restamp(l.clock.last)
			if err != nil {
				return nil, nil, err
			}
			if err := checkLeaf(again); err != nil {
				return nil, nil, err
			}
			leaf, t = again, l.clock.last
		}
		l.clock.last = t
	}
	return l.appender.Add(ctx, tessera.NewEntry(leaf)), leaf, nil
}
