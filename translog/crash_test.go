package translog

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agora-node/agora/tlog"
)

// crashDirEnv names the log directory, or crashMySQLEnv the MySQL DSN,
// of the log a child process appends to until it is killed (see
// TestCrashChild), from crashWorkersEnv goroutines.
const (
	crashDirEnv     = "TRANSLOG_CRASH_CHILD_DIR"
	crashMySQLEnv   = "TRANSLOG_CRASH_CHILD_MYSQL"
	crashWorkersEnv = "TRANSLOG_CRASH_CHILD_WORKERS"
)

// TestCrashChild is the child process of TestCrash: it opens the log in
// $TRANSLOG_CRASH_CHILD_DIR (or the database $TRANSLOG_CRASH_CHILD_MYSQL)
// and appends from many goroutines until it is killed, printing on stdout,
// one line each,
//
//	ack <index> <leaf in hex>   as each Append returns
//	head <tree head JSON>       as each tree head is published
//
// It is skipped when the variable is not set.
func TestCrashChild(t *testing.T) {
	cfg := testConfig(t, os.Getenv(crashDirEnv))
	if dsn := os.Getenv(crashMySQLEnv); dsn != "" {
		cfg.MySQL, cfg.CheckpointInterval = dsn, MinMySQLCheckpointInterval
	}
	if cfg.Dir == "" && cfg.MySQL == "" {
		t.Skip("only run as TestCrash's child process")
	}
	workers, _ := strconv.Atoi(os.Getenv(crashWorkersEnv))
	l, err := Open(context.Background(), cfg)
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stdout, format, args...)
	}
	go func() {
		for size := l.Size(); ; size++ {
			if _, err := l.WaitForSize(context.Background(), size+1); err != nil {
				return
			}
			head, err := l.TreeHead()
			if err != nil {
				continue
			}
			js, _ := head.MarshalJSON()
			say("head %s\n", js)
			size = head.Size
		}
	}()
	tag := strconv.Itoa(os.Getpid())
	for w := range workers {
		go func() {
			for i := 0; ; i++ {
				leaf := testLeaf(t, tag, w*1000000+i)
				index, err := l.Append(context.Background(), leaf)
				if err != nil {
					say("error %v\n", err)
					return
				}
				say("ack %d %x\n", index, leaf)
			}
		}()
	}
	select {} // until killed
}

// childRun is what one child process acknowledged before it was killed.
type childRun struct {
	acked map[uint64][]byte
	heads []tlog.TreeHead
}

// runAndKill starts a child appending to the log cfg names from workers
// goroutines, waits until it acknowledged at least acks entries, kills it
// with SIGKILL mid-burst, and returns what it acknowledged.
func runAndKill(t *testing.T, cfg Config, workers, acks int) childRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+cfg.Dir, crashMySQLEnv+"="+cfg.MySQL, crashWorkersEnv+"="+strconv.Itoa(workers))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	run := childRun{acked: map[uint64][]byte{}}
	killed := false
	timeout := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timeout.Stop()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "ack":
			idx, leafHex, _ := strings.Cut(rest, " ")
			index, err1 := strconv.ParseUint(idx, 10, 64)
			leaf, err2 := hex.DecodeString(leafHex)
			if err1 != nil || err2 != nil {
				continue // a line cut short by the kill
			}
			run.acked[index] = leaf
		case "head":
			head, err := tlog.ParseTreeHead([]byte(rest))
			if err != nil {
				continue
			}
			run.heads = append(run.heads, head)
		case "error":
			t.Errorf("child: %s", rest)
		}
		if !killed && len(run.acked) >= acks {
			// Mid-burst, at a random moment of Tessera's cycle:
			// workers appends are in flight, some batched, some being
			// sequenced or integrated, some being published.
			delay := time.Duration(rand.Int64N(int64(250 * time.Millisecond)))
			kill := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
			defer kill.Stop()
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed {
		t.Fatalf("the child stopped before it was killed (%v), having acknowledged %d entries:\n%s", err, len(run.acked), stderr.String())
	}
	if len(run.heads) == 0 {
		t.Fatal("the child published no tree head")
	}
	t.Logf("child acknowledged %d entries and published %d tree heads before SIGKILL", len(run.acked), len(run.heads))
	return run
}

// TestCrash kills a process appending to the log with SIGKILL mid-burst,
// twice, then reopens the log and checks that every index either process
// acknowledged is present and provable, and that the tree is consistent
// with every tree head either process published before its kill.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	forEachDriver(t, testCrash)
}

func testCrash(t *testing.T, d testDriver) {
	cfg := d.config(t)
	runs := []childRun{runAndKill(t, cfg, 64*d.spread, 600), runAndKill(t, cfg, 64*d.spread, 600)}

	l := openLog(t, cfg)
	ctx := context.Background()
	// Open published everything Tessera sequenced before the kills,
	// acknowledged or not.
	if integrated := tesseraSize(t, cfg); l.Size() != integrated {
		t.Fatalf("after Open the log publishes %d entries; Tessera integrated %d", l.Size(), integrated)
	}
	acked := map[uint64][]byte{}
	for _, run := range runs {
		for index, leaf := range run.acked {
			if prev, ok := acked[index]; ok && !bytes.Equal(prev, leaf) {
				t.Fatalf("index %d was acknowledged for two different leaves", index)
			}
			acked[index] = leaf
		}
	}
	// After reopening, every acknowledged index is published and provable
	// at once: acknowledgement waited for a durable tree head.
	heads := checkLog(t, l, acked)
	head, _ := l.TreeHead()
	for _, run := range runs {
		for _, h := range run.heads {
			stored, err := l.TreeHeadAt(h.Size)
			if err != nil || stored != h {
				t.Fatalf("the tree head of %d served before the crash is not the one stored (%v)", h.Size, err)
			}
			proof, err := l.ConsistencyProof(ctx, h.Size, head.Size)
			if err != nil {
				t.Fatal(err)
			}
			if err := tlog.VerifyTreeGrowth(h, head, proof, l.PublicKey()); err != nil {
				t.Fatalf("the tree after the crashes does not extend the head of %d served before: %v", h.Size, err)
			}
		}
	}
	t.Logf("after two crashes: %d entries acknowledged, %d in the published tree, %d tree heads", len(acked), head.Size, len(heads))

	// Entries sequenced but not published before a kill are published
	// by the reopened log; and the log goes on.
	more := appendConcurrently(t, l, "after", 200, 50*d.spread)
	for index, leaf := range more {
		acked[index] = leaf
	}
	checkLog(t, l, acked)
	closeLog(t, l)
}

// tesseraSize reads the size of the tree Tessera integrated, from its own
// state rather than through the Log.
func tesseraSize(t *testing.T, cfg Config) uint64 {
	t.Helper()
	var state struct{ Size uint64 }
	if cfg.MySQL != "" {
		db, err := sql.Open("mysql", cfg.MySQL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.QueryRow("SELECT `size` FROM `TreeState` WHERE `id` = 0").Scan(&state.Size); err != nil {
			t.Fatal(err)
		}
		return state.Size
	}
	raw, err := os.ReadFile(filepath.Join(cfg.Dir, tilesName, ".state", "treeState"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	return state.Size
}
