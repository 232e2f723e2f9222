package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

const identityUsage = `agora identity domain <domain> | github <owner/repo> | invite | accept-invite <code>
       [--key <op-id|file>] [--keys DIR] [--url URL]`

// identityGroup proves an identity for the operator whose key is kept, or
// makes or accepts an invite code. Each step is a signed entry the node
// checks and logs. Its steps share one usage line.
func identityGroup() *command {
	return &command{name: "identity", usage: identityUsage,
		help: []string{"prove an identity (domain, github), make or accept an invite code"},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) == 0 || isHelp(args[0]) {
				fmt.Fprintln(e.stdout, "usage: "+identityUsage)
				if len(args) == 0 {
					return 2
				}
				return 0
			}
			n, known := map[string]int{"domain": 1, "github": 1, "invite": 0, "accept-invite": 1}[args[0]]
			if !known {
				return fail(e, 2, "usage: "+identityUsage, "unknown identity step %q", args[0])
			}
			return identityCommand(args[0], n).exec(ctx, e, args[1:])
		}}
}

// identityCommand is one identity step, kind, which takes n arguments.
func identityCommand(kind string, n int) *command {
	c := newCommand(kind, identityUsage)
	c.flags.Init("agora identity "+kind, flag.ContinueOnError)
	signer := c.signer()
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != n {
			return c.usageError(e, "identity %s takes %d argument(s), not %d", kind, n, len(args))
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		return proveIdentity(ctx, e, newClient(*url), kind, args, id, key)
	}
	return c
}

func proveIdentity(ctx context.Context, e *env, c *client.Client, kind string, args []string, id string, key *hybrid.PrivateKey) int {
	entry := map[string]any{"type": "identity", "kind": kind, "operator": id}
	hint := ""
	switch kind {
	case "domain":
		entry["domain"] = args[0]
		hint = fmt.Sprintf("add the TXT record %s.%s = %s, then try again",
			"_sciencejournal", args[0], "sciencejournal-operator="+protocol.KeyDigest(key.Public().String()))
	case "github":
		entry["repository"] = args[0]
		hint = fmt.Sprintf("put the line %s in the .sciencejournal file at the root of %s, then try again",
			"sciencejournal-operator="+protocol.KeyDigest(key.Public().String()), args[0])
	case "invite":
		inviteCode, err := operators.NewInviteCode()
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		invite := map[string]any{"type": "invite", "sponsor": id, "code": inviteCode}
		if err := protocol.Sign(invite, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		a, err := c.MakeInvite(ctx, id, invite)
		if err != nil {
			return nodeFailure(e, err, "an invite takes an identity of your own: a domain or a GitHub repository")
		}
		return printAnswer(e, a)
	case "accept-invite":
		state, err := c.InviteState(ctx, operators.InviteDigest(args[0]))
		if err != nil {
			return nodeFailure(e, err, "check the code with whoever gave it to you")
		}
		entry["kind"] = "sponsored"
		entry["sponsor"], entry["sponsor_sig"], entry["code"] = state["sponsor"], state["sponsor_sig"], args[0]
	}
	if err := protocol.Sign(entry, key); err != nil {
		return fail(e, 1, "", "%v", err)
	}
	a, err := c.ProveIdentity(ctx, id, entry)
	if err != nil {
		return nodeFailure(e, err, hint)
	}
	return printAnswer(e, a)
}

func printAnswer(e *env, a map[string]any) int {
	out, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	fmt.Fprintln(e.stdout, string(out))
	return 0
}
