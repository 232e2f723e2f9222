package translog

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/tlog"
)

// readChunk is how much of the tree-head file is read at a time (a record
// is about 5.5 KB). Tests lower it to exercise records spanning chunks.
var readChunk = 8192

// A published is one published tree size: its signed tree head and its
// signed checkpoint, whose size and root are the head's.
type published struct {
	head       tlog.TreeHead
	checkpoint []byte
}

// A recordFile is an append-only file of records, one canonical JSON line
// each, in strictly increasing order of the size sizeOf gives them (see the
// package doc). The tree-head file and the cosignature file are two.
//
// Contract: append is durable once it returns nil (the record is written
// and fsynced); when it returns an error the file is as it was before the
// call, or the store is broken and refuses every later append. find and
// latest are safe to call concurrently with each other and with append.
type recordFile[T any] struct {
	path   string
	what   string // the file's name in errors, such as "tree-head file"
	parse  func(line []byte) (T, error)
	format func(T) ([]byte, error) // one line, newline-terminated
	sizeOf func(T) uint64
	// replaces allows a record of the last record's size, which then
	// stands for it: find returns the last record of a size.
	replaces bool

	// mu guards every field below and serializes appends.
	mu     sync.Mutex
	f      *os.File // opened O_RDWR|O_APPEND; ReadAt for lookups
	end    int64    // length of the valid records, all newline-terminated
	last   *T       // the record ending at end; nil while empty
	broken error    // set when a failed append could not be undone
	closed bool

	// sync flushes the file; tests replace it to inject faults.
	sync func(*os.File) error
}

// headStore keeps every published tree head and checkpoint.
type headStore = recordFile[published]

// openHeads opens the tree-head file at path, creating it if needed, and
// cuts off an unterminated last line left by a crash: it was never
// acknowledged.
func openHeads(path string) (*headStore, error) {
	return openRecords(path, "tree-head file", parseRecord, formatRecord,
		func(p published) uint64 { return p.head.Size })
}

// openRecords opens a record file at path, creating it if needed, and cuts
// off an unterminated last line left by a crash: it was never acknowledged.
func openRecords[T any](path, what string, parse func([]byte) (T, error), format func(T) ([]byte, error), sizeOf func(T) uint64) (*recordFile[T], error) {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("translog: opening the %s: %w", what, err)
	}
	s := &recordFile[T]{path: path, what: what, parse: parse, format: format, sizeOf: sizeOf, f: f, sync: (*os.File).Sync}
	if errors.Is(statErr, os.ErrNotExist) {
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, err
		}
	}
	if err := s.recover(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// recover finds the end of the last complete record, truncates anything
// after it, and reads that record.
func (s *recordFile[T]) recover() error {
	info, err := s.f.Stat()
	if err != nil {
		return fmt.Errorf("translog: %s: %w", s.what, err)
	}
	size := info.Size()
	end, err := s.lastNewline(size)
	if err != nil {
		return err
	}
	if end < size {
		if err := s.f.Truncate(end); err != nil {
			return fmt.Errorf("translog: cutting the torn tail of the %s: %w", s.what, err)
		}
		if err := s.sync(s.f); err != nil {
			return fmt.Errorf("translog: %s: %w", s.what, err)
		}
	}
	s.end = end
	if end == 0 {
		return nil
	}
	start, err := s.lastNewline(end - 1)
	if err != nil {
		return err
	}
	rec, _, err := s.recordAt(start, end)
	if err != nil {
		return err
	}
	s.last = &rec
	return nil
}

// lastNewline returns the offset just after the last '\n' before offset
// before, or 0 if there is none.
func (s *recordFile[T]) lastNewline(before int64) (int64, error) {
	buf := make([]byte, readChunk)
	for before > 0 {
		n := min(int64(len(buf)), before)
		chunk := buf[:n]
		if _, err := s.f.ReadAt(chunk, before-n); err != nil {
			return 0, fmt.Errorf("translog: reading the %s: %w", s.what, err)
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return before - n + int64(i) + 1, nil
		}
		before -= n
	}
	return 0, nil
}

// nextStart returns the offset of the first record starting at or after
// p, or end if there is none. Records start at 0 and after each '\n'.
func (s *recordFile[T]) nextStart(p, end int64) (int64, error) {
	if p == 0 {
		return 0, nil
	}
	buf := make([]byte, readChunk)
	for q := p - 1; q < end; {
		n := min(int64(len(buf)), end-q)
		chunk := buf[:n]
		if _, err := s.f.ReadAt(chunk, q); err != nil {
			return 0, fmt.Errorf("translog: reading the %s: %w", s.what, err)
		}
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			return q + int64(i) + 1, nil
		}
		q += n
	}
	return end, nil
}

