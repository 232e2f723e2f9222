package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/snapshot"
	"github.com/agora-node/agora/tlog"
)

// snapshotGroup is "agora snapshot get|verify": the node's daily bulk
// snapshots ("Bulk snapshots"), downloaded, and recomputed from its log.
func snapshotGroup() *command {
	return group("snapshot", "download a daily bulk snapshot of the claims, or recompute one from the log and compare",
		"GET /api/v1/snapshots lists the snapshots a node took, newest first.",
		func() []*command { return []*command{snapshotGetCommand(), snapshotVerifyCommand()} })
}

func snapshotGetCommand() *command {
	c := newCommand("get", "agora snapshot get <date> [--url URL] [-o FILE] [--out FILE]",
		"download the snapshot of <date> (YYYY-MM-DD), gzipped JSON Lines, checked",
		"against the digest its card names, to FILE (default <date>.jsonl.gz).")
	c.helpArg = true
	nodeURL := c.nodeURL()
	var out string
	c.flags.StringVar(&out, "o", "", "where to write it (default <date>.jsonl.gz)")
	c.flags.StringVar(&out, "out", "", "the same as -o")
	c.run = func(ctx context.Context, e *env, args []string) int {
		date, code := snapshotDateArg(c, e, args)
		if code != 0 {
			return code
		}
		if out == "" {
			out = date + ".jsonl.gz"
		}
		cl := newTransferClient(*nodeURL)
		card, err := fetchCard(ctx, cl, date)
		if err != nil {
			return snapshotFail(e, date, err)
		}
		n, digest, err := download(ctx, cl, card, out)
		if err != nil {
			return fail(e, exitCouldNotRun, "", "downloading the snapshot of %s: %v", date, err)
		}
		if digest != card.Digest {
			os.Remove(out)
			return fail(e, exitMisbehaved, "", "the node served a file whose digest is %s, but its card names %s", digest, card.Digest)
		}
		fmt.Fprintf(e.stdout, "wrote %s: %d claims, %d bytes, %s, of the log at size %d (%s)\n",
			out, card.Claims, n, digest, card.Head.Size, card.Head.Timestamp)
		return 0
	}
	return c
}

func snapshotVerifyCommand() *command {
	c := newCommand("verify", "agora snapshot verify <file> --url URL [--date DATE]",
		"recompute a snapshot from the node's log (its entries, and the manifest and",
		"claims of each bundle they open, read over the public routes) at the tree",
		"head its card names, and compare it with <file> byte for byte; a difference",
		"is reported with the line and claim it falls in. DATE defaults to the date",
		"the file's name starts with. Exit 0 the same, 1 different, 2 could not finish.")
	c.helpArg = true
	nodeURL := c.nodeURL()
	date := c.flags.String("date", "", "the snapshot's date, YYYY-MM-DD (default: from the file's name)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the snapshot file to verify")
		}
		file := args[0]
		if *date == "" {
			*date = datePrefix.FindString(filepath.Base(file))
			if *date == "" {
				return c.usageError(e, "%s does not say its date: add --date YYYY-MM-DD", filepath.Base(file))
			}
		}
		if !snapshot.IsDate(*date) {
			return c.usageError(e, "--date %q is not a date such as 2026-10-04", *date)
		}
		if _, err := os.Stat(file); err != nil {
			return fail(e, exitCouldNotRun, "give the path of a file 'agora snapshot get' wrote", "%v", err)
		}
		return verifySnapshot(ctx, e, newTransferClient(*nodeURL), file, *date)
	}
	return c
}

