package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// env is what a subcommand may touch, so tests can drive it in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// A command is one subcommand: run gets the arguments after its name and
// returns the exit code.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) int
}

func commands() []command {
	return []command{
		{"serve", "run the node (SQLite and an on-disk log in --data, no other service)", runServe},
		{"admin", "administer a running node: admin invite|scopes <op-id>", runAdmin},
		{"key", "make and show hybrid Ed25519 + ML-DSA-44 keys", runKey},
		{"canonical", "write the canonical JSON (RFC 8785) of the JSON text on stdin", runCanonical},
		{"claims", "claim IDs of a bundle folder; search, read and follow published claims", runClaims},
		{"bundle", "hash, check and submit a bundle folder; read an open bundle", runBundle},
		{"sealed", "where a sealed bundle stands: sealed, open or withdrawn", runSealed},
		{"receipt", "verify a log receipt against the log's public key", runReceipt},
		{"register", "register an operator with a node: sign a key entry and send it with a name", runRegister},
		{"operator", "show an operator's record, rename it, rotate its key", runOperator},
		{"identity", "prove an identity (domain, github), make or accept an invite code", runIdentity},
		{"log", "read a node's log and audit it with the protocol core: log show|entries|verify", runLog},
		{"bench", "measure a running node: bench append (appends/s, latency to checkpoint, proof reads/s)", runBench},
		{"memory", "memory for coding agents: memory adapter add|install|hook|mcp, and search|show|notes|forget", runMemory},
		{"library", "the research library: publish, get, head, search, follow; your following and saved lists", runLibrary},
	}
}

func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	return fail(e, 2, "run 'agora help' for the list of commands", "unknown command %q", args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agora <command> [arguments]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}

// fail prints "agora: error: ..." to stderr, then the hint (what to type
// instead) when there is one, and returns code.
func fail(e *env, code int, hint string, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "agora: error: "+format+"\n", args...)
	if hint != "" {
		fmt.Fprintf(e.stderr, "agora: hint: %s\n", hint)
	}
	return code
}

// parseArgs parses fs's flags wherever they stand among args, so
// "key show op:... --keys DIR" works as well as "key show --keys DIR op:...",
// and returns the other arguments in order. "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
				return nil, fmt.Errorf("unknown flag %s", name)
			}
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// A subcommand is one command of a group, such as "agora log verify".
type subcommand struct {
	name  string
	usage string   // its usage line
	help  []string // what it does, a line each
	run   func(ctx context.Context, e *env, args []string) int
}

// runGroup runs "agora <group> <name> ...": it dispatches to the named
// subcommand, or prints the group's usage (and footer) for help, exiting 2
// when no subcommand was named.
func runGroup(ctx context.Context, e *env, group string, subs []subcommand, footer string, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(e.stdout, "usage:")
		for _, c := range subs {
			fmt.Fprintln(e.stdout, "  "+c.usage)
			for _, line := range c.help {
				fmt.Fprintln(e.stdout, "      "+line)
			}
		}
		if footer != "" {
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, footer)
		}
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range subs {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	return fail(e, 2, fmt.Sprintf("run 'agora %s help' for its commands", group), "unknown %s command %q", group, args[0])
}
