package journal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// Claims across processes.
//
// On a log other processes append to as well (translog.Log.Shared), they
// keep their state in one store too, and an entry must be logged once
// whichever of them is asked: the same contribution sent to two of them,
// an operator's key entry needed by two first actions, an entry a crashed
// process left. In this process, the call logging an entry holds it in
// appending (acquire); across processes it holds the log's claim on its
// digest (translog.Log.Claim) from before its leaf is queued until it is
// bound, and keeps it while the log holds the leaf unbound, so no other
// process queues it again. A call finding the claim busy waits for the
// entry to be bound by its holder; a call taking it from a process that
// is gone looks for the leaf that process may have appended (FindLeaves)
// and binds it there, rather than append it twice.

// claimWait bounds how long a call waits for another process's claim on
// the entry it logs (whose holder is alive, or the claim would be taken
// over): past it, the call fails with translog.ErrPushback, a 503 asking
// the client to try again, rather than hold its request open. The holder
// keeps a claim that long only when the log holds its leaf unbound, which
// its recovery settles.
const claimWait = 30 * time.Second

// claimPoll is how often a call waiting on another process's claim looks
// again.
const claimPoll = 20 * time.Millisecond

// claimShared claims digest on a shared log for the caller, which holds
// it in this process (acquire). It returns once the caller holds the claim,
// or, with bound set, once the entry is bound: by the process holding the
// claim, or where a process gone left it on the log. A caller holding the
// claim releases it (releaseShared) once the entry is bound, or once it
// failed having added nothing to the log.
func (j *Journal) claimShared(ctx context.Context, digest string) (index uint64, bound bool, err error) {
	deadline := time.Now().Add(claimWait)
	for {
		st, err := j.log.Claim(ctx, digest)
		if err != nil {
			return 0, false, err
		}
		switch st {
		case translog.Claimed:
			return 0, false, nil
		case translog.ClaimedFromGone:
			index, bound, err := j.settleGone(ctx, digest)
			if bound && err == nil {
				j.releaseShared(ctx, digest)
			}
			return index, bound, err
		}
		s, err := j.store.SignedByDigest(ctx, digest)
		if err == nil && s.Index != store.Unlogged {
			return uint64(s.Index), true, nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return 0, false, err
		}
		if time.Now().After(deadline) {
			return 0, false, fmt.Errorf("journal: entry %s is being logged by another process still: %w", digest, translog.ErrPushback)
		}
		select {
		case <-ctx.Done():
			return 0, false, ctx.Err()
		case <-time.After(claimPoll):
		}
	}
}

// settleGone binds entry digest where the log holds it, if it does: the
// process that claimed it last is gone, and may have appended it.
func (j *Journal) settleGone(ctx context.Context, digest string) (uint64, bool, error) {
	s, err := j.store.SignedByDigest(ctx, digest)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return 0, false, nil
	case err != nil:
		return 0, false, err
	case s.Index != store.Unlogged:
		return uint64(s.Index), true, nil
	case s.Leaf == nil:
		return 0, false, nil // never queued: a leaf is kept before it is
	}
	latest, err := j.store.LatestIndex(ctx)
	if err != nil {
		return 0, false, err
	}
	from, err := j.SearchFrom(ctx, []store.Signed{s}, latest)
	if err != nil {
		return 0, false, err
	}
	found, err := j.FindLeaves(ctx, []store.Signed{s}, from)
	if err != nil {
		return 0, false, err
	}
	index, ok := found[digest]
	if !ok {
		return 0, false, nil
	}
	if err := j.store.BindIndex(ctx, int64(index), digest); err != nil {
		return 0, false, fmt.Errorf("journal: binding entry %s where the log holds it, %d: %w", digest, index, err)
	}
	return index, true, nil
}

// releaseShared gives up the log's claim on digest. A release that fails
// leaves the claim to this process, which holds it until it closes: other
// processes wait for the entry's binding instead, which is done.
func (j *Journal) releaseShared(ctx context.Context, digest string) {
	if j.log.Shared() {
		j.log.Release(context.WithoutCancel(ctx), digest)
	}
}

