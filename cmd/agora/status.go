package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
)

// maxDerivedFile bounds a manifest or claims file agora status reads.
const maxDerivedFile = 4 << 20

func statusCommand() *command {
	c := newCommand("status", "agora status [--url URL]",
		"recompute every claim's statuses, every addendum's state and every operator's",
		"nectar, reputation, limits, badges and place from the node's log alone (and",
		"claims' importance as the node serves it, which is not logged), and compare",
		"them with what the node serves, one by one. The log is",
		"audited first as 'agora log verify' audits it; the only other things read are",
		"the manifest and claims of each opened bundle, checked against their digests.",
		"Exit 0 when every claim, addendum and operator agrees, 1 when one does not or the log",
		"misbehaved, 2 when the check could not finish.")
	nodeURL := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		dir, err := os.MkdirTemp("", "agora-status-")
		if err != nil {
			return fail(e, exitCouldNotRun, "", "%v", err)
		}
		defer os.RemoveAll(dir)
		cl := newClient(*nodeURL)
		var leaves [][]byte
		a := &audit{c: cl, out: io.Discard, pinPath: filepath.Join(dir, "pin.json"),
			onLeaf: func(leaf map[string]any) error {
				data, err := canonical.Marshal(leaf)
				leaves = append(leaves, data)
				return err
			}}
		if code := auditExit(e, a.run(ctx)); code != exitVerified {
			return code
		}
		d, book := status.New(remoteFiles(ctx, cl)), standing.New()
		for i, leaf := range leaves {
			if err := d.Add(uint64(i), leaf); err != nil {
				return fail(e, exitMisbehaved, "", "entry %d: %v", i, err)
			}
			if err := book.Add(uint64(i), leaf); err != nil {
				return fail(e, exitMisbehaved, "", "entry %d: %v", i, err)
			}
		}
		now := time.Now()
		differ, err := compareStatuses(ctx, e.stdout, cl, d, now)
		if err != nil {
			return fail(e, exitCouldNotRun, "", "could not finish: %v", err)
		}
		if differ > 0 {
			return fail(e, exitMisbehaved, "", "%d claims are served with statuses their log does not give", differ)
		}
		if differ, err = compareAddenda(ctx, e.stdout, cl, d, now); err != nil {
			return fail(e, exitCouldNotRun, "", "could not finish: %v", err)
		}
		if differ > 0 {
			return fail(e, exitMisbehaved, "", "%d addenda are served in states their log does not give", differ)
		}
		if differ, err = compareStanding(ctx, e.stdout, cl, book, d, now); err != nil {
			return fail(e, exitCouldNotRun, "", "could not finish: %v", err)
		}
		if differ > 0 {
			return fail(e, exitMisbehaved, "", "%d operators are served with nectar, reputation or limits their log does not give", differ)
		}
		return exitVerified
	}
	return c
}

// compareStatuses asks the node for every claim d knows and prints each
// with its derived statuses, marking those the node serves otherwise; it
// returns how many differ.
func compareStatuses(ctx context.Context, w io.Writer, cl *client.Client, d *status.Deriver, now time.Time) (int, error) {
	ids := d.IDs()
	differ := 0
	for _, id := range ids {
		derived, _ := d.Claim(id, now)
		served, err := cl.Claim(ctx, id)
		if err != nil {
			return differ, fmt.Errorf("GET /api/v1/claims/%s: %w", id, err)
		}
		var got []string
		for _, s := range asAnyList(served["statuses"]) {
			if str, ok := s.(string); ok {
				got = append(got, str)
			}
		}
		line := fmt.Sprintf("%s  %s", id, strings.Join(derived.Statuses, " "))
		if !slices.Equal(got, derived.Statuses) {
			differ++
			line += fmt.Sprintf("  DIFFERS: the node serves %s", strings.Join(got, " "))
		}
		fmt.Fprintln(w, line)
	}
	counts := map[string]int{}
	for _, id := range ids {
		c, _ := d.Claim(id, now)
		for _, s := range c.Statuses {
			counts[s]++
		}
	}
	var parts []string
	for s, n := range counts {
		parts = append(parts, fmt.Sprintf("%s %d", s, n))
	}
	sort.Strings(parts)
	fmt.Fprintf(w, "%d claims from %d entries (%s): %d agree, %d differ\n", len(ids), d.Size(), strings.Join(parts, ", "), len(ids)-differ, differ)
	return differ, nil
}

func asAnyList(v any) []any {
	list, _ := v.([]any)
	return list
}

// remoteFiles reads an opened bundle's files from the node: the bundle's
// list of paths and digests, then each file by its digest, which the
// bytes must hash to.
func remoteFiles(ctx context.Context, cl *client.Client) status.Files {
	return func(hash, path string) ([]byte, error) {
		b, err := cl.Bundle(ctx, hash)
		if err != nil {
			return nil, err
		}
		files, _ := b["files"].(map[string]any)
		digest, _ := files[path].(string)
		if digest == "" {
			return nil, fmt.Errorf("bundle %s lists no %s", hash, path)
		}
		var buf bytes.Buffer
		if _, err := cl.File(ctx, digest, maxDerivedFile, &buf); err != nil {
			return nil, err
		}
		if canonical.Digest(buf.Bytes()) != digest {
			return nil, fmt.Errorf("%s of bundle %s does not hash to %s", path, hash, digest)
		}
		return buf.Bytes(), nil
	}
}
