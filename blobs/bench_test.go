package blobs

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkPut12KB puts distinct 12.8 KB files, the size of a typical
// bundle file: each put is two fsyncs (the file and its shard).
func BenchmarkPut12KB(b *testing.B) {
	s := open(b)
	data := random(1, 12_800)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		data[0], data[1], data[2], data[3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
		if _, err := s.Put(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPutStream64MB streams a 64 MB upload: hash, write, fsync,
// rename.
func BenchmarkPutStream64MB(b *testing.B) {
	s := open(b)
	data := random(2, 64<<20)
	d := Digest(data)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if err := s.PutStream(bytes.NewReader(data), d, int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead64MB reads a stored 64 MB file back through Open, as
// http.ServeContent would (from the page cache once warm).
func BenchmarkRead64MB(b *testing.B) {
	s := open(b)
	data := random(3, 64<<20)
	d, err := s.Put(data)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 256<<10)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		f, err := s.Open(d)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
