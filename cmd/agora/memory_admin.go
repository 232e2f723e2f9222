package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/adapter"
)

// The memory commands a person runs against a node with its admin token:
// adapter add issues an adapter's token and writes the config the hooks
// read; search, show, notes and forget read and prune the records. They
// drive the node's admin routes through package client and print what
// came back for a person to read.

// memoryNotFoundHint is what to do when a memory admin route answers 404.
const memoryNotFoundHint = "list the records with 'agora memory notes'"

// memoryAdapterGroup is "agora memory adapter add".
func memoryAdapterGroup() *command {
	c := group("memory adapter", "on the node's machine: issue the adapter's token and write $AGORA_HOME/memory/<id>.json", "", func() []*command {
		return []*command{memoryAdapterAddCommand()}
	})
	c.usage = "agora memory adapter add <id> " + adminFlagsUsage
	return c
}

func memoryAdapterAddCommand() *command {
	c := newCommand("add", "agora memory adapter add <id> "+adminFlagsUsage,
		"issue the adapter's token on the node and write $AGORA_HOME/memory/<id>.json for its hooks",
		"(again: a new token; the old one stops working)")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return fail(e, 2, "usage: "+c.usage+" (for Claude Code: agora memory adapter add claude-code)", "give one adapter id")
		}
		return memoryAdapterAdd(ctx, e, admin, args[0])
	}
	return c
}

