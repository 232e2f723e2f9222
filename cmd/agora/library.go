package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
)

const (
	libraryPublishUsage  = "agora library publish --content FILE [--pending FILE] [--key <op-id|file>] [--keys DIR] [--url URL] [--json]"
	libraryGetUsage      = "agora library get <revision> [--url URL] [--json]"
	libraryHeadUsage     = "agora library head <revision> [--url URL] [--json]"
	librarySearchUsage   = "agora library search <words> [--kind KIND] [--sort relevance|new|top] [--offset N] [--url URL] [--json]"
	libraryFollowUsage   = "agora library follow [--root R] [--cursor FILE] [--limit N] [--url URL] [--json]"
	libraryListUsage     = "agora library following|saved add|remove <root> [--key <op-id|file>] [--keys DIR] [--url URL] [--json]"
	libraryPersonalUsage = "agora library personal show [--key <op-id|file>] [--keys DIR] [--url URL] [--json]"
)

// runLibrary is "agora library ...": the research library's contract from
// the command line. publish signs a content file as the operator and
// keeps the envelope in a pending file until the node answers for sure;
// the reads print records for a person, or the node's answers with
// --json; follow and the personal lists keep the author's place.
func runLibrary(ctx context.Context, e *env, args []string) int {
	return runGroup(ctx, e, "library", []subcommand{
		{"publish", libraryPublishUsage, []string{
			"sign the content object {kind,title,body,links,previous} in FILE and send it to",
			"POST /api/entries. The signed envelope is kept in a pending file first; until the",
			"node answers for sure, running the command again sends that exact envelope",
			"(never re-signed). A refusal marks it rejected: correct the content, which then",
			"gets a new pending file."},
			libraryPublish},
		{"get", libraryGetUsage, []string{"print the exact revision"}, func(ctx context.Context, e *env, args []string) int {
			return libraryRead(ctx, e, "get", libraryGetUsage, args)
		}},
		{"head", libraryHeadUsage, []string{"print the current head of the revision's lineage"}, func(ctx context.Context, e *env, args []string) int {
			return libraryRead(ctx, e, "head", libraryHeadUsage, args)
		}},
		{"search", librarySearchUsage, []string{"search the catalogue: every word must match (titles weigh most)"}, librarySearch},
		{"follow", libraryFollowUsage, []string{
			"print what changed in the library (or under one root) since the last run,",
			"paging GET /api/changes; the cursor is kept in a file so the next run resumes"},
			libraryFollow},
		{"following", libraryListUsage, []string{"add a root to, or remove it from, the roots you follow"}, func(ctx context.Context, e *env, args []string) int {
			return libraryList(ctx, e, "following", args)
		}},
		{"saved", libraryListUsage, []string{"add a root to, or remove it from, the roots you saved"}, func(ctx context.Context, e *env, args []string) int {
			return libraryList(ctx, e, "saved", args)
		}},
		{"personal", libraryPersonalUsage, []string{"print your following and saved lists"}, libraryPersonal},
	}, `Pending files are kept in $AGORA_HOME/library/pending (default ~/.agora), one per key
and content: <operator>-<content digest>.json; --pending FILE names another.
follow keeps its cursor in $AGORA_HOME/library/follow/<node and root digest>.cursor;
--cursor FILE names another. Personal lists are private to you and your node's operator.`, args)
}

