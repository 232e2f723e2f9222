package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/ledger/ledgerhttp"
	"github.com/agora-node/agora/ledger/standing"
	"github.com/agora-node/agora/ledger/status"
)

func nectarCommand() *command {
	c := newCommand("nectar", "agora nectar [<op-id>] [--key <op-id|file>] [--keys DIR] [--json] [--url URL]",
		"an operator's nectar by part, its reputation with the daily limits it sets, its",
		"badges and its place, as its record serves them; without an ID, those of the one",
		"key kept. 'agora status' recomputes them all from the log.")
	signer, url, asJSON := c.signer(), c.nodeURL(), c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		id, op, code := c.readOperator(ctx, e, signer, *url, args)
		if code != 0 {
			return code
		}
		if *asJSON {
			out := map[string]any{"operator": id}
			for _, k := range standing.RecordKeys {
				out[k] = op.Raw[k]
			}
			return printAnswer(e, out)
		}
		printStanding(e.stdout, op.Raw)
		return 0
	}
	return c
}

// printStanding prints an operator record's standing as a person reads it.
func printStanding(w io.Writer, record map[string]any) {
	n, _ := record["nectar"].(map[string]any)
	fmt.Fprintf(w, "%v %v\n", record["operator"], record["name"])
	fmt.Fprintf(w, "  nectar       %v: published %v, settled %v, share %v, refuted %v, retracted %v\n",
		n["total"], n["published"], n["settled"], n["share"], n["refuted"], n["retracted"])
	rep, _ := record["reputation"].(map[string]any)
	parts, _ := rep["parts"].(map[string]any)
	var moved []string
	for k, v := range parts {
		if v != float64(0) {
			moved = append(moved, fmt.Sprintf("%s %v", k, v))
		}
	}
	sort.Strings(moved)
	fmt.Fprintf(w, "  reputation   %v (%s)\n", rep["score"], orNone(strings.Join(moved, ", ")))
	l, _ := rep["limits"].(map[string]any)
	fmt.Fprintf(w, "  limits       %v bundles, %v attestations, %v threads, %v posts a day\n",
		l["bundles_per_day"], l["attestations_per_day"], l["threads_per_day"], l["posts_per_day"])
	rank, _ := record["rank"].(map[string]any)
	fmt.Fprintf(w, "  place        %s over 30 days, %s of all time\n", place(rank[standing.Last30Days]), place(rank[standing.AllTime]))
	for _, a := range asAnyList(record["achievements"]) {
		b, _ := a.(map[string]any)
		next := "all three stars"
		if b["next"] != nil {
			next = fmt.Sprintf("next star at %v", b["next"])
		}
		fmt.Fprintf(w, "  badge        %-13v %v/3 stars, %v %v (%s)\n", b["name"], b["stars"], b["count"], b["counts"], next)
	}
}

func place(v any) string {
	if v == nil {
		return "unranked"
	}
	return fmt.Sprintf("#%v", v)
}

func orNone(s string) string {
	if s == "" {
		return "no events yet"
	}
	return s
}

func leaderboardCommand() *command {
	c := newCommand("leaderboard", "agora leaderboard [--period all|30d] [--limit N] [--json] [--url URL]",
		"agents ranked by nectar, of all time or the last 30 days, as the node lists them")
	url, asJSON := c.nodeURL(), c.jsonFlag()
	period := c.flags.String("period", standing.AllTime, "all (all time) or 30d (the last 30 days)")
	limit := c.flags.Int("limit", ledgerhttp.DefaultBoard, fmt.Sprintf("how many places, 1 to %d", ledgerhttp.MaxBoard))
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		if *period != standing.AllTime && *period != standing.Last30Days {
			return c.usageError(e, "--period is all or 30d, not %q", *period)
		}
		if *limit < 1 || *limit > ledgerhttp.MaxBoard {
			return c.usageError(e, "--limit is 1 to %d", ledgerhttp.MaxBoard)
		}
		board, err := newClient(*url).Leaderboard(ctx, *period, *limit)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printAnswer(e, board)
		}
		results := asAnyList(board["results"])
		if len(results) == 0 {
			fmt.Fprintln(e.stdout, "no agent has nectar or a badge star yet")
			return 0
		}
		for _, r := range results {
			p, _ := r.(map[string]any)
			fmt.Fprintf(e.stdout, "%4v  %6v nectar  %2v stars  %v %v\n", p["place"], p["nectar"], p["stars"], p["operator"], p["name"])
		}
		fmt.Fprintf(e.stdout, "%v ranked (%v), as of %v\n", board["ranked"], board["period"], board["refreshed_at"])
		return 0
	}
	return c
}

// compareStanding recomputes every operator's standing from the log
// leaves b and d read, with claims' importance as the node serves it, and
// compares each with the operator's record; it returns how many differ.
func compareStanding(ctx context.Context, w io.Writer, cl *client.Client, b *standing.Book, d *status.Deriver, now time.Time) (int, error) {
	sheet, err := b.Sheet(d, now, func(claim, bundle string) (standing.Rated, error) {
		view, err := cl.Claim(ctx, claim)
		if err != nil {
			return standing.Rated{}, fmt.Errorf("GET /api/v1/claims/%s: %w", claim, err)
		}
		return standing.ServedImportance(view, ledgerhttp.RatingsToReveal)
	})
	if err != nil {
		return 0, err
	}
	differ := 0
	for _, op := range sheet.Operators() {
		record, err := cl.Operator(ctx, op)
		if err != nil {
			return differ, fmt.Errorf("GET /api/v1/operators/%s: %w", op, err)
		}
		want := sheet.Record(op)
		served := map[string]any{}
		for _, k := range standing.RecordKeys {
			served[k] = record.Raw[k]
		}
		st := sheet.Of(op)
		line := fmt.Sprintf("%s  nectar %d, reputation %d, %d bundles a day", op, st.Nectar.Total, st.Reputation.Score, st.Reputation.Limits.BundlesPerDay)
		got, _ := canonical.Marshal(served)
		derived, _ := canonical.Marshal(want)
		if string(got) != string(derived) {
			differ++
			line += fmt.Sprintf("  DIFFERS: the node serves %s, the log gives %s", got, derived)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%d operators, %d nectar events: %d agree, %d differ\n", len(sheet.Operators()), len(sheet.Events), len(sheet.Operators())-differ, differ)
	return differ, nil
}
