package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/vocabulary"
)

// bundleGetCommand is "agora bundle get <hash> [--out DIR]": an open
// bundle's record, and with --out its files, each checked against its
// digest.
func bundleGetCommand() *command {
	c := newCommand("get", "agora bundle get <bundle-hash> [--out DIR] [--url URL] [--json]",
		"an open bundle's claims, and with --out its files, each checked against its digest")
	out := c.flags.String("out", "", "write the bundle's files into this folder, which must not exist yet")
	url := c.nodeURL()
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give one bundle hash (sha256:...)")
		}
		cl := newClient(*url)
		b, err := cl.Bundle(ctx, args[0])
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			if code := printBundleJSON(e, b); code != 0 {
				return code
			}
		} else {
			printBundle(e, b)
		}
		if *out == "" {
			return 0
		}
		return fetchBundleFiles(ctx, e, newTransferClient(*url), args[0], b, *out)
	}
	return c
}

func printBundle(e *env, b map[string]any) {
	fmt.Fprintf(e.stdout, "bundle    %v\nstate     %v\n", b["bundle"], b["state"])
	if t, ok := b["tombstone"].(map[string]any); ok {
		fmt.Fprintf(e.stdout, "withdrawn %v (entry %v)\n", t["reason"], t["withdrawal"])
	}
	claimsList, _ := b["claims"].([]any)
	for _, item := range claimsList {
		cl, _ := item.(map[string]any)
		fmt.Fprintf(e.stdout, "  %v  %v  %v\n", cl["local_id"], cl["claim_id"], cl["statement"])
	}
}

// listedFile is one file a bundle's record lists: where it goes, what it
// hashes to, and how many bytes it holds.
type listedFile struct {
	path   string
	digest string
	size   int64
}

// errListing is wrapped by every refusal of what a bundle's record lists.
var errListing = errors.New("the node's list of files is refused")

// bundleListing reads the files of bundle hash from its record b (its
// "files", path → digest, and "sizes", path → bytes) and checks the list
// before anything is written: every path keeps the bundle path rules (the
// rules the node applies to submitted paths, so no "..", no absolute path,
// no backslash, no two paths a case-insensitive file system would merge,
// no file that is also a folder), every size is a whole number within what
// a bundle file may hold, and the paths and digests hash to hash, so the
// node cannot list other files than the bundle asked for.
func bundleListing(hash string, b map[string]any) ([]listedFile, error) {
	files, _ := b["files"].(map[string]any)
	sizes, _ := b["sizes"].(map[string]any)
	if len(files) == 0 {
		return nil, fmt.Errorf("the node serves no files of %s: %w", hash, errListing)
	}
	digests := make(map[string]string, len(files))
	list := make([]listedFile, 0, len(files))
	for p, v := range files {
		d, _ := v.(string)
		size, ok := sizes[p].(float64)
		if !ok || size < 0 || size != float64(int64(size)) || size > vocabulary.MaxUploadBytes {
			return nil, fmt.Errorf("%q: the node gives no size, or one no bundle file has (%v): %w", p, sizes[p], errListing)
		}
		digests[p] = d
		list = append(list, listedFile{path: p, digest: d, size: int64(size)})
	}
	got, err := bundle.DigestWithUploads(nil, digests)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errListing, err)
	}
	if got.Bundle != hash {
		return nil, fmt.Errorf("the files listed hash to %s, not %s: %w", got.Bundle, hash, errListing)
	}
	slices.SortFunc(list, func(a, b listedFile) int { return cmp.Compare(a.path, b.path) })
	return list, nil
}

// fetchBundleFiles writes the files of bundle hash, as its record b lists
// them, into out, a folder it makes. Every write goes through an os.Root
// on out, so no path, link or race can put a byte outside it. On any
// failure it removes out with what it wrote, so a half-checked copy is
// never left to be mistaken for the bundle.
func fetchBundleFiles(ctx context.Context, e *env, c *client.Client, hash string, b map[string]any, out string) int {
	list, err := bundleListing(hash, b)
	if err != nil {
		return fail(e, 1, "the node may be hostile or broken: nothing was written", "%v", err)
	}
	if err := os.Mkdir(out, 0o755); err != nil {
		return fail(e, 1, "give --out a folder that does not exist yet", "%v", err)
	}
	root, err := os.OpenRoot(out)
	if err != nil {
		os.Remove(out)
		return fail(e, 1, "", "%v", err)
	}
	for _, f := range list {
		if err := fetchFile(ctx, c, root, f); err != nil {
			root.Close()
			os.RemoveAll(out)
			return fail(e, 1, "nothing was kept: "+out+" was removed", "%s: %v", f.path, err)
		}
	}
	if err := root.Close(); err != nil {
		return fail(e, 1, "", "%v", err)
	}
	fmt.Fprintf(e.stderr, "agora: wrote %d files to %s, each matching its digest\n", len(list), out)
	return 0
}

// fetchFile downloads f into root: into a temporary file beside its
// place, at most f.size bytes, renamed into place only once its size and
// digest check out, and removed otherwise.
func fetchFile(ctx context.Context, c *client.Client, root *os.Root, f listedFile) (err error) {
	dir := path.Dir(f.path)
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var nonce [8]byte
	rand.Read(nonce[:]) // never fails (crypto/rand)
	// A random name, opened O_EXCL: it never meets a file of the bundle
	// unnoticed.
	tmp := path.Join(dir, ".agora-"+hex.EncodeToString(nonce[:])+".part")
	w, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			root.Remove(tmp)
		}
	}()
	h := sha256.New()
	fileCtx, cancel := context.WithTimeout(ctx, transferDeadline(f.size))
	defer cancel()
	n, err := c.File(fileCtx, f.digest, f.size, io.MultiWriter(w, h))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n != f.size {
		return fmt.Errorf("the node sent %d bytes, not the %d it lists", n, f.size)
	}
	if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != f.digest {
		return fmt.Errorf("the node sent bytes hashing to %s, not %s", got, f.digest)
	}
	return root.Rename(tmp, f.path)
}
