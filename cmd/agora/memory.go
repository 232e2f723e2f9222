package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memoryAdapterVersion is sent as adapter_version with every session.start.
const memoryAdapterVersion = "agora-memory-adapter/1"

// memoryHookBudget bounds a whole hook run, reading stdin included: the agent
// waits for its hooks, and memory is never worth a slow agent.
const memoryHookBudget = 1800 * time.Millisecond

// memoryGroup is "agora memory ...": the hooks and MCP server a coding
// agent runs, their installer, and the commands a person runs against the
// node with its admin token (memory_admin.go).
func memoryGroup() *command {
	return group("memory", "memory for coding agents: memory adapter add|install|hook|mcp, and search|show|notes|correct|forget|share|unshare",
		"The hooks and mcp read the node URL and token from $AGORA_HOME/memory/<adapter>.json (agora memory adapter add),\nor AGORA_URL and AGORA_MEMORY_TOKEN. adapter, search, show, notes, correct, forget, share and unshare use the node's admin token\n(<data>/keys/admin.token).",
		func() []*command {
			return []*command{
				memoryHookCommand(),
				memoryInstallCommand(false),
				memoryInstallCommand(true),
				memoryMCPCommand(),
				memoryNoteCommand(),
				memoryAdapterGroup(),
				memorySearchCommand(),
				memoryShowCommand(),
				memoryNotesCommand(),
				memoryForgetCommand(),
				memoryCorrectCommand(),
				memoryShareCommand(true),
				memoryShareCommand(false),
			}
		})
}

// memoryAgent is how the adapter reads one agent's hooks.
type memoryAgent struct {
	parse        func([]byte) (adapter.HookInput, error)
	capabilities []string
}

// memoryAgents are the agents whose hooks the adapter reads.
var memoryAgents = map[string]memoryAgent{
	adapter.AgentClaudeCode: {adapter.ParseClaudeCode, adapter.ClaudeCodeCapabilities},
	adapter.AgentCodex:      {adapter.ParseCodex, adapter.CodexCapabilities},
}

func memoryAdapterID(flagValue, agent string) string {
	if flagValue != "" {
		return flagValue
	}
	if v := os.Getenv("AGORA_MEMORY_ADAPTER"); v != "" {
		return v
	}
	return agent
}

func memoryHookCommand() *command {
	c := newCommand("hook", "agora memory hook claude-code|codex [--adapter ID]",
		"read one hook input on stdin, send its event to the node, print the agent's context",
		"(always exits 0; failures go to $AGORA_HOME/memory/hook.log)")
	c.hint = "the installer writes: agora memory hook claude-code"
	adapterFlag := c.flags.String("adapter", "", "adapter id (default: the agent's name)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "memory hook takes one agent name")
		}
		agent, known := memoryAgents[args[0]]
		if !known {
			return fail(e, 2, "agents: claude-code, codex", "unknown agent %q", args[0])
		}
		return runMemoryHook(ctx, e, args[0], agent, *adapterFlag)
	}
	return c
}

