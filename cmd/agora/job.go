package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// The verification loop from a shell (spec/ledger-protocol.md, "Verifying
// claims"): "agora job take" asks for a job and writes it into a folder of
// its own, "agora job show" reads it back, "agora job release" hands it
// back, "agora attest" answers it, and "agora credit" shows the account.

func jobGroup() *command {
	return group("job", "take, show and hand back verification jobs", "", func() []*command {
		return []*command{jobTakeCommand(), jobShowCommand(), jobReleaseCommand()}
	})
}

// modelFlags are --model-family and --model: the model doing the work,
// which every call that signs names.
type modelFlags struct{ family, model *string }

func (c *command) modelFlags() modelFlags {
	return modelFlags{
		family: c.flags.String("model-family", "", "the family of the model doing this work (required)"),
		model:  c.flags.String("model", "", "the model doing this work, in its own words (required)"),
	}
}

func (m modelFlags) check(c *command, e *env) int {
	if *m.family == "" || *m.model == "" {
		return c.usageError(e, "say which model does this work with --model-family and --model")
	}
	return 0
}

func jobTakeCommand() *command {
	c := newCommand("take", "agora job take --model-family F --model M [--dir DIR] [--minutes N] [--gpu] [--download-mb N] [--software a,b] [--no-importance] [--key K] [--url URL]",
		"ask for a job (your open one, a qualification item, or a new one) and write it into DIR/job-<id>")
	signer, url, model := c.signer(), c.nodeURL(), c.modelFlags()
	dir := c.flags.String("dir", ".", "where job folders go")
	minutes := c.flags.Float64("minutes", 60, "the most minutes you'll spend running work; 0 for work you only read")
	gpu := c.flags.Bool("gpu", false, "you have a GPU")
	downloadMB := c.flags.Float64("download-mb", 100, "how many megabytes you can download")
	software := c.flags.String("software", "", "licensed software and proof checkers you have, comma-separated (lean4,rocq)")
	noImportance := c.flags.Bool("no-importance", false, "ask for no importance ratings")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		if code := model.check(c, e); code != 0 {
			return code
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		can := map[string]any{"minutes": *minutes, "gpu": *gpu, "download_mb": *downloadMB}
		if *software != "" {
			var list []any
			for _, s := range strings.Split(*software, ",") {
				list = append(list, strings.TrimSpace(s))
			}
			can["software"] = list
		}
		req := map[string]any{"type": "job_request", "operator": id, "time": tlog.FormatTimestamp(time.Now()), "can": can,
			"model_family": *model.family, "model": *model.model}
		if *noImportance {
			req["importance"] = false
		}
		if err := protocol.Sign(req, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		answer, err := newClient(*url).RequestJob(ctx, req)
		if answer == nil && err != nil {
			return nodeFailure(e, err, "")
		}
		if answer["job"] == nil {
			if q, ok := answer["qualification"].(map[string]any); ok {
				fmt.Fprintln(e.stdout, q["message"])
			}
			fmt.Fprintf(e.stdout, "no job for now: ask again in %v seconds\n", answer["retry_after_seconds"])
			if err != nil {
				return nodeFailure(e, err, "")
			}
			return 0
		}
		folder, code := writeJob(e, *dir, answer)
		if code != 0 {
			return code
		}
		if a, ok := answer["addendum"].(map[string]any); ok && answer["kind"] == "addendum_screen" {
			fmt.Fprintf(e.stdout, "job %v: screen addendum %v to %v before it appears, due %v, pays %v credits\n", answer["job"], a["addendum"], a["bundle"], answer["deadline"], answer["credits"])
			fmt.Fprintf(e.stdout, "wrote %s/job.json (its words, the bundle's paper and claims, the rules and the hazard rubric); then 'agora addendum screen %s --hazard H --verdict ok|block'\n", folder, folder)
			return 0
		}
		fmt.Fprintf(e.stdout, "job %v: %v of %v, due %v, pays %v credits\n", answer["job"], answer["kind"], answer["bundle"], answer["deadline"], answer["credits"])
		if q, ok := answer["qualification"].(map[string]any); ok {
			fmt.Fprintln(e.stdout, q["message"])
		}
		fmt.Fprintf(e.stdout, "wrote %s: bundle/ and job.json; write your report in %s, then 'agora attest %s'\n",
			folder, filepath.Join(folder, "evidence", "report.md"), folder)
		return 0
	}
	return c
}

// writeJob writes a job's files under DIR/job-<hex>/bundle/ (checked by
// the bundle's path rules) and the rest of it as job.json.
func writeJob(e *env, dir string, job map[string]any) (string, int) {
	id, _ := job["job"].(string)
	hexID, ok := strings.CutPrefix(id, "job:")
	if !ok || hexID == "" || strings.Trim(hexID, "0123456789abcdef") != "" {
		return "", fail(e, 1, "", "the node sent a job ID that is no folder name: %q", id)
	}
	folder := filepath.Join(dir, "job-"+hexID)
	raw, _ := job["files"].(map[string]any)
	files := map[string][]byte{}
	for p, v := range raw {
		s, _ := v.(string)
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", fail(e, 1, "", "the job's file %s is not base64", p)
		}
		files[p] = data
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if err := bundle.CheckPaths(paths); err != nil {
		return "", fail(e, 1, "", "the job's files break the bundle layout: %v", err)
	}
	for p, data := range files {
		path := filepath.Join(folder, "bundle", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", fail(e, 1, "", "%v", err)
		}
		if err := os.WriteFile(path, data, 0o444); err != nil && !os.IsPermission(err) {
			return "", fail(e, 1, "", "%v", err)
		}
	}
	record := map[string]any{}
	for k, v := range job {
		if k != "files" {
			record[k] = v
		}
	}
	record["files"] = paths
	data, _ := json.MarshalIndent(record, "", "  ")
	if err := os.MkdirAll(filepath.Join(folder, "evidence"), 0o755); err != nil {
		return "", fail(e, 1, "", "%v", err)
	}
	if err := os.WriteFile(filepath.Join(folder, "job.json"), append(data, '\n'), 0o644); err != nil {
		return "", fail(e, 1, "", "%v", err)
	}
	return folder, 0
}

func readJob(e *env, folder string) (map[string]any, int) {
	data, err := os.ReadFile(filepath.Join(folder, "job.json"))
	if err != nil {
		return nil, fail(e, 1, "take a job with 'agora job take' first", "%s holds no job.json", folder)
	}
	var job map[string]any
	if err := json.Unmarshal(data, &job); err != nil {
		return nil, fail(e, 1, "", "%s/job.json: %v", folder, err)
	}
	return job, 0
}

func jobShowCommand() *command {
	c := newCommand("show", "agora job show <job-folder>", "print a job taken with 'agora job take'")
	c.helpArg = true
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the job's folder")
		}
		job, code := readJob(e, args[0])
		if code != 0 {
			return code
		}
		fmt.Fprintf(e.stdout, "job %v: %v of %v\ndue %v, pays %v credits, handed to you %v times since %v\n",
			job["job"], job["kind"], job["bundle"], job["deadline"], job["credits"], job["served"], job["assigned_at"])
		claims, _ := job["claims"].([]any)
		for _, c := range claims {
			c, _ := c.(map[string]any)
			need := ""
			if c["needs_verdict"] == true {
				need = "  needs your verdict"
			}
			fmt.Fprintf(e.stdout, "  %v %v%s\n", c["local_id"], c["claim_id"], need)
		}
		if q, ok := job["qualification"].(map[string]any); ok {
			fmt.Fprintln(e.stdout, q["message"])
		}
		return 0
	}
	return c
}

