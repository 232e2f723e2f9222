package translog

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/agora-node/agora/tlog"
)

// followGap is the least time between two reads of the tree-head table
// that a waiting caller asks for (see pokeFollower); the regular reads
// come every quarter CheckpointInterval.
const followGap = 50 * time.Millisecond

// startFollowing starts, for a shared log (Config.Shared), the goroutine
// that reads the newest tree head any Log of the database published, so
// Size, WaitForSize, the proofs and Append's confirmation see the other
// processes' publications as well as this one's.
func (l *Log) startFollowing() {
	if !l.store.shared() {
		return
	}
	l.poke = make(chan struct{}, 1)
	l.followDone = make(chan struct{})
	go l.followLoop(l.bg)
}

// stopFollowing waits for the following goroutine to end, once l.bg is
// cancelled.
func (l *Log) stopFollowing() {
	if l.followDone != nil {
		<-l.followDone
	}
}

// pokeFollower asks for a read of the tree-head table soon, for a caller
// waiting for a size: the tree head that covers it may be another
// process's.
func (l *Log) pokeFollower() {
	if l.poke == nil {
		return
	}
	select {
	case l.poke <- struct{}{}:
	default:
	}
}

func (l *Log) followLoop(ctx context.Context) {
	defer close(l.followDone)
	t := time.NewTicker(l.cfg.CheckpointInterval / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-l.poke:
		}
		if err := l.follow(ctx); err != nil && ctx.Err() == nil {
			if errors.Is(err, ErrCorrupt) {
				l.cfg.Logger.Error("translog: a tree head another process published does not check; this one stops publishing", "err", err)
				l.failOnce.Do(func() {
					l.failure = err
					close(l.failed)
				})
				return
			}
			l.cfg.Logger.Warn("translog: reading the tree heads other processes published failed; trying again", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(followGap):
		}
	}
}

// follow reads the newest tree head and cosignatures stored, and makes
// them this Log's latest once they check.
func (l *Log) follow(ctx context.Context) error {
	if err := l.heads.refresh(); err != nil {
		return err
	}
	p, ok := l.heads.latest()
	l.mu.Lock()
	cur := l.latest
	l.mu.Unlock()
	if ok && (cur == nil || p.head.Size > cur.head.Size) {
		if err := l.checkFollowed(ctx, cur, p); err != nil {
			return err
		}
		l.setLatest(p)
	}
	if l.cosigs != nil {
		return l.followCosignatures()
	}
	return nil
}

// checkFollowed checks a tree head another process stored, as publish
// checks the one it signs: both signatures, the tiles reproduce its root,
// and it extends cur, stamped no earlier.
func (l *Log) checkFollowed(ctx context.Context, cur *published, p published) error {
	size := p.head.Size
	if err := tlog.VerifyTreeHead(p.head, l.pubKey); err != nil || p.head.Log != l.logID {
		return corrupt("the stored tree head of %d entries is not signed by this log's key", size)
	}
	cp, err := tlog.VerifyCheckpoint(p.checkpoint, l.signer.VerifierKey())
	if err != nil {
		return corrupt("the stored checkpoint of %d entries does not verify: %w", size, err)
	}
	if cp.Size != size || cp.Root != p.head.Root {
		return corrupt("the stored checkpoint of %d entries is not of its tree head's tree", size)
	}
	tr := l.tiles.at(size)
	root, err := tlog.ReadRoot(ctx, tr, size)
	if err != nil {
		return err
	}
	if root != p.head.Root {
		return corrupt("the tiles give the tree of %d entries the root %s, but its stored tree head says %s", size, root, p.head.Root)
	}
	if cur == nil {
		return nil
	}
	proof, err := tlog.ConsistencyProof(ctx, tr, cur.head.Size, size)
	if err != nil {
		return err
	}
	if err := tlog.VerifyConsistency(cur.head.Size, size, cur.head.Root, root, proof); err != nil {
		return corrupt("the stored tree of %d entries does not extend the one of %d this log saw: %w", size, cur.head.Size, err)
	}
	pt, err1 := cur.head.Time()
	t, err2 := p.head.Time()
	if err := errors.Join(err1, err2); err != nil {
		return corrupt("a tree head's time: %w", err)
	}
	if t.Before(pt) {
		return corrupt("the stored tree head of %d entries is stamped before the one of %d", size, cur.head.Size)
	}
	return nil
}

// followCosignatures makes the newest stored cosignatures, if a quorum of
// them verifies, the checkpoint LatestCheckpoint serves.
func (l *Log) followCosignatures() error {
	if err := l.cosigs.refresh(); err != nil {
		return err
	}
	c, ok := l.cosigs.latest()
	if !ok {
		return nil
	}
	l.mu.Lock()
	best, cur := l.bestCosigned, l.latest
	l.mu.Unlock()
	if cur == nil || c.size > cur.head.Size {
		return nil // its tree head is not followed yet
	}
	if best != nil {
		if b, err := tlog.ParseCheckpoint(best); err == nil && b.Size >= c.size && bytes.Equal(best, c.note) {
			return nil
		}
	}
	note, ok, err := l.quorumNote(c)
	if err != nil || !ok {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bestCosigned != nil {
		if b, err := tlog.ParseCheckpoint(l.bestCosigned); err == nil && b.Size > c.size {
			return nil
		}
	}
	l.bestCosigned = note
	return nil
}
