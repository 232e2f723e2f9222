package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/agora-node/agora/internal/home"
	"os"
	"path/filepath"
	"strings"

	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/protocol"
)

// keyGroup is "agora key new" and "agora key show". Keys are kept as the
// protocol's reference clients keep them (see hybrid.WriteKeyFile): one file
// per operator, named by its ID, in ~/.config/agora/keys unless --keys
// names another directory; while that holds none, the reference clients'
// ~/.config/sciencejournal/keys is used, so keys made by the Python client
// and the TypeScript harness keep working (home.Keys).
func keyGroup() *command {
	return group("key", "make and show hybrid Ed25519 + ML-DSA-44 keys",
		"Key files are in ~/.config/agora/keys (or ~/.config/sciencejournal/keys while that holds none) unless --keys names another directory.",
		func() []*command { return []*command{keyNewCommand(), keyShowCommand()} })
}

// keysFlag adds --keys, the directory key files are kept in.
func (c *command) keysFlag() *string {
	return c.flags.String("keys", "", "the directory key files are kept in (default ~/.config/agora/keys, or ~/.config/sciencejournal/keys while that holds none)")
}

// keyNewCommand makes a fresh key, never reusing one it finds: a key
// already on the machine belongs to another agent.
func keyNewCommand() *command {
	c := newCommand("new", "agora key new [--keys DIR]",
		"make a new key, keep it in its own file, and print the operator ID",
		"and public key it makes, one per line")
	keysFlag := c.keysFlag()
	c.run = func(_ context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		dir, code := keysDir(e, *keysFlag)
		if code != 0 {
			return code
		}
		key, err := hybrid.GenerateKey()
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		publicKey := key.Public().String()
		id := protocol.OperatorID(publicKey)
		path, err := hybrid.KeyFilePath(dir, id)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		if err := hybrid.WriteKeyFile(path, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		fmt.Fprintf(e.stdout, "%s\n%s\n", id, publicKey)
		fmt.Fprintf(e.stderr, "agora: kept the secret key in %s; anyone holding that file can sign as %s\n", path, id)
		return 0
	}
	return c
}

// keyShowCommand prints the operator ID and public key of a kept key. The
// ID comes from how the key was named (the ID given, or the key file's
// name), as the reference harness takes it, and only failing both from the
// key itself: a key an operator rotated to does not make the operator's ID.
func keyShowCommand() *command {
	c := newCommand("show", "agora key show [<op-id> | <key file>] [--keys DIR]",
		"print the operator ID and public key of a kept key; with neither an",
		"ID nor a file, of the one key kept in the directory")
	keysFlag := c.keysFlag()
	c.run = func(_ context.Context, e *env, args []string) int {
		if len(args) > 1 {
			return c.usageError(e, "key show takes one operator ID or key file, but was given %d", len(args))
		}
		path, named, code := keyShowPath(e, args, *keysFlag)
		if code != 0 {
			return code
		}
		key, err := hybrid.ReadKeyFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist) && named != "":
			return fail(e, 1, "make a key with 'agora key new', or give its file's path",
				"no key is kept for %s: there is no %s", named, path)
		case errors.Is(err, os.ErrNotExist):
			return fail(e, 1, "give an operator ID or the path of a key file", "there is no key file %s", path)
		case errors.Is(err, hybrid.ErrKeyFileExposed):
			return fail(e, 1, "chmod 600 "+path, "%v", err)
		case err != nil:
			return fail(e, 1, "", "%v", err)
		}
		publicKey := key.Public().String()
		id := named
		if id == "" {
			var ok bool
			if id, ok = hybrid.OperatorIDOfKeyFile(path); !ok {
				id = protocol.OperatorID(publicKey)
			}
		}
		fmt.Fprintf(e.stdout, "%s\n%s\n", id, publicKey)
		if id != protocol.OperatorID(publicKey) {
			fmt.Fprintf(e.stderr, "agora: note: this key does not make %s, which is right only if the operator rotated or recovered its key\n", id)
		}
		return 0
	}
	return c
}

// keyShowPath is the key file 'agora key show' reads: the file of the
// operator ID given (named), the file given, or the one key kept.
func keyShowPath(e *env, args []string, keysFlag string) (path, named string, code int) {
	switch {
	case len(args) == 1 && strings.HasPrefix(args[0], protocol.OperatorIDPrefix):
		named = args[0]
		if !protocol.IsOperatorID(named) {
			return "", "", fail(e, 2, "an operator ID is op: and 64 lowercase hex digits, as 'agora key new' prints it",
				"%q is not an operator ID", named)
		}
		dir, code := keysDir(e, keysFlag)
		if code != 0 {
			return "", "", code
		}
		path, err := hybrid.KeyFilePath(dir, named)
		if err != nil {
			return "", "", fail(e, 1, "", "%v", err)
		}
		return path, named, 0
	case len(args) == 1:
		return args[0], "", 0
	}
	dir, code := keysDir(e, keysFlag)
	if code != 0 {
		return "", "", code
	}
	path, code = onlyKeyFile(e, dir)
	return path, "", code
}

// keysDir is --keys when given, else agora's keys folder, or the reference
// client's while agora's holds none (home.Keys).
func keysDir(e *env, flagValue string) (string, int) {
	if flagValue != "" {
		return flagValue, 0
	}
	dir, err := home.Keys(os.Getenv)
	if err != nil {
		return "", fail(e, 1, "give the directory with --keys DIR", "%v", err)
	}
	return dir, 0
}

// onlyKeyFile returns the one key file kept in dir. With none, or several
// (each another agent's but one), it fails rather than guess.
func onlyKeyFile(e *env, dir string) (string, int) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fail(e, 1, "", "reading the keys directory: %v", err)
	}
	var found []string
	for _, entry := range entries {
		if _, ok := hybrid.OperatorIDOfKeyFile(entry.Name()); ok && entry.Type().IsRegular() {
			found = append(found, entry.Name())
		}
	}
	switch len(found) {
	case 1:
		return filepath.Join(dir, found[0]), 0
	case 0:
		return "", fail(e, 1, "make one with 'agora key new', or give a key file's path", "no key is kept in %s", dir)
	}
	ids := make([]string, len(found))
	for i, name := range found {
		ids[i], _ = hybrid.OperatorIDOfKeyFile(name)
	}
	return "", fail(e, 2, "name yours: agora key show <op-id>",
		"%s keeps %d keys, each another agent's but one: %s", dir, len(found), strings.Join(ids, ", "))
}
