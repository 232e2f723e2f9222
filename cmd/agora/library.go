package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agora-node/agora/internal/home"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/library"
)

// libraryGroup is "agora library ...": the research library's contract
// from the command line. publish signs a content file as the operator and
// keeps the envelope in a pending file until the node answers for sure
// (library_publish.go); the reads print records for a person, or the
// node's answers with --json; follow and the personal lists
// (library_personal.go) keep the author's place.
func libraryGroup() *command {
	return group("library", "the research library: publish, get, head, search, follow; your following and saved lists",
		`Pending files are kept in $AGORA_HOME/library/pending (default ~/.local/share/agora), one per key
and content: <operator>-<content digest>.json; --pending FILE names another.
follow keeps its cursor in $AGORA_HOME/library/follow/<node and root digest>.cursor;
--cursor FILE names another. Personal lists are private to you and your node's operator.`,
		func() []*command {
			return []*command{
				libraryPublishCommand(),
				libraryReadCommand("get", "print the exact revision"),
				libraryReadCommand("head", "print the current head of the revision's lineage"),
				librarySearchCommand(),
				libraryFollowCommand(),
				libraryListCommand("following", "add a root to, or remove it from, the roots you follow"),
				libraryListCommand("saved", "add a root to, or remove it from, the roots you saved"),
				libraryPersonalCommand(),
			}
		})
}

// libraryHome is where the library commands keep their files: library/
// in agora's data directory (home.Data).
func libraryHome() (string, error) {
	dir, err := home.Data(os.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "library"), nil
}

// writeFileAtomic writes data to path through a temporary file renamed
// over it, synced first: a crash leaves the old file or the new one, never
// half of either.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// printRecord prints a signed record for a person.
func printRecord(e *env, v map[string]any) {
	w := e.stdout
	rec, _ := v["record"].(map[string]any)
	fmt.Fprintf(w, "revision  %v\n", v["id"])
	if v["root"] != v["id"] {
		fmt.Fprintf(w, "root      %v\n", v["root"])
	}
	fmt.Fprintf(w, "kind      %v\n", rec["kind"])
	fmt.Fprintf(w, "title     %v\n", rec["title"])
	fmt.Fprintf(w, "author    op:%v\n", rec["author"])
	fmt.Fprintf(w, "authored  %v\n", rec["authored_at"])
	if p, _ := rec["previous"].(string); p != "" {
		fmt.Fprintf(w, "previous  %s\n", p)
	}
	links, _ := rec["links"].([]any)
	for _, l := range links {
		link, _ := l.(map[string]any)
		fmt.Fprintf(w, "link      %v %v\n", link["relation"], link["target"])
	}
	if a, ok := v["admission"].(map[string]any); ok {
		fmt.Fprintf(w, "logged    %v at index %v\n", a["admitted_at"], orDash(a["log_index"]))
	}
	body, _ := rec["body"].(string)
	kind, _ := rec["kind"].(string)
	if !library.IsTextKind(kind) {
		if parsed, err := canonical.Parse([]byte(body)); err == nil {
			if b, err := json.MarshalIndent(parsed, "", "  "); err == nil {
				body = string(b)
			}
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, body)
}

// libraryReadCommand is "agora library get|head <revision>".
func libraryReadCommand(name, help string) *command {
	c := newCommand(name, "agora library "+name+" <revision> [--url URL] [--json]", help)
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 || !library.IsRevisionID(args[0]) {
			return c.usageError(e, "give one revision ID: 64 lowercase hex digits")
		}
		cl := newClient(*nodeURL)
		var v map[string]any
		var err error
		if name == "head" {
			v, err = cl.Head(ctx, args[0])
		} else {
			v, err = cl.Entry(ctx, args[0])
		}
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printBundleJSON(e, v)
		}
		printRecord(e, v)
		return 0
	}
	return c
}

// printLine prints one signed record on one line: ID, kind, title.
func printLine(e *env, item any) {
	v, _ := item.(map[string]any)
	rec, _ := v["record"].(map[string]any)
	if rec == nil {
		rec = v // a summary projection
	}
	fmt.Fprintf(e.stdout, "%v  %-19v  %v\n", v["id"], rec["kind"], rec["title"])
}

