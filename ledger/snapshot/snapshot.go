// Package snapshot makes the ledger's bulk snapshots (spec/ledger-protocol.md,
// "Bulk snapshots"): every claim of a bundle still up, each once, as one
// canonical JSON object per line, gzipped, with a data card.
//
// A snapshot is a function of the log up to a signed tree head and of the
// manifest and claims of the bundles it opened, nothing else: the node
// that serves it and a reader that recomputes it from the node's public
// routes (agora snapshot verify) run the same Write and get the same bytes.
// For that the gzip stream has a fixed header (no name, no time) and a
// fixed level, records come in log order, and statuses are those the log
// gives as of the tree head's timestamp.
//
// Write reads the log twice, a page at a time: once to derive statuses
// (ledger/status) and check the leaves against the tree head's root, once
// to write each claim at the bundle entry that first opened it. What it
// holds is the Deriver's state, a few hundred bytes a claim, and the files
// of a few bundles; never the log, the records or the output.
package snapshot

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
	"github.com/agora-node/agora/ledger/status"
	"github.com/agora-node/agora/tlog"
)

// Level is the gzip level every snapshot is written at: part of the
// format, since another level gives other bytes.
const Level = 6

// Page is how many leaves Write asks its Source for at once; the node's
// public route serves at most 100.
const Page = 100

// ErrRoot is returned when the leaves a Source gives do not hash to the
// tree head's root: the log is not the one the head signed.
var ErrRoot = errors.New("snapshot: the leaves do not hash to the tree head's root")

// Source is where Write reads the log and the bundles.
type Source struct {
	// Leaves returns the log's leaves [start, end), at most Page of them,
	// each as the tree holds it; fewer is an error.
	Leaves func(ctx context.Context, start, end uint64) ([][]byte, error)
	// Files reads an opened bundle's manifest.json and claims.json, as
	// status.Files does; a bundle withdrawn since is an error, as its
	// files are no longer served.
	Files status.Files
}

// Write writes the snapshot of the log at head to w, the gzipped records,
// and returns its card, dated date, with what it counts.
func Write(ctx context.Context, w io.Writer, src Source, head tlog.TreeHead, date string) (*Card, error) {
	return WriteWithout(ctx, w, src, head, date, nil)
}

