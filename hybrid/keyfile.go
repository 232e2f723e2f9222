package hybrid

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// Key files, kept the way the protocol's reference clients keep them so the
// Python client, the TypeScript harness and agora can share one keys
// directory:
//
//   - one file per operator in a keys directory, by default
//     ~/.config/sciencejournal/keys;
//   - named by the operator's ID without "op:", plus ".key"
//     (keys/<64 hex digits>.key);
//   - holding the 64-byte secret key in hex (the Ed25519 seed, then the
//     ML-DSA-44 seed) and nothing else; surrounding whitespace is ignored
//     when read;
//   - readable and writable by its owner only (0600), in a directory only
//     its owner can enter (0700).
//
// Anyone holding the file can sign as the operator, so a key file is never
// written over, and never read when others could read it too.

// KeyFileMode is the permission a key file is created with.
const KeyFileMode os.FileMode = 0o600

// keysDirMode is the permission a keys directory is created with.
const keysDirMode os.FileMode = 0o700

// keyFileSuffix ends every key file's name.
const keyFileSuffix = ".key"

// maxKeyFileSize bounds what ReadKeyFile reads: a key is 128 hex digits, so
// anything much larger is not a key file.
const maxKeyFileSize = 4096

var (
	// ErrKeyFileExists is wrapped by WriteKeyFile's error when a file is
	// already at the path: a key file is never written over.
	ErrKeyFileExists = errors.New("a key file is already there")

	// ErrKeyFileExposed is wrapped by ReadKeyFile's error when the file's
	// group or others may read, write or execute it.
	ErrKeyFileExposed = errors.New("key file can be read by others")

	// ErrNotKeyFile is wrapped by ReadKeyFile's error when the file does
	// not hold a secret key in hex.
	ErrNotKeyFile = errors.New("not a key file")
)

// operatorIDPattern is an operator ID's form; the key file rule needs it to
// turn an ID into a file name and back.
var operatorIDPattern = regexp.MustCompile(`^op:[0-9a-f]{64}$`)

// DefaultKeysDir returns where the reference clients keep key files:
// ~/.config/sciencejournal/keys under the user's home directory.
func DefaultKeysDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("hybrid: finding the keys directory: %w", err)
	}
	return filepath.Join(home, ".config", "sciencejournal", "keys"), nil
}

// KeyFilePath returns the path of operatorID's key file in dir:
// dir/<the ID's 64 hex digits>.key.
func KeyFilePath(dir, operatorID string) (string, error) {
	if !operatorIDPattern.MatchString(operatorID) {
		return "", fmt.Errorf("hybrid: %q is not an operator ID, \"op:\" and 64 lowercase hex digits", operatorID)
	}
	return filepath.Join(dir, strings.TrimPrefix(operatorID, "op:")+keyFileSuffix), nil
}

// OperatorIDOfKeyFile returns the operator ID a key file's name gives, and
// false for a file not named as a key file is. The name, not the key inside,
// names the operator: after a key rotation the file holds a key that does
// not make the operator's ID.
func OperatorIDOfKeyFile(path string) (string, bool) {
	hexPart, ok := strings.CutSuffix(filepath.Base(path), keyFileSuffix)
	id := "op:" + hexPart
	if !ok || !operatorIDPattern.MatchString(id) {
		return "", false
	}
	return id, true
}

// WriteKeyFile keeps key in a new file at path, creating its directory
// (0700) if needed. The key is written and flushed to a private temporary
// file (0600) first, then linked to path, which fails if anything is already
// there: a key file is never written over (ErrKeyFileExists), and a crash
// never leaves a partial key under a key's name. The directory entry is
// flushed before WriteKeyFile returns.
func WriteKeyFile(path string, key *PrivateKey) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, keysDirMode); err != nil {
		return fmt.Errorf("hybrid: key file directory: %w", err)
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("hybrid: %s: %w", path, ErrKeyFileExists)
	}
	// CreateTemp makes the file 0600 and exclusively.
	f, err := os.CreateTemp(dir, ".key-*.tmp")
	if err != nil {
		return fmt.Errorf("hybrid: creating key file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	// The reference clients write the hex alone, no newline; they trim
	// whitespace on reading, as ReadKeyFile does.
	secret := key.Bytes()
	text := make([]byte, hex.EncodedLen(len(secret)))
	hex.Encode(text, secret)
	clear(secret)
	_, err = f.Write(text)
	clear(text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("hybrid: writing key file %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("hybrid: %s: %w", path, ErrKeyFileExists)
		}
		return fmt.Errorf("hybrid: keeping key file %s: %w", path, err)
	}
	// The file's name must be durable too, or a crash could lose the key
	// after WriteKeyFile said it was kept.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("hybrid: flushing key directory %s: %w", dir, err)
	}
	return nil
}

// syncDir flushes a directory's entries to disk. Windows can't open a
// directory for syncing, and its file systems don't need it.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// ReadKeyFile reads the key kept in the key file at path. It refuses, with
// an error wrapping ErrKeyFileExposed, a file its group or others have any
// permission on (mode wider than 0600): the key may already be another
// user's too, and the reference harness refuses such files the same way, so
// a key is never used from a file it would not use. It refuses anything but
// a regular file holding 128 hex digits, give or take surrounding whitespace
// (ErrNotKeyFile). No error ever quotes the file's contents.
func ReadKeyFile(path string) (*PrivateKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hybrid: opening key file: %w", err)
	}
	defer f.Close()
	// Stat the open file, not the path, so the mode checked is the mode
	// of the file read.
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("hybrid: key file %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("hybrid: %s is not a regular file: %w", path, ErrNotKeyFile)
	}
	// Windows has no Unix permission bits to check.
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("hybrid: %s has mode %04o; only its owner may use it (chmod 600 %s): %w",
			path, info.Mode().Perm(), path, ErrKeyFileExposed)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("hybrid: reading key file %s: %w", path, err)
	}
	defer clear(data)
	notKey := func() error {
		return fmt.Errorf("hybrid: %s does not hold a secret key, %d bytes in hex (the Ed25519 seed, then the ML-DSA-44 seed): %w",
			path, SecretKeySize, ErrNotKeyFile)
	}
	if len(data) > maxKeyFileSize {
		return nil, notKey()
	}
	text := bytes.TrimSpace(data)
	if len(text) != 2*SecretKeySize {
		return nil, notKey()
	}
	// Upper case is accepted, as the reference harness accepts it; the
	// decoder's own error could quote a byte of the key, so it is dropped.
	secret := make([]byte, SecretKeySize)
	defer clear(secret)
	if _, err := hex.Decode(secret, text); err != nil {
		return nil, notKey()
	}
	key, err := NewPrivateKey(secret)
	if err != nil {
		return nil, notKey()
	}
	return key, nil
}
