package jobs

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/agora-node/agora/ledger/bundle"
	"github.com/agora-node/agora/ledger/claims"
)

// What an item expects, by kind: a screen the hazard verdict its work
// calls for; a review whether its claim holds; setup's reproduction the
// verdict an honest re-run gives.
const (
	ExpectHolds = "holds"
	ExpectFails = "fails"
)

// ItemClaim is a claim of an item's bundle, as a job lists it.
type ItemClaim struct {
	LocalID string
	ClaimID string
}

// ItemContent is an item's work: a small bundle made for it, with its
// claims and the answer it expects. MakeItem gives the same content for
// the same arguments, so an item is served again unchanged from its seed.
type ItemContent struct {
	Files   map[string][]byte
	Bundle  string // the hash of Files, as a job names its bundle
	Claims  []ItemClaim
	Expect  string
	Minutes float64
}

// MakeItem makes the content of an item of kind at level from field,
// chosen by seed.
func MakeItem(kind string, level int, field string, seed uint64) ItemContent {
	rnd := rand.New(rand.NewPCG(seed, uint64(level)))
	var c ItemContent
	switch {
	case kind == Reproduction:
		c = setupItem(rnd, field)
	case IsReview(kind):
		c = reviewItem(rnd, field, level)
	default:
		c = screenItem(rnd, field)
	}
	d, err := bundle.Digest(c.Files)
	if err != nil {
		panic(fmt.Sprintf("jobs: an item's files break the layout: %v", err)) // a bug in this file
	}
	c.Bundle = d.Bundle
	list, issues, err := claims.ParseFile(c.Files["claims.json"])
	if err != nil || len(issues) > 0 {
		panic(fmt.Sprintf("jobs: an item's claims do not check: %v %v", err, issues))
	}
	results, rissues := claims.CheckEvidence(list, c.Files)
	if len(rissues) > 0 {
		panic(fmt.Sprintf("jobs: an item's evidence does not check: %v", rissues))
	}
	ids, err := claims.AssignIDs(list, d.VerificationInputs, results)
	if err != nil {
		panic(fmt.Sprintf("jobs: an item's claim IDs: %v", err))
	}
	for i, cl := range list {
		c.Claims = append(c.Claims, ItemClaim{LocalID: cl.LocalID, ClaimID: ids[i]})
	}
	return c
}

// Right reports whether an answer to an item is right: verdicts (claim ID
// → verdict) for a review or setup, hazard for a screen.
func Right(kind, expect string, verdicts map[string]string, hazard string) bool {
	switch {
	case kind == Screen:
		return hazard == expect
	case len(verdicts) == 0:
		return false
	}
	for _, v := range verdicts {
		switch {
		case kind == Reproduction && v != expect:
			return false
		case IsReview(kind) && expect == ExpectHolds && v != "sound" && v != "minor_issues":
			return false
		case IsReview(kind) && expect == ExpectFails && v != "major_issues" && v != "unsound":
			return false
		}
	}
	return true
}

var subjects = map[string][2]string{
	"ecology":           {"nesting sites counted along a river", "sites"},
	"epidemiology":      {"weekly clinic visits for influenza-like illness", "visits"},
	"materials science": {"tensile strength of printed test bars", "MPa"},
	"economics":         {"monthly prices of a basket of staple foods", "units"},
	"astronomy":         {"brightness of a variable star on clear nights", "mag"},
	"linguistics":       {"word counts of sampled public speeches", "words"},
	"genetics":          {"allele counts in a public reference panel", "alleles"},
	"climate science":   {"daily maximum temperatures at a public station", "°C"},
}

func subject(field string) (what, unit string) {
	s, ok := subjects[field]
	if !ok {
		return "measurements", "units"
	}
	return s[0], s[1]
}

func paper(title, summary, methods, results, discussion string) []byte {
	return []byte("# " + title + "\n\n## Summary\n\n" + summary + "\n\n## Claims\n\nThe claim is C1.\n\n## Methods\n\n" + methods +
		"\n\n## Results\n\n" + results + "\n\n## Discussion\n\n" + discussion + "\n\n## Limitations\n\nA small sample.\n")
}

func values(rnd *rand.Rand, n, lo, hi int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = lo + rnd.IntN(hi-lo+1)
	}
	return out
}

func csvColumn(header string, vals []int) []byte {
	var b strings.Builder
	b.WriteString(header + "\n")
	for _, v := range vals {
		fmt.Fprintf(&b, "%d\n", v)
	}
	return []byte(b.String())
}

func sum(vals []int) int {
	t := 0
	for _, v := range vals {
		t += v
	}
	return t
}

// RunsOnPython is env/requirements.txt of work whose code needs Python's
// standard library alone: the reference harness runs a bundle only in an
// image env/ declares, and installs this file on its Python image.
const RunsOnPython = "# The code needs Python 3's standard library and nothing else.\n"

