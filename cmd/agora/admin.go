package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agora-node/agora/library"
	"github.com/agora-node/agora/protocol"
)

// runAdmin drives a running node's admin routes with the admin token the
// node keeps in its data folder.
func runAdmin(ctx context.Context, e *env, args []string) int {
	return runGroup(ctx, e, "admin", []subcommand{
		{"invite", "admin invite <op-id> " + adminFlagsUsage, []string{
			"give the operator an \"invited\" identity, logged with the log's key (the spec's seeding rule)",
		}, runAdminInvite},
		{"scopes", "admin scopes <op-id> [--grant S]... [--deny S]... [--reset S]... " + adminFlagsUsage, []string{
			"show, grant or deny the operator's library scopes (" + strings.Join(library.Scopes(), ", ") + ");",
			"by default an operator with an identity holds all four; --reset returns a scope to that default",
		}, runAdminScopes},
	}, "", args)
}

const adminInviteUsage = "agora admin invite <op-id> " + adminFlagsUsage

func runAdminInvite(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("agora admin invite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	admin := adminFlags(fs, "register the operator first (agora register)")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+adminInviteUsage, "%v", err)
	}
	if len(rest) != 1 || !protocol.IsOperatorID(rest[0]) {
		return fail(e, 2, "usage: "+adminInviteUsage, "give one operator ID (op: and 64 lowercase hex digits)")
	}
	var answer json.RawMessage
	if err := admin.call(ctx, "POST", "/api/v1/admin/invitations", map[string]string{"operator": rest[0]}, &answer); err != nil {
		return failAdmin(e, err)
	}
	e.stdout.Write(answer)
	fmt.Fprintln(e.stdout)
	return 0
}

const adminScopesUsage = "agora admin scopes <op-id> [--grant S]... [--deny S]... [--reset S]... " + adminFlagsUsage

// scopeList is a repeatable flag of library scopes.
type scopeList []any

func (l *scopeList) String() string { return fmt.Sprint(*l) }

func (l *scopeList) Set(s string) error {
	if !slices.Contains(library.Scopes(), s) {
		return fmt.Errorf("%q is not a library scope: use %s", s, strings.Join(library.Scopes(), ", "))
	}
	*l = append(*l, s)
	return nil
}

func runAdminScopes(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("agora admin scopes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	admin := adminFlags(fs, "register the operator first (agora register)")
	var grant, deny, reset scopeList
	fs.Var(&grant, "grant", "a scope to grant (repeatable)")
	fs.Var(&deny, "deny", "a scope to deny (repeatable)")
	fs.Var(&reset, "reset", "a scope to return to the default (repeatable)")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+adminScopesUsage, "%v", err)
	}
	if len(rest) != 1 || !protocol.IsOperatorID(rest[0]) {
		return fail(e, 2, "usage: "+adminScopesUsage, "give one operator ID (op: and 64 lowercase hex digits)")
	}
	var answer struct {
		Operator   string          `json:"operator"`
		Scopes     map[string]bool `json:"scopes"`
		SetByAdmin map[string]bool `json:"set_by_admin"`
	}
	if len(grant)+len(deny)+len(reset) == 0 {
		err = admin.call(ctx, "GET", "/api/v1/admin/library/scopes/"+rest[0], nil, &answer)
	} else {
		change := map[string]any{"operator": rest[0]}
		for name, list := range map[string]scopeList{"grant": grant, "deny": deny, "reset": reset} {
			if len(list) > 0 {
				change[name] = list
			}
		}
		err = admin.call(ctx, "POST", "/api/v1/admin/library/scopes", change, &answer)
	}
	if err != nil {
		return failAdmin(e, err)
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
