package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HookSpec is one hook the installer writes: the agent's event, the tool
// matcher ("" for none) and the command it runs.
type HookSpec struct {
	Event   string
	Matcher string
}

// ClaudeCodeHooks are the hooks `agora memory install claude-code` writes.
// PostToolUse is limited to the tools whose success matters to memory (a
// shell command, a file written); every failure matters.
var ClaudeCodeHooks = []HookSpec{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PostToolUse", "Bash|Write|Edit|MultiEdit|NotebookEdit"},
	{"PostToolUseFailure", ""},
	{"PreCompact", ""},
	{"PostCompact", ""},
	{"SubagentStop", ""},
	{"SessionEnd", ""},
}

// CodexHooks are the hooks `agora memory install codex` writes.
var CodexHooks = []HookSpec{
	{"SessionStart", ""},
	{"UserPromptSubmit", ""},
	{"PostToolUse", ""},
	{"PreCompact", ""},
	{"SubagentStop", ""},
}

// hookTimeout is the timeout, in seconds, written for each hook: above the
// hook's own 2 s budget, so the agent never kills a hook that is about to
// give up by itself.
const hookTimeout = 5

// Install describes one change to an agent's hook file.
type Install struct {
	Path    string // the settings.json or hooks.json
	Backup  string // where the old file was copied, "" when there was none or nothing changed
	Changed bool
	Hooks   []HookSpec
	Command string
}

// InstallHooks merges hooks running command into the JSON hook file at path
// (Claude Code's settings.json and Codex's hooks.json share the shape
// {"hooks": {Event: [{"matcher", "hooks": [{"type":"command","command"}]}]}}),
// keeping every other setting and every other hook. Hooks whose command ends
// with marker (ours, from an earlier install) are replaced, so installing
// twice changes nothing. The old file is copied beside it before it is
// replaced. With uninstall, ours are removed and nothing is added.
func InstallHooks(path string, hooks []HookSpec, command, marker string, uninstall bool, now time.Time) (Install, error) {
	res := Install{Path: path, Hooks: hooks, Command: command}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("read %s: %w", path, err)
	}
	settings := map[string]any{}
	if len(bytes.TrimSpace(old)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(old))
		dec.UseNumber() // keep numbers as the user wrote them
		if err := dec.Decode(&settings); err != nil {
			return res, fmt.Errorf("%s is not a JSON object, so it was left alone: %w", path, err)
		}
	}
	var events map[string]any
	switch h := settings["hooks"].(type) {
	case nil:
		events = map[string]any{}
	case map[string]any:
		events = h
	default:
		return res, fmt.Errorf("%s: \"hooks\" is not an object, so it was left alone", path)
	}
	for name, v := range events {
		groups, ok := v.([]any)
		if !ok {
			continue
		}
		if kept := withoutOurs(groups, marker); len(kept) != len(groups) || changedGroups(groups, kept) {
			if len(kept) == 0 {
				delete(events, name)
			} else {
				events[name] = kept
			}
		}
	}
	if !uninstall {
		for _, h := range hooks {
			group := map[string]any{
				"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": json.Number(fmt.Sprint(hookTimeout))}},
			}
			if h.Matcher != "" {
				group["matcher"] = h.Matcher
			}
			groups, _ := events[h.Event].([]any)
			events[h.Event] = append(groups, group)
		}
	}
	if len(events) == 0 {
		delete(settings, "hooks")
	} else {
		settings["hooks"] = events
	}
	out, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return res, fmt.Errorf("encode %s: %w", path, err)
	}
	out = append(out, '\n')
	if len(old) > 0 && equalJSON(old, out) {
		return res, nil
	}
	if len(old) == 0 && uninstall {
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return res, fmt.Errorf("make %s: %w", filepath.Dir(path), err)
	}
	mode := fs.FileMode(0o644)
	if len(old) > 0 {
		if fi, err := os.Stat(path); err == nil {
			mode = fi.Mode().Perm()
		}
		res.Backup = path + ".bak-" + now.UTC().Format("20060102T150405Z")
		if err := os.WriteFile(res.Backup, old, mode); err != nil {
			return res, fmt.Errorf("back up %s: %w", path, err)
		}
	}
	tmp := path + ".agora-tmp"
	if err := os.WriteFile(tmp, out, mode); err != nil {
		return res, fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return res, fmt.Errorf("write %s: %w", path, err)
	}
	res.Changed = true
	return res, nil
}

// withoutOurs drops our hook entries from each matcher group, and groups
// left with no hook.
func withoutOurs(groups []any, marker string) []any {
	var kept []any
	for _, g := range groups {
		gm, ok := g.(map[string]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		hs, ok := gm["hooks"].([]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		var keep []any
		for _, h := range hs {
			if hm, ok := h.(map[string]any); ok {
				if c, _ := hm["command"].(string); strings.HasSuffix(strings.TrimSpace(c), marker) {
					continue
				}
			}
			keep = append(keep, h)
		}
		if len(keep) == 0 {
			continue
		}
		if len(keep) != len(hs) {
			ng := map[string]any{}
			for k, v := range gm {
				ng[k] = v
			}
			ng["hooks"] = keep
			g = ng
		}
		kept = append(kept, g)
	}
	return kept
}

func changedGroups(a, b []any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return !bytes.Equal(x, y)
}

// equalJSON reports whether two JSON texts hold the same value.
func equalJSON(a, b []byte) bool {
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xa, yb)
}

// ShellQuote quotes s for a POSIX shell when it needs it: hook commands run
// through one.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