// runMemoryHook runs one hook of agent name within memoryHookBudget, and
// exits 0 whatever happens: the agent waits for its hooks.
func runMemoryHook(ctx context.Context, e *env, name string, agent memoryAgent, adapterFlag string) int {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, memoryHookBudget)
	defer cancel()

	home, herr := adapter.Home(os.Getenv)
	logger := memoryHookLog(home, herr)
	// Whatever happens below, the agent gets exit 0 and clean stdout.
	defer func() {
		if p := recover(); p != nil {
			logger.Printf("%s hook panicked: %v\n%s", name, p, debug.Stack())
		}
	}()
	if herr != nil {
		logger.Printf("%s: %v", name, herr)
		return 0
	}
	data, err := memoryReadStdin(ctx, e.stdin)
	if err != nil {
		logger.Printf("%s: read hook input: %v", name, err)
		return 0
	}
	in, err := agent.parse(data)
	if err != nil {
		logger.Printf("%s: %v", name, err)
		return 0
	}
	id := memoryAdapterID(adapterFlag, name)
	cfg, err := adapter.LoadConfig(home, id, os.Getenv)
	if err != nil {
		logger.Printf("%s %s: %v", name, in.Event, err)
		return 0
	}
	r := &adapter.Runner{
		Client:       cfg.Client(),
		Store:        memoryStates(home),
		Version:      memoryAdapterVersion,
		Capabilities: agent.capabilities,
		Project:      os.Getenv("AGORA_MEMORY_PROJECT"),
	}
	out, err := r.Run(ctx, in)
	took := time.Since(start).Round(time.Millisecond)
	switch {
	case err != nil:
		logger.Printf("%s %s session=%s kind=%s event=%s failed after %s: %v", name, in.Event, in.SessionID, out.Kind, short(out.EventID), took, err)
	case out.Skipped != "":
		logger.Printf("%s %s session=%s skipped: %s", name, in.Event, in.SessionID, out.Skipped)
	default:
		logger.Printf("%s %s session=%s kind=%s event=%s ok in %s inject=%t", name, in.Event, in.SessionID, out.Kind, short(out.EventID), took, out.Context != "")
	}
	if b := adapter.HookOutput(in, out.Context); b != nil {
		e.stdout.Write(b)
	}
	return 0
}

// memoryStates is where hooks keep their sessions' state, and where the
// MCP server finds the session the hooks bound.
func memoryStates(home string) *adapter.Store {
	return &adapter.Store{Dir: filepath.Join(home, "memory", "sessions")}
}

func short(id string) string {
	if len(id) > 19 {
		return id[:19]
	}
	return id
}

// memoryReadStdin reads the hook input within ctx: an agent that never
// closes stdin must not hold the hook past its budget.
func memoryReadStdin(ctx context.Context, r io.Reader) ([]byte, error) {
	type res struct {
		data []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, 8<<20))
		ch <- res{data, err}
	}()
	select {
	case v := <-ch:
		return v.data, v.err
	case <-ctx.Done():
		return nil, fmt.Errorf("stdin not closed in time: %w", ctx.Err())
	}
}

// memoryHookLogMax is the size past which the hook log is rotated once.
const memoryHookLogMax = 1 << 20

// memoryHookLog opens $AGORA_HOME/memory/hook.log for appending, or discards
// the log when it cannot: a hook has nowhere else to say what went wrong.
func memoryHookLog(home string, herr error) *log.Logger {
	if herr != nil {
		return log.New(io.Discard, "", 0)
	}
	dir := filepath.Join(home, "memory")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return log.New(io.Discard, "", 0)
	}
	p := filepath.Join(dir, "hook.log")
	if fi, err := os.Stat(p); err == nil && fi.Size() > memoryHookLogMax {
		os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return log.New(io.Discard, "", 0)
	}
	// The file stays open until the process exits, a moment after the hook.
	return log.New(f, "", log.LstdFlags|log.LUTC)
}

func memoryInstallCommand(uninstall bool) *command {
	verb, usage, help := "install", "agora memory install claude-code|codex [--user | --project DIR] [--agora PATH]",
		"write the hooks calling 'agora memory hook' into the agent's settings (merged, backed up)"
	if uninstall {
		verb, usage, help = "uninstall", "agora memory uninstall claude-code|codex [--user | --project DIR]",
			"remove the hooks install wrote, keeping everything else"
	}
	c := newCommand(verb, usage, help)
	c.hint = "run 'agora memory help'"
	user := c.flags.Bool("user", false, "the user's settings (the default)")
	project := c.flags.String("project", "", "the settings of the project in DIR")
	agoraPath := c.flags.String("agora", "", "the agora binary the hooks run (default: this one)")
	adapterFlag := c.flags.String("adapter", "", "adapter id the hooks use (default: the agent's name)")
	c.run = func(_ context.Context, e *env, args []string) int {
		if len(args) != 1 || memoryAgents[args[0]].parse == nil {
			return fail(e, 2, "agora memory "+verb+" claude-code --user, or agora memory "+verb+" codex", "memory %s takes one agent: claude-code or codex", verb)
		}
		if *user && *project != "" {
			return fail(e, 2, "choose one", "--user and --project both given")
		}
		return memoryInstall(e, args[0], *project, *agoraPath, *adapterFlag, uninstall)
	}
	return c
}

