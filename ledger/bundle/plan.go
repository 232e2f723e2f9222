package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Large data. A submission carries at most MaxBytes; a data/ file over
// UploadAbove, and as many of the largest other data/ files as it takes for
// the rest to fit, are sent ahead through uploads and named in the
// submission by digest ("Large data").

// UploadAbove is the size past which a data/ file is always sent ahead.
const UploadAbove = 8 << 20

// signatureRoom is what PlanDir keeps free in a submission for the
// signature file, which is written after the plan.
const signatureRoom = 8 << 10

// Upload is a file to send ahead of its bundle.
type Upload struct {
	Path   string
	Size   int64
	Digest string // "sha256:" and the hex SHA-256 of its bytes
}

// Plan is a bundle folder split into what a submission carries and what is
// uploaded ahead of it.
type Plan struct {
	Inline  map[string][]byte // path -> bytes, sent in the submission
	Uploads []Upload          // sent ahead, largest first
}

// Uploaded is the submission's "uploaded" member: path -> digest.
func (p *Plan) Uploaded() map[string]string {
	out := make(map[string]string, len(p.Uploads))
	for _, u := range p.Uploads {
		out[u.Path] = u.Digest
	}
	return out
}

// PlanDir reads a bundle folder as ReadDir does (regular files only, at
// most MaxFiles), but lets data/ files go ahead as uploads so the rest fits
// a submission. The signature file, if present, is left out: it is written
// for the bundle hash after planning. A folder whose files outside data/
// alone pass MaxBytes is refused with ErrTooLarge.
func PlanDir(dir string) (*Plan, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("reading bundle: %w", err)
	}
	defer root.Close()
	type file struct {
		path string
		size int64
	}
	var files []file
	var total int64
	err = fs.WalkDir(root.FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is a %s: %w", path, kindOf(d.Type()), ErrNotRegular)
		case path == SignatureFile:
			return nil
		}
		if len(files) == MaxFiles {
			return fmt.Errorf("more than %d files: %w", MaxFiles, ErrTooLarge)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{path, info.Size()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading bundle %s: %w", dir, err)
	}
	// Largest data/ files first: each over UploadAbove, then as many as
	// the rest needs to fit.
	slices.SortFunc(files, func(a, b file) int {
		if a.size != b.size {
			return int(b.size - a.size)
		}
		return strings.Compare(a.path, b.path)
	})
	plan := &Plan{Inline: map[string][]byte{}}
	ahead := map[string]bool{}
	for _, f := range files {
		if !strings.HasPrefix(f.path, "data/") {
			continue
		}
		if f.size > UploadAbove || total > MaxBytes-signatureRoom {
			ahead[f.path] = true
			total -= f.size
		}
	}
	if total > MaxBytes-signatureRoom {
		return nil, fmt.Errorf("reading bundle %s: its files outside data/ hold more than %d bytes: %w", dir, MaxBytes-signatureRoom, ErrTooLarge)
	}
	for _, f := range files {
		if ahead[f.path] {
			d, size, err := hashFile(root, f.path)
			if err != nil {
				return nil, fmt.Errorf("reading bundle %s: %w", dir, err)
			}
			plan.Uploads = append(plan.Uploads, Upload{Path: f.path, Size: size, Digest: d})
			continue
		}
		data, err := readRegular(root, f.path, MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("reading bundle %s: %w", dir, err)
		}
		plan.Inline[f.path] = data
	}
	return plan, nil
}

// hashFile streams a regular file through SHA-256.
func hashFile(root *os.Root, path string) (string, int64, error) {
	f, err := root.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	if !info.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is a %s: %w", path, kindOf(info.Mode().Type()), ErrNotRegular)
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), n, nil
}
