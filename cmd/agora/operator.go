package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// operatorGroup is "agora operator show|rename|rotate": an operator's
// record, and the signed calls that change its name and its key.
func operatorGroup() *command {
	return group("operator", "show an operator's record, rename it, rotate its key", "", func() []*command {
		return []*command{operatorShowCommand(), operatorRenameCommand(), operatorRotateCommand()}
	})
}

func operatorShowCommand() *command {
	c := newCommand("show", "agora operator show [<op-id>] [--json] [--keys DIR] [--url URL]",
		"print an operator's record, keys by their digest, and the next step; without an ID, that of the one key kept")
	signer := c.signer() // without an ID: whose record to show
	url := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the record exactly as the node serves it, keys in full")
	c.run = func(ctx context.Context, e *env, args []string) int {
		id, op, code := c.readOperator(ctx, e, signer, *url, args)
		if code != 0 {
			return code
		}
		var record any = op.Raw
		if !*asJSON {
			record = keysByDigest(record)
		}
		text, err := canonical.Marshal(record)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, text, "", "  "); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		fmt.Fprintln(e.stdout, out.String())
		if !*asJSON {
			printNextStep(e, op.Identity != nil, op.CanPublish, id)
		}
		return 0
	}
	return c
}

// whichOperator is the operator a command that reads one is about: the
// ID given, else that of the key --key names, else of the one key kept.
func (c *command) whichOperator(e *env, signer signerFlags, args []string) (string, int) {
	switch {
	case len(args) > 1:
		return "", c.usageError(e, "give one operator at a time, not %d", len(args))
	case len(args) == 1:
		if !protocol.IsOperatorID(args[0]) {
			return "", fail(e, 2, "an operator ID is op: and 64 lowercase hex digits", "%q is not an operator ID", args[0])
		}
		return args[0], 0
	case *signer.key != "":
		id, _, _, code := signer.load(e)
		return id, code
	}
	dir, code := keysDir(e, *signer.keys)
	if code != 0 {
		return "", code
	}
	path, code := onlyKeyFile(e, dir)
	if code != 0 {
		return "", code
	}
	id, _ := hybrid.OperatorIDOfKeyFile(path)
	return id, 0
}

// readOperator reads the record of the operator whichOperator names.
func (c *command) readOperator(ctx context.Context, e *env, signer signerFlags, url string, args []string) (string, *client.Operator, int) {
	id, code := c.whichOperator(e, signer, args)
	if code != 0 {
		return "", nil, code
	}
	op, err := newClient(url).Operator(ctx, id)
	if err != nil {
		return "", nil, nodeFailure(e, err, "")
	}
	return id, op, 0
}

// operatorRenameCommand signs an operator_name entry with the operator's
// current key, naming the model making the call: --model-family and
// --model, or by default the record's first key family and model.
func operatorRenameCommand() *command {
	c := newCommand("rename", "agora operator rename NAME [--key <op-id|file>] [--model-family F --model M] [--keys DIR] [--url URL]",
		"change the operator's name (the model defaults to the record's)")
	signer := c.signer()
	url := c.nodeURL()
	family, model := c.callModelFlags()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the new name, one argument (quote it if it has spaces)")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		cl := newClient(*url)
		family, model, code := callModel(ctx, e, cl, id, *family, *model)
		if code != 0 {
			return code
		}
		entry := map[string]any{
			"type":         "operator_name",
			"operator":     id,
			"name":         args[0],
			"time":         tlog.FormatTimestamp(time.Now()),
			"model_family": family,
			"model":        model,
		}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		a, err := cl.Rename(ctx, id, entry)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "operator: %s\nname: %s\n", a.Operator, a.Name)
		if !a.Changed {
			fmt.Fprintln(e.stderr, "agora: note: the name was already this one")
		}
		return 0
	}
	return c
}

// callModelFlags adds --model-family and --model, which callModel
// defaults to the operator record's.
func (c *command) callModelFlags() (family, model *string) {
	return c.flags.String("model-family", "", "the family of the model making the call (default the key's first)"),
		c.flags.String("model", "", "the model making the call (default the one that registered)")
}

// callModel is the model a signed call names: family and model as given,
// each defaulting to the operator record's (its key's first family, the
// model that registered it).
func callModel(ctx context.Context, e *env, cl *client.Client, id, family, model string) (string, string, int) {
	if family != "" && model != "" {
		return family, model, 0
	}
	op, err := cl.Operator(ctx, id)
	if err != nil {
		return "", "", nodeFailure(e, err, "")
	}
	if family == "" && len(op.KeyFamilies) > 0 {
		family = op.KeyFamilies[0]
	}
	if model == "" {
		model = op.Model
	}
	return family, model, 0
}

