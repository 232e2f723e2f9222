package translog

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera/api/layout"
)

func TestConfigValidate(t *testing.T) {
	good := testConfig(t, t.TempDir())
	if err := good.Validate(); err != nil {
		t.Fatalf("a good config: %v", err)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Dir", func(c *Config) { c.Dir = "" }},
		{"Origin", func(c *Config) { c.Origin = "" }},
		{"Origin", func(c *Config) { c.Origin = "has space" }},
		{"LogKey", func(c *Config) { c.LogKey = nil }},
		{"CheckpointKey", func(c *Config) { c.CheckpointKey = nil }},
		{"CheckpointKey", func(c *Config) { c.CheckpointKey = ed25519.PrivateKey{1, 2, 3} }},
		{"CheckpointInterval", func(c *Config) { c.CheckpointInterval = time.Millisecond }},
		{"CheckpointInterval", func(c *Config) { c.CheckpointInterval = time.Hour }},
		{"BatchMaxSize", func(c *Config) { c.BatchMaxSize = MaxBatchSize + 1 }},
		{"BatchMaxAge", func(c *Config) { c.BatchMaxAge = time.Second }},
		{"MaxPending", func(c *Config) { c.MaxPending = -1 }},
	} {
		c := good
		tc.edit(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("%s: Validate() = %v, want a ConfigError for %s", tc.field, err, tc.field)
			continue
		}
		if _, err := Open(context.Background(), c); !errors.As(err, &ce) {
			t.Errorf("%s: Open accepted the config: %v", tc.field, err)
		}
	}
	// Every bad field is reported at once.
	var errs interface{ Unwrap() []error }
	if err := (Config{}).Validate(); !errors.As(err, &errs) || len(errs.Unwrap()) != 4 {
		t.Errorf("Validate of the zero Config = %v, want four field errors", err)
	}
}

// appendConcurrently appends n leaves tagged tag from workers goroutines
// and returns them by index.
func appendConcurrently(t testing.TB, l *Log, tag string, n, workers int) map[uint64][]byte {
	t.Helper()
	var mu sync.Mutex
	got := make(map[uint64][]byte, n)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				leaf := testLeaf(t, tag, i)
				index, err := l.Append(context.Background(), leaf)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				if _, dup := got[index]; dup {
					errs <- errors.New("an index was given twice")
				}
				got[index] = leaf
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return got
}

