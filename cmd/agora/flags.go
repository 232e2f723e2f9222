package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/protocol"
)

// The flags many commands share, each added to a command's flag set by one
// method of command, with what reads them.

// defaultURL is the node a client command talks to unless --url says
// otherwise: where 'agora serve' listens by default.
// AGORA_URL, when set, takes its place.
func defaultURL() string {
	if u := os.Getenv("AGORA_URL"); u != "" {
		return u
	}
	return "http://127.0.0.1:8080"
}

// nodeURL adds --url, the node's URL.
func (c *command) nodeURL() *string {
	return c.flags.String("url", defaultURL(), "the node's URL (or set AGORA_URL)")
}

// jsonFlag adds --json.
func (c *command) jsonFlag() *bool {
	return c.flags.Bool("json", false, "print the node's answer as JSON")
}

// newClient is a client of the node at url with the timeouts a command
// line wants: writes are answered once published, within seconds.
func newClient(url string, opts ...client.Option) *client.Client {
	return client.New(url, &http.Client{Timeout: time.Minute}, opts...)
}

// newTransferClient is newClient for the calls that move a file, which
// may take longer than a minute: each call's context sets its deadline
// (transferDeadline), and the node must still start answering within a
// minute.
func newTransferClient(url string, opts ...client.Option) *client.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.ResponseHeaderTimeout = time.Minute
	return client.New(url, &http.Client{Transport: tr}, opts...)
}

// transferDeadline is how long moving size bytes may take: a minute, and
// a second for every megabyte, the node's own pace for its file routes
// (node.Config.MinTransferRate).
func transferDeadline(size int64) time.Duration {
	return time.Minute + time.Duration(size/1_000_000)*time.Second
}

// nodeFailure reports a failed call to the node: its refusal with its code,
// an answer this agora cannot read, or that it could not be reached. Each
// exits 1.
func nodeFailure(e *env, err error, hint string) int {
	var ce *client.Error
	switch {
	case errors.As(err, &ce):
		if ce.RetryAfter > 0 {
			hint = fmt.Sprintf("try again in %d seconds", ce.RetryAfter)
		}
		return fail(e, 1, hint, "the node refused: %s (%d %s)", ce.Message, ce.Status, ce.Code)
	case errors.Is(err, client.ErrBadAnswer):
		return fail(e, 1, "is --url an Agora node of the same version?", "%v", err)
	}
	return fail(e, 1, "start the node with 'agora serve', or give its --url", "%v", err)
}

// signerFlags are --key and --keys: the key an operator signs with.
type signerFlags struct{ key, keys *string }

// signer adds --key and --keys.
func (c *command) signer() signerFlags {
	return signerFlags{
		key:  c.flags.String("key", "", "the operator's key: its ID (kept in --keys) or a key file (default the one key kept)"),
		keys: c.flags.String("keys", "", "the directory key files are kept in (default ~/.config/agora/keys, or ~/.config/sciencejournal/keys while that holds none)"),
	}
}

// load reads the key the flags name, as loadOperatorKey does.
func (s signerFlags) load(e *env) (id, path string, key *hybrid.PrivateKey, code int) {
	dir, code := keysDir(e, *s.keys)
	if code != 0 {
		return "", "", nil, code
	}
	return loadOperatorKey(e, *s.key, dir)
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

// adminFlagsUsage is the usage of the flags every admin command takes.
const adminFlagsUsage = "[--url URL] [--data DIR | --token-file FILE]"

// adminFlags say where a running node and its admin token are: --url,
// --data (the node's data folder, which holds the token) and --token-file.
type adminFlags struct {
	url, data, tokenFile *string
	notFoundHint         string // what the command's user can do when the node answers 404
}

// admin adds --url, --data and --token-file; notFoundHint is what the
// command's user can do when the node answers 404.
func (c *command) admin(notFoundHint string) *adminFlags {
	return &adminFlags{
		notFoundHint: notFoundHint,
		url:          c.flags.String("url", defaultURL(), "the node's URL (or set AGORA_URL)"),
		data:         c.flags.String("data", defaultDataDir(), "the node's data folder, which holds its admin token (or set AGORA_DATA)"),
		tokenFile:    c.flags.String("token-file", "", "the file holding the admin token (default <data>/keys/admin.token)"),
	}
}

// client reads the admin token and returns a client sending it, or
// reports why it could not (exit 1).
func (a *adminFlags) client(e *env) (*client.Client, int) {
	path := node.AdminTokenPath(*a.data)
	if *a.tokenFile != "" {
		path = *a.tokenFile
	}
	token, err := os.ReadFile(path)
	if err != nil {
		hint := ""
		if errors.Is(err, fs.ErrNotExist) {
			hint = "run this in the folder 'agora serve' started in, or point --data (or AGORA_DATA) at the node's data folder, or --token-file at its admin token"
		}
		return nil, fail(e, 1, hint, "reading the admin token: %v", err)
	}
	return newClient(*a.url, client.WithToken(string(token))), 0
}

// fail reports a failed admin call, with what the user can do about it,
// and returns 1.
func (a *adminFlags) fail(e *env, err error) int {
	var ce *client.Error
	switch {
	case errors.As(err, &ce):
		hint := ""
		switch ce.Status {
		case http.StatusUnauthorized:
			hint = "this is not the node's admin token: point --data at the node's data folder, or --token-file at its admin token"
		case http.StatusNotFound:
			hint = a.notFoundHint
		}
		if ce.RetryAfter > 0 {
			hint = fmt.Sprintf("try again in %d seconds", ce.RetryAfter)
		}
		if ce.Code == "" {
			return fail(e, 1, hint, "the node refused: %s (%d)", ce.Message, ce.Status)
		}
		return fail(e, 1, hint, "the node refused: %s (%s)", ce.Message, ce.Code)
	case errors.Is(err, client.ErrBadAnswer):
		return fail(e, 1, "is --url an Agora node of the same version?", "the node's answer is not what this agora reads: %v", err)
	}
	return fail(e, 1, "start the node with 'agora serve', or give its --url", "%v", err)
}
