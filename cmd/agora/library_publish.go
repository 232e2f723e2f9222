package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/library"
)

// libraryPublishCommand is "agora library publish --content FILE".
func libraryPublishCommand() *command {
	c := newCommand("publish", "agora library publish --content FILE [--pending FILE] [--key <op-id|file>] [--keys DIR] [--url URL] [--json]",
		"sign the content object {kind,title,body,links,previous} in FILE and send it to",
		"POST /api/entries. The signed envelope is kept in a pending file first; until the",
		"node answers for sure, running the command again sends that exact envelope",
		"(never re-signed). A refusal marks it rejected: correct the content, which then",
		"gets a new pending file.")
	nodeURL := c.nodeURL()
	asJSON := c.flags.Bool("json", false, "print the node's answers as JSON")
	signer := c.signer()
	contentPath := c.flags.String("content", "", "the content file: the contract's content object {kind,title,body,links,previous}")
	pendingPath := c.flags.String("pending", "", "the pending file keeping the signed envelope (default one per key and content in $AGORA_HOME/library/pending)")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) > 0 || *contentPath == "" {
			return c.usageError(e, "give the content file with --content FILE")
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
		id, _, key, code := signer.load(e)
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
		p, code := openPending(e, path, content, id, key, hex.EncodeToString(digest[:]))
		if code != 0 {
			return code
		}
		return publishPending(ctx, e, newClient(*nodeURL), p, path, *asJSON)
	}
	return c
}

// openPending reads the pending file at path, or signs content and keeps
// its envelope there before anything is sent.
func openPending(e *env, path string, content library.Content, id string, key *hybrid.PrivateKey, digest string) (*pending, int) {
	p, err := readPending(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		p, code := signPending(e, content, id, key, digest)
		if code != 0 {
			return nil, code
		}
		// Kept before it is sent: from here on, a failure is retried with
		// these exact bytes.
		if err := p.save(path); err != nil {
			return nil, fail(e, 1, "", "keeping the pending file: %v (nothing was sent)", err)
		}
		return p, 0
	case err != nil:
		return nil, fail(e, 1, "give a new --pending path", "%v", err)
	case p.Operator != id || p.Content != digest:
		return nil, fail(e, 1, "a pending file is for one content and one key: give a new --pending path for this content",
			"%s keeps the envelope of other content, or of another key (%s)", path, p.Operator)
	case p.State == pendingRejected:
		msg, _ := p.Answer["error"].(string)
		return nil, fail(e, 1, "correct the content (corrected content gets a new pending file), or give a new --pending path",
			"the node refused this envelope (%s): %s", path, msg)
	}
	fmt.Fprintf(e.stderr, "agora: sending again the envelope kept in %s (%s), as signed\n", path, p.State)
	return p, 0
}

// publishPending sends the pending envelope and keeps the node's answer
// in the pending file: published, rejected for good, or still pending.
func publishPending(ctx context.Context, e *env, c *client.Client, p *pending, path string, asJSON bool) int {
	answer, status, err := c.Publish(ctx, p.Envelope)
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
	if asJSON {
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