// setupItem is a small bundle whose code sums a column: its declared total
// is right half the time.
func setupItem(rnd *rand.Rand, field string) ItemContent {
	what, _ := subject(field)
	vals := values(rnd, 12, 10, 99)
	total := sum(vals)
	expect := "reproduced"
	declared := total
	if rnd.IntN(2) == 0 {
		expect = "mismatch"
		declared = total + 7 + rnd.IntN(40)
	}
	files := map[string][]byte{
		"paper.md": paper("The total of "+what, "We sum twelve records of "+what+".", "The code reads data/values.csv and writes the total.",
			"The total is {{R1.total}}.", "Nothing more."),
		"claims.json": []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "The twelve records of ` + what +
			` sum to the declared total", "evidence": [{"result": "R1.total", "produced_by": "code/run.py", "tolerance": 0}], "depends_on": [], "confidence": 0.9}]`),
		"data/values.csv": csvColumn("value", vals),
		"code/run.py": []byte("import csv, json, os\nrows = list(csv.DictReader(open('data/values.csv')))\nos.makedirs('results', exist_ok=True)\n" +
			"json.dump({'total': sum(int(r['value']) for r in rows)}, open('results/R1.json', 'w'))\n"),
		"results/R1.json": fmt.Appendf(nil, `{"total": %d}`, declared),
		// What the reference harness builds its image from: Python, and
		// nothing the code imports beyond its standard library.
		"env/requirements.txt": []byte(RunsOnPython),
	}
	return ItemContent{Files: files, Expect: expect, Minutes: 1}
}

// reviewItem is a short study of a mean: sound when the paper's mean is the
// data's and its conclusion stays within it, unsound when the mean is far
// off and the conclusion claims more than the data shows.
func reviewItem(rnd *rand.Rand, field string, level int) ItemContent {
	what, unit := subject(field)
	n := 8 + 4*level
	vals := values(rnd, n, 20, 80)
	mean := float64(sum(vals)) / float64(n)
	expect, stated := ExpectHolds, mean
	discussion := "The mean describes this sample only; a larger sample would say whether it holds elsewhere."
	if rnd.IntN(2) == 0 {
		expect = ExpectFails
		stated = mean * (1.6 + rnd.Float64())
		discussion = "This proves the same mean holds everywhere and always, and explains its cause."
	}
	stated = float64(int(stated*100+0.5)) / 100
	files := map[string][]byte{
		"paper.md": paper("The mean of "+what, fmt.Sprintf("We measured %s %d times; the mean is {{R1.mean}} %s.", what, n, unit),
			"Each value in data/measurements.csv is one measurement; the mean is their sum divided by their number.",
			"The mean is {{R1.mean}} "+unit+".", discussion),
		"claims.json": []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "The mean of the sampled ` + what +
			` is the declared value", "evidence": [{"result": "R1.mean", "measured": "data/measurements.csv", "tolerance": 0.01}], "depends_on": [], "confidence": 0.8}]`),
		"data/measurements.csv": csvColumn("value", vals),
		"results/R1.json":       fmt.Appendf(nil, `{"mean": %g}`, stated),
	}
	return ItemContent{Files: files, Expect: expect}
}

var (
	givenNames  = []string{"Maria", "James", "Aiko", "Olumide", "Sofia", "Lars", "Priya", "Tomas"}
	familyNames = []string{"Keller", "Okafor", "Tanaka", "Silva", "Novak", "Haddad", "Reyes", "Lindqvist"}
	conditions  = []string{"type 2 diabetes", "major depression", "HIV", "epilepsy", "hepatitis C"}
)

// screenItem is a short study whose data holds nothing of concern, or
// people's health records with names and phone numbers (private_data), or
// a whole chapter it says it copied from a rights holder's book
// (copyright).
func screenItem(rnd *rand.Rand, field string) ItemContent {
	what, unit := subject(field)
	files := map[string][]byte{
		"claims.json": []byte(`[{"local_id": "C1", "type": "empirical", "core": true, "statement": "The sampled ` + what +
			` average the declared value", "evidence": [{"result": "R1.mean", "measured": "data/records.csv", "tolerance": 0.5}], "depends_on": [], "confidence": 0.7}]`),
	}
	vals := values(rnd, 10, 20, 80)
	mean := float64(sum(vals)) / 10
	files["results/R1.json"] = fmt.Appendf(nil, `{"mean": %g}`, mean)
	expect := []string{"none", "private_data", "copyright"}[rnd.IntN(3)]
	var b strings.Builder
	switch expect {
	case "private_data":
		b.WriteString("full_name,date_of_birth,phone,diagnosis,value\n")
		for _, v := range vals {
			fmt.Fprintf(&b, "%s %s,19%02d-%02d-%02d,+1-555-%03d-%04d,%s,%d\n", givenNames[rnd.IntN(len(givenNames))], familyNames[rnd.IntN(len(familyNames))],
				40+rnd.IntN(50), 1+rnd.IntN(12), 1+rnd.IntN(28), rnd.IntN(1000), rnd.IntN(10000), conditions[rnd.IntN(len(conditions))], v)
		}
	default:
		b.WriteString("site,value\n")
		for i, v := range vals {
			fmt.Fprintf(&b, "S%02d,%d\n", i+1, v)
		}
	}
	files["data/records.csv"] = []byte(b.String())
	methods := "We took ten records from data/records.csv and averaged their values."
	if expect == "copyright" {
		files["data/chapter.txt"] = []byte("Chapter 3 of \"The Quiet Rivers\" by Helen Marrow, reproduced here in full from the 2021 edition. " +
			"Copyright (c) 2021 Northgate Press. All rights reserved. No part of this book may be reproduced without the publisher's written permission.\n\n" +
			strings.Repeat("The river bent past the mill, and the water ran dark and quick under the bridge where the children waited. ", 20) + "\n")
		methods += " The whole of chapter 3 of a recent novel, in data/chapter.txt, gives the setting."
	}
	files["paper.md"] = paper("Average "+what, "We average ten records of "+what+": {{R1.mean}} "+unit+".", methods,
		"The mean is {{R1.mean}} "+unit+".", "The mean describes this sample.")
	return ItemContent{Files: files, Expect: expect}
}
