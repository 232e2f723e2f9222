package main

import (
	"bytes"
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
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

const (
	bundleCheckUsage  = "agora bundle check <bundle-dir> [--key <op-id|file>] [--keys DIR] [--url URL] [--json]"
	bundleSubmitUsage = "agora bundle submit <bundle-dir> [--key <op-id|file>] [--keys DIR] [--url URL] [--json]"
	bundleGetUsage    = "agora bundle get <bundle-hash> [--out DIR] [--url URL] [--json]"
	sealedUsage       = "agora sealed <index> [--url URL]"
)

// publishFlags are the flags of bundle check and submit.
type publishFlags struct {
	fs             *flag.FlagSet
	key, keys, url *string
	asJSON         *bool
}

func newPublishFlags(command string) publishFlags {
	fs := flag.NewFlagSet("agora bundle "+command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return publishFlags{
		fs:     fs,
		key:    fs.String("key", "", "the operator's key: its ID (kept in --keys) or a key file (default the one key kept)"),
		keys:   fs.String("keys", "", "the directory key files are kept in (default ~/.config/sciencejournal/keys)"),
		url:    fs.String("url", defaultURL, "the node's URL"),
		asJSON: fs.Bool("json", false, "print the node's answer as JSON"),
	}
}

// bundleCheck is "agora bundle check <dir>": it sends the bundle exactly
// as submit would (uploading large data first) to the node's dry run, and
// prints what it found, its price, and why it is or isn't ready.
func bundleCheck(ctx context.Context, e *env, args []string) int {
	return sendBundleFolder(ctx, e, "check", bundleCheckUsage, args)
}

// bundleSubmit is "agora bundle submit <dir>": it seals the bundle on the
// node and prints its sealed index.
func bundleSubmit(ctx context.Context, e *env, args []string) int {
	return sendBundleFolder(ctx, e, "submit", bundleSubmitUsage, args)
}

func sendBundleFolder(ctx context.Context, e *env, command, usage string, args []string) int {
	f := newPublishFlags(command)
	rest, err := parseArgs(f.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+usage)
		return 0
	}
	if err != nil {
		return fail(e, 2, "usage: "+usage, "%v", err)
	}
	if len(rest) != 1 {
		return fail(e, 2, "usage: "+usage, "give one bundle folder")
	}
	plan, err := bundle.PlanDir(rest[0])
	if err != nil {
		hint := ""
		switch {
		case errors.Is(err, bundle.ErrTooLarge):
			hint = fmt.Sprintf("a submission holds at most %d files, and %d bytes outside data/ (data/ files go ahead as uploads)", bundle.MaxFiles, bundle.MaxBytes)
		case errors.Is(err, bundle.ErrNotRegular):
			hint = "a bundle holds regular files only: copy what a link points at into the bundle instead"
		}
		return fail(e, 1, hint, "%v", err)
	}
	dir, code := keysDir(e, *f.keys)
	if code != 0 {
		return code
	}
	id, _, key, code := loadOperatorKey(e, *f.key, dir)
	if code != 0 {
		return code
	}
	digests, err := bundle.DigestWithUploads(plan.Inline, plan.Uploaded())
	if err != nil {
		return fail(e, 1, "rename or remove the file so every path keeps the bundle rules", "%v", err)
	}
	c := newClient(*f.url)
	if len(plan.Uploads) > 0 {
		if code := uploadAhead(ctx, e, c, rest[0], id, key, plan.Uploads); code != 0 {
			return code
		}
	}
	payload, err := canonical.Marshal(map[string]any{"type": "bundle", "bundle": digests.Bundle})
	if err != nil {
		return fail(e, 1, "", "%v", err)
	}
	files := make(map[string][]byte, len(plan.Inline)+1)
	for p, data := range plan.Inline {
		files[p] = data
	}
	files[bundle.SignatureFile] = []byte(key.Sign(payload))
	body := client.BundleBody{Files: files, Uploaded: plan.Uploaded()}
	if command == "check" {
		answer, err := c.CheckBundle(ctx, body)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		if *f.asJSON {
			return printBundleJSON(e, answer)
		}
		printCheck(e, answer)
		if ready, _ := answer["ready"].(bool); !ready {
			return 1
		}
		return 0
	}
	answer, status, err := c.SubmitBundle(ctx, body)
	if err != nil {
		var ce *client.Error
		if errors.As(err, &ce) && ce.Code == "invalid_bundle" {
			return fail(e, 1, "run 'agora bundle check "+rest[0]+"' for every problem", "the node refused the bundle: %s", ce.Message)
		}
		return nodeFailure(e, err, "")
	}
	if *f.asJSON {
		return printBundleJSON(e, answer)
	}
	fmt.Fprintf(e.stdout, "bundle  %v\nsealed  %v\nstate   %v\n", answer["bundle"], answer["sealed"], answer["state"])
	if status == 200 {
		fmt.Fprintln(e.stderr, "agora: note: the node had this bundle already; this is where it stands")
	}
	fmt.Fprintf(e.stderr, "agora: follow it with 'agora sealed %v --url %s'\n", answer["sealed"], *f.url)
	return 0
}

// uploadAhead sends the plan's large data files through signed upload
// requests, at most 100 files to a request, showing progress on stderr.
func uploadAhead(ctx context.Context, e *env, c *client.Client, dir, operator string, key *hybrid.PrivateKey, uploads []bundle.Upload) int {
	for start := 0; start < len(uploads); start += 100 {
		batch := uploads[start:min(start+100, len(uploads))]
		list := make([]any, len(batch))
		for i, u := range batch {
			list[i] = map[string]any{"digest": u.Digest, "bytes": u.Size}
		}
		req := map[string]any{"type": "upload_request", "operator": operator, "time": tlog.FormatTimestamp(time.Now()), "files": list}
		if err := protocol.Sign(req, key); err != nil {
			return fail(e, 1, "", "%v", err)
		}
		links, err := c.RequestUploads(ctx, req)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		byDigest := map[string]client.UploadLink{}
		for _, l := range links {
			byDigest[l.Digest] = l
		}
		for _, u := range batch {
			link := byDigest[u.Digest]
			if link.Present || link.Upload == nil {
				fmt.Fprintf(e.stderr, "agora: %s: the node has it already\n", u.Path)
				continue
			}
			file, err := os.Open(filepath.Join(dir, filepath.FromSlash(u.Path)))
			if err != nil {
				return fail(e, 1, "", "%v", err)
			}
			p := &progress{w: e.stderr, path: u.Path, total: u.Size}
			err = c.Put(ctx, link, io.TeeReader(file, p), u.Size)
			file.Close()
			p.done(err)
			if err != nil {
				return nodeFailure(e, err, "run the command again: an upload that failed is sent again from the start")
			}
		}
	}
	return 0
}

// progress shows how much of an upload went, at most a few times a second.
type progress struct {
	w     io.Writer
	path  string
	total int64
	sent  int64
	shown time.Time
}

func (p *progress) Write(b []byte) (int, error) {
	p.sent += int64(len(b))
	if time.Since(p.shown) > 200*time.Millisecond {
		p.shown = time.Now()
		p.show()
	}
	return len(b), nil
}

func (p *progress) show() {
	const width = 30
	filled := int(float64(width) * float64(p.sent) / float64(max(p.total, 1)))
	fmt.Fprintf(p.w, "\ruploading %s [%s%s] %3d%% %s/%s", p.path, strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
		100*p.sent/max(p.total, 1), megabytes(p.sent), megabytes(p.total))
}

func (p *progress) done(err error) {
	p.show()
	if err != nil {
		fmt.Fprintln(p.w, " failed")
		return
	}
	fmt.Fprintln(p.w, " done")
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// printCheck prints a check's answer for a person: what is wrong, what is
// flagged, the price, and why it is or isn't ready.
func printCheck(e *env, a map[string]any) {
	w := e.stdout
	fmt.Fprintf(w, "bundle               %v\n", a["bundle"])
	fmt.Fprintf(w, "verification inputs  %v\n", a["verification_inputs"])
	files, _ := a["files"].(map[string]any)
	fmt.Fprintf(w, "files                %d (each becomes permanent once the bundle opens)\n", len(files))
	if op := a["operator"]; op != nil {
		fmt.Fprintf(w, "operator             %v (%v)\n", op, a["operator_status"])
	}
	if list, _ := a["claims"].([]any); len(list) > 0 {
		fmt.Fprintln(w, "claims:")
		for _, item := range list {
			c, _ := item.(map[string]any)
			fmt.Fprintf(w, "  %-4v %v\n", c["local_id"], orDash(c["claim_id"]))
		}
	}
	if issues, _ := a["issues"].([]any); len(issues) > 0 {
		fmt.Fprintf(w, "problems to fix (%d):\n", len(issues))
		for _, item := range issues {
			is, _ := item.(map[string]any)
			where := fmt.Sprint(is["file"])
			if p, _ := is["path"].(string); p != "" {
				where += " " + p
			}
			fmt.Fprintf(w, "  %s: %v\n", where, is["message"])
		}
	}
	printIntegrity(w, a["integrity"])
	if hidden, _ := a["hidden_content"].([]any); len(hidden) > 0 {
		fmt.Fprintf(w, "hidden content (%d):\n", len(hidden))
		for _, item := range hidden {
			b, _ := json.Marshal(item)
			fmt.Fprintf(w, "  %s\n", b)
		}
	}
	if h := a["hazard_screen"]; h != nil {
		fmt.Fprintf(w, "hazard screen        %v\n", h)
	}
	if v := a["new_version_of"]; v != nil {
		fmt.Fprintf(w, "new version of       %v: its claims repeat that study's, so send this as its correction (\"replaces\")\n", v)
	}
	if q, ok := a["quota"].(map[string]any); ok {
		fmt.Fprintf(w, "quota                %v of %v bundles in 24 hours left\n", q["remaining"], q["limit"])
	}
	if p, ok := a["price"].(map[string]any); ok {
		if _, failed := p["issues"]; failed {
			fmt.Fprintln(w, "price                not priced until the problems are fixed")
		} else {
			free := ""
			if f, ok := p["free"].(string); ok {
				free = " (free: " + f + ")"
			}
			fmt.Fprintf(w, "price                %v credits, charged %v%s\n", p["credits"], p["charged"], free)
		}
	}
	pub, _ := a["publishing"].(map[string]any)
	if ready, _ := a["ready"].(bool); ready {
		fmt.Fprintln(w, "ready                yes: 'agora bundle submit' seals it")
	} else {
		why := "fix the problems above"
		if msg, ok := pub["message"].(string); ok {
			why = msg
		}
		fmt.Fprintf(w, "ready                no: %s\n", why)
	}
}

func printIntegrity(w io.Writer, v any) {
	flags, _ := v.(map[string]any)
	keys := make([]string, 0, len(flags))
	for k, list := range flags {
		if l, _ := list.([]any); len(l) > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		fmt.Fprintln(w, "integrity            nothing flagged")
		return
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "integrity flags (verifiers see these; bind what you can):")
	for _, k := range keys {
		list := flags[k].([]any)
		fmt.Fprintf(w, "  %s (%d):\n", strings.ReplaceAll(k, "_", " "), len(list))
		for _, item := range list {
			switch f := item.(type) {
			case map[string]any:
				if k == "orphan_numbers" {
					fmt.Fprintf(w, "    paper.md:%v:%v  %v  in %v: %v\n", f["line"], f["column"], f["number"], f["section"], f["excerpt"])
					continue
				}
				b, _ := json.Marshal(f)
				fmt.Fprintf(w, "    %s\n", b)
			default:
				fmt.Fprintf(w, "    %v\n", f)
			}
		}
	}
}

func orDash(v any) any {
	if v == nil {
		return "-"
	}
	return v
}

// bundleGet is "agora bundle get <hash> [--out DIR]": an open bundle's
// record, and with --out its files, each checked against its digest.
func bundleGet(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("agora bundle get", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "write the bundle's files into this folder, which must not exist yet")
	nodeURL := fs.String("url", defaultURL, "the node's URL")
	asJSON := fs.Bool("json", false, "print the node's answer as JSON")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+bundleGetUsage)
		return 0
	}
	if err != nil || len(rest) != 1 {
		return fail(e, 2, "usage: "+bundleGetUsage, "give one bundle hash (sha256:...)")
	}
	c := newClient(*nodeURL)
	b, err := c.Bundle(ctx, rest[0])
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if *asJSON {
		if code := printBundleJSON(e, b); code != 0 {
			return code
		}
	} else {
		fmt.Fprintf(e.stdout, "bundle    %v\nstate     %v\n", b["bundle"], b["state"])
		if t, ok := b["tombstone"].(map[string]any); ok {
			fmt.Fprintf(e.stdout, "withdrawn %v (entry %v)\n", t["reason"], t["withdrawal"])
		}
		claimsList, _ := b["claims"].([]any)
		for _, item := range claimsList {
			cl, _ := item.(map[string]any)
			fmt.Fprintf(e.stdout, "  %v  %v  %v\n", cl["local_id"], cl["claim_id"], cl["statement"])
		}
	}
	if *out == "" {
		return 0
	}
	files, _ := b["files"].(map[string]any)
	if files == nil {
		return fail(e, 1, "", "the node serves no files of %s", rest[0])
	}
	if err := os.Mkdir(*out, 0o755); err != nil {
		return fail(e, 1, "give --out a folder that does not exist yet", "%v", err)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		digest, _ := files[p].(string)
		if err := fetchFile(ctx, c, digest, filepath.Join(*out, filepath.FromSlash(p))); err != nil {
			return fail(e, 1, "", "%s: %v", p, err)
		}
	}
	fmt.Fprintf(e.stderr, "agora: wrote %d files to %s, each matching its digest\n", len(paths), *out)
	return 0
}

