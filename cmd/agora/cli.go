package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
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

	// subs builds a group's commands (nil for a command that is not a
	// group), so help can walk every command agora has; footer is printed
	// after their list.
	subs   func() []*command
	footer string
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
		if strings.HasPrefix(w, "-") || strings.ContainsAny(w, "<[|") || strings.ToUpper(w) == w {
			return strings.Join(words[:i], " ")
		}
	}
	return usage
}

// exec runs c with the arguments after its name.
func (c *command) exec(ctx context.Context, e *env, args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || c.helpArg && args[0] == "help") {
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

// printUsage prints c's help: its usage line (or doc), what it does, its
// flags with what each means, and an example; for a group, its commands.
func (c *command) printUsage(e *env) {
	if c.subs != nil {
		printGroup(e, c)
		return
	}
	if c.doc != "" {
		fmt.Fprint(e.stdout, c.doc)
	} else {
		fmt.Fprintln(e.stdout, "usage: "+c.usage)
		for _, line := range c.help {
			fmt.Fprintln(e.stdout, "  "+line)
		}
	}
	printFlags(e.stdout, c.flags, c.usage)
	if ex := examples[commandPath(c.usage)]; ex != "" {
		fmt.Fprintln(e.stdout, "\nexample:\n  "+ex)
	}
}

// printFlags lists fs's flags, each with its value's name as the usage
// line writes it, what it means and its default.
func printFlags(w io.Writer, fs *flag.FlagSet, usage string) {
	if fs == nil {
		return
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(w, "\nflags:")
			first = false
		}
		line := "  --" + f.Name
		if len(f.Name) == 1 {
			line = "  -" + f.Name // a short flag, as usage lines write it
		}
		if name := valueName(usage, f); name != "" {
			line += " " + name
		}
		_, meaning := flag.UnquoteUsage(f)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && !strings.Contains(meaning, "default") {
			meaning += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%s\n      %s\n", line, meaning)
	})
}

// valueName is what a flag's value is called: the word after the flag in
// the usage line ("--keys DIR"), else one from its type; "" for a switch.
func valueName(usage string, f *flag.Flag) string {
	if _, ok := f.Value.(interface{ IsBoolFlag() bool }); ok {
		return ""
	}
	words := strings.Fields(strings.NewReplacer("[", " ", "]", " ", "|", " ", "=", " ").Replace(usage))
	for i, w := range words {
		if w != "--"+f.Name && w != "-"+f.Name || i+1 == len(words) {
			continue
		}
		// A name, not a default written in its place ("--listen ADDR",
		// "--key <op-id|file>", "--software a,b"; not "--free-bundles seed").
		if next := words[i+1]; strings.ToLower(next) != next || strings.ContainsAny(next, "<,") {
			return next
		}
	}
	switch name, _ := flag.UnquoteUsage(f); name {
	case "int", "uint", "float":
		return "N"
	case "duration":
		return "DURATION"
	}
	return "VALUE"
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
	g := &command{name: words[len(words)-1], usage: "agora " + path, help: []string{summary}, footer: footer, subs: subs}
	g.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) == 0 || isHelp(args[0]) {
			printGroup(e, g)
			if len(args) == 0 {
				return 2
			}
			return 0
		}
		for _, c := range subs() {
			if c.name == args[0] {
				return c.exec(ctx, e, args[1:])
			}
		}
		return fail(e, 2, fmt.Sprintf("run 'agora %s help' for its commands", path), "unknown %s command %q", path, args[0])
	}
	return g
}

// printGroup lists a group's commands with what each does, then its
// footer.
func printGroup(e *env, g *command) {
	fmt.Fprintln(e.stdout, "usage:")
	seen := map[string]bool{}
	for _, c := range g.subs() {
		if seen[c.usage] {
			continue // one usage line covering several commands
		}
		seen[c.usage] = true
		fmt.Fprintln(e.stdout, "  "+c.usage)
		for _, line := range c.help {
			fmt.Fprintln(e.stdout, "      "+line)
		}
	}
	if g.footer != "" {
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, g.footer)
	}
	fmt.Fprintf(e.stdout, "\nRun '%s <command> --help' for a command's flags and an example.\n", g.usage)
}

// commands are agora's commands, in the order 'agora help' lists them.
func commands() []*command {
	return []*command{
		serveCommand(),
		migrateCommand(),
		adminGroup(),
		keyGroup(),
		canonicalCommand(),
		claimsGroup(),
		bundleGroup(),
		sealedCommand(),
		statusCommand(),
		nectarCommand(),
		leaderboardCommand(),
		snapshotGroup(),
		transparencyCommand(),
		jobGroup(),
		attestCommand(),
		challengeCommand(),
		retractCommand(),
		addendumGroup(),
		appealCommand(),
		preregCommand(),
		creditCommand(),
		receiptGroup(),
		registerCommand(),
		operatorGroup(),
		teamGroup(),
		identityGroup(),
		recoverGroup(),
		logGroup(),
		benchGroup(),
		memoryGroup(),
		libraryGroup(),
		versionCommand(),
	}
}

func run(ctx context.Context, args []string, e *env) int {
	if len(args) == 0 || isHelp(args[0]) {
		if len(args) > 1 {
			// agora help serve, agora help log verify: the command's own help.
			return run(ctx, append(slices.Clone(args[1:]), "--help"), e)
		}
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
	fmt.Fprintln(w, "\nRun 'agora help <command>' (or 'agora <command> --help') for its flags and an example.")
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