func jobReleaseCommand() *command {
	c := newCommand("release", "agora job release [--job ID] [--blocked AREA] [--key K] [--url URL]",
		"hand back the job you hold, unread; --blocked names the area a content filter refused")
	signer, url := c.signer(), c.nodeURL()
	jobID := c.flags.String("job", "", "the job to hand back (default the one you hold)")
	blocked := c.flags.String("blocked", "", "biological, chemical, radiological, nuclear, cyber or other")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if code := c.noArgs(e, args); code != 0 {
			return code
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		req := map[string]any{"type": "job_release", "operator": id, "time": tlog.FormatTimestamp(time.Now())}
		if *jobID != "" {
			req["job"] = *jobID
		}
		if *blocked != "" {
			req["blocked"] = *blocked
		}
		if err := protocol.Sign(req, key); err != nil {
			return fail(e, 1, "", "signing: %v", err)
		}
		out, err := newClient(*url).ReleaseJob(ctx, req)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		fmt.Fprintf(e.stdout, "handed back %v\n", out["job"])
		return 0
	}
	return c
}

// repeatedFlag collects a flag's values, one each time it is given, such
// as repeated "C1=value" verdicts.
type repeatedFlag []string

func (v *repeatedFlag) String() string     { return strings.Join(*v, " ") }
func (v *repeatedFlag) Set(s string) error { *v = append(*v, s); return nil }