// memoryInstall writes agent's hooks into its settings, or removes them,
// and says what it did.
func memoryInstall(e *env, agent, project, agoraPath, adapterFlag string, uninstall bool) int {
	path, err := memoryHookFile(agent, project)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	bin := agoraPath
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return fail(e, 1, "give the binary with --agora PATH", "find the agora binary: %v", err)
		}
		if p, err := filepath.EvalSymlinks(bin); err == nil {
			bin = p
		}
		if !uninstall && inGoBuildCache(bin) {
			return fail(e, 2, "install agora first (go install ./cmd/agora, or go build -o ~/bin/agora ./cmd/agora), then run that binary, or give one with --agora PATH",
				"this agora is a temporary build by 'go run' (%s): Go removes it, and the hooks would stop working", bin)
		}
	}
	marker := "memory hook " + agent
	command := adapter.ShellQuote(bin) + " " + marker
	if adapterFlag != "" {
		// The adapter flag goes before the agent so the marker stays last.
		command = adapter.ShellQuote(bin) + " memory hook --adapter " + adapter.ShellQuote(adapterFlag) + " " + agent
	}
	hooks := adapter.ClaudeCodeHooks
	if agent == adapter.AgentCodex {
		hooks = adapter.CodexHooks
	}
	res, err := adapter.InstallHooks(path, hooks, command, marker, uninstall, time.Now())
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	w := e.stdout
	if !res.Changed {
		if uninstall {
			fmt.Fprintf(w, "%s has no Agora memory hooks; nothing changed.\n", path)
		} else {
			fmt.Fprintf(w, "%s already has the Agora memory hooks; nothing changed.\n", path)
		}
		return 0
	}
	if uninstall {
		fmt.Fprintf(w, "Removed the Agora memory hooks from %s.\n", path)
	} else {
		fmt.Fprintf(w, "Wrote Agora memory hooks into %s:\n", path)
		for _, h := range hooks {
			m := ""
			if h.Matcher != "" {
				m = " (tools " + h.Matcher + ")"
			}
			fmt.Fprintf(w, "  %-19s %s%s\n", h.Event, command, m)
		}
	}
	if res.Backup != "" {
		fmt.Fprintf(w, "The old file is kept as %s.\n", res.Backup)
	}
	if !uninstall {
		undo := "agora memory uninstall " + agent
		if project != "" {
			undo += " --project " + adapter.ShellQuote(project)
		}
		fmt.Fprintf(w, "To undo: %s", undo)
		if res.Backup != "" {
			fmt.Fprintf(w, " (or: cp %s %s)", adapter.ShellQuote(res.Backup), adapter.ShellQuote(path))
		}
		fmt.Fprintln(w)
		id := memoryAdapterID(adapterFlag, agent)
		fmt.Fprintf(w, "The hooks read the node URL and token from %s (agora memory adapter add %s writes it)\nor AGORA_URL and AGORA_MEMORY_TOKEN;\n", adapter.ConfigPath("$AGORA_HOME", id), id)
		fmt.Fprintln(w, "they never block the agent: failures are logged to $AGORA_HOME/memory/hook.log.")
		switch agent {
		case adapter.AgentClaudeCode:
			mcpCmd := adapter.ShellQuote(bin) + " memory mcp"
			if adapterFlag != "" {
				mcpCmd += " --adapter " + adapter.ShellQuote(adapterFlag)
			}
			fmt.Fprintln(w, "For memory_search, memory_read and memory_note: claude mcp add agora-memory -- "+mcpCmd)
		case adapter.AgentCodex:
			fmt.Fprintln(w, "Codex runs hooks when [features] hooks = true (codex_hooks in older versions) and may ask you to trust them (/hooks).")
			fmt.Fprintln(w, "For memory_search, memory_read and memory_note: codex mcp add agora-memory -- "+adapter.ShellQuote(bin)+" memory mcp --adapter "+adapter.ShellQuote(memoryAdapterID(adapterFlag, agent)))
		}
	}
	return 0
}

