package memory

import (
	"path"
	"strings"
)

// checkWordRules applies what the contract's descriptions require but its
// schema cannot say. Each rule quotes the description it comes from.
func checkWordRules(payload any) error {
	switch p := payload.(type) {
	case *SessionStartPayload:
		// "Absolute path of the session's working directory."
		if p.WorkspaceRoot != "" && !isAbsolutePath(p.WorkspaceRoot) {
			return newError(CodeSchemaInvalid, "at /payload/workspace_root: %q is not an absolute path", clip(p.WorkspaceRoot, 128))
		}
	case *ToolResultPayload:
		// "Logical path for write-type tools; never file content."
		if p.Path != nil && strings.ContainsAny(*p.Path, "\n\r\x00") {
			return newError(CodeSchemaInvalid, "at /payload/path: a path holds no line breaks or NUL; file content is never sent")
		}
	case *NotePayload:
		if p.Fix != nil {
			return checkFix(p.Fix, "/payload/fix")
		}
	}
	return nil
}

// checkFix applies $defs/fix's description: "a shell command run in the
// workspace root, a unified diff with paths relative to it, or a whole
// config file". The schema's oneOf only requires the kind's own members; a
// fix that also carries another kind's members is ambiguous about what the
// center would apply, so it is refused.
func checkFix(f *Fix, at string) error {
	foreign := map[string][]string{
		FixCommand: {"diff", "path", "content"},
		FixDiff:    {"command", "path", "content"},
		FixConfig:  {"command", "diff"},
	}[f.Kind]
	set := map[string]bool{"command": f.Command != "", "diff": f.Diff != "", "path": f.Path != "", "content": f.Content != ""}
	for _, name := range foreign {
		if set[name] {
			return newError(CodeSchemaInvalid, "at %s/%s: a %s fix carries no %s", at, name, f.Kind, name)
		}
	}
	switch f.Kind {
	case FixConfig:
		if !isRelativeInside(f.Path) {
			return newError(CodeSchemaInvalid, "at %s/path: %q is not a path relative to the workspace root and inside it", at, clip(f.Path, 128))
		}
	case FixDiff:
		paths, ok := DiffPaths(f.Diff)
		if !ok {
			return newError(CodeSchemaInvalid, "at %s/diff: not a unified diff: no ---/+++ file header", at)
		}
		for _, p := range paths {
			if !isRelativeInside(p) {
				return newError(CodeSchemaInvalid, "at %s/diff: the diff names %q, which is not a path relative to the workspace root and inside it", at, clip(p, 128))
			}
		}
	}
	return nil
}

// DiffPaths returns the file paths a unified diff's ---/+++ headers name,
// with git's a/ and b/ prefixes removed, /dev/null left out and each path
// once, in order. ok is false when the text has no file header at all.
func DiffPaths(diff string) (paths []string, ok bool) {
	seen := map[string]bool{}
	for line := range strings.Lines(diff) {
		line = strings.TrimRight(line, "\r\n")
		var name string
		switch {
		case strings.HasPrefix(line, "+++ "):
			name = strings.TrimPrefix(line, "+++ ")
			ok = true
		case strings.HasPrefix(line, "--- "):
			name = strings.TrimPrefix(line, "--- ")
		default:
			continue
		}
		// A tab separates the name from a timestamp in diff -u output.
		name, _, _ = strings.Cut(name, "\t")
		name = strings.TrimSpace(name)
		if name == "/dev/null" || name == "" {
			continue
		}
		if strings.HasPrefix(name, "a/") || strings.HasPrefix(name, "b/") {
			name = name[2:]
		}
		if !seen[name] {
			seen[name] = true
			paths = append(paths, name)
		}
	}
	return paths, ok
}

// isAbsolutePath accepts a POSIX absolute path, a Windows drive path
// (C:\ or C:/) and a UNC path: adapters run on either.
func isAbsolutePath(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && isASCIILetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isRelativeInside reports whether p is relative and stays inside the
// directory it is relative to, with either separator.
func isRelativeInside(p string) bool {
	if p == "" || isAbsolutePath(p) || strings.ContainsAny(p, "\x00\n\r") {
		return false
	}
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	return clean != ".." && !strings.HasPrefix(clean, "../") && !strings.HasPrefix(clean, "/")
}
