package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/translog"
)

// Crash recovery.
//
// A logged entry is written in three steps (see logEntry): PutSigned keeps
// it, with its leaf, beside the log; translog.Log.Append puts the leaf on
// the log; BindIndex records the index the log gave it. The records an
// entry makes (an operator's rotation, an identity) are written before the
// append, naming the entry by digest. A process that dies between the
// steps leaves the store disagreeing with the log:
//
//   - after Append, before BindIndex: the log holds the leaf but the store
//     has the entry unbound, so GET .../signed answers 404 for a logged
//     index and records read Unlogged;
//   - after PutSigned (and the records), before the append was sequenced:
//     the store holds an entry, and records resting on it, that the log
//     never got. A library contribution's entry is appended then, not
//     dropped: contributions are visible, and built on, before they are
//     logged.
//
// recover, run by New before the node serves anything (so no append of
// this process can be in flight; on a shared log, see recover's doc for
// other processes'), settles every unbound entry: the ones the log holds are bound
// to their index, the ones it never got are dropped with everything they
// made (store.DropUnbound), except an operator's key entry, which waits
// unbound for the operator's first logged action by design.
//
// It relies on translog.Open publishing, before it returns, every entry
// Tessera sequenced before the crash: an entry sequenced but not yet
// published would otherwise look never logged, be dropped, and then be
// published as a leaf with nothing kept for it.

// recover reconciles the store with the log after a crash; see above. It
// is idempotent: run again, it finds nothing more to do. On a log this
// process alone appends to, it runs before the node serves requests.
//
// On a log shared with other processes (translog.Log.Shared), which may
// be appending right now, it runs at the start and then every
// sharedRecoverEvery (recoverLoop), and settles only what no live process
// is logging: entries put at least Config.RecoverGrace ago (a request's
// records are written before its journal claims the entry, a moment
// before) whose claims it can take (journal.Hold), which a process that
// died held last, or nobody did.
func (n *Node) recover(ctx context.Context) error {
	unbound, err := n.store.Unbound(ctx)
	if err != nil {
		return fmt.Errorf("listing unbound entries: %w", err)
	}
	shared := n.log.Shared()
	if shared {
		unbound = n.settled(unbound)
	}
	if len(unbound) == 0 {
		return nil
	}
	held := map[string]*journal.Claim{}
	defer func() {
		for _, c := range held {
			c.Release()
		}
	}()
	var mine []store.Signed
	for _, s := range unbound {
		c, _, err := n.journal.Hold(ctx, s.Digest)
		if err != nil {
			return fmt.Errorf("claiming entry %s: %w", s.Digest, err)
		}
		if c != nil {
			held[s.Digest] = c
			mine = append(mine, s)
		}
	}
	unbound = mine
	latest, err := n.store.LatestIndex(ctx)
	if err != nil {
		return err
	}
	from, err := n.journal.SearchFrom(ctx, unbound, latest)
	if err != nil {
		return err
	}
	found, err := n.journal.FindLeaves(ctx, unbound, from)
	if err != nil {
		return err
	}
	checkFrom := min(uint64(latest+1), n.log.Size())

	var bound, dropped, kept, appended int
	for _, s := range unbound {
		index, ok := found[s.Digest]
		if !ok {
			continue
		}
		if err := n.store.BindIndex(ctx, int64(index), s.Digest); err != nil {
			return fmt.Errorf("binding entry %s to index %d, where the log holds it: %w", s.Digest, index, err)
		}
		bound++
		checkFrom = min(checkFrom, index)
		n.logger.Info("recovery: bound an entry the log holds", "index", index, "digest", s.Digest, "type", entryType(s.Entry))
	}
	// Newest first, so a rotation made from a key that an unlogged
	// rotation gave is undone before that one; and again while that
	// frees more, in case they were kept in another order.
	var rest []store.Signed
	for i := len(unbound) - 1; i >= 0; i-- {
		if _, ok := found[unbound[i].Digest]; !ok {
			rest = append(rest, unbound[i])
		}
	}
	for progress := true; progress && len(rest) > 0; {
		progress = false
		var blocked []store.Signed
		for _, s := range rest {
			verdict, why, err := n.settle(ctx, s)
			if err != nil {
				return err
			}
			switch verdict {
			case keepEntry:
				kept++
				if shared {
					n.waiting.Store(s.Digest, true)
				}
				n.logger.Debug("recovery: kept an unlogged entry", "digest", s.Digest, "type", entryType(s.Entry), "why", why)
				continue
			case blockedEntry:
				blocked = append(blocked, s)
				continue
			case appendEntry:
				// The claim held is used up logging it.
				c := held[s.Digest]
				delete(held, s.Digest)
				index, err := c.AppendKept(ctx, s.Entry, s.Leaf)
				if err != nil {
					return fmt.Errorf("appending entry %s, which the log never got: %w", s.Digest, err)
				}
				appended++
				progress = true
				n.logger.Info("recovery: appended an admitted entry the log never got", "index", index, "digest", s.Digest, "type", entryType(s.Entry))
				continue
			}
			if err := n.store.DropUnbound(ctx, s.Digest); err != nil {
				return fmt.Errorf("dropping entry %s, which the log never got: %w", s.Digest, err)
			}
			dropped++
			progress = true
			n.logger.Warn("recovery: dropped an entry the log never got, with the records it made", "digest", s.Digest, "type", entryType(s.Entry), "had_leaf", s.Leaf != nil)
		}
		rest = blocked
	}
	for _, s := range rest {
		n.logger.Error("recovery: an unlogged rotation gave a key that a logged rotation retired; it needs an operator", "digest", s.Digest)
	}
	if bound > 0 || dropped > 0 || appended > 0 {
		n.logger.Info("recovery: store reconciled with the log", "bound", bound, "dropped", dropped, "appended", appended, "kept", kept, "log_size", n.log.Size())
	}
	if shared {
		// Other processes' appends in flight hold leaves not bound yet.
		return nil
	}
	return n.checkBound(ctx, checkFrom)
}