// allHeads returns every published tree head and checkpoint, in order.
func allHeads(t testing.TB, l *Log) []published {
	t.Helper()
	var out []published
	if err := l.heads.each(func(p published) error { out = append(out, p); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkLog checks every invariant of an open log with the protocol core's
// verifiers: every leaf reads back as appended (want, by index) and is
// provable in the latest tree; every published tree head and checkpoint is
// signed, stamped in order, and describes the root of its prefix of the
// leaves; and every pair of published trees is linked by a consistency
// proof. It returns the published heads.
func checkLog(t testing.TB, l *Log, want map[uint64][]byte) []published {
	t.Helper()
	ctx := context.Background()
	head, err := l.TreeHead()
	if err != nil {
		t.Fatal(err)
	}
	size := l.Size()
	if head.Size != size {
		t.Fatalf("TreeHead has %d entries, Size says %d", head.Size, size)
	}
	leaves, err := l.Leaves(ctx, 0, size)
	if err != nil {
		t.Fatalf("Leaves(0, %d): %v", size, err)
	}
	hashes := make([]tlog.Hash, size)
	for i, leaf := range leaves {
		hashes[i] = tlog.LeafHash(leaf)
	}
	for index, leaf := range want {
		if index >= size {
			t.Fatalf("acknowledged index %d is not in the published tree of %d", index, size)
		}
		if !bytes.Equal(leaves[index], leaf) {
			t.Fatalf("leaf %d reads back as %s, want %s", index, leaves[index], leaf)
		}
		one, err := l.Leaf(ctx, index)
		if err != nil || !bytes.Equal(one, leaf) {
			t.Fatalf("Leaf(%d) = %s, %v", index, one, err)
		}
		proof, err := l.InclusionProof(ctx, index, size)
		if err != nil {
			t.Fatalf("InclusionProof(%d, %d): %v", index, size, err)
		}
		if err := tlog.VerifyInclusion(index, size, tlog.LeafHash(leaf), proof, head.Root); err != nil {
			t.Fatalf("leaf %d in the tree of %d: %v", index, size, err)
		}
	}

	heads := allHeads(t, l)
	if len(heads) == 0 || heads[len(heads)-1].head != head {
		t.Fatalf("the last stored tree head is not the latest")
	}
	for i, p := range heads {
		checkHead(t, l, p.head, p.checkpoint)
		if root := tlog.Root(hashes[:p.head.Size]); root != p.head.Root {
			t.Fatalf("the tree head of %d says root %s, the leaves give %s", p.head.Size, p.head.Root, root)
		}
		if i > 0 {
			prev := heads[i-1].head
			if p.head.Size <= prev.Size {
				t.Fatalf("tree head of %d after one of %d", p.head.Size, prev.Size)
			}
			if p.head.Timestamp < prev.Timestamp {
				t.Fatalf("tree head of %d stamped %s, before the one of %d stamped %s", p.head.Size, p.head.Timestamp, prev.Size, prev.Timestamp)
			}
		}
		at, err := l.TreeHeadAt(p.head.Size)
		if err != nil || at != p.head {
			t.Fatalf("TreeHeadAt(%d) = %v, %v", p.head.Size, at, err)
		}
		cp, err := l.Checkpoint(p.head.Size)
		if err != nil || !bytes.Equal(cp, p.checkpoint) {
			t.Fatalf("Checkpoint(%d) = %q, %v", p.head.Size, cp, err)
		}
	}
	for i, a := range heads {
		for _, b := range heads[i:] {
			proof, err := l.ConsistencyProof(ctx, a.head.Size, b.head.Size)
			if err != nil {
				t.Fatalf("ConsistencyProof(%d, %d): %v", a.head.Size, b.head.Size, err)
			}
			if err := tlog.VerifyTreeGrowth(a.head, b.head, proof, l.PublicKey()); err != nil {
				t.Fatalf("from %d to %d: %v", a.head.Size, b.head.Size, err)
			}
		}
	}
	return heads
}

func TestAppendConcurrently(t *testing.T) { forEachDriver(t, testAppendConcurrently) }

func testAppendConcurrently(t *testing.T, d testDriver) {
	cfg := d.config(t)
	l := openLog(t, cfg)
	if l.Size() != 0 {
		t.Fatalf("a new log has %d entries", l.Size())
	}
	if _, err := l.TreeHead(); err != nil {
		t.Fatalf("a new log has no tree head: %v", err)
	}
	start := time.Now()
	got := appendConcurrently(t, l, "concurrent", 2000, 40*d.spread)
	t.Logf("2,000 appends from %d goroutines in %v", 40*d.spread, time.Since(start))
	for i := range uint64(2000) {
		if got[i] == nil {
			t.Fatalf("index %d was never given", i)
		}
	}
	heads := checkLog(t, l, got)
	t.Logf("%d tree heads published", len(heads))
	if len(heads) < 3 {
		t.Errorf("only %d tree heads published for 2,000 appends", len(heads))
	}
	latest, _ := l.LatestCheckpoint()
	closeLog(t, l)

	// Tessera's own checkpoint is the one the log published last.
	if stored := tesseraCheckpoint(t, cfg); !bytes.Equal(stored, latest) {
		t.Errorf("Tessera's checkpoint\n%s\ndiffers from the last published checkpoint\n%s", stored, latest)
	}
}

func TestReopen(t *testing.T) { forEachDriver(t, testReopen) }

func testReopen(t *testing.T, d testDriver) {
	before := runtime.NumGoroutine()
	cfg := d.config(t)
	l := openLog(t, cfg)
	first := appendConcurrently(t, l, "first", 300, 32*d.spread)
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second Open of the same directory: %v, want ErrLocked", err)
	}
	head1, _ := l.TreeHead()
	closeLog(t, l)
	if err := l.Close(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("a second Close: %v, want ErrClosed", err)
	}
	if _, err := l.Append(context.Background(), testLeaf(t, "late", 0)); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}
	if _, err := l.Leaf(context.Background(), 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Leaf after Close: %v, want ErrClosed", err)
	}
	waitGoroutines(t, before)

	l = openLog(t, cfg)
	if head, _ := l.TreeHead(); head != head1 || l.Size() != 300 {
		t.Fatalf("after reopening: head %+v, size %d; want %+v", head, l.Size(), head1)
	}
	second := appendConcurrently(t, l, "second", 300, 32*d.spread)
	for index := range second {
		if index < 300 {
			t.Fatalf("index %d given again after reopening", index)
		}
		first[index] = second[index]
	}
	checkLog(t, l, first)
	closeLog(t, l)
	waitGoroutines(t, before)

	// Keys other than the log's are refused.
	other := cfg
	var err error
	if other.LogKey, err = hybrid.GenerateKey(); err != nil {
		t.Fatal(err)
	}
	var ce *ConfigError
	if _, err := Open(context.Background(), other); !errors.As(err, &ce) || ce.Field != "LogKey" {
		t.Errorf("Open with another log key: %v", err)
	}
	other = cfg
	other.CheckpointKey = ed25519.NewKeyFromSeed(make([]byte, 32))
	if _, err := Open(context.Background(), other); !errors.As(err, &ce) || ce.Field != "CheckpointKey" {
		t.Errorf("Open with another checkpoint key: %v", err)
	}
}

func TestNotFoundAndRanges(t *testing.T) { forEachDriver(t, testNotFoundAndRanges) }

func testNotFoundAndRanges(t *testing.T, d testDriver) {
	l := openLog(t, d.config(t))
	ctx := context.Background()
	appendConcurrently(t, l, "ranges", 10, 2*d.spread)
	size := l.Size()

	notFound := map[string]error{}
	_, notFound["Leaf(size)"] = l.Leaf(ctx, size)
	_, notFound["Leaves(0, size+1)"] = l.Leaves(ctx, 0, size+1)
	_, notFound["InclusionProof(0, size+1)"] = l.InclusionProof(ctx, 0, size+1)
	_, notFound["ConsistencyProof(1, size+1)"] = l.ConsistencyProof(ctx, 1, size+1)
	_, notFound["TreeHeadAt(size+1)"] = l.TreeHeadAt(size + 1)
	_, notFound["Checkpoint(size+1)"] = l.Checkpoint(size + 1)
	_, notFound["ReadSubtrees"] = l.ReadSubtrees(ctx, []tlog.Subtree{{Level: 0, Index: size}})
	for what, err := range notFound {
		if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v, want ErrNotFound", what, err)
		}
	}
	if _, err := l.ReadSubtrees(ctx, []tlog.Subtree{{Level: 4, Index: 0}}); !errors.Is(err, tlog.ErrNotFound) {
		t.Errorf("ReadSubtrees of an incomplete subtree: %v, want tlog.ErrNotFound", err)
	}

	invalid := map[string]error{}
	_, invalid["InclusionProof(size, size)"] = l.InclusionProof(ctx, size, size)
	_, invalid["ConsistencyProof(2, 1)"] = l.ConsistencyProof(ctx, 2, 1)
	_, invalid["Leaves(2, 1)"] = l.Leaves(ctx, 2, 1)
	for what, err := range invalid {
		if !errors.Is(err, ErrInvalidRange) {
			t.Errorf("%s: %v, want ErrInvalidRange", what, err)
		}
	}
	if proof, err := l.ConsistencyProof(ctx, 0, size); err != nil || len(proof) != 0 {
		t.Errorf("ConsistencyProof(0, %d) = %v, %v; want an empty proof", size, proof, err)
	}
	if leaves, err := l.Leaves(ctx, size, size); err != nil || len(leaves) != 0 {
		t.Errorf("Leaves(size, size) = %v, %v", leaves, err)
	}

	for what, leaf := range map[string][]byte{
		"empty":         nil,
		"array":         []byte(`[1]`),
		"not canonical": []byte(`{"b":1, "a":2}`),
		"unsorted":      []byte(`{"b":1,"a":2}`),
		"not JSON":      []byte(`{"a":`),
		"too long":      append(append([]byte(`{"a":"`), bytes.Repeat([]byte("x"), MaxLeafSize)...), `"}`...),
	} {
		if _, err := l.Append(ctx, leaf); !errors.Is(err, ErrInvalidLeaf) {
			t.Errorf("Append of a leaf %s: %v, want ErrInvalidLeaf", what, err)
		}
	}
	if l.Size() != size {
		t.Errorf("refused leaves changed the log's size")
	}
}

