package bundle_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agora-node/agora/internal/testvectors"
	"github.com/agora-node/agora/ledger/bundle"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// FuzzCheckPaths splits arbitrary bytes on NUL (itself a refused character,
// so no valid path is lost) into a path list and checks it. CheckPaths must
// never panic, and it must accept the list exactly when a plain re-reading
// of the rules, written separately below without CheckPaths' fast paths,
// accepts it. A refusal must be a *PathError naming one of the paths.
func FuzzCheckPaths(f *testing.F) {
	data := testvectors.Read(f, testvectors.ConformanceDir(), "bundle-vectors.json")
	var vectors struct {
		Cases []struct {
			Files map[string]string `json:"files"`
		} `json:"cases"`
		Invalid []struct {
			Paths []string `json:"paths"`
		} `json:"invalid"`
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		f.Fatal(err)
	}
	for _, tc := range vectors.Cases {
		var paths []string
		for p := range tc.Files {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		f.Add(strings.Join(paths, "\x00"))
	}
	for _, tc := range vectors.Invalid {
		f.Add(strings.Join(tc.Paths, "\x00"))
	}
	bench := testvectors.Read(f, testvectors.BenchDir(), "inputs", "bundle-200.paths.txt")
	f.Add(strings.ReplaceAll(strings.TrimSpace(string(bench)), "\n", "\x00"))
	f.Add("data/ΑΣ\x00data/ασ")
	f.Add("data/İ\x00data/i\u0307")
	f.Add("code/A\x00code/a/b")

	f.Fuzz(func(t *testing.T, joined string) {
		paths := strings.Split(joined, "\x00")
		if len(paths) > 512 {
			t.Skip("the plain check is quadratic; long lists add nothing the short ones miss")
		}
		err := bundle.CheckPaths(paths)
		reason := plainCheck(paths)
		if err == nil {
			if reason != "" {
				t.Fatalf("accepted %q, but %s", paths, reason)
			}
			return
		}
		if reason == "" {
			t.Fatalf("refused %q (%v), but every rule holds", paths, err)
		}
		var pe *bundle.PathError
		if !errors.Is(err, bundle.ErrLayout) || !errors.As(err, &pe) || !slices.Contains(paths, pe.Path) {
			t.Fatalf("refusal %v is not a PathError naming one of %q", err, paths)
		}
	})
}

// plainCheck says why a path list breaks the bundle rules, or "" when it
// keeps them all. It follows the rules' wording literally.
func plainCheck(paths []string) string {
	lower := cases.Lower(language.Und)
	for _, p := range paths {
		if !utf8.ValidString(p) {
			return "a path is not UTF-8"
		}
		segments := strings.Split(p, "/")
		for _, s := range segments {
			if s == "" || s == "." || s == ".." {
				return "a segment is empty, . or .."
			}
		}
		for _, r := range p {
			if r == '\\' || r <= 0x1f || r == 0x7f {
				return "a backslash or control character"
			}
		}
		if norm.NFC.String(p) != p {
			return "a path is not NFC"
		}
		if len(segments) == 1 && !slices.Contains(bundle.TopLevelFiles, p) {
			return "a top-level file outside the layout"
		}
		if len(segments) > 1 && !slices.Contains(bundle.Directories, segments[0]) {
			return "a directory outside the layout"
		}
	}
	lowered := make([]string, len(paths))
	for i, p := range paths {
		lowered[i] = lower.String(p)
	}
	for i, la := range lowered {
		dir := la + "/"
		for j, lb := range lowered {
			if i != j && la == lb {
				return "two paths equal once lowercased"
			}
			if strings.HasPrefix(lb, dir) {
				return "a path is a directory of another"
			}
		}
	}
	return ""
}
