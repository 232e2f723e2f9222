package translog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/transparency-dev/tessera"
	"github.com/transparency-dev/tessera/api/layout"
	"github.com/transparency-dev/tessera/storage/posix"
)

// A backend is the storage a Log runs on: Tessera's driver, the tiles and
// entry bundles Tessera wrote through it, and the tree heads and
// cosignatures this package keeps beside them. There are two: the POSIX
// folder (Config.Dir) and a MySQL database (Config.MySQL).
type backend interface {
	tileSource

	// where names the storage in errors: a folder, or a database (never
	// with its password).
	where() string

	// maxLeafSize is the largest leaf the storage takes, at most
	// MaxLeafSize.
	maxLeafSize() int

	// driver is Tessera's driver for the storage.
	driver(ctx context.Context) (tessera.Driver, error)

	// tesseraCheckpoint returns the checkpoint Tessera last published, or
	// an error wrapping fs.ErrNotExist if it has published none.
	tesseraCheckpoint(ctx context.Context) ([]byte, error)

	// openHeads and openCosignatures open the tree-head and cosignature
	// records.
	openHeads() (records[published], error)
	openCosignatures() (records[cosigned], error)

	// watchLock calls lost, once, if the lock that keeps other Logs out
	// is lost to another process, until close.
	watchLock(lost func(error))

	// shared reports whether other Logs may run on the storage at once
	// (Config.Shared), whose publications this one must follow.
	shared() bool

	// takeCosigning takes the right to ask the witnesses, which one Log
	// of a shared storage holds at a time: held is nil (with no error)
	// while another Log has it, else reports whether this one still
	// does; release gives it up.
	takeCosigning(ctx context.Context) (held func(context.Context) bool, release func(), err error)

	// takeTurn waits for the append turn of a shared storage (see
	// Log.Turn); a no-op for one this Log alone appends to.
	takeTurn(ctx context.Context) (release func(), err error)

	// claim and release are Log.Claim and Log.Release.
	claim(ctx context.Context, key string) (ClaimState, error)
	release(ctx context.Context, key string) error

	// close releases the storage and the lock that keeps other Logs out.
	close() error
}

// A tileSource reads the tiles and entry bundles Tessera stored.
type tileSource interface {
	// tile returns the hash tile at (level, index) as stored with at
	// least width hashes (0: a full tile); it may hold more, of which the
	// first width are the ones asked for. An error wrapping
	// fs.ErrNotExist if none that wide is stored.
	tile(ctx context.Context, level, index uint64, width uint8) ([]byte, error)
	// bundle is tile for entry bundle index.
	bundle(ctx context.Context, index uint64, width uint8) ([]byte, error)
}

// records is what the log keeps of each published size (the tree-head
// records) or of each round of cosigning (the cosignature records), in
// strictly increasing order of size; see recordFile for the contract.
type records[T any] interface {
	// latest returns the last record, or false while there is none.
	latest() (T, bool)
	// refresh makes latest the last record any writer stored, for
	// storage others may write (a database); a no-op for a file.
	refresh() error
	// append stores rec after the last record, durably once it returns
	// nil.
	append(rec T) error
	// find returns the record of size size; ErrNotFound if there is none.
	find(size uint64) (T, error)
	// lastWhere returns the last record for which ok holds, looking back
	// at most limit records.
	lastWhere(limit int, ok func(T) bool) (T, bool, error)
	// each calls fn with every record in order, stopping at its first
	// error.
	each(fn func(T) error) error
	// brokenErr returns why the records refuse appends for good, or nil.
	brokenErr() error
	// name names the records in errors.
	name() string
	close() error
}

// posixBackend is the log in a folder: Tessera's POSIX driver under tiles/,
// the tree-head and cosignature files beside it, and an flock on LOCK.
type posixBackend struct {
	dir  string
	lock *os.File
}

func openPOSIX(dir string) (*posixBackend, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("translog: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, lockName))
	if err != nil {
		return nil, err
	}
	return &posixBackend{dir: dir, lock: lock}, nil
}

// lockDir takes an exclusive flock on the file at path, held for as long
// as the returned file stays open (the kernel drops it if the process
// dies).
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("translog: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("translog: %s: %w", filepath.Dir(path), ErrLocked)
		}
		return nil, fmt.Errorf("translog: locking %s: %w", path, err)
	}
	return f, nil
}

func (b *posixBackend) tilesDir() string { return filepath.Join(b.dir, tilesName) }

func (b *posixBackend) where() string { return b.dir }

func (b *posixBackend) maxLeafSize() int { return MaxLeafSize }

func (b *posixBackend) driver(ctx context.Context) (tessera.Driver, error) {
	return posix.New(ctx, posix.Config{Path: b.tilesDir()})
}

func (b *posixBackend) tesseraCheckpoint(context.Context) ([]byte, error) {
	return os.ReadFile(filepath.Join(b.tilesDir(), layout.CheckpointPath))
}

func (b *posixBackend) openHeads() (records[published], error) {
	s, err := openHeads(filepath.Join(b.dir, treeHeadsName))
	if err != nil {
		return nil, err // not a nil *headStore in an interface
	}
	return s, nil
}

func (b *posixBackend) openCosignatures() (records[cosigned], error) {
	s, err := openCosignatures(filepath.Join(b.dir, cosignaturesName))
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (b *posixBackend) close() error { return b.lock.Close() }

func (b *posixBackend) shared() bool { return false }

// takeCosigning always succeeds: the flock keeps other Logs out.
func (b *posixBackend) takeCosigning(context.Context) (func(context.Context) bool, func(), error) {
	return func(context.Context) bool { return true }, func() {}, nil
}

func (b *posixBackend) takeTurn(context.Context) (func(), error) { return func() {}, nil }

// watchLock does nothing: an flock is held until the file is closed.
func (b *posixBackend) watchLock(func(error)) {}

// tile and bundle read the partial file of that width, or the full one
// when Tessera has replaced the partial one by it (its garbage collection
// removes partial tiles once the full one exists; the full one's prefix
// is the same).
func (b *posixBackend) tile(_ context.Context, level, index uint64, width uint8) ([]byte, error) {
	return b.readPartialOrFull(width, func(w uint8) string { return layout.TilePath(level, index, w) })
}

func (b *posixBackend) bundle(_ context.Context, index uint64, width uint8) ([]byte, error) {
	return b.readPartialOrFull(width, func(w uint8) string { return layout.EntriesPath(index, w) })
}

func (b *posixBackend) readPartialOrFull(width uint8, path func(uint8) string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(b.tilesDir(), path(width)))
	if errors.Is(err, fs.ErrNotExist) && width > 0 {
		data, err = os.ReadFile(filepath.Join(b.tilesDir(), path(0)))
	}
	if err != nil {
		return nil, fmt.Errorf("translog: reading %s: %w", path(width), err)
	}
	return data, nil
}

// openBackend opens and locks the storage cfg names.
func openBackend(ctx context.Context, cfg Config) (backend, error) {
	if cfg.MySQL != "" {
		b, err := openMySQL(ctx, cfg.MySQL, cfg.Shared)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	b, err := openPOSIX(cfg.Dir)
	if err != nil {
		return nil, err
	}
	return b, nil
}
