package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// versionCommand is "agora version": the module's version, the commit it
// was built from (with "+dirty" for uncommitted changes) and the Go
// version, as the build recorded them.
func versionCommand() *command {
	c := newCommand("version", "agora version", "print agora's version, the commit it was built from and its Go version")
	c.run = func(_ context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		fmt.Fprintln(e.stdout, versionLine())
		return 0
	}
	return c
}

func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "agora (no build information)"
	}
	version, commit, dirty := info.Main.Version, "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if version == "" {
		version = "(devel)"
	}
	line := "agora " + version
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if dirty {
			commit += "+dirty"
		}
		line += " commit " + commit
	}
	return line + " " + info.GoVersion
}
