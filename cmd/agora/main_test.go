package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
	"github.com/agora-node/agora/store/postgres/pgtest"
	"github.com/agora-node/agora/translog/mysqltest"
)

// TestMain lets the scripts in testdata/script run the real agora binary:
// testscript re-executes this test binary as "agora".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"agora": main})
}

// TestScripts drives the CLI as a user would, one scenario per file in
// testdata/script. Each script gets a free loopback address for a node it
// may start in the background ($ADDR, and $URL, its URL), the repository's
// examples folder ($EXAMPLES), and the commands scriptCommands defines.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup:               scriptSetup,
		Cmds:                scriptCommands,
	})
}

// TestScriptsPostgres runs the first hour with the node's state in
// PostgreSQL (agora serve's AGORA_STATE), each run in a schema of its
// own; see pgtest for when it skips.
func TestScriptsPostgres(t *testing.T) {
	pgtest.DSN(t)
	testscript.Run(t, testscript.Params{
		Files:               []string{"testdata/script/first_hour.txtar"},
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("AGORA_STATE", pgtest.SchemaDSN(t)) // dropped when the test ends
			return scriptSetup(env)
		},
		Cmds: scriptCommands,
	})
}

// TestScriptsMySQLLog runs the README's first steps (serve.txtar: writes,
// then agora log verify, twice) with the node's log in MySQL (agora
// serve's AGORA_LOG) and its state in PostgreSQL, each in a database or
// schema of its own; see mysqltest and pgtest for when it skips.
func TestScriptsMySQLLog(t *testing.T) {
	logURL, state := mysqltest.URL(t), pgtest.SchemaDSN(t) // dropped when the test ends
	testscript.Run(t, testscript.Params{
		Files:               []string{"testdata/script/serve.txtar"},
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("AGORA_LOG", logURL)
			env.Setenv("AGORA_STATE", state)
			return scriptSetup(env)
		},
		Cmds: scriptCommands,
	})
}

// scriptSetup gives a script its node's address and the examples.
func scriptSetup(env *testscript.Env) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	env.Setenv("ADDR", addr)
	env.Setenv("URL", "http://"+addr)
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		return err
	}
	env.Setenv("EXAMPLES", examples)
	return nil
}

// scriptCommands are the scripts' own commands:
//
//	waitnode URL [seconds]
//	    wait until the node at URL answers GET /api/v1/log (default 120 s)
//	get URL
//	    GET URL; its body is the command's stdout, and a status other than
//	    200 fails
//	capture NAME REGEXP
//	    set $NAME to the first group of REGEXP in the last command's stdout
//	private DIR
//	    fail unless DIR and everything under it is its owner's alone (no
//	    permission bit for group or others)
//	cpdir SRC DST
//	    copy the folder SRC and everything under it to DST, a new folder
//	ingress ADAPTER
//	    send one session.start event to the node as ADAPTER, with the URL
//	    and token 'agora memory adapter add' wrote in $AGORA_HOME
var scriptCommands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"waitnode": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 1 || len(args) > 2 {
			ts.Fatalf("usage: waitnode URL [seconds]")
		}
		wait := 120 * time.Second
		if len(args) == 2 {
			s, err := strconv.Atoi(args[1])
			ts.Check(err)
			wait = time.Duration(s) * time.Second
		}
		hc := &http.Client{Timeout: 5 * time.Second}
		deadline := time.Now().Add(wait)
		for {
			resp, err := hc.Get(args[0] + "/api/v1/log")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return
				}
				err = fmt.Errorf("status %s", resp.Status)
			}
			if time.Now().After(deadline) {
				ts.Fatalf("the node at %s did not answer within %s: %v", args[0], wait, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	},
	"get": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: get URL")
		}
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(args[0])
		ts.Check(err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		ts.Check(err)
		if resp.StatusCode != http.StatusOK {
			ts.Fatalf("GET %s: %s %s", args[0], resp.Status, body)
		}
		ts.Stdout().Write(body)
	},
	"capture": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: capture NAME REGEXP")
		}
		re, err := regexp.Compile("(?m)" + args[1])
		ts.Check(err)
		m := re.FindStringSubmatch(ts.ReadFile("stdout"))
		if len(m) < 2 {
			ts.Fatalf("no %q in stdout", args[1])
		}
		ts.Setenv(args[0], m[1])
	},
	"private": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: private DIR")
		}
		var shared []string
		err := filepath.WalkDir(ts.MkAbs(args[0]), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if fi.Mode().Perm()&0o077 != 0 {
				shared = append(shared, fmt.Sprintf("%s %04o", path, fi.Mode().Perm()))
			}
			return nil
		})
		ts.Check(err)
		if len(shared) > 0 {
			ts.Fatalf("readable by others:\n%s", strings.Join(shared, "\n"))
		}
	},
	"cpdir": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: cpdir SRC DST")
		}
		ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(ts.MkAbs(args[0]))))
	},
	"ingress": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: ingress ADAPTER")
		}
		cfg, err := adapter.LoadConfig(ts.Getenv("AGORA_HOME"), args[0], func(string) string { return "" })
		ts.Check(err)
		ev := &memory.Event{AdapterID: args[0], EventID: adapter.EventID("script", ts.Getenv("WORK")), SessionRef: "script-session",
			OccurredAt: time.Now(), Kind: adapter.KindSessionStart,
			Payload: &memory.SessionStartPayload{Project: "script", Capabilities: []string{}}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := client.New(cfg.URL, nil, client.WithToken(cfg.Token)).MemoryEvent(ctx, args[0], ev)
		ts.Check(err)
		ts.Logf("ingress %s: %s", ev.Kind, res)
	},
}

// TestScriptsMigrate moves a node from its data folder into PostgreSQL
// and MySQL with agora migrate and serves the copy (testdata/migrate),
// each target a database or schema of its own; see mysqltest and pgtest
// for when it skips.
func TestScriptsMigrate(t *testing.T) {
	logURL, state := mysqltest.URL(t), pgtest.SchemaDSN(t) // dropped when the test ends
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/migrate",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("MYURL", logURL)
			env.Setenv("PGURL", state)
			return scriptSetup(env)
		},
		Cmds: scriptCommands,
	})
}
