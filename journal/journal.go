// Package journal is the one path every logged entry takes, whichever face
// made it: the entry is put in the store beside the log, appended to the log,
// and bound to the index the log gave it (store.Store's "Entries and the log"
// states the contract; spec/ledger-protocol.md, "The log", what a leaf holds). A face
// writes its own records between the put and the append, naming the entry by
// digest, so conflicting writes meet in the store before anything is logged.
//
// # Leaf times
//
// A leaf is never stamped before the leaf ahead of it in the log, as the
// reference monitor checks. The log orders leaves as they are queued on it
// (translog.Log.Queue), so the journal stamps and queues in one order: a
// leaf is stamped with the latest of the clock and every stamp given
// before (the log's last leaf, after a restart), kept in the store with
// that stamp, and queued only once every leaf stamped before it is. The
// store writes of many appends run at once, and so commit together; only
// the queueing, which does not wait, takes turns. A kept leaf, made when
// its entry was admitted, keeps its stamp unless a later one was given
// meanwhile; then it is stamped again, and kept again, before it is queued,
// so the leaf the store keeps is always the one the log holds, which crash
// recovery matches.
//
// On a log other processes append to as well (translog.Log.Shared), the
// order in memory is not enough: a leaf stamped here could be sequenced
// after a later-stamped one of another process. There every leaf joins
// this process's hold of the log's append turn (translog.Log.Turn, see
// turn.go): taking it raises the stamps to the last leaf any process
// sequenced, and it is let go once every leaf that joined it is
// sequenced, so the leaves of the next turn, whoever takes it, come after.
package journal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

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

	// orderMu guards the order of stamps (see queue): last, the latest
	// stamp given, read from the log's last leaf first (resumed); and
	// turn, closed once the leaf stamped last is queued on the log.
	orderMu sync.Mutex
	resumed bool
	last    time.Time
	turn    chan struct{}

	// shared is this process's hold of the append turn of a log other
	// processes append to as well (translog.Log.Shared).
	shared sharedTurn

	// publishing holds, for each operator whose key entry PublishKey is
	// logging, a channel closed when it is done; publishMu guards it.
	publishMu  sync.Mutex
	publishing map[string]chan struct{}

	// appending holds the call logging each kept entry (AppendKept,
	// SequenceKept); onLog the index of each kept entry the log took but
	// the store did not bind (the binding failed, or the publication was
	// not confirmed), so that it is bound there rather than appended
	// again. keptMu guards both.
	keptMu    sync.Mutex
	appending map[string]*keptCall
	onLog     map[string]uint64
}

// keptCall is a call logging a kept entry; done is closed once index and
// err are set.
type keptCall struct {
	done  chan struct{}
	index uint64
	err   error
}

// New returns the journal writing to st and log, stamping leaves with now.
func New(st store.Store, log *translog.Log, now func() time.Time) *Journal {
	turn := make(chan struct{})
	close(turn)
	j := &Journal{store: st, log: log, now: now, turn: turn, publishing: map[string]chan struct{}{},
		appending: map[string]*keptCall{}, onLog: map[string]uint64{}}
	j.shared.changed = sync.NewCond(&j.shared.mu)
	return j
}

// Leaf returns the leaf that holds entry: leafFields, the time, and the
// entry with its signatures detached (protocol.Detach). A face that keeps
// the leaf before the entry is logged (a library contribution) logs it with
// AppendKept or SequenceKept, which stamp it again if the log has a later
// leaf by then.
func (j *Journal) Leaf(entry, leafFields map[string]any) ([]byte, error) {
	detached, err := protocol.Detach(entry)
	if err != nil {
		return nil, err
	}
	return leafAt(detached, leafFields, j.now())
}

