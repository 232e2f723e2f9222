package main

import (
	"context"
	"io"

	"github.com/agora-node/agora/canonical"
)

// maxCanonicalInput bounds what "agora canonical" reads from stdin.
const maxCanonicalInput = 64 << 20

// canonicalCommand is "agora canonical": it takes no arguments but -h or
// --help, and reads them itself so that any other is refused with the
// hint.
func canonicalCommand() *command {
	return &command{name: "canonical", usage: "agora canonical < file.json",
		help: []string{"write the canonical JSON (RFC 8785) of the JSON text on stdin"}, run: runCanonical}
}

func runCanonical(_ context.Context, e *env, args []string) int {
	if len(args) != 0 {
		return fail(e, 2, "pipe the JSON text in: agora canonical < file.json", "canonical takes no arguments")
	}
	text, err := io.ReadAll(io.LimitReader(e.stdin, maxCanonicalInput+1))
	if err != nil {
		return fail(e, 1, "", "reading stdin: %v", err)
	}
	if len(text) > maxCanonicalInput {
		return fail(e, 1, "", "input is larger than %d bytes", maxCanonicalInput)
	}
	out, err := canonical.Canonicalize(text)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	e.stdout.Write(out)
	return 0
}
