package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

var quarterArg = regexp.MustCompile(`^[0-9]{4}-Q[1-4]$`)

// transparencyCommand is "agora transparency": the node's transparency
// report for a quarter or to date, as a short table or as served.
func transparencyCommand() *command {
	c := newCommand("transparency", "agora transparency [--quarter 2026-Q4] [--url URL] [--json]",
		"the node's transparency report for a quarter or to date: entries, claims' statuses,",
		"hazard reviews, withdrawals, challenges, integrity actions and canary scores by model family")
	nodeURL := c.nodeURL()
	quarter := c.flags.String("quarter", "", "the quarter, a year and Q1 to Q4 such as 2026-Q4 (default: to date)")
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 {
			return c.usageError(e, "give the quarter with --quarter, not as an argument")
		}
		if *quarter != "" && !quarterArg.MatchString(*quarter) {
			return fail(e, 2, "give a year and its quarter, such as --quarter 2026-Q4, or no --quarter for to date", "%q is not a quarter", *quarter)
		}
		report, err := newClient(*nodeURL).Transparency(ctx, *quarter)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printAnswer(e, report)
		}
		printTransparency(e.stdout, report)
		return 0
	}
	return c
}

// printTransparency prints a report as a short table, a line a part.
func printTransparency(w io.Writer, r map[string]any) {
	part := func(name string) map[string]any { m, _ := r[name].(map[string]any); return m }
	span := "to date"
	if r["quarter"] != nil {
		span = fmt.Sprintf("%v (%v to %v)", r["quarter"], r["from"], r["to"])
	}
	fmt.Fprintf(w, "transparency report, %s, log size %v\n", span, r["log_size"])
	row := func(name string, n any, detail string) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-18s %6v  %s", name, n, detail), " "))
	}
	row("entries", part("entries")["total"], counts(part("entries")["by_type"]))
	row("claims opened", part("claims")["opened"], counts(part("claims")["by_status"]))
	hz := part("hazard_reviews")
	row("hazard reviews", hz["total"], strings.TrimPrefix(counts(hz["by_verdict"])+"; panels: "+counts(hz["panels"]), "; "))
	row("withdrawals", part("withdrawals")["total"], counts(part("withdrawals")["by_reason"]))
	ch := part("challenges")
	row("challenges", ch["total"], fmt.Sprintf("open %v, upheld %v, rejected %v, void %v", ch["open"], ch["upheld"], ch["rejected"], ch["void"]))
	row("integrity actions", "", counts(part("integrity_actions")))
	row("canaries revealed", part("canaries")["revealed"], "")
	families, _ := part("canaries")["by_model_family"].(map[string]any)
	for _, f := range sortedKeys(families) {
		s, _ := families[f].(map[string]any)
		score := "-"
		if v, ok := s["score"].(float64); ok {
			score = fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(w, "    %-16s caught %v, missed %v, could not run %v, score %s\n", f, s["caught"], s["missed"], s["could_not_run"], score)
	}
}

// counts is a JSON object of counts as "name n, ...", by name; "" when
// empty.
func counts(v any) string {
	m, _ := v.(map[string]any)
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, fmt.Sprintf("%s %v", strings.ReplaceAll(k, "_", " "), m[k]))
	}
	return strings.Join(out, ", ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