// leafAt is the leaf holding the detached entry and leafFields, stamped at.
func leafAt(detached, leafFields map[string]any, at time.Time) ([]byte, error) {
	leaf := map[string]any{"timestamp": tlog.FormatTimestamp(at), "entry": detached}
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
	detached, err := protocol.Detach(entry)
	if err != nil {
		return 0, err
	}
	if !j.log.Shared() {
		// Once the entry is on its way to the log, a client hanging up
		// must not leave it logged but unbound: finish the append and the
		// binding.
		index, _, err := j.appendDetached(context.WithoutCancel(ctx), digest, signed, detached, leafFields, published)
		return index, err
	}
	// Other processes may be logging the same entry, or recovering it:
	// log it holding its claims (see claims.go).
	call, index, done, err := j.acquire(ctx, digest, published)
	if done || err != nil {
		return index, err
	}
	ctx = context.WithoutCancel(ctx)
	index, err = j.appendClaimed(ctx, digest, signed, detached, leafFields, published)
	j.finish(digest, call, index, err)
	return index, err
}

// appendClaimed is appendDetached on a shared log, holding the log's
// claim on digest while the entry is logged.
func (j *Journal) appendClaimed(ctx context.Context, digest string, signed []byte, detached, leafFields map[string]any, published bool) (uint64, error) {
	index, bound, err := j.claimShared(ctx, digest)
	if err != nil {
		return 0, err
	}
	if bound {
		return index, j.published(ctx, index, published)
	}
	index, onLog, err := j.appendDetached(ctx, digest, signed, detached, leafFields, published)
	if !onLog {
		// Bound, or never on the log: either way no other process must
		// wait for this one. A leaf on the log unbound keeps the claim, so
		// that nobody appends it again; recovery binds it.
		j.releaseShared(ctx, digest)
	}
	return index, err
}

// appendDetached is append of the entry with its signatures detached.
// onLog says the log may hold its leaf, appended or about to be, though
// the call failed: the leaf was sequenced but not published, or bound
// nowhere.
func (j *Journal) appendDetached(ctx context.Context, digest string, signed []byte, detached, leafFields map[string]any, published bool) (index uint64, onLog bool, err error) {
	wait, err := j.queue(ctx, j.now(), published,
		func(at time.Time) ([]byte, error) { return leafAt(detached, leafFields, at) },
		func(leaf []byte) error { return j.store.PutSigned(ctx, digest, signed, leaf) })
	if err != nil {
		return 0, false, err
	}
	index, err = wait()
	if err != nil {
		return 0, errors.Is(err, translog.ErrUnpublished), err
	}
	if err := j.store.BindIndex(ctx, int64(index), digest); err != nil {
		return 0, true, err
	}
	return index, false, nil
}

// queue stamps a leaf and queues it on the log, in the order of the stamps
// (see the package doc): the stamp is the latest of want and every stamp
// given before, stamp makes the leaf stamped so, keep keeps it beside its
// entry in the store, and only then, once every leaf stamped before is
// queued, is it queued (translog.Log.Queue, published or only sequenced).
// The caller calls the wait it returns.
func (j *Journal) queue(ctx context.Context, want time.Time, published bool, stamp func(time.Time) ([]byte, error), keep func([]byte) error) (wait func() (uint64, error), err error) {
	var sequenced func()
	if j.log.Shared() {
		// Other processes queue on the log too: stamp and queue during
		// this process's turn, which ends once the leaf is sequenced.
		if err := j.joinTurn(ctx); err != nil {
			return nil, err
		}
		sequenced = sync.OnceFunc(j.leaveTurn)
		defer func() {
			if err != nil {
				sequenced() // not queued
			}
		}()
	}
	j.orderMu.Lock()
	if !j.resumed {
		if err := j.resume(ctx); err != nil {
			j.orderMu.Unlock()
			return nil, err
		}
	}
	at := want
	if at.Before(j.last) {
		at = j.last
	}
	j.last = at
	prev, mine := j.turn, make(chan struct{})
	j.turn = mine
	j.orderMu.Unlock()
	defer close(mine)

	leaf, err := stamp(at)
	if err == nil {
		err = keep(leaf)
	}
	<-prev
	if err != nil {
		return nil, err
	}
	return j.log.QueueNotify(ctx, leaf, published, sequenced)
}

