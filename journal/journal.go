// Package journal is the one path every logged entry takes, whichever face
// made it: the entry is put in the store beside the log, appended to the log,
// and bound to the index the log gave it (store.Store's "Entries and the log"
// states the contract; spec/ledger-protocol.md, "The log", what a leaf holds). A face
// writes its own records between the put and the append, naming the entry by
// digest, so conflicting writes meet in the store before anything is logged.
package journal

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// Journal logs signed entries. It is safe for concurrent use.
type Journal struct {
	store store.Store
	log   *translog.Log
	now   func() time.Time

	// publishing holds, for each operator whose key entry PublishKey is
	// logging, a channel closed when it is done; publishMu guards it.
	publishMu  sync.Mutex
	publishing map[string]chan struct{}

	// appending holds the call of AppendKept logging each kept entry;
	// onLog the index of each kept entry the log took but the store did
	// not bind (the binding failed, or the publication was not
	// confirmed), so that it is bound there rather than appended again.
	// keptMu guards both.
	keptMu    sync.Mutex
	appending map[string]*keptCall
	onLog     map[string]uint64
}

// keptCall is a call of AppendKept; done is closed once index and err
// are set.
type keptCall struct {
	done  chan struct{}
	index uint64
	err   error
}

// New returns the journal writing to st and log, stamping leaves with now.
func New(st store.Store, log *translog.Log, now func() time.Time) *Journal {
	return &Journal{store: st, log: log, now: now, publishing: map[string]chan struct{}{},
		appending: map[string]*keptCall{}, onLog: map[string]uint64{}}
}

// Leaf returns the leaf that holds entry: leafFields, the time, and the
// entry with its signatures detached (protocol.Detach).
func (j *Journal) Leaf(entry, leafFields map[string]any) ([]byte, error) {
	detached, err := protocol.Detach(entry)
	if err != nil {
		return nil, err
	}
	leaf := map[string]any{"timestamp": tlog.FormatTimestamp(j.now()), "entry": detached}
	for k, v := range leafFields {
		leaf[k] = v
	}
	return tlog.LeafBytes(leaf)
}

// Append puts a signed entry (digest is its entry digest, signed its JSON,
// entry the parsed object), appends its leaf (Leaf of entry and leafFields)
// and binds it. It returns once the entry is durable and provable: a
// published checkpoint covers it.
func (j *Journal) Append(ctx context.Context, digest string, signed []byte, entry, leafFields map[string]any) (uint64, error) {
	return j.append(ctx, digest, signed, entry, leafFields, true)
}

// Sequence is Append returning once the entry is durably sequenced, not yet
// in a published checkpoint (translog.Log.Sequence): for an entry that
// another, appended right after, needs logged first.
func (j *Journal) Sequence(ctx context.Context, digest string, signed []byte, entry, leafFields map[string]any) (uint64, error) {
	return j.append(ctx, digest, signed, entry, leafFields, false)
}

func (j *Journal) append(ctx context.Context, digest string, signed []byte, entry, leafFields map[string]any, published bool) (uint64, error) {
	leaf, err := j.Leaf(entry, leafFields)
	if err != nil {
		return 0, err
	}
	// Once the entry is on its way to the log, a client hanging up must not
	// leave it logged but unbound: finish the append and the binding.
	ctx = context.WithoutCancel(ctx)
	if err := j.store.PutSigned(ctx, digest, signed, leaf); err != nil {
		return 0, err
	}
	appendLeaf := j.log.Append
	if !published {
		appendLeaf = j.log.Sequence
	}
	index, err := appendLeaf(ctx, leaf)
	if err != nil {
		return 0, err
	}
	if err := j.store.BindIndex(ctx, int64(index), digest); err != nil {
		return 0, err
	}
	return index, nil
}