// memoryHookFile is the file an agent reads its hooks from: Claude Code's
// settings.json, Codex's hooks.json, the user's or a project's.
func memoryHookFile(agent, project string) (string, error) {
	if project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return "", fmt.Errorf("project directory: %w", err)
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("project directory %s does not exist", abs)
		}
		if agent == adapter.AgentCodex {
			return filepath.Join(abs, ".codex", "hooks.json"), nil
		}
		return filepath.Join(abs, ".claude", "settings.json"), nil
	}
	if agent == adapter.AgentCodex {
		if d := os.Getenv("CODEX_HOME"); d != "" {
			return filepath.Join(d, "hooks.json"), nil
		}
	} else if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "settings.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find your home directory (or give --project DIR): %w", err)
	}
	if agent == adapter.AgentCodex {
		return filepath.Join(home, ".codex", "hooks.json"), nil
	}
	return filepath.Join(home, ".claude", "settings.json"), nil
}

// memoryNopCloser lets the MCP transport close what it was given without
// closing the process's own stdin and stdout.
type memoryNopCloser struct{ io.Writer }

func (memoryNopCloser) Close() error { return nil }

func memoryMCPCommand() *command {
	c := newCommand("mcp", "agora memory mcp [--adapter ID] [--project NAME] [--workspace DIR]",
		"serve memory_search, memory_read and memory_note over MCP on stdio,",
		"in the session the hooks bound in the workspace when one is live")
	c.hint = "agora memory mcp [--adapter ID] [--project NAME] [--workspace DIR]"
	adapterFlag, project, workspace := c.memorySessionFlags("the agent's workspace root (default: the working directory, where agents start MCP servers)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "memory mcp takes no arguments")
		}
		return runMemoryMCP(ctx, e, *adapterFlag, *project, *workspace)
	}
	return c
}

// memoryTools are the MCP tools for the adapter and workspace, in the
// session the hooks bound there when one is live, as the MCP server and
// 'agora memory note' use them.
func memoryTools(e *env, adapterFlag, project, workspace string) (*adapter.MCPTools, int) {
	home, err := adapter.Home(os.Getenv)
	if err != nil {
		return nil, fail(e, 1, "", "%v", err)
	}
	id := memoryAdapterID(adapterFlag, adapter.AgentClaudeCode)
	cfg, err := adapter.LoadConfig(home, id, os.Getenv)
	if err != nil {
		return nil, fail(e, 1, "run 'agora memory adapter add "+id+"' on the node, or set AGORA_URL and AGORA_MEMORY_TOKEN", "%v", err)
	}
	root := workspace
	if root == "" {
		root, _ = os.Getwd()
	} else if root, err = filepath.Abs(root); err != nil {
		return nil, fail(e, 2, "give --workspace as a folder path", "workspace: %v", err)
	}
	return &adapter.MCPTools{Client: cfg.Client(), Project: project, WorkspaceRoot: root, Version: memoryAdapterVersion, Hooks: memoryStates(home)}, 0
}

// memorySessionFlags adds --adapter, --project and --workspace, which say
// whose session the MCP tools act in.
func (c *command) memorySessionFlags(workspaceHelp string) (adapterFlag, project, workspace *string) {
	adapterFlag = c.flags.String("adapter", "", "adapter id (default claude-code, or $AGORA_MEMORY_ADAPTER)")
	project = c.flags.String("project", os.Getenv("AGORA_MEMORY_PROJECT"), "project id (default: the workspace's name)")
	workspace = c.flags.String("workspace", "", workspaceHelp)
	return adapterFlag, project, workspace
}

