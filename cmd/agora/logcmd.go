package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agora-node/agora/internal/home"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// Exit codes of 'agora log verify', the reference monitor's.
const (
	exitVerified    = 0 // every check passed
	exitMisbehaved  = 1 // the log served something that does not verify
	exitCouldNotRun = 2 // the check could not finish: the node unreachable, an error answered
)

// logGroup is "agora log show|entries|verify": reading a node's log and
// auditing it with the protocol core's verifiers, never the node's code.
func logGroup() *command {
	return group("log", "read a node's log and audit it with the protocol core: log show|entries|verify", "", func() []*command {
		return []*command{logShowCommand(), logEntriesCommand(), logVerifyCommand()}
	})
}

func logShowCommand() *command {
	c := newCommand("show", "agora log show [--url URL] [--pin FILE]",
		"print the log's ID, size, root and tree head time, its signature checked")
	nodeURL := c.nodeURL()
	pinFlag := c.flags.String("pin", "", "a pin file 'agora log verify' wrote: check the tree head against its key")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		info, err := newClient(*nodeURL).Log(ctx)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		key := info.PublicKey
		if *pinFlag != "" {
			p, err := readPin(*pinFlag)
			if err != nil {
				return fail(e, 1, "", "%v", err)
			}
			if p != nil {
				if p.PublicKey != info.PublicKey {
					return fail(e, 1, "", "the log's key is not the one pinned in %s: this is another log, %s, not %s", *pinFlag, protocol.LogID(info.PublicKey), p.Log)
				}
				key = p.PublicKey
			}
		}
		if info.Log != protocol.LogID(key) {
			return fail(e, 1, "", "the log calls itself %s, but its key makes %s", info.Log, protocol.LogID(key))
		}
		fmt.Fprintf(e.stdout, "log: %s\n", info.Log)
		if info.TreeHead == nil {
			fmt.Fprintln(e.stdout, "size: 0 (no tree head signed yet)")
			return 0
		}
		h := info.TreeHead
		if err := tlog.VerifyTreeHead(*h, key); err != nil || h.Log != info.Log {
			return fail(e, 1, "", "the tree head does not verify under the log's key: %v", err)
		}
		fmt.Fprintf(e.stdout, "size: %d\nroot: %s\ntime: %s\n", h.Size, h.Root, h.Timestamp)
		return 0
	}
	return c
}

func logEntriesCommand() *command {
	c := newCommand("entries", "agora log entries [--url URL] [--start N [--end M] | --latest N]",
		"print entries as JSON lines (default the latest 10)")
	nodeURL := c.nodeURL()
	start := c.flags.Int64("start", -1, "the first entry's index")
	end := c.flags.Int64("end", -1, "the index after the last entry (default the log's size)")
	latest := c.flags.Int64("latest", -1, "the latest N entries (default 10 when no --start)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		switch {
		case len(args) > 0:
			return c.noArgs(e, args)
		case *latest >= 0 && (*start >= 0 || *end >= 0):
			return c.usageError(e, "ask with --latest, or with --start and --end, not both")
		case *end >= 0 && *start < 0:
			return c.usageError(e, "--end needs --start")
		case *start >= 0 && *end >= 0 && *end < *start:
			return c.usageError(e, "--end (%d) is before --start (%d)", *end, *start)
		case *start < -1 || *end < -1 || *latest < -1:
			return c.usageError(e, "indexes and counts are not negative")
		}
		return logEntries(ctx, e, newClient(*nodeURL), *start, *end, *latest)
	}
	return c
}

func logEntries(ctx context.Context, e *env, c *client.Client, start, end, latest int64) int {
	info, err := c.Log(ctx)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	var size uint64
	if info.TreeHead != nil {
		size = info.TreeHead.Size
	}
	from, to := uint64(max(start, 0)), size
	if start < 0 {
		n := uint64(10)
		if latest >= 0 {
			n = uint64(latest)
		}
		from = size - min(n, size)
	} else if end >= 0 {
		to = uint64(end)
	}
	for from < to {
		entries, err := c.Entries(ctx, from, min(to, from+100))
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if len(entries) == 0 {
			break
		}
		for _, entry := range entries {
			line, err := canonical.Marshal(entry.Object())
			if err != nil {
				return fail(e, 1, "", "entry %d: %v", entry.Index, err)
			}
			fmt.Fprintf(e.stdout, "%s\n", line)
		}
		from = entries[len(entries)-1].Index + 1
	}
	return 0
}

