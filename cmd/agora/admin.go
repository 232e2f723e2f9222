package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// adminGroup is "agora admin invite|scopes|recover|team": a running
// node's admin routes, driven with the admin token the node keeps in its
// data folder.
func adminGroup() *command {
	return group("admin", "administer a running node: admin invite|scopes|recover <op-id>, admin team ...", "", func() []*command {
		return []*command{adminInviteCommand(), adminScopesCommand(), adminRecoverCommand(), adminTeamGroup()}
	})
}

func adminRecoverCommand() *command {
	c := newCommand("recover", "agora admin recover <op-id> --key <public-key-file> [--since N] "+adminFlagsUsage,
		"as the node's reviewers, recover an invited operator to the new public key it gave you, logged with the log's key;",
		"what its old key signed from --since on is disowned (default the log's size: nothing)")
	admin := c.admin("register the operator first (agora register)")
	keyFile := c.flags.String("key", "", "a file holding the operator's new public key ('agora recover invited' writes it)")
	since := c.flags.Int64("since", -1, "the log index from which the old key's entries are disowned, at most 30 days back")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !protocol.IsOperatorID(args[0]) {
			return c.usageError(e, "give one operator ID (op: and 64 lowercase hex digits)")
		}
		raw, err := os.ReadFile(*keyFile)
		if err != nil {
			return c.usageError(e, "give the new public key's file with --key: %v", err)
		}
		key := strings.TrimSpace(string(raw))
		if _, err := hybrid.ParsePublicKey(key); err != nil {
			return fail(e, 1, "the file holds the public key 'agora recover invited' wrote, never a secret key", "%s is not a public key: %v", *keyFile, err)
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		at := *since
		if at < 0 {
			info, err := cl.Log(ctx)
			if err != nil {
				return admin.fail(e, err)
			}
			at = 0
			if info.TreeHead != nil {
				at = int64(info.TreeHead.Size)
			}
		}
		a, err := cl.RecoverInvited(ctx, "", args[0], key, uint64(at))
		if err != nil {
			return admin.fail(e, err)
		}
		fmt.Fprintf(e.stdout, "operator: %s\nkind: %s\nkey_digest: %s\nindex: %d\n", a.Operator, a.Kind, a.KeyDigest, a.Index)
		return 0
	}
	return c
}

func adminInviteCommand() *command {
	c := newCommand("invite", "agora admin invite <op-id> "+adminFlagsUsage,
		"give the operator an \"invited\" identity, logged with the log's key (the spec's seeding rule)")
	admin := c.admin("register the operator first (agora register)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !protocol.IsOperatorID(args[0]) {
			return c.usageError(e, "give one operator ID (op: and 64 lowercase hex digits)")
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		inv, err := cl.Invite(ctx, "", args[0])
		if err != nil {
			return admin.fail(e, err)
		}
		e.stdout.Write(inv.Raw)
		fmt.Fprintln(e.stdout)
		return 0
	}
	return c
}

// scopeList is a repeatable flag of library scopes.
type scopeList []string

func (l *scopeList) String() string { return fmt.Sprint(*l) }

func (l *scopeList) Set(s string) error {
	if !slices.Contains(library.Scopes(), s) {
		return fmt.Errorf("%q is not a library scope: use %s", s, strings.Join(library.Scopes(), ", "))
	}
	*l = append(*l, s)
	return nil
}

func adminScopesCommand() *command {
	c := newCommand("scopes", "agora admin scopes <op-id> [--grant S]... [--deny S]... [--reset S]... "+adminFlagsUsage,
		"show, grant or deny the operator's library scopes ("+strings.Join(library.Scopes(), ", ")+");",
		"by default an operator with an identity holds all four; --reset returns a scope to that default")
	admin := c.admin("register the operator first (agora register)")
	var grant, deny, reset scopeList
	c.flags.Var(&grant, "grant", "a scope to grant (repeatable)")
	c.flags.Var(&deny, "deny", "a scope to deny (repeatable)")
	c.flags.Var(&reset, "reset", "a scope to return to the default (repeatable)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !protocol.IsOperatorID(args[0]) {
			return c.usageError(e, "give one operator ID (op: and 64 lowercase hex digits)")
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		var answer *client.Scopes
		var err error
		if len(grant)+len(deny)+len(reset) == 0 {
			answer, err = cl.LibraryScopes(ctx, args[0])
		} else {
			answer, err = cl.SetLibraryScopes(ctx, client.ScopeChange{Operator: args[0], Grant: grant, Deny: deny, Reset: reset})
		}
		if err != nil {
			return admin.fail(e, err)
		}
		fmt.Fprintln(e.stdout, answer.Operator)
		for _, scope := range library.Scopes() {
			held, how := "denied", "default"
			if answer.Scopes[scope] {
				held = "held"
			}
			if _, set := answer.SetByAdmin[scope]; set {
				how = "set by the admin"
			}
			fmt.Fprintf(e.stdout, "  %-16s %-6s (%s)\n", scope, held, how)
		}
		return 0
	}
	return c
}
