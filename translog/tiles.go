package translog

import (
	"container/list"
	"context"
	"errors"
	"io/fs"
	"sync"

	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera/api"
	"github.com/transparency-dev/tessera/api/layout"
)

// tileStore reads the tiles and entry bundles Tessera stored, the layout
// of c2sp.org/tlog-tiles, and caches them parsed. A tile's content at a
// given width never changes, so the caches need no invalidation; a stored
// tile may hold more than the width asked for (a partial one since grown,
// or the full one), whose prefix is the same, so only the prefix is kept.
type tileStore struct {
	src     tileSource
	tiles   *lru[tileKey, *tileNodes]
	bundles *lru[tileKey, [][]byte]
}

// tileKey names one tile or bundle resource: width 0 is the full one.
type tileKey struct {
	level, index uint64
	width        uint8
}

// tileNodes is a tile with every node it implies: levels[k] holds the
// complete nodes k levels above the tile's stored row, so levels[0] is
// the row itself (256 hashes in a full tile).
type tileNodes struct {
	levels [][]tlog.Hash
}

func newTileStore(src tileSource, cacheSize int) *tileStore {
	return &tileStore{
		src:     src,
		tiles:   newLRU[tileKey, *tileNodes](cacheSize),
		bundles: newLRU[tileKey, [][]byte](max(cacheSize/64, 8)),
	}
}

// mustBeStored reports a tile or bundle the published tree implies but the
// storage does not hold as corruption.
func mustBeStored(name string, data []byte, err error) ([]byte, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return nil, corrupt("%s is missing from the published tree: %w", name, err)
	}
	return data, err
}

// tile returns the tile at (level, index) as it stands in a tree of size
// leaves, which must include at least one node of it.
func (t *tileStore) tile(ctx context.Context, level, index, size uint64) (*tileNodes, error) {
	k := tileKey{level, index, layout.PartialTileSize(level, index, size)}
	if n, ok := t.tiles.get(k); ok {
		return n, nil
	}
	raw, err := t.src.tile(ctx, level, index, k.width)
	raw, err = mustBeStored(layout.TilePath(level, index, k.width), raw, err)
	if err != nil {
		return nil, err
	}
	var ht api.HashTile
	if err := ht.UnmarshalText(raw); err != nil {
		return nil, corrupt("tile %d/%d: %w", level, index, err)
	}
	want := int(k.width)
	if want == 0 {
		want = layout.TileWidth
	}
	if len(ht.Nodes) < want || len(ht.Nodes) > layout.TileWidth {
		return nil, corrupt("tile %d/%d holds %d hashes, not %d", level, index, len(ht.Nodes), want)
	}
	row := make([]tlog.Hash, want)
	for i := range row {
		row[i] = tlog.Hash(ht.Nodes[i])
	}
	n := &tileNodes{levels: [][]tlog.Hash{row}}
	for len(row) > 1 {
		next := make([]tlog.Hash, len(row)/2)
		for i := range next {
			next[i] = tlog.NodeHash(row[2*i], row[2*i+1])
		}
		n.levels = append(n.levels, next)
		row = next
	}
	t.tiles.put(k, n)
	return n, nil
}

// bundle returns the entries of entry bundle index as it stands in a tree
// of size leaves.
func (t *tileStore) bundle(ctx context.Context, index, size uint64) ([][]byte, error) {
	k := tileKey{0, index, layout.PartialTileSize(0, index, size)}
	if b, ok := t.bundles.get(k); ok {
		return b, nil
	}
	raw, err := t.src.bundle(ctx, index, k.width)
	raw, err = mustBeStored(layout.EntriesPath(index, k.width), raw, err)
	if err != nil {
		return nil, err
	}
	var eb api.EntryBundle
	if err := eb.UnmarshalText(raw); err != nil {
		return nil, corrupt("entry bundle %d: %w", index, err)
	}
	want := int(k.width)
	if want == 0 {
		want = layout.EntryBundleWidth
	}
	if len(eb.Entries) < want {
		return nil, corrupt("entry bundle %d holds %d entries, not %d", index, len(eb.Entries), want)
	}
	entries := eb.Entries[:want]
	t.bundles.put(k, entries)
	return entries, nil
}

// at returns the tree of the first size leaves as a tlog.SubtreeReader.
// size must not be beyond what Tessera has integrated.
func (t *tileStore) at(size uint64) tree { return tree{t, size} }

// A tree reads the perfect subtrees of the tree of its first size leaves
// from the stored tiles.
type tree struct {
	t    *tileStore
	size uint64
}

// ReadSubtrees implements tlog.SubtreeReader.
func (tr tree) ReadSubtrees(ctx context.Context, ids []tlog.Subtree) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(ids))
	for i, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if id.Level >= 64 || id.Index >= tr.size>>id.Level {
			return nil, notFound("subtree %d at level %d is not complete in the tree of %d", id.Index, id.Level, tr.size)
		}
		tileLevel, tileIndex, nodeLevel, nodeIndex := layout.NodeCoordsToTileAddress(uint64(id.Level), id.Index)
		tn, err := tr.t.tile(ctx, tileLevel, tileIndex, tr.size)
		if err != nil {
			return nil, err
		}
		if int(nodeLevel) >= len(tn.levels) || nodeIndex >= uint64(len(tn.levels[nodeLevel])) {
			return nil, corrupt("tile %d/%d does not hold subtree %d at level %d", tileLevel, tileIndex, id.Index, id.Level)
		}
		out[i] = tn.levels[nodeLevel][nodeIndex]
	}
	return out, nil
}

// leaves returns the leaves [start, end) of the tree, each checked against
// the leaf hash its tile holds.
func (tr tree) leaves(ctx context.Context, start, end uint64) ([][]byte, error) {
	out := make([][]byte, 0, end-start)
	for ri := range layout.Range(start, end-start, tr.size) {
		entries, err := tr.t.bundle(ctx, ri.Index, tr.size)
		if err != nil {
			return nil, err
		}
		tn, err := tr.t.tile(ctx, 0, ri.Index, tr.size)
		if err != nil {
			return nil, err
		}
		for i := ri.First; i < ri.First+ri.N; i++ {
			if tlog.LeafHash(entries[i]) != tn.levels[0][i] {
				return nil, corrupt("leaf %d does not hash to the hash its tile holds", ri.Index*layout.EntryBundleWidth+uint64(i))
			}
			out = append(out, append([]byte(nil), entries[i]...))
		}
	}
	return out, nil
}

// lru is a least-recently-used cache, safe for concurrent use.
type lru[K comparable, V any] struct {
	max int
	// mu guards ll and m.
	mu sync.Mutex
	ll *list.List // of *lruEntry[K, V], most recent first
	m  map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	k K
	v V
}

func newLRU[K comparable, V any](n int) *lru[K, V] {
	return &lru[K, V]{max: n, ll: list.New(), m: make(map[K]*list.Element)}
}

func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*lruEntry[K, V]).v, true
	}
	var zero V
	return zero, false
}

func (c *lru[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[k]; ok {
		c.ll.MoveToFront(e)
		e.Value.(*lruEntry[K, V]).v = v
		return
	}
	c.m[k] = c.ll.PushFront(&lruEntry[K, V]{k, v})
	for c.ll.Len() > c.max {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.m, last.Value.(*lruEntry[K, V]).k)
	}
}