// pin is what 'agora log verify' keeps between runs: the log's key, pinned
// on first use, and the newest tree head it verified, with the compact
// range of the leaf hashes under it, so the next run checks only the new
// entries and still checks that the leaves hash to the signed root; and,
// for each operator the log holds a key of, the indexes of the entries
// that gave it its keys and the organization its identity counts it in,
// so the next run checks the signatures of operators whose keys were
// logged before the pinned head, reading each key from its entry.
type pin struct {
	URL       string                  `json:"url"`
	Log       string                  `json:"log"`
	PublicKey string                  `json:"public_key"`
	TreeHead  json.RawMessage         `json:"tree_head,omitempty"`
	Range     []string                `json:"range,omitempty"`
	Signers   map[string]pinnedSigner `json:"signers"` // nil in a pin an older agora wrote
	// IdentitiesKept is whether Signers hold each operator's identities,
	// which its key recoveries rest on: false in a pin an older agora wrote.
	IdentitiesKept bool `json:"identities_kept,omitempty"`
}

// pinnedSigner is what a pin keeps of one operator.
type pinnedSigner struct {
	Keys         []uint64 `json:"keys"`                   // the indexes of its key entry and rotations, oldest first
	Organization string   `json:"organization,omitempty"` // as its identity entry's leaf says
	// Identities are the identities the log gave it, in log order.
	Identities []pinnedIdentity `json:"identities,omitempty"`
}

// pinnedIdentity is one identity a pin keeps: its kind, what it rests on
// (the domain, repository, voucher or sponsor) and where it is logged.
type pinnedIdentity struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject,omitempty"`
	Index   uint64 `json:"index"`
}

// readPin reads a pin file; nil, nil when there is none yet.
func readPin(path string) (*pin, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the pin file: %w", err)
	}
	var p pin
	if err := json.Unmarshal(data, &p); err != nil || p.PublicKey == "" {
		return nil, fmt.Errorf("%s is not a pin file 'agora log verify' wrote", path)
	}
	if _, err := hybrid.ParsePublicKey(p.PublicKey); err != nil {
		return nil, fmt.Errorf("the key pinned in %s is not a public key: %w", path, err)
	}
	return &p, nil
}

// writePin replaces the pin file with p, atomically.
func writePin(path string, p *pin) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".pin-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// defaultPinPath is where the key of the log at nodeURL is pinned unless
// --pin says otherwise: one file per node in the pins folder (home.Pins).
func defaultPinPath(nodeURL string) (string, error) {
	dir, err := home.Pins(os.Getenv)
	if err != nil {
		return "", err
	}
	name, err := nodeFileName(nodeURL)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name+".json"), nil
}

// nodeFileName names a node in a file name: its URL's host and path, with
// what a file name cannot hold made underscores.
func nodeFileName(nodeURL string) (string, error) {
	u, err := url.Parse(nodeURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a node's URL", nodeURL)
	}
	return strings.Trim(strings.NewReplacer(":", "_", "/", "_").Replace(u.Host+u.Path), "_"), nil
}

// auditExit is the exit code of an audit that ended with err: verified,
// misbehaved, or could not finish, said on stderr.
func auditExit(e *env, err error) int {
	var m misbehaved
	switch {
	case errors.As(err, &m):
		return fail(e, exitMisbehaved, "", "the log misbehaved: %v", m.err)
	case err != nil:
		return fail(e, exitCouldNotRun, "", "could not finish: %v", err)
	}
	return exitVerified
}

func logVerifyCommand() *command {
	c := newCommand("verify", "agora log verify [--url URL] [--pin FILE]",
		"audit the log as the reference monitor does; exit 0 all good, 1 the log",
		"misbehaved, 2 the check could not finish. The first run pins the log's",
		"key and tree head in FILE; later runs check the log against them.")
	nodeURL := c.nodeURL()
	pinFlag := c.flags.String("pin", "", "the file the log's key and last verified tree head are pinned in (default one per host under the user's config folder)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code // exitCouldNotRun
		}
		pinPath := *pinFlag
		if pinPath == "" {
			var err error
			if pinPath, err = defaultPinPath(*nodeURL); err != nil {
				return fail(e, exitCouldNotRun, "give the pin file with --pin FILE", "%v", err)
			}
		}
		a := &audit{c: newClient(*nodeURL), out: e.stdout, pinPath: pinPath}
		return auditExit(e, a.run(ctx))
	}
	return c
}
