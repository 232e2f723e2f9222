package replay_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/recall/replay"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/node/nodetest"
)

// startNode runs a real node on loopback and returns a client of one
// adapter of it.
func startNode(tb testing.TB) *replay.Client {
	tb.Helper()
	srv, dataDir := nodetest.Start(tb, node.Config{})
	return adapterOf(tb, srv.URL, nodetest.AdminToken(tb, dataDir), "codex")
}

// adapterOf has the node's admin issue a token for adapter id.
func adapterOf(tb testing.TB, url, admin, id string) *replay.Client {
	tb.Helper()
	body, _ := json.Marshal(map[string]any{"adapter_id": id})
	req, _ := http.NewRequest("POST", url+"/api/v1/admin/memory/adapters", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+admin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusCreated {
		tb.Fatalf("issuing a token: %d %v", resp.StatusCode, err)
	}
	return &replay.Client{URL: url, Adapter: id, Token: v.Token, HTTP: http.DefaultClient}
}

// replayAll stores the corpus's notes and replays the queries of part s.
func replayAll(tb testing.TB, c *replay.Client, corpus replay.Corpus, s replay.Split) (replay.Report, []replay.Outcome, map[string]string) {
	tb.Helper()
	refs, err := c.Store(corpus.Notes)
	if err != nil {
		tb.Fatal(err)
	}
	byRef := map[string]string{}
	for id, ref := range refs {
		byRef[ref] = id
	}
	var outs []replay.Outcome
	now := time.Now()
	for _, q := range corpus.Of(s) {
		o, err := c.Ask(q, byRef, now)
		if err != nil {
			tb.Fatal(err)
		}
		outs = append(outs, o)
	}
	return replay.Evaluate(outs), outs, byRef
}

// TestCorpusShape holds the corpus to what issue 14 asks of it.
func TestCorpusShape(t *testing.T) {
	c := replay.Build()
	var nofail, global int
	projects, systems, years := map[string]bool{}, map[string]bool{}, map[int]bool{}
	for _, n := range c.Notes {
		if n.NoFailure {
			nofail++
		}
		if n.Scope == "global" {
			global++
		}
		projects[n.Project], systems[n.OS], years[n.At.Year()] = true, true, true
	}
	nomatch := 0
	kinds := map[string]int{}
	for _, q := range c.Queries {
		if q.Want == "" {
			nomatch++
		}
		kinds[q.Kind]++
	}
	t.Logf("%d notes (%d describe no failure, %d global), %d projects, systems %v, %d years; %d queries, %d match no note; kinds %v",
		len(c.Notes), nofail, global, len(projects), systems, len(years), len(c.Queries), nomatch, kinds)
	if len(c.Notes) < 150 || len(c.Queries) < 200 || 4*nomatch < len(c.Queries) {
		t.Errorf("want ≥150 notes, ≥200 queries, ≥¼ matching none")
	}
	if nofail*100 < 4*len(c.Notes) || nofail*100 > 8*len(c.Notes) || global == 0 || len(projects) < 5 || len(systems) < 3 || len(years) < 3 {
		t.Errorf("want ~5%% notes without a failure, global notes, several projects, systems and years")
	}
	for _, k := range []string{"superseded fix", "twin on another system", "same text, another cause", "another project", "never stored: same kind, another object", "never stored: another failure"} {
		if kinds[k] == 0 {
			t.Errorf("no query of kind %q", k)
		}
	}
	for _, s := range []replay.Split{replay.Tune, replay.HeldOut, replay.Fresh, replay.Unseen, replay.Unseen2, replay.Unseen3, replay.Unseen4, replay.Unseen5, replay.Unseen6, replay.Unseen7} {
		if len(c.Of(s)) == 0 {
			t.Errorf("part %s has no queries", s)
		}
	}
}

// TestCorpusBlindPartsShape holds each part written blind (unseen3,
// unseen4, unseen5, unseen6, unseen7) to what a part of its own must hold to be worth reporting:
// enough notes and failures, a quarter of them matching no note, notes
// that describe no failure, every system, scope and year of 2022-2026,
// and every kind of distractor issue 14 lists.
func TestCorpusBlindPartsShape(t *testing.T) {
	c := replay.Build()
	for _, part := range []struct {
		split          replay.Split
		notes, queries int
	}{{replay.Unseen3, 50, 110}, {replay.Unseen4, 70, 140}, {replay.Unseen5, 90, 150}, {replay.Unseen6, 90, 150}, {replay.Unseen7, 90, 170}} {
		t.Run(string(part.split), func(t *testing.T) { checkPartShape(t, c, part.split, part.notes, part.queries) })
	}
}

func checkPartShape(t *testing.T, c replay.Corpus, split replay.Split, minNotes, minQueries int) {
	var notes, nofail, global, declared, prose int
	systems, years := map[string]bool{}, map[int]bool{}
	for _, n := range c.Notes {
		if n.Split != split {
			continue
		}
		notes++
		if n.NoFailure {
			nofail++
		}
		if n.Scope == "global" {
			global++
		}
		if n.Supersedes != "" {
			declared++
		}
		if n.ProseOver != "" {
			prose++
		}
		systems[n.OS], years[n.At.Year()] = true, true
	}
	qs := c.Of(split)
	nomatch := 0
	for _, q := range qs {
		if q.Want == "" {
			nomatch++
		}
	}
	t.Logf("%s: %d notes (%d describe no failure, %d global, %d declared and %d prose supersessions); %d failures, %d match no note",
		split, notes, nofail, global, declared, prose, len(qs), nomatch)
	if notes < minNotes || len(qs) < minQueries || 4*nomatch < len(qs) {
		t.Errorf("want ≥%d notes, ≥%d failures, ≥¼ matching none", minNotes, minQueries)
	}
	if nofail == 0 || nofail*10 > notes || global == 0 || declared == 0 || prose == 0 || len(systems) < 3 {
		t.Errorf("want a few notes without a failure, global notes, both kinds of supersession, three systems")
	}
	for y := 2022; y <= 2026; y++ {
		if !years[y] {
			t.Errorf("no note from %d", y)
		}
	}
	for _, k := range []string{"twin on another system", "same text, another cause", "same tool, another error", "superseded, declared",
		"superseded in prose", "another project's project note", "global note, another project", "generic file name", "never stored"} {
		if !slices.ContainsFunc(qs, func(q replay.Query) bool { return strings.Contains(q.Kind, k) }) {
			t.Errorf("no %s failure of kind %q", split, k)
		}
	}
}

// TestCorpusIntegrity holds every part's cases to what the replay takes
// for granted: IDs are unique, what a query wants and lists as stale is a
// stored note of its own part that describes a failure, a stale note is
// one its successor supersedes, and a note replaces only notes there are.
func TestCorpusIntegrity(t *testing.T) {
	c := replay.Build()
	notes := map[string]replay.Note{}
	for _, n := range c.Notes {
		if _, dup := notes[n.ID]; dup {
			t.Errorf("note %s twice", n.ID)
		}
		notes[n.ID] = n
		if n.Scope != "project" && n.Scope != "global" {
			t.Errorf("note %s: scope %q", n.ID, n.Scope)
		}
	}
	for _, n := range c.Notes {
		for _, old := range []string{n.Supersedes, n.ProseOver} {
			if o, ok := notes[old]; old != "" && (!ok || !o.At.Before(n.At)) {
				t.Errorf("note %s replaces %s, which is not an older note", n.ID, old)
			}
		}
	}
	ids := map[string]bool{}
	for _, q := range c.Queries {
		if ids[q.ID] {
			t.Errorf("query %s twice", q.ID)
		}
		ids[q.ID] = true
		if q.Tail == "" || q.Kind == "" || q.Project == "" || q.OS == "" {
			t.Errorf("query %s lacks a tail, kind, project or system", q.ID)
		}
		if len(q.Tail) > 4096 {
			t.Errorf("query %s: a tail of %d bytes, over the contract's 4096", q.ID, len(q.Tail))
		}
		if q.Want == "" {
			if len(q.Stale) > 0 {
				t.Errorf("query %s wants silence but lists stale notes", q.ID)
			}
			continue
		}
		w, ok := notes[q.Want]
		switch {
		case !ok:
			t.Errorf("query %s wants %s, no such note", q.ID, q.Want)
		case w.NoFailure:
			t.Errorf("query %s wants %s, a note that describes no failure", q.ID, q.Want)
		case w.Split != q.Split:
			t.Errorf("query %s of part %s wants %s of part %s", q.ID, q.Split, q.Want, w.Split)
		case w.Scope == "project" && w.Project != q.Project:
			t.Errorf("query %s in %s wants %s, a project note of %s", q.ID, q.Project, q.Want, w.Project)
		}
		for _, s := range q.Stale {
			if s != w.Supersedes && s != w.ProseOver {
				t.Errorf("query %s lists %s as stale, but %s does not replace it", q.ID, s, q.Want)
			}
		}
	}
}

// TestReplayTune replays the tune part through a real node's ingress and
// holds it to floors below the figures the tuning reached; the held-out
// part is measured by BenchmarkIngressReplay. A note that describes no
// failure is never pushed, and the answers do not depend on the queries
// before them: the first queries asked again get the same pushes.
func TestReplayTune(t *testing.T) {
	c := startNode(t)
	corpus := replay.Build()
	r, outs, byRef := replayAll(t, c, corpus, replay.Tune)
	t.Logf("tune: %s", r)
	if testing.Verbose() || os.Getenv("REPLAY_MISSES") != "" {
		for _, m := range r.Misses {
			t.Log(m)
		}
	}
	for _, o := range outs {
		for _, id := range o.Got {
			if strings.HasPrefix(id, "plain/") {
				t.Errorf("%s pushed %s, a note that describes no failure", o.Query.ID, id)
			}
		}
	}
	for _, o := range outs[:10] {
		again, err := c.Ask(o.Query, byRef, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(again.Got, ",") != strings.Join(o.Got, ",") {
			t.Errorf("%s asked again got %v, first %v", o.Query.ID, again.Got, o.Got)
		}
	}
	if r.RecallAt1 < 0.5 || r.FalseInjection > 0.2 || r.StaleFix > 0 {
		t.Errorf("tune replay below its floors: %s", r)
	}
}

func adminToken(tb testing.TB, dataDir string) string {
	tb.Helper()
	return nodetest.AdminToken(tb, dataDir)
}