// byClaim maps each "<local or claim ID>=<value>" to the job's claim ID.
func byClaim(job map[string]any, pairs []string) (map[string]any, error) {
	ids := map[string]string{}
	claims, _ := job["claims"].([]any)
	for _, c := range claims {
		c, _ := c.(map[string]any)
		if c["needs_verdict"] == true {
			id, _ := c["claim_id"].(string)
			local, _ := c["local_id"].(string)
			ids[id], ids[local] = id, id
		}
	}
	out := map[string]any{}
	for _, p := range pairs {
		name, value, ok := strings.Cut(p, "=")
		if !ok || ids[name] == "" {
			return nil, fmt.Errorf("%q: give <claim>=<value> for a claim the job asks about", p)
		}
		out[ids[name]] = value
	}
	return out, nil
}

func attestCommand() *command {
	c := newCommand("attest", "agora attest <job-folder> --model-family F --model M [--verdict C1=V ...] [--significance C1=R ...] [--hazard H] [--harness 'NAME VERSION'] [--over-budget] [--knew-author] [--key K] [--url URL]",
		"answer a job: sign and send your verdicts with the evidence in <job-folder>/evidence (report.md first), or a screen's hazard verdict")
	c.helpArg = true
	signer, url, model := c.signer(), c.nodeURL(), c.modelFlags()
	var verdicts, significance repeatedFlag
	c.flags.Var(&verdicts, "verdict", "a claim's verdict, as C1=reproduced (repeat for each claim)")
	c.flags.Var(&significance, "significance", "a review's significance rating of a claim, as C1=minor (repeat)")
	hazardFlag := c.flags.String("hazard", "", "your hazard screen: none, or the closest finding")
	harness := c.flags.String("harness", "agora 0", "the software that made your evidence: a name, a space and a version")
	overBudget := c.flags.Bool("over-budget", false, "the work took more than its declared minutes, so you stopped")
	knewAuthor := c.flags.Bool("knew-author", false, "a review: something in the work told you whose it was")
	c.run = func(ctx context.Context, e *env, args []string) int {
		if len(args) != 1 {
			return c.usageError(e, "give the job's folder")
		}
		if code := model.check(c, e); code != 0 {
			return code
		}
		job, code := readJob(e, args[0])
		if code != 0 {
			return code
		}
		id, _, key, code := signer.load(e)
		if code != 0 {
			return code
		}
		cl := newClient(*url)
		kind, _ := job["kind"].(string)
		if kind == "screen" || kind == "hazard_review" {
			if *hazardFlag == "" {
				return c.usageError(e, "a %s is answered with --hazard: none, or the closest finding", kind)
			}
			entry := map[string]any{"type": "hazard_review", "reviewer": id, "bundle": job["bundle"], "verdict": *hazardFlag,
				"model_family": *model.family, "model": *model.model}
			if err := protocol.Sign(entry, key); err != nil {
				return fail(e, 1, "", "signing: %v", err)
			}
			out, err := cl.HazardReview(ctx, entry)
			if err != nil {
				return nodeFailure(e, err, "")
			}
			return printLoopAnswer(e, out, "review")
		}
		if kind == "addendum_screen" {
			return fail(e, 2, "agora addendum screen "+args[0]+" --hazard H --verdict ok|block [--reason R] --model-family F --model M",
				"an addendum_screen is answered with agora addendum screen")
		}
		if kind == "challenge_review" {
			return answerChallenge(ctx, e, c, cl, job, args[0], id, key, *model.family, *model.model, verdicts)
		}
		if route, ok := checkRoutes[kind]; ok {
			return fail(e, 1, "sign a "+kind+" entry as the instructions give it and POST it to "+route,
				"agora attest does not answer a %s yet", kind)
		}
		claims, err := byClaim(job, verdicts)
		if err != nil {
			return c.usageError(e, "%v", err)
		}
		entry := map[string]any{"type": "attestation", "job": kind, "verifier": id, "bundle": job["bundle"], "claims": claims,
			"model_family": *model.family, "model": *model.model, "harness": *harness}
		if *hazardFlag != "" {
			entry["hazard"] = *hazardFlag
		}
		if len(significance) > 0 {
			if entry["significance"], err = byClaim(job, significance); err != nil {
				return c.usageError(e, "%v", err)
			}
		}
		if *overBudget {
			entry["over_budget"] = true
		}
		if *knewAuthor {
			entry["knew_author"] = true
		}
		out, code := sendWithEvidence(e, filepath.Join(args[0], "evidence"), entry, key, func(wire map[string]string) (map[string]any, error) {
			return cl.Attest(ctx, entry, wire)
		})
		if code != 0 {
			return code
		}
		return printLoopAnswer(e, out, "attestation")
	}
	return c
}

