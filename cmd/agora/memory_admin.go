package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
)

// The memory commands a person runs against a node with its admin token:
// adapter add issues an adapter's token and writes the config the hooks
// read; search, show, notes and forget read and prune the records. They
// drive the node's admin routes (node/memory.go) and print what came back
// for a person to read.

// memoryNotFoundHint is what to do when a memory admin route answers 404.
const memoryNotFoundHint = "list the records with 'agora memory notes'"

const memoryAdapterAddUsage = "agora memory adapter add <id> " + adminFlagsUsage

func runMemoryAdapter(ctx context.Context, e *env, args []string) int {
	return runGroup(ctx, e, "memory adapter", []subcommand{
		{"add", "memory adapter add <id> " + adminFlagsUsage, []string{
			"issue the adapter's token on the node and write $AGORA_HOME/memory/<id>.json for its hooks",
			"(again: a new token; the old one stops working)",
		}, runMemoryAdapterAdd},
	}, "", args)
}

func runMemoryAdapterAdd(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("memory adapter add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	admin := adminFlags(fs, memoryNotFoundHint)
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+memoryAdapterAddUsage, "%v", err)
	}
	if len(rest) != 1 {
		return fail(e, 2, "usage: "+memoryAdapterAddUsage+" (for Claude Code: agora memory adapter add claude-code)", "give one adapter id")
	}
	id := rest[0]
	home, err := adapter.Home(os.Getenv)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	_, statErr := os.Stat(adapter.ConfigPath(home, id))
	var issued struct {
		AdapterID string `json:"adapter_id"`
		Token     string `json:"token"`
	}
	if err := admin.call(ctx, http.MethodPost, "/api/v1/admin/memory/adapters", map[string]string{"adapter_id": id}, &issued); err != nil {
		var ae *adminError
		if errors.As(err, &ae) && ae.code == "bad_request" {
			return fail(e, 2, "an adapter id is a lowercase letter, then up to 63 of a-z, 0-9, _ and -, such as claude-code", "%q is not an adapter id", id)
		}
		return failAdmin(e, err)
	}
	if issued.AdapterID != id || issued.Token == "" {
		return fail(e, 1, "is --url an Agora node of the same version?", "the node answered without a token for %s", id)
	}
	cfg := adapter.Config{AdapterID: id, URL: strings.TrimRight(*admin.url, "/"), Token: issued.Token}
	path, err := adapter.WriteConfig(home, cfg)
	if err != nil {
		return fail(e, 1, "the token is issued but not saved: fix the folder and run this again (it issues a new one)", "%v", err)
	}
	w := e.stdout
	if statErr == nil {
		fmt.Fprintf(w, "Issued a new token for memory adapter %s; the old one no longer works.\n", id)
	} else {
		fmt.Fprintf(w, "Issued a token for memory adapter %s.\n", id)
	}
	fmt.Fprintf(w, "Wrote %s (mode 0600):\n", path)
	fmt.Fprintf(w, "  adapter_id  %s\n  url         %s\n  token       %s… (in the file only)\n", cfg.AdapterID, cfg.URL, memoryTokenPrefix(cfg.Token))
	next := "agora memory install " + id
	if id != adapter.AgentClaudeCode && id != adapter.AgentCodex {
		next = "agora memory install claude-code --adapter " + adapter.ShellQuote(id)
	}
	fmt.Fprintf(w, "Next: %s\n", next)
	return 0
}

// memoryTokenPrefix shows enough of a token to tell two apart, and no more.
func memoryTokenPrefix(token string) string {
	if len(token) > 8 {
		return token[:8]
	}
	return ""
}

const memorySearchUsage = "agora memory search <words> [--project P] [--limit N] " + adminFlagsUsage

