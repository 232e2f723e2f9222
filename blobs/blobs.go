// Package blobs is the node's durable, content-addressed file store on local
// disk: the files of bundles and the large data sent ahead of them (the
// spec's "Large data": each file up to 5 GB, PUT to an upload link, checked
// for its size and SHA-256, and deleted after 7 days if no submitted bundle
// uses it).
//
// Every file is named by its digest, "sha256:" and 64 lowercase hex digits
// of the SHA-256 of its bytes, so a name can only ever hold one content.
//
// # Contract
//
// A Store keeps these promises, and its tests check each one:
//
//   - Durable on return. Put and PutStream write to a temporary file on the
//     same filesystem, fsync it, rename it into place, and fsync the
//     directory it was renamed into, all before they return nil. A file a
//     put acknowledged survives a crash or power loss.
//   - Never partial. A crash at any point leaves under a digest's name
//     either no file or the complete file whose bytes hash to that digest,
//     never a partial or unverified one. PutStream checks the size and the
//     digest before the file takes the name.
//   - Cleaned on start. Temporary files a crash left behind are removed by
//     Open, so they never accumulate.
//   - Bounded reads. PutStream never buffers the body in memory, and never
//     reads more than size+1 bytes from its reader: one byte past the size
//     is enough to know the body is too long.
//   - Concurrency-safe. Every method may be called from any goroutine. Two
//     puts of the same digest at once both succeed, and the name ends up
//     holding the complete file either way; a reader that opened it before
//     keeps reading complete bytes. A file put while Sweep runs is never
//     swept by that Sweep.
//   - One not-found. Stat, Open and Remove report a missing file with an
//     error for which errors.Is(err, fs.ErrNotExist) holds; the HTTP layer
//     maps that, and only that, to 404.
//   - Strict names. Every method that takes a digest rejects anything but
//     "sha256:" and 64 lowercase hex digits with ErrBadDigest, so no name
//     can reach outside the store's directory.
//
// One Store owns its directory: Open MUST NOT be called on a directory that
// another open Store, in this process or another, is using, since Open
// deletes the temporary files of puts in progress.
//
// # Layout
//
// Under the directory given to Open:
//
//	sha256/ab/ab12…ef   a file, in the shard named by its digest's first two hex digits
//	tmp/put-…           a put in progress (or one a crash interrupted)
//
// 256 shards keep 100,000 files at about 400 a directory. The shard
// directories are made, and made durable, by Open, so a put only has to
// fsync the one shard it renames into.
//
// The spec: spec/ledger-protocol.md, "Large data".
package blobs

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Errors a Store returns, wrapped with what was being done; test for them
// with errors.Is. A missing file is fs.ErrNotExist.
var (
	// ErrBadDigest means a digest was not "sha256:" and 64 lowercase hex
	// digits.
	ErrBadDigest = errors.New("blobs: bad digest")
	// ErrSizeMismatch means PutStream's reader gave more or fewer bytes
	// than the size it was told.
	ErrSizeMismatch = errors.New("blobs: size mismatch")
	// ErrDigestMismatch means PutStream's bytes had the right size but
	// hashed to another digest.
	ErrDigestMismatch = errors.New("blobs: digest mismatch")
)

const (
	prefix    = "sha256:"
	hexLen    = 2 * sha256.Size
	digestLen = len(prefix) + hexLen

	filesDir = "sha256"
	tmpDir   = "tmp"
	tmpName  = "put-*"

	// fileMode is the mode of a stored file: nothing ever rewrites one,
	// and only the node's user reads one (sealed files are secret until
	// their bundle opens).
	fileMode fs.FileMode = 0o400
	dirMode  fs.FileMode = 0o700

	copyBuffer = 256 << 10
)

// Store is a content-addressed file store in one directory. Make one with
// Open. See the package documentation for its contract.
type Store struct {
	dir string // absolute

	// mu orders the changes to the set of names: a put's rename into
	// place, Remove, and Sweep's re-check and remove of one file. It is
	// never held while bytes are copied or synced, except the rename's
	// directory sync, which must follow its rename.
	mu sync.Mutex

	bufs sync.Pool // *[]byte of copyBuffer bytes, for PutStream
}

// Open opens the store in dir, making dir and its layout if they are
// missing and making them durable, and removes every temporary file a
// crash left behind.
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("blobs: open %s: %w", dir, err)
	}
	s := &Store{dir: abs}
	s.bufs.New = func() any { b := make([]byte, copyBuffer); return &b }
	if err := s.layout(); err != nil {
		return nil, fmt.Errorf("blobs: open %s: %w", dir, err)
	}
	if err := s.cleanTemp(); err != nil {
		return nil, fmt.Errorf("blobs: open %s: %w", dir, err)
	}
	return s, nil
}

