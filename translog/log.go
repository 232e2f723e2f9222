package translog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
	f_log "github.com/transparency-dev/formats/log"
	"github.com/transparency-dev/tessera"
)

// Names inside Config.Dir.
const (
	lockName      = "LOCK"
	tilesName     = "tiles"
	treeHeadsName = "treeheads"
)

// A Log is an open append-only log. Its methods are safe for concurrent
// use. Every read answers from the latest published tree head, so readers
// never see an entry before its tree head exists.
type Log struct {
	cfg    Config
	logID  string // protocol.LogID of pubKey
	pubKey string // the log key's public key as text
	signer *tlog.CheckpointSigner
	store  backend // the folder or database, locked while the Log is open
	heads  records[published]
	tiles  *tileStore

	// Witnessing (see witness.go), when Config.Witnesses are set: the
	// cosignature file, the witnesses (owned by cosignLoop), and the
	// cosigning goroutine's stop and end.
	cosigs        records[cosigned]
	witnesses     []*witnessState
	cosignStop    context.CancelFunc
	cosignDone    chan struct{}
	witnessClient *http.Client

	// Tessera: its appender, its shutdown, and the context its
	// goroutines run under, cancelled last in Close.
	appender *tessera.Appender
	reader   tessera.LogReader
	shutdown func(context.Context) error
	bg       context.Context
	cancel   context.CancelFunc

	// Following a shared log's other processes (see follow.go): the
	// wake-up a waiting caller sends, and the goroutine's end.
	poke       chan struct{}
	followDone chan struct{}

	// pubMu serializes publications (see publish) and Close's closing of
	// the tree-head file.
	pubMu sync.Mutex

	// mu guards the fields below it.
	mu      sync.Mutex
	latest  *published    // the latest publication; nil before the first
	changed chan struct{} // closed, and replaced, at each publication
	closing bool          // Close has begun: no new appends
	pending int           // appends in flight
	drained chan struct{} // closed when pending reaches 0 once closing
	// bestCosigned is the newest checkpoint with Config.WitnessQuorum
	// cosignatures, with them; nil if there is none.
	bestCosigned []byte

	closed  chan struct{} // closed when Close begins: waiters give up
	stopped chan struct{} // closed once Tessera stops: nothing more will be published

	// failed is closed, with failure set first, when the tree-head file
	// broke, or another process took a MySQL log's lock: nothing more can
	// be published until an operator steps in.
	failed   chan struct{}
	failOnce sync.Once
	failure  error
}

