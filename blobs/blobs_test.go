package blobs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t testing.TB) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func random(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// leftovers lists the temporary files under tmp/.
func leftovers(t testing.TB, s *Store) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(s.Dir(), tmpDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// readAll reads the file named d back through Open.
func readAll(t testing.TB, s *Store, d string) []byte {
	t.Helper()
	f, err := s.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	s := open(t)
	for _, n := range []int{0, 1, 12_800, copyBuffer + 17} {
		data := random(uint64(n), n)
		d, err := s.Put(data)
		if err != nil {
			t.Fatalf("Put(%d bytes): %v", n, err)
		}
		if d != Digest(data) {
			t.Fatalf("Put returned %s, want %s", d, Digest(data))
		}
		if !s.Has(d) {
			t.Fatalf("Has(%s) = false after Put", d)
		}
		size, mod, err := s.Stat(d)
		if err != nil || size != int64(n) || time.Since(mod) > time.Minute {
			t.Fatalf("Stat = %d, %v, %v; want %d, about now", size, mod, err, n)
		}
		if got := readAll(t, s, d); !bytes.Equal(got, data) {
			t.Fatalf("read back %d bytes that differ from the %d put", len(got), n)
		}
		// Idempotent: putting it again, either way, leaves the same file.
		if d2, err := s.Put(data); err != nil || d2 != d {
			t.Fatalf("second Put = %s, %v", d2, err)
		}
		if err := s.PutStream(bytes.NewReader(data), d, int64(n)); err != nil {
			t.Fatalf("PutStream of a held file: %v", err)
		}
		if got := readAll(t, s, d); !bytes.Equal(got, data) {
			t.Fatal("content changed after putting it again")
		}
	}
	// PutStream of new content, through a reader that returns little at a
	// time.
	data := random(99, 3*copyBuffer+5)
	d := Digest(data)
	if err := s.PutStream(io.MultiReader(bytes.NewReader(data[:3]), bytes.NewReader(data[3:])), d, int64(len(data))); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, d); !bytes.Equal(got, data) {
		t.Fatal("PutStream stored other bytes")
	}
	// Stored files are read-only and nothing is left in tmp/.
	p, _ := s.path(d)
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != fileMode {
		t.Errorf("stored file mode = %v, %v; want %v", fi.Mode().Perm(), err, fileMode)
	}
	if l := leftovers(t, s); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
	// Reopening finds everything.
	s2, err := Open(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s2, d); !bytes.Equal(got, data) {
		t.Fatal("reopened store reads other bytes")
	}
}

func TestPutStreamMismatch(t *testing.T) {
	data := random(1, 4096)
	d := Digest(data)
	other := random(2, 4096)
	readErr := errors.New("connection reset")
	tests := []struct {
		name string
		r    io.Reader
		size int64
		want error
	}{
		{"short", bytes.NewReader(data[:4095]), 4096, ErrSizeMismatch},
		{"empty", bytes.NewReader(nil), 4096, ErrSizeMismatch},
		{"long", io.MultiReader(bytes.NewReader(data), strings.NewReader("x")), 4096, ErrSizeMismatch},
		{"declared short", bytes.NewReader(data), 4095, ErrSizeMismatch},
		{"wrong bytes", bytes.NewReader(other), 4096, ErrDigestMismatch},
		{"one byte flipped", bytes.NewReader(append(append([]byte{}, data[:4095]...), data[4095]^1)), 4096, ErrDigestMismatch},
		{"negative size", bytes.NewReader(data), -1, ErrSizeMismatch},
		{"reader fails", io.MultiReader(bytes.NewReader(data[:100]), iotestErr{readErr}), 4096, readErr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			err := s.PutStream(tt.r, d, tt.size)
			if !errors.Is(err, tt.want) {
				t.Fatalf("PutStream = %v, want %v", err, tt.want)
			}
			if s.Has(d) {
				t.Error("a failed PutStream left a file under the digest")
			}
			if l := leftovers(t, s); len(l) != 0 {
				t.Errorf("a failed PutStream left temporary files: %v", l)
			}
			// The same digest can still be put afterwards.
			if err := s.PutStream(bytes.NewReader(data), d, 4096); err != nil {
				t.Fatalf("PutStream after a failure: %v", err)
			}
		})
	}
}

type iotestErr struct{ err error }

func (r iotestErr) Read([]byte) (int, error) { return 0, r.err }

// endless gives zero bytes forever, counting how many it gave.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	clear(p)
	r.n += int64(len(p))
	return len(p), nil
}

func TestPutStreamCutsOffAtSizePlusOne(t *testing.T) {
	s := open(t)
	const size = 10*copyBuffer + 3
	r := &endless{}
	err := s.PutStream(r, Digest(make([]byte, size)), size)
	if !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("PutStream of an endless body = %v, want ErrSizeMismatch", err)
	}
	if r.n != size+1 {
		t.Errorf("read %d bytes of an endless body, want exactly size+1 = %d", r.n, size+1)
	}
}

