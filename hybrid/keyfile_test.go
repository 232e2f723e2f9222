package hybrid

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func testOperatorID(k *PrivateKey) string {
	sum := sha256.Sum256([]byte(k.Public().String()))
	return "op:" + hex.EncodeToString(sum[:])
}

func TestKeyFileRoundTrip(t *testing.T) {
	key, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "config", "keys")
	id := testOperatorID(key)
	path, err := KeyFilePath(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, id[len("op:"):]+".key"); path != want {
		t.Fatalf("KeyFilePath = %s, want %s", path, want)
	}
	if got, ok := OperatorIDOfKeyFile(path); !ok || got != id {
		t.Errorf("OperatorIDOfKeyFile = %s, %v", got, ok)
	}
	if err := WriteKeyFile(path, key); err != nil {
		t.Fatal(err)
	}

	// The format the reference clients read: the secret's hex, alone.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(key.Bytes()); string(data) != want {
		t.Errorf("file holds %d bytes, want the %d-digit hex of the secret", len(data), len(want))
	}
	if runtime.GOOS != "windows" {
		info, _ := os.Stat(path)
		if info.Mode().Perm() != 0o600 {
			t.Errorf("key file mode = %04o, want 0600", info.Mode().Perm())
		}
		info, _ = os.Stat(dir)
		if info.Mode().Perm() != 0o700 {
			t.Errorf("keys directory mode = %04o, want 0700", info.Mode().Perm())
		}
	}

	read, err := ReadKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if read.Public().String() != key.Public().String() || !bytes.Equal(read.Bytes(), key.Bytes()) {
		t.Error("the key read back differs")
	}
}

func TestWriteKeyFileNeverOverwrites(t *testing.T) {
	key, _ := GenerateKey()
	other, _ := GenerateKey()
	path := filepath.Join(t.TempDir(), "k.key")
	if err := WriteKeyFile(path, key); err != nil {
		t.Fatal(err)
	}
	err := WriteKeyFile(path, other)
	if !errors.Is(err, ErrKeyFileExists) {
		t.Fatalf("second write: %v, want ErrKeyFileExists", err)
	}
	if read, err := ReadKeyFile(path); err != nil || read.Public().String() != key.Public().String() {
		t.Fatalf("the first key was replaced: %v", err)
	}

	// Not even an empty file left by someone else is written over.
	empty := filepath.Join(t.TempDir(), "empty.key")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteKeyFile(empty, key); !errors.Is(err, ErrKeyFileExists) {
		t.Errorf("write over an empty file: %v", err)
	}
	if data, _ := os.ReadFile(empty); len(data) != 0 {
		t.Error("the empty file was written to")
	}
}

func TestReadKeyFileRefuses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no Unix permission bits")
	}
	key, _ := GenerateKey()
	secretHex := hex.EncodeToString(key.Bytes())
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		// WriteFile's mode passes through the umask; set it exactly.
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}

	// Accepted: whitespace around the hex, as the Python client's strip()
	// allows, and upper case, as the TypeScript harness allows.
	for name, content := range map[string]string{
		"newline": secretHex + "\n",
		"spaces":  "  " + secretHex + " \r\n",
		"upper":   strings.ToUpper(secretHex),
	} {
		read, err := ReadKeyFile(write(name, content, 0o600))
		if err != nil || read.Public().String() != key.Public().String() {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ReadKeyFile(write("owner-only-read", secretHex, 0o400)); err != nil {
		t.Errorf("a 0400 key file refused: %v", err)
	}

	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660, 0o606, 0o610, 0o601, 0o777} {
		path := write("exposed", secretHex, mode)
		_, err := ReadKeyFile(path)
		if !errors.Is(err, ErrKeyFileExposed) {
			t.Errorf("mode %04o: %v, want ErrKeyFileExposed", mode, err)
		} else if !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: the error doesn't say how to fix it: %v", mode, err)
		}
		os.Remove(path)
	}

	for name, content := range map[string]string{
		"empty":        "",
		"short":        secretHex[:126],
		"long":         secretHex + "00",
		"not hex":      "zz" + secretHex[2:],
		"two keys":     secretHex + "\n" + secretHex,
		"inner space":  secretHex[:64] + " " + secretHex[64:],
		"huge":         strings.Repeat("0", 10000),
		"json wrapped": `{"secret":"` + secretHex + `"}`,
	} {
		_, err := ReadKeyFile(write(name, content, 0o600))
		if !errors.Is(err, ErrNotKeyFile) {
			t.Errorf("%s: %v, want ErrNotKeyFile", name, err)
			continue
		}
		// An error never quotes the file, which may hold a key in some
		// other form.
		for i := 0; i+16 <= len(secretHex); i += 16 {
			if strings.Contains(err.Error(), secretHex[i:i+16]) {
				t.Errorf("%s: the error quotes the secret: %v", name, err)
				break
			}
		}
	}

	if _, err := ReadKeyFile(dir); !errors.Is(err, ErrNotKeyFile) {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadKeyFile(filepath.Join(dir, "missing.key")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestKeyFileNames(t *testing.T) {
	id := "op:" + strings.Repeat("ab", 32)
	for _, bad := range []string{"op:1", strings.ToUpper(id), id[3:], "obs:" + id[3:], id + "0", "op:../" + id[6:]} {
		if _, err := KeyFilePath("keys", bad); err == nil {
			t.Errorf("KeyFilePath accepted %q", bad)
		}
	}
	for _, name := range []string{"operator.key", id[3:] + ".txt", strings.ToUpper(id[3:]) + ".key", id[3:] + ".key.bak"} {
		if got, ok := OperatorIDOfKeyFile(filepath.Join("keys", name)); ok {
			t.Errorf("OperatorIDOfKeyFile(%s) = %s", name, got)
		}
	}
	if got, ok := OperatorIDOfKeyFile(filepath.Join("anywhere", id[3:]+".key")); !ok || got != id {
		t.Errorf("OperatorIDOfKeyFile = %s, %v", got, ok)
	}

	t.Setenv("HOME", "/home/agent")
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		dir, err := DefaultKeysDir()
		if err != nil || dir != "/home/agent/.config/sciencejournal/keys" {
			t.Errorf("DefaultKeysDir = %s, %v", dir, err)
		}
	}
}