// resume makes the stamps start no earlier than the log's last leaf: the
// clock may have been set back since it was stamped. orderMu is held.
func (j *Journal) resume(ctx context.Context) error {
	if size := j.log.Size(); size > 0 {
		leaf, err := j.log.Leaf(ctx, size-1)
		if err != nil {
			return fmt.Errorf("journal: reading the log's last leaf: %w", err)
		}
		if j.last, err = leafTime(leaf); err != nil {
			return fmt.Errorf("journal: the log's last leaf: %w", err)
		}
	}
	j.resumed = true
	return nil
}

// leafTime reads a leaf's timestamp.
func leafTime(leaf []byte) (time.Time, error) {
	stamp, _, _, err := leafStamp(leaf)
	if err != nil {
		return time.Time{}, err
	}
	return tlog.ParseTimestamp(stamp)
}

// leafStamp finds the leaf's "timestamp" member: its string and where its
// JSON text starts and ends in leaf. It skips the entry the leaf holds
// (checked, not parsed into values): a contribution's is kilobytes of
// record, and every kept leaf is read for its stamp before it is queued.
func leafStamp(leaf []byte) (stamp string, start, end int, err error) {
	if stamp, start, end, ok := lastStamp(leaf); ok {
		return stamp, start, end, nil
	}
	// From a bytes.Buffer the decoder reads leaf in place, not a copy.
	dec := jsontext.NewDecoder(bytes.NewBuffer(leaf))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "", 0, 0, fmt.Errorf("journal: a leaf is not a JSON object: %w", store.ErrInvalid)
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return "", 0, 0, fmt.Errorf("journal: leaf: %w", err)
		}
		if name.String() != "timestamp" {
			if err := dec.SkipValue(); err != nil {
				return "", 0, 0, fmt.Errorf("journal: leaf: %w", err)
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil || v.Kind() != '"' {
			return "", 0, 0, fmt.Errorf("journal: a leaf's timestamp is not a string: %w", store.ErrInvalid)
		}
		text, err := jsontext.AppendUnquote(nil, v)
		if err != nil {
			return "", 0, 0, fmt.Errorf("journal: leaf timestamp: %w", err)
		}
		end = int(dec.InputOffset())
		return string(text), end - len(v), end, nil
	}
	return "", 0, 0, fmt.Errorf("journal: a leaf has no timestamp: %w", store.ErrInvalid)
}

// lastStamp finds the leaf's "timestamp" when it is the top-level
// object's last member with a plain stamp, as the leaf of a contribution
// (entry, operator, timestamp) always is: read from the end, without
// scanning the kilobytes of entry before it. The object's closing brace
// is the last byte, so the string before it is the last member's value
// (its text has no quote or backslash, so it starts at the quote found),
// and the name before that is "timestamp", opened by a quote after a
// comma or the object's brace, which no string's escaped text ends in.
// It trusts leaf to be JSON, as every leaf the node made or logged is;
// any other leaf is left to leafStamp's decoder, which checks it.
func lastStamp(leaf []byte) (stamp string, start, end int, ok bool) {
	const name = `"timestamp":"`
	n := len(tlog.TimestampLayout)
	end = len(leaf) - 1
	start = end - n - 2
	if start-len(name)+1 < 1 || leaf[end] != '}' || leaf[end-1] != '"' || !bytes.HasSuffix(leaf[:start+1], []byte(name)) {
		return "", 0, 0, false
	}
	if c := leaf[start+1-len(name)-1]; c != ',' && c != '{' {
		return "", 0, 0, false
	}
	text := leaf[start+1 : end-1]
	if bytes.IndexAny(text, "\\\"") >= 0 {
		return "", 0, 0, false
	}
	return string(text), start, end, true
}

