package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

const identityUsage = `agora identity domain <domain> | github <owner/repo> | invite | accept-invite <code>
       [--key <op-id|file>] [--keys DIR] [--url URL]`

// runIdentity proves an identity for the operator whose key is kept, or
// makes or accepts an invite code. Each step is a signed entry the node
// checks and logs.
func runIdentity(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.stdout, "usage: "+identityUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	kind := args[0]
	wantArgs := map[string]int{"domain": 1, "github": 1, "invite": 0, "accept-invite": 1}
	n, known := wantArgs[kind]
	if !known {
		return fail(e, 2, "usage: "+identityUsage, "unknown identity step %q", kind)
	}
	f := newOperatorFlags("identity " + kind)
	f.fs.Init("agora identity "+kind, flag.ContinueOnError)
	rest, err := parseArgs(f.fs, args[1:])
	if err != nil {
		return fail(e, 2, "usage: "+identityUsage, "%v", err)
	}
	if len(rest) != n {
		return fail(e, 2, "usage: "+identityUsage, "identity %s takes %d argument(s), not %d", kind, n, len(rest))
	}
	dir, code := keysDir(e, *f.keys)
	if code != 0 {
		return code
	}
	id, _, key, code := loadOperatorKey(e, *f.key, dir)
	if code != 0 {
		return code
	}
	c := newClient(*f.url)
	entry := map[string]any{"type": "identity", "kind": kind, "operator": id}
	hint := ""
	switch kind {
	case "domain":
		entry["domain"] = rest[0]
		hint = fmt.Sprintf("add the TXT record %s.%s = %s, then try again",
			"_sciencejournal", rest[0], "sciencejournal-operator="+protocol.KeyDigest(key.Public().String()))
	case "github":
		entry["repository"] = rest[0]
		hint = fmt.Sprintf("put the line %s in the .sciencejournal file at the root of %s, then try again",
			"sciencejournal-operator="+protocol.KeyDigest(key.Public().String()), rest[0])
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
		state, err := c.InviteState(ctx, operators.InviteDigest(rest[0]))
		if err != nil {
			return nodeFailure(e, err, "check the code with whoever gave it to you")
		}
		entry["kind"] = "sponsored"
		entry["sponsor"], entry["sponsor_sig"], entry["code"] = state["sponsor"], state["sponsor_sig"], rest[0]
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
