package translog

import (
	"context"
	"errors"
	"testing"
)

// TestSequenceThenAppend checks what Sequence promises: an entry sequenced
// first gets a smaller index than one appended after it returns, and once
// that Append returns both are in the published tree and provable.
func TestSequenceThenAppend(t *testing.T) { forEachDriver(t, testSequenceThenAppend) }

func testSequenceThenAppend(t *testing.T, d testDriver) {
	l := openLog(t, d.config(t))
	defer closeLog(t, l)
	ctx := context.Background()
	for i := range 5 {
		first, err := l.Sequence(ctx, testLeaf(t, "sequenced", i))
		if err != nil {
			t.Fatal(err)
		}
		second, err := l.Append(ctx, testLeaf(t, "appended", i))
		if err != nil {
			t.Fatal(err)
		}
		if second <= first {
			t.Fatalf("appended after sequencing, got index %d, not after %d", second, first)
		}
		if l.Size() <= second {
			t.Fatalf("Append returned with the log at %d, not covering %d", l.Size(), second)
		}
		leaves, err := l.Leaves(ctx, first, first+1)
		if err != nil || string(leaves[0]) != string(testLeaf(t, "sequenced", i)) {
			t.Fatalf("the sequenced entry is not at %d: %v", first, err)
		}
	}
	if _, err := l.Sequence(ctx, []byte("not json")); err == nil {
		t.Error("Sequence took a leaf that is not canonical JSON")
	}
}

// TestQueueOrder checks what Queue promises: leaves queued one after
// another, waited for together, get indices in the order they were
// queued, across Tessera's batches; published waits return once the
// entry is provable.
func TestQueueOrder(t *testing.T) { forEachDriver(t, testQueueOrder) }

func testQueueOrder(t *testing.T, d testDriver) {
	cfg := d.config(t)
	cfg.BatchMaxSize = 7 // many batches
	l := openLog(t, cfg)
	defer closeLog(t, l)
	ctx := context.Background()
	const n = 200
	waits := make([]func() (uint64, error), n)
	for i := range n {
		wait, err := l.Queue(ctx, testLeaf(t, "queued", i), i%3 == 0)
		if err != nil {
			t.Fatal(err)
		}
		waits[i] = wait
	}
	indices := make([]uint64, n)
	errs := make(chan error, n)
	for i, wait := range waits {
		go func() {
			index, err := wait()
			indices[i] = index
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < n; i++ {
		if indices[i] <= indices[i-1] {
			t.Fatalf("leaf %d queued after leaf %d got index %d, not after %d", i, i-1, indices[i], indices[i-1])
		}
	}
	if _, err := l.Queue(ctx, []byte("not json"), true); !errors.Is(err, ErrInvalidLeaf) {
		t.Errorf("Queue of a leaf that is not canonical JSON: %v", err)
	}
}
