// Package home says where agora keeps its local state on a user's machine,
// following the XDG base directories: settings and keys under the config
// directory ($XDG_CONFIG_HOME/agora, default ~/.config/agora), and what the
// commands write as they run (library pending files and cursors, memory
// adapters' configs and hook log, log pins, submitted bundles) under the
// data directory ($XDG_DATA_HOME/agora, default ~/.local/share/agora), or
// $AGORA_HOME when set.
//
// Earlier versions kept state in ~/.agora, ~/.config/agora/pins and the
// sciencejournal reference client's ~/.config/sciencejournal/keys. Each is
// still read while its new place is empty, so nothing a user had stops
// working; nothing is moved behind their back. README.md ("The first hour")
// tells users where each thing lives.
package home

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Getenv reads an environment variable; os.Getenv, or a map in tests.
type Getenv func(string) string

// userHome is $HOME as getenv sees it, else the system's idea of it.
func userHome(getenv Getenv) (string, error) {
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory (set HOME or AGORA_HOME): %w", err)
	}
	return h, nil
}

// xdg is the base directory an XDG variable names, when it is an absolute
// path as the specification requires, else fallback under the home.
func xdg(getenv Getenv, name, fallback string) (string, error) {
	if d := getenv(name); filepath.IsAbs(d) {
		return d, nil
	}
	h, err := userHome(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(h, fallback), nil
}

// Config is agora's config directory: $XDG_CONFIG_HOME/agora, default
// ~/.config/agora.
func Config(getenv Getenv) (string, error) {
	d, err := xdg(getenv, "XDG_CONFIG_HOME", ".config")
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "agora"), nil
}

// Data is the directory agora's commands keep their state in: $AGORA_HOME
// when set; else $XDG_DATA_HOME/agora (default ~/.local/share/agora),
// unless that does not exist yet and ~/.agora, where earlier versions kept
// it, does.
func Data(getenv Getenv) (string, error) {
	if h := getenv("AGORA_HOME"); h != "" {
		return h, nil
	}
	d, err := xdg(getenv, "XDG_DATA_HOME", filepath.Join(".local", "share"))
	if err != nil {
		return "", err
	}
	d = filepath.Join(d, "agora")
	h, err := userHome(getenv)
	if err != nil {
		return "", err
	}
	return older(d, filepath.Join(h, ".agora")), nil
}

// Pins is where the keys of logs are pinned: Data/pins, or the
// ~/.config/agora/pins of earlier versions while Data/pins does not exist.
func Pins(getenv Getenv) (string, error) {
	d, err := Data(getenv)
	if err != nil {
		return "", err
	}
	c, err := Config(getenv)
	if err != nil {
		return "", err
	}
	return older(filepath.Join(d, "pins"), filepath.Join(c, "pins")), nil
}

// Keys is the directory key files are kept in: Config/keys, or the
// sciencejournal reference client's folder ($XDG_CONFIG_HOME/sciencejournal/keys)
// while Config/keys holds no key and that folder does. A user of both
// clients keeps one set of keys that way.
func Keys(getenv Getenv) (string, error) {
	c, err := Config(getenv)
	if err != nil {
		return "", err
	}
	base, err := xdg(getenv, "XDG_CONFIG_HOME", ".config")
	if err != nil {
		return "", err
	}
	keys, legacy := filepath.Join(c, "keys"), filepath.Join(base, "sciencejournal", "keys")
	if !holdsKey(keys) && holdsKey(legacy) {
		return legacy, nil
	}
	return keys, nil
}

// older is dir, unless dir does not exist and old does.
func older(dir, old string) string {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if fi, err := os.Stat(old); err == nil && fi.IsDir() {
			return old
		}
	}
	return dir
}

// holdsKey reports whether dir holds a key file (<64 hex>.key).
func holdsKey(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".key") && len(e.Name()) == 64+len(".key") {
			return true
		}
	}
	return false
}
