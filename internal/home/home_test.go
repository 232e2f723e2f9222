package home

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHome: the XDG places for a new user, AGORA_HOME over them, and the
// earlier places read while the new ones are empty.
func TestHome(t *testing.T) {
	h := t.TempDir()
	env := map[string]string{"HOME": h}
	getenv := func(k string) string { return env[k] }
	check := func(what string, f func(Getenv) (string, error), want string) {
		t.Helper()
		got, err := f(getenv)
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", what, got, err, want)
		}
	}
	check("Data", Data, filepath.Join(h, ".local/share/agora"))
	check("Config", Config, filepath.Join(h, ".config/agora"))
	check("Keys", Keys, filepath.Join(h, ".config/agora/keys"))
	check("Pins", Pins, filepath.Join(h, ".local/share/agora/pins"))

	// Earlier versions' state, with nothing in the new places yet.
	key := strings.Repeat("a", 64) + ".key"
	for _, p := range []string{".agora/memory", ".config/agora/pins", ".config/sciencejournal/keys"} {
		os.MkdirAll(filepath.Join(h, p), 0o700)
	}
	os.WriteFile(filepath.Join(h, ".config/sciencejournal/keys", key), []byte("x"), 0o600)
	check("Data with ~/.agora", Data, filepath.Join(h, ".agora"))
	check("Keys with the reference client's", Keys, filepath.Join(h, ".config/sciencejournal/keys"))
	check("Pins with ~/.config/agora/pins", Pins, filepath.Join(h, ".config/agora/pins"))

	// Once the new places hold something, they win.
	os.MkdirAll(filepath.Join(h, ".local/share/agora/pins"), 0o700)
	os.MkdirAll(filepath.Join(h, ".config/agora/keys"), 0o700)
	os.WriteFile(filepath.Join(h, ".config/agora/keys", key), []byte("x"), 0o600)
	check("Data", Data, filepath.Join(h, ".local/share/agora"))
	check("Keys", Keys, filepath.Join(h, ".config/agora/keys"))
	check("Pins", Pins, filepath.Join(h, ".local/share/agora/pins"))

	// XDG variables and AGORA_HOME.
	env["XDG_DATA_HOME"], env["XDG_CONFIG_HOME"] = filepath.Join(h, "d"), filepath.Join(h, "c")
	os.MkdirAll(filepath.Join(h, "d/agora"), 0o700)
	check("Data under XDG_DATA_HOME", Data, filepath.Join(h, "d/agora"))
	check("Keys under XDG_CONFIG_HOME", Keys, filepath.Join(h, "c/agora/keys"))
	env["XDG_DATA_HOME"] = "relative"
	check("Data with a relative XDG_DATA_HOME", Data, filepath.Join(h, ".local/share/agora"))
	env["AGORA_HOME"] = filepath.Join(h, "state")
	check("Data with AGORA_HOME", Data, filepath.Join(h, "state"))
}