func TestPushback(t *testing.T) { forEachDriver(t, testPushback) }

func testPushback(t *testing.T, d testDriver) {
	cfg := d.config(t)
	cfg.MaxPending = 1
	cfg.CheckpointInterval = time.Second
	cfg.BatchMaxAge = 500 * time.Millisecond
	l := openLog(t, cfg)
	done := make(chan error)
	go func() {
		_, err := l.Append(context.Background(), testLeaf(t, "pushback", 0))
		done <- err
	}()
	for {
		l.mu.Lock()
		pending := l.pending
		l.mu.Unlock()
		if pending == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := l.Append(context.Background(), testLeaf(t, "pushback", 1)); !errors.Is(err, ErrPushback) {
		t.Fatalf("Append with MaxPending 1 and an append in flight: %v, want ErrPushback", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if l.Size() != 1 {
		t.Fatalf("the log has %d entries, want 1", l.Size())
	}
}

func TestWaitForSize(t *testing.T) { forEachDriver(t, testWaitForSize) }

func testWaitForSize(t *testing.T, d testDriver) {
	l := openLog(t, d.config(t))
	ctx := context.Background()

	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := l.WaitForSize(short, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitForSize on an empty log: %v, want the deadline", err)
	}

	got := make(chan uint64)
	go func() {
		n, err := l.WaitForSize(ctx, 1)
		if err != nil {
			t.Error(err)
		}
		got <- n
	}()
	index, err := l.Append(ctx, testLeaf(t, "wait", 0))
	if err != nil {
		t.Fatal(err)
	}
	if n := <-got; n < index+1 {
		t.Fatalf("WaitForSize(1) returned at size %d", n)
	}
	if n, err := l.WaitForSize(ctx, 1); err != nil || n < 1 {
		t.Fatalf("WaitForSize of a size reached = %d, %v", n, err)
	}

	// Close releases waiters at once.
	released := make(chan error)
	go func() {
		_, err := l.WaitForSize(ctx, 1000)
		released <- err
	}()
	time.Sleep(20 * time.Millisecond)
	closeLog(t, l)
	select {
	case err := <-released:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("WaitForSize during Close: %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not release a WaitForSize")
	}
}

// TestCloseWaitsForAppends closes the log while appends are in flight: each
// either was acknowledged (and is then in the log after reopening) or
// refused with ErrClosed before anything was added.
func TestCloseWaitsForAppends(t *testing.T) { forEachDriver(t, testCloseWaitsForAppends) }

func testCloseWaitsForAppends(t *testing.T, d testDriver) {
	cfg := d.config(t)
	cfg.CheckpointInterval = max(cfg.CheckpointInterval, 300*time.Millisecond)
	l := openLog(t, cfg)
	var mu sync.Mutex
	acked := map[uint64][]byte{}
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			for i := 0; ; i++ {
				leaf := testLeaf(t, "closing", w*100000+i)
				index, err := l.Append(context.Background(), leaf)
				if errors.Is(err, ErrClosed) {
					return
				}
				if err != nil {
					t.Errorf("Append while closing: %v", err)
					return
				}
				mu.Lock()
				acked[index] = leaf
				mu.Unlock()
			}
		})
	}
	// Close once some appends are acknowledged, with more in flight.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n > 0 {
			break
		}
	}
	closeLog(t, l)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("nothing was appended before Close")
	}
	l = openLog(t, cfg)
	checkLog(t, l, acked)
}

