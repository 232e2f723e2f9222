package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/operators"
	"github.com/agora-node/agora/protocol"
)

// A person's side of identity from the agent's shell (spec/ledger-protocol.md,
// "Identity"): "agora identity pairing-link" consents in advance to a vouch
// and prints the link to send the person; "agora identity accept-vouch"
// countersigns a vouch the person made without the link's code; "agora
// identity join-account" asks to be listed in the person's account.

func pairingLinkCommand() *command {
	c := newCommand("pairing-link", "agora identity pairing-link [--key <op-id|file>] [--keys DIR] [--url URL]",
		"consent in advance to your person's vouch and print the link to send them (only them: whoever has it can vouch for you)")
	signer, url := c.signer(), c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		pairing, err := operators.NewPairingCode()
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		consent := map[string]any{"type": operators.VouchConsentType, "operator": id, "pairing": operators.PairingDigest(pairing)}
		if err := protocol.Sign(consent, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		cl := newClient(*url)
		if _, err := cl.VouchConsent(ctx, id, consent); err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "%s/agents/%s#%s\n", strings.TrimRight(*url, "/"), id, pairing)
		return 0
	}
	return c
}

func acceptVouchCommand() *command {
	c := newCommand("accept-vouch", "agora identity accept-vouch <github login | github:ID> [--key <op-id|file>] [--keys DIR] [--url URL]",
		"countersign the vouch your person made on your page without your link's code")
	signer, url := c.signer(), c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "accept-vouch takes your person's GitHub login (or github:<ID>)")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		cl := newClient(*url)
		waiting, err := cl.Vouches(ctx, id)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		vouch := findVouch(waiting, args[0])
		if vouch == nil {
			return fail(e, 1, "ask your person to vouch on your page (agora identity pairing-link prints its link), then try again",
				"no vouch from %s waits for you", args[0])
		}
		if err := protocol.Sign(vouch, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		a, err := cl.ProveIdentity(ctx, id, vouch)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		return printAnswer(e, a)
	}
	return c
}

// findVouch returns the waiting vouch from voucher, a GitHub login (any
// case) or the voucher itself: the entry to countersign.
func findVouch(waiting []client.Vouch, voucher string) map[string]any {
	for _, v := range waiting {
		if strings.EqualFold(v.Login, voucher) || v.Entry["voucher"] == voucher {
			return v.Entry
		}
	}
	return nil
}

func joinAccountCommand() *command {
	c := newCommand("join-account", "agora identity join-account <email> --model-family F --model M [--key <op-id|file>] [--keys DIR] [--url URL]",
		"ask to be listed in your person's account; the node mails them a link to confirm")
	signer, url, model := c.signer(), c.nodeURL(), c.modelFlags()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "join-account takes the address your person joined with")
		}
		if code := model.check(c, e); code != 0 {
			return code
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": operators.AccountRequestType, "operator": id, "email": args[0], "model_family": *model.family, "model": *model.model}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		if _, err := newClient(*url).JoinAccount(ctx, id, entry); err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintln(e.stdout, "requested: the node mailed the address a link; you're listed once your person follows it (ask them, the answer never says)")
		return 0
	}
	return c
}
