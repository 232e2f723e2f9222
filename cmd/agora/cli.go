package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// env is what a command may touch, so tests can drive it in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// A command is one command of agora: a top-level one such as "serve", a
// group's such as "log verify", or a group itself. It holds its flag set
// and what it runs. exec parses the flags wherever they stand among the
// arguments, prints the usage for -h, and reports a command line it
// cannot parse, so run gets the other arguments in order and only checks
// what they are.
//
// A command is built afresh for each run (its flags point into the
// closure run reads them from), so a test process may run many.
type command struct {
	name  string   // as typed: "verify"
	usage string   // its usage line: "agora log verify [--url URL] [--pin FILE]"
	help  []string // what it does, a line each; the first is its summary in 'agora help'
	doc   string   // printed for -h instead of "usage: " and the usage line, when not empty
	hint  string   // told with a command line it cannot run; default "usage: " and the usage line

	// helpArg has a first argument "help" (or -h, --help) print the usage,
	// for commands whose first argument is a name of the user's.
	helpArg bool

	// flags is the command's flag set; nil for a command that reads its
	// arguments itself (a group, canonical), to which exec hands them all.
	flags *flag.FlagSet
	run   func(ctx context.Context, e *env, args []string) int
}

// newCommand returns a command with an empty flag set, to which its
// builder adds flags before setting run.
func newCommand(name, usage string, help ...string) *command {
	fs := flag.NewFlagSet(commandPath(usage), flag.ContinueOnError)
	// Errors are reported through fail, with a hint; flag's own printing
	// would repeat them without one.
	fs.SetOutput(io.Discard)
	return &command{name: name, usage: usage, help: help, flags: fs}
}

// commandPath is the command's words at the start of its usage line,
// "agora log verify", up to its first argument or flag.
func commandPath(usage string) string {
	words := strings.Fields(usage)
	for i, w := range words {
		if strings.ContainsAny(w, "<[-|") || strings.ToUpper(w) == w {
			return strings.Join(words[:i], " ")
		}
	}
	return usage
}

// exec runs c with the arguments after its name.
func (c *command) exec(ctx context.Context, e *env, args []string) int {
	if c.helpArg && len(args) > 0 && isHelp(args[0]) {
		c.printUsage(e)
		return 0
	}
	if c.flags == nil {
		return c.run(ctx, e, args)
	}
	rest, err := parseArgs(c.flags, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printUsage(e)
		return 0
	}
	if err != nil {
		return c.usageError(e, "%v", err)
	}
	return c.run(ctx, e, rest)
}

func (c *command) printUsage(e *env) {
	if c.doc != "" {
		fmt.Fprint(e.stdout, c.doc)
		return
	}
	fmt.Fprintln(e.stdout, "usage: "+c.usage)
}

// usageError reports a command line c cannot run, with its hint, and
// returns 2.
func (c *command) usageError(e *env, format string, args ...any) int {
	hint := c.hint
	if hint == "" {
		hint = "usage: " + c.usage
	}
	return fail(e, 2, hint, format, args...)
}

// noArgs reports arguments given to a command that takes none, naming the
// first; it returns 0 when there are none.
func (c *command) noArgs(e *env, args []string) int {
	if len(args) == 0 {
		return 0
	}
	return c.usageError(e, "%s takes no arguments, but was given %q", strings.TrimPrefix(commandPath(c.usage), "agora "), args[0])
}

func isHelp(arg string) bool { return arg == "help" || arg == "-h" || arg == "--help" }

// group returns the command "agora <path> ...", such as "agora memory
// adapter", which runs one of the commands subs builds, or prints their
// usage (and footer) for help, exiting 2 when no command was named.
func group(path string, summary string, footer string, subs func() []*command) *command {
	words := strings.Fields(path)
	return &command{name: words[len(words)-1], usage: "agora " + path, help: []string{summary}, run: func(ctx context.Context, e *env, args []string) int {
		return runGroup(ctx, e, path, subs(), footer, args)
	}}
}

func runGroup(ctx context.Context, e *env, path string, subs []*command, footer string, args []string) int {
	if len(args) == 0 || isHelp(args[0]) {
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
			return c.exec(ctx, e, args[1:])
		}
	}
	return fail(e, 2, fmt.Sprintf("run 'agora %s help' for its commands", path), "unknown %s command %q", path, args[0])
}

// commands are agora's commands, in the order 'agora help' lists them.
func commands() []*command {
	return []*command{
		serveCommand(),
		adminGroup(),
		keyGroup(),
		canonicalCommand(),
		claimsGroup(),
		bundleGroup(),
		sealedCommand(),
		jobGroup(),
		attestCommand(),
		creditCommand(),
		receiptGroup(),
		registerCommand(),
		operatorGroup(),
		identityGroup(),
		logGroup(),
		benchGroup(),
		memoryGroup(),
		libraryGroup(),
	}
}

func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(e.stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.exec(ctx, e, args[1:])
		}
	}
	return fail(e, 2, "run 'agora help' for the list of commands", "unknown command %q", args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agora <command> [arguments]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.help[0])
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
