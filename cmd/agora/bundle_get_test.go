package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agora-node/agora/ledger/bundle"
)

// hostileNode is a node that lies: it lists whatever files, sizes and
// hash it is told, and serves whatever bytes it is told for a digest.
type hostileNode struct {
	hash  string
	files map[string]string // path → digest, as the record lists them
	sizes map[string]int64
	serve map[string][]byte // digest → the bytes it sends
	// before, if set, runs before a file's bytes go out.
	before func(digest string)
}

func (h *hostileNode) start(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/bundles/{hash}", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"bundle": h.hash, "state": "open", "files": h.files, "sizes": h.sizes, "claims": []any{}})
	})
	mux.HandleFunc("GET /api/v1/files/{digest}", func(w http.ResponseWriter, r *http.Request) {
		d := r.PathValue("digest")
		if h.before != nil {
			h.before(d)
		}
		data, ok := h.serve[d]
		if !ok {
			http.Error(w, `{"error": "no such file", "code": "not_found"}`, http.StatusNotFound)
			return
		}
		w.Write(data)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func digestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// honestly lists files as a node should: their digests, sizes, the hash
// they make, and their bytes.
func honestly(t *testing.T, files map[string][]byte) *hostileNode {
	t.Helper()
	h := &hostileNode{files: map[string]string{}, sizes: map[string]int64{}, serve: map[string][]byte{}}
	for p, data := range files {
		d := digestOf(data)
		h.files[p], h.sizes[p], h.serve[d] = d, int64(len(data)), data
	}
	digests, err := bundle.DigestWithUploads(nil, h.files)
	if err != nil {
		h.hash = "sha256:" + strings.Repeat("0", 64) // paths the rules refuse hash to nothing
	} else {
		h.hash = digests.Bundle
	}
	return h
}

// filesUnder lists every file and link below dir, relative to it.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			found = append(found, rel)
		}
		return nil
	})
	return found
}

var goodFiles = map[string][]byte{
	"paper.md":      []byte("# A study\n"),
	"claims.json":   []byte("[]"),
	"code/count.py": []byte("print(7)\n"),
}

func with(extra map[string][]byte) map[string][]byte {
	out := map[string][]byte{}
	for p, d := range goodFiles {
		out[p] = d
	}
	for p, d := range extra {
		out[p] = d
	}
	return out
}

// TestBundleGetHonestNode is the baseline the hostile cases depart from:
// the same server, listing truthfully, gets every file written.
func TestBundleGetHonestNode(t *testing.T) {
	h := honestly(t, goodFiles)
	url := h.start(t)
	out := filepath.Join(t.TempDir(), "copy")
	_, stderr := agora(t, 0, "bundle", "get", h.hash, "--out", out, "--url", url)
	if !strings.Contains(stderr, "wrote 3 files") {
		t.Errorf("stderr: %s", stderr)
	}
	for p, want := range goodFiles {
		if got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p))); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
	if got := filesUnder(t, out); len(got) != len(goodFiles) {
		t.Errorf("files left: %v (temporary files must be gone)", got)
	}
}

// TestBundleGetHostileNode serves what a hostile node would, and checks
// that the command fails naming the path and why, and that nothing is
// written anywhere: not outside --out, and not inside it either.
func TestBundleGetHostileNode(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 4<<20)
	cases := []struct {
		name string
		node func(t *testing.T) *hostileNode
		want []string // in stderr
	}{
		{"parent", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"../escaped.txt": []byte("pwned")}))
		},
			[]string{`"../escaped.txt"`, "not a normalized relative path"}},
		{"parent inside", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"code/sub/../../../escaped2.txt": []byte("pwned")}))
		}, []string{`"code/sub/../../../escaped2.txt"`, "not a normalized relative path"}},
		{"issue's path", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"sub/../../escaped2.txt": []byte("pwned")}))
		}, []string{`"sub/../../escaped2.txt"`}},
		{"absolute", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"/tmp/abs.txt": []byte("pwned")}))
		},
			[]string{`"/tmp/abs.txt"`}},
		{"backslash", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{`code\..\..\escaped.txt`: []byte("pwned")}))
		}, []string{"backslash"}},
		{"case clash", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"code/Count.py": []byte("other")}))
		}, []string{"letter case"}},
		{"file is a folder", func(t *testing.T) *hostileNode {
			return honestly(t, with(map[string][]byte{"code/count.py/x": []byte("x")}))
		}, []string{"code/count.py"}},
		{"outside the layout", func(t *testing.T) *hostileNode { return honestly(t, with(map[string][]byte{".bashrc": []byte("x")})) },
			[]string{`".bashrc"`, "outside the submission layout"}},
		{"list not the bundle's", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			h.hash = "sha256:" + strings.Repeat("1", 64)
			return h
		}, []string{"hash to", "not sha256:1111"}},
		{"oversize body", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			h.serve[h.files["code/count.py"]] = big // listed as 9 bytes
			return h
		}, []string{"code/count.py", "more than 9 bytes"}},
		{"short body", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			h.serve[h.files["code/count.py"]] = []byte("print")
			return h
		}, []string{"code/count.py", "sent 5 bytes, not the 9"}},
		{"wrong digest", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			h.serve[h.files["code/count.py"]] = []byte("rm -rf /\n")
			return h
		}, []string{"code/count.py", "hashing to " + digestOf([]byte("rm -rf /\n"))}},
		{"no size", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			delete(h.sizes, "paper.md")
			return h
		}, []string{`"paper.md"`, "no size"}},
		{"huge size", func(t *testing.T) *hostileNode {
			h := honestly(t, goodFiles)
			h.sizes["paper.md"] = 1 << 50
			return h
		}, []string{`"paper.md"`, "no size"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			out := filepath.Join(base, "a", "copy")
			os.Mkdir(filepath.Join(base, "a"), 0o755)
			h := c.node(t)
			url := h.start(t)
			_, stderr := agora(t, 1, "bundle", "get", h.hash, "--out", out, "--url", url)
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if got := filesUnder(t, base); len(got) != 0 {
				t.Errorf("files written: %v", got)
			}
		})
	}
}

// TestBundleGetRootHoldsAgainstALink plants, while the download runs, a
// link inside --out to a folder outside it, as a local attacker racing
// the command would: the next file, whose folder is now the link, is not
// written through it.
func TestBundleGetRootHoldsAgainstALink(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	os.Mkdir(outside, 0o755)
	out := filepath.Join(base, "copy")
	h := honestly(t, with(map[string][]byte{"data/x.csv": []byte("1,2\n")}))
	h.before = func(digest string) {
		if digest == h.files["claims.json"] { // claims.json comes before data/ in path order
			os.Symlink(outside, filepath.Join(out, "data"))
		}
	}
	url := h.start(t)
	_, stderr := agora(t, 1, "bundle", "get", h.hash, "--out", out, "--url", url)
	if !strings.Contains(stderr, "data/x.csv") {
		t.Errorf("stderr: %s", stderr)
	}
	if got := filesUnder(t, outside); len(got) != 0 {
		t.Errorf("written through the link: %v", got)
	}
	if _, err := os.Lstat(out); !os.IsNotExist(err) {
		t.Errorf("--out left behind: %v", err)
	}
}
