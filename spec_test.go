package agora_test

import (
	"crypto/sha256"
	"encoding/hex"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSpecCopies checks that each contract spec/README.md lists is in the
// repository at its path, byte for byte the copy whose SHA-256 it gives.
func TestSpecCopies(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("spec", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := regexp.MustCompile("(?m)^- `([^`]+)`:.*SHA-256 `([0-9a-f]{64})`").FindAllStringSubmatch(string(readme), -1)
	if len(listed) != 3 {
		t.Fatalf("spec/README.md lists %d contracts with their digests, want 3", len(listed))
	}
	for _, m := range listed {
		data, err := os.ReadFile(filepath.FromSlash(m[1]))
		if err != nil {
			t.Errorf("spec/README.md lists %s: %v", m[1], err)
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != m[2] {
			t.Errorf("%s has SHA-256 %s, but spec/README.md gives %s", m[1], got, m[2])
		}
	}
}

// outsideRepository are ways a doc can point outside the repository: at
// the shared folder beside a checkout, or at this machine's paths.
var outsideRepository = []string{"../shared", "shared/seeds", "shared/conformance", "shared/bench", "/work/"}

// optionalExtras are the files that may name ../shared/conformance, as the
// optional extra pass of conformance vectors they read or describe; no doc
// cites it as a spec.
var optionalExtras = map[string]bool{"internal/testvectors/testvectors.go": true, "README.md": true}

// pointsAt reports whether line names the outside place s. A machine path
// counts only where it starts (`/work/x`), not inside another path a
// quoted tool output prints (/home/runner/work/_actions).
func pointsAt(line, s string) bool {
	if !strings.HasPrefix(s, "/") {
		return strings.Contains(line, s)
	}
	for i := 0; ; {
		j := strings.Index(line[i:], s)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./", rune(line[at-1])) {
			return true
		}
		i = at + 1
	}
}

// TestDocsInsideRepository: no package doc, comment or README names a file
// outside the repository, so what a doc cites is there in every clone.
// Tests are not read here; spec/ and testdata/ say where their copies came
// from.
func TestDocsInsideRepository(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch path {
			case ".git", "spec", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !(strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go")) && !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, s := range outsideRepository {
				if pointsAt(line, s) && !(optionalExtras[filepath.ToSlash(path)] && strings.Contains(line, "../shared/conformance")) {
					t.Errorf("%s:%d points outside the repository (%s): %s", path, i+1, s, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// repoPath finds paths of files that a doc may cite, such as
// spec/ledger-protocol.md or memory/memory-agent-ingress-v1.schema.json.
var repoPath = regexp.MustCompile(`[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.(?:md|json|txt)\b`)

// TestPackageDocsNameSpec: every package's doc names the spec it follows by
// a path inside the repository, and the file is there.
func TestPackageDocsNameSpec(t *testing.T) {
	docs := map[string]string{} // package folder → its doc comment
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "spec":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if _, ok := docs[dir]; !ok {
			docs[dir] = ""
		}
		if f.Doc != nil {
			docs[dir] += f.Doc.Text()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, doc := range docs {
		if doc == "" {
			t.Errorf("package %s has no doc comment", dir)
			continue
		}
		cited := false
		for _, p := range repoPath.FindAllString(doc, -1) {
			_, atRoot := os.Stat(filepath.FromSlash(p))
			_, inFolder := os.Stat(filepath.Join(filepath.FromSlash(dir), filepath.FromSlash(p)))
			switch {
			case atRoot == nil || inFolder == nil:
				cited = true
			case strings.Contains(p, "/"):
				t.Errorf("package %s's doc names %s, which is not in the repository", dir, p)
			}
			// A bare name that is not here is a file the spec names, such
			// as a bundle's claims.json.
		}
		if !cited {
			t.Errorf("package %s's doc names no spec by its path in the repository", dir)
		}
	}
}
