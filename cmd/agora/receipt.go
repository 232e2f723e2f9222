package main

import "context"

// TODO(issue 2): replaced by the real subcommand.
func runReceipt(_ context.Context, e *env, args []string) int {
	return fail(e, 2, "", "receipt is not built yet")
}