// TestLargestLeaves fills an entry bundle with leaves of the largest size
// the log takes: on MySQL that is bounded by the server's
// max_allowed_packet, since Tessera writes a bundle in one packet, and a
// bundle the server refused would fail every batch that completes it.
func TestLargestLeaves(t *testing.T) { forEachDriver(t, testLargestLeaves) }

func testLargestLeaves(t *testing.T, d testDriver) {
	l := openLog(t, d.config(t))
	largest := l.store.maxLeafSize()
	t.Logf("the largest leaf is %d bytes (MaxLeafSize %d)", largest, MaxLeafSize)
	leaf := func(n, size int) []byte {
		prefix := fmt.Sprintf(`{"n":%d,"x":"`, n)
		return []byte(prefix + strings.Repeat("x", size-len(prefix)-2) + `"}`)
	}
	if _, err := l.Append(context.Background(), leaf(0, largest+1)); !errors.Is(err, ErrInvalidLeaf) {
		t.Fatalf("Append of a leaf of %d bytes: %v, want ErrInvalidLeaf", largest+1, err)
	}
	want := map[uint64][]byte{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for n := range layout.EntryBundleWidth {
		wg.Go(func() {
			index, err := l.Append(context.Background(), leaf(n, largest))
			if err != nil {
				t.Errorf("Append of a leaf of %d bytes: %v", largest, err)
				return
			}
			mu.Lock()
			want[index] = leaf(n, largest)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(want) != layout.EntryBundleWidth {
		t.Fatalf("%d of %d leaves were appended", len(want), layout.EntryBundleWidth)
	}
	checkLog(t, l, want)
}
