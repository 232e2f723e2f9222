package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agora-node/agora/canonical"
	"github.com/agora-node/agora/client"
	"github.com/agora-node/agora/hybrid"
	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/hazard"
	"github.com/agora-node/agora/protocol"
	"github.com/agora-node/agora/tlog"
)

// What the jobs bench's verifiers do: the work an honest verifier does
// on the bundles the bench seals and on the qualification test's items,
// read off the files a job carries, as the loop's tests do (node's
// judge). Nothing here knows an answer before reading the work.

// benchVerifier is an operator of the jobs bench: invited (an
// organization of its own), of one model family.
type benchVerifier struct {
	id     string
	key    *hybrid.PrivateKey
	family string
	model  string
}

// benchCan is what every bench verifier says it can run.
var benchCan = map[string]any{"minutes": 30, "download_mb": 100}

func (v benchVerifier) jobRequest() (map[string]any, error) {
	e := map[string]any{"type": "job_request", "operator": v.id, "time": tlog.FormatTimestamp(time.Now()),
		"can": benchCan, "model_family": v.family, "model": v.model}
	return e, protocol.Sign(e, v.key)
}

// sumStudy is the bench's bundle number n by an author of family signing
// with a key whose digest is keyDigest: code sums a column of twelve
// values and the paper declares the total, which re-runs in minutes, so
// its sealed round runs two reproductions.
func sumStudy(n int, family, keyDigest string) map[string][]byte {
	var csv strings.Builder
	csv.WriteString("value\n")
	total := 0
	for j := range 12 {
		v := 10 + (n*31+j*17)%90
		total += v
		fmt.Fprintf(&csv, "%d\n", v)
	}
	title := fmt.Sprintf("Twelve counts of sample %d", n)
	return map[string][]byte{
		"paper.md": []byte("# " + title + "\n\n## Summary\n\nWe report {{R1.total}}.\n\n## Claims\n\nThe claim is C1.\n\n## Methods\n\n" +
			"The code sums the column of data/values.csv.\n\n## Results\n\nThe total is {{R1.total}}.\n\n## Discussion\n\nNothing more.\n\n## Limitations\n\nA small sample.\n"),
		"data/values.csv": []byte(csv.String()),
		"code/run.py": []byte("import csv, json\nrows = list(csv.DictReader(open('data/values.csv')))\n" +
			"json.dump({'total': sum(int(r['value']) for r in rows)}, open('results/R1.json', 'w'))\n"),
		"results/R1.json": fmt.Appendf(nil, `{"total": %d}`, total),
		"claims.json": []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "The twelve values of sample ` + strconv.Itoa(n) +
			` sum to the declared total", "evidence": [{"result": "R1.total", "produced_by": "code/run.py", "tolerance": 0}], "depends_on": [], "confidence": 0.9}]`),
		"references.json": []byte(`[]`),
		"manifest.json": mustJSON(map[string]any{
			"operator_key_digest": keyDigest, "fields": []any{"statistics"}, "license": map[string]any{"prose": "CC-BY-4.0", "code": "MIT"},
			"model_families": []any{family}, "models": []any{family + "-bench-1"}, "compute": map[string]any{"minutes": 5, "gpu": false},
			"hazard_screen": map[string]any{"rubric": hazard.Digest(), "model": family + "-bench-1"},
		}),
	}
}

// signStudy signs a bundle's hash as its author, the body agora bundle
// submit sends; it returns the hash too.
func signStudy(files map[string][]byte, key *hybrid.PrivateKey) (client.BundleBody, string, error) {
	d, err := bundle.Digest(files)
	if err != nil {
		return client.BundleBody{}, "", err
	}
	payload, err := canonical.Marshal(map[string]any{"type": "bundle", "bundle": d.Bundle})
	if err != nil {
		return client.BundleBody{}, "", err
	}
	signed := make(map[string][]byte, len(files)+1)
	for p, data := range files {
		signed[p] = data
	}
	signed[bundle.SignatureFile] = []byte(key.Sign(payload))
	return client.BundleBody{Files: signed}, d.Bundle, nil
}

// jobFiles decodes a job's inline files.
func benchJobFiles(job map[string]any) (map[string][]byte, error) {
	out := map[string][]byte{}
	files, _ := job["files"].(map[string]any)
	for p, v := range files {
		s, _ := v.(string)
		data, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("job file %s: %w", p, err)
		}
		out[p] = data
	}
	return out, nil
}

// numbers reads the last column of a CSV with a header.
func numbers(data []byte) []float64 {
	var out []float64
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		cells := strings.Split(line, ",")
		if v, err := strconv.ParseFloat(cells[len(cells)-1], 64); err == nil && i > 0 {
			out = append(out, v)
		}
	}
	return out
}