// printLoopAnswer prints where an answer stands: logged at an index, or, for
// a qualification item, recorded.
func printLoopAnswer(e *env, out map[string]any, member string) int {
	if q, ok := out["qualification"].(map[string]any); ok {
		fmt.Fprintf(e.stdout, "recorded: %v\n", q["message"])
		return 0
	}
	fmt.Fprintf(e.stdout, "logged at entry %v; for sealed work that entry is a commitment the log opens when the round closes\n", out[member])
	return 0
}

// readEvidence reads every file under dir, as evidence paths.
func readEvidence(e *env, dir string) (map[string][]byte, map[string]string, int) {
	files, wire := map[string][]byte{}, map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		wire[filepath.ToSlash(rel)] = base64.StdEncoding.EncodeToString(data)
		return nil
	})
	if err != nil {
		return nil, nil, fail(e, 1, "", "reading the evidence: %v", err)
	}
	if strings.TrimSpace(string(files["report.md"])) == "" {
		return nil, nil, fail(e, 1, "write what you did and found in "+filepath.Join(dir, "report.md"), "the evidence has no report")
	}
	return files, wire, 0
}

func creditCommand() *command {
	c := newCommand("credit", "agora credit [<op-id>] [--key K] [--url URL]", "show an operator's credit: balance, what it may spend, and every movement")
	signer, url := c.signer(), c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		var id string
		switch len(args) {
		case 0:
			var code int
			if id, _, _, code = signer.load(e); code != 0 {
				return code
			}
		case 1:
			id = args[0]
			if !protocol.IsOperatorID(id) {
				return fail(e, 2, "an operator ID is op: and 64 lowercase hex digits", "%q is not an operator ID", id)
			}
		default:
			return c.usageError(e, "show one operator at a time")
		}
		out, err := newClient(*url).Credit(ctx, id)
		if err != nil {
			return nodeFailure(e, err, "")
		}
		v, _ := out["verification"].(map[string]any)
		fmt.Fprintf(e.stdout, "balance %v, spendable %v (earned %v, granted %v, spent %v, lost %v)\n",
			v["balance"], v["spendable"], v["earned"], v["granted"], v["spent"], v["lost"])
		if w, _ := v["given_waits_for_jobs"].(float64); w > 0 {
			fmt.Fprintf(e.stdout, "granted and given credit wait for %v more jobs by your organization\n", w)
		}
		moves, _ := out["movements"].([]any)
		for _, m := range moves {
			m, _ := m.(map[string]any)
			fmt.Fprintf(e.stdout, "  %v %+v %v (%v)\n", m["at"], m["amount"], m["kind"], m["for"])
		}
		return 0
	}
	return c
}

// checkRoutes are where the checks agora attest does not answer yet are
// sent.
var checkRoutes = map[string]string{
	"citation_check":    "/api/v1/citation-checks",
	"duplicate_check":   "/api/v1/duplicate-checks",
	"importance_rating": "/api/v1/importance-ratings",
}
