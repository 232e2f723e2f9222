package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/claims"
)

// claimsGroup is "agora claims ids|search|get|follow".
func claimsGroup() *command {
	return group("claims", "claim IDs of a bundle folder; search, read and follow published claims", "", func() []*command {
		return []*command{claimsIDsCommand(), claimsSearchCommand(), claimsGetCommand(), claimsStatusCommand(), claimsFollowCommand()}
	})
}

// claimsIDsCommand is "agora claims ids <bundle-dir> [--json]": it
// validates the bundle's claims.json as a node does, against the bundle's
// own files (declared results under results/, the files evidence names),
// and prints each claim's global ID and assertion digest in claims.json
// order.
//
// Invalid claims exit 1; with --json they are reported on stdout as
// {"valid": false, "issues": [{"path", "message"}]}, the form of the node's
// /api/v1/claims/validate, so a script can read what to fix.
func claimsIDsCommand() *command {
	c := newCommand("ids", "agora claims ids <bundle-dir> [--json]",
		"validate a bundle folder's claims.json and print each claim's global ID")
	c.helpArg = true
	asJSON := c.flags.Bool("json", false, "print JSON")
	c.run = func(_ context.Context, e *env, args []string) int {
		dir, code := oneFolder(c, e, args)
		if code != 0 {
			return code
		}
		return claimsIDs(e, dir, *asJSON)
	}
	return c
}

func claimsIDs(e *env, dir string, asJSON bool) int {
	files, digests, code := readBundleFolder(e, dir)
	if code != 0 {
		return code
	}
	text, ok := files["claims.json"]
	if !ok {
		return fail(e, 1, "a bundle's claims are in claims.json at its top level", "%s has no claims.json", dir)
	}

	parsed, issues, err := claims.ParseFile(text)
	if err != nil {
		issues = []claims.Issue{{Path: "", Message: err.Error()}}
	}
	var results map[string]any
	if len(issues) == 0 {
		results, issues = claims.CheckEvidence(parsed, files)
	}
	if len(issues) > 0 {
		if asJSON {
			printBundleJSON(e, struct {
				Valid  bool           `json:"valid"`
				Issues []claims.Issue `json:"issues"`
			}{false, issues})
			return 1
		}
		// One line per issue, file name first, as compilers write them.
		for _, issue := range issues {
			fmt.Fprintf(e.stderr, "claims.json%s: %s\n", issue.Path, issue.Message)
		}
		return fail(e, 1, "", "claims.json is not valid; each issue above names where, as a JSON Pointer")
	}

	ids, err := claims.AssignIDs(parsed, digests.VerificationInputs, results)
	if err != nil {
		return fail(e, 1, "", "computing claim IDs: %v", err)
	}
	type row struct {
		LocalID         string `json:"local_id"`
		ClaimID         string `json:"claim_id"`
		AssertionDigest string `json:"assertion_digest"`
	}
	rows := make([]row, len(parsed))
	for i := range parsed {
		ad, err := claims.AssertionDigest(&parsed[i])
		if err != nil {
			return fail(e, 1, "", "%s: %v", parsed[i].LocalID, err)
		}
		rows[i] = row{parsed[i].LocalID, ids[i], ad}
	}
	if asJSON {
		return printBundleJSON(e, struct {
			Claims []row `json:"claims"`
		}{rows})
	}
	fmt.Fprintf(e.stdout, "verification inputs  %s\n\n", digests.VerificationInputs)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LOCAL ID\tCLAIM ID\tASSERTION DIGEST")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.LocalID, r.ClaimID, r.AssertionDigest)
	}
	if err := tw.Flush(); err != nil {
		return fail(e, 1, "", "writing: %v", err)
	}
	return 0
}

// claimFilters are the filters search and follow share.
type claimFilters struct {
	field, typ, operator, dependsOn, cites *string
}

// claimFilters adds --field, --type, --operator, --depends-on and --cites.
func (c *command) claimFilters() claimFilters {
	return claimFilters{
		field:     c.flags.String("field", "", "only claims of this field tag"),
		typ:       c.flags.String("type", "", "only claims of this type"),
		operator:  c.flags.String("operator", "", "only claims of this operator"),
		dependsOn: c.flags.String("depends-on", "", "only claims that depend on this claim ID"),
		cites:     c.flags.String("cites", "", "only claims whose bundles cite this ID"),
	}
}

func (f claimFilters) values() url.Values {
	q := url.Values{}
	for name, v := range map[string]string{"field": *f.field, "type": *f.typ, "operator": *f.operator, "depends_on": *f.dependsOn, "cites": *f.cites} {
		if v != "" {
			q.Set(name, v)
		}
	}
	return q
}