func runMemorySearch(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("memory search", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	project := fs.String("project", "", "only the records sessions of this project wrote")
	limit := fs.Int("limit", 10, "at most this many hits, 1 to 50")
	admin := adminFlags(fs, memoryNotFoundHint)
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+memorySearchUsage, "%v", err)
	}
	words := strings.TrimSpace(strings.Join(rest, " "))
	if words == "" {
		return fail(e, 2, "agora memory search cannot find module left-pad", "give the words to look for")
	}
	if *limit < 1 || *limit > 50 {
		return fail(e, 2, "--limit 10", "--limit must be 1 to 50")
	}
	q := url.Values{"q": {words}, "limit": {fmt.Sprint(*limit)}}
	if *project != "" {
		q.Set("project", *project)
	}
	var res struct{ Hits []memory.Hit }
	if err := admin.call(ctx, http.MethodGet, "/api/v1/admin/memory/search?"+q.Encode(), nil, &res); err != nil {
		return failAdmin(e, err)
	}
	w := e.stdout
	if len(res.Hits) == 0 {
		fmt.Fprintf(w, "No memory records match %q.\n", words)
		return 0
	}
	for i, h := range res.Hits {
		fmt.Fprintf(w, "%d. %s  [%s]\n", i+1, h.Title, h.RecordRef)
		fmt.Fprintf(w, "   score %.2f · trust %s · %s\n", h.Score, h.Trust, h.ProvenanceLabel)
		reasons := make([]string, 0, len(h.Reasons))
		for _, r := range h.Reasons {
			s := fmt.Sprintf("%s %+.2f", r.Signal, r.Contribution)
			if r.Value != "" {
				s += " (" + memoryClip(r.Value, 48) + ")"
			}
			reasons = append(reasons, s)
		}
		fmt.Fprintf(w, "   why: %s\n", strings.Join(reasons, ", "))
		if len(h.Marks) > 0 {
			fmt.Fprintf(w, "   marks: %s\n", strings.Join(h.Marks, ", "))
		}
		if h.Summary != "" {
			fmt.Fprintf(w, "   %s\n", memoryClip(h.Summary, 200))
		}
	}
	fmt.Fprintln(w, "Read one whole with: agora memory show <ref>")
	return 0
}

// memoryClip cuts s to n runes on one line.
func memoryClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// memoryRef reads the one record ref a command takes.
func memoryRef(e *env, usage string, rest []string) (string, int) {
	if len(rest) != 1 {
		return "", fail(e, 2, "usage: "+usage, "give one record ref (lr_…)")
	}
	if !memory.IsRecordRef(rest[0]) {
		return "", fail(e, 2, "record refs look like lr_…: list them with 'agora memory notes'", "%q is not a record ref", rest[0])
	}
	return rest[0], 0
}

const memoryShowUsage = "agora memory show <lr_ref> " + adminFlagsUsage

// memoryRecordView is the node's answer to GET /api/v1/admin/memory/records/{ref}.
type memoryRecordView struct {
	Record   memory.ReadRecord
	Fix      *memory.Fix
	Marks    map[string]int
	Receipts []struct {
		Kind    string `json:"kind"`
		Session string `json:"session"`
		At      string `json:"at"`
	}
}

func runMemoryShow(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("memory show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	admin := adminFlags(fs, memoryNotFoundHint)
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+memoryShowUsage, "%v", err)
	}
	ref, code := memoryRef(e, memoryShowUsage, rest)
	if ref == "" {
		return code
	}
	var v memoryRecordView
	if err := admin.call(ctx, http.MethodGet, "/api/v1/admin/memory/records/"+url.PathEscape(ref), nil, &v); err != nil {
		return failAdmin(e, err)
	}
	r, w := v.Record, e.stdout
	fmt.Fprintf(w, "%s  %s\n", r.RecordRef, r.Title)
	fmt.Fprintf(w, "type %s · scope %s · topic %s · revision %d · trust %s\n", r.Type, r.Scope, r.TopicKey, r.Revision, r.Trust)
	fmt.Fprintf(w, "project %s · created %s · updated %s\n", r.Project, r.CreatedAt, r.UpdatedAt)
	fmt.Fprintf(w, "provenance: %s\n", r.ProvenanceLabel)
	if c := r.Content; c != nil {
		fmt.Fprintf(w, "\nWhat:    %s\nWhy:     %s\nWhere:   %s\nLearned: %s\n", c.What, c.Why, c.Where, c.Learned)
	}
	if f := v.Fix; f != nil {
		switch f.Kind {
		case memory.FixCommand:
			fmt.Fprintf(w, "Fix (command): %s\n", f.Command)
		case memory.FixDiff:
			fmt.Fprintf(w, "Fix (diff):\n%s\n", f.Diff)
		case memory.FixConfig:
			fmt.Fprintf(w, "Fix (config %s):\n%s\n", f.Path, f.Content)
		}
	} else {
		fmt.Fprintln(w, "Fix: none")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Marks: %s\n", memoryCounts(v.Marks, "none"))
	byKind := map[string]int{}
	for _, rc := range v.Receipts {
		byKind[rc.Kind]++
	}
	sessions := map[string]bool{}
	for _, rc := range v.Receipts {
		sessions[rc.Session] = true
	}
	if len(v.Receipts) == 0 {
		fmt.Fprintln(w, "Receipts: 0 (no session has met it yet)")
	} else {
		fmt.Fprintf(w, "Receipts: %d from %d session(s): %s\n", len(v.Receipts), len(sessions), memoryCounts(byKind, ""))
	}
	return 0
}

