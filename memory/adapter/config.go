package adapter

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agora-node/agora/internal/home"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
)

// Config is where an adapter sends its events and how it proves itself.
//
// It comes from $AGORA_HOME/memory/<adapter_id>.json, which
// `agora memory adapter add` writes on the node's side, and the environment
// variables AGORA_URL and AGORA_MEMORY_TOKEN, which override the file field by
// field so a user can point one shell at another node without editing it.
type Config struct {
	AdapterID string `json:"adapter_id"`
	URL       string `json:"url"`
	Token     string `json:"token"`
}

var adapterIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)

// ConfigPath is the file `agora memory adapter add` writes for adapterID.
func ConfigPath(home, adapterID string) string {
	return filepath.Join(home, "memory", adapterID+".json")
}

// LoadConfig reads adapterID's config under home and applies the environment
// (getenv is os.Getenv outside tests). A missing file is not an error when
// the environment gives both URL and token.
func LoadConfig(home, adapterID string, getenv func(string) string) (Config, error) {
	if !adapterIDPattern.MatchString(adapterID) {
		return Config{}, fmt.Errorf("adapter id %q: want lowercase letters, digits, '-' or '_', starting with a letter", adapterID)
	}
	c := Config{AdapterID: adapterID}
	path := ConfigPath(home, adapterID)
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		// Accept the names a node might reasonably write; the file is the
		// node's, not ours.
		var f struct {
			AdapterID string `json:"adapter_id"`
			URL       string `json:"url"`
			NodeURL   string `json:"node_url"`
			Token     string `json:"token"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return Config{}, fmt.Errorf("read %s: %w", path, err)
		}
		if f.AdapterID != "" && f.AdapterID != adapterID {
			return Config{}, fmt.Errorf("%s is for adapter %q, not %q", path, f.AdapterID, adapterID)
		}
		c.URL, c.Token = f.URL, f.Token
		if c.URL == "" {
			c.URL = f.NodeURL
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return Config{}, fmt.Errorf("read adapter config: %w", err)
	}
	if v := getenv("AGORA_URL"); v != "" {
		c.URL = v
	}
	if v := getenv("AGORA_MEMORY_TOKEN"); v != "" {
		c.Token = v
	}
	if c.URL == "" || c.Token == "" {
		return c, fmt.Errorf("%w: no node URL and token for adapter %q in %s or AGORA_URL/AGORA_MEMORY_TOKEN", ErrNotConfigured, adapterID, path)
	}
	return c, nil
}

// Client returns a client for c whose requests are bounded by the caller's
// context.
func (c Config) Client() *Client {
	return &Client{URL: c.URL, AdapterID: c.AdapterID, Token: c.Token, HTTP: &http.Client{}}
}

// Home is the state directory: $AGORA_HOME, else agora's data directory
// (~/.local/share/agora, or the ~/.agora of earlier versions while that
// one does not exist; see package internal/home).
func Home(getenv func(string) string) (string, error) {
	return home.Data(getenv)
}

// WriteConfig writes c as adapterID's config under home, in the form
// LoadConfig reads, readable by the user alone (0600, in a 0700 folder),
// and returns its path. The file is replaced whole, so a hook reading it
// meanwhile sees the old config or the new one.
func WriteConfig(home string, c Config) (string, error) {
	if !adapterIDPattern.MatchString(c.AdapterID) {
		return "", fmt.Errorf("adapter id %q: want lowercase letters, digits, '-' or '_', starting with a letter", c.AdapterID)
	}
	path := ConfigPath(home, c.AdapterID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("make the adapter config folder: %w", err)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode adapter config: %w", err)
	}
	if err := replaceFile(path, append(data, '\n')); err != nil {
		return "", fmt.Errorf("write adapter config: %w", err)
	}
	return path, nil
}

// replaceFile writes data to path through a temporary file in the same
// folder, made 0600 by os.CreateTemp, renamed over path: a reader sees the
// old file or the new one, never part of one.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