// fetchFile downloads a file by digest into path, refusing bytes that do
// not hash to it.
func fetchFile(ctx context.Context, c *client.Client, digest, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	_, err = c.File(ctx, digest, io.MultiWriter(f, h))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if got := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != digest {
		os.Remove(path)
		return fmt.Errorf("the node sent bytes hashing to %s, not %s", got, digest)
	}
	return nil
}

// runSealed is "agora sealed <index>": where a sealed entry stands.
func runSealed(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("agora sealed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nodeURL := fs.String("url", defaultURL, "the node's URL")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) || (len(args) > 0 && args[0] == "help") {
		fmt.Fprintln(e.stdout, "usage: "+sealedUsage)
		return 0
	}
	if err != nil || len(rest) != 1 {
		return fail(e, 2, "usage: "+sealedUsage, "give the sealed index 'agora bundle submit' printed")
	}
	index, err := strconv.ParseUint(rest[0], 10, 63)
	if err != nil {
		return fail(e, 2, "usage: "+sealedUsage, "%q is not a log index", rest[0])
	}
	a, err := newClient(*nodeURL).Sealed(ctx, index)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	return printBundleJSON(e, a)
}

const (
	claimsSearchUsage = "agora claims search [words...] [--field F] [--type T] [--operator ID] [--depends-on ID] [--cites ID] [--limit N] [--before I] [--url URL] [--json]"
	claimsGetUsage    = "agora claims get <claim-id> [--url URL]"
	claimsFollowUsage = "agora claims follow [--since I] [--field F] [--type T] [--url URL]"
)

