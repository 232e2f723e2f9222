package journal

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/postgres"
	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
	"github.com/agora-node/agora/translog/mysqltest"
)

// sharedNode is one node process's journal, store and Log, of many
// sharing one PostgreSQL store and one MySQL log.
type sharedNode struct {
	j   *Journal
	st  store.Store
	log *translog.Log
}

// sharedNodes returns a function that opens the journal of one more node
// process on one PostgreSQL schema and one MySQL log, as agora serve does
// with several processes.
func sharedNodes(t *testing.T) func() sharedNode {
	logKey, cpKey := testKeys(t)
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		t.Fatal(err)
	}
	dsn, schema, mysql := pgtest.DSN(t), pgtest.Schema(t), mysqltest.DSN(t)
	ctx := context.Background()
	return func() sharedNode {
		st, err := postgres.Open(ctx, postgres.Config{DSN: dsn, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		log, err := translog.Open(ctx, translog.Config{MySQL: mysql, Shared: true, Origin: origin, LogKey: logKey, CheckpointKey: cpKey,
			CheckpointInterval: translog.MinMySQLCheckpointInterval, BatchMaxAge: 5 * time.Millisecond,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { log.Close(ctx) })
		return sharedNode{New(st, log, time.Now), st, log}
	}
}

// TestLoggedOnceAcrossProcesses asks two node processes at once, many
// times each, to log one kept entry (a library contribution sent to both)
// and one new entry (the same signed entry sent to both): each is logged
// once. Every call for the kept entry gets its index; one for the new
// entry gets it, or, asked once it was bound, store.ErrDuplicate, as on
// one process.
func TestLoggedOnceAcrossProcesses(t *testing.T) {
	open := sharedNodes(t)
	a, b := open(), open()
	ctx := context.Background()

	kept := map[string]any{"type": "test", "kept": true}
	keptSigned, _ := canonical.Marshal(kept)
	keptDigest := canonical.Digest(keptSigned)
	leaf, err := a.j.Leaf(kept, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.st.PutSigned(ctx, keptDigest, keptSigned, leaf); err != nil {
		t.Fatal(err)
	}
	fresh := map[string]any{"type": "test", "kept": false}
	freshSigned, _ := canonical.Marshal(fresh)
	freshDigest := canonical.Digest(freshSigned)

	var mu sync.Mutex
	got := map[string]map[uint64]int{keptDigest: {}, freshDigest: {}}
	var wg sync.WaitGroup
	for i := range 16 {
		n := a
		if i%2 == 1 {
			n = b
		}
		wg.Go(func() {
			index, err := n.j.AppendKept(ctx, keptDigest)
			if err != nil {
				t.Errorf("AppendKept: %v", err)
				return
			}
			mu.Lock()
			got[keptDigest][index]++
			mu.Unlock()
		})
		wg.Go(func() {
			index, err := n.j.Append(ctx, freshDigest, freshSigned, fresh, nil)
			if errors.Is(err, store.ErrDuplicate) {
				return // asked once it was bound: as on one process
			}
			if err != nil {
				t.Errorf("Append: %v", err)
				return
			}
			mu.Lock()
			got[freshDigest][index]++
			mu.Unlock()
		})
	}
	wg.Wait()
	for digest, indices := range got {
		if len(indices) != 1 {
			t.Fatalf("entry %s got indices %v, want one", digest, indices)
		}
	}
	// Every call returned once its entry was published, by a or by b;
	// a's view follows b's publications a moment later.
	sequenced, err := a.log.SequencedSize(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sequenced != 2 {
		t.Fatalf("the log holds %d leaves, want 2: an entry was logged twice", sequenced)
	}
	// Nothing is left claimed: a third process claims both at once.
	c := open()
	for _, d := range []string{keptDigest, freshDigest} {
		if st, err := c.log.Claim(ctx, d); err != nil || st != translog.Claimed {
			t.Fatalf("claiming %s after it was logged: %v, %v", d, st, err)
		}
	}
}

// TestClaimOfAProcessGone: a process that appended a kept entry's leaf and
// died before binding it (its Log closed, holding the claim) leaves it for
// the next process to log, which finds the leaf and binds it there rather
// than append it again.
func TestClaimOfAProcessGone(t *testing.T) {
	open := sharedNodes(t)
	a, b := open(), open()
	ctx := context.Background()

	entry := map[string]any{"type": "test", "n": 1}
	signed, _ := canonical.Marshal(entry)
	digest := canonical.Digest(signed)
	leaf, err := a.j.Leaf(entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a's steps up to the crash: keep, claim, append; not bind.
	if err := a.st.PutSigned(ctx, digest, signed, leaf); err != nil {
		t.Fatal(err)
	}
	if st, err := a.log.Claim(ctx, digest); err != nil || st != translog.Claimed {
		t.Fatalf("a's claim: %v, %v", st, err)
	}
	index, err := a.log.Append(ctx, leaf)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := b.log.Claim(ctx, digest); err != nil || st != translog.ClaimBusy {
		t.Fatalf("b's claim while a is open: %v, %v; want busy", st, err)
	}
	if err := a.log.Close(ctx); err != nil {
		t.Fatal(err)
	}

	got, err := b.j.AppendKept(ctx, digest)
	if err != nil {
		t.Fatalf("b's AppendKept of a's entry: %v", err)
	}
	if got != index {
		t.Fatalf("b logged a's entry at %d; the log held it at %d", got, index)
	}
	if size, err := b.log.SequencedSize(ctx); err != nil || size != index+1 {
		t.Fatalf("the log holds %d leaves (%v), want %d: the entry was appended again", size, err, index+1)
	}
	s, err := b.st.SignedByDigest(ctx, digest)
	if err != nil || s.Index != int64(index) {
		t.Fatalf("the entry as stored: %+v, %v", s, err)
	}
}

// TestLockAcrossProcesses: goroutines of two processes taking one Lock
// never hold it together, and a process that closes holding it lets the
// other take it.
func TestLockAcrossProcesses(t *testing.T) {
	open := sharedNodes(t)
	a, b := open(), open()
	ctx := context.Background()
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		n := a
		if i%2 == 1 {
			n = b
		}
		wg.Go(func() {
			for range 5 {
				unlock, err := n.j.Lock(ctx, "seed")
				if err != nil {
					t.Errorf("Lock: %v", err)
					return
				}
				now := inside.Add(1)
				if now > most.Load() {
					most.Store(now)
				}
				time.Sleep(2 * time.Millisecond)
				inside.Add(-1)
				unlock()
			}
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d goroutines of two processes held one lock at once", most.Load())
	}
	if _, err := a.j.Lock(ctx, "held"); err != nil {
		t.Fatal(err)
	}
	if err := a.log.Close(ctx); err != nil {
		t.Fatal(err)
	}
	timeout, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := b.j.Lock(timeout, "held"); err != nil {
		t.Fatalf("the lock of a process gone: %v", err)
	}
}