func claimsSearchCommand() *command {
	c := newCommand("search", "agora claims search [words...] [--field F] [--type T] [--operator ID] [--depends-on ID] [--cites ID] [--limit N] [--before I] [--url URL] [--json]",
		"find published claims by their words (a word also finds the words it starts) and filters")
	filters := c.claimFilters()
	nodeURL := c.nodeURL()
	limit := c.flags.Int("limit", 20, "claims per page, at most 50")
	before := c.flags.Int64("before", 0, "only claims opened before this log index (the next.before of an earlier page)")
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		q := filters.values()
		if len(args) > 0 {
			q.Set("q", strings.Join(args, " "))
		}
		q.Set("limit", strconv.Itoa(*limit))
		if *before > 0 {
			q.Set("before", strconv.FormatInt(*before, 10))
		}
		page, err := newClient(*nodeURL).Claims(ctx, q)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printBundleJSON(e, page)
		}
		list, _ := page["claims"].([]any)
		for _, item := range list {
			c, _ := item.(map[string]any)
			fmt.Fprintf(e.stdout, "%v  %v  [%v]  %v\n", c["claim_id"], c["type"], c["published_in"], c["statement"])
		}
		if next, ok := page["next"].(map[string]any); ok {
			fmt.Fprintf(e.stderr, "agora: more with --before %v\n", next["before"])
		}
		if len(list) == 0 {
			fmt.Fprintln(e.stderr, "agora: no claims found")
			hintSealed(ctx, e, *nodeURL)
		}
		return 0
	}
	return c
}

func claimsGetCommand() *command {
	c := newCommand("get", "agora claims get <claim-id> [--url URL]",
		"a claim with its statuses, restatements and the claims that build on it")
	c.claimFilters() // accepted, as by search and follow; a claim ID names one claim
	nodeURL := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give one claim ID (claim:...)")
		}
		nc := newClient(*nodeURL)
		cl, err := nc.Claim(ctx, args[0])
		var ce *client.Error
		if errors.As(err, &ce) && ce.Status == http.StatusNotFound {
			// The node says nothing of sealed claims to anyone, so a claim
			// of the user's own sealed bundle is told from the note kept
			// when it was submitted.
			if s, ok := sealedOfYours(*nodeURL, args[0]); ok {
				a, serr := nc.Sealed(ctx, uint64(s.Sealed))
				if serr == nil && a["state"] == "sealed" {
					fmt.Fprintf(e.stderr, "agora: %s is a claim of your bundle %s, sealed at index %d (%s): no one can read it until the bundle opens\n", args[0], s.Bundle, s.Sealed, s.Dir)
					printSealed(e.stderr, a)
					return 1
				}
			}
			return nodeFailure(e, err, "a claim is found once its bundle opens; 'agora sealed' lists the bundles you submitted and what each waits for")
		}
		if err != nil {
			return nodeFailure(e, err, "")
		}
		return printBundleJSON(e, cl)
	}
	return c
}

// hintSealed says, after a search found nothing, that the user's own
// sealed bundles are not searched, when they have some.
func hintSealed(ctx context.Context, e *env, nodeURL string) {
	subs, _ := submissions(nodeURL)
	sealed := 0
	cl := newClient(nodeURL)
	for _, s := range subs {
		if a, err := cl.Sealed(ctx, uint64(s.Sealed)); err == nil && a["state"] == "sealed" {
			sealed++
		}
	}
	if sealed > 0 {
		fmt.Fprintf(e.stderr, "agora: note: %d bundle(s) of yours are still sealed; no one finds their claims until they open: 'agora sealed' says what each waits for\n", sealed)
	}
}

// claimsFollowCommand prints every claim as it opens, one JSON object a
// line, until interrupted.
func claimsFollowCommand() *command {
	c := newCommand("follow", "agora claims follow [--since I] [--field F] [--type T] [--url URL]",
		"print each claim as it opens, one JSON object a line, until interrupted")
	filters := c.claimFilters()
	nodeURL := c.nodeURL()
	since := c.flags.Int64("since", 0, "start after this log index")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "follow takes flags only")
		}
		err := newClient(*nodeURL).FollowClaims(ctx, *since, 25*time.Second, filters.values(), func(c map[string]any) error {
			b, err := canonical.Marshal(c)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(e.stdout, string(bytes.TrimSpace(b)))
			return err
		})
		if errors.Is(err, context.Canceled) {
			return 0
		}
		return nodeFailure(e, err, "")
	}
	return c
}
