package bundle

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFiles(t *testing.T, files map[string]int) string {
	t.Helper()
	dir := t.TempDir()
	for p, size := range files {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, bytes.Repeat([]byte{byte(len(p))}, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPlanDir checks which files go ahead: every data/ file over 8 MB, then
// the largest data/ files until the rest fits a submission; never a file
// outside data/, and never the signature.
func TestPlanDir(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]int
		uploads []string
	}{
		{"all inline", map[string]int{"paper.md": 1000, "data/a.csv": 4 << 20, "signature": 100}, nil},
		{"over 8 MB", map[string]int{"paper.md": 1000, "data/big.bin": 9 << 20, "data/small.csv": 1000}, []string{"data/big.bin"}},
		{"largest until it fits", map[string]int{"paper.md": 1000, "data/a.csv": 4 << 20, "data/b.csv": 3 << 20, "data/c.csv": 3 << 20, "data/d.csv": 1 << 20},
			[]string{"data/a.csv"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := PlanDir(writeFiles(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var inline int64
			for _, u := range plan.Uploads {
				got = append(got, u.Path)
				if u.Size != int64(tc.files[u.Path]) || !isDigest(u.Digest) {
					t.Errorf("upload %+v", u)
				}
			}
			if !slices.Equal(got, tc.uploads) {
				t.Errorf("uploads %v, want %v", got, tc.uploads)
			}
			if _, ok := plan.Inline[SignatureFile]; ok {
				t.Error("the signature file was planned")
			}
			for p, data := range plan.Inline {
				inline += int64(len(data))
				if len(data) != tc.files[p] {
					t.Errorf("%s: %d bytes, want %d", p, len(data), tc.files[p])
				}
			}
			if inline > MaxBytes-signatureRoom {
				t.Errorf("%d bytes inline", inline)
			}
			d, err := DigestWithUploads(plan.Inline, plan.Uploaded())
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Files) != len(plan.Inline)+len(plan.Uploads) {
				t.Errorf("digests of %d files", len(d.Files))
			}
		})
	}
	_, err := PlanDir(writeFiles(t, map[string]int{"code/huge.bin": 11 << 20}))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("11 MB outside data/: %v", err)
	}
}