// layout makes the directories the store needs, syncing each parent whose
// entries it changed.
func (s *Store) layout() error {
	files := filepath.Join(s.dir, filesDir)
	if err := mkdirSynced(s.dir, filepath.Join(s.dir, tmpDir)); err != nil {
		return err
	}
	if err := mkdirSynced(s.dir, files); err != nil {
		return err
	}
	made := false
	for i := range 256 {
		shard := filepath.Join(files, fmt.Sprintf("%02x", i))
		switch err := os.Mkdir(shard, dirMode); {
		case err == nil:
			made = true
		case errors.Is(err, fs.ErrExist):
		default:
			return err
		}
	}
	if made {
		return syncDir(files)
	}
	return nil
}

// mkdirSynced makes dir (and parent, if missing) and, if it made dir,
// syncs parent so the new entry is durable.
func mkdirSynced(parent, dir string) error {
	if err := os.MkdirAll(parent, dirMode); err != nil {
		return err
	}
	switch err := os.Mkdir(dir, dirMode); {
	case err == nil:
		return syncDir(parent)
	case errors.Is(err, fs.ErrExist):
		return nil
	default:
		return err
	}
}

// cleanTemp removes everything under tmp/: no put is in progress before
// Open returns.
func (s *Store) cleanTemp() error {
	tmp := filepath.Join(s.dir, tmpDir)
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(tmp, e.Name())); err != nil {
			return fmt.Errorf("removing a leftover temporary file: %w", err)
		}
	}
	return nil
}

// Dir is the absolute path of the store's directory.
func (s *Store) Dir() string { return s.dir }

// Digest is the digest a Store names data by: "sha256:" and the lowercase
// hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return prefix + hex.EncodeToString(sum[:])
}