// Open opens the log in cfg.Dir, creating it if it is new, and starts
// Tessera's sequencer and publisher. Before anything starts it checks that
// the stored tiles reproduce the latest stored tree head, and that the
// configured keys are the ones that signed it. When it returns, every
// entry Tessera ever sequenced in the directory is published, including
// those a crash caught between sequencing and publication (Open waits up
// to one CheckpointInterval for them), so Size covers the whole log. Only
// one Log at a time may have a directory open (ErrLocked). ctx bounds Open
// itself; the log runs until Close.
func Open(ctx context.Context, cfg Config) (*Log, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	signer, err := tlog.NewCheckpointSigner(cfg.Origin, cfg.CheckpointKey)
	if err != nil {
		return nil, err
	}
	store, err := openBackend(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pubKey := cfg.LogKey.Public().String()
	l := &Log{
		cfg:     cfg,
		logID:   protocol.LogID(pubKey),
		pubKey:  pubKey,
		signer:  signer,
		store:   store,
		tiles:   newTileStore(store, cfg.TileCacheSize),
		changed: make(chan struct{}),
		closed:  make(chan struct{}),
		stopped: make(chan struct{}),
		failed:  make(chan struct{}),
	}
	opened := false
	defer func() {
		if !opened {
			if l.cancel != nil {
				l.cancel() // stops Tessera's goroutines
				l.stopFollowing()
			}
			if l.heads != nil {
				l.pubMu.Lock() // let a publication under way finish
				l.heads.close()
				l.pubMu.Unlock()
			}
			if l.cosigs != nil {
				l.cosigs.close()
			}
			store.close()
		}
	}()
	if l.heads, err = store.openHeads(); err != nil {
		return nil, err
	}
	if err := l.checkStored(ctx); err != nil {
		return nil, err
	}
	if p, found := l.heads.latest(); found {
		l.latest = &p
	}
	if len(cfg.Witnesses) > 0 {
		if err := l.openWitnessing(); err != nil {
			return nil, err
		}
	}

	driver, err := store.driver(ctx)
	if err != nil {
		return nil, fmt.Errorf("translog: starting Tessera: %w", err)
	}
	l.bg, l.cancel = context.WithCancel(context.WithoutCancel(ctx))
	opts := tessera.NewAppendOptions().
		WithCheckpointSigner(publisher{l}).
		WithBatching(cfg.BatchMaxSize, cfg.BatchMaxAge).
		WithCheckpointInterval(cfg.CheckpointInterval)
	l.appender, l.shutdown, l.reader, err = tessera.NewAppender(l.bg, driver, opts)
	if err != nil {
		return nil, fmt.Errorf("translog: starting Tessera: %w", err)
	}
	l.startFollowing()
	// Entries sequenced before a crash but not yet published are
	// published at Tessera's first interval; wait for it, so the log a
	// caller gets holds everything that was ever sequenced.
	integrated, err := l.reader.IntegratedSize(ctx)
	if err != nil {
		return nil, fmt.Errorf("translog: reading Tessera's tree size: %w", err)
	}
	if _, err := l.awaitSize(ctx, integrated, false); err != nil {
		return nil, fmt.Errorf("translog: publishing the %d entries sequenced before the log last stopped: %w", integrated, err)
	}
	store.watchLock(l.lockLost)
	l.startWitnessing()
	opened = true
	return l, nil
}

// checkStored checks what is on disk before Tessera starts: the latest
// tree head was signed by the configured keys, and the stored tiles
// reproduce its root, so the tree Tessera continues is the one the log
// signed.
func (l *Log) checkStored(ctx context.Context) error {
	last, ok := l.heads.latest()
	if !ok {
		_, err := l.store.tesseraCheckpoint(ctx)
		switch {
		case err == nil:
			return corrupt("%s holds a tree Tessera published but %s holds no tree head for it", l.store.where(), l.heads.name())
		case !errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("translog: reading Tessera's checkpoint: %w", err)
		}
		return nil
	}
	if err := tlog.VerifyTreeHead(last.head, l.pubKey); err != nil || last.head.Log != l.logID {
		return &ConfigError{Field: "LogKey", Issue: "is not the key that signed this log's tree heads"}
	}
	if _, err := tlog.VerifyCheckpoint(last.checkpoint, l.signer.VerifierKey()); err != nil {
		return &ConfigError{Field: "CheckpointKey", Issue: "and Origin are not the key and origin of this log's checkpoints: " + err.Error()}
	}
	root, err := tlog.ReadRoot(ctx, l.tiles.at(last.head.Size), last.head.Size)
	if err != nil {
		return corrupt("the tiles do not hold the tree of the latest tree head (%d entries): %w", last.head.Size, err)
	}
	if root != last.head.Root {
		return corrupt("the tiles give the tree of %d entries the root %s, but its tree head says %s", last.head.Size, root, last.head.Root)
	}
	return nil
}

// publisher is the note.Signer Tessera signs its checkpoints with. Each
// checkpoint it signs is published first (see Log.publish).
type publisher struct{ l *Log }

func (p publisher) Name() string    { return p.l.signer.Name() }
func (p publisher) KeyHash() uint32 { return p.l.signer.KeyHash() }
func (p publisher) Sign(msg []byte) ([]byte, error) {
	sig, err := p.l.publish(msg)
	if err != nil {
		p.l.publishFailed(err)
	}
	return sig, err
}

// publishFailed reports a failed publication. One that shows the stored
// log contradicting itself, or leaves the tree-head file unable to take
// more, stops all publication for good: Appends waiting for it return, and
// new ones fail, with ErrCorrupt. Anything else Tessera retries at its next
// interval.
func (l *Log) publishFailed(err error) {
	select {
	case <-l.failed:
		return // said once already
	default:
	}
	fatal := err
	if broken := l.heads.brokenErr(); broken != nil {
		fatal = broken
	}
	if !errors.Is(fatal, ErrCorrupt) {
		l.cfg.Logger.Warn("translog: publishing a checkpoint failed; Tessera retries at its next interval", "err", err)
		return
	}
	l.cfg.Logger.Error("translog: the log can no longer publish", "err", fatal)
	l.failOnce.Do(func() {
		l.failure = fatal
		close(l.failed)
	})
}

// lockLost stops all publication for good when another process took the
// log's lock: this Log's view of the log is no longer the only one.
func (l *Log) lockLost(err error) {
	l.cfg.Logger.Error("translog: another process took the log's lock; this one stops publishing", "err", err)
	l.failOnce.Do(func() {
		l.failure = err
		close(l.failed)
	})
}

// publish is called by Tessera with the text of each checkpoint it is about
// to publish, after it integrated that tree durably. It checks the tree,
// signs the checkpoint and a tree head, verifies both, stores them with an
// fsync, and only then returns the checkpoint signature, so Tessera writes
// its checkpoint only after the tree head is stored. An error makes
// Tessera skip this publication and try again at its next interval.
func (l *Log) publish(msg []byte) ([]byte, error) {
	var c f_log.Checkpoint
	rest, err := c.Unmarshal(msg)
	if err != nil || rest != nil || c.Origin != l.cfg.Origin || len(c.Hash) != tlog.HashSize {
		return nil, fmt.Errorf("translog: asked to sign %.200q, which is not a checkpoint of this log", msg)
	}
	size, root := c.Size, tlog.Hash(c.Hash)
	select {
	case <-l.failed:
		return nil, fmt.Errorf("translog: publication stopped: %w", l.failure)
	default:
	}
	sig, err := l.signer.Sign(msg)
	if err != nil {
		return nil, err
	}

	l.pubMu.Lock()
	defer l.pubMu.Unlock()
	// In MySQL, the last tree head stored may be newer than this Log
	// knows (a commit whose answer was lost); Tessera's publication
	// holds its locks, so no other publication runs meanwhile.
	if err := l.heads.refresh(); err != nil {
		return nil, err
	}
	prev, havePrev := l.heads.latest()
	if havePrev && size <= prev.head.Size {
		if size == prev.head.Size && root == prev.head.Root {
			// A republication: the tree head stands. It may be one a
			// failed publication stored after all (a database commit
			// whose answer was lost), which reads never saw.
			l.setLatest(prev)
			return sig, nil
		}
		return nil, corrupt("asked to publish a tree of %d entries (root %s) after one of %d (root %s)", size, root, prev.head.Size, prev.head.Root)
	}

	tr := l.tiles.at(size)
	stored, err := tlog.ReadRoot(l.bg, tr, size)
	if err != nil {
		return nil, err
	}
	if stored != root {
		return nil, corrupt("asked to publish root %s for %d entries, but the tiles give %s", root, size, stored)
	}
	if havePrev {
		proof, err := tlog.ConsistencyProof(l.bg, tr, prev.head.Size, size)
		if err != nil {
			return nil, err
		}
		if err := tlog.VerifyConsistency(prev.head.Size, size, prev.head.Root, root, proof); err != nil {
			return nil, corrupt("the tree of %d entries does not extend the published one of %d: %w", size, prev.head.Size, err)
		}
	}

	note := noteWithSignature(msg, l.signer, sig)
	if _, err := tlog.VerifyCheckpoint(note, l.signer.VerifierKey()); err != nil {
		return nil, fmt.Errorf("translog: the checkpoint just signed does not verify: %w", err)
	}
	t := l.cfg.Now()
	if havePrev {
		if pt, err := prev.head.Time(); err == nil && t.Before(pt) {
			t = pt // never stamp a head before the one it follows
		}
	}
	head, err := tlog.SignTreeHead(l.cfg.LogKey, size, root, t)
	if err != nil {
		return nil, err
	}
	if err := tlog.VerifyTreeHead(head, l.pubKey); err != nil {
		return nil, fmt.Errorf("translog: the tree head just signed does not verify: %w", err)
	}
	p := published{head: head, checkpoint: note}
	if err := l.heads.append(p); err != nil {
		return nil, err
	}
	l.setLatest(p)
	return sig, nil
}

// setLatest makes p the latest publication, unless it is not newer, and
// wakes those waiting for one.
func (l *Log) setLatest(p published) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.latest != nil && l.latest.head.Size >= p.head.Size {
		return
	}
	l.latest = &p
	close(l.changed)
	l.changed = make(chan struct{})
}

