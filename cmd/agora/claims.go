package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/agora-node/agora/ledger/claims"
)

const claimsUsage = "agora claims ids <bundle-dir> [--json]"

// runClaims is "agora claims ids|search|get|follow".
func runClaims(ctx context.Context, e *env, args []string) int {
	return runGroup(ctx, e, "claims", []subcommand{
		{"ids", claimsUsage, []string{"validate a bundle folder's claims.json and print each claim's global ID"}, claimsIDs},
		{"search", claimsSearchUsage, []string{"find published claims by their words (a word also finds the words it starts) and filters"}, claimsSearch},
		{"get", claimsGetUsage, []string{"a claim with its statuses, restatements and the claims that build on it"}, claimsGet},
		{"follow", claimsFollowUsage, []string{"print each claim as it opens, one JSON object a line, until interrupted"}, claimsFollow},
	}, "", args)
}

// claimsIDs is "agora claims ids <bundle-dir> [--json]": it validates the
// bundle's claims.json as a node does, against the bundle's own files
// (declared results under results/, the files evidence names), and prints
// each claim's global ID and assertion digest in claims.json order.
//
// Invalid claims exit 1; with --json they are reported on stdout as
// {"valid": false, "issues": [{"path", "message"}]}, the form of the node's
// /api/v1/claims/validate, so a script can read what to fix.
func claimsIDs(_ context.Context, e *env, args []string) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintf(e.stdout, "usage: %s\n", claimsUsage)
		return 0
	}
	dir, asJSON, err := bundleFolderArgs("agora claims ids", args)
	if err != nil {
		return fail(e, 2, "usage: "+claimsUsage, "%v", err)
	}
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
