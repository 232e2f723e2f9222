package journal_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/journal"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
)

// openJournal opens a journal on a new SQLite store and a new log.
func openJournal(t *testing.T, now func() time.Time) (*journal.Journal, *sqlite.Store, *translog.Log) {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "state.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logKey, err := hybrid.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		t.Fatal(err)
	}
	_, cpKey, _ := ed25519.GenerateKey(nil)
	log, err := translog.Open(t.Context(), translog.Config{Dir: filepath.Join(dir, "log"), Origin: origin, LogKey: logKey,
		CheckpointKey: cpKey, CheckpointInterval: translog.MinCheckpointInterval, BatchMaxAge: 10 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close(context.Background()) })
	return journal.New(st, log, now), st, log
}

// TestLeavesInTimeOrder appends from many goroutines at once, with a clock
// that jumps back and forth by up to 50 ms as clocks of racing requests
// seem to, and checks that no leaf is stamped earlier than the leaf before
// it, that the store keeps each entry's leaf as the log holds it, and that
// no tree head seen is older than one seen before it.
func TestLeavesInTimeOrder(t *testing.T) {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	jittery := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return time.Now().Add(time.Duration(rng.IntN(100)-50) * time.Millisecond)
	}
	j, st, log := openJournal(t, jittery)
	ctx := t.Context()

	const writers, each = 16, 12
	var wg sync.WaitGroup
	var headsMu sync.Mutex
	var heads []tlog.TreeHead
	digests := make(chan string, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				entry := map[string]any{"type": "note", "text": fmt.Sprintf("%d/%d", w, i), "sig": "ed25519-ml-dsa-44:00"}
				signed, err := canonical.Marshal(entry)
				if err != nil {
					t.Error(err)
					return
				}
				digest := canonical.Digest(signed)
				appendEntry := j.Append
				if i%3 == 0 {
					appendEntry = j.Sequence
				}
				if _, err := appendEntry(ctx, digest, signed, entry, map[string]any{"operator": "op:test"}); err != nil {
					t.Errorf("append %d/%d: %v", w, i, err)
					return
				}
				digests <- digest
				if h, err := log.TreeHead(); err == nil {
					headsMu.Lock()
					heads = append(heads, h)
					headsMu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(digests)
	if t.Failed() {
		return
	}
	size, err := log.WaitForSize(ctx, writers*each)
	if err != nil {
		t.Fatal(err)
	}
	leaves, err := log.Leaves(ctx, 0, size)
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	for i, leaf := range leaves {
		v, err := canonical.Parse(leaf)
		if err != nil {
			t.Fatal(err)
		}
		at, err := tlog.ParseTimestamp(v.(map[string]any)["timestamp"].(string))
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(last) {
			t.Errorf("leaf %d is stamped %s, before the leaf before it (%s)", i, tlog.FormatTimestamp(at), tlog.FormatTimestamp(last))
		}
		last = at
	}
	for d := range digests {
		s, err := st.SignedByDigest(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		if s.Index < 0 || string(leaves[s.Index]) != string(s.Leaf) {
			t.Errorf("entry %s: the store keeps leaf %s at %d, the log holds %s", d, s.Leaf, s.Index, leaves[max(s.Index, 0)])
		}
	}
	// Heads in the order they were read by each writer are not ordered
	// across writers; by size they must be.
	for _, a := range heads {
		for _, b := range heads {
			if a.Size < b.Size && a.Timestamp > b.Timestamp {
				t.Errorf("the head of %d entries is stamped %s, after the head of %d (%s)", a.Size, a.Timestamp, b.Size, b.Timestamp)
			}
		}
	}
}