// restamp returns leaf stamped at instead: leaf itself if its stamp reads
// the same. The stamp's text is replaced where it stands, so a canonical
// leaf stays canonical (its members keep their order, the new stamp is
// plain ASCII) and its entry is not written again.
func restamp(leaf []byte, at time.Time) ([]byte, error) {
	old, start, end, err := leafStamp(leaf)
	if err != nil {
		return nil, err
	}
	stamp := tlog.FormatTimestamp(at)
	if old == stamp {
		return leaf, nil
	}
	out := make([]byte, 0, len(leaf)-(end-start)+len(stamp)+2)
	out = append(out, leaf[:start]...)
	if out, err = canonical.AppendMarshal(out, stamp); err != nil {
		return nil, err
	}
	return append(out, leaf[end:]...), nil
}

// AppendKept logs an entry the store keeps with its leaf (put by a face's
// own write, as a library contribution is) unless it is logged already,
// binds it, and returns its index once a published checkpoint covers it.
// However many calls ask for one entry at once, it is logged once: a call
// made while another is logging it waits for that one (giving up when ctx
// ends), and logs it itself if that one failed. An entry the log took but
// the store did not bind is bound where the log holds it, not appended
// again. The leaf is stamped again, and kept again, if the log has a later
// leaf than its stamp.
func (j *Journal) AppendKept(ctx context.Context, digest string) (uint64, error) {
	return j.logKept(ctx, digest, true)
}

// SequenceKept is AppendKept returning once the entry is durably sequenced
// and bound, not yet in a published checkpoint (as Sequence): for kept
// entries that must be logged in an order of their own, such as an
// imported bundle's.
func (j *Journal) SequenceKept(ctx context.Context, digest string) (uint64, error) {
	return j.logKept(ctx, digest, false)
}

func (j *Journal) logKept(ctx context.Context, digest string, published bool) (uint64, error) {
	call, index, done, err := j.acquire(ctx, digest, published)
	if done || err != nil {
		return index, err
	}
	// Once the entry is on its way to the log, finish, whatever the caller
	// does.
	index, err = j.logKeptOnce(context.WithoutCancel(ctx), digest, published)
	j.finish(digest, call, index, err)
	return index, err
}

// acquire makes the caller this process's one call logging digest, which
// it ends with finish; or, when another call logged it meanwhile, returns
// that call's index with done set, once it is published if published.
// A call that fails hands the entry to the next.
func (j *Journal) acquire(ctx context.Context, digest string, published bool) (call *keptCall, index uint64, done bool, err error) {
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
			return call, 0, false, nil
		}
		select {
		case <-call.done:
			if call.err == nil {
				return nil, call.index, true, j.published(ctx, call.index, published)
			}
		case <-ctx.Done():
			return nil, 0, false, ctx.Err()
		}
	}
}

// finish ends the call acquire gave, with its outcome.
func (j *Journal) finish(digest string, call *keptCall, index uint64, err error) {
	call.index, call.err = index, err
	j.keptMu.Lock()
	delete(j.appending, digest)
	j.keptMu.Unlock()
	close(call.done)
}

// published waits, if published, until a checkpoint covers index.
func (j *Journal) published(ctx context.Context, index uint64, published bool) error {
	if !published {
		return nil
	}
	_, err := j.log.WaitForSize(ctx, index+1)
	return err
}

// logKeptOnce is logKept for the one call logging digest.
func (j *Journal) logKeptOnce(ctx context.Context, digest string, published bool) (uint64, error) {
	s, err := j.store.SignedByDigest(ctx, digest)
	if err != nil {
		return 0, err
	}
	if s.Index != store.Unlogged {
		// Bound meanwhile, perhaps only sequenced.
		return uint64(s.Index), j.published(ctx, uint64(s.Index), published)
	}
	if s.Leaf == nil {
		return 0, fmt.Errorf("journal: entry %s is kept without its leaf: %w", digest, store.ErrInvalid)
	}
	return j.logUnbound(ctx, s, published)
}

// A Claim is the right to log one entry about to be kept (Journal.Claim).
type Claim struct {
	j      *Journal
	digest string
	call   *keptCall
	shared bool // Hold took the log's claim too
}

// errReleased is what a released claim tells the calls waiting on it,
// which then log the entry themselves.
var errReleased = errors.New("journal: claim released")

