package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

// recoverGroup is "agora recover domain|github|vouched|finish|invited|status": taking an
// operator's ID back with a new key after losing the old one, through the
// identity it counts as ("Your key is your identity"). The new key waits
// in <key file>.next until the node logs the recovery, then takes the key
// file's place; an old key file still there is kept beside it as lost.
func recoverGroup() *command {
	return group("recover", "take your operator ID back with a new key after losing the old one, through your identity",
		"A recovery goes through the identity you count as: your domain's TXT record or your repository's .sciencejournal file must name the new key\n"+
			"(the command prints the line); a vouch's GitHub account approves the new key on your page ('recover vouched', then 'recover finish').\n"+
			"An invited operator's recovery is the node's reviewers' ('agora admin recover'). An invite code can't take you back.",
		func() []*command {
			return []*command{
				recoverCommand("domain", "<domain>", "recover through your domain: point _sciencejournal.<domain> at the new key, then send"),
				recoverCommand("github", "<owner/repo>", "recover through your repository: add the new key's line to its .sciencejournal file, then send"),
				recoverCommand("vouched", "<github:ID>", "ask the GitHub account that vouched for you to approve the new key on your page (7 days), then run 'recover finish'"),
				recoverCommand("finish", "", "countersign a vouched recovery your person approved, and move the new key into place"),
				recoverCommand("invited", "", "make the new key an invited operator gives the node's reviewers, who recover it"),
				recoverCommand("status", "", "show the recovery to the new key: logged, or a vouched one waiting or approved"),
			}
		})
}

func recoverCommand(kind, arg, help string) *command {
	usage := "agora recover " + kind
	if arg != "" {
		usage += " " + arg
	}
	extra := ""
	if kind == "domain" || kind == "github" || kind == "vouched" {
		extra = " [--since N]"
	}
	c := newCommand(kind, usage+" --operator <op-id>"+extra+" [--keys DIR] [--url URL]", help)
	operator := c.flags.String("operator", "", "the operator ID to take back (its key file in --keys is where the new key goes)")
	keys := c.flags.String("keys", "", "the directory key files are kept in (default ~/.config/agora/keys)")
	url := c.nodeURL()
	since := int64(-1)
	if extra != "" {
		c.flags.Int64Var(&since, "since", -1, "the log index from which what the old key signed is disowned, at most 30 days back (default the log's size: nothing)")
	}
	n := 0
	if arg != "" {
		n = 1
	}
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != n {
			return c.usageError(e, "recover %s takes %d argument(s), not %d", kind, n, len(args))
		}
		if !protocol.IsOperatorID(*operator) {
			return c.usageError(e, "give the operator to take back with --operator op:<64 hex digits>")
		}
		dir, code := keysDir(e, *keys)
		if code != 0 {
			return code
		}
		path, err := hybrid.KeyFilePath(dir, *operator)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		r := &recovery{e: e, c: newClient(*url), id: *operator, path: path, next: path + ".next"}
		switch kind {
		case "status":
			return r.status(ctx)
		case "invited":
			return r.invited()
		case "vouched":
			return r.vouched(ctx, args[0], since)
		case "finish":
			return r.finishVouched(ctx)
		}
		return r.send(ctx, kind, args[0], since)
	}
	return c
}

// recovery is one operator's recovery from this machine: its key file and
// where the new key waits.
type recovery struct {
	e          *env
	c          *client.Client
	id         string
	path, next string
}

// newKey reads the new key waiting in r.next, or makes it there.
func (r *recovery) newKey() (*hybrid.PrivateKey, bool, error) {
	key, err := hybrid.ReadKeyFile(r.next)
	if err == nil {
		return key, false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	if key, err = hybrid.GenerateKey(); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(r.next), 0o700); err != nil {
		return nil, false, err
	}
	return key, true, hybrid.WriteKeyFile(r.next, key)
}

// send recovers through a domain or a repository.
func (r *recovery) send(ctx context.Context, kind, subject string, since int64) int {
	e := r.e
	key, made, err := r.newKey()
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	digest := protocol.KeyDigest(key.Public().String())
	where := "the TXT record " + operators.DomainRecord(subject)
	if kind == "github" {
		where = "the .sciencejournal file at the root of " + subject
	}
	if made {
		// Nothing can name a key made just now: say what to put where, and
		// send nothing, since a failed try makes the next one wait.
		fmt.Fprintf(e.stderr, "agora: a new key for %s is kept in %s until the node logs the recovery\n", r.id, r.next)
		return fail(e, 1, "then run this again", "put %s in %s first", operators.ProofLine(digest), where)
	}
	// The node may have logged this recovery already (an answer lost on
	// the way): sending it again finishes what it disowns, and the files
	// move.
	if logged, err := r.c.Recovery(ctx, r.id, digest); err != nil {
		return nodeFailure(e, err, "")
	} else if entry, ok := logged["entry"].(map[string]any); ok && logged["state"] == "logged" {
		a, err := r.c.Recover(ctx, r.id, entry)
		if err != nil {
			return nodeFailure(e, err, "the node logged the recovery; run this again to move the new key into place")
		}
		return r.finish(key, map[string]any{"index": a.Index, "disowned": a.Disowned})
	}
	from, err := r.since(ctx, since)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	entry, err := protocol.SignKeyRecovery(r.id, kind, subject, from, key)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	a, err := r.c.Recover(ctx, r.id, entry)
	var ce *client.Error
	if errors.As(err, &ce) && ce.Code == operators.ErrProofNotFound.Code() {
		return nodeFailure(e, err, fmt.Sprintf("put %s in %s, then run this again (wait 30 seconds after a failure)", operators.ProofLine(digest), where))
	}
	if err != nil {
		return nodeFailure(e, err, "the new key stays in "+r.next+"; run this again to send it again")
	}
	return r.finish(key, map[string]any{"index": a.Index, "disowned": a.Disowned})
}