// declaredResult is the value results/R1.json declares under name.
func declaredResult(files map[string][]byte, name string) (float64, bool) {
	v, err := canonical.Parse(files["results/R1.json"])
	if err != nil {
		return 0, false
	}
	obj, _ := v.(map[string]any)
	f, ok := obj[name].(float64)
	return f, ok
}

// judgeWork is what an honest verifier finds: the declared total re-run
// by summing the column the code sums, a declared mean recomputed from
// its measurements, and the hazard screen read off the data.
func judgeWork(files map[string][]byte) (holds bool, hazardVerdict string) {
	hazardVerdict = "none"
	for p, data := range files {
		switch {
		case strings.Contains(string(data), "date_of_birth"):
			hazardVerdict = "private_data"
		case strings.HasSuffix(p, ".txt") && strings.Contains(string(data), "All rights reserved"):
			hazardVerdict = "copyright"
		}
	}
	sum := func(vs []float64) float64 {
		t := 0.0
		for _, v := range vs {
			t += v
		}
		return t
	}
	switch {
	case files["data/values.csv"] != nil:
		total, ok := declaredResult(files, "total")
		return ok && sum(numbers(files["data/values.csv"])) == total, hazardVerdict
	case files["data/measurements.csv"] != nil:
		vals := numbers(files["data/measurements.csv"])
		mean, ok := declaredResult(files, "mean")
		return ok && len(vals) > 0 && math.Abs(sum(vals)/float64(len(vals))-mean) <= 0.01, hazardVerdict
	}
	return true, hazardVerdict
}

// benchReport is the evidence every bench answer carries, and its digest.
var benchReport, benchReportDigest = func() (map[string]string, string) {
	report := []byte("# Report\n\nI re-ran the declared result from the bundle's data and compared it.\n")
	_, digest, err := bundle.DigestEvidence(map[string][]byte{"report.md": report})
	if err != nil {
		panic(err)
	}
	return map[string]string{"report.md": base64.StdEncoding.EncodeToString(report)}, digest
}()

// answer does job as an honest verifier and sends the answer: a hazard
// review for a screen, else an attestation with its evidence.
func (v benchVerifier) answer(ctx context.Context, c *client.Client, job map[string]any) (map[string]any, error) {
	files, err := benchJobFiles(job)
	if err != nil {
		return nil, err
	}
	holds, hz := judgeWork(files)
	kind, _ := job["kind"].(string)
	if kind == "screen" {
		e := map[string]any{"type": "hazard_review", "reviewer": v.id, "bundle": job["bundle"], "verdict": hz,
			"model_family": v.family, "model": v.model}
		if err := protocol.Sign(e, v.key); err != nil {
			return nil, err
		}
		return c.HazardReview(ctx, e)
	}
	verdict := map[bool]string{true: "reproduced", false: "mismatch"}[holds]
	if kind != "reproduction" {
		verdict = map[bool]string{true: "sound", false: "unsound"}[holds]
	}
	verdicts, significance := map[string]any{}, map[string]any{}
	claimList, _ := job["claims"].([]any)
	for _, cl := range claimList {
		cl, _ := cl.(map[string]any)
		if id, _ := cl["claim_id"].(string); cl["needs_verdict"] == true {
			verdicts[id], significance[id] = verdict, "minor"
		}
	}
	e := map[string]any{"type": "attestation", "job": kind, "verifier": v.id, "bundle": job["bundle"], "claims": verdicts,
		"evidence": benchReportDigest, "model_family": v.family, "model": v.model, "harness": "agora-bench 1.0"}
	if kind == "reproduction" {
		e["hazard"] = hz
	} else {
		e["significance"] = significance
	}
	if err := protocol.Sign(e, v.key); err != nil {
		return nil, err
	}
	return c.Attest(ctx, e, benchReport)
}

// qualify takes v through the qualification test, answering every item
// as an honest verifier, until its requests get real work or nothing; it
// returns how many requests that took. A job that is real work is
// handed back to nobody: the bench qualifies before it seals bundles.
func (v benchVerifier) qualify(ctx context.Context, c *client.Client) (int, error) {
	for n := 1; n <= 30; n++ {
		req, err := v.jobRequest()
		if err != nil {
			return n, err
		}
		item, err := c.RequestJob(ctx, req)
		if err != nil {
			return n, err
		}
		if item["job"] == nil || item["qualification"] == nil {
			if q, ok := item["qualification"].(map[string]any); ok {
				return n, fmt.Errorf("%s: the test stopped: %v", v.id, q["message"])
			}
			return n, nil
		}
		if _, err := v.answer(ctx, c, item); err != nil {
			return n, fmt.Errorf("%s: answering a qualification item: %w", v.id, err)
		}
	}
	return 30, fmt.Errorf("%s: the qualification test went on past 30 items", v.id)
}
