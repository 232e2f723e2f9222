package translog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/agora-node/agora/tlog"
	"github.com/transparency-dev/tessera/api/layout"
)

// Cache-Control values of the tile API.
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cachePartial    = "public, max-age=60"
	cacheCheckpoint = "no-cache"
)

// TileHandler serves the log as c2sp.org/tlog-tiles, read straight from
// Tessera's POSIX directory, at paths relative to wherever it is mounted
// (use http.StripPrefix):
//
//	checkpoint                  the latest published checkpoint, text/plain
//	tile/<L>/<N>[.p/<W>]        hash tiles, application/octet-stream
//	tile/entries/<N>[.p/<W>]    entry bundles, application/octet-stream
//
// It serves nothing beyond the latest published tree: a tile or bundle the
// published size does not imply yet is 404. A partial one is served as that
// prefix of what is stored, which may since have grown or become the full
// one (Tessera's MySQL driver keeps one row per tile and rewrites it).
// Full tiles and bundles never change and are served as immutable; partial
// ones are cacheable briefly; the checkpoint must be revalidated. Only GET
// and HEAD are allowed.
func (l *Log) TileHandler() http.Handler { return http.HandlerFunc(l.serveTile) }

func (l *Log) serveTile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, contentType, cacheControl, err := l.tileResource(r.Context(), strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil {
		status := http.StatusInternalServerError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			status = http.StatusNotFound
		case errors.Is(err, ErrClosed):
			status = http.StatusServiceUnavailable
		}
		http.Error(w, http.StatusText(status), status)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", cacheControl)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// tileResource returns the resource at path p, its content type and its
// Cache-Control; an error wrapping ErrNotFound for anything else.
func (l *Log) tileResource(ctx context.Context, p string) ([]byte, string, string, error) {
	if p == layout.CheckpointPath {
		// The newest, not LatestCheckpoint's witnessed one: the
		// partial tiles of an older tree may be gone.
		cp, err := l.newestCheckpoint()
		return cp, "text/plain; charset=utf-8", cacheCheckpoint, err
	}
	pub, err := l.current()
	if err != nil {
		return nil, "", "", err
	}
	size := pub.head.Size

	var level, index uint64
	var width uint8
	var canonical string
	entries := false
	if rest, ok := strings.CutPrefix(p, "tile/entries/"); ok {
		index, width, err = layout.ParseTileIndexPartial(rest)
		canonical = layout.EntriesPath(index, width)
		entries = true
	} else if rest, ok := strings.CutPrefix(p, "tile/"); ok {
		l, n, _ := strings.Cut(rest, "/")
		level, index, width, err = layout.ParseTileLevelIndexPartial(l, n)
		canonical = layout.TilePath(level, index, width)
	} else {
		return nil, "", "", notFound("no resource at %.100q", p)
	}
	if err != nil || canonical != p {
		return nil, "", "", notFound("no resource at %.100q", p)
	}
	if !impliedBy(level, index, width, size) {
		return nil, "", "", notFound("%s is not part of the published tree of %d", p, size)
	}
	var data []byte
	if entries {
		data, err = l.store.bundle(ctx, index, width)
		if err == nil {
			data, err = bundlePrefix(data, width)
		}
	} else {
		data, err = l.store.tile(ctx, level, index, width)
		if err == nil {
			data, err = tilePrefix(data, width)
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", "", notFound("%s is no longer stored", p)
	}
	if err != nil {
		return nil, "", "", err
	}
	cache := cacheImmutable
	if width > 0 {
		cache = cachePartial
	}
	return data, "application/octet-stream", cache, nil
}

// tilePrefix returns the first width hashes of a stored hash tile (all of
// a full one, width 0).
func tilePrefix(data []byte, width uint8) ([]byte, error) {
	n := int(width)
	if n == 0 {
		n = layout.TileWidth
	}
	if len(data)%tlog.HashSize != 0 || len(data) < n*tlog.HashSize {
		return nil, corrupt("a stored tile of %d bytes does not hold %d hashes", len(data), n)
	}
	return data[:n*tlog.HashSize], nil
}

// bundlePrefix returns the first width entries of a stored entry bundle
// (all of a full one, width 0): each entry is a two-byte big-endian length
// and that many bytes (c2sp.org/tlog-tiles).
func bundlePrefix(data []byte, width uint8) ([]byte, error) {
	n := int(width)
	if n == 0 {
		n = layout.EntryBundleWidth
	}
	off := 0
	for range n {
		if len(data)-off < 2 {
			return nil, corrupt("a stored entry bundle of %d bytes does not hold %d entries", len(data), n)
		}
		off += 2 + int(binary.BigEndian.Uint16(data[off:]))
		if off > len(data) {
			return nil, corrupt("a stored entry bundle of %d bytes does not hold %d entries", len(data), n)
		}
	}
	return data[:off], nil
}

// impliedBy reports whether the tile (or bundle, at level 0) at level and
// index, with width entries (0 for a full one), lies within the tree of
// size leaves: every hash it holds is of a subtree complete in that tree.
func impliedBy(level, index uint64, width uint8, size uint64) bool {
	row := size >> (layout.TileHeight * level) // 0 from level 8 up
	full := row / layout.TileWidth
	switch {
	case index < full:
		return true // full there; a partial one, if still stored, is a prefix
	case index == full:
		return width > 0 && uint64(width) <= row%layout.TileWidth
	default:
		return false
	}
}