// Claim claims the logging of the entry digest before the caller keeps it
// with its leaf in a write of its own (as a library contribution is kept):
// until the claim is used or released, AppendKept of digest waits for it,
// so its user may log the entry without reading back what it kept. It
// returns nil if another call is logging digest already.
func (j *Journal) Claim(digest string) *Claim {
	j.keptMu.Lock()
	defer j.keptMu.Unlock()
	if _, busy := j.appending[digest]; busy {
		return nil
	}
	call := &keptCall{done: make(chan struct{})}
	j.appending[digest] = call
	return &Claim{j: j, digest: digest, call: call}
}

// AppendKept is Journal.AppendKept of the claimed entry, which the caller
// kept unlogged, as signed with leaf, after it claimed it: no other call
// can have logged it since. The claim is used up.
func (c *Claim) AppendKept(ctx context.Context, signed, leaf []byte) (uint64, error) {
	index, err := c.j.logUnbound(context.WithoutCancel(ctx), store.Signed{Digest: c.digest, Entry: signed, Leaf: leaf, Index: store.Unlogged}, true)
	c.finish(index, err)
	return index, err
}

// Release gives the claim up unused (the caller did not keep the entry, or
// found it kept before, or Hold's caller settled it): calls waiting on it
// log the entry themselves.
func (c *Claim) Release() {
	if c.shared {
		c.j.releaseShared(context.Background(), c.digest)
	}
	c.finish(0, errReleased)
}

func (c *Claim) finish(index uint64, err error) { c.j.finish(c.digest, c.call, index, err) }

// logUnbound logs kept entry s, which is not bound, unless the log took it
// already, and binds it. On a shared log it holds the log's claim on the
// entry meanwhile (see claims.go), and keeps it while the log holds the
// leaf unbound.
func (j *Journal) logUnbound(ctx context.Context, s store.Signed, published bool) (uint64, error) {
	if !j.log.Shared() {
		return j.logUnboundClaimed(ctx, s, published)
	}
	index, bound, err := j.claimShared(ctx, s.Digest)
	if err != nil {
		return 0, err
	}
	if !bound {
		// Another process may have logged it, and let go of its claim,
		// since the caller read it: read it again, holding the claim.
		cur, err := j.store.SignedByDigest(ctx, s.Digest)
		if err != nil {
			j.releaseShared(ctx, s.Digest)
			return 0, err
		}
		if bound = cur.Index != store.Unlogged; bound {
			index = uint64(cur.Index)
			j.releaseShared(ctx, s.Digest)
		} else if cur.Leaf != nil {
			s = cur
		}
	}
	if bound {
		j.keptMu.Lock()
		delete(j.onLog, s.Digest)
		j.keptMu.Unlock()
		return index, j.published(ctx, index, published)
	}
	index, err = j.logUnboundClaimed(ctx, s, published)
	j.keptMu.Lock()
	_, onLog := j.onLog[s.Digest]
	j.keptMu.Unlock()
	if !onLog {
		j.releaseShared(ctx, s.Digest)
	}
	return index, err
}

// logUnboundClaimed is logUnbound once the entry's claims are held.
func (j *Journal) logUnboundClaimed(ctx context.Context, s store.Signed, published bool) (uint64, error) {
	digest := s.Digest
	j.keptMu.Lock()
	index, taken := j.onLog[digest]
	j.keptMu.Unlock()
	if taken {
		if err := j.published(ctx, index, published); err != nil {
			return index, err
		}
	} else {
		stamped, err := leafTime(s.Leaf)
		if err != nil {
			return 0, fmt.Errorf("journal: the kept leaf of %s: %w", digest, err)
		}
		wait, err := j.queue(ctx, stamped, published,
			func(at time.Time) ([]byte, error) { return restamp(s.Leaf, at) },
			func(leaf []byte) error {
				if bytes.Equal(leaf, s.Leaf) {
					return nil
				}
				return j.store.PutSigned(ctx, digest, s.Entry, leaf)
			})
		if err != nil {
			return 0, err // nothing was added
		}
		index, err = wait()
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