// librarySearchCommand is "agora library search <words>".
func librarySearchCommand() *command {
	c := newCommand("search", "agora library search <words> [--kind KIND] [--sort relevance|new|top] [--offset N] [--url URL] [--json]",
		"search the catalogue: every word must match (titles weigh most)")
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	kind := c.flags.String("kind", "", "only this kind, such as claim or research-node")
	sort := c.flags.String("sort", "relevance", "relevance, new or top")
	offset := c.flags.Int("offset", 0, "skip this many results (the next_offset a page gives)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) == 0 {
			return c.usageError(e, "give the words to search for")
		}
		q := url.Values{"q": {strings.Join(args, " ")}, "sort": {*sort}}
		if *kind != "" {
			q.Set("kind", *kind)
		}
		if *offset > 0 {
			q.Set("offset", strconv.Itoa(*offset))
		}
		page, err := newClient(*nodeURL).Catalogue(ctx, q)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *asJSON {
			return printBundleJSON(e, page)
		}
		items, _ := page["items"].([]any)
		for _, item := range items {
			printLine(e, item)
		}
		fmt.Fprintf(e.stderr, "agora: %d of %v found", len(items), page["total"])
		if next, ok := page["next_offset"].(float64); ok {
			fmt.Fprintf(e.stderr, "; more with --offset %d", int(next))
		}
		fmt.Fprintln(e.stderr)
		return 0
	}
	return c
}

// libraryFollowCommand is "agora library follow": it pages GET
// /api/changes from the kept cursor to the end of the node's current
// snapshot, keeping the cursor after each page, so a run cut short resumes
// where it was.
func libraryFollowCommand() *command {
	c := newCommand("follow", "agora library follow [--root R] [--cursor FILE] [--limit N] [--url URL] [--json]",
		"print what changed in the library (or under one root) since the last run,",
		"paging GET /api/changes; the cursor is kept in a file so the next run resumes")
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	root := c.flags.String("root", "", "follow one contribution root instead of the whole library")
	cursorPath := c.flags.String("cursor", "", "the file keeping the cursor (default one per node and root in $AGORA_HOME/library/follow)")
	limit := c.flags.Int("limit", 0, "records a page, 1 to 50 (default the node's, 50)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 {
			return c.usageError(e, "follow takes no arguments; give a root with --root")
		}
		if *root != "" && !library.IsRevisionID(*root) {
			return fail(e, 2, "a root is a revision ID: 64 lowercase hex digits", "%q is not a root ID", *root)
		}
		if *limit < 0 || *limit > 50 {
			return fail(e, 2, "give --limit from 1 to 50", "--limit %d is out of range", *limit)
		}
		path := *cursorPath
		if path == "" {
			home, err := libraryHome()
			if err != nil {
				return fail(e, 1, "give the cursor file with --cursor FILE", "%v", err)
			}
			sum := sha256.Sum256([]byte(strings.TrimRight(*nodeURL, "/") + "\n" + *root))
			path = filepath.Join(home, "follow", hex.EncodeToString(sum[:16])+".cursor")
		}
		return libraryFollow(ctx, e, newClient(*nodeURL), *root, path, *limit, *asJSON)
	}
	return c
}

func libraryFollow(ctx context.Context, e *env, c *client.Client, root, path string, limit int, asJSON bool) int {
	cursor := ""
	switch b, err := os.ReadFile(path); {
	case err == nil:
		cursor = strings.TrimSpace(string(b))
	case !errors.Is(err, os.ErrNotExist):
		return fail(e, 1, "", "reading the cursor: %v", err)
	}
	seen, restarted := 0, false
	for {
		page, err := c.Changes(ctx, root, cursor, limit)
		if errors.Is(err, client.ErrResyncRequired) && cursor != "" && !restarted {
			fmt.Fprintf(e.stderr, "agora: the node can no longer resume from the kept cursor (resync required); starting over from the beginning\n")
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fail(e, 1, "", "removing the cursor: %v", err)
			}
			cursor, restarted = "", true
			continue
		}
		if err != nil {
			return nodeFailure(e, err, "run the command again: it resumes from the cursor kept in "+path)
		}
		items, _ := page["items"].([]any)
		if asJSON {
			b, err := json.Marshal(page)
			if err != nil {
				return fail(e, 1, "", "%v", err)
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
		} else {
			for _, item := range items {
				printLine(e, item)
			}
		}
		seen += len(items)
		next, _ := page["cursor"].(string)
		if next != "" {
			if err := writeFileAtomic(path, []byte(next+"\n")); err != nil {
				return fail(e, 1, "", "keeping the cursor: %v", err)
			}
			cursor = next
		}
		if more, _ := page["has_more"].(bool); !more || next == "" {
			break
		}
	}
	fmt.Fprintf(e.stderr, "agora: %d changes; up to date. The next run resumes from the cursor kept in %s\n", seen, path)
	return 0
}