var datePrefix = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}`)

func snapshotDateArg(c *command, e *env, args []string) (string, int) {
	if len(args) != 1 {
		return "", c.usageError(e, "give the date of the snapshot, such as 2026-10-04")
	}
	if !snapshot.IsDate(args[0]) {
		return "", c.usageError(e, "%q is not a date: give one such as 2026-10-04", args[0])
	}
	return args[0], 0
}

// snapshotFail reports a snapshot the node could not give.
func snapshotFail(e *env, date string, err error) int {
	if client.IsCode(err, "not_found") {
		return fail(e, exitCouldNotRun, "'curl URL/api/v1/snapshots' lists the snapshots the node took", "the node has no snapshot of %s", date)
	}
	return fail(e, exitCouldNotRun, "", "reading the snapshot of %s: %v", date, err)
}

func fetchCard(ctx context.Context, cl *client.Client, date string) (*snapshot.Card, error) {
	data, err := cl.SnapshotCard(ctx, date)
	if err != nil {
		return nil, err
	}
	return snapshot.ParseCard(data)
}

// download writes the snapshot card names to path, returning its size
// and digest.
func download(ctx context.Context, cl *client.Client, card *snapshot.Card, path string) (int64, string, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, "", err
	}
	h := sha256.New()
	n, err := cl.Snapshot(ctx, card.Date, card.Bytes, io.MultiWriter(f, h))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return 0, "", err
	}
	return n, "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// verifySnapshot recomputes date's snapshot from the node's log and
// compares file with it.
func verifySnapshot(ctx context.Context, e *env, cl *client.Client, file, date string) int {
	card, err := fetchCard(ctx, cl, date)
	if err != nil {
		return snapshotFail(e, date, err)
	}
	info, err := cl.Log(ctx)
	if err != nil {
		return fail(e, exitCouldNotRun, "", "GET /api/v1/log: %v", err)
	}
	if err := checkCardHead(ctx, cl, info, card.Head); err != nil {
		var m misbehaved
		if errors.As(err, &m) {
			return fail(e, exitMisbehaved, "", "the card's tree head: %v", m.err)
		}
		return fail(e, exitCouldNotRun, "", "checking the card's tree head: %v", err)
	}
	tmp, err := os.CreateTemp("", "agora-snapshot-*.jsonl.gz")
	if err != nil {
		return fail(e, exitCouldNotRun, "", "%v", err)
	}
	defer os.Remove(tmp.Name())
	src := snapshot.Source{Leaves: remoteLeaves(cl), Files: remoteFiles(ctx, cl)}
	// A reissued snapshot leaves out the claims of the bundles withdrawn
	// up to its last reissue, which the log's entries after the tree head
	// name.
	var withdrawn map[string]uint64
	if card.LogSize() > card.Head.Size {
		if info.TreeHead.Size < card.LogSize() {
			return fail(e, exitMisbehaved, "", "the card says the snapshot was reissued at log size %d, but the log has %d entries", card.LogSize(), info.TreeHead.Size)
		}
		if withdrawn, err = snapshot.Withdrawals(ctx, src, card.Head.Size, card.LogSize()); err != nil {
			return fail(e, exitCouldNotRun, "", "reading the withdrawals after the tree head: %v", err)
		}
	}
	want, err := snapshot.WriteWithout(ctx, tmp, src, card.Head, date, withdrawn)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, snapshot.ErrRoot) {
		return fail(e, exitMisbehaved, "", "the log's entries are not those its tree head signed: %v", err)
	}
	if err != nil {
		return fail(e, exitCouldNotRun, "", "recomputing the snapshot: %v", err)
	}
	d, err := snapshot.Compare(file, tmp.Name())
	if err != nil {
		return fail(e, exitCouldNotRun, "", "comparing: %v", err)
	}
	if d != nil {
		fmt.Fprintf(e.stdout, "%s differs from the snapshot of %s its log gives: %s\n", file, date, d)
		if d.Got != "" {
			fmt.Fprintf(e.stdout, "  the file:  %s\n", d.Got)
		}
		if d.Want != "" {
			fmt.Fprintf(e.stdout, "  the log:   %s\n", d.Want)
		}
		return fail(e, exitMisbehaved, "", "%s is not the snapshot of %s (%d claims, %s)", file, date, want.Claims, want.Digest)
	}
	if want.Digest != card.Digest || want.Claims != card.Claims {
		return fail(e, exitMisbehaved, "", "the file is the snapshot its log gives (%d claims, %s), but the node's card says %d claims, %s",
			want.Claims, want.Digest, card.Claims, card.Digest)
	}
	fmt.Fprintf(e.stdout, "%s is the snapshot of %s its log gives, byte for byte: %d claims, %d bytes, %s, at log size %d\n",
		file, date, want.Claims, want.Bytes, want.Digest, card.Head.Size)
	return exitVerified
}

// checkCardHead checks that the card's tree head is the log's: signed by
// its key, and, when the log has grown since, that the latest head
// extends it.
func checkCardHead(ctx context.Context, cl *client.Client, info *client.LogInfo, head tlog.TreeHead) error {
	if head.Log != info.Log {
		return bad("it names log %s, but the node's log is %s", head.Log, info.Log)
	}
	if err := tlog.VerifyTreeHead(head, info.PublicKey); err != nil {
		return bad("%v", err)
	}
	latest := info.TreeHead
	if latest == nil || latest.Size < head.Size {
		return bad("the log's latest tree head is smaller than the card's (%d entries)", head.Size)
	}
	if latest.Size == head.Size {
		if latest.Root != head.Root {
			return bad("two roots for %d entries: %s and %s", head.Size, head.Root, latest.Root)
		}
		return nil
	}
	proof, err := cl.ConsistencyProof(ctx, head.Size, latest.Size)
	if err != nil {
		return fmt.Errorf("GET the consistency proof from %d to %d: %w", head.Size, latest.Size, err)
	}
	if err := tlog.VerifyTreeGrowth(head, *latest, proof, info.PublicKey); err != nil {
		return bad("the latest tree head does not extend the card's: %v", err)
	}
	return nil
}

// remoteLeaves reads leaves over GET /api/v1/log/entries, each checked
// against the leaf hash the node states for it (the root Write checks
// covers them all).
func remoteLeaves(cl *client.Client) func(context.Context, uint64, uint64) ([][]byte, error) {
	return func(ctx context.Context, start, end uint64) ([][]byte, error) {
		entries, err := cl.Entries(ctx, start, end)
		if err != nil {
			return nil, err
		}
		out := make([][]byte, len(entries))
		for i, en := range entries {
			if en.Index != start+uint64(i) {
				return nil, fmt.Errorf("asked for entry %d, got %d", start+uint64(i), en.Index)
			}
			if out[i], err = canonical.Marshal(en.Leaf); err != nil {
				return nil, err
			}
			if tlog.LeafHash(out[i]) != en.LeafHash {
				return nil, fmt.Errorf("entry %d does not hash to the leaf hash the node states", en.Index)
			}
		}
		return out, nil
	}
}
