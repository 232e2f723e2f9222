package bundle_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agora-node/agora/ledger/bundle"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestDigest(t *testing.T) {
	d, err := bundle.Digest(map[string][]byte{"paper.md": []byte("hi"), "code/a.py": []byte("x"), "signature": []byte("s")})
	if err != nil {
		t.Fatal(err)
	}
	if d.Files["paper.md"] != "sha256:"+sha("hi") || d.Files["signature"] != "sha256:"+sha("s") || len(d.Files) != 3 {
		t.Errorf("files = %v", d.Files)
	}
	if want := "sha256:" + sha(`{"code/a.py":"sha256:`+sha("x")+`","paper.md":"sha256:`+sha("hi")+`"}`); d.Bundle != want {
		t.Errorf("bundle = %s, want %s", d.Bundle, want)
	}
	if want := "sha256:" + sha(`{"code/a.py":"sha256:`+sha("x")+`"}`); d.VerificationInputs != want {
		t.Errorf("verification inputs = %s, want %s", d.VerificationInputs, want)
	}
}

func TestVerificationInputs(t *testing.T) {
	base := map[string][]byte{
		"manifest.json": []byte("{}"), "paper.md": []byte("# Summary"), "claims.json": []byte("[]"),
		"code/eval.py": []byte("print(1)"), "results/R3.json": []byte(`{"loss_delta":-0.03}`),
		"plan/plan.md": []byte("plan"), "signature": []byte("sig"),
	}
	before, err := bundle.Digest(base)
	if err != nil {
		t.Fatal(err)
	}
	change := func(path string) bundle.Digests {
		files := make(map[string][]byte, len(base)+1)
		for p, b := range base {
			files[p] = b
		}
		files[path] = []byte("changed")
		d, err := bundle.Digest(files)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, p := range []string{"code/eval.py", "env/lock.txt", "data/rows.csv", "proofs/t.lean"} {
		if after := change(p); after.VerificationInputs == before.VerificationInputs || after.Bundle == before.Bundle {
			t.Errorf("changing %s left a digest unchanged", p)
		}
	}
	for _, p := range []string{"paper.md", "results/R3.json", "plan/plan.md", "claims.json"} {
		if after := change(p); after.VerificationInputs != before.VerificationInputs || after.Bundle == before.Bundle {
			t.Errorf("changing %s: verification inputs changed or bundle did not", p)
		}
	}
	if after := change("signature"); after.Bundle != before.Bundle {
		t.Error("the signature changed the bundle hash")
	}
	empty, err := bundle.Digest(map[string][]byte{"paper.md": nil})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:" + sha("{}"); empty.VerificationInputs != want {
		t.Errorf("no inputs: %s, want the digest of {} %s", empty.VerificationInputs, want)
	}
}