// AppendKept logs an entry the store keeps with its leaf (put by a face's
// own write, as a library contribution is) unless it is logged already,
// binds it, and returns its index once a published checkpoint covers it.
// However many calls ask for one entry at once, it is logged once: a call
// made while another is logging it waits for that one (giving up when ctx
// ends), and logs it itself if that one failed. An entry the log took but
// the store did not bind is bound where the log holds it, not appended
// again.
func (j *Journal) AppendKept(ctx context.Context, digest string) (uint64, error) {
	var call *keptCall
	for {
		j.keptMu.Lock()
		var busy bool
		call, busy = j.appending[digest]
		if !busy {
			call = &keptCall{done: make(chan struct{})}
			j.appending[digest] = call
		}
		j.keptMu.Unlock()
		if !busy {
			break
		}
		select {
		case <-call.done:
			if call.err == nil {
				return call.index, nil
			}
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	// Once the entry is on its way to the log, finish, whatever the caller
	// does.
	call.index, call.err = j.appendKept(context.WithoutCancel(ctx), digest)
	j.keptMu.Lock()
	delete(j.appending, digest)
	j.keptMu.Unlock()
	close(call.done)
	return call.index, call.err
}

// appendKept is AppendKept for the one call logging digest.
func (j *Journal) appendKept(ctx context.Context, digest string) (uint64, error) {
	s, err := j.store.SignedByDigest(ctx, digest)
	if err != nil {
		return 0, err
	}
	if s.Index != store.Unlogged {
		// Bound meanwhile; wait for a checkpoint covering it, in case
		// whoever bound it only had it sequenced.
		if _, err := j.log.WaitForSize(ctx, uint64(s.Index)+1); err != nil {
			return 0, err
		}
		return uint64(s.Index), nil
	}
	if s.Leaf == nil {
		return 0, fmt.Errorf("journal: entry %s is kept without its leaf: %w", digest, store.ErrInvalid)
	}
	j.keptMu.Lock()
	index, taken := j.onLog[digest]
	j.keptMu.Unlock()
	if taken {
		if _, err := j.log.WaitForSize(ctx, index+1); err != nil {
			return index, err
		}
	} else {
		index, err = j.log.Append(ctx, s.Leaf)
		switch {
		case errors.Is(err, translog.ErrUnpublished):
			j.tookKept(digest, index)
			return index, err
		case err != nil:
			return 0, err // nothing was added
		}
	}
	if err := j.store.BindIndex(ctx, int64(index), digest); err != nil {
		j.tookKept(digest, index)
		return index, err
	}
	j.keptMu.Lock()
	delete(j.onLog, digest)
	j.keptMu.Unlock()
	return index, nil
}

// tookKept notes that the log holds kept entry digest at index, unbound.
func (j *Journal) tookKept(digest string, index uint64) {
	j.keptMu.Lock()
	j.onLog[digest] = index
	j.keptMu.Unlock()
}

// PublishKey logs the operator's key entry if it is not logged yet: an
// operator's key goes on the log with its first logged action, which the
// caller appends right after.
func (j *Journal) PublishKey(ctx context.Context, op store.Operator) error {
	if op.Keys[0].Since != store.Unlogged {
		return nil
	}
	// Two first actions of one operator at once must log its key once: the
	// second waits for the first, then finds the key logged. Other
	// operators' first actions go on side by side.
	for {
		j.publishMu.Lock()
		busy, ok := j.publishing[op.ID]
		if !ok {
			busy = make(chan struct{})
			j.publishing[op.ID] = busy
			j.publishMu.Unlock()
			break
		}
		j.publishMu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	defer func() {
		j.publishMu.Lock()
		close(j.publishing[op.ID])
		delete(j.publishing, op.ID)
		j.publishMu.Unlock()
	}()
	op, err := j.store.Operator(ctx, op.ID)
	if err != nil {
		return err
	}
	first := op.Keys[0]
	if first.Since != store.Unlogged {
		return nil
	}
	s, err := j.store.SignedByDigest(ctx, first.Entry)
	if err != nil {
		return fmt.Errorf("the key entry of %s: %w", op.ID, err)
	}
	entry, err := canonical.Parse(s.Entry)
	if err != nil {
		return fmt.Errorf("the key entry of %s as kept: %w", op.ID, err)
	}
	// The action that needed the key logs right after it, and waits for a
	// checkpoint covering both; the key entry need only be sequenced first.
	_, err = j.Sequence(ctx, first.Entry, s.Entry, entry.(map[string]any), map[string]any{"operator": op.ID})
	return err
}