// Hold claims the logging of an unbound entry for crash recovery, as the
// call logging it would (in this process, and on a shared log in every
// process): nil when another call or process is logging it. fromGone says
// a process gone held it last, which may have appended it: look for its
// leaf (FindLeaves) before settling it. The holder ends it with the
// claim's AppendKept, or Release.
func (j *Journal) Hold(ctx context.Context, digest string) (c *Claim, fromGone bool, err error) {
	c = j.Claim(digest)
	if c == nil || !j.log.Shared() {
		return c, false, nil
	}
	st, err := j.log.Claim(ctx, digest)
	if err != nil || st == translog.ClaimBusy {
		c.finish(0, errReleased)
		return nil, false, err
	}
	c.shared = true
	return c, st == translog.ClaimedFromGone, nil
}

// gapForClocks is how far before an entry was first put its leaf may be
// stamped and still be looked for by SearchFrom: the stamp is taken after
// the put, by the same process's clock, so this only covers a clock set
// back in between.
const gapForClocks = time.Minute

// searchWindow is how far below the store's highest bound index a leaf of
// an unbound entry may sit: binding follows appends in whatever order
// their requests resume, so an unbound entry may sit below bound ones, but
// only by about as many appends as can be in flight at once.
const searchWindow = translog.DefaultMaxPending

// SearchFrom returns where to start looking for the leaves of unbound
// entries (FindLeaves): searchWindow below latest, the store's highest
// bound index, and on a shared log, where other processes went on
// appending while one that died left its leaves unbound, no later than
// the first leaf stamped gapForClocks before the oldest entry was put.
// On a shared log it first waits for the log's view to cover every leaf
// sequenced.
func (j *Journal) SearchFrom(ctx context.Context, unbound []store.Signed, latest int64) (uint64, error) {
	if j.log.Shared() {
		// A process gone may have had a leaf sequenced and not yet
		// published: wait until a publication (any live process's)
		// covers all that is sequenced, so FindLeaves reads it.
		sequenced, err := j.log.SequencedSize(ctx)
		if err != nil {
			return 0, err
		}
		if _, err := j.log.WaitForSize(ctx, sequenced); err != nil {
			return 0, err
		}
	}
	size := j.log.Size()
	from := min(size, uint64(latest+1))
	from -= min(from, searchWindow)
	if !j.log.Shared() || len(unbound) == 0 || from == 0 {
		return from, nil
	}
	var oldest time.Time
	for _, s := range unbound {
		if s.Leaf != nil && (oldest.IsZero() || s.Stored.Before(oldest)) {
			oldest = s.Stored
		}
	}
	if oldest.IsZero() {
		return from, nil // no leaf to look for
	}
	after := oldest.Add(-gapForClocks)
	// Leaves are stamped in the log's order, so the first stamped at or
	// after a time is found by bisection.
	var searchErr error
	first := sort.Search(int(from), func(i int) bool {
		if searchErr != nil {
			return true
		}
		leaf, err := j.log.Leaf(ctx, uint64(i))
		if err != nil {
			searchErr = err
			return true
		}
		at, err := leafTime(leaf)
		if err != nil {
			searchErr = err
			return true
		}
		return !at.Before(after)
	})
	if searchErr != nil {
		return 0, fmt.Errorf("journal: finding the leaves stamped since %s: %w", after, searchErr)
	}
	return uint64(first), nil
}

// searchBatch is how many leaves FindLeaves reads from the log at a time.
const searchBatch = 256

