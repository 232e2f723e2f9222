package main

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"
)

// leafCommands walks agora's commands, groups included, and returns every
// command that is not a group with the words that name it ("log verify").
func leafCommands(prefix []string, cs []*command) (paths [][]string, leaves []*command) {
	for _, c := range cs {
		path := append(append([]string(nil), prefix...), c.name)
		if c.subs != nil {
			p, l := leafCommands(path, c.subs())
			paths, leaves = append(paths, p...), append(leaves, l...)
			continue
		}
		paths, leaves = append(paths, path), append(leaves, c)
	}
	return paths, leaves
}

func runHelp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
	return code, stdout.String(), stderr.String()
}

// TestEveryCommandHelps runs every command with --help and through
// 'agora help': each exits 0 and prints its usage, every flag it has with
// what it means, and an example; every group lists its commands.
func TestEveryCommandHelps(t *testing.T) {
	paths, leaves := leafCommands(nil, commands())
	if len(leaves) < 40 {
		t.Fatalf("found %d commands; the walk misses groups", len(leaves))
	}
	for i, c := range leaves {
		name := strings.Join(paths[i], " ")
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runHelp(t, append(paths[i], "--help")...)
			if code != 0 || errOut != "" {
				t.Fatalf("agora %s --help: exit %d, stderr %q", name, code, errOut)
			}
			if !strings.Contains(out, "usage: agora "+name) {
				t.Errorf("no usage line naming agora %s:\n%s", name, out)
			}
			ex := examples[commandPath(c.usage)]
			if ex == "" || !strings.Contains(out, "example:\n  "+ex) {
				t.Errorf("no example for %q (its usage starts %q)", name, commandPath(c.usage))
			}
			if c.flags != nil {
				n := 0
				c.flags.VisitAll(func(f *flag.Flag) {
					n++
					if !strings.Contains(out, "\n  --"+f.Name) {
						t.Errorf("flag --%s is not listed", f.Name)
					}
				})
				if n > 0 && !strings.Contains(out, "\nflags:\n") {
					t.Errorf("no flags section:\n%s", out)
				}
			}
			code, viaHelp, _ := runHelp(t, append([]string{"help"}, paths[i]...)...)
			if code != 0 || viaHelp != out {
				t.Errorf("agora help %s: exit %d, and it prints another text than --help", name, code)
			}
		})
	}
	for _, c := range commands() {
		if c.subs == nil {
			continue
		}
		code, out, _ := runHelp(t, c.name, "--help")
		if code != 0 || !strings.Contains(out, "usage:\n") || !strings.Contains(out, "--help' for a command's flags") {
			t.Errorf("agora %s --help: exit %d\n%s", c.name, code, out)
		}
		lines := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "  agora ") {
				if lines[line] {
					t.Errorf("agora %s --help lists %q twice", c.name, line)
				}
				lines[line] = true
			}
		}
	}
}

// TestHelpUnknown checks that help for a command agora lacks is an error
// saying what to type, not the list printed as if it were help.
func TestHelpUnknown(t *testing.T) {
	code, _, errOut := runHelp(t, "help", "frobnicate")
	if code != 2 || !strings.Contains(errOut, "agora help") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestEnvironmentDefaults checks that AGORA_URL and AGORA_DATA set the
// defaults of --url and --data, as help says and as commands use them.
func TestEnvironmentDefaults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "elsewhere")
	t.Setenv("AGORA_URL", "http://127.0.0.1:1")
	t.Setenv("AGORA_DATA", dir)
	_, out, _ := runHelp(t, "log", "show", "--help")
	if !strings.Contains(out, "(default http://127.0.0.1:1)") {
		t.Errorf("log show --help does not give AGORA_URL as --url's default:\n%s", out)
	}
	_, out, _ = runHelp(t, "serve", "--help")
	if !strings.Contains(out, "(default "+dir+")") {
		t.Errorf("serve --help does not give AGORA_DATA as --data's default:\n%s", out)
	}
	code, _, errOut := runHelp(t, "admin", "invite", "op:"+strings.Repeat("ab", 32))
	if code != 1 || !strings.Contains(errOut, filepath.Join(dir, "keys", "admin.token")) || !strings.Contains(errOut, "AGORA_DATA") {
		t.Errorf("admin invite without a token in AGORA_DATA: exit %d\n%s", code, errOut)
	}
	code, _, errOut = runHelp(t, "log", "show")
	if code == 0 || !strings.Contains(errOut, "127.0.0.1:1") {
		t.Errorf("log show did not go to AGORA_URL: exit %d\n%s", code, errOut)
	}
}