// libraryHome is where the library commands keep their files:
// $AGORA_HOME/library, else ~/.agora/library.
func libraryHome() (string, error) {
	if h := os.Getenv("AGORA_HOME"); h != "" {
		return filepath.Join(h, "library"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the home directory (set AGORA_HOME): %w", err)
	}
	return filepath.Join(home, ".agora", "library"), nil
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

// libraryFlags are the flags every library command shares.
type libraryFlags struct {
	fs        *flag.FlagSet
	url       *string
	asJSON    *bool
	key, keys *string // signing commands only
}

func newLibraryFlags(command string, signs bool) libraryFlags {
	fs := flag.NewFlagSet("agora library "+command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := libraryFlags{
		fs:     fs,
		url:    fs.String("url", defaultURL, "the node's URL"),
		asJSON: fs.Bool("json", false, "print the node's answers as JSON"),
	}
	if signs {
		f.key = fs.String("key", "", "the operator's key: its ID (kept in --keys) or a key file (default the one key kept)")
		f.keys = fs.String("keys", "", "the directory key files are kept in (default ~/.config/sciencejournal/keys)")
	}
	return f
}

// parse parses args, printing the usage for -h; done is true when the
// command should end with code.
func (f libraryFlags) parse(e *env, usage string, args []string) (rest []string, code int, done bool) {
	rest, err := parseArgs(f.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+usage)
		return nil, 0, true
	}
	if err != nil {
		return nil, fail(e, 2, "usage: "+usage, "%v", err), true
	}
	return rest, 0, false
}

// signer loads the operator's key as the other signing commands do.
func (f libraryFlags) signer(e *env) (id string, key *hybrid.PrivateKey, code int) {
	dir, code := keysDir(e, *f.keys)
	if code != 0 {
		return "", nil, code
	}
	id, _, key, code = loadOperatorKey(e, *f.key, dir)
	return id, key, code
}

// Pending files.

// pendingFormat names the pending file's format.
const pendingFormat = "agora.library-pending/1"

// The states of a pending file.
const (
	pendingSent      = "pending"   // signed and maybe sent: send it again until the node answers for sure
	pendingPublished = "published" // the node admitted it
	pendingRejected  = "rejected"  // the node refused it for good: correct the content
)

// pending is a pending file: one signed envelope for one content and one
// key, and where it stands. It is written as canonical JSON, so the
// envelope's bytes are the envelope's canonical JSON as signed, and
// envelope_sha256 checks they come back exactly.
type pending struct {
	Operator string         // op:...
	Content  string         // SHA-256 of the content file's canonical JSON
	Revision string         // the record's revision ID
	Envelope []byte         // as sent
	State    string         // pendingSent, pendingPublished or pendingRejected
	Answer   map[string]any // the node's last definite answer, if any
}

func (p *pending) marshal() ([]byte, error) {
	env, err := canonical.Parse(p.Envelope)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(p.Envelope)
	v := map[string]any{
		"format": pendingFormat, "operator": p.Operator, "content_sha256": p.Content, "revision": p.Revision,
		"envelope": env, "envelope_sha256": hex.EncodeToString(sum[:]), "state": p.State,
	}
	if p.Answer != nil {
		v["answer"] = p.Answer
	}
	b, err := canonical.Marshal(v)
	return append(b, '\n'), err
}

func (p *pending) save(path string) error {
	b, err := p.marshal()
	if err != nil {
		return fmt.Errorf("pending file %s: %w", path, err)
	}
	return writeFileAtomic(path, b)
}

func readPending(path string) (*pending, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, err := canonical.Parse(data)
	obj, _ := v.(map[string]any)
	if err != nil || obj == nil || obj["format"] != pendingFormat {
		return nil, fmt.Errorf("%s is not a pending file of %s", path, pendingFormat)
	}
	p := &pending{}
	p.Operator, _ = obj["operator"].(string)
	p.Content, _ = obj["content_sha256"].(string)
	p.Revision, _ = obj["revision"].(string)
	p.State, _ = obj["state"].(string)
	p.Answer, _ = obj["answer"].(map[string]any)
	if p.Envelope, err = canonical.Marshal(obj["envelope"]); err != nil {
		return nil, fmt.Errorf("%s: envelope: %w", path, err)
	}
	sum := sha256.Sum256(p.Envelope)
	if obj["envelope_sha256"] != hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("%s: the envelope is not the one signed (envelope_sha256 differs): it was edited or damaged", path)
	}
	return p, nil
}

// definitive reports whether a refusal is the node's last word on an
// envelope, so sending it again can only be refused again: its form,
// content, signature or a state rule. Other failures (the network, 5xx,
// rate limits, a revision still being logged, an author not yet
// authorized) leave the envelope pending.
func definitive(err error) bool {
	var ce *client.Error
	if !errors.As(err, &ce) {
		return false
	}
	switch ce.Status {
	case 400, 413, 422:
		return true
	case 409:
		return ce.Code != "in_progress"
	case 403:
		return ce.Code == "bad_signature"
	}
	return false
}

// uncertain reports whether the node may not have answered err's request
// for sure: sending the exact envelope again is the way to find out.
func uncertain(err error) bool {
	var ce *client.Error
	if !errors.As(err, &ce) {
		return true
	}
	return ce.Status >= 500 || ce.Status == 408 || ce.Status == 429 || ce.Code == "in_progress"
}

// refusal is an error as the pending file keeps it.
func refusal(err error) map[string]any {
	var ce *client.Error
	if !errors.As(err, &ce) {
		return nil
	}
	a := map[string]any{"status": float64(ce.Status), "code": ce.Code, "error": ce.Message}
	var ie *client.IssuesError
	if errors.As(err, &ie) {
		list := make([]any, len(ie.Issues))
		for i, is := range ie.Issues {
			list[i] = map[string]any{"path": is.Path, "code": is.Code, "message": is.Message}
		}
		a["issues"] = list
	}
	return a
}

func printIssues(e *env, err error) {
	var ie *client.IssuesError
	if errors.As(err, &ie) {
		for _, is := range ie.Issues {
			fmt.Fprintf(e.stderr, "  %s %s: %s\n", orWhole(is.Path), is.Code, is.Message)
		}
	}
}

func orWhole(path string) string {
	if path == "" {
		return "(record)"
	}
	return path
}

// libraryPublish is "agora library publish --content FILE".
func libraryPublish(ctx context.Context, e *env, args []string) int {
	f := newLibraryFlags("publish", true)
	contentPath := f.fs.String("content", "", "the content file: the contract's content object {kind,title,body,links,previous}")
	pendingPath := f.fs.String("pending", "", "the pending file keeping the signed envelope (default one per key and content in $AGORA_HOME/library/pending)")
	rest, code, done := f.parse(e, libraryPublishUsage, args)
	if done {
		return code
	}
	if len(rest) > 0 || *contentPath == "" {
		return fail(e, 2, "usage: "+libraryPublishUsage, "give the content file with --content FILE")
	}
	text, err := os.ReadFile(*contentPath)
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	content, err := library.ParseContent(text)
	if err != nil {
		return fail(e, 1, `a content file is one JSON object: {"kind": ..., "title": ..., "body": ..., "links": [], "previous": ""}`, "%s: %v", *contentPath, err)
	}
	canon, _ := canonical.Canonicalize(text) // parsed above
	digest := sha256.Sum256(canon)
	id, key, code := f.signer(e)
	if code != 0 {
		return code
	}
	path := *pendingPath
	if path == "" {
		home, err := libraryHome()
		if err != nil {
			return fail(e, 1, "give the pending file with --pending FILE", "%v", err)
		}
		path = filepath.Join(home, "pending", strings.TrimPrefix(id, "op:")[:16]+"-"+hex.EncodeToString(digest[:16])+".json")
	}

	p, err := readPending(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		p, code = signPending(e, content, id, key, hex.EncodeToString(digest[:]))
		if code != 0 {
			return code
		}
		// Kept before it is sent: from here on, a failure is retried with
		// these exact bytes.
		if err := p.save(path); err != nil {
			return fail(e, 1, "", "keeping the pending file: %v (nothing was sent)", err)
		}
	case err != nil:
		return fail(e, 1, "give a new --pending path", "%v", err)
	case p.Operator != id || p.Content != hex.EncodeToString(digest[:]):
		return fail(e, 1, "a pending file is for one content and one key: give a new --pending path for this content",
			"%s keeps the envelope of other content, or of another key (%s)", path, p.Operator)
	case p.State == pendingRejected:
		msg, _ := p.Answer["error"].(string)
		return fail(e, 1, "correct the content (corrected content gets a new pending file), or give a new --pending path",
			"the node refused this envelope (%s): %s", path, msg)
	default:
		fmt.Fprintf(e.stderr, "agora: sending again the envelope kept in %s (%s), as signed\n", path, p.State)
	}

	answer, status, err := newClient(*f.url).Publish(ctx, p.Envelope)
	switch {
	case err == nil:
		p.State, p.Answer = pendingPublished, answer
		if serr := p.save(path); serr != nil {
			fmt.Fprintf(e.stderr, "agora: warning: the node admitted %s, but the pending file could not be updated: %v\n", p.Revision, serr)
		}
	case definitive(err):
		p.State, p.Answer = pendingRejected, refusal(err)
		if serr := p.save(path); serr != nil {
			fmt.Fprintf(e.stderr, "agora: warning: updating %s: %v\n", path, serr)
		}
		code := nodeFailure(e, err, "correct the content and run again: corrected content gets a new pending file")
		printIssues(e, err)
		return code
	default:
		again := "run the same command again: it sends the same envelope, kept in " + path
		var ce *client.Error
		if !errors.As(err, &ce) {
			return fail(e, 1, again, "no answer came from the node, which may or may not have admitted %s: %v", p.Revision, err)
		}
		return nodeFailure(e, err, again)
	}
	if *f.asJSON {
		return printBundleJSON(e, answer)
	}
	printRecord(e, answer)
	if status == 200 {
		fmt.Fprintln(e.stderr, "agora: note: the node had this revision already; this is where it stands")
	}
	fmt.Fprintf(e.stderr, "agora: %s is kept as published; publishing this content again needs a new --pending path\n", path)
	return 0
}

// signPending signs content as the operator, now, after checking it
// against the content schema: what the schema refuses is never signed.
func signPending(e *env, content library.Content, id string, key *hybrid.PrivateKey, digest string) (*pending, int) {
	rec, err := library.NewRecord(content, id, time.Now())
	if err != nil {
		return nil, fail(e, 1, "", "%v", err)
	}
	if issues := library.ValidateContent(rec); len(issues) > 0 {
		fmt.Fprintln(e.stderr, "agora: error: the content breaks the write contract; nothing was signed or sent:")
		for _, is := range issues {
			fmt.Fprintf(e.stderr, "  %s %s: %s\n", orWhole(is.Path), is.Code, is.Message)
		}
		return nil, 1
	}
	env, err := library.Sign(rec, key)
	if err != nil {
		return nil, fail(e, 1, "", "%v", err)
	}
	envelope, err := env.Marshal()
	if err != nil {
		return nil, fail(e, 1, "", "%v", err)
	}
	revision, _ := rec.RevisionID()
	return &pending{Operator: id, Content: digest, Revision: revision, Envelope: envelope, State: pendingSent}, 0
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

// libraryRead is "agora library get|head <revision>".
func libraryRead(ctx context.Context, e *env, command, usage string, args []string) int {
	f := newLibraryFlags(command, false)
	rest, code, done := f.parse(e, usage, args)
	if done {
		return code
	}
	if len(rest) != 1 || !library.IsRevisionID(rest[0]) {
		return fail(e, 2, "usage: "+usage, "give one revision ID: 64 lowercase hex digits")
	}
	c := newClient(*f.url)
	var v map[string]any
	var err error
	if command == "head" {
		v, err = c.Head(ctx, rest[0])
	} else {
		v, err = c.Entry(ctx, rest[0])
	}
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if *f.asJSON {
		return printBundleJSON(e, v)
	}
	printRecord(e, v)
	return 0
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

// librarySearch is "agora library search <words>".
func librarySearch(ctx context.Context, e *env, args []string) int {
	f := newLibraryFlags("search", false)
	kind := f.fs.String("kind", "", "only this kind, such as claim or research-node")
	sort := f.fs.String("sort", "relevance", "relevance, new or top")
	offset := f.fs.Int("offset", 0, "skip this many results (the next_offset a page gives)")
	rest, code, done := f.parse(e, librarySearchUsage, args)
	if done {
		return code
	}
	if len(rest) == 0 {
		return fail(e, 2, "usage: "+librarySearchUsage, "give the words to search for")
	}
	q := url.Values{"q": {strings.Join(rest, " ")}, "sort": {*sort}}
	if *kind != "" {
		q.Set("kind", *kind)
	}
	if *offset > 0 {
		q.Set("offset", strconv.Itoa(*offset))
	}
	page, err := newClient(*f.url).Catalogue(ctx, q)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if *f.asJSON {
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

// libraryFollow is "agora library follow": it pages GET /api/changes
// from the kept cursor to the end of the node's current snapshot, keeping
// the cursor after each page, so a run cut short resumes where it was.
func libraryFollow(ctx context.Context, e *env, args []string) int {
	f := newLibraryFlags("follow", false)
	root := f.fs.String("root", "", "follow one contribution root instead of the whole library")
	cursorPath := f.fs.String("cursor", "", "the file keeping the cursor (default one per node and root in $AGORA_HOME/library/follow)")
	limit := f.fs.Int("limit", 0, "records a page, 1 to 50 (default the node's, 50)")
	rest, code, done := f.parse(e, libraryFollowUsage, args)
	if done {
		return code
	}
	if len(rest) > 0 {
		return fail(e, 2, "usage: "+libraryFollowUsage, "follow takes no arguments; give a root with --root")
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
		sum := sha256.Sum256([]byte(strings.TrimRight(*f.url, "/") + "\n" + *root))
		path = filepath.Join(home, "follow", hex.EncodeToString(sum[:16])+".cursor")
	}
	cursor := ""
	switch b, err := os.ReadFile(path); {
	case err == nil:
		cursor = strings.TrimSpace(string(b))
	case !errors.Is(err, os.ErrNotExist):
		return fail(e, 1, "", "reading the cursor: %v", err)
	}
	c := newClient(*f.url)
	seen, restarted := 0, false
	for {
		page, err := c.Changes(ctx, *root, cursor, *limit)
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
		if *f.asJSON {
			b, err := json.Marshal(page)
			if err != nil {
				return fail(e, 1, "", "%v", err)
			}
			fmt.Fprintf(e.stdout, "%s\n", b)
		} else {
			items, _ := page["items"].([]any)
			for _, item := range items {
				printLine(e, item)
			}
		}
		items, _ := page["items"].([]any)
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

// Personal lists.

// personalAttempts is how many times a personal request is sent when the
// node's answer is uncertain: the same envelope each time, which the node
// answers as it did.
const personalAttempts = 3

// sendPersonal sends one personal envelope, again while the failure is
// uncertain.
func sendPersonal(ctx context.Context, c *client.Client, envelope []byte) (map[string]any, error) {
	var err error
	for attempt := 1; attempt <= personalAttempts; attempt++ {
		var st map[string]any
		st, _, err = c.Personal(ctx, envelope)
		if err == nil || !uncertain(err) {
			return st, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 200 * time.Millisecond):
		}
	}
	return nil, err
}

// readLists reads the operator's state: its ID ("" for none) and lists.
func readLists(ctx context.Context, c *client.Client, id string, key *hybrid.PrivateKey) (string, library.PersonalLists, error) {
	nonce, err := library.NewNonce()
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	rec, err := library.NewPersonalRead(id, nonce, time.Now())
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	envelope, err := signed(rec, key)
	if err != nil {
		return "", library.PersonalLists{}, err
	}
	st, err := sendPersonal(ctx, c, envelope)
	if err != nil || st == nil {
		return "", library.PersonalLists{Following: []string{}, Saved: []string{}}, err
	}
	text, err := canonical.Marshal(map[string]any{"record": st["record"], "signature": st["signature"]})
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	env, err := library.ParseEnvelope(text)
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	if env.Record.OperatorID() != id {
		return "", library.PersonalLists{}, fmt.Errorf("%w: it is %s's, not %s's", errBadAnswer, env.Record.OperatorID(), id)
	}
	lists, err := library.PersonalListsOf(env.Record)
	if err != nil {
		return "", library.PersonalLists{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	stateID, _ := env.Record.RevisionID()
	if st["id"] != stateID {
		return "", library.PersonalLists{}, fmt.Errorf("%w: its record's ID is %s, not %v", errBadAnswer, stateID, st["id"])
	}
	return stateID, lists, nil
}

func signed(rec *library.Record, key *hybrid.PrivateKey) ([]byte, error) {
	env, err := library.Sign(rec, key)
	if err != nil {
		return nil, err
	}
	return env.Marshal()
}

func printLists(e *env, stateID string, lists library.PersonalLists, asJSON bool) int {
	if asJSON {
		var state any
		if stateID != "" {
			state = stateID
		}
		return printBundleJSON(e, map[string]any{"state": state, "following": lists.Following, "saved": lists.Saved})
	}
	for _, name := range []string{"following", "saved"} {
		list := *lists.List(name)
		fmt.Fprintf(e.stdout, "%s (%d):\n", name, len(list))
		for _, root := range list {
			fmt.Fprintf(e.stdout, "  %s\n", root)
		}
	}
	return 0
}

// libraryPersonal is "agora library personal show".
func libraryPersonal(ctx context.Context, e *env, args []string) int {
	f := newLibraryFlags("personal show", true)
	rest, code, done := f.parse(e, libraryPersonalUsage, args)
	if done {
		return code
	}
	if len(rest) != 1 || rest[0] != "show" {
		return fail(e, 2, "usage: "+libraryPersonalUsage, "personal takes one command: show")
	}
	id, key, code := f.signer(e)
	if code != 0 {
		return code
	}
	stateID, lists, err := readLists(ctx, newClient(*f.url), id, key)
	if err != nil {
		return personalFailure(e, err)
	}
	return printLists(e, stateID, lists, *f.asJSON)
}

// errBadAnswer: the node's answer to a personal read is not the signed
// state of the operator who asked.
var errBadAnswer = errors.New("the node's answer is not your signed state")

func personalFailure(e *env, err error) int {
	if errors.Is(err, errBadAnswer) {
		return fail(e, 1, "", "%v", err)
	}
	code := nodeFailure(e, err, "")
	printIssues(e, err)
	return code
}

// libraryList is "agora library following|saved add|remove <root>": read
// the lists, change one, and write them from the state read. When another
// write came first (stale_state), it reads again and makes the change on
// the newer state.
func libraryList(ctx context.Context, e *env, list string, args []string) int {
	f := newLibraryFlags(list, true)
	rest, code, done := f.parse(e, libraryListUsage, args)
	if done {
		return code
	}
	if len(rest) != 2 || (rest[0] != "add" && rest[0] != "remove") {
		return fail(e, 2, "usage: "+libraryListUsage, "give add or remove and one root")
	}
	op, root := rest[0], rest[1]
	if !library.IsRevisionID(root) {
		return fail(e, 2, "a root is a revision ID: 64 lowercase hex digits, as 'agora library search' prints them", "%q is not a root ID", root)
	}
	id, key, code := f.signer(e)
	if code != 0 {
		return code
	}
	c := newClient(*f.url)
	for round := 1; ; round++ {
		stateID, lists, err := readLists(ctx, c, id, key)
		if err != nil {
			return personalFailure(e, err)
		}
		l := lists.List(list)
		has := slices.Contains(*l, root)
		switch {
		case op == "add" && has:
			fmt.Fprintf(e.stderr, "agora: %s already holds %s\n", list, root)
			return printLists(e, stateID, lists, *f.asJSON)
		case op == "remove" && !has:
			fmt.Fprintf(e.stderr, "agora: %s does not hold %s\n", list, root)
			return printLists(e, stateID, lists, *f.asJSON)
		case op == "add":
			*l = append(*l, root)
		default:
			*l = slices.DeleteFunc(*l, func(r string) bool { return r == root })
		}
		rec, err := library.NewPersonalState(id, lists, stateID, time.Now())
		if err != nil {
			return fail(e, 1, "remove a root first: each list holds at most 128", "%v", err)
		}
		envelope, err := signed(rec, key)
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		st, err := sendPersonal(ctx, c, envelope)
		if client.IsCode(err, "stale_state") && round < personalAttempts {
			fmt.Fprintf(e.stderr, "agora: your lists changed meanwhile; reading them again to make the change on the newer state\n")
			continue
		}
		if err != nil {
			return personalFailure(e, err)
		}
		newID, _ := st["id"].(string)
		return printLists(e, newID, lists, *f.asJSON)
	}
}