// FindLeaves looks for the leaves of unbound entries on the log, newest
// first, from its published size down to from, stopping once all are
// found. It returns where each was found, by digest. A leaf the store
// kept for an entry that does not hold the entry is an error.
func (j *Journal) FindLeaves(ctx context.Context, unbound []store.Signed, from uint64) (map[string]uint64, error) {
	want := map[tlog.Hash]store.Signed{}
	for _, s := range unbound {
		if s.Leaf != nil {
			want[tlog.LeafHash(s.Leaf)] = s
		}
	}
	found := map[string]uint64{}
	end := j.log.Size()
	for end > from && len(want) > 0 {
		start := max(from, end-min(end, searchBatch))
		leaves, err := j.log.Leaves(ctx, start, end)
		if err != nil {
			return nil, fmt.Errorf("journal: reading leaves %d to %d: %w", start, end, err)
		}
		for k := len(leaves) - 1; k >= 0; k-- {
			h := tlog.LeafHash(leaves[k])
			s, ok := want[h]
			if !ok || !bytes.Equal(leaves[k], s.Leaf) {
				continue
			}
			index := start + uint64(k)
			if !leafHolds(leaves[k], s.Entry) {
				return nil, fmt.Errorf("journal: the leaf at %d is the one kept for entry %s, but does not hold that entry", index, s.Digest)
			}
			found[s.Digest] = index
			delete(want, h)
		}
		end = start
	}
	return found, nil
}

// leafHolds reports whether leaf holds the signed entry, as a reader
// checks it.
func leafHolds(leaf, signed []byte) bool {
	l, err := canonical.Parse(leaf)
	if err != nil {
		return false
	}
	s, err := canonical.Parse(signed)
	if err != nil {
		return false
	}
	le, _ := l.(map[string]any)["entry"].(map[string]any)
	se, _ := s.(map[string]any)
	return le != nil && se != nil && protocol.MatchesLeafEntry(se, le)
}

// lockPoll is how often Lock asks again for a lock another process holds.
const lockPoll = 10 * time.Millisecond

// Lock takes the lock named key, across this process's goroutines and, on
// a log shared with other processes, across all of them, waiting (until
// ctx ends) while another holds it; it returns the lock's release. Across
// processes it is the log's claim on "lock:" and key
// (translog.Log.Claim), so a process that dies holding it lets go at
// once. It makes a check of the store or log and the entry the check
// allows one step, whichever process takes them.
func (j *Journal) Lock(ctx context.Context, key string) (unlock func(), err error) {
	mine, err := j.lockHere(ctx, key)
	if err != nil {
		return nil, err
	}
	if !j.log.Shared() {
		return mine, nil
	}
	claim := "lock:" + key
	for {
		st, err := j.log.Claim(ctx, claim)
		if err != nil {
			mine()
			return nil, fmt.Errorf("journal: taking the lock %s: %w", key, err)
		}
		if st != translog.ClaimBusy {
			return func() {
				j.releaseShared(context.WithoutCancel(ctx), claim)
				mine()
			}, nil
		}
		select {
		case <-ctx.Done():
			mine()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// lockHere takes the lock named key among this process's goroutines: a
// channel holding one token while the lock is free, made on first use.
func (j *Journal) lockHere(ctx context.Context, key string) (func(), error) {
	j.locksMu.Lock()
	ch, ok := j.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		ch <- struct{}{}
		j.locks[key] = ch
	}
	j.locksMu.Unlock()
	select {
	case <-ch:
		return func() { ch <- struct{}{} }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TryLock is Lock across processes only, without waiting: ok is false
// while another process holds key. It takes nothing on a log this process
// alone appends to, whose caller keeps its own record of what it holds.
func (j *Journal) TryLock(ctx context.Context, key string) (unlock func(), ok bool, err error) {
	if !j.log.Shared() {
		return func() {}, true, nil
	}
	claim := "lock:" + key
	st, err := j.log.Claim(ctx, claim)
	if err != nil {
		return nil, false, fmt.Errorf("journal: taking the lock %s: %w", key, err)
	}
	if st == translog.ClaimBusy {
		return nil, false, nil
	}
	return func() { j.releaseShared(context.WithoutCancel(ctx), claim) }, true, nil
}
