package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agora-node/agora/client"
)

// sealedCommand is "agora sealed [<index>]": where a sealed entry stands
// and, while it is sealed, what its round still needs and when it opens;
// without an index, every bundle this user sealed on the node.
func sealedCommand() *command {
	c := newCommand("sealed", "agora sealed [<index>] [--url URL] [--json]",
		"where a sealed bundle stands: sealed (with what its round still needs and when it opens), open or withdrawn;",
		"without an index, every bundle you submitted to the node from this machine")
	c.helpArg = true
	nodeURL := c.nodeURL()
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		cl := newClient(*nodeURL)
		switch len(args) {
		case 0:
			return listSealed(ctx, e, cl, *nodeURL)
		case 1:
		default:
			return c.usageError(e, "give one sealed index, the one 'agora bundle submit' printed")
		}
		index, err := strconv.ParseUint(args[0], 10, 63)
		if err != nil {
			return c.usageError(e, "%q is not a log index", args[0])
		}
		a, err := cl.Sealed(ctx, index)
		if err != nil {
			return nodeFailure(e, err, "'agora sealed' lists the bundles you submitted")
		}
		if *asJSON {
			return printBundleJSON(e, a)
		}
		printSealed(e.stdout, a)
		return 0
	}
	return c
}

// printSealed prints where a sealed entry stands for a person.
func printSealed(w io.Writer, a map[string]any) {
	fmt.Fprintf(w, "sealed   %v\nstate    %v\n", a["sealed"], a["state"])
	switch a["state"] {
	case "open":
		fmt.Fprintf(w, "bundle   %v\nopened   in log entry %v: its claims are found by 'agora claims search'\n", a["bundle"], a["revealed_in"])
	case "withdrawn":
		fmt.Fprintf(w, "withdrawn in log entry %v, for %v\n", a["withdrawn_in"], a["reason"])
	}
	round, ok := a["round"].(map[string]any)
	if !ok {
		return
	}
	fmt.Fprintf(w, "stage    %v\n", round["stage"])
	needs, _ := round["needs"].([]any)
	for i, n := range needs {
		label := "needs   "
		if i > 0 {
			label = "        "
		}
		fmt.Fprintf(w, "%s %v\n", label, n)
	}
	if js, _ := round["jobs"].([]any); len(js) > 0 {
		var parts []string
		for _, item := range js {
			j, _ := item.(map[string]any)
			part := fmt.Sprintf("%v %v", j["kind"], j["state"])
			if d, ok := j["deadline"].(string); ok {
				part += " (due " + d + ")"
			}
			parts = append(parts, part)
		}
		fmt.Fprintf(w, "jobs     %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "opens    %v\n", round["opens"])
}

// listSealed prints every bundle this user submitted to the node, each
// with where it stands now.
func listSealed(ctx context.Context, e *env, cl *client.Client, nodeURL string) int {
	subs, err := submissions(nodeURL)
	if err != nil {
		return fail(e, 1, "", "reading your submissions: %v", err)
	}
	if len(subs) == 0 {
		fmt.Fprintf(e.stderr, "agora: you have submitted no bundle to %s from this machine; 'agora bundle submit DIR' seals one\n", nodeURL)
		return 0
	}
	for _, s := range subs {
		a, err := cl.Sealed(ctx, uint64(s.Sealed))
		if err != nil {
			return nodeFailure(e, err, "")
		}
		line := fmt.Sprintf("%d  %v  %s  %s", s.Sealed, a["state"], s.Bundle, s.Dir)
		if round, ok := a["round"].(map[string]any); ok {
			line += fmt.Sprintf("\n    %v; opens %v", round["stage"], round["opens"])
		}
		fmt.Fprintln(e.stdout, line)
	}
	fmt.Fprintln(e.stderr, "agora: 'agora sealed INDEX' says what one still needs")
	return 0
}

// sealedOfYours is the submission, among this user's to the node, whose
// claims include claimID.
func sealedOfYours(nodeURL, claimID string) (submission, bool) {
	subs, _ := submissions(nodeURL)
	for _, s := range subs {
		for _, id := range s.Claims {
			if id == claimID {
				return s, true
			}
		}
	}
	return submission{}, false
}
