package translog

import (
	"context"
	"fmt"
)

// Shared reports whether other Logs may append to this log at once
// (Config.Shared).
func (l *Log) Shared() bool { return l.store.shared() }

// Turn waits for the log's append turn, which one Log of a shared
// database holds at a time, and returns the last leaf sequenced by any of
// them (nil while the log is empty) and the release of the turn. A caller
// that orders leaves by something of its own (package journal's
// timestamps) orders the leaves it queues during the turn after last, and
// releases the turn only once Tessera has sequenced every one of them
// (QueueNotify's sequenced): then the leaves of a later turn, whichever
// Log takes it, come after them, stamped after them. Tessera's MySQL
// driver commits a batch's indices and leaves in one transaction, so last
// is read from what is committed, published or not. A Log that does not
// share its storage has nothing to take and returns its last sequenced
// leaf all the same.
func (l *Log) Turn(ctx context.Context) (last []byte, release func(), err error) {
	release, err = l.store.takeTurn(ctx)
	if err != nil {
		return nil, nil, err
	}
	last, err = l.lastSequenced(ctx)
	if err != nil {
		release()
		return nil, nil, err
	}
	return last, release, nil
}

// lastSequenced reads the last leaf Tessera sequenced, from the tree
// state and the entry bundles it committed with it.
func (l *Log) lastSequenced(ctx context.Context) ([]byte, error) {
	size, err := l.reader.IntegratedSize(ctx)
	if err != nil {
		return nil, fmt.Errorf("translog: reading Tessera's tree size: %w", err)
	}
	if size == 0 {
		return nil, nil
	}
	leaves, err := l.tiles.at(size).leaves(ctx, size-1, size)
	if err != nil {
		return nil, fmt.Errorf("translog: reading the last sequenced leaf, %d: %w", size-1, err)
	}
	return leaves[0], nil
}

// SequencedSize is how many entries Tessera has sequenced into the log,
// by this Log or, on a shared log, any: at least Size, and more while
// the newest are not published yet. A caller looking for a leaf that a
// process gone may have appended waits for a publication covering it
// (WaitForSize) before it reads the leaves.
func (l *Log) SequencedSize(ctx context.Context) (uint64, error) {
	size, err := l.reader.IntegratedSize(ctx)
	if err != nil {
		return 0, fmt.Errorf("translog: reading Tessera's tree size: %w", err)
	}
	return size, nil
}