// claimQueryFlags are the filters search and follow share.
type claimQueryFlags struct {
	fs                                     *flag.FlagSet
	field, typ, operator, dependsOn, cites *string
	url                                    *string
}

func newClaimQueryFlags(command string) claimQueryFlags {
	fs := flag.NewFlagSet("agora claims "+command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return claimQueryFlags{
		fs:        fs,
		field:     fs.String("field", "", "only claims of this field tag"),
		typ:       fs.String("type", "", "only claims of this type"),
		operator:  fs.String("operator", "", "only claims of this operator"),
		dependsOn: fs.String("depends-on", "", "only claims that depend on this claim ID"),
		cites:     fs.String("cites", "", "only claims whose bundles cite this ID"),
		url:       fs.String("url", defaultURL, "the node's URL"),
	}
}

func (f claimQueryFlags) values() url.Values {
	q := url.Values{}
	for name, v := range map[string]string{"field": *f.field, "type": *f.typ, "operator": *f.operator, "depends_on": *f.dependsOn, "cites": *f.cites} {
		if v != "" {
			q.Set(name, v)
		}
	}
	return q
}

func claimsSearch(ctx context.Context, e *env, args []string) int {
	f := newClaimQueryFlags("search")
	limit := f.fs.Int("limit", 20, "claims per page, at most 50")
	before := f.fs.Int64("before", 0, "only claims opened before this log index (the next.before of an earlier page)")
	asJSON := f.fs.Bool("json", false, "print the node's answer as JSON")
	rest, err := parseArgs(f.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+claimsSearchUsage)
		return 0
	}
	if err != nil {
		return fail(e, 2, "usage: "+claimsSearchUsage, "%v", err)
	}
	q := f.values()
	if len(rest) > 0 {
		q.Set("q", strings.Join(rest, " "))
	}
	q.Set("limit", strconv.Itoa(*limit))
	if *before > 0 {
		q.Set("before", strconv.FormatInt(*before, 10))
	}
	page, err := newClient(*f.url).Claims(ctx, q)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if *asJSON {
		return printBundleJSON(e, page)
	}
	list, _ := page["claims"].([]any)
	for _, item := range list {
		c, _ := item.(map[string]any)
		fmt.Fprintf(e.stdout, "%v  %v  [%v]  %v\n", c["claim_id"], c["type"], c["published_in"], c["statement"])
	}
	if next, ok := page["next"].(map[string]any); ok {
		fmt.Fprintf(e.stderr, "agora: more with --before %v\n", next["before"])
	}
	if len(list) == 0 {
		fmt.Fprintln(e.stderr, "agora: no claims found")
	}
	return 0
}

