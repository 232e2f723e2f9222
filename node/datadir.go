package node

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ErrSharedData is returned by New when the data folder can be read by
// other local users and Config.AllowSharedData is not set: the folder
// holds the node's secret keys, its admin token, its state and sealed
// files no one may read before their bundle opens.
var ErrSharedData = errors.New("the data folder is readable by other users")

// prepareDataDir makes the data folder 0700 on first start and checks, on
// every start, that no one but its owner can enter or list it. Everything
// inside lives under it, so its mode guards files whose own modes the node
// does not choose (the log's tiles, SQLite's journals).
func prepareDataDir(dir string, allowShared bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("node: data folder: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("node: data folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("node: data folder %s is not a folder", dir)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && !allowShared {
		return fmt.Errorf("node: data folder %s has mode %04o: %w; run chmod 700 %s, or start with --allow-shared-data if that is meant", dir, perm, ErrSharedData, dir)
	}
	return nil
}

// createPrivate makes path an empty 0600 file when it does not exist yet,
// so that SQLite, which gives its journals the mode of the database file,
// never makes any of them readable by others.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// MinAdminTokenBytes is how much randomness an admin token must carry: it
// is the one secret that opens every admin route.
const MinAdminTokenBytes = 32

// CheckAdminToken refuses a token too short to carry MinAdminTokenBytes
// random bytes, counted as hex (two characters a byte) when the token is
// all hex digits and as base64 (four characters for three bytes)
// otherwise.
func CheckAdminToken(token string) error {
	if strings.ContainsAny(token, " \t\r\n") {
		return errors.New("the admin token holds white space")
	}
	bytes := len(token) * 3 / 4
	if strings.Trim(token, "0123456789abcdefABCDEF") == "" {
		bytes = len(token) / 2
	}
	if bytes < MinAdminTokenBytes {
		return fmt.Errorf("the admin token carries about %d random bytes, fewer than %d; make one with: openssl rand -hex %d", bytes, MinAdminTokenBytes, MinAdminTokenBytes)
	}
	return nil
}

// ReadAdminTokenFile reads an admin token kept in path, which must be
// readable by its owner only and hold a token CheckAdminToken accepts.
func ReadAdminTokenFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%s has mode %04o; only its owner may read it (chmod 600 %s)", path, perm, path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(string(b))
	if err := CheckAdminToken(token); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return token, nil
}
