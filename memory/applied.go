package memory

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// How a fix was applied: the receipt's applied_via.
const (
	AppliedViaCommand = "fix_command" // the session ran the fix's command
	AppliedViaPath    = "fix_path"    // the session wrote a file the fix names
)

// Marks a record earns from a session that applied its fix.
const (
	MarkUsedThenPassed = "used_then_passed"
	MarkTaskFailed     = "task_failed"
)

// AppliedBy decides, deterministically and without asking the agent,
// whether a tool call applied a recalled record's fix (the contract's
// "applied": after the record was pushed or read, the agent ran its fix).
//
//   - A command fix is applied when the command the tool ran contains the
//     fix's command: both are split into simple commands at &&, ||, ; and
//     |, each normalized (whitespace collapsed, quotes removed, leading
//     NAME=value assignments, env, sudo and npx with their options
//     dropped), and the fix's simple commands must appear in the run's, in
//     order and adjacent. So "CGO_ENABLED=0 go test ./..." matches
//     "cd app && go  test ./...", and "npm ci" matches "sudo npm ci".
//   - A config or diff fix is applied when a written path is a file the fix
//     names (its path, or a path in the diff's headers). Fix paths are
//     relative to the workspace root; a written path matches when it is the
//     same path or ends with it at a directory boundary, as an absolute path
//     inside the workspace does.
//
// toolName is not consulted: the contract matches on what ran and what was
// written, whichever tool did it; it is taken so that a rule that needs it
// (a patch tool applying a diff fix, say) can be added without changing
// every caller.
func AppliedBy(fix Fix, toolName, command string, writtenPaths []string) (via string, ok bool) {
	_ = toolName
	switch fix.Kind {
	case FixCommand:
		if command != "" && commandContains(command, fix.Command) {
			return AppliedViaCommand, true
		}
	case FixConfig, FixDiff:
		var named []string
		if fix.Kind == FixConfig {
			named = []string{fix.Path}
		} else {
			named, _ = DiffPaths(fix.Diff)
		}
		for _, w := range writtenPaths {
			for _, n := range named {
				if pathMatches(w, n) {
					return AppliedViaPath, true
				}
			}
		}
	}
	return "", false
}

// NextMark returns the mark a record earns when its session ends, from
// whether the session applied the record's fix and whether the step that
// followed (or the task) passed:
//
//   - applied and passed: used_then_passed, the fix is evidence that works;
//   - applied and failed: task_failed, the fix was followed and did not
//     help, which ranking counts against it;
//   - not applied: "", no mark: a record the session never acted on says
//     nothing about the record, whichever way the session went.
//
// The receipt that seals used_then_passed into Raw names it used_success
// (receipt_mark_payload); hits and records show it as used_then_passed.
func NextMark(applied bool, exitOK bool) string {
	switch {
	case !applied:
		return ""
	case exitOK:
		return MarkUsedThenPassed
	default:
		return MarkTaskFailed
	}
}

// commandContains reports whether the simple commands of fix appear, in
// order and adjacent, among those of run.
func commandContains(run, fix string) bool {
	r, f := simpleCommands(run), simpleCommands(fix)
	if len(f) == 0 {
		return false
	}
	for i := 0; i+len(f) <= len(r); i++ {
		if slices.Equal(r[i:i+len(f)], f) {
			return true
		}
	}
	return false
}

// separators split a command line into simple commands. Splitting inside a
// quoted string is harmless here: both sides are split alike.
var separators = regexp.MustCompile(`\s*(?:&&|\|\||;|\||\n)\s*`)

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// simpleCommands splits a command line and normalizes each simple command
// to its words joined by single spaces, dropping empty ones.
func simpleCommands(line string) []string {
	var out []string
	for _, part := range separators.Split(line, -1) {
		if words := normalizeCommand(part); len(words) > 0 {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}

// normalizeCommand returns the words of one simple command without what
// does not change which program runs with which arguments: quotes, leading
// variable assignments, and the wrappers env, sudo and npx with their
// options.
func normalizeCommand(cmd string) []string {
	words := strings.Fields(strings.NewReplacer(`"`, "", `'`, "").Replace(cmd))
	for len(words) > 0 {
		switch w := words[0]; {
		case assignment.MatchString(w):
			words = words[1:]
		case w == "env" || w == "sudo" || w == "npx":
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
		default:
			return words
		}
	}
	return words
}

// pathMatches reports whether written is the file named, relative to the
// workspace root: equal after cleaning, or ending with it at a directory
// boundary.
func pathMatches(written, named string) bool {
	w := path.Clean(strings.ReplaceAll(written, `\`, "/"))
	n := path.Clean(strings.ReplaceAll(named, `\`, "/"))
	if n == "." || n == "/" || n == "" || strings.HasPrefix(n, "../") {
		return false
	}
	return w == n || strings.HasSuffix(w, "/"+n)
}
