package bundle

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A submission carries at most this much, sent and uploaded together; past
// either bound a node answers 413.
const (
	MaxFiles = 1000
	MaxBytes = 10 << 20 // 10 MB
)

// ErrTooLarge is wrapped by the error ReadDir returns for a folder past
// MaxFiles or MaxBytes.
var ErrTooLarge = errors.New("bundle too large")

// ErrNotRegular is wrapped by the error ReadDir returns for a symbolic link,
// a device, a pipe or a socket in the folder: a bundle holds regular files
// only, and following a link could read any file on this machine into it.
var ErrNotRegular = errors.New("not a regular file")

// ReadDir reads a bundle folder from disk as bundle path → bytes, paths
// relative to dir with "/" between segments. It refuses symbolic links and
// other irregular files anywhere below dir, and a folder of more than
// MaxFiles files or MaxBytes bytes. Empty directories hold no files, so they
// are not part of the bundle. The paths are not checked here; Digest checks
// them.
func ReadDir(dir string) (map[string][]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("reading bundle: %w", err)
	}
	defer root.Close()

	files := make(map[string][]byte)
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
		}
		if len(files) == MaxFiles {
			return fmt.Errorf("more than %d files: %w", MaxFiles, ErrTooLarge)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total+info.Size() > MaxBytes {
			return fmt.Errorf("more than %d bytes: %w", MaxBytes, ErrTooLarge)
		}
		data, err := readRegular(root, path, MaxBytes-total)
		if err != nil {
			return err
		}
		total += int64(len(data))
		files[path] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading bundle %s: %w", dir, err)
	}
	return files, nil
}

// readRegular reads at most limit bytes of a regular file, refusing one that
// has grown past limit or been swapped for something else since it was
// listed.
func readRegular(root *os.Root, path string, limit int64) ([]byte, error) {
	f, err := root.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is a %s: %w", path, kindOf(info.Mode().Type()), ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than %d bytes: %w", MaxBytes, ErrTooLarge)
	}
	return data, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	default:
		return "irregular file"
	}
}