// ValidDigest reports whether d is "sha256:" followed by exactly 64
// lowercase hex digits, the only names a Store accepts.
func ValidDigest(d string) bool {
	if len(d) != digestLen || !strings.HasPrefix(d, prefix) {
		return false
	}
	for i := len(prefix); i < len(d); i++ {
		if c := d[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// path is where the file named d lives, or ErrBadDigest.
func (s *Store) path(d string) (string, error) {
	if !ValidDigest(d) {
		return "", fmt.Errorf("%w: %.80q", ErrBadDigest, d)
	}
	h := d[len(prefix):]
	return filepath.Join(s.dir, filesDir, h[:2], h), nil
}

// Put stores data and returns its digest. It is durable when Put returns
// nil. Putting data the store already holds succeeds and leaves one file.
func (s *Store) Put(data []byte) (string, error) {
	d := Digest(data)
	dst, _ := s.path(d)
	f, err := s.createTemp()
	if err != nil {
		return "", fmt.Errorf("blobs: put %s: %w", d, err)
	}
	if _, err := f.Write(data); err != nil {
		discard(f)
		return "", fmt.Errorf("blobs: put %s: %w", d, err)
	}
	if err := s.commit(f, dst); err != nil {
		return "", fmt.Errorf("blobs: put %s: %w", d, err)
	}
	return d, nil
}

// PutStream stores the size bytes r gives under digest, streaming them to
// disk while hashing them, and is durable when it returns nil. It fails,
// storing nothing, with ErrSizeMismatch if r gives fewer or more than size
// bytes (it reads at most size+1), with ErrDigestMismatch if the bytes
// hash to another digest, with ErrBadDigest for a malformed digest, or
// with r's own error. Reading r until it ends is the caller's proof of
// length: an io.Reader that never ends is cut off at size+1 bytes.
func (s *Store) PutStream(r io.Reader, digest string, size int64) error {
	dst, err := s.path(digest)
	if err != nil {
		return fmt.Errorf("blobs: put: %w", err)
	}
	if size < 0 {
		return fmt.Errorf("blobs: put %s: %w: negative size %d", digest, ErrSizeMismatch, size)
	}
	f, err := s.createTemp()
	if err != nil {
		return fmt.Errorf("blobs: put %s: %w", digest, err)
	}
	if err := s.fill(f, r, digest, size); err != nil {
		discard(f)
		return fmt.Errorf("blobs: put %s: %w", digest, err)
	}
	if err := s.commit(f, dst); err != nil {
		return fmt.Errorf("blobs: put %s: %w", digest, err)
	}
	return nil
}

// fill copies at most size+1 bytes of r into f, hashing them, and checks
// the count and the digest.
func (s *Store) fill(f *os.File, r io.Reader, digest string, size int64) error {
	h := sha256.New()
	bp := s.bufs.Get().(*[]byte)
	defer s.bufs.Put(bp)
	n, err := io.CopyBuffer(hashingWriter{f, h}, &io.LimitedReader{R: r, N: size + 1}, *bp)
	if err != nil {
		return err
	}
	switch {
	case n > size:
		return fmt.Errorf("%w: more than the %d bytes declared", ErrSizeMismatch, size)
	case n < size:
		return fmt.Errorf("%w: %d bytes, not the %d declared", ErrSizeMismatch, n, size)
	}
	if got := prefix + hex.EncodeToString(h.Sum(nil)); got != digest {
		return fmt.Errorf("%w: the bytes hash to %s", ErrDigestMismatch, got)
	}
	return nil
}

// hashingWriter writes to the file and the hash together; unlike
// io.MultiWriter it is not an io.ReaderFrom, so io.CopyBuffer uses the
// pooled buffer.
type hashingWriter struct {
	f *os.File
	h hash.Hash
}

func (w hashingWriter) Write(p []byte) (int, error) {
	w.h.Write(p) // never fails
	return w.f.Write(p)
}

// createTemp makes a new temporary file under tmp/.
func (s *Store) createTemp() (*os.File, error) {
	return os.CreateTemp(filepath.Join(s.dir, tmpDir), tmpName)
}

// commit makes the complete temporary file f durable and renames it to dst,
// then makes the rename durable. f is closed, and removed unless renamed.
func (s *Store) commit(f *os.File, dst string) error {
	if err := f.Chmod(fileMode); err != nil {
		discard(f)
		return err
	}
	if err := f.Sync(); err != nil {
		discard(f)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.Rename(f.Name(), dst); err != nil {
		os.Remove(f.Name())
		return err
	}
	return syncDir(filepath.Dir(dst))
}

// discard closes and removes a temporary file that will not be committed.
func discard(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// Has reports whether the store holds the file named digest. A malformed
// digest is never held.
func (s *Store) Has(digest string) bool {
	p, err := s.path(digest)
	if err != nil {
		return false
	}
	_, err = os.Lstat(p)
	return err == nil
}

// Stat returns the size and modification time (when it was last put) of
// the file named digest.
func (s *Store) Stat(digest string) (size int64, modTime time.Time, err error) {
	p, err := s.path(digest)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("blobs: stat: %w", err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("blobs: stat %s: %w", digest, err)
	}
	return fi.Size(), fi.ModTime(), nil
}

// Open opens the file named digest for reading; the caller closes it. The
// *os.File is an io.ReadSeeker, so http.ServeContent can serve ranges of
// it. An open file keeps its complete bytes even if the name is removed or
// put again meanwhile.
func (s *Store) Open(digest string) (*os.File, error) {
	p, err := s.path(digest)
	if err != nil {
		return nil, fmt.Errorf("blobs: open: %w", err)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("blobs: open %s: %w", digest, err)
	}
	return f, nil
}

// Remove deletes the file named digest, durably. Removing a file the store
// doesn't hold returns an error wrapping fs.ErrNotExist.
func (s *Store) Remove(digest string) error {
	p, err := s.path(digest)
	if err != nil {
		return fmt.Errorf("blobs: remove: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("blobs: remove %s: %w", digest, err)
	}
	if err := syncDir(filepath.Dir(p)); err != nil {
		return fmt.Errorf("blobs: remove %s: %w", digest, err)
	}
	return nil
}

// Sweep removes every file last put before olderThan for which keep
// returns false, and returns how many it removed. A nil keep keeps
// nothing. keep is called without any lock held, so it may be slow (a
// database query); a file put again after keep was asked is not removed.
// Files in the shards whose names are not digests are left alone. Sweep
// stops at the first error, reporting what it removed before it.
//
// The node runs it with olderThan 7 days ago and keep reporting whether a
// submitted bundle uses the digest.
func (s *Store) Sweep(olderThan time.Time, keep func(digest string) bool) (removed int, err error) {
	files := filepath.Join(s.dir, filesDir)
	for i := range 256 {
		shard := filepath.Join(files, fmt.Sprintf("%02x", i))
		n, err := s.sweepShard(shard, olderThan, keep)
		removed += n
		if err != nil {
			return removed, fmt.Errorf("blobs: sweep: %w", err)
		}
	}
	return removed, nil
}

func (s *Store) sweepShard(shard string, olderThan time.Time, keep func(string) bool) (int, error) {
	entries, err := os.ReadDir(shard)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, e := range entries {
		name := e.Name()
		d := prefix + name
		if !ValidDigest(d) || name[:2] != filepath.Base(shard) {
			continue
		}
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		} else if err != nil {
			return removed, err
		}
		if !fi.ModTime().Before(olderThan) || (keep != nil && keep(d)) {
			continue
		}
		ok, err := s.removeIfOlder(filepath.Join(shard, name), olderThan)
		if err != nil {
			return removed, err
		}
		if ok {
			removed++
		}
	}
	if removed > 0 {
		return removed, syncDir(shard)
	}
	return removed, nil
}

// removeIfOlder removes p if it is still older than olderThan, checked
// under the lock a put's rename takes, so a put that lands after keep was
// asked is never swept.
func (s *Store) removeIfOlder(p string, olderThan time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if !fi.ModTime().Before(olderThan) {
		return false, nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, nil
}

// syncDir fsyncs a directory, making the entries made or removed in it
// durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
