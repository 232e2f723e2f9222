package translog

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
)

// testRecords returns n tree heads and checkpoints of made-up trees of
// sizes 0, 3, 6, ..., signed with the test keys.
func testRecords(t *testing.T, n int) []published {
	t.Helper()
	logKey, cpKey := testKeys(t)
	signer, err := tlog.NewCheckpointSigner("example.com/log", cpKey)
	if err != nil {
		t.Fatal(err)
	}
	var out []published
	for i := range n {
		size := uint64(3 * i)
		root := tlog.LeafHash([]byte{byte(i)})
		head, err := tlog.SignTreeHead(logKey, size, root, time.Unix(int64(i), 0))
		if err != nil {
			t.Fatal(err)
		}
		cp, err := signer.SignCheckpoint(size, root)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, published{head: head, checkpoint: cp})
	}
	return out
}

func TestHeadStoreFind(t *testing.T) {
	for _, chunk := range []int{readChunk, 97} {
		t.Run(fmt.Sprintf("chunks of %d", chunk), func(t *testing.T) {
			defer func(old int) { readChunk = old }(readChunk)
			readChunk = chunk
			testHeadStoreFind(t)
		})
	}
}

func testHeadStoreFind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "treeheads")
	s, err := openHeads(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.find(0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("find in an empty store: %v", err)
	}
	recs := testRecords(t, 40)
	for _, r := range recs {
		if err := s.append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.append(recs[5]); err == nil {
		t.Fatal("a tree head smaller than the last was stored")
	}
	check := func(s *headStore) {
		t.Helper()
		for _, r := range recs {
			got, err := s.find(r.head.Size)
			if err != nil || got.head != r.head || !bytes.Equal(got.checkpoint, r.checkpoint) {
				t.Fatalf("find(%d) = %v, %v", r.head.Size, got.head, err)
			}
			for _, missing := range []uint64{r.head.Size + 1, r.head.Size + 2} {
				if _, err := s.find(missing); !errors.Is(err, ErrNotFound) {
					t.Fatalf("find(%d), never stored: %v", missing, err)
				}
			}
		}
		if last, ok := s.latest(); !ok || last.head != recs[len(recs)-1].head {
			t.Fatal("latest is not the last stored")
		}
	}
	check(s)
	s.close()

	// A crash mid-write leaves an unterminated record: it is cut off, and
	// everything before it stands.
	whole, _ := os.ReadFile(path)
	for _, torn := range [][]byte{[]byte(`{"checkpoint":"exa`), make([]byte, 5000)} {
		if err := os.WriteFile(path, append(bytes.Clone(whole), torn...), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := openHeads(path)
		if err != nil {
			t.Fatalf("opening after a torn write: %v", err)
		}
		check(s)
		s.close()
		if after, _ := os.ReadFile(path); !bytes.Equal(after, whole) {
			t.Fatal("the torn tail was not cut off")
		}
	}

	// A complete record that does not parse is corruption, never repaired.
	bad := bytes.Replace(whole, []byte(`"size":9,`), []byte(`"size":10,`), 1)
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = openHeads(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if _, err := s.find(9); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("find over a record whose tree head and checkpoint differ: %v, want ErrCorrupt", err)
	}
}

// TestPublishFaults makes the tree-head file's fsync fail, first after the
// write reached the file (fail but persisted), then with the store unable
// to undo it, and checks that nothing unacknowledged is served, appends go
// on once the disk recovers, and every invariant holds after reopening.
func TestPublishFaults(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	l := openLog(t, cfg)
	acked := appendConcurrently(t, l, "before", 50, 10)
	heads := l.heads.(*headStore)

	// The fsync after each of the next three writes fails; the fsync
	// that makes each undoing truncation durable succeeds.
	var calls atomic.Int32
	heads.mu.Lock()
	heads.sync = func(f *os.File) error {
		if n := calls.Add(1); n <= 6 && n%2 == 1 {
			return errors.New("injected fsync failure")
		}
		return f.Sync()
	}
	heads.mu.Unlock()
	sizeBefore := l.Size()
	// The first publications fail; Tessera tries again at its next
	// interval, and the appends are acknowledged once one succeeds.
	more := appendConcurrently(t, l, "during", 50, 10)
	if calls.Load() < 6 {
		t.Fatal("the injected failures were not hit")
	}
	for index, leaf := range more {
		acked[index] = leaf
	}
	if l.Size() <= sizeBefore {
		t.Fatal("nothing was published after the faults")
	}
	checkLog(t, l, acked)
	closeLog(t, l)

	l = openLog(t, cfg)
	checkLog(t, l, acked)

	// A failure that cannot be undone breaks the store for good: appends
	// are no longer acknowledged, and nothing is served past the last
	// durable tree head.
	heads = l.heads.(*headStore)
	heads.mu.Lock()
	heads.sync = func(*os.File) error { return errors.New("injected: the disk is gone") }
	heads.f.Close() // so the truncation that would undo the write fails too
	heads.mu.Unlock()
	size := l.Size()
	index, err := l.Append(context.Background(), testLeaf(t, "broken", 0))
	if !errors.Is(err, ErrUnpublished) || !errors.Is(err, ErrCorrupt) || index < size {
		t.Fatalf("Append with a broken tree-head file = %d, %v; want ErrUnpublished and ErrCorrupt", index, err)
	}
	if l.Size() != size {
		t.Fatalf("the log published with a broken tree-head file")
	}
	if err := l.heads.brokenErr(); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("the store is not marked broken: %v", err)
	}
	if err := l.Close(context.Background()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Close of a log that can no longer publish: %v, want ErrCorrupt", err)
	}
	if _, err := l.Append(context.Background(), testLeaf(t, "broken", 1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close: %v", err)
	}
}

// TestOpenRefusesInconsistentState checks that Open refuses, rather than
// repairs, a directory whose tree heads the stored tree contradicts.
func TestOpenRefusesInconsistentState(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	l := openLog(t, cfg)
	appendConcurrently(t, l, "x", 20, 4)
	closeLog(t, l)

	// The tiles lose what a tree head signed.
	tile := filepath.Join(dir, tilesName, "tile", "0", "000.p")
	moved := tile + ".moved"
	if err := os.Rename(tile, moved); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open with the tiles of the last tree head gone: %v, want ErrCorrupt", err)
	}
	if err := os.Rename(moved, tile); err != nil {
		t.Fatal(err)
	}

	// The tree heads are lost, but Tessera has published.
	heads := filepath.Join(dir, treeHeadsName)
	if err := os.Rename(heads, heads+".moved"); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open with the tree heads gone: %v, want ErrCorrupt", err)
	}
	os.Remove(heads)
	if err := os.Rename(heads+".moved", heads); err != nil {
		t.Fatal(err)
	}
	l = openLog(t, cfg)
	closeLog(t, l)
}