// Append adds leaf to the log and returns its index once it is durably
// sequenced, integrated, covered by a published checkpoint and tree head,
// and its inclusion proof, rebuilt from the stored tiles, verifies against
// that tree head. leaf is the canonical JSON of the log leaf (see
// tlog.LeafBytes); it must not be changed during the call.
//
// Errors: ErrInvalidLeaf and ErrPushback before anything is added;
// ErrClosed once Close has begun; ErrCorrupt once the log can no longer
// publish. Once an index is assigned, Append returns it even with an
// error, and the error wraps ErrUnpublished: the entry is in the log and
// will be published, but ctx ended or the log closed before the
// publication, the tree-head file broke (ErrCorrupt too), the proof could
// not be read, or the published tree does not prove it (ErrCorrupt too).
func (l *Log) Append(ctx context.Context, leaf []byte) (uint64, error) {
	wait, err := l.Queue(ctx, leaf, true)
	if err != nil {
		return 0, err
	}
	return wait()
}

// Sequence adds leaf to the log and returns its index once Tessera has
// durably sequenced it, without waiting for a checkpoint to cover it. It is
// for an entry that must precede another on the log (an operator's key
// entry before its first action): indices are given in the order entries
// are sequenced, so an Append called after Sequence returns gets a larger
// index, and its return means both are published. A sequenced entry is
// published even if the process dies first (Open publishes what was
// sequenced). Errors are Append's, but for ErrUnpublished.
func (l *Log) Sequence(ctx context.Context, leaf []byte) (uint64, error) {
	wait, err := l.Queue(ctx, leaf, false)
	if err != nil {
		return 0, err
	}
	return wait()
}