// WriteWithout is Write leaving out the claims whose bundle, as the
// snapshot names it, is one of withdrawn (bundle hash to the index of
// the withdrawal entry, logged after head): a reissue, whose other lines
// are the ones Write gives, byte for byte. The card's dropped are the
// withdrawals that left a line out.
func WriteWithout(ctx context.Context, w io.Writer, src Source, head tlog.TreeHead, date string, withdrawn map[string]uint64) (*Card, error) {
	at, err := head.Time()
	if err != nil {
		return nil, fmt.Errorf("snapshot: tree head: %w", err)
	}
	d := status.New(src.Files)
	root := &tlog.Range{}
	if err := eachLeaf(ctx, src, head.Size, func(i uint64, leaf []byte) error {
		root.Append(tlog.LeafHash(leaf))
		return d.Add(i, leaf)
	}); err != nil {
		return nil, err
	}
	if root.Root() != head.Root {
		return nil, fmt.Errorf("%w: %s at size %d, not %s", ErrRoot, root.Root(), head.Size, head.Root)
	}
	card := newCard(date, head, at)
	out := &counter{w: w, h: sha256.New()}
	zw, err := gzip.NewWriterLevel(out, Level)
	if err != nil {
		return nil, err
	}
	buf := bufio.NewWriterSize(zw, 64<<10)
	files := newBundleCache(src.Files)
	var line []byte
	err = eachLeaf(ctx, src, head.Size, func(i uint64, leaf []byte) error {
		ids, ok := revealed(leaf)
		if !ok {
			return nil
		}
		for _, id := range ids {
			p, ok := d.Placement(id)
			if !ok || p.First.Index != i || p.Bundle == "" || p.Position < 0 {
				continue // written where it first opened, or no longer up
			}
			if index, gone := withdrawn[p.Bundle]; gone {
				card.dropped[index] = true
				continue
			}
			b, err := files.get(p.Bundle)
			if err != nil {
				return fmt.Errorf("snapshot: bundle %s of claim %s: %w", p.Bundle, id, err)
			}
			if p.Position >= len(b.claims) {
				return fmt.Errorf("snapshot: bundle %s holds %d claims, none at %d for %s", p.Bundle, len(b.claims), p.Position, id)
			}
			rec := record(id, p, b, d.Statuses(id, at))
			if line, err = canonical.AppendMarshal(line[:0], rec); err != nil {
				return fmt.Errorf("snapshot: claim %s: %w", id, err)
			}
			line = append(line, '\n')
			if _, err := buf.Write(line); err != nil {
				return err
			}
			card.count(rec, b.manifest)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := buf.Flush(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	card.Bytes, card.Digest = out.n, "sha256:"+hex.EncodeToString(out.h.Sum(nil))
	return card, nil
}

// eachLeaf calls fn with each leaf [0, size) in order, a page at a time.
func eachLeaf(ctx context.Context, src Source, size uint64, fn func(uint64, []byte) error) error {
	for start := uint64(0); start < size; start += Page {
		end := min(start+Page, size)
		leaves, err := src.Leaves(ctx, start, end)
		if err != nil {
			return fmt.Errorf("snapshot: leaves %d to %d: %w", start, end, err)
		}
		if uint64(len(leaves)) != end-start {
			return fmt.Errorf("snapshot: asked for leaves %d to %d, got %d", start, end, len(leaves))
		}
		for j, leaf := range leaves {
			if err := fn(start+uint64(j), leaf); err != nil {
				return err
			}
		}
	}
	return nil
}

// Withdrawals scans the leaves [from, to) for withdrawal entries: the
// bundles they take down, each by the index of its withdrawal.
func Withdrawals(ctx context.Context, src Source, from, to uint64) (map[string]uint64, error) {
	out := map[string]uint64{}
	for start := from; start < to; start += Page {
		end := min(start+Page, to)
		leaves, err := src.Leaves(ctx, start, end)
		if err != nil {
			return nil, fmt.Errorf("snapshot: leaves %d to %d: %w", start, end, err)
		}
		for j, leaf := range leaves {
			hash, err := WithdrawnBundle(leaf)
			if err != nil {
				return nil, fmt.Errorf("snapshot: leaf %d: %w", start+uint64(j), err)
			}
			if _, seen := out[hash]; hash != "" && !seen {
				out[hash] = start + uint64(j)
			}
		}
	}
	return out, nil
}

// WithdrawnBundle is the bundle a leaf's withdrawal entry takes down, ""
// for a leaf of any other entry. Only a leaf naming a withdrawal is
// parsed.
func WithdrawnBundle(leaf []byte) (string, error) {
	if !bytes.Contains(leaf, []byte(`"withdrawal"`)) {
		return "", nil
	}
	v, err := canonical.Parse(leaf)
	if err != nil {
		return "", err
	}
	obj, _ := v.(map[string]any)
	entry, _ := obj["entry"].(map[string]any)
	if hash, _ := entry["bundle"].(string); entry["type"] == "withdrawal" {
		return hash, nil
	}
	return "", nil
}

// revealed returns the claim IDs of a bundle entry that revealed a
// bundle, in claims.json order; false for any other leaf.
func revealed(leaf []byte) ([]string, bool) {
	if !bytes.Contains(leaf, []byte(`"sealed":`)) {
		return nil, false // most leaves, left unparsed
	}
	v, err := canonical.Parse(leaf)
	if err != nil {
		return nil, false
	}
	obj, _ := v.(map[string]any)
	entry, _ := obj["entry"].(map[string]any)
	if entry["type"] != "bundle" {
		return nil, false
	}
	if _, ok := obj["sealed"]; !ok {
		return nil, false
	}
	list, _ := obj["claims"].([]any)
	ids := make([]string, 0, len(list))
	for _, item := range list {
		if id, ok := item.(string); ok {
			ids = append(ids, id)
		}
	}
	return ids, true
}

// record is one claim's line.
func record(id string, p status.Placement, b *bundleFiles, statuses []string) map[string]any {
	c := &b.claims[p.Position]
	m := b.manifest
	var org any
	if p.Organization != "" {
		org = p.Organization
	}
	cluster, _ := claims.AssertionDigest(c) // a validated claim's strings encode
	return map[string]any{
		"claim_id": id, "statement": c.Statement, "type": c.Type, "core": c.Core,
		"statuses": nonNil(statuses), "fields": nonNil(m.Fields), "bundle": p.Bundle, "local_id": c.LocalID,
		"operator": p.Operator, "organization": org,
		"model_families": nonNil(m.ModelFamilies), "models": nonNil(m.Models),
		"written_by": writtenBy(m), "duplicate_cluster": cluster, "licenses": licenses(m),
		"entry_index": p.First.Index, "published_at": tlog.FormatTimestamp(p.First.At),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writtenBy(m *bundle.Manifest) string {
	if m.WrittenBy == "" {
		return "agent" // the manifest's default
	}
	return m.WrittenBy
}

// DefaultDataLicense is the data licence of a bundle whose manifest names
// none ("Ground rules").
const DefaultDataLicense = "CC-BY-4.0"

// licenses are the bundle's licences, which a record names: the claim
// itself and its metadata are CC0 in every snapshot.
func licenses(m *bundle.Manifest) map[string]string {
	data := m.License.Data
	if data == "" {
		data = DefaultDataLicense
	}
	return map[string]string{"prose": m.License.Prose, "code": m.License.Code, "data": data}
}

// bundleFiles are what a record reads of a bundle.
type bundleFiles struct {
	manifest *bundle.Manifest
	claims   []claims.Claim
}

// bundleCache keeps the files of the last few bundles read: claims are
// written where they first opened, so a bundle is mostly read once, but
// an unchanged claim of a correction is read from the correction.
type bundleCache struct {
	files status.Files
	held  map[string]*bundleFiles
}

const bundlesCached = 64

func newBundleCache(files status.Files) *bundleCache {
	return &bundleCache{files: files, held: map[string]*bundleFiles{}}
}

func (c *bundleCache) get(hash string) (*bundleFiles, error) {
	if b := c.held[hash]; b != nil {
		return b, nil
	}
	m, err := parsed(c.files, hash, "manifest.json", bundle.ParseManifest)
	if err != nil {
		return nil, err
	}
	cs, err := parsed(c.files, hash, "claims.json", claims.ParseFile)
	if err != nil {
		return nil, err
	}
	if len(c.held) >= bundlesCached {
		clear(c.held)
	}
	b := &bundleFiles{manifest: m, claims: cs}
	c.held[hash] = b
	return b, nil
}

// parsed reads a bundle's file and parses it, its first issue an error.
func parsed[T any](files status.Files, hash, path string, parse func([]byte) (T, []claims.Issue, error)) (T, error) {
	var zero T
	text, err := files(hash, path)
	if err != nil {
		return zero, err
	}
	v, issues, err := parse(text)
	if err == nil && len(issues) > 0 {
		err = fmt.Errorf("%s: %s", path, issues[0])
	}
	if err != nil {
		return zero, err
	}
	return v, nil
}

// counter counts and hashes what passes to w: the file as served.
type counter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.h.Write(p[:n])
	c.n += int64(n)
	return n, err
}
