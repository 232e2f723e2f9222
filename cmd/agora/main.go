// Command agora runs an Agora node and is also its client.
//
// Each command group lives in a file of its own (admin.go, logcmd.go,
// library*.go, ...), built on one command type (cli.go) that holds a
// command's flags and what it runs; the flags many commands share are in
// flags.go. main only dispatches.
//
// README.md says how to use it; the contracts it serves and speaks are
// spec/ledger-protocol.md, library/contract.json and
// memory/memory-agent-ingress-v1.schema.json.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}