// TestTimestampsNeverGoBack runs the log on a clock that jumps backwards:
// tree heads keep the time of the one before.
func TestTimestampsNeverGoBack(t *testing.T) { forEachDriver(t, testTimestampsNeverGoBack) }

func testTimestampsNeverGoBack(t *testing.T, d testDriver) {
	cfg := d.config(t)
	var calls atomic.Int64
	base := time.Date(2026, 10, 2, 12, 0, 0, 0, time.UTC)
	cfg.Now = func() time.Time {
		n := calls.Add(1)
		if n%2 == 0 {
			return base.Add(-time.Hour) // the clock jumps back
		}
		return base.Add(time.Duration(n) * time.Second)
	}
	l := openLog(t, cfg)
	// Ten goroutines, so that there are several publications whatever
	// the driver's interval.
	acked := appendConcurrently(t, l, "clock", 100/d.spread*3, 10)
	heads := checkLog(t, l, acked) // checks the order of timestamps
	if len(heads) < 3 {
		t.Fatalf("only %d tree heads", len(heads))
	}
}

// TestPublishRefusesForks asks the log's publisher, as Tessera would, to
// sign a second tree of a size already published: it refuses, and stops
// publishing for good, rather than sign a fork. Reopening finds the log as
// it was.
func TestPublishRefusesForks(t *testing.T) { forEachDriver(t, testPublishRefusesForks) }

func testPublishRefusesForks(t *testing.T, d testDriver) {
	cfg := d.config(t)
	l := openLog(t, cfg)
	acked := appendConcurrently(t, l, "fork", 20, 4*d.spread)
	head, _ := l.TreeHead()
	pub := publisher{l}

	// Not this log's checkpoint: refused, and the log goes on.
	if _, err := pub.Sign([]byte("other.example/log\n1\n" + base64.StdEncoding.EncodeToString(head.Root[:]) + "\n")); err == nil || errors.Is(err, ErrCorrupt) {
		t.Fatalf("signing another origin's checkpoint: %v", err)
	}
	more := appendConcurrently(t, l, "fork, more", 5, 1)
	for index, leaf := range more {
		acked[index] = leaf
	}

	head, _ = l.TreeHead()
	other := tlog.LeafHash([]byte("another tree"))
	for _, size := range []uint64{head.Size, head.Size - 1} {
		msg, _ := tlog.FormatCheckpoint(tlog.Checkpoint{Origin: l.Origin(), Size: size, Root: other})
		if _, err := pub.Sign(msg); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("signing another tree of %d entries after one of %d: %v, want ErrCorrupt", size, head.Size, err)
		}
	}
	if _, err := l.Append(context.Background(), testLeaf(t, "fork", 99)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Append after a refused fork: %v, want ErrCorrupt", err)
	}
	if err := l.Close(context.Background()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Close after a refused fork: %v, want ErrCorrupt", err)
	}
	l = openLog(t, cfg)
	checkLog(t, l, acked)
}
