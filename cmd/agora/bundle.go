package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// bundleGroup is "agora bundle hash|check|submit|get".
func bundleGroup() *command {
	return group("bundle", "start, hash, check and submit a bundle folder; read an open bundle", "", func() []*command {
		return []*command{
			bundleInitCommand(),
			bundleHashCommand(),
			bundleSendCommand("check", "sign the bundle and run the node's dry run: problems, integrity flags, price, whether it is ready (large data/ files are uploaded first)"),
			bundleSendCommand("submit", "sign the bundle and seal it on the node (large data/ files are uploaded first); retries 502/503/504 and 409 in_progress"),
			bundleGetCommand(),
		}
	})
}

// bundleHashCommand is "agora bundle hash <bundle-dir> [--json]": it
// checks every path in the folder against the bundle rules and prints the
// digest of each file, the bundle hash the operator signs and the
// verification inputs claims with evidence bind.
func bundleHashCommand() *command {
	c := newCommand("hash", "agora bundle hash <bundle-dir> [--json]",
		"check every path against the bundle rules; print each file's digest, the bundle hash and the verification inputs")
	c.helpArg = true
	asJSON := c.flags.Bool("json", false, "print JSON")
	c.run = func(_ context.Context, e *env, args []string) int {
		dir, code := oneFolder(c, e, args)
		if code != 0 {
			return code
		}
		_, digests, code := readBundleFolder(e, dir)
		if code != 0 {
			return code
		}
		if *asJSON {
			return printBundleJSON(e, struct {
				Bundle             string            `json:"bundle"`
				VerificationInputs string            `json:"verification_inputs"`
				Files              map[string]string `json:"files"`
			}{digests.Bundle, digests.VerificationInputs, digests.Files})
		}
		fmt.Fprintf(e.stdout, "bundle               %s\n", digests.Bundle)
		fmt.Fprintf(e.stdout, "verification inputs  %s\n", digests.VerificationInputs)
		fmt.Fprintf(e.stdout, "files                %d\n", len(digests.Files))
		paths := make([]string, 0, len(digests.Files))
		for p := range digests.Files {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			fmt.Fprintf(e.stdout, "  %s  %s\n", digests.Files[p], p)
		}
		return 0
	}
	return c
}

// oneFolder is the one bundle folder a command on a folder takes.
func oneFolder(c *command, e *env, args []string) (string, int) {
	switch len(args) {
	case 0:
		return "", c.usageError(e, "give the bundle folder")
	case 1:
		return args[0], 0
	}
	return "", c.usageError(e, "give one bundle folder, not %d", len(args))
}

// bundleSendCommand is "agora bundle check <dir>", which sends the bundle
// exactly as submit would (uploading large data first) to the node's dry
// run and prints what it found, its price, and why it is or isn't ready;
// and "agora bundle submit <dir>", which seals the bundle on the node and
// prints its sealed index.
func bundleSendCommand(name, help string) *command {
	c := newCommand(name, "agora bundle "+name+" <bundle-dir> [--key <op-id|file>] [--keys DIR] [--url URL] [--json]", help)
	signer := c.signer()
	url := c.nodeURL()
	asJSON := c.jsonFlag()
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give one bundle folder")
		}
		plan, err := bundle.PlanDir(args[0])
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
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		cl := newClient(*url)
		body, code := signBundle(ctx, e, cl, args[0], id, key, plan)
		if code != 0 {
			return code
		}
		if name == "check" {
			return checkBundle(ctx, e, cl, body, *asJSON)
		}
		return submitBundle(ctx, e, cl, args[0], *url, body, *asJSON)
	}
	return c
}

// signBundle uploads the plan's large files ahead, then signs the bundle
// hash and returns the body check and submit send.
func signBundle(ctx context.Context, e *env, c *client.Client, dir, id string, key *hybrid.PrivateKey, plan *bundle.Plan) (client.BundleBody, int) {
	if m, ok := plan.Inline["manifest.json"]; ok {
		keyDigest := protocol.KeyDigest(key.Public().String())
		if named, ok := nameKey(m, keyDigest); ok {
			plan.Inline["manifest.json"] = named
			fmt.Fprintf(e.stderr, "agora: note: manifest.json names no operator_key_digest, so it was sent naming your key, %s (add it to the file to keep the bundle hash 'agora bundle hash' prints)\n", keyDigest)
		}
	}
	digests, err := bundle.DigestWithUploads(plan.Inline, plan.Uploaded())
	if err != nil {
		return client.BundleBody{}, fail(e, 1, "rename or remove the file so every path keeps the bundle rules", "%v", err)
	}
	if len(plan.Uploads) > 0 {
		if code := uploadAhead(ctx, e, c, dir, id, key, plan.Uploads); code != 0 {
			return client.BundleBody{}, code
		}
	}
	payload, err := canonical.Marshal(map[string]any{"type": "bundle", "bundle": digests.Bundle})
	if err != nil {
		return client.BundleBody{}, fail(e, 1, "", "%v", err)
	}
	files := make(map[string][]byte, len(plan.Inline)+1)
	for p, data := range plan.Inline {
		files[p] = data
	}
	files[bundle.SignatureFile] = []byte(key.Sign(payload))
	return client.BundleBody{Files: files, Uploaded: plan.Uploaded()}, 0
}