// memoryCounts writes counts as "a ×1, b ×2", sorted by name.
func memoryCounts(m map[string]int, none string) string {
	if len(m) == 0 {
		return none
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	parts := make([]string, 0, len(names))
	for _, k := range names {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

const memoryNotesUsage = "agora memory notes [--project P] [--limit N] " + adminFlagsUsage

func runMemoryNotes(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("memory notes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	project := fs.String("project", "", "only the records sessions of this project wrote")
	limit := fs.Int("limit", 20, "at most this many records, 1 to 200")
	admin := adminFlags(fs, memoryNotFoundHint)
	rest, err := parseArgs(fs, args)
	if err != nil || len(rest) != 0 {
		if err == nil {
			err = fmt.Errorf("notes takes no arguments; did you mean 'agora memory search %s'?", strings.Join(rest, " "))
		}
		return fail(e, 2, "usage: "+memoryNotesUsage, "%v", err)
	}
	if *limit < 1 || *limit > 200 {
		return fail(e, 2, "--limit 20", "--limit must be 1 to 200")
	}
	q := url.Values{"limit": {fmt.Sprint(*limit)}}
	if *project != "" {
		q.Set("project", *project)
	}
	var res struct{ Records []memory.ReadRecord }
	if err := admin.call(ctx, http.MethodGet, "/api/v1/admin/memory/records?"+q.Encode(), nil, &res); err != nil {
		return failAdmin(e, err)
	}
	if len(res.Records) == 0 {
		if *project != "" {
			fmt.Fprintf(e.stdout, "No memory records from project %s.\n", *project)
		} else {
			fmt.Fprintln(e.stdout, "No memory records yet: agents write them with memory_note (agora memory mcp).")
		}
		return 0
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REF\tUPDATED\tTYPE\tTRUST\tPROJECT\tTITLE")
	for _, r := range res.Records {
		updated := r.UpdatedAt
		if t, err := time.Parse(time.RFC3339Nano, r.UpdatedAt); err == nil {
			updated = t.UTC().Format("2006-01-02 15:04")
		}
		title := memoryClip(r.Title, 72)
		if len(r.Marks) > 0 {
			title += " [" + strings.Join(r.Marks, ", ") + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.RecordRef, updated, r.Type, r.Trust, r.Project, title)
	}
	tw.Flush()
	return 0
}

const memoryForgetUsage = "agora memory forget <lr_ref> " + adminFlagsUsage

func runMemoryForget(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("memory forget", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	admin := adminFlags(fs, memoryNotFoundHint)
	rest, err := parseArgs(fs, args)
	if err != nil {
		return fail(e, 2, "usage: "+memoryForgetUsage, "%v", err)
	}
	ref, code := memoryRef(e, memoryForgetUsage, rest)
	if ref == "" {
		return code
	}
	var res struct {
		Removed  memory.ReadRecord
		Receipts int
	}
	if err := admin.call(ctx, http.MethodDelete, "/api/v1/admin/memory/records/"+url.PathEscape(ref), nil, &res); err != nil {
		return failAdmin(e, err)
	}
	r := res.Removed
	fmt.Fprintf(e.stdout, "Forgot %s %q (%s, project %s, revision %d) and its %d receipt(s).\n",
		r.RecordRef, r.Title, r.Type, r.Project, r.Revision, res.Receipts)
	fmt.Fprintln(e.stdout, "No session will be shown it again; its topic is free for a new note.")
	return 0
}