// sharedRecoverEvery is how often a node on a shared log settles what
// processes that died left (recoverLoop).
const sharedRecoverEvery = 10 * time.Second

// DefaultRecoverGrace is Config.RecoverGrace's default.
const DefaultRecoverGrace = time.Minute

// settled returns the entries of unbound put at least the grace ago, but
// for those recover found waiting by design before: on a shared log,
// younger ones may be a live request's, whose journal has not claimed
// them yet.
func (n *Node) settled(unbound []store.Signed) []store.Signed {
	grace := n.cfg.RecoverGrace
	if grace <= 0 {
		grace = DefaultRecoverGrace
	}
	// Stored is the store's time, the time of the process that put it.
	before := time.Now().Add(-grace)
	var old []store.Signed
	for _, s := range unbound {
		if _, waits := n.waiting.Load(s.Digest); !waits && s.Stored.Before(before) {
			old = append(old, s)
		}
	}
	return old
}

// recoverLoop runs recover every sharedRecoverEvery until ctx ends, on a
// log shared with other processes: what one that died left unlogged, a
// library contribution built on already, is logged by the others.
func (n *Node) recoverLoop(ctx context.Context) {
	t := time.NewTicker(sharedRecoverEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := n.recover(ctx); err != nil && ctx.Err() == nil {
			n.logger.Error("recovery: settling what another process left", "err", err)
		}
	}
}

// What recover does with an unbound entry the log does not hold.
const (
	dropEntry    = iota // drop it with what it made
	keepEntry           // keep it: it waits unbound by design
	blockedEntry        // not now: a later record rests on it
	appendEntry         // append it: it was admitted, and later records may rest on it
)

// settle says what to do with an unbound entry the log does not hold, and
// why when it is kept.
func (n *Node) settle(ctx context.Context, s store.Signed) (int, string, error) {
	v, err := canonical.Parse(s.Entry)
	if err != nil {
		return 0, "", fmt.Errorf("entry %s as kept: %w", s.Digest, err)
	}
	entry, _ := v.(map[string]any)
	switch entry["type"] {
	case library.ContributionType:
		// A library contribution is visible from the moment it is stored
		// (library.Store), so later ones may rest on it: it is
		// logged late rather than dropped.
		if s.Leaf != nil {
			return appendEntry, "", nil
		}
	case "key":
		// An operator's key entry stays unbound from registration to its
		// first logged action; only one no operator was recorded with
		// (the process died between PutSigned and CreateOperator) goes.
		key, _ := entry["key"].(string)
		op, err := n.store.OperatorByKey(ctx, protocol.KeyDigest(key))
		switch {
		case errors.Is(err, store.ErrNotFound):
			return dropEntry, "", nil
		case err != nil:
			return 0, "", err
		case len(op.Keys) > 0 && op.Keys[0].Entry == s.Digest:
			return keepEntry, "the key entry of a registered operator, logged with its first logged action", nil
		}
	case protocol.KeyRotationType, protocol.KeyRecoveryType:
		// The key the rotation (or recovery) gave must still be current: undoing it
		// while another rotation retired that key would leave the other
		// signed by a key the operator never held.
		id, _ := entry["operator"].(string)
		op, err := n.store.Operator(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return dropEntry, "", nil
		} else if err != nil {
			return 0, "", err
		}
		for _, k := range op.Keys {
			if k.Entry == s.Digest && !k.Current() {
				return blockedEntry, "", nil
			}
		}
	}
	return dropEntry, "", nil
}

// checkBound reports, in the node's log, indices from `from` to the log's
// size (where recovery bound entries, and above the highest index bound
// before it) that hold a leaf with no signed entry kept for it: GET
// .../signed answers 404 for them, and nothing recover knows can repair it.
func (n *Node) checkBound(ctx context.Context, from uint64) error {
	for i := from; i < n.log.Size(); i++ {
		_, err := n.store.Signed(ctx, int64(i))
		if errors.Is(err, store.ErrNotFound) {
			n.logger.Error("recovery: the log holds a leaf whose signed entry is not kept", "index", i)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// entryType is an entry's "type", for the log.
func entryType(signed []byte) string {
	v, _ := canonical.Parse(signed)
	obj, _ := v.(map[string]any)
	t, _ := obj["type"].(string)
	return t
}

// leadRetry is how often a process not leading a shared log's loops asks
// again whether the leader is gone.
const leadRetry = 5 * time.Second

// lead runs run, until ctx ends, in one process of those sharing the log
// at a time: the one holding the log's claim on "lead:" and name, which
// another takes over (within leadRetry) once that process is gone.
func (n *Node) lead(ctx context.Context, name string, run func(context.Context)) {
	key := "lead:" + name
	for {
		st, err := n.log.Claim(ctx, key)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			n.logger.Error("leading the shared log's loops", "loops", name, "err", err)
		case st != translog.ClaimBusy:
			n.logger.Info("this process runs the shared log's loops", "loops", name)
			run(ctx)
			n.log.Release(context.WithoutCancel(ctx), key)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(leadRetry):
		}
	}
}