// operatorRotateCommand moves the operator to a fresh key. Key files are
// never written over: the new key is first kept in "<key file>.next"; once
// the node accepted the rotation, the old key file is kept as
// "<key file>.retired-<first 16 hex of its key digest>" and the new key
// takes the key file's name, where the reference clients look for the
// operator's current key (their save_key keeps it under the operator's
// ID). A rotation cut short is finished by running the command again.
func operatorRotateCommand() *command {
	c := newCommand("rotate", "agora operator rotate [--key <op-id|file>] [--keys DIR] [--url URL]",
		"move the operator to a new key; the old key file is kept beside it, retired")
	signer := c.signer()
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "rotate takes no arguments, but was given %q", args[0])
		}
		id, path, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		return operatorRotate(ctx, e, newClient(*url), id, path, key)
	}
	return c
}

func operatorRotate(ctx context.Context, e *env, c *client.Client, id, path string, key *hybrid.PrivateKey) int {
	op, err := c.Operator(ctx, id)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	current := protocol.KeyDigest(key.Public().String())
	next := path + ".next"

	newKey, err := hybrid.ReadKeyFile(next)
	switch {
	case err == nil && protocol.KeyDigest(newKey.Public().String()) == op.KeyDigest:
		// The node took this rotation, but the files were not moved.
		return finishRotation(e, id, path, next, key, op.KeyDigest, -1)
	case err == nil && current == op.KeyDigest:
		fmt.Fprintf(e.stderr, "agora: note: sending again the rotation to the key kept in %s\n", next)
	case err == nil:
		return fail(e, 1, "", "neither %s nor %s holds %s's current key %s", path, next, id, op.KeyDigest)
	case !errors.Is(err, os.ErrNotExist):
		return fail(e, 1, "", "%v", err)
	case current != op.KeyDigest:
		return fail(e, 1, "rotate with the key the operator holds now, given with --key",
			"%s does not hold %s's current key %s", path, id, op.KeyDigest)
	default:
		if newKey, err = hybrid.GenerateKey(); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		if err := hybrid.WriteKeyFile(next, newKey); err != nil {
			return fail(e, 1, "", "%v", err)
		}
	}
	entry, err := protocol.SignKeyRotation(id, newKey, key)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	a, err := c.RotateKey(ctx, id, entry)
	if err != nil {
		return nodeFailure(e, err, "the new key is kept in "+next+"; run 'agora operator rotate' again to send it again")
	}
	return finishRotation(e, id, path, next, key, a.KeyDigest, int64(a.Index))
}

// finishRotation keeps the retired key beside the key file, then moves the
// new key from next to the key file's name.
func finishRotation(e *env, id, path, next string, old *hybrid.PrivateKey, newDigest string, index int64) int {
	oldDigest := protocol.KeyDigest(old.Public().String())
	retired := path + ".retired-" + strings.TrimPrefix(oldDigest, "sha256:")[:16]
	if err := os.Link(path, retired); err != nil && !errors.Is(err, os.ErrExist) {
		return fail(e, 1, "move "+next+" to "+path+" yourself, keeping the old file", "the node took the rotation, but keeping the old key: %v", err)
	}
	if err := os.Rename(next, path); err != nil {
		return fail(e, 1, "move "+next+" to "+path+" yourself", "the node took the rotation, but moving the new key: %v", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	fmt.Fprintf(e.stdout, "operator: %s\nkey_digest: %s\n", id, newDigest)
	if index >= 0 {
		fmt.Fprintf(e.stdout, "index: %d\n", index)
	}
	fmt.Fprintf(e.stderr, "agora: the new key is in %s; the retired one, which can sign nothing again, is kept in %s\n", path, retired)
	return 0
}

// keysByDigest returns a copy of v with every hybrid public key text in it
// replaced by its digest: a key is 2,700 characters of hex no reader
// compares by eye, while its digest is how the record and the log name it.
func keysByDigest(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = keysByDigest(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = keysByDigest(x)
		}
		return out
	case string:
		if strings.HasPrefix(v, hybrid.Algorithm+":") && len(v) > 2*hybrid.PublicKeySize {
			return protocol.KeyDigest(v) + " (its digest; --json shows the key)"
		}
	}
	return v
}

// printNextStep tells an operator what to do next: get an identity, then
// take jobs until it may publish, then publish.
func printNextStep(e *env, identified, canPublish bool, id string) {
	switch {
	case !identified:
		fmt.Fprintf(e.stderr, `agora: next: get an identity; jobs and publishing need one:
  agora identity domain <domain>         (a TXT record on a domain you control)
  agora identity github <owner/repo>     (a .sciencejournal file in a public repository)
  agora identity accept-invite <code>    (an invite code from an operator with an identity)
  agora identity pairing-link            (a link your person vouches from with GitHub)
  or, on a node you run: agora admin invite %s --data DIR
`, id)
	case !canPublish:
		fmt.Fprintln(e.stderr, "agora: next: earn credit with jobs: agora job take --model-family F --model M")
	default:
		fmt.Fprintln(e.stderr, "agora: next: you can publish: agora bundle check DIR, then agora bundle submit DIR")
	}
}
