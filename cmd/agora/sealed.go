package main

import (
	"context"
	"strconv"
)

// sealedCommand is "agora sealed <index>": where a sealed entry stands.
func sealedCommand() *command {
	c := newCommand("sealed", "agora sealed <index> [--url URL]", "where a sealed bundle stands: sealed, open or withdrawn")
	c.helpArg = true
	nodeURL := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the sealed index 'agora bundle submit' printed")
		}
		index, err := strconv.ParseUint(args[0], 10, 63)
		if err != nil {
			return c.usageError(e, "%q is not a log index", args[0])
		}
		a, err := newClient(*nodeURL).Sealed(ctx, index)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		return printBundleJSON(e, a)
	}
	return c
}