func TestCheckPaths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		rule  string // part of the error; "" means accepted
	}{
		{"an empty path", []string{""}, "normalized"},
		{"an absolute path", []string{"/paper.md"}, "normalized"},
		{"a trailing slash", []string{"code/"}, "normalized"},
		{"a dot segment", []string{"code/./a.py"}, "normalized"},
		{"a backslash", []string{`code\a.py`}, "backslash"},
		{"a tab", []string{"code/a\t.py"}, "control"},
		{"a C1 control is allowed", []string{"code/a\u0085.py"}, ""},
		{"not NFC", []string{"code/e\u0301.py"}, "NFC"},
		{"NFC", []string{"data/raw/s\u00e9ance.csv"}, ""},
		{"invalid UTF-8", []string{"code/\xff.py"}, "UTF-8"},
		{"an unknown top-level file", []string{"notes.txt"}, "layout"},
		{"an unknown directory", []string{"src/a.py"}, "layout"},
		{"a directory name as a file", []string{"code"}, "layout"},
		{"a top-level file name as a directory", []string{"paper.md/x"}, "layout"},
		{"every top-level file", []string{"manifest.json", "paper.md", "claims.json", "references.json", "materials.json",
			"deviations.json", "embeddings.json", "provenance.json", "signature"}, ""},
		{"top-level names are case-sensitive", []string{"Paper.md"}, "layout"},
		{"a case clash", []string{"code/A.py", "code/a.py"}, "letter case"},
		{"a path twice", []string{"code/a.py", "code/a.py"}, "twice"},
		{"a file and a directory", []string{"code/a", "code/a/b.py"}, "both a file and a directory"},
		{"a directory listed after its file", []string{"code/a/b/c.py", "code/a/b"}, "both a file and a directory"},
		{"a file and a directory differing in case", []string{"code/A", "code/a/b.py"}, "both a file and a directory"},
		{"a shared prefix is not a directory", []string{"code/a", "code/ab/c.py"}, ""},
		// JavaScript's toLowerCase, which the reference folds with: full
		// mappings and the final sigma.
		{"final sigma differs from medial sigma", []string{"data/ΑΣ", "data/ασ"}, ""},
		{"final sigma", []string{"data/ΑΣ", "data/ας"}, "letter case"},
		{"dotted capital I folds to i and a dot", []string{"data/İ", "data/i\u0307"}, "letter case"},
		{"dotted capital I is not i", []string{"data/İ", "data/i"}, ""},
		{"capital sharp s", []string{"data/\u1e9e", "data/\u00df"}, "letter case"},
		{"Kelvin sign is not NFC", []string{"data/\u212a"}, "NFC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := bundle.CheckPaths(tc.paths)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var pe *bundle.PathError
			if !errors.Is(err, bundle.ErrLayout) || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.rule) {
				t.Fatalf("err = %v, want a PathError saying %q", err, tc.rule)
			}
			if !contains(tc.paths, pe.Path) {
				t.Errorf("the error names %q, which is not among %q", pe.Path, tc.paths)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestEvidencePaths(t *testing.T) {
	if err := bundle.CheckEvidencePaths([]string{"report.md", "outputs/R1.json"}); err != nil {
		t.Errorf("evidence may hold any layout: %v", err)
	}
	if err := bundle.CheckEvidencePaths([]string{"a/../b"}); !errors.Is(err, bundle.ErrLayout) {
		t.Errorf("evidence keeps the portable rules: %v", err)
	}
	files, evidence, err := bundle.DigestEvidence(map[string][]byte{"report.md": []byte("ok")})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:" + sha(`{"report.md":"sha256:`+sha("ok")+`"}`); evidence != want || files["report.md"] != "sha256:"+sha("ok") {
		t.Errorf("evidence = %s, want %s", evidence, want)
	}
}

func TestDigestWithUploads(t *testing.T) {
	big := "sha256:" + sha("a large file")
	sent, err := bundle.Digest(map[string][]byte{"paper.md": []byte("p"), "data/big.csv": []byte("a large file")})
	if err != nil {
		t.Fatal(err)
	}
	up, err := bundle.DigestWithUploads(map[string][]byte{"paper.md": []byte("p")}, map[string]string{"data/big.csv": big})
	if err != nil {
		t.Fatal(err)
	}
	if up.Bundle != sent.Bundle || up.VerificationInputs != sent.VerificationInputs {
		t.Error("an uploaded file hashes differently from the same file sent")
	}
	if _, err := bundle.DigestWithUploads(map[string][]byte{"data/big.csv": nil}, map[string]string{"data/big.csv": big}); !errors.Is(err, bundle.ErrLayout) {
		t.Errorf("sent and uploaded: %v", err)
	}
	if _, err := bundle.DigestWithUploads(nil, map[string]string{"data/Big.csv": big, "data/big.csv": big}); !errors.Is(err, bundle.ErrLayout) {
		t.Errorf("uploads keep the path rules: %v", err)
	}
	if _, err := bundle.DigestWithUploads(nil, map[string]string{"data/big.csv": "sha256:XYZ"}); !errors.Is(err, bundle.ErrLayout) {
		t.Errorf("a malformed digest: %v", err)
	}
}

func write(t *testing.T, dir, path, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "paper.md", "p")
	write(t, dir, "code/lib/a.py", "x")
	write(t, dir, "data/empty.csv", "")
	if err := os.MkdirAll(filepath.Join(dir, "env", "nothing"), 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || string(files["code/lib/a.py"]) != "x" {
		t.Errorf("files = %q", files)
	}
	if _, ok := files["data/empty.csv"]; !ok {
		t.Error("an empty file is part of the bundle")
	}

	if err := os.Symlink(filepath.Join(dir, "paper.md"), filepath.Join(dir, "code", "link.py")); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.ReadDir(dir); !errors.Is(err, bundle.ErrNotRegular) || !strings.Contains(err.Error(), "code/link.py") {
		t.Errorf("symbolic link: err = %v", err)
	}
	os.Remove(filepath.Join(dir, "code", "link.py"))

	if err := syscall.Mkfifo(filepath.Join(dir, "data", "pipe"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if _, err := bundle.ReadDir(dir); !errors.Is(err, bundle.ErrNotRegular) {
		t.Errorf("named pipe: err = %v", err)
	}
}

func TestReadDirLimits(t *testing.T) {
	dir := t.TempDir()
	for i := range bundle.MaxFiles {
		write(t, dir, "data/"+strconv.Itoa(i%26)+"/"+strconv.Itoa(i), "")
	}
	if _, err := bundle.ReadDir(dir); err != nil {
		t.Fatalf("%d files refused: %v", bundle.MaxFiles, err)
	}
	write(t, dir, "data/one-more", "")
	if _, err := bundle.ReadDir(dir); !errors.Is(err, bundle.ErrTooLarge) {
		t.Errorf("%d files: err = %v", bundle.MaxFiles+1, err)
	}

	dir = t.TempDir()
	write(t, dir, "data/a", strings.Repeat("a", bundle.MaxBytes/2))
	write(t, dir, "data/b", strings.Repeat("b", bundle.MaxBytes/2))
	if _, err := bundle.ReadDir(dir); err != nil {
		t.Fatalf("%d bytes refused: %v", bundle.MaxBytes, err)
	}
	write(t, dir, "data/c", "c")
	if _, err := bundle.ReadDir(dir); !errors.Is(err, bundle.ErrTooLarge) {
		t.Errorf("%d bytes: err = %v", bundle.MaxBytes+1, err)
	}
}

// A deep path must not cost time quadratic in its depth: a node checks
// paths a client sends, up to the size of a whole submission.
func TestCheckPathsDeep(t *testing.T) {
	deep := "code/" + strings.Repeat("a/", 200_000) + "x"
	start := time.Now()
	if err := bundle.CheckPaths([]string{deep, deep[:len(deep)-2]}); !errors.Is(err, bundle.ErrLayout) {
		t.Errorf("a file that is also a directory, deep down: %v", err)
	}
	if err := bundle.CheckPaths([]string{deep, "code/b"}); err != nil {
		t.Error(err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("two 400 kB paths took %v", elapsed)
	}
}
