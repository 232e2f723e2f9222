package translog

import (
	"bytes"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

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
// published size does not imply yet is 404, as is a partial one Tessera has
// since replaced by the full one (tile clients then read the full one).
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
	body, contentType, cacheControl, err := l.tileResource(strings.TrimPrefix(r.URL.Path, "/"))
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
func (l *Log) tileResource(p string) ([]byte, string, string, error) {
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
	if rest, ok := strings.CutPrefix(p, "tile/entries/"); ok {
		index, width, err = layout.ParseTileIndexPartial(rest)
		canonical = layout.EntriesPath(index, width)
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
	data, err := os.ReadFile(filepath.Join(l.tiles.dir, canonical))
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
