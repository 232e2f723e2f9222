package node

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
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
// recover, run by New before the node serves anything (so no append can be
// in flight), settles every unbound entry: the ones the log holds are bound
// to their index, the ones it never got are dropped with everything they
// made (store.DropUnbound), except an operator's key entry, which waits
// unbound for the operator's first logged action by design.
//
// It relies on translog.Open publishing, before it returns, every entry
// Tessera sequenced before the crash: an entry sequenced but not yet
// published would otherwise look never logged, be dropped, and then be
// published as a leaf with nothing kept for it.

// recoverWindow is how far below the store's highest bound index recover
// looks for leaves of unbound entries. Binding follows appends in whatever
// order their requests resume, so an unbound entry may sit below bound
// ones, but only by about as many appends as can be in flight at once.
const recoverWindow = translog.DefaultMaxPending

// recoverBatch is how many leaves recover reads from the log at a time.
const recoverBatch = 256

// recover reconciles the store with the log after a crash; see above. It
// is idempotent: run again, it finds nothing more to do. It must run before
// the node serves requests.
func (n *Node) recover(ctx context.Context) error {
	unbound, err := n.store.Unbound(ctx)
	if err != nil {
		return fmt.Errorf("listing unbound entries: %w", err)
	}
	if len(unbound) == 0 {
		return nil
	}
	latest, err := n.store.LatestIndex(ctx)
	if err != nil {
		return err
	}
	found, err := n.findLeaves(ctx, unbound, latest)
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
				n.logger.Debug("recovery: kept an unlogged entry", "digest", s.Digest, "type", entryType(s.Entry), "why", why)
				continue
			case blockedEntry:
				blocked = append(blocked, s)
				continue
			case appendEntry:
				index, err := n.journal.AppendKept(ctx, s.Digest)
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
	return n.checkBound(ctx, checkFrom)
}

// findLeaves looks for the leaves of unbound entries on the log, newest
// first, from its published size down to recoverWindow below the store's
// highest bound index, stopping once all are found. It returns where each
// was found, by digest.
func (n *Node) findLeaves(ctx context.Context, unbound []store.Signed, latest int64) (map[string]uint64, error) {
	want := map[tlog.Hash]store.Signed{}
	for _, s := range unbound {
		if s.Leaf != nil {
			want[tlog.LeafHash(s.Leaf)] = s
		}
	}
	found := map[string]uint64{}
	size := n.log.Size()
	if len(want) == 0 {
		return found, nil
	}
	lo := min(size, uint64(latest+1))
	lo -= min(lo, recoverWindow)
	end := size
	for end > lo && len(want) > 0 {
		start := max(lo, end-min(end, recoverBatch))
		leaves, err := n.log.Leaves(ctx, start, end)
		if err != nil {
			return nil, fmt.Errorf("reading leaves %d to %d: %w", start, end, err)
		}
		for j := len(leaves) - 1; j >= 0; j-- {
			h := tlog.LeafHash(leaves[j])
			s, ok := want[h]
			if !ok || !bytes.Equal(leaves[j], s.Leaf) {
				continue
			}
			index := start + uint64(j)
			if !leafHolds(leaves[j], s.Entry) {
				return nil, fmt.Errorf("the leaf at %d is the one kept for entry %s, but does not hold that entry", index, s.Digest)
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