// memoryNoteCommand is "agora memory note": a note written from the shell
// as an agent writes one with memory_note.
func memoryNoteCommand() *command {
	c := newCommand("note", "agora memory note --title TITLE --type TYPE --what TEXT --why TEXT --where TEXT --learned TEXT [--scope project|global] [--topic-key KEY] [--fix-command CMD] [--adapter ID] [--project NAME] [--workspace DIR]",
		"write a memory note as an agent does with memory_note: in the session the hooks bound in the",
		"workspace when one is live (so the node links it to the failure that session met), else in one of its own")
	var a adapter.NoteArgs
	c.flags.StringVar(&a.Title, "title", "", "a short title, at most 160 characters")
	c.flags.StringVar(&a.Type, "type", "", "one of decision, bugfix, pattern, config, discovery, learning, pitfall")
	c.flags.StringVar(&a.Scope, "scope", "project", "project, or global for every project")
	c.flags.StringVar(&a.What, "what", "", "what happened or what was done")
	c.flags.StringVar(&a.Why, "why", "", "why it happened or why it was done")
	c.flags.StringVar(&a.Where, "where", "", "where: files, commands, the error message")
	c.flags.StringVar(&a.Learned, "learned", "", "what to do next time")
	c.flags.StringVar(&a.TopicKey, "topic-key", "", "a family/description key, such as npm/missing-module")
	c.flags.StringVar(&a.FixCommand, "fix-command", "", "a shell command, run in the workspace root, that fixes the problem")
	adapterFlag, project, workspace := c.memorySessionFlags("the workspace root the note is about (default: the working directory)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "give the note's parts as flags, quoted: --what 'npm test failed: ...'")
		}
		tools, code := memoryTools(e, *adapterFlag, *project, *workspace)
		if code != 0 {
			return code
		}
		defer func() {
			endCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			tools.Close(endCtx)
		}()
		_, text, err := tools.Note(ctx, a)
		var ae *memory.Error
		switch {
		case errors.As(err, &ae):
			return fail(e, 1, "", "the node refused the note: %v", err)
		case err != nil && strings.Contains(err.Error(), "bind memory session"):
			return fail(e, 1, "start the node with 'agora serve', or check the URL in the adapter's config ('agora memory adapter add')", "%v", err)
		case err != nil:
			return c.usageError(e, "%v", err)
		}
		fmt.Fprintln(e.stdout, text)
		return 0
	}
	return c
}

// runMemoryMCP serves the MCP tools on stdio until the agent closes them.
func runMemoryMCP(ctx context.Context, e *env, adapterFlag, project, workspace string) int {
	tools, code := memoryTools(e, adapterFlag, project, workspace)
	if code != 0 {
		return code
	}
	err := adapter.NewMCPServer(tools).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: memoryNopCloser{e.stdout}})
	endCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if cerr := tools.Close(endCtx); cerr != nil {
		fmt.Fprintf(e.stderr, "agora: memory mcp: end session: %v\n", cerr)
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fail(e, 1, "", "memory mcp: %v", err)
	}
	return 0
}

// inGoBuildCache reports whether bin is a binary 'go run' built: in Go's
// build cache, or in a go-build folder under the temporary directory.
func inGoBuildCache(bin string) bool {
	dirs := []string{os.TempDir()}
	if cache := os.Getenv("GOCACHE"); cache != "" {
		dirs = append(dirs, cache)
	} else if user, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(user, "go-build"))
	}
	for _, dir := range dirs {
		rel, err := filepath.Rel(dir, bin)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if dir != os.TempDir() || strings.HasPrefix(rel, "go-build") {
			return true
		}
	}
	return false
}