func checkBundle(ctx context.Context, e *env, c *client.Client, body client.BundleBody, asJSON bool) int {
	answer, err := c.CheckBundle(ctx, body)
	if err != nil {
		return nodeFailure(e, err, "")
	}
	if asJSON {
		return printBundleJSON(e, answer)
	}
	printCheck(e, answer)
	if ready, _ := answer["ready"].(bool); !ready {
		return 1
	}
	return 0
}

func submitBundle(ctx context.Context, e *env, c *client.Client, dir, url string, body client.BundleBody, asJSON bool) int {
	answer, status, err := c.SubmitBundle(ctx, body)
	if err != nil {
		var ce *client.Error
		if errors.As(err, &ce) && ce.Code == "invalid_bundle" {
			return fail(e, 1, "run 'agora bundle check "+dir+"' for every problem", "the node refused the bundle: %s", ce.Message)
		}
		return nodeFailure(e, err, "")
	}
	if sealed, ok := answer["sealed"].(float64); ok {
		inline := make(map[string][]byte, len(body.Files))
		for p, data := range body.Files {
			if p != bundle.SignatureFile {
				inline[p] = data
			}
		}
		sub := submission{URL: url, Bundle: fmt.Sprint(answer["bundle"]), Sealed: int64(sealed), Dir: dir}
		if digests, err := bundle.DigestWithUploads(inline, body.Uploaded); err == nil {
			sub.Claims = localClaimIDs(inline, digests.VerificationInputs)
		}
		if abs, err := filepath.Abs(dir); err == nil {
			sub.Dir = abs
		}
		keepSubmission(e, sub)
	}
	if asJSON {
		return printBundleJSON(e, answer)
	}
	fmt.Fprintf(e.stdout, "bundle  %v\nsealed  %v\nstate   %v\n", answer["bundle"], answer["sealed"], answer["state"])
	if status == 200 {
		fmt.Fprintln(e.stderr, "agora: note: the node had this bundle already; this is where it stands")
	}
	fmt.Fprintln(e.stderr, "agora: note: a sealed bundle's claims are found by no one, you included, until its round is done and it opens")
	fmt.Fprintf(e.stderr, "agora: next: see what its round waits for with 'agora sealed %v --url %s'\n", answer["sealed"], url)
	return 0
}

// nameKey returns the manifest with "operator_key_digest" added as its first
// member, when it is a JSON object without one; the rest of the text is
// kept as written. It lets a study shared without a key, such as the ones
// in examples/, be checked and submitted by whoever signs it.
func nameKey(manifest []byte, keyDigest string) ([]byte, bool) {
	v, err := canonical.Parse(bytes.TrimPrefix(manifest, []byte{0xEF, 0xBB, 0xBF}))
	if err != nil {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if _, named := obj["operator_key_digest"]; named {
		return nil, false
	}
	open := bytes.IndexByte(manifest, '{')
	member := `"operator_key_digest": "` + keyDigest + `"`
	if len(obj) > 0 {
		member += ","
	}
	out := slices.Concat(manifest[:open+1], []byte("\n  "+member), manifest[open+1:])
	return out, true
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
			hint := ""
			var ce *client.Error
			if errors.As(err, &ce) && ce.Code == "no_identity" {
				hint = "prove an identity first: 'agora identity --help' lists the ways"
			}
			return nodeFailure(e, err, hint)
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

// readBundleFolder reads a bundle folder and hashes it, reporting a failure
// through fail and returning its exit code.
func readBundleFolder(e *env, dir string) (map[string][]byte, bundle.Digests, int) {
	files, err := bundle.ReadDir(dir)
	if err != nil {
		hint := ""
		switch {
		case errors.Is(err, bundle.ErrTooLarge):
			hint = fmt.Sprintf("a submission holds at most %d files and %d bytes; send large data ahead of the bundle (\"Large data\")", bundle.MaxFiles, bundle.MaxBytes)
		case errors.Is(err, bundle.ErrNotRegular):
			hint = "a bundle holds regular files only: copy what a link points at into the bundle instead"
		}
		return nil, bundle.Digests{}, fail(e, 1, hint, "%v", err)
	}
	digests, err := bundle.Digest(files)
	if err != nil {
		return nil, bundle.Digests{}, fail(e, 1, "rename or remove the file so every path keeps the bundle rules", "%v", err)
	}
	return files, digests, 0
}

// printBundleJSON prints v as indented JSON, leaving <, > and & as they are
// since nothing here is read as HTML.
func printBundleJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e, 1, "", "writing JSON: %v", err)
	}
	return 0
}