func claimsGet(ctx context.Context, e *env, args []string) int {
	f := newClaimQueryFlags("get")
	rest, err := parseArgs(f.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+claimsGetUsage)
		return 0
	}
	if err != nil || len(rest) != 1 {
		return fail(e, 2, "usage: "+claimsGetUsage, "give one claim ID (claim:...)")
	}
	c, err := newClient(*f.url).Claim(ctx, rest[0])
	if err != nil {
		return nodeFailure(e, err, "")
	}
	return printBundleJSON(e, c)
}

// claimsFollow prints every claim as it opens, one JSON object a line,
// until interrupted.
func claimsFollow(ctx context.Context, e *env, args []string) int {
	f := newClaimQueryFlags("follow")
	since := f.fs.Int64("since", 0, "start after this log index")
	rest, err := parseArgs(f.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(e.stdout, "usage: "+claimsFollowUsage)
		return 0
	}
	if err != nil || len(rest) != 0 {
		return fail(e, 2, "usage: "+claimsFollowUsage, "follow takes flags only")
	}
	err = newClient(*f.url).FollowClaims(ctx, *since, 25*time.Second, f.values(), func(c map[string]any) error {
		b, err := canonical.Marshal(c)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(e.stdout, string(bytes.TrimSpace(b)))
		return err
	})
	if errors.Is(err, context.Canceled) {
		return 0
	}
	return nodeFailure(e, err, "")
}
