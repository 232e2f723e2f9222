package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/status"
)

// compareAddenda asks the node for every addendum d knows and prints each
// with its derived state, marking those the node serves otherwise; it
// returns how many differ.
func compareAddenda(ctx context.Context, w io.Writer, cl *client.Client, d *status.Deriver, now time.Time) (int, error) {
	all := d.Addenda(now)
	differ := 0
	for _, a := range all {
		served, err := cl.Addendum(ctx, a.Index)
		if err != nil {
			return differ, fmt.Errorf("GET /api/v1/addenda/%d: %w", a.Index, err)
		}
		line := fmt.Sprintf("addendum %d to %s  %s", a.Index, a.Bundle, a.State)
		if served["status"] != a.State {
			differ++
			line += fmt.Sprintf("  DIFFERS: the node serves %v", served["status"])
		}
		fmt.Fprintln(w, line)
	}
	if len(all) > 0 {
		fmt.Fprintf(w, "%d addenda: %d agree, %d differ\n", len(all), len(all)-differ, differ)
	}
	return differ, nil
}