// Queue is Append (published true) or Sequence (false) cut where the
// entry's place in the log is fixed: it checks leaf and hands it to
// Tessera's queue, and returns at once with the wait for the rest, which
// returns what Append or Sequence would. Tessera sequences entries in the
// order they were queued, so a leaf queued after Queue returned gets a
// larger index: a caller that must order leaves by something of its own
// (their timestamps) queues them one at a time in that order and waits
// for them together. The caller must call wait exactly once; until it
// returns the entry counts as in flight (Close waits for it, MaxPending
// counts it). Queue's errors are Append's before anything is added.
func (l *Log) Queue(ctx context.Context, leaf []byte, published bool) (wait func() (uint64, error), err error) {
	return l.QueueNotify(ctx, leaf, published, nil)
}

// QueueNotify is Queue calling sequenced, if not nil, from within wait as
// soon as Tessera has sequenced the entry (or failed to), before the
// publication wait returns for: a caller holding a Turn lets it go there.
func (l *Log) QueueNotify(ctx context.Context, leaf []byte, published bool, sequenced func()) (wait func() (uint64, error), err error) {
	if err := checkLeaf(leaf, l.store.maxLeafSize()); err != nil {
		return nil, err
	}
	if err := l.enter(); err != nil {
		return nil, err
	}
	future := l.appender.Add(ctx, tessera.NewEntry(leaf))
	return func() (uint64, error) {
		defer l.leave() // counted in until published, so Close waits for it
		idx, err := future()
		if sequenced != nil {
			sequenced()
		}
		if err != nil {
			return 0, fmt.Errorf("translog: sequencing the entry: %w", err)
		}
		if !published {
			return idx.Index, nil
		}
		return idx.Index, l.confirm(ctx, idx.Index, leaf)
	}, nil
}

