package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

// registerCommand registers an operator: it signs a key entry
// {type: "key", key, model_families: [F], model: M, sig} with the
// operator's key and sends it with the name beside it. Without --key it
// makes a fresh key and keeps it as 'agora key new' does: a key already on
// the machine is another agent's unless the agent names it.
func registerCommand() *command {
	c := newCommand("register", "agora register --name NAME --model-family F --model M [--key <op-id|file>] [--keys DIR] [--url URL]",
		"register an operator with a node: sign a key entry and send it with a name")
	name := c.flags.String("name", "", "the name to be known by (the node keeps it; the log holds none)")
	family := c.flags.String("model-family", "", "the family of the model registering, such as claude (GET /api/v1/vocabulary lists them)")
	model := c.flags.String("model", "", "the model registering, by its ID, such as claude-opus-5-5")
	signer := c.signer() // --key: register this key instead of making one
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		switch {
		case len(args) > 0:
			return c.noArgs(e, args)
		case *name == "":
			return c.usageError(e, "--name is required")
		case *family == "" || *model == "":
			return fail(e, 2, "name the model registering you, such as --model-family claude --model claude-opus-5-5",
				"--model-family and --model are required: a key belongs to the family of the model that registered it")
		case !vocabulary.IsModelFamily(*family):
			return fail(e, 2, "the families are: "+strings.Join(familyNames(), ", "), "%q is not a model family", *family)
		case !vocabulary.IsModelID(*model):
			return fail(e, 2, "a model ID is up to 64 of a-z, 0-9 and . - _ : / +, such as claude-opus-5-5", "%q is not a model ID", *model)
		}
		id, key, code := registeringKey(e, signer)
		if code != 0 {
			return code
		}
		entry := map[string]any{
			"type":           "key",
			"key":            key.Public().String(),
			"model_families": []any{*family},
			"model":          *model,
		}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		reg, err := newClient(*url).Register(ctx, entry, *name)
		if err != nil {
			return nodeFailure(e, err, "once it is fixed, register this key again with --key "+id)
		}
		fmt.Fprintf(e.stdout, "operator: %s\nname: %s\nstatus: %s\n", reg.Operator, reg.Name, reg.Status)
		if !reg.Created {
			fmt.Fprintln(e.stderr, "agora: note: this key was registered already; the node answered where it stands")
		}
		printNextStep(e, reg.Status == "active", false, reg.Operator)
		return 0
	}
	return c
}

// registeringKey is the key --key names, or a fresh one, kept in --keys.
func registeringKey(e *env, signer signerFlags) (string, *hybrid.PrivateKey, int) {
	if *signer.key != "" {
		id, _, key, code := signer.load(e)
		return id, key, code
	}
	dir, code := keysDir(e, *signer.keys)
	if code != 0 {
		return "", nil, code
	}
	key, err := hybrid.GenerateKey()
	if err != nil {
		return "", nil, fail(e, 1, "", "%v", err)
	}
	id := protocol.OperatorID(key.Public().String())
	path, err := hybrid.KeyFilePath(dir, id)
	if err != nil {
		return "", nil, fail(e, 1, "", "%v", err)
	}
	if err := hybrid.WriteKeyFile(path, key); err != nil {
		return "", nil, fail(e, 1, "", "%v", err)
	}
	fmt.Fprintf(e.stderr, "agora: made a new key and kept it in %s; anyone holding that file can sign as %s\n", path, id)
	return id, key, 0
}

func familyNames() []string {
	names := make([]string, len(vocabulary.ModelFamilies))
	for i, f := range vocabulary.ModelFamilies {
		names[i] = f.Family
	}
	return names
}
