package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory"
	"github.com/agora-node/agora/memory/engine"
	"github.com/agora-node/agora/memory/recall/internal/gen"
	"github.com/agora-node/agora/memory/recall/replay"
	"github.com/agora-node/agora/node"
	"github.com/agora-node/agora/store/sqlite"
)

// BenchmarkIngressReplay is the memory's measurement: the corpus's notes
// sent through a real node's ingress, then every failing tool result of
// the held-out, fresh and the seven unseen parts (and, apart, the tune
// part) replayed in a fresh session each, the inject read as the agent
// reads it.
//
//	go test -run '^$' -bench BenchmarkIngressReplay -benchtime=1x ./memory/recall/replay/
//
// BenchmarkIngressReplay/corpus stores every part's notes in one memory;
// BenchmarkIngressReplay/own gives each part a memory of its own notes
// (metrics prefixed own-), where what each failure should get is certain.
//
// BenchmarkIngressReplay/100k does the same with 100,000 more records
// stored (the generator's, written to the node's store before it starts).
func BenchmarkIngressReplay(b *testing.B) {
	b.Run("corpus", func(b *testing.B) {
		for b.Loop() {
			measure(b, startNode(b))
		}
	})
	b.Run("own", func(b *testing.B) {
		for b.Loop() {
			measureOwn(b)
		}
	})
	b.Run("100k", func(b *testing.B) {
		n := 100_000
		if v, err := strconv.Atoi(os.Getenv("REPLAY_PAD")); err == nil {
			n = v // a smaller store, to try the benchmark quickly
		}
		for b.Loop() {
			measure(b, startPadded(b, n))
		}
	})
}

// reported are the parts the benchmark reports, in order.
var reported = []replay.Split{replay.HeldOut, replay.Tune, replay.Fresh, replay.Unseen, replay.Unseen2, replay.Unseen3, replay.Unseen4, replay.Unseen5, replay.Unseen6, replay.Unseen7}

// measure stores every part's notes in one memory and replays each
// part's failures against it.
func measure(b *testing.B, c *replay.Client) {
	corpus := replay.Build()
	byRef := store(b, c, corpus.Notes)
	for _, s := range reported {
		report(b, c, corpus, byRef, s, "")
	}
}

// measureOwn gives each part a memory of its own notes alone (a new
// node each), and replays its failures there. A part's author wrote its
// notes and failures together, so what a failure should get is certain
// only against them: in the shared memory another part's global note
// can answer a failure its own part says no note matches.
func measureOwn(b *testing.B) {
	corpus := replay.Build()
	for _, s := range reported {
		var notes []replay.Note
		for _, n := range corpus.Notes {
			if n.Split == s {
				notes = append(notes, n)
			}
		}
		c := startNode(b)
		report(b, c, corpus, store(b, c, notes), s, "own-")
	}
}

// store sends the notes and returns their note IDs by record_ref.
func store(b *testing.B, c *replay.Client, notes []replay.Note) map[string]string {
	refs, err := c.Store(notes)
	if err != nil {
		b.Fatal(err)
	}
	byRef := map[string]string{}
	for id, ref := range refs {
		byRef[ref] = id
	}
	return byRef
}

// report replays part s's failures, logs its figures and reports them
// as metrics, each name prefixed with store's prefix and the part's.
func report(b *testing.B, c *replay.Client, corpus replay.Corpus, byRef map[string]string, s replay.Split, storePrefix string) {
	var outs []replay.Outcome
	for _, q := range corpus.Of(s) {
		o, err := c.Ask(q, byRef, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		outs = append(outs, o)
	}
	r := replay.Evaluate(outs)
	b.Logf("%s%s: %s", storePrefix, s, r)
	if s == replay.Fresh && storePrefix == "" {
		// Per file: the fresh part was written in rounds, and a
		// round not yet looked at says whether tuning generalises.
		for _, part := range replay.ByFile(outs) {
			b.Logf("  %s %s", part.Name, replay.Evaluate(part.Outcomes))
		}
	}
	if path := os.Getenv("REPLAY_MISSES"); path != "" {
		// The benchmark log keeps only its first lines.
		os.WriteFile(path+"."+storePrefix+string(s), []byte(strings.Join(r.Misses, "\n")+"\n"), 0o600)
	}
	// Held-out keeps its bare metric names; fresh's and the unseen
	// parts' are prefixed.
	prefix := storePrefix
	switch s {
	case replay.Tune:
		if storePrefix == "" {
			return
		}
		prefix += "tune-"
	case replay.HeldOut:
	default:
		prefix += string(s) + "-"
	}
	b.ReportMetric(r.RecallAt1, prefix+"recall@1")
	b.ReportMetric(r.RecallAt3, prefix+"recall@3")
	b.ReportMetric(r.MRR, prefix+"MRR")
	b.ReportMetric(r.FalseInjection, prefix+"false-inj")
	b.ReportMetric(r.StaleFix, prefix+"stale-fix")
	b.ReportMetric(float64(r.P50.Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(r.P95.Microseconds())/1000, prefix+"p95-ms")
}

// startPadded starts a node whose store holds n records of the
// generator's corpus, all the adapter's own, before the replay's.
func startPadded(b *testing.B, n int) *replay.Client {
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "data")
	first, err := node.New(ctx, node.Config{DataDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	if err := first.Close(ctx); err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, sqlite.Config{Path: filepath.Join(dir, "state.db")})
	if err != nil {
		b.Fatal(err)
	}
	docs := gen.Generate(gen.Config{Seed: 7, Records: n}).Docs
	const batch = 2000
	for i := 0; i < len(docs); i += batch {
		var rows []engine.MemoryRecord
		for j, d := range docs[i:min(i+batch, len(docs))] {
			body, _ := json.Marshal(map[string]any{
				"title": d.Title, "type": "bugfix", "trust": "raw",
				"content":     map[string]string{"what": d.Content, "why": "", "where": "", "learned": ""},
				"failure":     map[string]string{"step_key": "", "tool_name": "Bash", "error_tail": d.ErrorText},
				"environment": map[string]any{"os": d.Environment["os"]},
				"occurred":    d.UpdatedAt,
			})
			at := time.Now().Add(-time.Hour)
			rows = append(rows, engine.MemoryRecord{Ref: memory.NewLocalRef(), Version: 1, Scope: engine.MemoryScopeGlobal,
				Project: d.Project, TopicKey: fmt.Sprintf("pad/%d", i+j), Revision: 1, Adapter: "codex", Created: at, Updated: at, Body: body})
		}
		ev := engine.MemoryEvent{AdapterID: "codex", EventID: fmt.Sprintf("sha256:%064x", i), BodyDigest: "sha256:" + fmt.Sprintf("%064x", i),
			Kind: "note", Result: []byte(`{"ok":true}`), Status: 200, At: time.Now()}
		if _, err := st.ApplyMemoryEvent(ctx, engine.MemoryChange{Event: ev, Records: rows}); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	// A node's start reads and indexes every record: with a large
	// memory that is what a restart waits for.
	started := time.Now()
	n2, err := node.New(ctx, node.Config{DataDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(started).Seconds(), "start-s")
	srv := httptest.NewServer(n2.Handler())
	b.Cleanup(func() {
		srv.Close()
		n2.Close(ctx)
	})
	return adapterOf(b, srv.URL, adminToken(b, dir), "codex")
}
