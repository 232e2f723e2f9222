package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// statusOrder is the order agora claims status lists requirements in.
var statusOrder = []string{"published", "reproduced", "reviewed", "formally_verified", "replicated", "contested", "refuted", "retracted", "unavailable"}

func claimsStatusCommand() *command {
	c := newCommand("status", "agora claims status <claim-id> [--url URL]",
		"a claim's statuses as its node derives them from the log: each status, whether",
		"it holds and what it still needs, and every check with whether it counted")
	nodeURL := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give one claim ID (claim:...), as 'agora claims search' prints it")
		}
		cl, err := newClient(*nodeURL).Claim(ctx, args[0])
		if err != nil {
			return nodeFailure(e, err, "")
		}
		printClaimStatus(e.stdout, cl)
		return 0
	}
	return c
}

// printClaimStatus prints a claim's view as a person reads it.
func printClaimStatus(w io.Writer, cl map[string]any) {
	var statuses []string
	for _, s := range asAnyList(cl["statuses"]) {
		statuses = append(statuses, fmt.Sprint(s))
	}
	fmt.Fprintf(w, "%v: %s\n", cl["claim_id"], strings.Join(statuses, ", "))
	reqs, _ := cl["requirements"].(map[string]any)
	for _, name := range statusOrder {
		r, ok := reqs[name].(map[string]any)
		if !ok {
			continue
		}
		fmt.Fprintf(w, "  %-18s %s\n", name, requirementLine(name, r))
	}
	if by, ok := cl["correct_by"].(string); ok {
		fmt.Fprintf(w, "  correct it by %s, or a failed reproduction refutes it (agora appeal asks more reproductions)\n", by)
	}
	checks := asAnyList(cl["attestations"])
	if len(checks) == 0 {
		fmt.Fprintln(w, "  no checks yet")
		return
	}
	fmt.Fprintf(w, "  %d checks:\n", len(checks))
	for _, a := range checks {
		m, _ := a.(map[string]any)
		counted := "counted"
		if m["counted"] != true {
			counted = fmt.Sprintf("not counted (%v)", m["not_counted_because"])
		}
		fmt.Fprintf(w, "    entry %v  %-18v %-14v %v, %v  %s\n", m["index"], m["job"], m["verdict"], m["organization"], m["model_family"], counted)
	}
}

// requirementLine says in a line whether a status holds and why.
func requirementLine(name string, r map[string]any) string {
	if r["applies"] == false {
		return "does not apply"
	}
	met := "no"
	if r["met"] == true {
		met = "yes"
	}
	var notes []string
	if orgs, ok := r["organizations"].(map[string]any); ok {
		notes = append(notes, fmt.Sprintf("%d organizations for, %d against (needs %v)", len(asAnyList(orgs["for"])), len(asAnyList(orgs["against"])), r["needs"]))
	}
	for _, k := range []string{"failed", "unsettled", "rejected"} {
		if r[k] == true {
			notes = append(notes, k)
		}
	}
	if name == "reviewed" {
		notes = append(notes, fmt.Sprintf("median %v, families %v", r["median"], asAnyList(r["families"])))
	}
	if name == "contested" || name == "refuted" || name == "retracted" {
		keys := make([]string, 0, len(r))
		for k, v := range r {
			if k != "met" && v != nil {
				keys = append(keys, fmt.Sprintf("%s %v", k, v))
			}
		}
		sort.Strings(keys)
		notes = append(notes, keys...)
	}
	if len(notes) == 0 {
		return met
	}
	return met + ": " + strings.Join(notes, "; ")
}

func appealCommand() *command {
	c := newCommand("appeal", "agora appeal <bundle-hash> [--key K] [--url URL]",
		"appeal your bundle's failed reproduction before its correct_by: prepays as many",
		"more reproductions (at most 5) as would settle it the other way if all reproduce")
	signer, url := c.signer(), c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the bundle's hash (sha256:...)")
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		entry := map[string]any{"type": "appeal_request", "operator": id, "bundle": args[0], "time": tlog.FormatTimestamp(time.Now())}
		if err := protocol.Sign(entry, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).Appeal(ctx, args[0], entry)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "appeal %v: %v reproductions (%v done), %v until %v\n", out["appeal"], out["reproductions"], out["done"], out["state"], out["deadline"])
		return 0
	}
	return c
}
