package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/sumdb/note"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// The audit 'agora log verify' runs, as the spec's reference monitor
// does ("Checking the log"): the new tree head extends the last one
// verified; each new entry's receipt verifies and its entry as signed
// matches its leaf; the leaves hash to the signed root; leaf timestamps
// and tree head timestamps never go backwards; each signature verifies
// against the key its signer held (logaudit_entries.go); each signer had
// the identity its entry needs; each revealed entry opens its commitment;
// and the checkpoint of the same tree verifies under the checkpoint keys
// the log's key signed. What it did not check it says, with why.

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

// audit is one run of 'agora log verify'.
type audit struct {
	c       *client.Client
	out     io.Writer
	pinPath string

	key   string                   // the log's public key, pinned
	logID string                   // protocol.LogID(key)
	head  tlog.TreeHead            // the head this run verifies
	heads map[uint64]tlog.TreeHead // other heads receipts named, checked consistent with head
	times timeline                 // leaf and tree head times, checked never to go backwards

	// from is the first entry this run audits: 0, or the size of the
	// head pinned before. wholeLog is from == 0.
	from     uint64
	wholeLog bool
	// signers is what the run knows of each operator: its keys and its
	// organization, from the entries this run audits and, for earlier
	// ones, from the pin. knowsSigners is whether that is every operator
	// with a key logged before from: false only when an older agora wrote
	// the pin.
	signers      map[string]*signer
	knowsSigners bool
	// knowsIdentities is whether signers hold every identity logged
	// before from, which key recoveries rest on: false only when an older
	// agora wrote the pin.
	knowsIdentities bool
	// sealed holds the leaves of the sealed entries this run saw, by
	// index, so a revealed entry can be checked against its commitment.
	sealed map[uint64]map[string]any
	// outcomes is what the entries settle about bundles, checked against
	// what the node serves once every entry verified (logaudit_outcomes.go).
	outcomes outcomes
	// onLeaf, when set, is given every leaf the run verifies, in log
	// order (agora status derives statuses from them).
	onLeaf func(leaf map[string]any) error

	report report
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
	next := &pin{URL: a.c.BaseURL(), Log: a.logID, PublicKey: a.key, Signers: map[string]pinnedSigner{}}

	oldHead, rng, err := a.pinned(old)
	if err != nil {
		return err
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
	a.heads = map[uint64]tlog.TreeHead{a.head.Size: a.head}
	if err := a.times.head(a.head); err != nil {
		return err
	}

	// The new head extends the last one verified, and was signed no
	// earlier.
	if oldHead != nil {
		if a.head.Size < oldHead.Size {
			return bad("the log shrank: its tree head holds %d entries, but it signed %d before", a.head.Size, oldHead.Size)
		}
		if err := a.times.head(*oldHead); err != nil {
			return err
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
	// its time, and its signature.
	a.from = rng.Size()
	a.wholeLog = a.from == 0
	a.knowsSigners = a.wholeLog || old.Signers != nil
	a.knowsIdentities = a.wholeLog || old.IdentitiesKept
	a.signers = signersFromPin(old)
	a.sealed = map[uint64]map[string]any{}
	if err := a.previousLeafTime(ctx); err != nil {
		return err
	}
	if err := a.entries(ctx, rng); err != nil {
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
	if err := a.checkOutcomes(ctx); err != nil {
		return err
	}

	headJSON, err := a.head.MarshalJSON()
	if err != nil {
		return err
	}
	next.TreeHead = headJSON
	next.Range = tlog.HashStrings(rng.Hashes())
	next.Signers, next.IdentitiesKept = a.pinnedSigners(), a.knowsIdentities
	if err := writePin(a.pinPath, next); err != nil {
		return fmt.Errorf("keeping the verified head in %s: %w", a.pinPath, err)
	}
	if oldHead == nil {
		fmt.Fprintf(a.out, "log %s: pinned its key in %s\n", a.logID, a.pinPath)
	} else {
		fmt.Fprintf(a.out, "log %s: the tree of %d entries extends the one of %d verified before\n", a.logID, a.head.Size, oldHead.Size)
	}
	a.report.print(a.out, a.head, a.head.Size-a.from)
	return nil
}

// pinned reads the head and leaf range the pin holds; nil and an empty
// range when there is none.
func (a *audit) pinned(old *pin) (*tlog.TreeHead, *tlog.Range, error) {
	empty, _ := tlog.NewRange(0, nil)
	if old == nil || len(old.TreeHead) == 0 {
		return nil, empty, nil
	}
	h, err := tlog.ParseTreeHead(old.TreeHead)
	if err != nil {
		return nil, nil, fmt.Errorf("the tree head pinned in %s: %w", a.pinPath, err)
	}
	hashes, err := tlog.ParseHashes(old.Range)
	if err != nil {
		return nil, nil, fmt.Errorf("the leaf range pinned in %s: %w", a.pinPath, err)
	}
	rng, err := tlog.NewRange(h.Size, hashes)
	if err != nil {
		return nil, nil, fmt.Errorf("the leaf range pinned in %s: %w", a.pinPath, err)
	}
	return &h, rng, nil
}

// previousLeafTime reads the time of the last entry an earlier run
// verified, so the first new entry's is checked against it.
func (a *audit) previousLeafTime(ctx context.Context) error {
	if a.from == 0 {
		return nil
	}
	r, err := a.receipt(ctx, a.from-1)
	if err != nil {
		return err
	}
	return a.times.leaf(a.from-1, r.Leaf["timestamp"])
}

// fetched is one entry's receipt and signed form.
type fetched struct {
	receipt *tlog.Receipt
	signed  map[string]any
	err     error
}

// entries audits entries from a.from to a.head.Size, fetching them a page
// at a time with a few requests in flight, and appends their leaf hashes
// to rng in order.
func (a *audit) entries(ctx context.Context, rng *tlog.Range) error {
	const page, workers = 64, 8
	for start := a.from; start < a.head.Size; start += page {
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
				return f.err
			}
			if err := a.checkEntry(ctx, i, f.receipt, f.signed); err != nil {
				return err
			}
			rng.Append(f.receipt.LeafHash)
		}
	}
	return nil
}

// checkReceipt checks that r is the receipt of entry i of this log, signed
// by its key, against a tree head consistent with the one this run
// verifies.
func (a *audit) checkReceipt(ctx context.Context, i uint64, r *tlog.Receipt) error {
	if r.Index != i || r.Log != a.logID {
		return bad("asked for entry %d of %s, the node answered the receipt of entry %d of %s", i, a.logID, r.Index, r.Log)
	}
	if err := tlog.VerifyReceipt(r, a.key); err != nil {
		return bad("the receipt of entry %d: %v", i, err)
	}
	return a.sameTree(ctx, r.TreeHead)
}

// receipt fetches and checks the receipt of an entry before this run's
// (the one before the first it audits, a sealed entry a revealed one
// opens, the entry that gave a key the pin names).
func (a *audit) receipt(ctx context.Context, i uint64) (*tlog.Receipt, error) {
	r, err := a.c.Receipt(ctx, i)
	if err != nil {
		return nil, fetchFailure(fmt.Sprintf("the receipt of entry %d", i), err)
	}
	if err := a.checkReceipt(ctx, i, r); err != nil {
		return nil, err
	}
	return r, nil
}

// sameTree checks that a tree head a receipt was made against, which may
// be newer or older than the head this run verifies, is signed, consistent
// with it, and signed no earlier than a head of fewer entries.
func (a *audit) sameTree(ctx context.Context, h tlog.TreeHead) error {
	if seen, ok := a.heads[h.Size]; ok {
		if seen.Root != h.Root {
			return bad("two tree heads of %d entries have different roots, %s and %s", h.Size, seen.Root, h.Root)
		}
		if seen.Timestamp == h.Timestamp {
			return nil
		}
		return a.times.head(h)
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
	a.heads[h.Size] = h
	return a.times.head(h)
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

// timeline checks that the times a log states never go backwards: each
// leaf's timestamp is no earlier than the one of the leaf before it, and a
// tree head of more entries is signed no earlier than one of fewer. Leaves
// are given in index order; heads in any order.
type timeline struct {
	leafIndex uint64
	leafTime  time.Time
	haveLeaf  bool
	heads     map[uint64]time.Time // tree size → when its head was signed
}

// leaf checks entry index's leaf timestamp (as the leaf holds it, any
// JSON value) against the leaf before it.
func (t *timeline) leaf(index uint64, stamp any) error {
	s, _ := stamp.(string)
	at, err := tlog.ParseTimestamp(s)
	if err != nil {
		return bad("entry %d: its leaf's timestamp: %v", index, err)
	}
	if t.haveLeaf && index == t.leafIndex+1 && at.Before(t.leafTime) {
		return bad("entry %d is stamped %s, before entry %d (%s): leaf timestamps went backwards",
			index, s, t.leafIndex, tlog.FormatTimestamp(t.leafTime))
	}
	t.leafIndex, t.leafTime, t.haveLeaf = index, at, true
	return nil
}

// head checks h's timestamp against every tree head seen before.
func (t *timeline) head(h tlog.TreeHead) error {
	at, err := h.Time()
	if err != nil {
		return bad("the tree head of %d entries: %v", h.Size, err)
	}
	for size, other := range t.heads {
		if (size < h.Size && other.After(at)) || (size > h.Size && at.After(other)) {
			return bad("the tree head of %d entries is signed at %s and the one of %d at %s: tree head timestamps went backwards",
				h.Size, tlog.FormatTimestamp(at), size, tlog.FormatTimestamp(other))
		}
	}
	if t.heads == nil {
		t.heads = map[uint64]time.Time{}
	}
	if prev, ok := t.heads[h.Size]; !ok || at.After(prev) {
		t.heads[h.Size] = at
	}
	return nil
}

// report is what a run checked, and what it did not and why.
type report struct {
	verified  map[string]int            // signatures verified, by entry type
	opened    int                       // revealed entries that open their commitments
	unchecked map[string]map[string]int // what was not checked, with why → entry type → count
	// withdrawals and openBundles count the bundles the log withdrew or
	// opened whose state the node serves as the log says.
	withdrawals, openBundles int
	// concernRecords counts the operators whose hazard_concerns agree
	// with the log.
	concernRecords int
}

// Why a run did not check something.
const (
	notCheckedUnknownType = "entries of a type this agora does not know (their signatures and contents)"
	notCheckedBeforePin   = "signatures by signers whose keys were logged before the pinned head, which a pin an older agora wrote does not place (a run with a new --pin checks them)"
	notCheckedSponsor     = "sponsors of sponsored identities whose own identity was logged before the pinned head, which a pin an older agora wrote does not place"
	notCheckedBundleLeaf  = "opened bundles' claims and fields in their leaves, which only the bundles' files give ('agora bundle get --out' fetches them)"
)

func (r *report) checked(typ string) {
	if r.verified == nil {
		r.verified = map[string]int{}
	}
	r.verified[typ]++
}

func (r *report) notChecked(why, typ string) {
	if r.unchecked == nil {
		r.unchecked = map[string]map[string]int{}
	}
	if r.unchecked[why] == nil {
		r.unchecked[why] = map[string]int{}
	}
	r.unchecked[why][typ]++
}

func (r *report) print(w io.Writer, head tlog.TreeHead, entries uint64) {
	total := 0
	for _, n := range r.verified {
		total += n
	}
	fmt.Fprintf(w, "verified: tree head of %d entries signed at %s (root %s); %d new entries, each receipt and entry as signed checked, leaf and tree head times in order; %d signatures verified%s; %d revealed entries open their commitments; checkpoint verified\n",
		head.Size, head.Timestamp, head.Root, entries, total, byType(r.verified), r.opened)
	if r.withdrawals+r.openBundles > 0 {
		fmt.Fprintf(w, "verified: the node serves %d withdrawn bundles as their withdrawals say (tombstone, no files, claims unavailable) and %d opened bundles as not withdrawn\n",
			r.withdrawals, r.openBundles)
	}
	if r.concernRecords > 0 {
		fmt.Fprintf(w, "verified: %d operators' hazard_concerns agree with the concerns the log holds and the panels' withdrawals\n", r.concernRecords)
	}
	whys := make([]string, 0, len(r.unchecked))
	for why := range r.unchecked {
		whys = append(whys, why)
	}
	slices.Sort(whys)
	for _, why := range whys {
		n := 0
		for _, k := range r.unchecked[why] {
			n += k
		}
		fmt.Fprintf(w, "not checked: %d %s%s\n", n, why, byType(r.unchecked[why]))
	}
}

// byType writes counts by entry type as " (contribution 416, key 100)".
func byType(counts map[string]int) string {
	if len(counts) == 0 {
		return ""
	}
	types := make([]string, 0, len(counts))
	for t := range counts {
		types = append(types, t)
	}
	sort.Strings(types)
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", t, counts[t])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
