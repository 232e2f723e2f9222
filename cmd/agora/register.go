package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/vocabulary"
)

const registerUsage = "agora register --name NAME --model-family F --model M [--key <op-id|file>] [--keys DIR] [--url URL]"

// defaultURL is the node a client command talks to unless --url says
// otherwise: where 'agora serve' listens by default.
const defaultURL = "http://127.0.0.1:8080"

// runRegister registers an operator: it signs a key entry
// {type: "key", key, model_families: [F], model: M, sig} with the
// operator's key and sends it with the name beside it. Without --key it
// makes a fresh key and keeps it as 'agora key new' does: a key already on
// the machine is another agent's unless the agent names it.
func runRegister(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("agora register", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "", "the name to be known by (the node keeps it; the log holds none)")
	family := fs.String("model-family", "", "the family of the model registering, such as claude (GET /api/v1/vocabulary lists them)")
	model := fs.String("model", "", "the model registering, by its ID, such as claude-opus-5-5")
	keyFlag := fs.String("key", "", "register this key, an operator ID kept in --keys or a key file, instead of making one")
	keysFlag := fs.String("keys", "", "the directory key files are kept in (default ~/.config/sciencejournal/keys)")
	url := fs.String("url", defaultURL, "the node's URL")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+registerUsage)
		return 0
	}
	if err != nil {
		return fail(e, 2, "usage: "+registerUsage, "%v", err)
	}
	switch {
	case len(rest) > 0:
		return fail(e, 2, "usage: "+registerUsage, "register takes no arguments, but was given %q", rest[0])
	case *name == "":
		return fail(e, 2, "usage: "+registerUsage, "--name is required")
	case *family == "" || *model == "":
		return fail(e, 2, "name the model registering you, such as --model-family claude --model claude-opus-5-5",
			"--model-family and --model are required: a key belongs to the family of the model that registered it")
	case !vocabulary.IsModelFamily(*family):
		return fail(e, 2, "the families are: "+strings.Join(familyNames(), ", "), "%q is not a model family", *family)
	case !vocabulary.IsModelID(*model):
		return fail(e, 2, "a model ID is up to 64 of a-z, 0-9 and . - _ : / +, such as claude-opus-5-5", "%q is not a model ID", *model)
	}
	dir, code := keysDir(e, *keysFlag)
	if code != 0 {
		return code
	}

	var key *hybrid.PrivateKey
	var id string
	if *keyFlag != "" {
		if id, _, key, code = loadOperatorKey(e, *keyFlag, dir); code != 0 {
			return code
		}
	} else {
		if key, err = hybrid.GenerateKey(); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		id = protocol.OperatorID(key.Public().String())
		path, err := hybrid.KeyFilePath(dir, id)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		if err := hybrid.WriteKeyFile(path, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		fmt.Fprintf(e.stderr, "agora: made a new key and kept it in %s; anyone holding that file can sign as %s\n", path, id)
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
		hint := "once it is fixed, register this key again with --key " + id
		return nodeFailure(e, err, hint)
	}
	fmt.Fprintf(e.stdout, "operator: %s\nname: %s\nstatus: %s\n", reg.Operator, reg.Name, reg.Status)
	if !reg.Created {
		fmt.Fprintln(e.stderr, "agora: note: this key was registered already; the node answered where it stands")
	}
	return 0
}

func familyNames() []string {
	names := make([]string, len(vocabulary.ModelFamilies))
	for i, f := range vocabulary.ModelFamilies {
		names[i] = f.Family
	}
	return names
}

// newClient is a client of the node at url with the timeouts a command
// line wants: writes are answered once published, within seconds.
func newClient(url string) *client.Client {
	return client.New(url, &http.Client{Timeout: time.Minute})
}

// nodeFailure reports a failed call to the node: its refusal with its code,
// or that it could not be reached. Both exit 1.
func nodeFailure(e *env, err error, hint string) int {
	var ce *client.Error
	if errors.As(err, &ce) {
		if ce.RetryAfter > 0 {
			hint = fmt.Sprintf("try again in %d seconds", ce.RetryAfter)
		}
		return fail(e, 1, hint, "the node refused: %s (%d %s)", ce.Message, ce.Status, ce.Code)
	}
	return fail(e, 1, "start the node with 'agora serve', or give its --url", "%v", err)
}

// loadOperatorKey reads the key an operator signs with, named by keyFlag:
// an operator ID (its file in dir), a key file's path, or, when empty, the
// one key kept in dir. The operator ID comes from how the key was named,
// as 'agora key show' takes it, since a rotated key does not make its
// operator's ID.
func loadOperatorKey(e *env, keyFlag, dir string) (id, path string, key *hybrid.PrivateKey, code int) {
	var err error
	switch {
	case strings.HasPrefix(keyFlag, protocol.OperatorIDPrefix):
		id = keyFlag
		if !protocol.IsOperatorID(id) {
			return "", "", nil, fail(e, 2, "an operator ID is op: and 64 lowercase hex digits", "%q is not an operator ID", id)
		}
		if path, err = hybrid.KeyFilePath(dir, id); err != nil {
			return "", "", nil, fail(e, 1, "", "%v", err)
		}
	case keyFlag != "":
		path = keyFlag
	default:
		if path, code = onlyKeyFile(e, dir); code != 0 {
			return "", "", nil, code
		}
	}
	key, err = hybrid.ReadKeyFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", "", nil, fail(e, 1, "register with 'agora register', or give the key with --key <op-id|file>", "there is no key file %s", path)
	case errors.Is(err, hybrid.ErrKeyFileExposed):
		return "", "", nil, fail(e, 1, "chmod 600 "+path, "%v", err)
	case err != nil:
		return "", "", nil, fail(e, 1, "", "%v", err)
	}
	if id == "" {
		var ok bool
		if id, ok = hybrid.OperatorIDOfKeyFile(path); !ok {
			id = protocol.OperatorID(key.Public().String())
		}
	}
	return id, path, key, 0
}