// recordAt reads and parses the record starting at start, which must
// start a record below end, and returns the offset after it.
func (s *recordFile[T]) recordAt(start, end int64) (T, int64, error) {
	var line []byte
	buf := make([]byte, readChunk)
	for q := start; ; {
		if q >= end {
			var zero T
			return zero, 0, corrupt("%s: the record at offset %d has no end", s.what, start)
		}
		n := min(int64(len(buf)), end-q)
		chunk := buf[:n]
		if _, err := s.f.ReadAt(chunk, q); err != nil && !errors.Is(err, io.EOF) {
			var zero T
			return zero, 0, fmt.Errorf("translog: reading the %s: %w", s.what, err)
		}
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			line = append(line, chunk[:i]...)
			rec, err := s.parse(line)
			if err != nil {
				var zero T
				return zero, 0, corrupt("%s, record at offset %d: %w", s.what, start, err)
			}
			return rec, q + int64(i) + 1, nil
		}
		line = append(line, chunk...)
		q += n
	}
}

// record is how a published size is written in the tree-head file.
type record struct {
	Checkpoint string          `json:"checkpoint"`
	TreeHead   json.RawMessage `json:"tree_head"`
}

func formatRecord(p published) ([]byte, error) {
	line, err := canonical.Marshal(map[string]any{
		"checkpoint": string(p.checkpoint),
		"tree_head":  p.head.Object(),
	})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// parseRecord reads one line of the tree-head file and checks that its
// checkpoint and tree head describe the same tree.
func parseRecord(line []byte) (published, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var r record
	if err := dec.Decode(&r); err != nil {
		return published{}, err
	}
	head, err := tlog.ParseTreeHead(r.TreeHead)
	if err != nil {
		return published{}, err
	}
	cp, err := tlog.ParseCheckpoint([]byte(r.Checkpoint))
	if err != nil {
		return published{}, err
	}
	if cp.Size != head.Size || cp.Root != head.Root {
		return published{}, fmt.Errorf("its checkpoint (%d, %s) and tree head (%d, %s) differ", cp.Size, cp.Root, head.Size, head.Root)
	}
	return published{head: head, checkpoint: []byte(r.Checkpoint)}, nil
}

// latest returns the last record, or false while the store is empty.
func (s *recordFile[T]) latest() (T, bool) { return lastUnder(&s.mu, &s.last) }

// lastUnder returns *last read under mu, or false if it is nil.
func lastUnder[T any](mu *sync.Mutex, last **T) (T, bool) {
	mu.Lock()
	defer mu.Unlock()
	if *last == nil {
		var zero T
		return zero, false
	}
	return **last, true
}

// append writes p after the last record and fsyncs it. p's size must be
// larger than the last record's, or equal to it if s.replaces.
func (s *recordFile[T]) append(p T) error {
	line, err := s.format(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return fmt.Errorf("translog: %s: %w", s.what, ErrClosed)
	case s.broken != nil:
		return s.broken
	case s.last != nil && (s.sizeOf(p) < s.sizeOf(*s.last) || s.sizeOf(p) == s.sizeOf(*s.last) && !s.replaces):
		return fmt.Errorf("translog: %s: a record of size %d after one of %d", s.what, s.sizeOf(p), s.sizeOf(*s.last))
	}
	_, err = s.f.Write(line)
	if err == nil {
		err = s.sync(s.f)
	}
	if err != nil {
		// Fail, and make sure nothing persisted: the record may be
		// partly or wholly on disk, and nothing was acknowledged.
		if terr := s.f.Truncate(s.end); terr != nil {
			s.broken = corrupt("%s: a failed write (%v) could not be undone: %w", s.what, err, terr)
		} else if serr := s.sync(s.f); serr != nil {
			s.broken = corrupt("%s: a failed write (%v) could not be undone: %w", s.what, err, serr)
		}
		return fmt.Errorf("translog: writing the %s: %w", s.what, err)
	}
	s.end += int64(len(line))
	s.last = &p
	return nil
}

func (s *recordFile[T]) name() string { return s.path }

// refresh does nothing: only this process writes the file (it holds the
// folder's flock).
func (s *recordFile[T]) refresh() error { return nil }

// brokenErr returns why the store refuses appends for good, or nil.
func (s *recordFile[T]) brokenErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.broken
}

