package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/sumdb/note"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
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
// entries and still checks that the leaves hash to the signed root.
type pin struct {
	URL       string          `json:"url"`
	Log       string          `json:"log"`
	PublicKey string          `json:"public_key"`
	TreeHead  json.RawMessage `json:"tree_head,omitempty"`
	Range     []string        `json:"range,omitempty"`
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
// --pin says otherwise: one file per host under the user's config folder.
func defaultPinPath(nodeURL string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	u, err := url.Parse(nodeURL)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not a node's URL", nodeURL)
	}
	name := strings.NewReplacer(":", "_", "/", "_").Replace(u.Host + u.Path)
	return filepath.Join(dir, "agora", "pins", strings.Trim(name, "_")+".json"), nil
}

// misbehaved is a check the log failed; anything else stopping the audit
// means it could not finish.
type misbehaved struct{ err error }

func (m misbehaved) Error() string { return m.err.Error() }

func bad(format string, args ...any) error {
	return misbehaved{fmt.Errorf(format, args...)}
}

// fetchFailure classifies an error from the client: an answer malformed
// under the protocol is the log's misbehaviour; a refusal or no answer at
// all means the audit could not finish.
func fetchFailure(what string, err error) error {
	var ce *client.Error
	if !errors.As(err, &ce) && (errors.Is(err, tlog.ErrMalformed) || errors.Is(err, canonical.ErrNotIJSON)) {
		return misbehaved{fmt.Errorf("%s: %w", what, err)}
	}
	return fmt.Errorf("%s: %w", what, err)
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
		err := a.run(ctx)
		var m misbehaved
		switch {
		case errors.As(err, &m):
			return fail(e, exitMisbehaved, "", "the log misbehaved: %v", m.err)
		case err != nil:
			return fail(e, exitCouldNotRun, "", "could not finish: %v", err)
		}
		return exitVerified
	}
	return c
}

// audit is one run of 'agora log verify'.
type audit struct {
	c       *client.Client
	out     io.Writer
	pinPath string

	key   string               // the log's public key, pinned
	logID string               // protocol.LogID(key)
	head  tlog.TreeHead        // the head this run verifies
	heads map[uint64]tlog.Hash // roots of other heads receipts named, checked consistent with head

	// organizations maps each operator whose identity this run saw logged
	// to the organization it counts as, so an entry that needs its
	// signer's (or sponsor's) identity can be checked against the log.
	organizations map[string]string
	wholeLog      bool // this run audits the log from its first entry
}

func (a *audit) run(ctx context.Context) error {
	old, err := readPin(a.pinPath)
	if err != nil {
		return err
	}
	info, err := a.c.Log(ctx)
	if err != nil {
		return fetchFailure("GET /api/v1/log", err)
	}
	if _, err := hybrid.ParsePublicKey(info.PublicKey); err != nil {
		return bad("the log's public key: %v", err)
	}
	if old != nil && old.PublicKey != info.PublicKey {
		return bad("the log's key is not the one pinned in %s: the node now serves %s, not %s", a.pinPath, protocol.LogID(info.PublicKey), old.Log)
	}
	a.key, a.logID = info.PublicKey, protocol.LogID(info.PublicKey)
	if info.Log != a.logID {
		return bad("the log calls itself %s, but its key makes %s", info.Log, a.logID)
	}
	next := &pin{URL: a.c.BaseURL(), Log: a.logID, PublicKey: a.key}

	var oldHead *tlog.TreeHead
	rng, _ := tlog.NewRange(0, nil)
	if old != nil && len(old.TreeHead) > 0 {
		h, err := tlog.ParseTreeHead(old.TreeHead)
		if err != nil {
			return fmt.Errorf("the tree head pinned in %s: %w", a.pinPath, err)
		}
		hashes, err := tlog.ParseHashes(old.Range)
		if err == nil {
			rng, err = tlog.NewRange(h.Size, hashes)
		}
		if err != nil {
			return fmt.Errorf("the leaf range pinned in %s: %w", a.pinPath, err)
		}
		oldHead = &h
	}

	if info.TreeHead == nil {
		if oldHead != nil {
			return bad("the log serves no tree head, but it signed one of %d entries before", oldHead.Size)
		}
		fmt.Fprintf(a.out, "log %s: empty, no tree head yet; pinned its key in %s\n", a.logID, a.pinPath)
		return writePin(a.pinPath, next)
	}
	a.head = *info.TreeHead
	if a.head.Log != a.logID {
		return bad("the tree head names the log %s, not %s", a.head.Log, a.logID)
	}
	if err := tlog.VerifyTreeHead(a.head, a.key); err != nil {
		return bad("%v", err)
	}
	a.heads = map[uint64]tlog.Hash{a.head.Size: a.head.Root}

	// The new head extends the last one verified.
	if oldHead != nil {
		if a.head.Size < oldHead.Size {
			return bad("the log shrank: its tree head holds %d entries, but it signed %d before", a.head.Size, oldHead.Size)
		}
		proof, err := a.c.ConsistencyProof(ctx, oldHead.Size, a.head.Size)
		if err != nil {
			return fetchFailure("the consistency proof", err)
		}
		if err := tlog.VerifyTreeGrowth(*oldHead, a.head, proof, a.key); err != nil {
			return bad("the tree of %d entries does not extend the one of %d verified before: %v", a.head.Size, oldHead.Size, err)
		}
	}

	// Every new entry: its receipt, the entry as signed against its leaf,
	// and its signature where this run knows the signer's key.
	from := rng.Size()
	a.wholeLog = from == 0
	stats, err := a.entries(ctx, rng, from)
	if err != nil {
		return err
	}
	if root := rng.Root(); root != a.head.Root {
		return bad("the leaves hash to the root %s, not to the signed root %s", root, a.head.Root)
	}

	// The checkpoint of the same tree, against the checkpoint keys the
	// log's key signed, with sumdb/note.
	if err := a.checkpoint(ctx, info.CheckpointKeys); err != nil {
		return err
	}

	headJSON, err := a.head.MarshalJSON()
	if err != nil {
		return err
	}
	next.TreeHead = headJSON
	next.Range = tlog.HashStrings(rng.Hashes())
	if err := writePin(a.pinPath, next); err != nil {
		return fmt.Errorf("keeping the verified head in %s: %w", a.pinPath, err)
	}
	if oldHead == nil {
		fmt.Fprintf(a.out, "log %s: pinned its key in %s\n", a.logID, a.pinPath)
	} else {
		fmt.Fprintf(a.out, "log %s: the tree of %d entries extends the one of %d verified before\n", a.logID, a.head.Size, oldHead.Size)
	}
	fmt.Fprintf(a.out, "verified: tree head of %d entries signed at %s (root %s); %d new entries, each receipt and entry as signed checked, %d signatures verified (%d by signers whose keys earlier runs saw, not checked); checkpoint verified\n",
		a.head.Size, a.head.Timestamp, a.head.Root, a.head.Size-from, stats.sigsChecked, stats.sigsUnchecked)
	return nil
}