// confirm waits until the published tree covers entry index and proves
// leaf there; its errors wrap ErrUnpublished.
func (l *Log) confirm(ctx context.Context, index uint64, leaf []byte) error {
	head, err := l.awaitSize(ctx, index+1, false)
	if err != nil {
		return &kindError{[]error{ErrUnpublished}, fmt.Errorf("entry %d: %w", index, err)}
	}
	proof, err := tlog.InclusionProof(ctx, l.tiles.at(head.Size), index, head.Size)
	if err != nil {
		return &kindError{[]error{ErrUnpublished}, fmt.Errorf("proving entry %d in the tree of %d: %w", index, head.Size, err)}
	}
	if err := tlog.VerifyInclusion(index, head.Size, tlog.LeafHash(leaf), proof, head.Root); err != nil {
		return &kindError{[]error{ErrCorrupt, ErrUnpublished}, fmt.Errorf("entry %d is not provable in the published tree of %d: %w", index, head.Size, err)}
	}
	return nil
}

// checkLeaf refuses what the log must never hold: anything but the
// canonical JSON of an object, and leaves an entry bundle cannot hold.
func checkLeaf(leaf []byte, maxSize int) error {
	if len(leaf) == 0 || len(leaf) > maxSize {
		return fmt.Errorf("%w: %d bytes, not 1 to %d", ErrInvalidLeaf, len(leaf), maxSize)
	}
	if leaf[0] != '{' {
		return fmt.Errorf("%w: not a JSON object", ErrInvalidLeaf)
	}
	c, err := canonical.Canonicalize(leaf)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidLeaf, err)
	}
	if !bytes.Equal(c, leaf) {
		return fmt.Errorf("%w: not canonical JSON (RFC 8785)", ErrInvalidLeaf)
	}
	return nil
}

// enter counts an Append in, unless the log is closing or too busy.
func (l *Log) enter() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return fmt.Errorf("translog: append: %w", ErrClosed)
	}
	select {
	case <-l.failed:
		return fmt.Errorf("translog: append: nothing more can be published: %w", l.failure)
	default:
	}
	if l.pending >= l.cfg.MaxPending {
		return fmt.Errorf("%w (%d)", ErrPushback, l.pending)
	}
	l.pending++
	return nil
}

func (l *Log) leave() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending--
	if l.pending == 0 && l.drained != nil {
		close(l.drained)
		l.drained = nil
	}
}

// awaitSize waits until the published tree has at least n entries and
// returns its head. It gives up when ctx ends, when nothing more will be
// published (the log stopped, or its tree-head file broke), and, if
// orClosing, when Close begins.
func (l *Log) awaitSize(ctx context.Context, n uint64, orClosing bool) (tlog.TreeHead, error) {
	closing := l.closed
	if !orClosing {
		closing = nil
	}
	for {
		l.mu.Lock()
		latest, changed := l.latest, l.changed
		l.mu.Unlock()
		if latest != nil && latest.head.Size >= n {
			return latest.head, nil
		}
		l.pokeFollower()
		select {
		case <-changed:
		case <-ctx.Done():
			return tlog.TreeHead{}, ctx.Err()
		case <-l.stopped:
			return tlog.TreeHead{}, ErrClosed
		case <-l.failed:
			return tlog.TreeHead{}, l.failure
		case <-closing:
			return tlog.TreeHead{}, ErrClosed
		}
	}
}

