package node

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agora-node/agora/hybrid"
)

// The node's keys live in <data>/keys, made on first start, each in a 0600
// file that is never written over:
//
//   - log.key: the log's hybrid key (hex of its 64-byte secret, as operators'
//     key files are). Its public key text gives the log ID; it signs tree
//     heads, the checkpoint_keys entry and the entries the node logs itself.
//   - checkpoint.key: the hex of an Ed25519 seed whose key signs the C2SP
//     checkpoints witnesses read.
type nodeKeys struct {
	log        *hybrid.PrivateKey
	checkpoint ed25519.PrivateKey
}

func loadOrCreateKeys(dataDir string) (*nodeKeys, error) {
	dir := filepath.Join(dataDir, "keys")
	logPath := filepath.Join(dir, "log.key")
	logKey, err := hybrid.ReadKeyFile(logPath)
	if errors.Is(err, fs.ErrNotExist) {
		if logKey, err = hybrid.GenerateKey(); err == nil {
			err = hybrid.WriteKeyFile(logPath, logKey)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("node: log key: %w", err)
	}
	cp, err := loadOrCreateSeed(filepath.Join(dir, "checkpoint.key"))
	if err != nil {
		return nil, fmt.Errorf("node: checkpoint key: %w", err)
	}
	return &nodeKeys{log: logKey, checkpoint: ed25519.NewKeyFromSeed(cp)}, nil
}

// loadOrCreateSeed reads a 32-byte seed kept as hex, or makes and keeps one.
func loadOrCreateSeed(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		seed := make([]byte, ed25519.SeedSize)
		rand.Read(seed)
		if err := writeNewFile(path, []byte(hex.EncodeToString(seed))); err != nil {
			return nil, err
		}
		return seed, nil
	}
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s has mode %04o; only its owner may use it (chmod 600 %s)", path, fi.Mode().Perm(), path)
	}
	seed, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%s does not hold a 32-byte seed in hex", path)
	}
	return seed, nil
}

// writeNewFile writes a new 0600 file durably, never over an existing one.
func writeNewFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// AdminTokenPath is where a node keeps its admin token, for agora admin.
func AdminTokenPath(dataDir string) string {
	return filepath.Join(dataDir, "keys", "admin.token")
}

// loadOrCreateAdminToken reads the node's admin token, or makes and keeps
// one: 32 random bytes in hex.
func loadOrCreateAdminToken(dataDir string) (string, error) {
	path := AdminTokenPath(dataDir)
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		b := make([]byte, 32)
		rand.Read(b)
		token := hex.EncodeToString(b)
		return token, writeNewFile(path, []byte(token))
	}
	if err != nil {
		return "", err
	}
	return ReadAdminTokenFile(path)
}
