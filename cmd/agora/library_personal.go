package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
)

// Personal lists.

// personalAttempts is how many times a personal request is sent when the
// node's answer is uncertain: the same envelope each time, which the node
// answers as it did.
const personalAttempts = 3

// sendPersonal sends one personal envelope, again while the failure is
// uncertain.
func sendPersonal(ctx context.Context, c *client.Client, envelope []byte) (map[string]any, error) {
	var err error
	for attempt := 1; attempt <= personalAttempts; attempt++ {
		var st map[string]any
		st, _, err = c.Personal(ctx, envelope)
		if err == nil || !uncertain(err) {
			return st, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
	return nil, err
}

// readLists reads the operator's state: its ID ("" for none) and lists.
func readLists(ctx context.Context, c *client.Client, id string, key *hybrid.PrivateKey) (string, library.PersonalLists, error) {
	nonce, err := library.NewNonce()
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	rec, err := library.NewPersonalRead(id, nonce, time.Now())
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	envelope, err := signed(rec, key)
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	st, err := sendPersonal(ctx, c, envelope)
	if err != nil || st == nil {
		return "", library.PersonalLists{Following: []string{}, Saved: []string{}}, err
	}
	text, err := canonical.Marshal(map[string]any{"record": st["record"], "signature": st["signature"]})
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	env, err := library.ParseEnvelope(text)
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	if env.Record.OperatorID() != id {
		return "", library.PersonalLists{}, fmt.Errorf("%w: it is %s's, not %s's", errBadAnswer, env.Record.OperatorID(), id)
	}
	lists, err := library.PersonalListsOf(env.Record)
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	stateID, _ := env.Record.RevisionID()
	if st["id"] != stateID {
		return "", library.PersonalLists{}, fmt.Errorf("%w: its record's ID is %s, not %v", errBadAnswer, stateID, st["id"])
	}
	return stateID, lists, nil
}

func signed(rec *library.Record, key *hybrid.PrivateKey) ([]byte, error) {
	env, err := library.Sign(rec, key)
	if err != nil {
		return nil, err
	}
	return env.Marshal()
}

func printLists(e *env, stateID string, lists library.PersonalLists, asJSON bool) int {
	if asJSON {
		var state any
		if stateID != "" {
			state = stateID
		}
		return printBundleJSON(e, map[string]any{"state": state, "following": lists.Following, "saved": lists.Saved})
	}
	for _, name := range []string{"following", "saved"} {
		list := *lists.List(name)
		fmt.Fprintf(e.stdout, "%s (%d):\n", name, len(list))
		for _, root := range list {
			fmt.Fprintf(e.stdout, "  %s\n", root)
		}
	}
	return 0
}

// libraryPersonalCommand is "agora library personal show".
func libraryPersonalCommand() *command {
	c := newCommand("personal", "agora library personal show [--key <op-id|file>] [--keys DIR] [--url URL] [--json]",
		"print your following and saved lists")
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	signer := c.signer()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || args[0] != "show" {
			return c.usageError(e, "personal takes one command: show")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		stateID, lists, err := readLists(ctx, newClient(*nodeURL), id, key)
		if err != nil {
			return personalFailure(e, err)
		}
		return printLists(e, stateID, lists, *asJSON)
	}
	return c
}

// errBadAnswer: the node's answer to a personal read is not the signed
// state of the operator who asked.
var errBadAnswer = errors.New("the node's answer is not your signed state")

func personalFailure(e *env, err error) int {
	if errors.Is(err, errBadAnswer) {
		return fail(e, 1, "", "%v", err)
	}
	code := nodeFailure(e, err, "")
	printIssues(e, err)
	return code
}

// libraryListCommand is "agora library following|saved add|remove
// <root>": read the lists, change one, and write them from the state
// read. When another write came first (stale_state), it reads again and
// makes the change on the newer state.
func libraryListCommand(list, help string) *command {
	c := newCommand(list, "agora library "+list+" add|remove <root> [--key <op-id|file>] [--keys DIR] [--url URL] [--json]", help)
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	signer := c.signer()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 2 || (args[0] != "add" && args[0] != "remove") {
			return c.usageError(e, "give add or remove and one root")
		}
		op, root := args[0], args[1]
		if !library.IsRevisionID(root) {
			return fail(e, 2, "a root is a revision ID: 64 lowercase hex digits, as 'agora library search' prints them", "%q is not a root ID", root)
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		return changeList(ctx, e, newClient(*nodeURL), list, op, root, id, key, *asJSON)
	}
	return c
}

func changeList(ctx context.Context, e *env, c *client.Client, list, op, root, id string, key *hybrid.PrivateKey, asJSON bool) int {
	for round := 1; ; round++ {
		stateID, lists, err := readLists(ctx, c, id, key)
		if err != nil {
			return personalFailure(e, err)
		}
		l := lists.List(list)
		has := slices.Contains(*l, root)
		switch {
		case op == "add" && has:
			fmt.Fprintf(e.stderr, "agora: %s already holds %s\n", list, root)
			return printLists(e, stateID, lists, asJSON)
		case op == "remove" && !has:
			fmt.Fprintf(e.stderr, "agora: %s does not hold %s\n", list, root)
			return printLists(e, stateID, lists, asJSON)
		case op == "add":
			*l = append(*l, root)
		default:
			*l = slices.DeleteFunc(*l, func(r string) bool { return r == root })
		}
		rec, err := library.NewPersonalState(id, lists, stateID, time.Now())
		if err != nil {
			return fail(e, 1, "remove a root first: each list holds at most 128", "%v", err)
		}
		envelope, err := signed(rec, key)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		st, err := sendPersonal(ctx, c, envelope)
		if client.IsCode(err, "stale_state") && round < personalAttempts {
			fmt.Fprintf(e.stderr, "agora: your lists changed meanwhile; reading them again to make the change on the newer state\n")
			continue
		}
		if err != nil {
			return personalFailure(e, err)
		}
		newID, _ := st["id"].(string)
		return printLists(e, newID, lists, asJSON)
	}
}
