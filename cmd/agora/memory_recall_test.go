package main

import (
	"encoding/json"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agora-node/agora/memory/adapter"
	"github.com/agora-node/agora/memory/recall/replay"
)

// TestMemoryNoteRecalledLikeIngress: notes an agent writes through `agora
// memory mcp`'s memory_note are recalled the way the same notes sent to
// the ingress directly are. Part of the replay corpus (memory/recall/
// replay) goes both ways to two nodes; each of its failures, replayed
// through the ingress, gets the same note pushed first from both (or
// nothing from both).
func TestMemoryNoteRecalledLikeIngress(t *testing.T) {
	corpus := replay.Build()
	families := []string{"py-nomodule/", "tsc-2307/", "port-inuse/", "eslint-plugin/"}
	var notes []replay.Note
	for _, n := range corpus.Notes {
		if slices.ContainsFunc(families, func(f string) bool { return strings.HasPrefix(n.ID, f) }) && n.Supersedes == "" {
			// The MCP server runs on this machine, now: so do the notes
			// sent directly.
			n.OS, n.At = runtime.GOOS, time.Now().UTC()
			notes = append(notes, n)
		}
	}
	var queries []replay.Query
	for _, q := range corpus.Queries {
		_, of, _ := strings.Cut(q.ID, ":")
		if slices.ContainsFunc(families, func(f string) bool { return strings.HasPrefix(of, f) }) {
			queries = append(queries, q)
		}
	}

	// Through the ingress.
	url, dataDir := startNode(t)
	direct := ingressClient(t, url, dataDir, "direct")
	directRefs, err := direct.Store(notes)
	if err != nil {
		t.Fatal(err)
	}

	// Through memory_note, one MCP server per workspace.
	url2, dataDir2 := startNode(t)
	home := t.TempDir()
	memoryEnv(t, home)
	agora(t, 0, "memory", "adapter", "add", "claude-code", "--url", url2, "--data", dataDir2)
	cfg, err := adapter.LoadConfig(home, "claude-code", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	mcpRefs := map[string]string{}
	for _, n := range notes {
		args := map[string]any{"title": n.Title, "type": n.Type, "scope": n.Scope, "what": n.What, "why": n.Why,
			"where": n.Where, "learned": n.Learned, "topic_key": replay.TopicKey(n.ID)}
		if n.Fix != "" {
			args["fix_command"] = n.Fix
		}
		res := memoryMCPNote(t, "/home/dev/"+n.Project, args)
		mcpRefs[n.ID] = *res.RecordRef
	}
	viaMCP := &replay.Client{URL: url2, Adapter: "claude-code", Token: cfg.Token, HTTP: http.DefaultClient}

	answers := func(c *replay.Client, refs map[string]string) []string {
		byRef := map[string]string{}
		for id, ref := range refs {
			byRef[ref] = id
		}
		var out []string
		for _, q := range queries {
			o, err := c.Ask(q, byRef, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			first := "(nothing)"
			if len(o.Got) > 0 {
				first = o.Got[0]
			}
			out = append(out, first)
		}
		return out
	}
	want, got := answers(direct, directRefs), answers(viaMCP, mcpRefs)
	pushed := 0
	for i, q := range queries {
		if got[i] != want[i] {
			t.Errorf("%s: through memory_note %s is pushed first, through the ingress %s", q.ID, got[i], want[i])
		}
		if want[i] != "(nothing)" {
			pushed++
		}
	}
	if pushed < len(queries)/2 {
		t.Errorf("only %d of %d failures were answered at all", pushed, len(queries))
	}
	t.Logf("%d notes, %d failures replayed, %d answered, the same way both ways", len(notes), len(queries), pushed)
}

// ingressClient has the node's admin issue a token for adapter id and
// returns its client.
func ingressClient(t *testing.T, url, dataDir, id string) *replay.Client {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/api/v1/admin/memory/adapters", strings.NewReader(`{"adapter_id":"`+id+`"}`))
	req.Header.Set("Authorization", "Bearer "+adminToken(t, dataDir))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("issuing a token for %s: %d %v", id, resp.StatusCode, err)
	}
	return &replay.Client{URL: url, Adapter: id, Token: v.Token, HTTP: http.DefaultClient}
}