// WaitForSize returns once the published log has at least n entries, with
// its size then. It returns early with ctx's error when ctx ends, or with
// ErrClosed when the log begins to close. (The entries endpoint's wait.)
func (l *Log) WaitForSize(ctx context.Context, n uint64) (uint64, error) {
	head, err := l.awaitSize(ctx, n, true)
	if err != nil {
		return l.Size(), fmt.Errorf("translog: waiting for %d entries: %w", n, err)
	}
	return head.Size, nil
}

// Size is the number of entries in the latest published tree.
func (l *Log) Size() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.latest == nil {
		return 0
	}
	return l.latest.head.Size
}

// current returns the latest publication, or an error if there is none
// or the log is closed.
func (l *Log) current() (published, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		select {
		case <-l.stopped:
			return published{}, fmt.Errorf("translog: %w", ErrClosed)
		default:
		}
	}
	if l.latest == nil {
		return published{}, notFound("no tree head has been published yet")
	}
	return *l.latest, nil
}

// TreeHead returns the latest published tree head, signed by the log key.
// ErrNotFound only before the first publication (Open of a new log
// publishes the empty tree).
func (l *Log) TreeHead() (tlog.TreeHead, error) {
	p, err := l.current()
	return p.head, err
}

// TreeHeadAt returns the tree head published for the tree of size
// entries; ErrNotFound if no checkpoint was published at that size.
func (l *Log) TreeHeadAt(size uint64) (tlog.TreeHead, error) {
	p, err := l.heads.find(size)
	return p.head, err
}

// LatestCheckpoint returns the latest checkpoint as the spec's checkpoint
// endpoint answers it: a signed note (c2sp.org/tlog-checkpoint) signed by
// the checkpoint key. With Config.Witnesses, it is the newest checkpoint
// that Config.WitnessQuorum witnesses cosigned, their cosignature lines
// after the log's signature, or, if there is none yet, the latest
// published checkpoint with any cosignatures it has. Without witnesses it
// is the checkpoint of the latest tree head.
func (l *Log) LatestCheckpoint() ([]byte, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	best := l.bestCosigned
	l.mu.Unlock()
	if best != nil {
		return bytes.Clone(best), nil
	}
	return l.withCosignatures(p)
}

// Checkpoint returns the checkpoint published for the tree of size entries,
// the one beside TreeHeadAt(size), followed by the cosignature lines of the
// configured witnesses that cosigned it; ErrNotFound if none was published
// at that size.
func (l *Log) Checkpoint(size uint64) ([]byte, error) {
	p, err := l.heads.find(size)
	if err != nil {
		return nil, err
	}
	return l.withCosignatures(p)
}

// Leaf returns the leaf at index, which must be below Size (else
// ErrNotFound).
func (l *Log) Leaf(ctx context.Context, index uint64) ([]byte, error) {
	leaves, err := l.Leaves(ctx, index, index+1)
	if err != nil {
		return nil, err
	}
	return leaves[0], nil
}

