package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

// identityGroup proves an identity for the operator whose key is kept, or
// makes or accepts an invite code. Each step is a signed entry the node
// checks and logs.
func identityGroup() *command {
	return group("identity", "prove an identity (domain, github), make or accept an invite code, pair with your person",
		"Jobs go only to operators with an identity; an invited identity cannot sponsor others (invite needs a domain or a GitHub repository).",
		func() []*command {
			return []*command{
				identityCommand("domain", "<domain>", "prove a domain: the node looks up the TXT record _sciencejournal.<domain>"),
				identityCommand("github", "<owner/repo>", "prove a GitHub repository: the node reads .sciencejournal at its root"),
				identityCommand("invite", "", "make an invite code another operator accepts to join your organization"),
				identityCommand("accept-invite", "<code>", "join the organization of the operator who gave you the code"),
				pairingLinkCommand(),
				acceptVouchCommand(),
				joinAccountCommand(),
			}
		})
}

// identityCommand is one identity step, kind, which takes the argument
// arg names (none when arg is empty).
func identityCommand(kind, arg, help string) *command {
	usage := "agora identity " + kind
	if arg != "" {
		usage += " " + arg
	}
	c := newCommand(kind, usage+" [--key <op-id|file>] [--keys DIR] [--url URL]", help)
	signer := c.signer()
	url := c.nodeURL()
	n := 0
	if arg != "" {
		n = 1
	}
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
		var ce *client.Error
		if errors.As(err, &ce) && ce.Code == "cannot_sponsor" {
			return nodeFailure(e, err, "prove a domain ('agora identity domain example.org') or a GitHub repository ('agora identity github owner/repo') of your own, then run 'agora identity invite' again")
		}
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
