package journal

import (
	"context"
	"crypto/ed25519"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/klog/v2"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

func init() {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
}

// backwards is a clock that goes back a millisecond each time it is read:
// the worst a journal's clock can do between its leaves.
type backwards struct {
	start time.Time
	reads atomic.Int64
}

func (c *backwards) now() time.Time {
	return c.start.Add(-time.Duration(c.reads.Add(1)) * time.Millisecond)
}

// testKeys makes a log key and a checkpoint key.
func testKeys(t testing.TB) (*hybrid.PrivateKey, ed25519.PrivateKey) {
	t.Helper()
	logKey, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	_, cpKey, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return logKey, cpKey
}

// testJournal opens a store and a log in dir, and a journal over them
// whose clock, like the log's, is clock.
func testJournal(t *testing.T, dir string, logKey *hybrid.PrivateKey, cpKey ed25519.PrivateKey, clock func() time.Time) (*Journal, *translog.Log, func()) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(dir, "state.db")})
	if err != nil {
		t.Fatal(err)
	}
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		t.Fatal(err)
	}
	log, err := translog.Open(ctx, translog.Config{Dir: filepath.Join(dir, "log"), Origin: origin, LogKey: logKey, CheckpointKey: cpKey,
		CheckpointInterval: translog.MinCheckpointInterval, BatchMaxAge: 5 * time.Millisecond, Now: clock, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	closeAll := func() {
		if !closed {
			closed = true
			if err := log.Close(ctx); err != nil {
				t.Errorf("closing the log: %v", err)
			}
			st.Close()
		}
	}
	t.Cleanup(closeAll)
	return New(st, log, clock), log, closeAll
}

// TestLeafTimesNeverGoBack appends from many goroutines at once, new
// entries and kept ones (stamped when they were put, long before they are
// appended, as a library contribution is), on a clock that goes back at
// every read, then again after reopening on a clock set further back. No
// leaf may be stamped before the leaf ahead of it in the log, nor any tree
// head before the heads ahead of it; and every kept entry's leaf, as the
// store holds it, is the leaf the log holds at its index, which crash
// recovery relies on.
func TestLeafTimesNeverGoBack(t *testing.T) {
	dir := t.TempDir()
	logKey, cpKey := testKeys(t)
	clock := &backwards{start: time.Now()}
	j, log, closeAll := testJournal(t, dir, logKey, cpKey, clock.now)
	ctx := context.Background()
	var kept sync.Map // digest → true
	appendAll := func(round int) {
		t.Helper()
		var wg sync.WaitGroup
		for g := range 32 {
			wg.Go(func() {
				for i := range 4 {
					entry := map[string]any{"type": "test", "round": round, "goroutine": g, "n": i}
					signed, err := canonical.Marshal(entry)
					if err != nil {
						t.Error(err)
						return
					}
					digest := canonical.Digest(signed)
					if i%2 == 0 {
						if _, err := j.Append(ctx, digest, signed, entry, map[string]any{"operator": "op:test"}); err != nil {
							t.Errorf("Append: %v", err)
						}
						continue
					}
					leaf, err := j.Leaf(entry, nil)
					if err == nil {
						err = j.store.PutSigned(ctx, digest, signed, leaf)
					}
					if err == nil {
						time.Sleep(time.Millisecond)
						_, err = j.AppendKept(ctx, digest)
					}
					if err != nil {
						t.Errorf("AppendKept: %v", err)
					}
					kept.Store(digest, true)
				}
			})
		}
		wg.Wait()
	}
	appendAll(0)
	closeAll()
	clock = &backwards{start: clock.start.Add(-time.Hour)}
	j, log, _ = testJournal(t, dir, logKey, cpKey, clock.now)
	appendAll(1)
	if t.Failed() {
		return
	}

	leaves, err := log.Leaves(ctx, 0, log.Size())
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 2*32*4 {
		t.Fatalf("the log holds %d leaves, want %d", len(leaves), 2*32*4)
	}
	checkLeafTimes(t, leaves)
	kept.Range(func(k, _ any) bool {
		s, err := j.store.SignedByDigest(ctx, k.(string))
		if err != nil || s.Index == store.Unlogged || string(s.Leaf) != string(leaves[s.Index]) {
			t.Errorf("kept entry %s: index %d, leaf kept %s, logged %s (%v)", k, s.Index, s.Leaf, leaves[max(s.Index, 0)], err)
		}
		return true
	})
	checkHeads(t, log)
}

// checkLeafTimes checks that no leaf is stamped before the one ahead of
// it, and returns each leaf's object and stamp.
func checkLeafTimes(t *testing.T, leaves [][]byte) ([]map[string]any, []time.Time) {
	t.Helper()
	objs := make([]map[string]any, len(leaves))
	times := make([]time.Time, len(leaves))
	var last time.Time
	for i, leaf := range leaves {
		v, err := canonical.Parse(leaf)
		if err != nil {
			t.Fatal(err)
		}
		objs[i], _ = v.(map[string]any)
		at, err := tlog.ParseTimestamp(objs[i]["timestamp"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(last) {
			t.Errorf("leaf %d is stamped %s, before leaf %d (%s)", i, tlog.FormatTimestamp(at), i-1, tlog.FormatTimestamp(last))
		}
		last, times[i] = at, at
	}
	return objs, times
}

// checkHeads checks that no tree head of log is stamped before a smaller
// one.
func checkHeads(t *testing.T, log *translog.Log) {
	t.Helper()
	var last time.Time
	heads := 0
	for size := range log.Size() + 1 {
		h, err := log.TreeHeadAt(size)
		if err != nil {
			continue
		}
		heads++
		at, err := h.Time()
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(last) {
			t.Errorf("the tree head of %d entries is stamped %s, before a smaller one (%s)", size, h.Timestamp, tlog.FormatTimestamp(last))
		}
		last = at
	}
	if heads < 2 {
		t.Errorf("only %d tree heads", heads)
	}
}

// TestClaim logs kept entries through claims while other calls ask for
// the same entries at once (as a second request for one library
// contribution does): each entry is logged once, every call gets its
// index, and an entry whose claim was released is logged by the call
// waiting on it. A second claim of an entry being logged is refused.
func TestClaim(t *testing.T) {
	logKey, cpKey := testKeys(t)
	j, log, _ := testJournal(t, t.TempDir(), logKey, cpKey, time.Now)
	ctx := context.Background()
	const entries = 24
	var wg sync.WaitGroup
	indexes := make([][2]uint64, entries)
	for i := range entries {
		wg.Go(func() {
			entry := map[string]any{"type": "test", "n": i}
			signed, _ := canonical.Marshal(entry)
			digest := canonical.Digest(signed)
			leaf, err := j.Leaf(entry, nil)
			if err != nil {
				t.Error(err)
				return
			}
			claim := j.Claim(digest)
			if claim == nil || j.Claim(digest) != nil {
				t.Errorf("entry %d: claimed %v, and again", i, claim != nil)
				return
			}
			if err := j.store.PutSigned(ctx, digest, signed, leaf); err != nil {
				t.Error(err)
				return
			}
			waited := make(chan struct{})
			go func() {
				defer close(waited)
				var err error
				if indexes[i][1], err = j.AppendKept(ctx, digest); err != nil {
					t.Errorf("AppendKept of claimed entry %d: %v", i, err)
				}
			}()
			time.Sleep(time.Millisecond)
			if i%3 == 0 {
				claim.Release()
				<-waited
				indexes[i][0] = indexes[i][1]
				return
			}
			if indexes[i][0], err = claim.AppendKept(ctx, signed, leaf); err != nil {
				t.Errorf("the claim's AppendKept of %d: %v", i, err)
			}
			<-waited
		})
	}
	wg.Wait()
	if log.Size() != entries {
		t.Fatalf("the log holds %d entries, want %d", log.Size(), entries)
	}
	seen := map[uint64]bool{}
	for i, got := range indexes {
		if got[0] != got[1] || seen[got[0]] {
			t.Errorf("entry %d: the claim gave index %d, the waiting call %d (seen before: %v)", i, got[0], got[1], seen[got[0]])
		}
		seen[got[0]] = true
	}
}

// TestRestamp checks that a kept leaf stamped again in place is the leaf
// made afresh with the new stamp, byte for byte, whatever its entry holds
// (a nested "timestamp", escapes, members after the stamp), and that its
// stamp reads back.
func TestRestamp(t *testing.T) {
	entry := map[string]any{"type": "contribution", "record": map[string]any{"timestamp": "not this one", "body": "a \"quoted\" \u2028 é"},
		"sig": "ed25519-ml-dsa-44:" + strings.Repeat("ab", 16)}
	first := time.Date(2026, 3, 1, 12, 0, 0, 1e6, time.UTC)
	for _, fields := range []map[string]any{nil, {"operator": "op:x"}, {"zz": []any{"after", map[string]any{"timestamp": 1.0}}},
		{"zz": map[string]any{"timestamp": "2026-03-01T12:00:09.001Z"}}} {
		leaf, err := leafAt(entry, fields, first)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := leafTime(leaf); err != nil || !got.Equal(first) {
			t.Fatalf("leafTime = %v, %v; want %v", got, err, first)
		}
		// Read from the end only where the stamp is the leaf's last member.
		_, _, _, fast := lastStamp(leaf)
		if wantFast := fields["zz"] == nil; fast != wantFast {
			t.Errorf("lastStamp of %s: read from the end %v, want %v", leaf, fast, wantFast)
		}
		if same, err := restamp(leaf, first); err != nil || &same[0] != &leaf[0] {
			t.Errorf("restamp at the same time made a new leaf (%v)", err)
		}
		later := first.Add(1234 * time.Millisecond)
		got, err := restamp(leaf, later)
		if err != nil {
			t.Fatal(err)
		}
		want, err := leafAt(entry, fields, later)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("restamp = %s\nwant %s", got, want)
		}
		if at, err := leafTime(got); err != nil || !at.Equal(later) {
			t.Errorf("restamped leaf reads %v, %v", at, err)
		}
	}
	for _, bad := range []string{`[]`, `{"entry":{}}`, `{"timestamp":3}`, `{"entry":`, ``,
		`"timestamp":"2026-03-01T12:00:00.001Z"}`, `{"x":"\",\"timestamp\":\"2026-03-01T12:00:00.001Z\"}"}`,
		`{"timestamp":"2026-03-01T12:00:00\u0030001Z"}`, `{"timestamp":"2026-03-01 12:00:00.001Z"}`} {
		if _, err := leafTime([]byte(bad)); err == nil {
			t.Errorf("leafTime(%s) read a time", bad)
		}
	}
}

// BenchmarkLeafTime reads the stamp of a leaf the size of a library
// contribution's (a 4 KB record), as every kept leaf is read before it is
// queued.
func BenchmarkLeafTime(b *testing.B) {
	entry := map[string]any{"type": "contribution", "record": map[string]any{"body": strings.Repeat("words and more words ", 200)},
		"sig": "ed25519-ml-dsa-44:" + strings.Repeat("ab", 2484)}
	leaf, err := leafAt(entry, map[string]any{"operator": "op:x"}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := leafTime(leaf); err != nil {
			b.Fatal(err)
		}
	}
}
