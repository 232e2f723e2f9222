package translog

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/api/layout"
)

var (
	// ErrNotEmpty is wrapped by Import's error when the MySQL database
	// already holds a log (entries, tree heads or a checkpoint).
	ErrNotEmpty = errors.New("translog: the MySQL database already holds a log")

	// ErrDiffers is wrapped by VerifyImport's error when the MySQL log is
	// not the folder's: a leaf, a tree head, a cosignature or a root that
	// differs, or one missing.
	ErrDiffers = errors.New("translog: the MySQL log differs from the folder's")
)

// Imported says what a log holds, as Import copied it or VerifyImport
// compared it.
type Imported struct {
	// Entries is the size of the latest tree head: every leaf below it.
	Entries uint64
	// Heads is the size of every published tree head, in order.
	Heads []uint64
	// Cosignatures counts the rounds of witness cosigning kept.
	Cosignatures int
	// Receipts counts the entries VerifyImport proved included.
	Receipts int
}

// An Entry is a leaf a node's state says the log holds at Index: what a
// receipt it gave proves.
type Entry struct {
	Index uint64
	Leaf  []byte
}

// importWorkers is how many entry bundles Tessera's migration copies at
// once.
const importWorkers = 4

// Import copies the log in the folder (a stopped node's log/) into the
// MySQL database dsn (Config.MySQL), which must hold no log (ErrNotEmpty),
// so that Open on the database serves the same log: the same leaves at the
// same indices, and the same tree heads, checkpoints and cosignatures, the
// very records the folder holds, so every receipt and proof a client was
// given still verifies. It takes the database's lock, so it fails with
// ErrLocked while a node has it open.
//
// The leaves go through Tessera's own migration (tessera.MigrationTarget
// on its MySQL driver), which rebuilds the tree from the entry bundles and
// checks its root against the latest tree head's. Each tree head is then
// stored only once the copied tiles give its size the root it signed, and
// Tessera's checkpoint row is the latest tree head's checkpoint, as if
// Tessera had published it there.
func Import(ctx context.Context, from *Folder, dsn string) (Imported, error) {
	var done Imported
	src := from.b
	dst, err := openMySQL(ctx, dsn, false)
	if err != nil {
		return done, err
	}
	defer dst.close()
	if err := dst.checkEmpty(ctx); err != nil {
		return done, err
	}
	srcHeads, err := src.openHeads()
	if err != nil {
		return done, err
	}
	defer srcHeads.close()
	last, ok := srcHeads.latest()
	if !ok {
		return done, nil // a log that never published: nothing to copy
	}
	size := last.head.Size
	root, err := tlog.ReadRoot(ctx, newTileStore(src, DefaultTileCacheSize).at(size), size)
	if err != nil || root != last.head.Root {
		return done, corrupt("the folder's tiles do not give its latest tree head's root (%d entries): %v", size, err)
	}
	mt, err := tessera.NewMigrationTarget(ctx, dst.storage, tessera.NewMigrationOptions())
	if err != nil {
		return done, fmt.Errorf("translog: starting Tessera's migration into the %s: %w", dst.label, err)
	}
	// A bundle past the latest tree head may hold entries sequenced but
	// never published; only those the tree head covers are copied.
	fetch := func(ctx context.Context, index uint64, width uint8) ([]byte, error) {
		data, err := src.bundle(ctx, index, width)
		if err != nil {
			return nil, err
		}
		return bundlePrefix(data, width)
	}
	if err := mt.Migrate(ctx, importWorkers, size, last.head.Root[:], fetch); err != nil {
		return done, fmt.Errorf("translog: copying %d entries into the %s: %w", size, dst.label, err)
	}
	// Tessera v1.0.4's migration stores a full bundle's size as its
	// partial width, 0, where its appender stores 256, and its reads then
	// refuse the bundle as holding no entries: store it as the appender
	// does.
	if _, err := dst.db.ExecContext(ctx, "UPDATE `TiledLeaves` SET `size` = ? WHERE `size` = 0", layout.EntryBundleWidth); err != nil {
		return done, fmt.Errorf("translog: copying %d entries into the %s: %w", size, dst.label, err)
	}
	done.Entries = size
	if done.Heads, err = copyHeads(ctx, srcHeads, dst); err != nil {
		return done, err
	}
	if done.Cosignatures, err = copyCosignatures(src, dst); err != nil {
		return done, err
	}
	if _, err := dst.db.ExecContext(ctx, "REPLACE INTO `Checkpoint` (`id`, `note`, `published_at`) VALUES (0, ?, ?)",
		last.checkpoint, time.Now().UnixMilli()); err != nil {
		return done, fmt.Errorf("translog: writing the checkpoint into the %s: %w", dst.label, err)
	}
	return done, nil
}

