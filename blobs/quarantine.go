package blobs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// quarantineDir holds files moved where nothing serves them: a withdrawn
// bundle's files kept for a person at the node to report.
const quarantineDir = "withdrawn"

// Quarantine moves the file named digest out of the store, into the
// store's withdrawn folder, durably: Open, Has and Sweep no longer find
// it. Moving a file the store doesn't hold returns an error wrapping
// fs.ErrNotExist.
func (s *Store) Quarantine(digest string) error {
	p, err := s.path(digest)
	if err != nil {
		return fmt.Errorf("blobs: quarantine: %w", err)
	}
	dir := filepath.Join(s.dir, quarantineDir)
	if err := mkdirSynced(s.dir, dir); err != nil {
		return fmt.Errorf("blobs: quarantine %s: %w", digest, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dst := filepath.Join(dir, strings.ReplaceAll(digest, ":", "-"))
	if err := os.Rename(p, dst); err != nil {
		return fmt.Errorf("blobs: quarantine %s: %w", digest, err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("blobs: quarantine %s: %w", digest, err)
	}
	if err := syncDir(filepath.Dir(p)); err != nil {
		return fmt.Errorf("blobs: quarantine %s: %w", digest, err)
	}
	return nil
}