func TestConcurrentPuts(t *testing.T) {
	s := open(t)
	same := random(7, 200_000)
	d := Digest(same)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, 3*n)
	readers := make(chan *os.File, n)
	for i := range n {
		wg.Add(3)
		go func() { // the same digest, streamed
			defer wg.Done()
			errs <- s.PutStream(bytes.NewReader(same), d, int64(len(same)))
		}()
		go func() { // the same bytes, put whole
			defer wg.Done()
			_, err := s.Put(same)
			errs <- err
		}()
		go func() { // other files, and readers of the shared one
			defer wg.Done()
			_, err := s.Put(random(uint64(100+i), 1000))
			errs <- err
			if f, err := s.Open(d); err == nil {
				readers <- f
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(readers)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := readAll(t, s, d); !bytes.Equal(got, same) {
		t.Error("after concurrent puts the file differs")
	}
	// A reader that opened the file while it was being put again reads it
	// complete.
	for f := range readers {
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || !bytes.Equal(b, same) {
			t.Errorf("a concurrent reader read %d bytes, %v", len(b), err)
		}
	}
	for i := range n {
		if !s.Has(Digest(random(uint64(100+i), 1000))) {
			t.Errorf("file %d missing", i)
		}
	}
	if l := leftovers(t, s); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
}

func TestOpenRemovesLeftovers(t *testing.T) {
	s := open(t)
	d, err := s.Put([]byte("kept"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(s.Dir(), tmpDir)
	for _, name := range []string{"put-123", "put-456", "stray"} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(tmp, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if l := leftovers(t, s2); len(l) != 0 {
		t.Errorf("Open left %v in tmp/", l)
	}
	if !s2.Has(d) {
		t.Error("Open removed a stored file")
	}
}

func TestOpenMakesLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, shard := range []string{"00", "7f", "ff"} {
		if fi, err := os.Stat(filepath.Join(dir, filesDir, shard)); err != nil || !fi.IsDir() {
			t.Errorf("shard %s: %v", shard, err)
		}
	}
	d, err := s.Put([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	h := strings.TrimPrefix(d, prefix)
	if _, err := os.Stat(filepath.Join(dir, filesDir, h[:2], h)); err != nil {
		t.Errorf("file not at sha256/%s/%s: %v", h[:2], h, err)
	}
	// Open on a file, not a directory, fails.
	if _, err := Open(filepath.Join(dir, filesDir, h[:2], h)); err == nil {
		t.Error("Open on a regular file succeeded")
	}
}

func TestRemove(t *testing.T) {
	s := open(t)
	d, err := s.Put([]byte("gone soon"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := s.Remove(d); err != nil {
		t.Fatal(err)
	}
	if s.Has(d) {
		t.Error("Has after Remove")
	}
	// An open file still reads complete.
	if b, err := io.ReadAll(f); err != nil || string(b) != "gone soon" {
		t.Errorf("an open file after Remove reads %q, %v", b, err)
	}
	// One not-found: fs.ErrNotExist from Stat, Open and Remove.
	if err := s.Remove(d); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove of a missing file = %v, want fs.ErrNotExist", err)
	}
	if _, _, err := s.Stat(d); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing file = %v, want fs.ErrNotExist", err)
	}
	if _, err := s.Open(d); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file = %v, want fs.ErrNotExist", err)
	}
}

func TestSweep(t *testing.T) {
	s := open(t)
	now := time.Now()
	week := 7 * 24 * time.Hour
	old := map[string]bool{}   // digest -> used by a bundle
	fresh := map[string]bool{} // digests put within the week
	for i := range 20 {
		d, err := s.Put(random(uint64(i), 100))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			p, _ := s.path(d)
			at := now.Add(-week - time.Duration(i+1)*time.Hour)
			if err := os.Chtimes(p, at, at); err != nil {
				t.Fatal(err)
			}
			old[d] = i%4 == 0
		} else {
			fresh[d] = true
		}
	}
	// Files in a shard whose names aren't digests are never touched.
	stray := filepath.Join(s.Dir(), filesDir, "ab", "notes.txt")
	if err := os.WriteFile(stray, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	past := now.Add(-2 * week)
	if err := os.Chtimes(stray, past, past); err != nil {
		t.Fatal(err)
	}

	var asked []string
	removed, err := s.Sweep(now.Add(-week), func(d string) bool {
		asked = append(asked, d)
		return old[d]
	})
	if err != nil {
		t.Fatal(err)
	}
	if removed != 5 {
		t.Errorf("Sweep removed %d, want 5 (old and unused)", removed)
	}
	if len(asked) != len(old) {
		t.Errorf("keep asked about %d files, want only the %d old ones", len(asked), len(old))
	}
	for d, used := range old {
		if s.Has(d) != used {
			t.Errorf("old file %s used=%v: Has = %v", d, used, s.Has(d))
		}
	}
	for d := range fresh {
		if !s.Has(d) {
			t.Errorf("fresh file %s swept", d)
		}
	}
	if _, err := os.Stat(stray); err != nil {
		t.Errorf("Sweep touched a file that isn't a digest: %v", err)
	}

	// A file put again after keep was asked survives, and its new time
	// counts: the re-check under the lock sees it.
	var target string
	for d, used := range old {
		if used {
			target = d
		}
	}
	removed, err = s.Sweep(now.Add(-week), func(d string) bool {
		if d == target {
			p, _ := s.path(d)
			if err := os.Chtimes(p, now, now); err != nil { // as a put would
				t.Error(err)
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if removed != 4 || !s.Has(target) {
		t.Errorf("Sweep removed %d, target held=%v; want the 4 other used ones and the refreshed file kept", removed, s.Has(target))
	}

	// nil keep keeps nothing.
	removed, err = s.Sweep(now.Add(time.Hour), nil)
	if err != nil || removed != len(fresh)+1 {
		t.Errorf("Sweep(nil) = %d, %v; want %d", removed, err, len(fresh)+1)
	}
}

var badDigests = []string{
	"",
	"sha256:",
	"sha256",
	strings.Repeat("a", 64),
	"sha256:" + strings.Repeat("a", 63),
	"sha256:" + strings.Repeat("a", 65),
	"sha256:" + strings.Repeat("A", 64),
	"SHA256:" + strings.Repeat("a", 64),
	"sha512:" + strings.Repeat("a", 64),
	"sha256:" + strings.Repeat("g", 64),
	"sha256:../../../../../../etc/passwd" + strings.Repeat("a", 29),
	"sha256:" + strings.Repeat("a", 30) + "/" + strings.Repeat("a", 33),
	"sha256:" + strings.Repeat("a", 30) + "\x00" + strings.Repeat("a", 33),
	"sha256:" + strings.Repeat("a", 62) + "..",
	" sha256:" + strings.Repeat("a", 64),
	"sha256:" + strings.Repeat("a", 64) + "\n",
}

func TestBadDigests(t *testing.T) {
	s := open(t)
	for _, d := range badDigests {
		if ValidDigest(d) {
			t.Errorf("ValidDigest(%q) = true", d)
		}
		if s.Has(d) {
			t.Errorf("Has(%q) = true", d)
		}
		if err := s.PutStream(strings.NewReader("x"), d, 1); !errors.Is(err, ErrBadDigest) {
			t.Errorf("PutStream(%q) = %v", d, err)
		}
		if _, _, err := s.Stat(d); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Stat(%q) = %v", d, err)
		}
		if _, err := s.Open(d); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Open(%q) = %v", d, err)
		}
		if err := s.Remove(d); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Remove(%q) = %v", d, err)
		}
	}
	if l := leftovers(t, s); len(l) != 0 {
		t.Errorf("temporary files left: %v", l)
	}
	if !ValidDigest(Digest(nil)) {
		t.Error("ValidDigest rejects Digest(nil)")
	}
}

// FuzzValidDigest: a digest is accepted exactly when it is "sha256:" and 64
// lowercase hex digits, and an accepted one always lands in its shard,
// inside the store.
func FuzzValidDigest(f *testing.F) {
	for _, d := range badDigests {
		f.Add(d)
	}
	f.Add(Digest([]byte("hello")))
	root := filepath.Join(string(filepath.Separator)+"store", "x")
	s := &Store{dir: root}
	f.Fuzz(func(t *testing.T, d string) {
		ok := ValidDigest(d)
		h, isPrefixed := strings.CutPrefix(d, prefix)
		raw, err := hex.DecodeString(h)
		want := isPrefixed && err == nil && len(raw) == sha256.Size && hex.EncodeToString(raw) == h
		if ok != want {
			t.Fatalf("ValidDigest(%q) = %v, want %v", d, ok, want)
		}
		p, err := s.path(d)
		if ok != (err == nil) {
			t.Fatalf("path(%q) err = %v, valid = %v", d, err, ok)
		}
		if ok && p != filepath.Join(root, filesDir, h[:2], h) {
			t.Fatalf("path(%q) = %s, outside its shard", d, p)
		}
	})
}

func Example() {
	dir, _ := os.MkdirTemp("", "blobs-example")
	defer os.RemoveAll(dir)
	s, _ := Open(dir)

	d, _ := s.Put([]byte("hello, ledger\n"))
	fmt.Println(d)

	err := s.PutStream(strings.NewReader("hello, ledger!\n"), d, 14)
	fmt.Println(errors.Is(err, ErrSizeMismatch))
	err = s.PutStream(strings.NewReader("hello, ledgeR\n"), d, 14)
	fmt.Println(errors.Is(err, ErrDigestMismatch))
	// Output:
	// sha256:ef00affcdca5ad07841b2e6cb7dd71be842ddba9027fa3a5132d5a9fc9b54683
	// true
	// true
}
