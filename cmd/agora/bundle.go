package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/agora-node/agora/ledger/bundle"
)

const bundleUsage = "agora bundle hash <bundle-dir> [--json]"

// runBundle is "agora bundle hash|check|submit|get".
func runBundle(ctx context.Context, e *env, args []string) int {
	return runGroup(ctx, e, "bundle", []subcommand{
		{"hash", bundleUsage, []string{"check every path against the bundle rules; print each file's digest, the bundle hash and the verification inputs"}, bundleHash},
		{"check", bundleCheckUsage, []string{"sign the bundle and run the node's dry run: problems, integrity flags, price, whether it is ready (large data/ files are uploaded first)"}, bundleCheck},
		{"submit", bundleSubmitUsage, []string{"sign the bundle and seal it on the node (large data/ files are uploaded first); retries 502/503/504 and 409 in_progress"}, bundleSubmit},
		{"get", bundleGetUsage, []string{"an open bundle's claims, and with --out its files, each checked against its digest"}, bundleGet},
	}, "", args)
}

// bundleHash is "agora bundle hash <bundle-dir> [--json]": it checks every
// path in the folder against the bundle rules and prints the digest of each
// file, the bundle hash the operator signs and the verification inputs
// claims with evidence bind.
func bundleHash(_ context.Context, e *env, args []string) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintf(e.stdout, "usage: %s\n", bundleUsage)
		return 0
	}
	dir, asJSON, err := bundleFolderArgs("agora bundle hash", args)
	if err != nil {
		return fail(e, 2, "usage: "+bundleUsage, "%v", err)
	}
	_, digests, code := readBundleFolder(e, dir)
	if code != 0 {
		return code
	}
	if asJSON {
		return printBundleJSON(e, struct {
			Bundle             string            `json:"bundle"`
			VerificationInputs string            `json:"verification_inputs"`
			Files              map[string]string `json:"files"`
		}{digests.Bundle, digests.VerificationInputs, digests.Files})
	}
	fmt.Fprintf(e.stdout, "bundle               %s\n", digests.Bundle)
	fmt.Fprintf(e.stdout, "verification inputs  %s\n", digests.VerificationInputs)
	fmt.Fprintf(e.stdout, "files                %d\n", len(digests.Files))
	paths := make([]string, 0, len(digests.Files))
	for p := range digests.Files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		fmt.Fprintf(e.stdout, "  %s  %s\n", digests.Files[p], p)
	}
	return 0
}

// readBundleFolder reads a bundle folder and hashes it, reporting a failure
// through fail and returning its exit code.
func readBundleFolder(e *env, dir string) (map[string][]byte, bundle.Digests, int) {
	files, err := bundle.ReadDir(dir)
	if err != nil {
		hint := ""
		switch {
		case errors.Is(err, bundle.ErrTooLarge):
			hint = fmt.Sprintf("a submission holds at most %d files and %d bytes; send large data ahead of the bundle (\"Large data\")", bundle.MaxFiles, bundle.MaxBytes)
		case errors.Is(err, bundle.ErrNotRegular):
			hint = "a bundle holds regular files only: copy what a link points at into the bundle instead"
		}
		return nil, bundle.Digests{}, fail(e, 1, hint, "%v", err)
	}
	digests, err := bundle.Digest(files)
	if err != nil {
		return nil, bundle.Digests{}, fail(e, 1, "rename or remove the file so every path keeps the bundle rules", "%v", err)
	}
	return files, digests, 0
}

// printBundleJSON prints v as indented JSON, leaving <, > and & as they are
// since nothing here is read as HTML.
func printBundleJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e, 1, "", "writing JSON: %v", err)
	}
	return 0
}

// bundleFolderArgs reads the arguments of a command on one bundle folder:
// the folder and --json, in either order ("--" ends the flags).
func bundleFolderArgs(command string, args []string) (dir string, asJSON bool, err error) {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	positional, err := parseArgs(fs, args)
	if err != nil {
		return "", false, err
	}
	switch len(positional) {
	case 0:
		return "", false, errors.New("give the bundle folder")
	case 1:
		return positional[0], asJSON, nil
	}
	return "", false, fmt.Errorf("give one bundle folder, not %d", len(positional))
}