// checkEmpty refuses a database that holds any of a log.
func (b *mysqlBackend) checkEmpty(ctx context.Context) error {
	for _, q := range []string{
		"SELECT COUNT(*) FROM `TiledLeaves`",
		"SELECT COUNT(*) FROM `Checkpoint`",
		"SELECT COUNT(*) FROM `TreeState` WHERE `size` > 0",
		"SELECT COUNT(*) FROM `agora_tree_heads`",
		"SELECT COUNT(*) FROM `agora_cosignatures`",
	} {
		var n int64
		if err := b.db.QueryRowContext(ctx, q).Scan(&n); err != nil {
			return fmt.Errorf("translog: reading the %s: %w", b.label, err)
		}
		if n > 0 {
			return fmt.Errorf("translog: the %s: %w", b.label, ErrNotEmpty)
		}
	}
	return nil
}

// copyHeads stores each of the folder's tree-head records in the
// database, once the database's tiles give its size its root.
func copyHeads(ctx context.Context, from records[published], dst *mysqlBackend) ([]uint64, error) {
	to, err := dst.openHeads()
	if err != nil {
		return nil, err
	}
	defer to.close()
	tiles := newTileStore(dst, DefaultTileCacheSize)
	var sizes []uint64
	err = from.each(func(p published) error {
		if err := checkRoot(ctx, tiles, p.head); err != nil {
			return err
		}
		sizes = append(sizes, p.head.Size)
		return to.append(p)
	})
	return sizes, err
}

func checkRoot(ctx context.Context, tiles *tileStore, head tlog.TreeHead) error {
	root, err := tlog.ReadRoot(ctx, tiles.at(head.Size), head.Size)
	if err != nil {
		return fmt.Errorf("translog: reading the copied tree of %d entries: %w", head.Size, err)
	}
	if root != head.Root {
		return fmt.Errorf("%w: the copied tree of %d entries has root %s, its tree head says %s", ErrDiffers, head.Size, root, head.Root)
	}
	return nil
}

func copyCosignatures(src *posixBackend, dst *mysqlBackend) (int, error) {
	from, err := src.openCosignatures()
	if err != nil {
		return 0, err
	}
	defer from.close()
	to, err := dst.openCosignatures()
	if err != nil {
		return 0, err
	}
	defer to.close()
	n := 0
	err = from.each(func(c cosigned) error {
		n++
		return to.append(c)
	})
	return n, err
}

// VerifyImport checks that the MySQL database dsn holds the log in the
// folder, as Import left it: every leaf below the latest tree head the
// same bytes at the same index, every tree-head and cosignature record the
// same, each tree head's root the one the database's tiles give, and
// Tessera's checkpoint the latest tree head's. A difference is an error
// wrapping ErrDiffers. Each of entries (a node's state's record of what it
// logged) must be the database's leaf at its index, with an inclusion
// proof from the database's tiles that verifies against the first tree
// head covering it: the receipt the node gave for it. Like Import it takes
// the database's lock.
func VerifyImport(ctx context.Context, from *Folder, dsn string, entries []Entry) (Imported, error) {
	var done Imported
	src := from.b
	dst, err := openMySQL(ctx, dsn, false)
	if err != nil {
		return done, err
	}
	defer dst.close()
	srcHeads, err := src.openHeads()
	if err != nil {
		return done, err
	}
	defer srcHeads.close()
	dstHeads, err := dst.openHeads()
	if err != nil {
		return done, err
	}
	defer dstHeads.close()
	tiles := newTileStore(dst, DefaultTileCacheSize)
	heads, err := sameHeads(ctx, srcHeads, dstHeads, tiles)
	if err != nil {
		return done, err
	}
	for _, h := range heads {
		done.Heads = append(done.Heads, h.Size)
	}
	last, ok := srcHeads.latest()
	if !ok {
		return done, nil
	}
	done.Entries = last.head.Size
	if err := sameLeaves(ctx, src, dst, done.Entries); err != nil {
		return done, err
	}
	if done.Receipts, err = proveEntries(ctx, tiles, heads, entries); err != nil {
		return done, err
	}
	if done.Cosignatures, err = sameCosignatures(src, dst); err != nil {
		return done, err
	}
	cp, err := dst.tesseraCheckpoint(ctx)
	if err != nil {
		return done, fmt.Errorf("translog: reading the checkpoint in the %s: %w", dst.label, err)
	}
	if !bytes.Equal(cp, last.checkpoint) {
		return done, fmt.Errorf("%w: Tessera's checkpoint in the %s is not the latest tree head's", ErrDiffers, dst.label)
	}
	return done, nil
}