type entryStats struct{ sigsChecked, sigsUnchecked int }

// fetched is one entry's receipt and signed form.
type fetched struct {
	receipt *tlog.Receipt
	signed  map[string]any
	err     error
}

// entries audits entries from..head.Size, fetching them a page at a time
// with a few requests in flight, and appends their leaf hashes to rng in
// order.
func (a *audit) entries(ctx context.Context, rng *tlog.Range, from uint64) (entryStats, error) {
	const page, workers = 64, 8
	var stats entryStats
	keys := map[string]string{} // operator → the key it holds, as this run saw it logged
	for start := from; start < a.head.Size; start += page {
		n := min(page, a.head.Size-start)
		got := make([]fetched, n)
		var wg sync.WaitGroup
		next := make(chan uint64)
		for range min(workers, n) {
			wg.Go(func() {
				for i := range next {
					f := &got[i-start]
					if f.receipt, f.err = a.c.Receipt(ctx, i); f.err != nil {
						f.err = fetchFailure(fmt.Sprintf("the receipt of entry %d", i), f.err)
						continue
					}
					if f.signed, f.err = a.c.Signed(ctx, i); f.err != nil {
						f.err = fetchFailure(fmt.Sprintf("entry %d as signed", i), f.err)
					}
				}
			})
		}
		for i := start; i < start+n; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		for k, f := range got {
			i := start + uint64(k)
			if f.err != nil {
				return stats, f.err
			}
			if err := a.checkEntry(ctx, i, f.receipt, f.signed, keys, &stats); err != nil {
				return stats, err
			}
			rng.Append(f.receipt.LeafHash)
		}
	}
	return stats, nil
}

