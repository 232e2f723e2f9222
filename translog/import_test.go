package translog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/agora-node/agora/translog/mysqltest"
)

// TestImport copies a folder's log of several tree heads, one of them
// partial-bundled, into MySQL: Open there serves every leaf at its index
// and every tree head and checkpoint as the folder signed them, goes on
// appending, and VerifyImport finds the copy the folder's until a leaf is
// changed. A database holding a log, and a folder a Log has open, are
// refused.
func TestImport(t *testing.T) {
	ctx := context.Background()
	src := testConfig(t, t.TempDir())
	l := openLog(t, src)
	leaves := map[uint64][]byte{}
	for round := range 3 {
		for i, leaf := range appendConcurrently(t, l, "import", 100+round*60, 8) {
			leaves[i] = leaf
		}
	}
	size := l.Size()

	dsn := mysqltest.DSN(t)
	if _, err := LockFolder(src.Dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("LockFolder on a folder a Log has open: %v, want ErrLocked", err)
	}
	closeLog(t, l)
	folder, err := LockFolder(src.Dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Import(ctx, folder, dsn)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if got.Entries != size || len(got.Heads) < 2 || got.Heads[len(got.Heads)-1] != size {
		t.Fatalf("Import copied %+v, want %d entries in several tree heads", got, size)
	}
	if _, err := Import(ctx, folder, dsn); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("Import into a database holding a log: %v, want ErrNotEmpty", err)
	}
	var entries []Entry
	for i, leaf := range leaves {
		entries = append(entries, Entry{Index: i, Leaf: leaf})
	}
	if v, err := VerifyImport(ctx, folder, dsn, entries); err != nil || v.Entries != size || len(v.Heads) != len(got.Heads) || v.Receipts != len(leaves) {
		t.Fatalf("VerifyImport: %+v, %v", v, err)
	}
	wrong := []Entry{{Index: 3, Leaf: leaves[4]}}
	if _, err := VerifyImport(ctx, folder, dsn, wrong); !errors.Is(err, ErrDiffers) {
		t.Fatalf("VerifyImport of an entry the log does not hold there: %v, want ErrDiffers", err)
	}

	folder.Close()
	from := openLog(t, src)
	heads := map[uint64][]byte{}
	for _, s := range got.Heads {
		cp, err := from.Checkpoint(s)
		if err != nil {
			t.Fatal(err)
		}
		heads[s] = cp
	}
	srcHead, err := from.TreeHead()
	if err != nil {
		t.Fatal(err)
	}
	closeLog(t, from)

	cfg := src
	cfg.Dir, cfg.MySQL, cfg.CheckpointInterval = "", dsn, MinMySQLCheckpointInterval
	to := openLog(t, cfg)
	if to.Size() != size {
		t.Fatalf("the copy serves %d entries, want %d", to.Size(), size)
	}
	head, err := to.TreeHead()
	if err != nil || head != srcHead {
		t.Fatalf("the copy's tree head %+v (%v) is not the folder's %+v", head, err, srcHead)
	}
	for s, want := range heads {
		cp, err := to.Checkpoint(s)
		if err != nil || !bytes.Equal(cp, want) {
			t.Fatalf("checkpoint of %d entries: %q (%v), want the folder's %q", s, cp, err, want)
		}
	}
	for i, want := range leaves {
		leaf, err := to.Leaf(ctx, i)
		if err != nil || !bytes.Equal(leaf, want) {
			t.Fatalf("leaf %d: %q (%v), want %q", i, leaf, err, want)
		}
	}
	checkHead(t, to, head, heads[size])
	appendConcurrently(t, to, "after", 30, 4)
	closeLog(t, to)

	if folder, err = LockFolder(src.Dir); err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE `TiledLeaves` SET `data` = CONCAT(SUBSTRING(`data`, 1, 10), 'X', SUBSTRING(`data`, 12)) WHERE `tile_index` = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyImport(ctx, folder, dsn, entries); !errors.Is(err, ErrDiffers) {
		t.Fatalf("VerifyImport after the copy changed: %v, want ErrDiffers", err)
	}
}