// Leaves returns the leaves [start, end) from Tessera's entry bundles, each
// checked against the leaf hash its tile holds. end beyond Size is
// ErrNotFound; start after end ErrInvalidRange. Callers bound end-start (the
// API serves at most 100).
func (l *Log) Leaves(ctx context.Context, start, end uint64) ([][]byte, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	size := p.head.Size
	switch {
	case start > end:
		return nil, invalidRange("leaves from %d to %d", start, end)
	case end > size:
		return nil, notFound("leaves up to %d: the published log has %d", end, size)
	case start == end:
		return [][]byte{}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return l.tiles.at(size).leaves(ctx, start, end)
}

// InclusionProof returns the RFC 9162 inclusion proof of leaf index in the
// tree of size entries, built from the stored tiles. size beyond Size is
// ErrNotFound; index not below size ErrInvalidRange.
func (l *Log) InclusionProof(ctx context.Context, index, size uint64) ([]tlog.Hash, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	switch {
	case size > p.head.Size:
		return nil, notFound("a tree of %d entries: the published log has %d", size, p.head.Size)
	case index >= size:
		return nil, invalidRange("leaf %d is not in a tree of %d", index, size)
	}
	return tlog.InclusionProof(ctx, l.tiles.at(p.head.Size), index, size)
}

// ConsistencyProof returns the RFC 9162 consistency proof that the tree of
// first entries is a prefix of the tree of second, built from the stored
// tiles; empty when first is 0 or equals second. second beyond Size is
// ErrNotFound; first above second ErrInvalidRange.
func (l *Log) ConsistencyProof(ctx context.Context, first, second uint64) ([]tlog.Hash, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	switch {
	case first > second:
		return nil, invalidRange("no consistency proof from %d entries to %d", first, second)
	case second > p.head.Size:
		return nil, notFound("a tree of %d entries: the published log has %d", second, p.head.Size)
	}
	return tlog.ConsistencyProof(ctx, l.tiles.at(p.head.Size), first, second)
}

// ReadSubtrees implements tlog.SubtreeReader over the published tree, so a
// Log can be handed to tlog.NewReceipt. A subtree not complete in the
// published tree is ErrNotFound (which also matches tlog.ErrNotFound).
func (l *Log) ReadSubtrees(ctx context.Context, ids []tlog.Subtree) ([]tlog.Hash, error) {
	p, err := l.current()
	if err != nil {
		return nil, err
	}
	return l.tiles.at(p.head.Size).ReadSubtrees(ctx, ids)
}

// LogID is the log's ID, protocol.LogID of its public key.
func (l *Log) LogID() string { return l.logID }

// PublicKey is the log key's public key as text, which verifies its tree
// heads.
func (l *Log) PublicKey() string { return l.pubKey }

// Origin is the log's checkpoint origin.
func (l *Log) Origin() string { return l.cfg.Origin }

// VerifierKey is the checkpoint key's vkey, the one a checkpoint_keys
// object lists (see tlog.SignCheckpointKeys).
func (l *Log) VerifierKey() string { return l.signer.VerifierKey() }

// Close closes the log gracefully: it refuses new appends, releases
// WaitForSize callers, waits for every Append in flight to be published,
// has Tessera publish a checkpoint covering every index it assigned, then
// stops Tessera and closes the files. Nothing acknowledged is lost, and
// nothing acknowledged by Tessera stays unpublished.
//
// If ctx ends first, Close stops everything anyway and returns ctx's error:
// appends still waiting then return ErrUnpublished, and an entry sequenced
// but not yet published is published by the next Open. Closing twice is
// ErrClosed.
func (l *Log) Close(ctx context.Context) error {
	l.mu.Lock()
	if l.closing {
		l.mu.Unlock()
		return fmt.Errorf("translog: close: %w", ErrClosed)
	}
	l.closing = true
	close(l.closed)
	drained := make(chan struct{})
	if l.pending == 0 {
		close(drained)
	} else {
		l.drained = drained
	}
	l.mu.Unlock()

	var errs []error
	select {
	case <-drained:
		errs = append(errs, l.publishLast(ctx))
	case <-l.failed:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("translog: waiting for appends in flight: %w", ctx.Err()))
	}
	select {
	case <-l.failed:
		errs = append(errs, fmt.Errorf("translog: nothing more can be published: %w", l.failure))
	default:
	}
	l.stopWitnessing()
	l.cancel()
	l.stopFollowing()
	close(l.stopped)

	l.pubMu.Lock() // let a publication under way finish
	errs = append(errs, l.heads.close())
	l.pubMu.Unlock()
	if l.cosigs != nil {
		errs = append(errs, l.cosigs.close())
	}
	errs = append(errs, l.store.close())
	return errors.Join(errs...)
}

// publishLast has Tessera publish a checkpoint covering every index it
// assigned, giving up when ctx ends or the tree-head file breaks.
func (l *Log) publishLast(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-l.failed:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := l.shutdown(ctx); err != nil {
		return fmt.Errorf("translog: publishing the last checkpoint: %w", err)
	}
	return nil
}