// find returns the record of size size (the last one, if s.replaces);
// ErrNotFound if there is none.
func (s *recordFile[T]) find(size uint64) (T, error) {
	var zero T
	var found *T
	s.mu.Lock()
	end, last, closed := s.end, s.last, s.closed
	s.mu.Unlock()
	if closed {
		return zero, fmt.Errorf("translog: %s: %w", s.what, ErrClosed)
	}
	if last == nil || size > s.sizeOf(*last) {
		return zero, notFound("%s: no record of size %d", s.what, size)
	}
	if size == s.sizeOf(*last) {
		return *last, nil
	}
	// Binary search over byte offsets: records are sorted by size.
	lo, hi := int64(0), end
	for lo < hi {
		mid := lo + (hi-lo)/2
		start, err := s.nextStart(mid, hi)
		if err != nil {
			return zero, err
		}
		if start >= hi {
			hi = mid
			continue
		}
		rec, next, err := s.recordAt(start, end)
		if err != nil {
			return zero, err
		}
		switch n := s.sizeOf(rec); {
		case n == size && !s.replaces:
			return rec, nil
		case n <= size:
			if n == size {
				found = &rec // a later one of this size may follow
			}
			lo = next
		default:
			hi = start
		}
	}
	if found != nil {
		return *found, nil
	}
	return zero, notFound("%s: no record of size %d", s.what, size)
}

// lastWhere returns the last record for which ok holds, looking back at
// most limit records; false if there is none among them.
func (s *recordFile[T]) lastWhere(limit int, ok func(T) bool) (T, bool, error) {
	var zero T
	s.mu.Lock()
	end := s.end
	s.mu.Unlock()
	for ; end > 0 && limit > 0; limit-- {
		start, err := s.lastNewline(end - 1)
		if err != nil {
			return zero, false, err
		}
		rec, _, err := s.recordAt(start, end)
		if err != nil {
			return zero, false, err
		}
		if ok(rec) {
			return rec, true, nil
		}
		end = start
	}
	return zero, false, nil
}

// each calls fn with every record in order, stopping at its first error.
func (s *recordFile[T]) each(fn func(T) error) error {
	s.mu.Lock()
	end := s.end
	s.mu.Unlock()
	for off := int64(0); off < end; {
		rec, next, err := s.recordAt(off, end)
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
		off = next
	}
	return nil
}

func (s *recordFile[T]) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.f.Close()
}

// syncDir flushes a directory, so a file created in it stays.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("translog: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("translog: flushing %s: %w", dir, err)
	}
	return nil
}

// noteWithSignature returns the signed note Tessera writes: the text, a
// blank line, and the signer's line (c2sp.org/signed-note).
func noteWithSignature(text []byte, s *tlog.CheckpointSigner, sig []byte) []byte {
	keySig := binary.BigEndian.AppendUint32(nil, s.KeyHash())
	keySig = append(keySig, sig...)
	var b bytes.Buffer
	b.Write(text)
	b.WriteString("\n— ")
	b.WriteString(s.Name())
	b.WriteString(" ")
	b.WriteString(base64.StdEncoding.EncodeToString(keySig))
	b.WriteString("\n")
	return b.Bytes()
}