func (a *audit) checkEntry(ctx context.Context, i uint64, r *tlog.Receipt, signed map[string]any, keys map[string]string, stats *entryStats) error {
	if r.Index != i || r.Log != a.logID {
		return bad("asked for entry %d of %s, the node answered the receipt of entry %d of %s", i, a.logID, r.Index, r.Log)
	}
	if err := tlog.VerifyReceipt(r, a.key); err != nil {
		return bad("the receipt of entry %d: %v", i, err)
	}
	if err := a.sameTree(ctx, r.TreeHead); err != nil {
		return err
	}
	entry, _ := r.Leaf["entry"].(map[string]any)
	if !protocol.MatchesLeafEntry(signed, entry) {
		return bad("entry %d as signed does not match its leaf", i)
	}
	// Signatures, following rotations, for the signers whose key this run
	// saw logged (the others' keys were logged before the pinned head): a
	// key entry by its own key, a rotation by the key it retires, an
	// identity by the operator's key, or the log's for an invitation.
	op, _ := r.Leaf["operator"].(string)
	var ok, known bool
	switch signed["type"] {
	case "key":
		k, _ := signed["key"].(string)
		ok, known = protocol.Verify(signed, k) && protocol.OperatorID(k) == op, true
		if ok {
			keys[op] = k
		}
	case protocol.KeyRotationType:
		if cur, have := keys[op]; have {
			ok, known = protocol.VerifyKeyRotation(signed, cur), true
			if ok {
				keys[op], _ = signed["key"].(string)
			}
		}
	case "identity":
		if signed["kind"] == "invited" {
			ok, known = protocol.Verify(signed, a.key), true
		} else if cur, have := keys[op]; have {
			ok, known = protocol.Verify(signed, cur), true
		}
		if signed["kind"] == "sponsored" {
			if err := a.checkSponsor(i, r.Leaf, signed, keys); err != nil {
				return err
			}
		}
		if org, _ := r.Leaf["organization"].(string); org != "" {
			if a.organizations == nil {
				a.organizations = map[string]string{}
			}
			a.organizations[op] = org
		}
	}
	// Other entry types (bundles and the rest, which the node does not log
	// yet) are left to the reference monitor.
	switch {
	case !known:
		stats.sigsUnchecked++
	case !ok:
		return bad("entry %d (%v) is not signed by the key its signer held", i, signed["type"])
	default:
		stats.sigsChecked++
	}
	return nil
}

// checkSponsor checks a sponsored identity as the reference monitor checks
// that each signer had the identity its entry needs: the sponsor had an
// identity of its own when the entry was logged, the operator counts as the
// sponsor's organization, and the sponsor's key signed the invite. When
// the run starts from the pinned head, a sponsor whose identity came before
// it is not checked here.
func (a *audit) checkSponsor(i uint64, leaf, signed map[string]any, keys map[string]string) error {
	sponsor, _ := signed["sponsor"].(string)
	org, seen := a.organizations[sponsor]
	if !seen {
		if a.wholeLog {
			return bad("entry %d: its sponsor %s had no identity on the log", i, sponsor)
		}
		return nil
	}
	if got, _ := leaf["organization"].(string); got != org {
		return bad("entry %d: a sponsored identity counts as %q, not its sponsor's organization %q", i, got, org)
	}
	key, have := keys[sponsor]
	code, _ := signed["code"].(string)
	sig, _ := signed["sponsor_sig"].(string)
	payload, err := operators.InvitePayload(sponsor, code)
	if have && (err != nil || !hybrid.Verify(sig, payload, key)) {
		return bad("entry %d: the sponsor's signature on the invite does not verify", i)
	}
	return nil
}

// sameTree checks that a tree head a receipt was made against, which may
// be newer or older than the head this run verifies, is signed and
// consistent with it.
func (a *audit) sameTree(ctx context.Context, h tlog.TreeHead) error {
	if root, ok := a.heads[h.Size]; ok {
		if root != h.Root {
			return bad("two tree heads of %d entries have different roots, %s and %s", h.Size, root, h.Root)
		}
		return nil
	}
	first, second := h, a.head
	if h.Size > a.head.Size {
		first, second = a.head, h
	}
	proof, err := a.c.ConsistencyProof(ctx, first.Size, second.Size)
	if err != nil {
		return fetchFailure("a consistency proof", err)
	}
	if err := tlog.VerifyTreeGrowth(first, second, proof, a.key); err != nil {
		return bad("a receipt's tree head of %d entries is not consistent with the head of %d: %v", h.Size, a.head.Size, err)
	}
	a.heads[h.Size] = h.Root
	return nil
}

func (a *audit) checkpoint(ctx context.Context, ck tlog.CheckpointKeys) error {
	origin, err := tlog.CheckpointOrigin(a.logID)
	if err != nil {
		return err
	}
	verifiers, err := tlog.VerifyCheckpointKeys(ck, a.key, origin)
	if err != nil {
		return bad("checkpoint_keys: %v", err)
	}
	msg, err := a.c.Checkpoint(ctx, a.head.Size)
	if err != nil {
		return fetchFailure("the checkpoint", err)
	}
	if _, err := note.Open(msg, note.VerifierList(verifiers...)); err != nil {
		return bad("the checkpoint of %d entries is not signed by a checkpoint key the log published: %v", a.head.Size, err)
	}
	cp, err := tlog.ParseCheckpoint(msg)
	if err != nil {
		return bad("the checkpoint: %v", err)
	}
	if cp.Size != a.head.Size || cp.Root != a.head.Root {
		return bad("the checkpoint (%d entries, root %s) does not match the tree head (%d, %s)", cp.Size, cp.Root, a.head.Size, a.head.Root)
	}
	return nil
}
