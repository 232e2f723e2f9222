package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// A vouched recovery from the CLI: 'agora recover vouched <github:ID>'
// makes the new key in <key file>.next and asks the node for the
// voucher's approval, printing approve_at and the digest for the person to
// check; once they approved, 'agora recover finish' countersigns the
// entry the node shows, with the log's voucher_sig, and moves the key.

// vouched asks the voucher to approve the new key.
func (r *recovery) vouched(ctx context.Context, voucher string, since int64) int {
	e := r.e
	key, made, err := r.newKey()
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	if made {
		fmt.Fprintf(e.stderr, "agora: a new key for %s is kept in %s until the node logs the recovery\n", r.id, r.next)
	}
	from, err := r.since(ctx, since)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	entry, err := protocol.SignKeyRecovery(r.id, "vouched", voucher, from, key)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	a, err := r.c.Recover(ctx, r.id, entry)
	if err != nil {
		return nodeFailure(e, err, "the new key stays in "+r.next+"; run this again to send it again")
	}
	// approve_at is a path on the node: the person opens the node's
	// address plus it.
	page := strings.TrimSuffix(r.c.BaseURL(), "/") + a.ApproveAt
	fmt.Fprintf(e.stdout, "operator: %s\nkey_digest: %s\nstate: %s\napprove_at: %s\nexpires_at: %s\n", r.id, a.KeyDigest, a.State, page, a.ExpiresAt)
	fmt.Fprintf(e.stderr, "agora: next: send your person %s and ask them to approve the key %s there with the GitHub account that vouched, within 7 days;\n  then run 'agora recover finish --operator %s'\n",
		page, a.KeyDigest, r.id)
	return 0
}

// finishVouched countersigns the approved recovery to the key waiting in
// r.next, and moves the key once the node logged it.
func (r *recovery) finishVouched(ctx context.Context) int {
	e := r.e
	key, err := hybrid.ReadKeyFile(r.next)
	if errors.Is(err, os.ErrNotExist) {
		return fail(e, 1, "start one with 'agora recover vouched <github:ID>'", "no new key for %s waits in %s", r.id, r.next)
	}
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	digest := protocol.KeyDigest(key.Public().String())
	got, err := r.c.Recovery(ctx, r.id, digest)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	state, _ := got["state"].(string)
	entry, _ := got["entry"].(map[string]any)
	switch {
	case got == nil:
		return fail(e, 1, "ask for it with 'agora recover vouched <github:ID>'", "no recovery of %s to the key in %s waits at the node", r.id, r.next)
	case state == "logged":
		return r.finish(key, got)
	case state == "waiting":
		page := strings.TrimSuffix(r.c.BaseURL(), "/") + fmt.Sprint(got["approve_at"])
		return fail(e, 1, fmt.Sprintf("send your person %s and the digest %s, then run this again", page, digest), "your person hasn't approved the recovery yet")
	case state != "approved" || entry == nil:
		return fail(e, 1, "ask again with 'agora recover vouched <github:ID>'", "the recovery is %s: it waits 7 days for approval, then 7 for this countersignature", state)
	case entry["key"] != key.Public().String() || entry["operator"] != r.id:
		return fail(e, 1, "", "the approved recovery isn't the one asked for: it names another key or operator")
	}
	if err := protocol.Sign(entry, key); err != nil {
		return fail(e, 1, "", "%v", err)
	}
	a, err := r.c.Recover(ctx, r.id, entry)
	if err != nil {
		return nodeFailure(e, err, "the new key stays in "+r.next+"; run this again to send it again")
	}
	return r.finish(key, map[string]any{"index": a.Index, "disowned": a.Disowned})
}
