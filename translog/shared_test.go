package translog

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestMySQLShared runs two shared Logs on one database, as two processes
// would (they share no memory but the keys): what one publishes the other
// serves, Size, WaitForSize and proofs included, and both appending at
// once give every index once. A Log that does not share the database is
// refused while they run, and they while it runs.
func TestMySQLShared(t *testing.T) {
	cfg := testDrivers[1].config(t)
	cfg.Shared = true
	a := openLog(t, cfg)
	b := openLog(t, cfg)
	alone := cfg
	alone.Shared = false
	if _, err := Open(context.Background(), alone); !errors.Is(err, ErrLocked) {
		t.Fatalf("a Log that does not share the database, beside shared ones: %v, want ErrLocked", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	waited := make(chan uint64, 1)
	go func() {
		n, err := b.WaitForSize(ctx, 20)
		if err != nil {
			t.Errorf("b.WaitForSize(20): %v", err)
		}
		waited <- n
	}()
	acked := appendConcurrently(t, a, "a", 20, 20)
	if n := <-waited; n < 20 {
		t.Fatalf("b.WaitForSize(20) = %d", n)
	}
	if b.Size() < 20 {
		t.Fatalf("b's Size is %d after a published 20 entries", b.Size())
	}
	checkLog(t, b, acked)

	var wg sync.WaitGroup
	var fromA, fromB map[uint64][]byte
	wg.Go(func() { fromA = appendConcurrently(t, a, "a2", 30, 30) })
	wg.Go(func() { fromB = appendConcurrently(t, b, "b2", 30, 30) })
	wg.Wait()
	for index, leaf := range fromA {
		acked[index] = leaf
	}
	for index, leaf := range fromB {
		if _, twice := acked[index]; twice {
			t.Fatalf("index %d was given to both Logs", index)
		}
		acked[index] = leaf
	}
	if len(acked) != 80 {
		t.Fatalf("%d distinct indices for 80 appends", len(acked))
	}
	if _, err := a.WaitForSize(ctx, 80); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WaitForSize(ctx, 80); err != nil {
		t.Fatal(err)
	}
	checkLog(t, a, acked)
	checkLog(t, b, acked)
	closeLog(t, a)
	closeLog(t, b)

	l := openLog(t, alone)
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrLocked) {
		t.Fatalf("a shared Log beside one that does not share: %v, want ErrLocked", err)
	}
	checkLog(t, l, acked)
}

// TestMySQLCosignLock checks one shared Log at a time holds the right to
// cosign, and another takes it once the first lets go or dies.
func TestMySQLCosignLock(t *testing.T) {
	dsn := mysqltest.DSN(t)
	ctx := context.Background()
	one, err := openMySQL(ctx, dsn, true)
	if err != nil {
		t.Fatal(err)
	}
	defer one.close()
	two, err := openMySQL(ctx, dsn, true)
	if err != nil {
		t.Fatal(err)
	}
	defer two.close()
	held, release, err := one.takeCosigning(ctx)
	if err != nil || held == nil || !held(ctx) {
		t.Fatalf("the first Log could not take the cosigning: %v", err)
	}
	if h, _, err := two.takeCosigning(ctx); h != nil || err != nil {
		t.Fatalf("a second Log took the cosigning while the first held it (%v)", err)
	}
	release()
	if held(ctx) {
		t.Fatal("the cosigning is still held once released")
	}
	h, rel, err := two.takeCosigning(ctx)
	if err != nil || h == nil || !h(ctx) {
		t.Fatalf("the second Log could not take the cosigning once free: %v", err)
	}
	rel()
}

// TestMySQLSharedCosigning runs two shared Logs with a witness: one at a
// time asks it, so no checkpoint is sent twice and no request is sent
// with a stale old size, both serve the cosigned checkpoint, and when the
// one asking closes, the other takes over.
func TestMySQLSharedCosigning(t *testing.T) {
	fastBackoff(t)
	defer func(old time.Duration) { cosignLeadRetry = old }(cosignLeadRetry)
	cosignLeadRetry = 50 * time.Millisecond
	cfg := testDrivers[1].config(t)
	cfg.Shared = true
	wit, w := newFakeWitness(t, "witness.example/shared", logVKey(t, cfg))
	cfg.Witnesses = []Witness{w}
	a := openLog(t, cfg)
	b := openLog(t, cfg)

	cosignedBoth := func(writer *Log, readers ...*Log) {
		t.Helper()
		appendConcurrently(t, writer, fmt.Sprint(writer.Size()), 5, 5)
		size := writer.Size()
		for _, l := range readers {
			if _, err := l.WaitForSize(context.Background(), size); err != nil {
				t.Fatal(err)
			}
			checkCosigned(t, l, waitCosigned(t, l, size, w.VerifierKey), size, w.VerifierKey)
			deadline := time.Now().Add(10 * time.Second)
			for {
				latest, err := l.LatestCheckpoint()
				if err != nil {
					t.Fatal(err)
				}
				if c, _ := tlog.ParseCheckpoint(latest); c.Size >= size {
					checkCosigned(t, l, latest, c.Size, w.VerifierKey)
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("LatestCheckpoint is not the cosigned one of %d entries:\n%s", size, latest)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
	}
	cosignedBoth(a, a, b)
	cosignedBoth(b, a, b)
	closeLog(t, a) // b asks from now on, whichever did before
	cosignedBoth(b, b)
	a = openLog(t, cfg)
	closeLog(t, b) // a takes over
	cosignedBoth(a, a)

	wit.mu.Lock()
	defer wit.mu.Unlock()
	for size, n := range wit.asked {
		if n > 1 {
			t.Errorf("the witness was asked %d times to cosign the checkpoint of %d", n, size)
		}
	}
	if wit.conflicts > 0 {
		t.Errorf("the witness answered %d requests with a stale old size", wit.conflicts)
	}
}