// since is the --since given, or the log's size when none was (-1):
// disowning nothing.
func (r *recovery) since(ctx context.Context, since int64) (uint64, error) {
	if since >= 0 {
		return uint64(since), nil
	}
	info, err := r.c.Log(ctx)
	if err != nil || info.TreeHead == nil {
		return 0, err
	}
	return info.TreeHead.Size, nil
}

// finish moves the new key to the key file's place, keeping an old key
// file there beside it as lost, and prints where the recovery stands.
func (r *recovery) finish(key *hybrid.PrivateKey, answer map[string]any) int {
	e := r.e
	if _, err := os.Stat(r.path); err == nil {
		old, err := hybrid.ReadKeyFile(r.path)
		suffix := "unreadable"
		if err == nil {
			suffix = strings.TrimPrefix(protocol.KeyDigest(old.Public().String()), "sha256:")[:16]
		}
		lost := r.path + ".lost-" + suffix
		if err := os.Rename(r.path, lost); err != nil {
			return fail(e, 1, "move "+r.next+" to "+r.path+" yourself", "the node logged the recovery, but moving the old key aside: %v", err)
		}
		fmt.Fprintf(e.stderr, "agora: the old key, which can sign nothing again, is kept in %s\n", lost)
	}
	if err := os.Rename(r.next, r.path); err != nil {
		return fail(e, 1, "move "+r.next+" to "+r.path+" yourself", "the node logged the recovery, but moving the new key: %v", err)
	}
	if d, err := os.Open(filepath.Dir(r.path)); err == nil {
		d.Sync()
		d.Close()
	}
	fmt.Fprintf(e.stdout, "operator: %s\nkey_digest: %s\nindex: %v\n", r.id, protocol.KeyDigest(key.Public().String()), answer["index"])
	if d, ok := answer["disowned"].(map[string]int); ok && len(d) > 0 {
		fmt.Fprintf(e.stdout, "disowned: %v\n", d)
	}
	fmt.Fprintf(e.stderr, "agora: the new key is in %s\n", r.path)
	return 0
}

// invited makes the new key an invited operator gives the node's
// reviewers, and says what to give them: the public key, never the secret.
func (r *recovery) invited() int {
	key, made, err := r.newKey()
	if err != nil {
		return fail(r.e, 1, "", "%v", err)
	}
	pub := r.next + ".pub"
	if err := os.WriteFile(pub, []byte(key.Public().String()+"\n"), 0o644); err != nil {
		return fail(r.e, 1, "", "%v", err)
	}
	if made {
		fmt.Fprintf(r.e.stderr, "agora: a new key for %s is kept in %s\n", r.id, r.next)
	}
	fmt.Fprintf(r.e.stdout, "operator: %s\nkey_digest: %s\npublic_key_file: %s\n", r.id, protocol.KeyDigest(key.Public().String()), pub)
	fmt.Fprintf(r.e.stderr, "agora: next: give the node's reviewers %s (the public key only, never %s); they run\n  agora admin recover %s --key %s\nthen run 'agora recover status --operator %s' to move the new key into place\n",
		pub, r.next, r.id, pub, r.id)
	return 0
}

// status shows the recovery to the key waiting in r.next (or, once moved,
// the key file's), and finishes moving the files once it is logged.
func (r *recovery) status(ctx context.Context) int {
	e := r.e
	key, err := hybrid.ReadKeyFile(r.next)
	waiting := err == nil
	if errors.Is(err, os.ErrNotExist) {
		key, err = hybrid.ReadKeyFile(r.path)
	}
	if err != nil {
		return fail(e, 1, "start one with 'agora recover domain|github|vouched|invited'", "no new key for %s: %v", r.id, err)
	}
	got, err := r.c.Recovery(ctx, r.id, protocol.KeyDigest(key.Public().String()))
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if got == nil {
		return fail(e, 1, "send it with 'agora recover domain|github', or wait for the node's reviewers", "the node has logged no recovery of %s to the key in %s", r.id, r.next)
	}
	if waiting && got["state"] == "logged" {
		return r.finish(key, got)
	}
	return printAnswer(e, keysByDigest(got).(map[string]any))
}
