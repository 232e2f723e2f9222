package journal

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/store/sqlite"
	"github.com/agora-node/agora/tlog"
	"github.com/agora-node/agora/translog"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestLeafTimesAcrossProcesses appends through two journals on two shared
// Logs of one MySQL log, as two node processes would, whose clocks are an
// hour apart, from many goroutines each at once: no leaf may be stamped
// before the leaf ahead of it, whichever process appended either, and
// every append gets an index of its own.
func TestLeafTimesAcrossProcesses(t *testing.T) {
	open := mysqlJournals(t, mysqltest.DSN(t), true, 0)
	ctx := context.Background()
	ahead, _ := open(func() time.Time { return time.Now().Add(time.Hour) })
	behind, log := open(time.Now)

	var mu sync.Mutex
	indices := map[uint64]bool{}
	var wg sync.WaitGroup
	for g := range 32 {
		j := ahead
		if g%2 == 1 {
			j = behind
		}
		wg.Go(func() {
			for i := range 4 {
				entry := map[string]any{"type": "test", "goroutine": g, "n": i}
				signed, err := canonical.Marshal(entry)
				if err != nil {
					t.Error(err)
					return
				}
				index, err := j.Append(ctx, canonical.Digest(signed), signed, entry, nil)
				if err != nil {
					t.Errorf("Append: %v", err)
					return
				}
				mu.Lock()
				if indices[index] {
					t.Errorf("index %d given twice", index)
				}
				indices[index] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if _, err := log.WaitForSize(ctx, 128); err != nil {
		t.Fatal(err)
	}
	leaves, err := log.Leaves(ctx, 0, 128)
	if err != nil {
		t.Fatal(err)
	}
	objs, times := checkLeafTimes(t, leaves)
	raised := 0
	for i, obj := range objs {
		g := obj["entry"].(map[string]any)["goroutine"].(float64)
		if int(g)%2 == 1 && times[i].After(time.Now().Add(30*time.Minute)) {
			raised++ // the process behind stamped after the one ahead
		}
	}
	if raised == 0 {
		t.Error("no leaf of the process behind came after one of the process ahead: the test did not interleave them")
	}
}

// mysqlJournals returns a function that opens a journal, with a SQLite
// store of its own, on a new Log of the MySQL log dsn, Shared as shared,
// as one node process would; maxPending 0 is translog's default. Every
// Log has the same keys.
func mysqlJournals(t testing.TB, dsn string, shared bool, maxPending int) func(clock func() time.Time) (*Journal, *translog.Log) {
	logKey, cpKey := testKeys(t)
	origin, err := tlog.CheckpointOrigin(protocol.LogID(logKey.Public().String()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	return func(clock func() time.Time) (*Journal, *translog.Log) {
		st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(t.TempDir(), "state.db")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		log, err := translog.Open(ctx, translog.Config{MySQL: dsn, Shared: shared, Origin: origin, LogKey: logKey, CheckpointKey: cpKey,
			CheckpointInterval: translog.MinMySQLCheckpointInterval, BatchMaxAge: 5 * time.Millisecond, MaxPending: maxPending,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { log.Close(ctx) })
		return New(st, log, clock), log
	}
}
