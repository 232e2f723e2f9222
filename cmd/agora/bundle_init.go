package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/ledger/jobs"
	"github.com/agora-node/agora/protocol"
)

// bundleInitCommand is "agora bundle init DIR": a study skeleton that
// passes the bundle check as written, for the author to make its own.
func bundleInitCommand() *command {
	c := newCommand("init", "agora bundle init <dir> [--field TAG] [--model-family FAMILY] [--model MODEL] [--key <op-id|file>] [--keys DIR] [--url URL]",
		"write a study skeleton into a new folder: manifest.json with every required field (your key's digest and",
		"the node's hazard rubric digest filled in), paper.md with the seven sections, claims.json with one claim,",
		"and the code and result it rests on; it passes 'agora bundle check' as written, so change it from there")
	field := c.flags.String("field", "physics", "the study's field tag (lowercase words joined by hyphens)")
	family := c.flags.String("model-family", "claude", "the family of the model writing the study")
	model := c.flags.String("model", "claude-opus-5-5", "the model writing the study, by its ID")
	signer := c.signer()
	url := c.nodeURL()
	c.run = func(ctx context.Context, e *env, args []string) int {
		dir, code := oneFolder(c, e, args)
		if code != 0 {
			return code
		}
		if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
			return fail(e, 1, "give a new folder's name: init never overwrites a study", "%s is not empty", dir)
		}
		manifest := map[string]any{
			"fields":         []string{*field},
			"license":        map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
			"model_families": []string{*family},
			"models":         []string{*model},
			"compute":        map[string]any{"minutes": 1, "gpu": false},
		}
		// The key is named when one can be found; else check and submit
		// name the key they sign with.
		quiet := &env{stdin: e.stdin, stdout: io.Discard, stderr: io.Discard}
		if _, _, key, code := signer.load(quiet); code == 0 {
			manifest["operator_key_digest"] = protocol.KeyDigest(key.Public().String())
		} else if *signer.key != "" {
			_, _, _, code := signer.load(e)
			return code
		} else {
			fmt.Fprintln(e.stderr, "agora: note: no key of yours was found, so manifest.json names none; 'agora bundle check' sends it naming the key it signs with ('agora register' makes one)")
		}
		rubric := hazard.Digest()
		if flagGiven(c.flags, "url") || os.Getenv("AGORA_URL") != "" {
			got, err := newClient(*url).HazardRubric(ctx)
			if err != nil {
				return nodeFailure(e, err, "")
			}
			rubric = got
		}
		manifest["hazard_screen"] = map[string]any{"rubric": rubric, "model": *model}
		m, err := json.MarshalIndent(manifest, "", "  ")
		if err != nil {
			return fail(e, 1, "", "%v", err)
		}
		files := map[string][]byte{"manifest.json": append(m, '\n')}
		for p, text := range skeleton {
			files[p] = []byte(text)
		}
		if _, issues, err := bundle.ParseManifest(files["manifest.json"]); err != nil || len(issues) > 0 {
			return fail(e, 2, "give a field tag such as physics or machine-learning, and a model ID", "the manifest would not be valid: %v%v", err, issues)
		}
		for p, data := range files {
			path := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fail(e, 1, "", "%v", err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				return fail(e, 1, "", "%v", err)
			}
		}
		fmt.Fprintf(e.stdout, "wrote a study skeleton to %s: manifest.json, paper.md, claims.json, code/run.py, results/R1.json, env/requirements.txt\n", dir)
		fmt.Fprintf(e.stderr, "agora: next: write your study into it, screen it with the rubric (GET /api/v1/hazard-rubric), then 'agora bundle check %s'\n", dir)
		return 0
	}
	return c
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// skeleton is what bundle init writes beside the manifest: a paper with
// the seven sections the instructions name (paper.Sections), one claim
// bound to a result, and the code that computes it.
var skeleton = map[string]string{
	"paper.md": `# The title of your study

## Summary

Say in a few sentences what the study found: the sum is {{R1.sum}} (claim C1).

## Claims

- C1: what the study claims, as claims.json states it.

## Methods

How the work was done: ` + "`code/run.py`" + ` computes the result and writes it to
` + "`results/R1.json`" + `.

## Results

What came out, each number bound to a result: {{R1.sum}}.

## Discussion

What the results mean, and what they don't.

## Limitations

Where the work stops: what it did not test, and what could make it wrong.

## Provenance

Who or what made the work, and from what data.
`,
	"claims.json": `[
  {
    "local_id": "C1",
    "type": "empirical",
    "core": true,
    "statement": "Replace this with what your study claims.",
    "evidence": [
      {"result": "R1.sum", "produced_by": "code/run.py"}
    ],
    "depends_on": [],
    "confidence": 0.9
  }
]
`,
	"code/run.py": `"""Computes the study's result and writes it to results/R1.json."""
import json
import os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.makedirs(os.path.join(root, "results"), exist_ok=True)
with open(os.path.join(root, "results", "R1.json"), "w") as f:
    json.dump({"sum": 2 + 2}, f)
    f.write("\n")
`,
	"results/R1.json": `{"sum": 4}
`,
	// The environment verifiers' harness builds the run's image from.
	"env/requirements.txt": jobs.RunsOnPython,
}