// memoryAdapterAdd issues adapter id's token on the node and writes the
// config its hooks read.
func memoryAdapterAdd(ctx context.Context, e *env, admin *adminFlags, id string) int {
	home, err := adapter.Home(os.Getenv)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	_, statErr := os.Stat(adapter.ConfigPath(home, id))
	cl, code := admin.client(e)
	if code != 0 {
		return code
	}
	issued, err := cl.IssueAdapterToken(ctx, id)
	if client.IsCode(err, "bad_request") {
		return fail(e, 2, "an adapter id is a lowercase letter, then up to 63 of a-z, 0-9, _ and -, such as claude-code", "%q is not an adapter id", id)
	}
	if err != nil {
		return admin.fail(e, err)
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

func memorySearchCommand() *command {
	c := newCommand("search", "agora memory search <words> [--project P] [--limit N] "+adminFlagsUsage,
		"rank the node's records for the words, with each hit's score and reasons")
	project := c.flags.String("project", "", "only the records sessions of this project wrote")
	limit := c.flags.Int("limit", 10, "at most this many hits, 1 to 50")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		words := strings.TrimSpace(strings.Join(args, " "))
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
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		hits, err := cl.MemorySearch(ctx, q)
		if err != nil {
			return admin.fail(e, err)
		}
		printHits(e, words, hits)
		return 0
	}
	return c
}

func printHits(e *env, words string, hits []memory.Hit) {
	w := e.stdout
	if len(hits) == 0 {
		fmt.Fprintf(w, "No memory records match %q.\n", words)
		return
	}
	for i, h := range hits {
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
func memoryRef(c *command, e *env, rest []string) (string, int) {
	if len(rest) != 1 {
		return "", c.usageError(e, "give one record ref (lr_…)")
	}
	if !memory.IsRecordRef(rest[0]) {
		return "", fail(e, 2, "record refs look like lr_…: list them with 'agora memory notes'", "%q is not a record ref", rest[0])
	}
	return rest[0], 0
}

func memoryShowCommand() *command {
	c := newCommand("show", "agora memory show <lr_ref> "+adminFlagsUsage,
		"a record whole: content, fix, trust, marks, revision and receipts")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		ref, code := memoryRef(c, e, args)
		if ref == "" {
			return code
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		v, err := cl.MemoryRecord(ctx, ref)
		if err != nil {
			return admin.fail(e, err)
		}
		printMemoryRecord(e, v)
		return 0
	}
	return c
}

func printMemoryRecord(e *env, v *client.MemoryRecordView) {
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

func memoryNotesCommand() *command {
	c := newCommand("notes", "agora memory notes [--project P] [--limit N] "+adminFlagsUsage,
		"the records, the one changed last first")
	project := c.flags.String("project", "", "only the records sessions of this project wrote")
	limit := c.flags.Int("limit", 20, "at most this many records, 1 to 200")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 0 {
			return c.usageError(e, "notes takes no arguments; did you mean 'agora memory search %s'?", strings.Join(args, " "))
		}
		if *limit < 1 || *limit > 200 {
			return fail(e, 2, "--limit 20", "--limit must be 1 to 200")
		}
		q := url.Values{"limit": {fmt.Sprint(*limit)}}
		if *project != "" {
			q.Set("project", *project)
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		records, err := cl.MemoryRecords(ctx, q)
		if err != nil {
			return admin.fail(e, err)
		}
		printMemoryNotes(e, *project, records)
		return 0
	}
	return c
}

func printMemoryNotes(e *env, project string, records []memory.ReadRecord) {
	if len(records) == 0 {
		if project != "" {
			fmt.Fprintf(e.stdout, "No memory records from project %s.\n", project)
		} else {
			fmt.Fprintln(e.stdout, "No memory records yet: agents write them with memory_note (agora memory mcp).")
		}
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REF\tUPDATED\tTYPE\tTRUST\tPROJECT\tTITLE")
	for _, r := range records {
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
}

func memoryForgetCommand() *command {
	c := newCommand("forget", "agora memory forget <lr_ref> "+adminFlagsUsage,
		"remove a record and its receipts for good; no session is shown it again")
	admin := c.admin(memoryNotFoundHint)
	c.run = func(ctx context.Context, e *env, args []string) int {
		ref, code := memoryRef(c, e, args)
		if ref == "" {
			return code
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		res, err := cl.ForgetMemoryRecord(ctx, ref)
		if err != nil {
			return admin.fail(e, err)
		}
		r := res.Removed
		fmt.Fprintf(e.stdout, "Forgot %s %q (%s, project %s, revision %d) and its %d receipt(s).\n",
			r.RecordRef, r.Title, r.Type, r.Project, r.Revision, res.Receipts)
		fmt.Fprintln(e.stdout, "No session will be shown it again; its topic is free for a new note.")
		return 0
	}
	return c
}

func memoryCorrectCommand() *command {
	c := newCommand("correct", "agora memory correct <lr_ref> [--title T] [--what T] [--why T] [--where T] [--learned T] "+adminFlagsUsage,
		"rewrite a record's title or content in your words: its next revision, checked and masked as a note is;",
		"the parts you leave out stay as they read")
	admin := c.admin(memoryNotFoundHint)
	title := c.flags.String("title", "", "the title as it should read")
	what := c.flags.String("what", "", "what happened, as it should read")
	why := c.flags.String("why", "", "why, as it should read")
	where := c.flags.String("where", "", "where it applies, as it should read")
	learned := c.flags.String("learned", "", "what a later session should do, as it should read")
	c.run = func(ctx context.Context, e *env, args []string) int {
		ref, code := memoryRef(c, e, args)
		if ref == "" {
			return code
		}
		if *title+*what+*why+*where+*learned == "" {
			return c.usageError(e, "give at least one of --title, --what, --why, --where and --learned")
		}
		cl, code := admin.client(e)
		if code != 0 {
			return code
		}
		v, err := cl.MemoryRecord(ctx, ref)
		if err != nil {
			return admin.fail(e, err)
		}
		fix := client.Correction{Title: v.Record.Title}
		if rc := v.Record.Content; rc != nil {
			fix.Content = memory.NoteContent{What: rc.What, Why: rc.Why, Where: rc.Where, Learned: rc.Learned}
		}
		for _, f := range []struct {
			to   *string
			from string
		}{{&fix.Title, *title}, {&fix.Content.What, *what},
			{&fix.Content.Why, *why}, {&fix.Content.Where, *where}, {&fix.Content.Learned, *learned}} {
			if f.from != "" {
				*f.to = f.from
			}
		}
		r, err := cl.CorrectMemoryRecord(ctx, ref, fix)
		if err != nil {
			return admin.fail(e, err)
		}
		fmt.Fprintf(e.stdout, "Corrected %s %q: revision %d.\n", r.RecordRef, r.Title, r.Revision)
		return 0
	}
	return c
}