// proveEntries checks each entry's leaf and its inclusion in the first of
// heads (in order of size) that covers it.
func proveEntries(ctx context.Context, tiles *tileStore, heads []tlog.TreeHead, entries []Entry) (int, error) {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b Entry) int { return cmp.Compare(a.Index, b.Index) })
	for _, e := range entries {
		i, _ := slices.BinarySearchFunc(heads, e.Index+1, func(h tlog.TreeHead, size uint64) int { return cmp.Compare(h.Size, size) })
		if i == len(heads) {
			return 0, fmt.Errorf("%w: the state records entry %d, past the log's %d entries", ErrDiffers, e.Index, heads[len(heads)-1].Size)
		}
		h := heads[i]
		leaves, err := tiles.at(h.Size).leaves(ctx, e.Index, e.Index+1)
		if err != nil {
			return 0, fmt.Errorf("translog: reading the copied leaf %d: %w", e.Index, err)
		}
		if !bytes.Equal(leaves[0], e.Leaf) {
			return 0, fmt.Errorf("%w: the copied log's leaf %d is not the one the state records", ErrDiffers, e.Index)
		}
		proof, err := tlog.InclusionProof(ctx, tiles.at(h.Size), e.Index, h.Size)
		if err != nil {
			return 0, fmt.Errorf("translog: proving entry %d in the copied tree of %d: %w", e.Index, h.Size, err)
		}
		if err := tlog.VerifyInclusion(e.Index, h.Size, tlog.LeafHash(e.Leaf), proof, h.Root); err != nil {
			return 0, fmt.Errorf("%w: entry %d's receipt against the tree head of %d entries: %w", ErrDiffers, e.Index, h.Size, err)
		}
	}
	return len(entries), nil
}

// sameHeads compares the two logs' tree-head records, one by one.
func sameHeads(ctx context.Context, src, dst records[published], tiles *tileStore) ([]tlog.TreeHead, error) {
	var want [][]byte
	var heads []tlog.TreeHead
	if err := src.each(func(p published) error {
		line, err := formatRecord(p)
		want, heads = append(want, line), append(heads, p.head)
		return err
	}); err != nil {
		return nil, err
	}
	i := 0
	if err := dst.each(func(p published) error {
		line, err := formatRecord(p)
		if err != nil {
			return err
		}
		if i >= len(want) || !bytes.Equal(bytes.TrimSpace(line), bytes.TrimSpace(want[i])) {
			return fmt.Errorf("%w: tree head %d (of %d entries) is not the folder's", ErrDiffers, i+1, p.head.Size)
		}
		i++
		return checkRoot(ctx, tiles, p.head)
	}); err != nil {
		return nil, err
	}
	if i != len(want) {
		return nil, fmt.Errorf("%w: it holds %d tree heads, the folder %d", ErrDiffers, i, len(want))
	}
	return heads, nil
}

// sameLeaves compares every entry bundle of the tree of size leaves.
func sameLeaves(ctx context.Context, src *posixBackend, dst *mysqlBackend, size uint64) error {
	for index := uint64(0); index*layout.EntryBundleWidth < size; index++ {
		width := uint8(0)
		if rest := size - index*layout.EntryBundleWidth; rest < layout.EntryBundleWidth {
			width = uint8(rest)
		}
		var got [2][]byte
		for i, b := range []tileSource{src, dst} {
			data, err := b.bundle(ctx, index, width)
			if err == nil {
				data, err = bundlePrefix(data, width)
			}
			if err != nil {
				return fmt.Errorf("%w: entry bundle %d: %w", ErrDiffers, index, err)
			}
			got[i] = data
		}
		if !bytes.Equal(got[0], got[1]) {
			return fmt.Errorf("%w: the entries from %d on (entry bundle %d) are not the folder's", ErrDiffers, index*layout.EntryBundleWidth, index)
		}
	}
	return nil
}

func sameCosignatures(src *posixBackend, dst *mysqlBackend) (int, error) {
	var want []cosigned
	from, err := src.openCosignatures()
	if err != nil {
		return 0, err
	}
	defer from.close()
	if err := from.each(func(c cosigned) error { want = append(want, c); return nil }); err != nil {
		return 0, err
	}
	to, err := dst.openCosignatures()
	if err != nil {
		return 0, err
	}
	defer to.close()
	i := 0
	if err := to.each(func(c cosigned) error {
		if i >= len(want) || c.size != want[i].size || !bytes.Equal(c.note, want[i].note) {
			return fmt.Errorf("%w: cosignature round %d is not the folder's", ErrDiffers, i+1)
		}
		i++
		return nil
	}); err != nil {
		return 0, err
	}
	if i != len(want) {
		return 0, fmt.Errorf("%w: it holds %d cosignature rounds, the folder %d", ErrDiffers, i, len(want))
	}
	return i, nil
}

// A Folder is the log in a folder, locked as Open locks it, for Import and
// VerifyImport to read while no node runs on it.
type Folder struct{ b *posixBackend }

// LockFolder takes the lock Open takes on the log in the folder dir, and
// holds it until Close: ErrLocked while a Log has it open, as a running
// node does.
func LockFolder(dir string) (*Folder, error) {
	b, err := openPOSIX(dir)
	if err != nil {
		return nil, err
	}
	return &Folder{b}, nil
}

// Close releases the folder's lock.
func (f *Folder) Close() error { return f.b.close() }
